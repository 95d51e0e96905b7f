// Gradle's test task and its own failure report (the plain console; the same lines in Gradle 4 and 8):
//
//   ex.RatioTest > third FAILED                         a failing test: its class, `>`, its name (JUnit 5's nested
//       java.lang.AssertionError at RatioTest.java:15   classes and display names are more `>` parts); the exception
//                                                       four spaces in: exceptionFormat SHORT (the default) gives
//                                                       its class and the test's line, `Caused by: …` deeper in;
//       java.lang.AssertionError: expected:<34> but…   FULL gives its message, then its frames eight spaces in
//           at ex.RatioTest.third(RatioTest.java:15)
//   3 tests completed, 2 failed, 1 skipped              after the last test of a task (none when all pass)
//
//   * What went wrong:                                  Gradle's failure, to a blank line: a task that failed
//   Execution failed for task ':compileJava'.           (`> Compilation failed; …`, `> There were failing tests.
//   > Compilation failed; see the compiler error …      …`: the compiler's errors and the tests say more), or a
//                                                       dependency it could not resolve (the set-up failed)
//   * Try:                                              its advice, to a blank line
//
// A failure is placed as JUnit 4's text runner places it: FULL's innermost frame in the test class's package (the
// code under test; the test's own line for a failed assertion), else the test method's frame; SHORT's `at
// File.java:N`. Named `ex.RatioTest.third`, the form `gradle test --tests` takes.
import { Char, isDigit } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts, TestFailure, Frame } from "../../model";
import { Parser } from "../../parser";
import { ByteSet } from "../../util/byte-set";
import { setLocation } from "../../frames";
import { failureNamed, junitValues, JavaPlace } from "../runners/common";
import { withName } from "../../util/name-hash";

const RUNNER = "gradle";
const FAILED = " FAILED";
const PASSED = " PASSED";
const SKIPPED = " SKIPPED";
const PART = " > ";

const enum State { NONE = 0, FAILURE = 1, WRONG = 2, TRY = 3 }

/** At rest: the counts (digits), `* What went wrong:` / `* Try:` / `* Get more help`; a failing test's line ends with `D`. */
const STARTS = new ByteSet().chars("0123456789*");
/** `… FAILED` (a failing test), `:compileJava UP-TO-DATE` / `FROM-CACHE` (a compile task that did not run). */
const ENDS = new ByteSet().chars("DE");

@final
export class GradleParser extends Parser {
  private state: i32 = State.NONE;
  private cur: TestFailure | null = null;
  /** Where the current failure is (SHORT's `at File.java:N`, FULL's frames). */
  private place: JavaPlace = new JavaPlace();
  private wantMessage: bool = false;
  /** What went wrong, as read so far (its first line, then its first `> ` reason). */
  private wrong: string = "";
  private reason: bool = false;
  /** The counts of the test tasks read so far (a build of several projects prints one line each). */
  private run: i64 = 0;
  private failed: i64 = 0;
  /**
   * testLogging.events 'passed', 'skipped' (`ex.RatioTest > half PASSED`): the tests so listed, and the hashes of
   * those passed (Tests.passedSet, when they are all the run counts).
   */
  private listedPassed: i64 = 0;
  private listedSkipped: i64 = 0;
  private passHashes: Array<u32> | null = [];
  private skipped: i64 = 0;

  busy(): bool { return this.state != State.NONE; }
  atRest(): bool { return this.state == State.NONE; }
  starts(): ByteSet | null { return STARTS; }
  endsStarts(): ByteSet | null { return ENDS; }

  claim(l: Line, f: Facts): bool {
    let st = this.state;
    if (st == State.FAILURE) {
      if (l.len > 0 && l.at(0) == Char.SPACE && !l.isBlank()) { this.body(l); return true; }
      this.state = State.NONE;
      this.cur = null;
      if (l.isBlank()) return true;
    } else if (st == State.WRONG) {
      if (!l.isBlank()) { this.wrongLine(l); return true; }
      this.state = State.NONE;
      this.wentWrong(f);
      return true;
    } else if (st == State.TRY) {
      if (!l.isBlank()) return true;
      this.state = State.NONE;
      return true;
    }
    let c0 = l.at(0);
    if (c0 == Char.STAR) {
      if (l.startsWith("* What went wrong:")) { this.state = State.WRONG; this.wrong = ""; this.reason = false; return true; }
      if (l.startsWith("* Try:")) { this.state = State.TRY; return true; }
      return l.startsWith("* Get more help at ");
    }
    if (isDigit(c0)) return this.counts(l, f);
    if (l.endsWith(" UP-TO-DATE") || l.endsWith(" FROM-CACHE")) { this.upToDate(l, f); return false; }
    if (l.endsWith(PASSED)) return this.listed(l, f, PASSED.length, true);
    if (l.endsWith(SKIPPED)) return this.listed(l, f, SKIPPED.length, false);
    return l.endsWith(FAILED) && this.failure(l, f);
  }

  /**
   * `:gson:compileJava UP-TO-DATE` (Gradle 4), `> Task :app:compileTestKotlin FROM-CACHE`: a compile task that did
   * not run prints none of its warnings (Facts.upToDate). The line stays in the tail.
   */
  private upToDate(l: Line, f: Facts): void {
    let p = l.startsWith("> Task :") ? 7 : 0;
    if (l.at(p) != Char.COLON || l.indexOfByte(Char.SPACE, p) != l.len - 11) return;
    let c = l.lastIndexOfByte(Char.COLON, l.len - 11);
    if (c >= p && l.matchAt("compile", c + 1)) f.upToDate = true;
  }

  /** `ex.RatioTest > half PASSED` / `… SKIPPED` (testLogging.events): a test that passed or was skipped. */
  private listed(l: Line, f: Facts, k: i32, passed: bool): bool {
    let name = testName(l, k);
    if (name === null) return false;
    let t = f.testsFor(RUNNER);
    if (t.runner != RUNNER) return false;
    if (passed) { this.listedPassed++; this.passHashes = withName(this.passHashes, name!); }
    else this.listedSkipped++;
    return true;
  }

  /** `ex.RatioTest > third FAILED`: the class (no space in it), then the test's parts. */
  private failure(l: Line, f: Facts): bool {
    let name = testName(l, FAILED.length);
    if (name === null) return false;
    let t = f.testsFor(RUNNER);
    if (t.runner != RUNNER) return false;
    let sep = l.indexOf(PART);
    let cls = l.str(0, sep);
    let rest = l.str(sep + PART.length, l.len - FAILED.length);
    let tf = failureNamed(t, name!);
    if (!t.totals) t.failed = t.failures.length;
    else t.failed = max<i64>(t.failed, this.failed + 1); // a later task's failure, before its counts
    t.passed = -1;
    this.cur = tf;
    let paren = rest.indexOf("(");
    this.place.begin(cls, paren > 0 ? rest.substring(0, paren) : rest, false);
    this.wantMessage = true;
    this.state = State.FAILURE;
    return true;
  }

  /** A line of the current failure: its exception (SHORT: with its place), a frame, a cause. */
  private body(l: Line): void {
    let tf = this.cur;
    if (tf === null) return;
    let p = l.skipSpaces(0);
    if (l.matchAt("at ", p)) { this.wantMessage = false; this.place.frame(l, p + 3, tf); return; }
    if (l.matchAt("Caused by: ", p)) { this.place.inCause = true; return; }
    if (!this.wantMessage) return;
    this.wantMessage = false;
    // SHORT: `java.lang.AssertionError at RatioTest.java:15`
    let at = l.lastIndexOf(" at ");
    if (at > p && l.indexOfByte(Char.SPACE, p) == at && l.indexOfByte(Char.SPACE, at + 4) < 0) {
      let fr = new Frame();
      if (setLocation(fr, l.str(at + 4, l.len)) && fr.file !== null) {
        tf.message = l.str(p, at);
        tf.file = fr.file;
        tf.line = fr.line;
        this.place.placed = true;
        return;
      }
    }
    let m = l.trimmed(p);
    tf.message = m;
    let v = junitValues(m);
    if (v !== null) { tf.expected = v[0]; tf.actual = v[1]; }
  }

  /** `3 tests completed, 2 failed` (`, 1 skipped`): a test task's counts, added to the tasks' before it. */
  private counts(l: Line, f: Facts): bool {
    let n = l.readInt(0);
    let p = l.end;
    if (n < 0 || !(l.matchAt(" tests completed, ", p) || l.matchAt(" test completed, ", p))) return false;
    let t = f.testsFor(RUNNER);
    if (t.runner != RUNNER) return false;
    let s = l.trimmed(0);
    let failed = countBefore(s, " failed");
    let skipped = countBefore(s, " skipped");
    this.run += n;
    this.failed += max<i64>(failed, 0);
    this.skipped += max<i64>(skipped, 0);
    // The failures read when the line names none (cut short): never fewer than listed.
    t.failed = max<i64>(this.failed, t.failures.length);
    t.skipped = this.skipped;
    t.passed = max<i64>(0, this.run - t.failed - this.skipped);
    t.totals = true;
    return true;
  }

  /** A line of `* What went wrong:`: its first, and the first `> ` reason under it. */
  private wrongLine(l: Line): void {
    if (this.wrong.length == 0) { this.wrong = l.trimmed(0); return; }
    if (this.reason) return;
    let p = l.skipSpaces(0);
    if (l.at(p) != Char.GT || l.at(p + 1) != Char.SPACE) return;
    this.reason = true;
    this.wrong += " " + l.trimmed(p + 2);
  }

  /**
   * The end of `* What went wrong:`: a dependency not resolved is the set-up's failure; a task's failure the
   * compiler's errors, the tests or a crash do not already tell is the build's.
   */
  private wentWrong(f: Facts): void {
    let w = this.wrong;
    if (w.length == 0) return;
    if (w.startsWith("Could not resolve ") || w.indexOf(" Could not resolve ") >= 0 || w.indexOf(" Could not find ") >= 0) {
      if (f.setupFailure === null && f.crash === null) f.setupFailure = w;
      return;
    }
    let t = f.tests;
    if (f.errorCount > 0 || f.crash !== null || (t !== null && t.failures.length > 0) || w.indexOf("There were failing tests") >= 0) return;
    if (f.buildFailedLine === null) f.buildFailedLine = w;
  }

  finish(f: Facts): void {
    if (this.state == State.WRONG) this.wentWrong(f);
    this.state = State.NONE;
    this.cur = null;
    let t = f.tests;
    if (t === null || t.runner != RUNNER || this.listedPassed + this.listedSkipped == 0) return;
    // No counts line (every test passed: Gradle prints none then): the listed tests are the counts.
    if (!t.totals) {
      t.passed = this.listedPassed;
      t.skipped = this.listedSkipped;
      t.failed = t.failures.length;
    }
    let hs = this.passHashes;
    if (hs !== null && <i64>hs.length == t.passed) t.passedSet = hs;
  }
}

/** The number before word in s (`2 failed`), or -1. */
function countBefore(s: string, word: string): i64 {
  let i = s.indexOf(word);
  if (i <= 0) return -1;
  let e = i;
  let a = e;
  while (a > 0 && isDigit(s.charCodeAt(a - 1))) a--;
  return a < e ? I64.parseInt(s.substring(a, e)) : -1;
}

/** `ex.RatioTest > third FAILED` less its last k bytes: `ex.RatioTest.third` (the parts joined by `.`), or null. */
function testName(l: Line, k: i32): string | null {
  let sep = l.indexOf(PART);
  if (sep <= 0 || l.indexOfByte(Char.SPACE) != sep || l.at(0) == Char.COLON || l.len - k <= sep + PART.length) return null;
  return l.str(0, sep) + "." + l.str(sep + PART.length, l.len - k).replaceAll(PART, ".");
}
