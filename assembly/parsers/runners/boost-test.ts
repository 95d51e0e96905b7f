// Boost.Test (the unit test framework of Boost; Debian's libboost-test-dev), read by the check-script parser. Its
// default log and report (colours are dropped by the splitter):
//
//   Running 5 test cases...
//   bt_test.cpp(19): error: in "basics/sum_three": check sum({1, 2, 3}) == 7 has failed [6 != 7]
//   bt_test.cpp(30): fatal error: in "edges/require_size": critical check v.size() == 2 has failed
//   unknown location(0): fatal error: in "edges/throws": std::runtime_error: ring is closed
//   bt_test.cpp(34): last checkpoint: "throws" test entry
//   *** 5 failures are detected in the test module "ring"          (`*** No errors detected` when none)
//
// A failure is named by its test case's path (`suite/case`) and placed at its first failed check; an exception's
// or a signal's (`memory access violation at address ...`: Boost.Test catches it, the module goes on, so not the
// run's crash) is at `unknown location`, placed by the `last checkpoint` line after it; the lines between are the
// rest of the exception's text (toml11's `[error] ...` with its ` --> file` and source lines). `--report_level=detailed`
// closes with `Test module "ring" has failed with:` and its per-suite and per-case lines instead of the `***` line;
// `--log_level=test_suite` adds `file(12): Entering test case "x"` / `Leaving test case ...` lines (claimed). The counts: `Running N test cases`
// less the cases that failed, added up over programs (the `***` line counts failed checks, not cases).
import { Char } from "../../util/chars";
import { Line } from "../../util/line";
import { Crash, Facts, TestFailure } from "../../model";
import { normPath } from "../../frames";
import { failureNamed } from "./common";

/** Lines of an exception's text taken after its failure line, and those kept in its message. */
const MAX_MORE = 20;
const MAX_LINES = 4;

export class BoostTestReport {
  seen: bool = false;
  /** Test cases announced by the running program's `Running N test cases...` (-1 when none is running). */
  private announced: i64 = -1;
  /** Failures when the running program started. */
  private failedAt: i32 = 0;
  private passed: i64 = 0;
  /** The failure last read, placed by a `last checkpoint` line when it had no place. */
  private last: TestFailure | null = null;
  /** Lines still taken as the last failure's message: an exception's what() may span lines (0 when none). */
  private more: i32 = 0;

  /** Facts.lastAssert at the last of Boost.Test's lines: one read since is the running case's. */
  private assertAt: Crash | null = null;

  /** Inside `--report_level=detailed`'s report, after its `Test module "x" has failed with:` line. */
  private report: bool = false;

  busy(): bool { return this.more > 0; }

  /** True when the line is Boost.Test's. */
  claim(l: Line, f: Facts): bool {
    let c = l.at(0);
    if (c == Char.R && l.startsWith("Running ") && l.endsWith("...")) return this.running(l, f);
    if (this.report) {
      // `  4 test cases out of 5 failed`, `  Test suite "edges" has failed with:`, `    Test case "x" was aborted with:`
      if (l.isBlank()) return true;
      let p = l.skipSpaces(0);
      if (p >= 2 && (l.indexOf(" out of ", p) > 0 || l.matchAt("Test case \"", p) || l.matchAt("Test suite \"", p))) return true;
      this.report = false;
    }
    if (this.announced < 0) return false;
    let r = this.known(l, f, c);
    if (r != 0) this.assertAt = f.lastAssert;
    if (r == 2) return true;
    if (r != 0) { this.more = 0; return r > 0; }
    if (this.more > 0) {
      // `unknown location(0): fatal error: in "t": toml::type_error: [error] ...` and its what()'s further lines.
      this.more--;
      let x = this.last!;
      let m = x.message;
      if (m.split("\n").length < MAX_LINES) x.message = m + "\n" + l.toString();
      return true;
    }
    return false;
  }

  /** 1 when the line is one of Boost.Test's own (claimed), -1 when it is its but not claimed, 0 when not its. */
  private known(l: Line, f: Facts, c: i32): i32 {
    if (c == Char.STAR && l.startsWith("*** ") && (l.startsWith("*** No errors detected") || l.indexOf(" detected in the test module ") > 0)) return this.close(f) ? 1 : -1;
    if (c == Char.T && l.startsWith("Test module \"") && (l.endsWith(" has failed with:") || l.endsWith(" has passed with:"))) {
      this.report = true;
      return this.close(f) ? 1 : -1;
    }
    // --log_level=test_suite: `Entering test module "ring"`, `Leaving test module ...`, `Test is aborted`.
    if ((c == Char.E && l.startsWith("Entering test module \"")) || (c == Char.L && l.startsWith("Leaving test module \"")) ||
      (c == Char.T && l.startsWith("Test is aborted"))) return 1;
    let e = l.indexOf("): ");
    if (e <= 0) return 0;
    let q = e + 3;
    // `bt_test.cpp(12): Entering test case "sum_empty"`, `...: Leaving test suite "basics"; testing time: 90us`
    if (l.matchAt("Entering test ", q) || l.matchAt("Leaving test ", q)) return 1;
    if (l.matchAt("error: in \"", q)) return this.failure(l, f, e, q + 11) ? 1 : 0;
    if (l.matchAt("fatal error: in \"", q)) {
      if (!this.failure(l, f, e, q + 17)) return 0;
      // `signal: SIGABRT (application abort requested)` after an assert()'s line (`prog: file.cpp:32: ...: Assertion
      // `x' failed.`, read by the assert parser since Boost.Test's line before): the assertion is the failure and its
      // place, not the `last checkpoint` (the case's entry when no check passed).
      let la = f.lastAssert;
      let x = this.last!;
      if (la !== null && la !== this.assertAt && x.file === null && x.message.startsWith("signal: SIGABRT")) fromAssert(x, la);
      // An exception's or a signal's (at `unknown location`): its text runs to the `last checkpoint` line.
      if (l.matchAt("unknown location", 0)) this.more = MAX_MORE;
      return 2;
    }
    // `file(34): last checkpoint: "throws" test entry`, or `file(11): last checkpoint` alone.
    if (l.matchAt("last checkpoint", q) && (q + 15 == l.len || l.at(q + 15) == Char.COLON)) {
      let x = this.last;
      if (x !== null && x.file === null) place(x, l, e);
      return 1;
    }
    return 0;
  }

  /** `Running 5 test cases...` (`Running 1 test case...`) */
  private running(l: Line, f: Facts): bool {
    let n = l.readInt(8);
    if (n < 0 || !(l.matchAt(" test cases...", l.end) || l.matchAt(" test case...", l.end))) return false;
    this.endProgram(f);
    this.announced = n;
    this.seen = true;
    this.assertAt = f.lastAssert;
    let t = f.testsFor("boost-test");
    this.failedAt = t.runner == "boost-test" ? t.failures.length : 0;
    return true;
  }

  /** `loc): error: in "suite/case": message`: loc is `file(line)` or `unknown location(0)`. */
  private failure(l: Line, f: Facts, e: i32, n: i32): bool {
    let ne = l.indexOf("\": ", n);
    if (ne <= n) return false;
    let t = f.testsFor("boost-test");
    if (t.runner != "boost-test") return false;
    let x = failureNamed(t, l.str(n, ne));
    if (x.message.length == 0) {
      x.message = l.trimmed(ne + 3);
      place(x, l, e);
    }
    this.last = x;
    return true;
  }

  private close(f: Facts): bool {
    this.endProgram(f);
    return true;
  }

  /** The running program's passes: its announced cases less those that failed. */
  private endProgram(f: Facts): void {
    if (this.announced < 0) return;
    let t = f.testsFor("boost-test");
    let failed = t.runner == "boost-test" ? t.failures.length - this.failedAt : 0;
    this.passed += max<i64>(this.announced - <i64>failed, 0);
    this.announced = -1;
    this.last = null;
    this.more = 0;
    this.assertAt = null;
  }

  finish(f: Facts): void {
    if (!this.seen) return;
    this.endProgram(f);
    let t = f.testsFor("boost-test");
    if (t.runner != "boost-test") return;
    t.passed = this.passed;
    t.failed = <i64>t.failures.length;
    t.skipped = 0;
    t.totals = true;
  }
}

/** The failure told by an assertion's crash: its message and the frame it names. */
function fromAssert(x: TestFailure, c: Crash): void {
  let m = c.message;
  if (m === null || c.frames.length == 0) return;
  let fr = c.frames[0];
  if (fr.file === null) return;
  x.message = m;
  x.file = fr.file;
  x.line = fr.line;
}

/** `bt_test.cpp(19)` before e (`unknown location(0)` places nothing). */
function place(x: TestFailure, l: Line, e: i32): void {
  let o = l.lastIndexOfByte(Char.LPAREN, e);
  if (o <= 0 || l.matchAt("unknown location", 0)) return;
  let n = l.readInt(o + 1);
  if (n < 0 || l.end != e) return;
  x.file = normPath(l.str(0, o));
  x.line = n;
}
