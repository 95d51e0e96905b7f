// Catch2 (v2 and v3's console reporter) and doctest, the header-only C++ test frameworks.
//
// Catch2, per failing test case (sections indented under its name, a long name wrapped at 79 columns):
//   -------------------------------------------------------------------------------
//   an empty stack
//     pop on it returns zero
//   -------------------------------------------------------------------------------
//   ./stack_test.cpp:22
//   ...............................................................................
//
//   ./stack_test.cpp:25: FAILED:
//     REQUIRE( s.pop() == 0 )
//   due to unexpected exception with message:
//     pop from an empty stack
// then `test cases: 4 | 1 passed | 3 failed` / `All tests passed (7 assertions in 4 test cases)`. A signal
// reads `due to a fatal error condition:` / `SIGSEGV - Segmentation violation signal`, and the binary dies of it.
//
// Catch2's compact reporter (`-r compact`) names no test case: one line per failed assertion,
//   ./stack_test.cpp:18: failed: s.peek() == 7 for: 1 == 7
//   ./stack_test.cpp:25: failed: unexpected exception with message: 'pop'; expression was: s.pop() == 0
// each a failure named by its expression (what survives an edit above it; its place when it has none), then
// `Failed 3 test cases, failed 4 assertions.` (v2: the failed test cases; no passes; v3 prints the console's
// `test cases: 5 | 1 passed | 3 failed | 1 skipped` rows) / `Passed all 4 test cases with 7
// assertions.`; a signal is `failed: fatal error condition with message: 'SIGSEGV - Segmentation violation signal'`.
//
// lest (martinmoene's header-only framework) prints the compact reporter's shape, the test case named after the kind:
//   test/span.t.cpp:188: failed: span<>: Allows to default-construct: v.size() == size_type( 2 ) for 0 == 2
//   test/span.t.cpp:308: failed: got unexpected exception with message "span::at(): index outside span": span<>: Allows ...: v.at( 20 ) == 1
//   test/span.t.cpp:42: failed: didn't get exception: NAME: F::blow()
// (the expansion after ` for `, no colon), then `2 out of 122 selected tests failed.` (the tests run: with
// --abort only those before the stop) or, under --pass, `All 122 selected tests passed.`; a passing run prints nothing.
//
// doctest, per failing test case:
//   ./stack_test.cpp:14:
//   TEST CASE:  peek shows the top
//
//   ./stack_test.cpp:18: ERROR: CHECK( s.peek() == 7 ) is NOT correct!
//     values: CHECK( 1 == 7 )
// then `[doctest] test cases: 3 | 1 passed | 2 failed | 0 skipped`; a signal is `FATAL ERROR: test case CRASHED: SIGSEGV ...`.
import { Char, isDigit } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts, Tests, TestFailure } from "../../model";
import { Parser } from "../../parser";
import { normPath } from "../../frames";
import { join } from "../../util/join";
import { failureNamed, crashMidSuite, joinLines, foreignLine, countBefore } from "./common";

const RULE = 79;
const MAX_MSG = 10;

const enum Mode { NONE, CATCH2, DOCTEST, COMPACT }
const COMPACT_FAILED = ": failed: ";
/** Where in a Catch2 test case's block the parser is. */
const enum At { OUT, NAME, LOC, BODY, TOTALS }

export class Catch2Parser extends Parser {
  mode: Mode = Mode.NONE;
  at: At = At.OUT;
  names: string[] = [];
  name: string = "";
  cur: TestFailure | null = null;
  msg: string[] = [];
  /** The signal a test case died of (`SIGSEGV - Segmentation violation signal`), and that test case. */
  signal: string | null = null;
  signalTest: string = "";
  /** The test binary's name from Catch2's banner (`list_test is a Catch v2.13.10 host application.`). */
  binary: string = "";
  /** The next indented line names the signal. */
  fatal: bool = false;
  failed: i64 = 0;
  /** doctest: the place its block gives the test case (`./stack_test.cpp:14:`), for a failure with no assertion. */
  caseFile: string | null = null;
  caseLine: i32 = -1;
  totPassed: i64 = -1; totFailed: i64 = -1; totSkipped: i64 = -1;
  /** The compact reporter's failed assertions (its summary counts test cases). */
  compactFailed: i64 = 0;
  /** Inside a SKIPPED block (Catch2 v3's console): its lines are claimed up to a blank line. */
  skipping: bool = false;
  /** A blank line came after the current assertion's block. */
  gap: bool = false;

  busy(): bool { return this.at == At.NAME || this.at == At.LOC; }

  claim(l: Line, f: Facts): bool {
    if (this.mode == Mode.NONE) {
      // The rules open Catch2's banner and its totals (a passing run's `All tests passed` has no banner).
      if (isRule(l, Char.TILDE) || isRule(l, Char.EQ)) return true;
      // `stack_test is a Catch v2.13.10 host application.` / `... is a Catch2 v3.4.0 host application.`
      if (l.endsWith(" host application.") && (l.contains(" is a Catch v") || l.contains(" is a Catch2 v"))) {
        this.start(f, Mode.CATCH2, "catch2");
        let is = l.indexOf(" is a Catch");
        if (is > 0 && l.indexOf(" ") == is) this.binary = l.str(0, is);
        return true;
      }
      if (l.startsWith("[doctest] ")) { this.start(f, Mode.DOCTEST, "doctest"); return this.doctestLine(l, f); }
      // A passing Catch2 run prints no banner: `All tests passed (7 assertions in 4 test cases)`.
      if (l.startsWith("All tests passed (") && l.contains(" assertions in ") && l.endsWith(")")) {
        this.start(f, Mode.CATCH2, "catch2");
        return this.allPassed(l);
      }
      // The compact reporter: a failed assertion's `file:12: failed: `, or its summary line.
      let hc = l.headColon();
      if ((hc > 0 && l.matchAt(COMPACT_FAILED, hc) && isDigit(l.at(hc - 1))) || compactSummary(l) >= 0 || lestSummary(l) >= 0) {
        let lest = lestSummary(l) >= 0 || (hc > 0 && lestFailure(l.str(hc + COMPACT_FAILED.length, l.len)) >= 0);
        this.start(f, Mode.COMPACT, lest ? "lest" : "catch2");
        return this.compactLine(l, f);
      }
      return false;
    }
    if (this.mode == Mode.DOCTEST) return this.doctestLine(l, f);
    if (this.mode == Mode.COMPACT && this.compactLine(l, f)) return true;
    return this.catchLine(l, f);
  }

  private start(f: Facts, mode: Mode, runner: string): void {
    this.mode = mode;
    f.testsFor(runner);
  }

  /** A line of the compact reporter: a failed (or, with -s, passed) assertion, or its summary. */
  private compactLine(l: Line, f: Facts): bool {
    let hc = l.headColon();
    if (hc > 0 && isDigit(l.at(hc - 1))) {
      if (l.matchAt(COMPACT_FAILED, hc)) { this.compactFailure(l, hc, f); return true; }
      if (l.matchAt(": passed: ", hc) || l.matchAt(": skipped: ", hc)) return true;
    }
    // Catch2 v3's compact summary is the console's totals rows: `test cases: 5 | 1 passed | 3 failed | 1 skipped`.
    let c = l.at(0);
    if (c == Char.t && l.startsWith("test cases: ")) { this.counts(l.trimmed(0)); return true; }
    if (c == Char.a && l.startsWith("assertions: ")) return true;
    if ((c == Char.A || isDigit(c)) && this.lestTotals(l)) return true;
    let n = compactSummary(l);
    if (n >= 0) {
      if (l.at(0) == Char.F) this.totFailed = max<i64>(this.totFailed, 0) + n;
      else { this.totPassed = max<i64>(this.totPassed, 0) + n; this.totFailed = max<i64>(this.totFailed, 0); }
      return true;
    }
    return l.startsWith("No tests ran") || l.startsWith("No test cases matched ");
  }

  /** lest's `2 out of 122 selected tests failed.` / `All 122 selected tests passed.`: summed over programs. */
  private lestTotals(l: Line): bool {
    let sel = lestSummary(l);
    if (sel < 0) return false;
    let failed: i64 = l.at(0) == Char.A ? 0 : l.readInt(0);
    this.totFailed = max<i64>(this.totFailed, 0) + failed;
    this.totPassed = max<i64>(this.totPassed, 0) + max<i64>(sel - failed, 0);
    return true;
  }

  /** `./stack_test.cpp:25: failed: <text>`: a failure named by its expression, at that place. */
  private compactFailure(l: Line, hc: i32, f: Facts): void {
    let t = this.tests(f);
    if (t === null) return;
    let colon = l.lastIndexOfByte(Char.COLON, hc);
    let n = colon > 0 ? l.readInt(colon + 1) : -1;
    let file = n >= 0 && l.end == hc ? normPath(l.str(0, colon)) : null;
    let text = l.str(hc + COMPACT_FAILED.length, l.len);
    // lest names its test case between the kind and the expression: the failure is that test case's.
    let sep = t.runner == "lest" ? lestFailure(text) : -1;
    if (sep >= 0) {
      let name = lestName(text, sep);
      let tf = failureNamed(t, name);
      this.compactFailed++;
      if (tf.message.length > 0) return;
      let kind = text.substring(0, lestKindEnd(text));
      tf.message = (kind.length > 0 ? kind + ": " : "") + text.substring(sep + 2);
      if (file !== null) { tf.file = file; tf.line = <i32>n; }
      return;
    }
    let msg = text;
    let expr = "";
    let k = text.indexOf("; expression was: ");
    if (k >= 0) { expr = text.substring(k + 18); msg = text.substring(0, k); }
    else {
      k = text.indexOf(" for: ");
      if (k > 0) expr = text.substring(0, k);
    }
    if (expr.startsWith("{Unknown expression")) expr = "";
    // `fatal error condition with message: 'SIGSEGV - Segmentation violation signal'`: the binary dies of it.
    const FATAL = "fatal error condition with message: '";
    if (msg.startsWith(FATAL)) {
      msg = msg.substring(FATAL.length, msg.endsWith("'") ? msg.length - 1 : msg.length);
      let sp = msg.indexOf(" ");
      if (msg.startsWith("SIG")) this.signal = sp > 0 ? msg.substring(0, sp) : msg;
    }
    let name = expr.length > 0 ? expr : file !== null ? file! + ":" + n.toString() : text;
    if (this.signal !== null && this.signalTest.length == 0) this.signalTest = name;
    let tf = failureNamed(t, name);
    this.compactFailed++;
    if (tf.message.length > 0) return;
    tf.message = msg;
    if (file !== null) { tf.file = file; tf.line = <i32>n; }
  }

  private tests(f: Facts): Tests | null {
    let t = f.tests;
    if (t === null) return null;
    if (this.mode == Mode.DOCTEST) return t.runner == "doctest" ? t : null;
    return t.runner == "catch2" || t.runner == "lest" ? t : null;
  }

  private catchLine(l: Line, f: Facts): bool {
    if (isRule(l, Char.MINUS)) {
      if (this.at == At.NAME) { this.name = join(this.names, " "); this.at = At.LOC; return true; }
      this.endFailure();
      this.skipping = false;
      this.names = [];
      this.at = At.NAME;
      return true;
    }
    if (this.at == At.NAME) {
      // The name, wrapped at 79 columns; its sections indented under it (kept out of the name: the test case
      // is what a user runs again).
      if (l.at(0) != Char.SPACE) this.names.push(l.trimmed(0));
      return true;
    }
    if (this.at == At.LOC) {
      if (isRule(l, Char.DOT)) this.at = At.BODY;
      return true;
    }
    if (isRule(l, Char.EQ, true)) { this.endFailure(); this.skipping = false; this.at = At.TOTALS; return true; }
    if (isRule(l, Char.TILDE) || l.startsWith("Run with -? for options") || l.startsWith("Randomness seeded to: ") ||
      l.startsWith("Filters: ")) return true;
    if (this.at == At.TOTALS) return this.totals(l);
    if (this.at != At.BODY) return false;
    if (foreignLine(l)) return false;
    // `./stack_test.cpp:18: FAILED:`; `: PASSED:` (-s) and `: warning:` are claimed, not failures.
    if (l.endsWith(": FAILED:")) {
      let loc = l.len - 9;
      this.assertion(f, l, loc, null);
      return true;
    }
    if (l.endsWith(": PASSED:") || l.contains(": warning:")) { this.endFailure(); return true; }
    // Catch2 v3's SKIP: `ring_test.cpp:30: SKIPPED:`, then `explicitly with message:` and the message, up to a blank
    // line; the totals count it.
    if (l.endsWith(": SKIPPED:")) { this.endFailure(); this.skipping = true; return true; }
    if (this.skipping) { if (l.isBlank()) this.skipping = false; return true; }
    if (this.cur === null) return l.isBlank();
    if (l.isBlank()) { this.gap = true; return true; }
    // A blank line ends an assertion's block (its lines are indented under `with expansion:` and the like); an
    // unindented line after it is the program's own output (a logging library's stderr), no part of the message.
    if (this.gap && l.at(0) != Char.SPACE) return false;
    let s = l.trimmed(0);
    if (this.fatal) {
      this.fatal = false;
      let sp = s.indexOf(" ");
      if (s.startsWith("SIG")) { this.signal = sp > 0 ? s.substring(0, sp) : s; this.signalTest = this.name; }
    }
    if (s == "due to a fatal error condition:") this.fatal = true;
    if (this.msg.length < MAX_MSG) this.msg.push(s);
    return true;
  }

  /** A failed assertion at the location l[0, loc) of test case this.name; first is its first message line. */
  private assertion(f: Facts, l: Line, loc: i32, first: string | null): void {
    this.gap = false;
    let t = this.tests(f);
    if (t === null) return;
    let tf = failureNamed(t, this.name);
    if (this.cur !== tf) {
      this.endFailure();
      this.cur = tf;
      if (tf.message.length == 0) {
        this.failed++;
        let colon = l.lastIndexOfByte(Char.COLON, loc);
        let n = colon > 0 ? l.readInt(colon + 1) : -1;
        if (n >= 0 && l.end == loc) { tf.file = normPath(l.str(0, colon)); tf.line = <i32>n; }
      } else if (this.msg.length < MAX_MSG) this.msg.push("");
    } else if (this.msg.length > 0 && this.msg.length < MAX_MSG) this.msg.push("");
    if (first !== null && this.msg.length < MAX_MSG) this.msg.push(first!);
  }

  private endFailure(): void {
    let t = this.cur;
    if (t !== null && this.msg.length > 0) {
      let m = joinLines(this.msg, MAX_MSG);
      // A test case's failing assertions one under another, up to MAX_MSG lines: a test case run again (a
      // CI loop, a retried binary) names the same failure, whose message must not grow with the re-runs.
      if (t.message.length == 0) t.message = m;
      else if (!t.message.includes(m) && lineCount(t.message) < MAX_MSG) t.message = joinLines((t.message + "\n" + m).split("\n"), MAX_MSG);
    }
    this.cur = null;
    this.msg = [];
    this.fatal = false;
  }

  /** `test cases: 4 | 1 passed | 3 failed` (Catch2); doctest's the same after `[doctest] `, with `| 0 skipped`. */
  private totals(l: Line): bool {
    let s = l.trimmed(0);
    if (s.startsWith("All tests passed (")) return this.allPassed(l);
    if (s.startsWith("test cases:")) { this.counts(s); return true; }
    return s.startsWith("assertions:") || s == "No tests ran";
  }

  /**
   * Several programs run one after another (a CMake project's test targets) print one totals block each: the
   * run's counts are their sum, as gtest's are.
   */
  private counts(s: string): void {
    this.totPassed = max<i64>(this.totPassed, 0) + max<i64>(countBefore(s, "passed"), 0);
    this.totFailed = max<i64>(this.totFailed, 0) + max<i64>(countBefore(s, "failed"), 0);
    let sk = countBefore(s, "skipped");
    if (sk >= 0) this.totSkipped = max<i64>(this.totSkipped, 0) + sk;
  }

  /** `All tests passed (7 assertions in 4 test cases)`. */
  private allPassed(l: Line): bool {
    let i = l.indexOf(" assertions in ");
    if (i < 0) return true;
    let n = l.readInt(i + 15);
    if (n >= 0) { this.totPassed = max<i64>(this.totPassed, 0) + n; this.totFailed = max<i64>(this.totFailed, 0); }
    return true;
  }

  private doctestLine(l: Line, f: Facts): bool {
    if (l.startsWith("[doctest] ")) {
      let s = l.trimmed(10);
      if (s.startsWith("test cases:")) this.counts(s);
      return true;
    }
    if (isRule(l, Char.EQ)) { this.endFailure(); this.at = At.LOC; return true; }
    // `TEST SUITE: name`, `TEST CASE:  name`, then the subcases indented under it.
    if (l.startsWith("TEST SUITE: ")) return true;
    if (l.startsWith("TEST CASE: ")) { this.endFailure(); this.name = l.trimmed(11); this.at = At.NAME; return true; }
    if (this.at == At.LOC) {
      // `./stack_test.cpp:14:`: the test case's place.
      if (l.endsWith(":")) {
        let colon = l.lastIndexOfByte(Char.COLON, l.len - 1);
        if (colon <= 0) return false;
        let n = l.readInt(colon + 1);
        this.caseFile = n >= 0 ? normPath(l.str(0, colon)) : null;
        this.caseLine = n >= 0 ? <i32>n : -1;
        return true;
      }
      if (l.startsWith("DESCRIPTION: ")) return true;
      // SCENARIO's test case is named `  Scenario: name`, printed bare (no `TEST CASE:  ` before it).
      if (l.startsWith("  Scenario: ")) { this.endFailure(); this.name = l.trimmed(0); this.at = At.NAME; return true; }
      return false;
    }
    // The test case's outcome under its decorators, after its assertions, at column 0.
    if (this.at != At.OUT && l.at(0) != Char.SPACE && this.outcome(l, f)) return true;
    if (this.at == At.NAME && (l.at(0) == Char.SPACE || l.isBlank())) return true;
    if (this.at == At.NAME) this.at = At.BODY;
    if (this.at != At.BODY) return false;
    if (foreignLine(l)) return false;
    // `./stack_test.cpp:18: ERROR: CHECK( s.peek() == 7 ) is NOT correct!`, `FATAL ERROR: ...`, `WARNING: ...`
    let k = l.indexOf(": ERROR: ");
    let w = 9;
    if (k < 0) { k = l.indexOf(": FATAL ERROR: "); w = 15; }
    if (k > 0 && l.at(0) != Char.SPACE && isDigit(l.at(k - 1))) {
      let rest = l.trimmed(k + w);
      if (rest.startsWith("test case CRASHED: ")) {
        let sig = rest.substring(19);
        let sp = sig.indexOf(" ");
        if (sig.startsWith("SIG")) { this.signal = sp > 0 ? sig.substring(0, sp) : sig; this.signalTest = this.name; }
      }
      this.assertion(f, l, k, rest);
      return true;
    }
    if (l.indexOf(": WARNING: ") > 0 && l.at(0) != Char.SPACE) { this.endFailure(); return true; }
    if (this.cur === null) return l.isBlank();
    if (l.isBlank()) return true;
    if (l.at(0) == Char.SPACE && this.msg.length < MAX_MSG) this.msg.push(l.trimmed(0));
    return l.at(0) == Char.SPACE;
  }

  /**
   * doctest's decorators decide a test case's outcome after its assertions: `may_fail`, `should_fail` and
   * `expected_failures(n)` print `... so marking it as not failed` (its failed assertions do not fail it), while
   * `timeout` and a `should_fail` that passed fail a test case that may have no failed assertion (`Test case
   * exceeded time limit of 0.000001!`, `Should have failed but didn't! Marking it as failed!`).
   */
  private outcome(l: Line, f: Facts): bool {
    let t = this.tests(f);
    if (t === null || this.name.length == 0) return false;
    if (l.contains(" so marking it as not failed")) {
      this.endFailure();
      let fs = t.failures;
      for (let i = fs.length - 1; i >= 0; i--) {
        if (unchecked(fs[i]).name != this.name) continue;
        fs.splice(i, 1);
        if (this.failed > 0) this.failed--;
        break;
      }
      return true;
    }
    if (l.startsWith("Test case exceeded time limit of ") || l.startsWith("Should have failed but didn't!") ||
      (l.startsWith("Didn't fail exactly ") && l.contains(" so marking it as failed"))) {
      this.endFailure();
      let had = t.failures.length;
      let tf = failureNamed(t, this.name);
      if (tf.message.length == 0 && t.failures.length > had) {
        this.failed++;
        tf.file = this.caseFile; tf.line = this.caseLine;
      }
      let m = l.trimmed(0);
      if (!tf.message.includes(m) && lineCount(tf.message) < MAX_MSG) tf.message = tf.message.length == 0 ? m : tf.message + "\n" + m;
      return true;
    }
    return false;
  }

  finish(f: Facts): void {
    if (this.mode == Mode.NONE) return;
    this.endFailure();
    let t = this.tests(f);
    if (t === null) return;
    let sig = this.signal;
    if (sig !== null) {
      crashMidSuite(f, sig, "test binary died of " + sig! + " while running " + this.signalTest);
      // The binary stopped in that test case, and the runner lists neither its passing tests nor a plan:
      // a test case failing before and in no line now may come after it. Not run, never fixed.
      t.unfinished.push(this.binary.length > 0 ? this.binary : "the test binary");
    }
    if (this.totPassed >= 0) {
      t.passed = this.totPassed;
      t.failed = max(this.totFailed, this.failed);
      if (this.totSkipped >= 0) t.skipped = this.totSkipped;
      t.totals = true;
    } else if (this.mode == Mode.COMPACT) {
      // `Failed 3 test cases, failed 4 assertions.` counts the failed test cases, not the passes.
      t.passed = -1;
      t.failed = this.totFailed >= 0 ? this.totFailed : this.compactFailed;
      t.totals = this.totFailed >= 0;
    } else t.failed = this.failed;
  }
}

/**
 * A line of RULE copies of c (Catch2's and doctest's block rules). Catch2 v3's `=` bar above the totals is a ratio
 * bar whose parts are rounded, the skipped part not trimmed back: it is 80 or 81 wide when a test case was skipped
 * (wide: only inside a Catch2 run; istanbul's coverage summary ends with a rule of 80).
 */
function isRule(l: Line, c: i32, wide: bool = false): bool {
  let n = l.len;
  return (n == RULE || (wide && n > RULE && n <= RULE + 2)) && l.isAll(c);
}

function lineCount(s: string): i32 {
  let n = 1;
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) == Char.LF) n++;
  return n;
}

/**
 * The compact reporter's summary: `Failed 3 test cases, failed 4 assertions.`, `Failed 1 test case, failed both 2
 * assertions.`, `Passed all 4 test cases with 7 assertions.`, `Passed 1 test case with 1 assertion.`: the number of
 * test cases, or -1 for another line.
 */
function compactSummary(l: Line): i64 {
  let c = l.at(0);
  if (c != Char.F && c != Char.P) return -1;
  if (!l.startsWith("Failed ") && !l.startsWith("Passed ")) return -1;
  let p = 7;
  if (l.matchAt("all ", p)) p += 4;
  else if (l.matchAt("both ", p)) p += 5;
  let n = l.readInt(p);
  if (n < 0 || !l.matchAt(" test case", l.end)) return -1;
  return n;
}

/**
 * lest's summary: `2 out of 122 selected tests failed.`, `1 out of 1 selected test failed.`, `All 122 selected tests
 * passed.`: the number of tests selected (run), or -1 for another line.
 */
function lestSummary(l: Line): i64 {
  let p = 0;
  if (l.startsWith("All ")) p = 4;
  else {
    let n = l.readInt(0);
    if (n < 0 || !l.matchAt(" out of ", l.end)) return -1;
    p = l.end + 8;
  }
  let sel = l.readInt(p);
  if (sel < 0 || !l.matchAt(" selected test", l.end)) return -1;
  return l.endsWith(" failed.") || (p == 4 && l.endsWith(" passed.")) ? sel : -1;
}

/** lest's kinds before the test case's name: `got unexpected exception[ with message "…"]`, `didn't get exception[ …]`. */
function lestKindEnd(text: string): i32 {
  if (!text.startsWith("got unexpected exception") && !text.startsWith("didn't get exception")) return 0;
  // The note may hold `": "` inside its quotes: the kind ends at the first `: ` after a closing quote, if any.
  let q = text.startsWith("got unexpected exception with message \"") ? text.indexOf("\": ", 38) : -1;
  let k = q >= 0 ? q + 1 : text.indexOf(": ");
  return k >= 0 ? k : 0;
}

/**
 * The `: ` that ends a lest failure's test case name (`NAME: EXPR for A == B`), or -1 when the text is not lest's:
 * Catch2's compact lines put `for: ` before the expansion, or carry `with message: ` / `expression was: `.
 * The name may hold `: ` itself (`span<>: Allows to …`): the last one before the expression is taken.
 */
function lestFailure(text: string): i32 {
  let k = lestKindEnd(text);
  let from = k > 0 ? k + 2 : 0;
  if (k == 0) {
    if (text.includes(" for: ") || text.includes("message: ") || text.includes("expression was: ")) return -1;
    let e = text.lastIndexOf(" for ");
    if (e < 0) return -1;
    let sep = text.lastIndexOf(": ", e);
    return sep > 0 ? sep : -1;
  }
  let sep = text.lastIndexOf(": ");
  return sep >= from ? sep : -1;
}

function lestName(text: string, sep: i32): string {
  let k = lestKindEnd(text);
  return text.substring(k > 0 ? k + 2 : 0, sep);
}
