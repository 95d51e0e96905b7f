// JUnit 4's text runner (JUnitCore's TextListener, also what Bazel's JUnit4 runner prints):
//
//   JUnit version 4.13.2
//   .E...E
//   Time: 0.026
//   There were 2 failures:                       (`There was 1 failure:`)
//   1) third(RatioTest)                          each failure: `N) method(Class)`, its exception, its stack
//   java.lang.AssertionError: expected:<34> but was:<33>
//   	at org.junit.Assert.fail(Assert.java:89)
//   	at RatioTest.third(RatioTest.java:13)
//   Caused by: ...                               (causes and `... 12 more` belong to the failure)
//
//   FAILURES!!!
//   Tests run: 4,  Failures: 2                   (JUnit 3's runner adds `,  Errors: 1`); `OK (2 tests)` when all pass
//
// A failure is at the innermost frame of its exception in the test class's package (`at Ratio.percent(Ratio.java:3)`:
// the code under test; the test's own line for a failed assertion), else at its test method's frame in a cause
// (`at RatioTest.third(RatioTest.java:13)`), never in JUnit's own classes; its message is the exception's first line (assertEquals' `expected:<a>
// but was:<b>` gives expected and actual).
import { Char, isDigit } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts, TestFailure } from "../../model";
import { Parser } from "../../parser";
import { failureNamed, junitValues, JavaPlace } from "./common";

const RUNNER = "junit4";

@final
export class Junit4Parser extends Parser {
  private seen: bool = false;
  /** Inside `There were N failures:` up to the blank line after the last one. */
  private listing: bool = false;
  private cur: TestFailure | null = null;
  /** Where the current failure is (its frames). */
  private place: JavaPlace = new JavaPlace();
  private wantMessage: bool = false;
  /** The totals of the runs read so far. */
  private run: i64 = 0;
  private failures: i64 = 0;
  private errors: i64 = 0;

  busy(): bool { return this.listing; }

  claim(l: Line, f: Facts): bool {
    let c0 = l.at(0);
    if (this.listing) {
      if (this.failureLine(l, f)) return true;
      if (l.isBlank()) { this.listing = false; this.cur = null; return true; }
      if (this.cur !== null) { this.body(l); return true; }
      this.listing = false;
    }
    if (c0 == Char.J && l.startsWith("JUnit version ")) { this.begin(f); return true; }
    if (c0 == Char.T && (l.startsWith("There was 1 failure:") ||
        (l.startsWith("There were ") && l.endsWith(" failures:") && isDigit(l.at(11))))) {
      // PHPUnit prints the same words (then a blank line, then `1) Class::test`): the tests are JUnit's only
      // once a `N) method(Class)` line follows.
      this.listing = true;
      return true;
    }
    if (!this.seen) return false;
    if (c0 == Char.T && l.startsWith("Time: ") && isDigit(l.at(6))) return true;
    if (c0 == Char.F && l.startsWith("FAILURES!!!")) return true;
    if (c0 == Char.T && l.startsWith("Tests run: ")) return this.totals(l, f);
    // `OK (2 tests)`, `OK (1 test)`
    if (c0 == Char.O && l.startsWith("OK (") && isDigit(l.at(4))) {
      let n = l.readInt(4);
      if (n < 0 || !(l.matchAt(" test)", l.end) || l.matchAt(" tests)", l.end))) return false;
      this.setTotals(f, n, 0, 0);
      return true;
    }
    return false;
  }

  private begin(f: Facts): void {
    if (this.seen) return;
    this.seen = true;
    let t = f.testsFor(RUNNER);
    if (t.runner == RUNNER && !t.totals) { t.passed = -1; t.skipped = 0; }
  }

  /** `Tests run: 4,  Failures: 2` (JUnit 3: `,  Errors: 1`). */
  private totals(l: Line, f: Facts): bool {
    let s = l.trimmed(0);
    let run = l.readInt(11);
    let failures = countAfter(s, "Failures: ");
    if (run < 0 || failures < 0) return false;
    let errors = countAfter(s, "Errors: ");
    this.setTotals(f, run, failures, max<i64>(errors, 0));
    return true;
  }

  /** A run's totals, added to those of the runs before it in the log (one per module of a build). */
  private setTotals(f: Facts, run: i64, failures: i64, errors: i64): void {
    let t = f.testsFor(RUNNER);
    if (t.runner != RUNNER) return;
    this.run += run; this.failures += failures; this.errors += errors;
    t.failed = this.failures;
    t.errors = this.errors;
    t.passed = max<i64>(0, this.run - this.failures - this.errors);
    t.skipped = 0;
    t.totals = true;
  }

  /** `1) third(RatioTest)`: a failure begins. */
  private failureLine(l: Line, f: Facts): bool {
    if (!isDigit(l.at(0))) return false;
    let n = l.readInt(0);
    let p = l.end;
    if (n <= 0 || !l.matchAt(") ", p) || l.at(l.len - 1) != Char.RPAREN) return false;
    let open = l.lastIndexOfByte(Char.LPAREN);
    if (open <= p + 2) return false;
    this.begin(f);
    let t = f.testsFor(RUNNER);
    this.cur = null;
    if (t.runner != RUNNER) return true;
    let method = l.str(p + 2, open);
    let cls = l.str(open + 1, l.len - 1);
    // A failure JUnit names by a class of its own (`initializationError(org.junit.runner.JUnitCommandLineParseResult)`:
    // a test class it could not find) is the command line's: JUnit's frames are no place of the user's.
    this.place.begin(cls, method, cls.startsWith("org.junit.") || cls.startsWith("junit."));
    this.wantMessage = true;
    let tf = failureNamed(t, l.str(p + 2, l.len));
    if (!t.totals) t.failed = t.failures.length;
    else t.failed = max<i64>(t.failed, this.failures + 1); // a later run's failure, before its totals
    this.cur = tf;
    return true;
  }

  /** A line of the current failure: its exception's first line is the message; a frame may place it. */
  private body(l: Line): void {
    let tf = this.cur!;
    let p = l.skipSpaces(0);
    if (p > 0 && l.matchAt("at ", p)) {
      this.wantMessage = false;
      this.place.frame(l, p + 3, tf);
      return;
    }
    if (l.startsWith("Caused by: ")) { this.place.inCause = true; return; }
    if (this.wantMessage) {
      this.wantMessage = false;
      let m = l.trimmed(0);
      tf.message = m;
      // Assert.assertEquals: `java.lang.AssertionError: expected:<34> but was:<33>`
      let v = junitValues(m);
      if (v !== null) { tf.expected = v[0]; tf.actual = v[1]; }
    }
  }

  finish(f: Facts): void {
    this.listing = false;
    this.cur = null;
  }
}

/** The number after `word` in s (`Failures: 2`), or -1. */
function countAfter(s: string, word: string): i64 {
  let i = s.indexOf(word);
  if (i < 0) return -1;
  let a = i + word.length;
  let e = a;
  while (e < s.length && isDigit(s.charCodeAt(e))) e++;
  return e > a ? I64.parseInt(s.substring(a, e)) : -1;
}
