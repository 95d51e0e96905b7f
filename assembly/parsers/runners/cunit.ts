// CUnit's basic interface (CU_basic_run_tests; Debian's libcunit1-dev), read by the check-script parser. Verbose
// mode (CU_BRM_VERBOSE) prints a line per test, normal mode only the tests that failed; both list a failed test's
// assertions under it and close with the run summary:
//
//        CUnit - A unit testing framework for C - Version 2.1-3
//   Suite: ring
//     Test: push ...passed
//     Test: pop ...FAILED
//       1. cu_test.c:15  - CU_ASSERT_EQUAL(ring_pop(&r),8)
//   Suite ring, Test wrap had failures:                         (normal mode)
//       1. cu_test.c:27  - CU_ASSERT_STRING_EQUAL(ring_name(&r),"full")
//   Run Summary:    Type  Total    Ran Passed Failed Inactive
//                 suites      1      1    n/a      0        0
//                  tests      4      4      2      2        0
//                asserts      5      5      2      3      n/a
//
// A failed test is placed at its first failed assertion, the assertions (up to four) its message. The summary's
// `tests` row gives the counts (Inactive: skipped), added up over programs; the failed tests before it are
// CUnit's. With the banner seen and no summary (the program died in a test: CUnit catches no signal), the
// failures read so far stand, and the test whose line has no result (`  Test: queue ...`) failed: the binary
// died while running it (the run's crash, as gtest's).
import { Char, isDigit } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts } from "../../model";
import { normPath } from "../../frames";
import { PendingFailures } from "./pending";
import { failureNamed, runSignal, crashMidSuite } from "./common";

export class CunitReport {
  seen: bool = false;
  private banner: bool = false;
  private passed: i64 = 0;
  private failed: i64 = 0;
  private skipped: i64 = 0;
  private pend: PendingFailures = new PendingFailures();
  /** Index in pend of the failed test whose assertion lines follow (-1 when none). */
  private open: i32 = -1;
  /** After `Run Summary:`, until its `tests` row. */
  private summary: bool = false;
  /** The test whose `  Test: name ...` line has no result yet (the program died in it), or null. */
  private running: string | null = null;

  /** True when the line is CUnit's. */
  claim(l: Line, f: Facts): bool {
    let c = l.at(0);
    if (c == Char.SPACE) {
      let p = l.skipSpaces(0);
      let d = l.at(p);
      if (d == Char.T && p == 2 && l.matchAt("Test: ", 2)) return this.testLine(l);
      if (isDigit(d) && this.open >= 0) return this.assertion(l, p);
      if (this.summary) return this.row(l, f, p);
      if (d == Char.C && l.matchAt("CUnit - A unit testing framework for C", p)) { this.banner = true; return true; }
      return false;
    }
    this.open = -1;
    if (c == Char.S) {
      // `Suite: ring` (verbose); `Suite ring, Test wrap had failures:` (normal).
      if (l.matchAt("Suite: ", 0)) return this.banner;
      if (l.matchAt("Suite ", 0) && l.endsWith(" had failures:")) {
        let t = l.indexOf(", Test ", 6);
        if (t < 0) return false;
        let name = l.str(t + 7, l.len - 14);
        let i = this.pend.add(name, "");
        this.open = i;
        return this.banner;
      }
      return false;
    }
    if (c == Char.R && l.startsWith("Run Summary:") && l.indexOf(" Inactive") > 0) { this.summary = true; return true; }
    if (c == Char.E && this.seen && l.startsWith("Elapsed time = ")) return true;
    return false;
  }

  /** `  Test: name ...passed` / `...FAILED` (a crash leaves `  Test: name ...` with nothing, or its text, after). */
  private testLine(l: Line): bool {
    this.open = -1;
    this.running = null;
    let dots = l.lastIndexOf(" ...");
    if (dots <= 8) return false;
    let r = dots + 4;
    if (l.matchAt("FAILED", r) && r + 6 == l.len) {
      this.open = this.pend.add(l.str(8, dots), "");
      return this.banner;
    }
    if (l.matchAt("passed", r) && r + 6 == l.len) return this.banner;
    // No result: the program died in this test (a shell's job report may follow on the same line).
    this.running = l.str(8, dots);
    return this.banner && r == l.len;
  }

  /** `    1. cu_test.c:15  - CU_ASSERT_EQUAL(ring_pop(&r),8)`: the first places the test. */
  private assertion(l: Line, p: i32): bool {
    l.readInt(p);
    let e = l.end;
    if (!l.matchAt(". ", e)) return false;
    let dash = l.indexOf("  - ", e + 2);
    if (dash < 0) return false;
    let i = this.open;
    let x = this.pend.at(i);
    let msg = l.trimmed(dash + 4);
    if (x.file === null && x.message.length == 0) {
      let colon = l.lastIndexOfByte(Char.COLON, dash);
      if (colon > e + 2) {
        let n = l.readInt(colon + 1);
        if (n >= 0 && l.end == dash) { x.file = normPath(l.str(e + 2, colon)); x.line = n; }
      }
    }
    this.pend.addLine(i, msg);
    return this.banner;
  }

  /** The summary's rows: `tests   4   4   2   2   0` (Total, Ran, Passed, Failed, Inactive) counts and closes. */
  private row(l: Line, f: Facts, p: i32): bool {
    if (l.matchAt("suites ", p) || l.matchAt("asserts ", p)) return true;
    if (!l.matchAt("tests ", p)) { this.summary = false; return false; }
    this.summary = false;
    let v = new StaticArray<i64>(5);
    let q = p + 6;
    for (let k = 0; k < 5; k++) {
      q = l.skipSpaces(q);
      v[k] = l.readInt(q);
      if (v[k] < 0) return false;
      q = l.end;
    }
    this.seen = true;
    this.running = null;
    this.passed += v[2];
    this.failed += v[3];
    this.skipped += v[4];
    let t = f.testsFor("cunit");
    this.pend.flush(t, t.runner == "cunit");
    this.open = -1;
    return true;
  }

  finish(f: Facts): void {
    let crashed = this.banner ? this.running : null;
    if (!this.seen && crashed === null && (!this.banner || this.pend.length == 0)) return;
    let t = f.testsFor("cunit");
    if (t.runner != "cunit") return;
    // No summary (the program died in a test): the failures read so far, and the test it died in.
    this.pend.flush(t, true);
    if (crashed !== null) {
      let sig = runSignal(f);
      let x = failureNamed(t, crashed!);
      x.message = "test binary died" + (sig !== null ? " (" + sig! + ")" : "") + " while running " + crashed!;
      crashMidSuite(f, null, "test binary died while running " + crashed!);
    }
    if (!this.seen) { t.passed = -1; t.failed = <i64>t.failures.length; t.skipped = -1; return; }
    t.passed = this.passed;
    t.failed = max<i64>(this.failed, <i64>t.failures.length);
    t.skipped = this.skipped;
    t.totals = true;
  }
}
