// Check, the C unit test framework (libcheck; Debian's check), read by the check-script parser. srunner_run_all
// prints the suite's name, its tally, then a line per failed test (per test under CK_VERBOSITY=verbose):
//
//   Running suite(s): Ring
//   25%: Checks: 4, Failures: 2, Errors: 1
//   ck_test.c:10:P:Core:test_push:0: Passed
//   ck_test.c:18:F:Core:test_pop:0: Assertion 'ring_pop(&r) == 8' failed: ring_pop(&r) == 7, 8 == 8
//   ck_test.c:30:E:Edge:test_null:0: (after this point) Received signal 11 (Segmentation fault)
//
// `file:line:result:tcase:test:iteration: message`, result P (passed), F (a failed check), E (an error: a signal
// or an exit in the forked test; the harness went on, so not the run's crash) or S (skipped? not printed by 0.15).
// A failure is named by its test function and placed at the line. The tally's counts add up over suites and
// programs: passed = Checks - Failures - Errors.
import { Char, isDigit } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts } from "../../model";
import { normPath } from "../../frames";
import { failureNamed } from "./common";

export class CheckReport {
  seen: bool = false;
  private running: bool = false;
  private checks: i64 = 0;
  private failed: i64 = 0;

  /** True when the line is Check's. */
  claim(l: Line, f: Facts): bool {
    let c = l.at(0);
    if (c == Char.R && l.startsWith("Running suite(s): ")) { this.running = true; return true; }
    if (!this.running) return false;
    if (isDigit(c)) {
      let p = l.indexOf("%: Checks: ");
      if (p > 0 && p <= 3) return this.tally(l, f, p);
    }
    return this.result(l, f);
  }

  /** `25%: Checks: 4, Failures: 2, Errors: 1` */
  private tally(l: Line, f: Facts, p: i32): bool {
    let n = l.readInt(p + 11);
    if (n < 0 || !l.matchAt(", Failures: ", l.end)) return false;
    let fl = l.readInt(l.end + 12);
    if (fl < 0 || !l.matchAt(", Errors: ", l.end)) return false;
    let e = l.readInt(l.end + 10);
    if (e < 0) return false;
    this.seen = true;
    this.checks += n;
    this.failed += fl + e;
    f.testsFor("check");
    return true;
  }

  /** `ck_test.c:18:F:Core:test_pop:0: message` */
  private result(l: Line, f: Facts): bool {
    let a = l.indexOfByte(Char.COLON);
    if (a <= 0) return false;
    let n = l.readInt(a + 1);
    let b = l.end;
    if (n < 0 || l.at(b) != Char.COLON || l.at(b + 2) != Char.COLON) return false;
    let r = l.at(b + 1);
    if (r != Char.P && r != Char.F && r != Char.E && r != Char.S) return false;
    let tc = l.indexOfByte(Char.COLON, b + 3);
    if (tc < 0) return false;
    let te = l.indexOfByte(Char.COLON, tc + 1);
    if (te <= tc + 1) return false;
    let it = l.readInt(te + 1);
    if (it < 0 || !l.matchAt(": ", l.end)) return false;
    if (r != Char.F && r != Char.E) return true;
    let t = f.testsFor("check");
    if (t.runner != "check") return false;
    // A loop test's iterations are one test (its name).
    let x = failureNamed(t, l.str(tc + 1, te));
    if (x.file !== null) return true;
    x.file = normPath(l.str(0, a));
    x.line = n;
    x.message = l.trimmed(l.end + 2);
    return true;
  }

  finish(f: Facts): void {
    if (!this.seen) return;
    let t = f.testsFor("check");
    if (t.runner != "check") return;
    t.failed = max<i64>(this.failed, <i64>t.failures.length);
    t.passed = max<i64>(this.checks - this.failed, 0);
    t.skipped = 0;
    t.totals = true;
  }
}
