// GoogleTest: `[ RUN      ] Suite.Name`, `file:line: Failure` with the assertion text (Expected equality /
// Which is / Value of / Actual / Expected), `[       OK ]`, `[  FAILED  ]`, `[ DISABLED ]`, `[  SKIPPED ]`, and
// the closing `[  PASSED  ] N tests.` / `[  FAILED  ] N tests, listed below:` / `YOU HAVE N DISABLED TESTS`.
// A binary that dies inside a test (no OK/FAILED after RUN) is a crash, with that test failed. Several binaries
// in one log (a make target running them) print one closing block each: the run's counts are their sum.
// Every `[       OK ]` test is hashed by its name (Tests.passedSet) when they are as many as the `PASSED` totals.
// --gtest_brief=1 prints only the failures, with no `[ RUN      ]` line: a `file:line: Failure` block (several for
// one test) is closed by its `[  FAILED  ] Suite.Name (0 ms)`, which names it.
// cmocka prints the same shape (`N test(s)`, its failure as `[  ERROR   ] --- msg` and `[   LINE   ] --- file:line:`).
// Criterion's four-byte tags (`[FAIL] suite::name: (0.00s)`, `[====] Synthesis: ...`) are criterion.ts's.
import { Char } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts, TestFailure } from "../../model";
import { Parser } from "../../parser";
import { ByteSet } from "../../util/byte-set";
import { normPath } from "../../frames";
import { failureNamed, crashMidSuite, joinLines, foreignLine, runSignal } from "./common";
import { withName } from "../../util/name-hash";
import { CriterionReader } from "./criterion";

/** Before gtest showed itself: its `[ TAG ]` lines and `Running main() from` at column 0. */
const STARTS = new ByteSet().chars("[R");
/** --gtest_brief=1: a failure's `path:12: Failure` line (its path may begin with any byte). */
const ENDS = new ByteSet().chars("e");
/** A brief failure block not closed by its `[  FAILED  ]` line within this many lines was not gtest's. */
const BRIEF_MAX_LINES = 50;

export class GtestParser extends Parser {
  seen: bool = false;
  running: string | null = null;
  cur: TestFailure | null = null;
  msg: string[] = [];
  passed: i64 = 0; failed: i64 = 0; skipped: i64 = 0; disabled: i64 = 0;
  totPassed: i64 = -1; totFailed: i64 = -1; totDisabled: i64 = -1; totSkipped: i64 = -1;
  /** `[==========] Running 5 tests from 1 test suite.`: how many were to run (disabled ones are not). */
  planned: i64 = -1;
  /** Every `[       OK ]` test's name hashed (Tests.passedSet); null past MAX_PASSED_SET. */
  passHashes: Array<u32> | null = [];
  /** --gtest_brief=1: a failure block is open, its test named only by the `[  FAILED  ]` line that closes it. */
  brief: bool = false;
  briefLines: i32 = 0;
  briefFile: string | null = null;
  briefLine: i32 = 0;
  crit: CriterionReader = new CriterionReader();

  busy(): bool { return this.running !== null || this.brief; }
  atRest(): bool { return !this.seen && this.running === null && !this.brief && this.crit.atRest(); }
  starts(): ByteSet | null { return STARTS; }
  endsStarts(): ByteSet | null { return ENDS; }

  claim(l: Line, f: Facts): bool {
    let c = l.at(0);
    if (c == Char.LBRACKET) return l.at(5) == Char.RBRACKET ? this.crit.claim(l, f) : this.bracket(l, f);
    if (this.running === null && (this.brief || l.at(l.len - 1) == Char.e)) {
      if (this.briefClaim(l)) return true;
    }
    if (!this.seen) {
      if (l.startsWith("Running main() from ")) return true;
      return false;
    }
    if (this.running !== null) {
      if (foreignLine(l)) return false;
      // `./ring_test.cc:9: Failure` (or `file(9): error:` on MSVC builds)
      let fi = l.indexOf(": Failure");
      if (fi > 0 && fi + 9 == l.len) {
        let colon = l.lastIndexOfByte(Char.COLON, fi);
        let t = failureNamed(f.testsFor("gtest"), this.running!);
        if (this.cur === null) {
          this.cur = t;
          let n = l.readInt(colon + 1);
          if (colon > 0 && n >= 0) { t.file = normPath(l.str(0, colon)); t.line = <i32>n; }
          this.msg = [];
        } else if (this.msg.length > 0 && this.msg.length < 10) this.msg.push("");
        return true;
      }
      if (this.cur !== null && this.msg.length < 10 && !l.isBlank()) this.msg.push(l.trimmed(0));
      return true;
    }
    if (l.startsWith(" ") && l.endsWith(" FAILED TESTS") || l.endsWith(" FAILED TEST")) return true;
    // cmocka's ` 2 FAILED TEST(S)`, ` 1 SKIPPED TEST(S)`
    if (l.startsWith(" ") && (l.endsWith(" FAILED TEST(S)") || l.endsWith(" SKIPPED TEST(S)"))) return true;
    // --gtest_repeat: each iteration reports in full; the counts are those of one run (the last),
    // while a test that failed in any iteration stays listed once.
    if (l.startsWith("Repeating all tests (iteration ")) {
      this.passed = 0; this.failed = 0; this.skipped = 0; this.disabled = 0;
      this.totPassed = -1; this.totFailed = -1; this.totDisabled = -1; this.totSkipped = -1;
      this.planned = -1;
      this.passHashes = [];
      return true;
    }
    let p = l.skipSpaces(0);
    if (l.matchAt("YOU HAVE ", p)) {
      let n = l.readInt(p + 9);
      if (n >= 0) this.totDisabled = max<i64>(this.totDisabled, 0) + n;
      return true;
    }
    return false;
  }

  /**
   * --gtest_brief=1: a `file:line: Failure` (or `unknown file: Failure`) line outside a running test opens a
   * block; its lines are the message until the `[  FAILED  ]` line that names the test (bracket).
   */
  private briefClaim(l: Line): bool {
    let fi = l.len - 9;
    // The line is the failure's own: its first `: ` is the one before `Failure` (not ctest -V's `1: ` in front).
    if (fi > 0 && l.matchAt(": Failure", fi) && l.indexOf(": ") == fi) {
      let colon = l.lastIndexOfByte(Char.COLON, fi);
      let n = colon > 0 ? l.readInt(colon + 1) : -1;
      let named = n >= 0 && l.end == fi;
      if (!named && !(fi == 12 && l.startsWith("unknown file"))) return false;
      if (!this.brief) {
        this.brief = true; this.briefLines = 0; this.msg = [];
        this.briefFile = named ? normPath(l.str(0, colon)) : null;
        this.briefLine = named ? <i32>n : 0;
      } else if (this.msg.length > 0 && this.msg.length < 10) this.msg.push("");
      return true;
    }
    if (!this.brief) return false;
    if (foreignLine(l) || ++this.briefLines > BRIEF_MAX_LINES) { this.endBrief(); return false; }
    if (this.msg.length < 10 && !l.isBlank()) this.msg.push(l.trimmed(0));
    return true;
  }

  private endBrief(): void {
    this.brief = false; this.briefFile = null; this.briefLine = 0; this.msg = [];
  }

  private bracket(l: Line, f: Facts): bool {
    if (l.len < 12 || l.at(11) != Char.RBRACKET) return false;
    let tag = l.trimmed(1, 11);
    let rest = l.trimmed(12);
    // --gtest_brief=1: the `[  FAILED  ] Suite.Name (0 ms)` that closes a failure block names its test.
    if (this.brief && this.running === null && tag == "FAILED") {
      let paren = rest.lastIndexOf(" (");
      if (paren > 0) {
        this.seen = true;
        let name = rest.substring(0, paren);
        let comma = name.indexOf(", where ");
        if (comma > 0) name = name.substring(0, comma);
        let t = failureNamed(f.testsFor("gtest"), name);
        if (t.file === null && this.briefFile !== null) { t.file = this.briefFile; t.line = this.briefLine; }
        this.cur = t;
        this.endTest();
        this.endBrief();
        if (t.message.length == 0) t.message = "failed";
        this.failed++;
        return true;
      }
      this.endBrief();
    }
    if (tag == "==========") {
      this.seen = true; f.testsFor("gtest");
      if (l.matchAt("Running ", 13)) {
        let n = l.readInt(21);
        if (n >= 0) this.planned = max<i64>(this.planned, 0) + n;
      }
      return true;
    }
    if (!this.seen) {
      if (tag != "RUN" && tag != "----------") return false;
      this.seen = true; f.testsFor("gtest");
    }
    if (tag == "----------") return true;
    if (tag == "RUN") { this.endTest(); this.running = rest; this.cur = null; this.msg = []; return true; }
    if (tag == "OK") {
      // `[       OK ] Inst/Suite.Name/0 (0 ms)`: named as its RUN line, as a failure of it would be.
      let paren = rest.lastIndexOf(" (");
      let running = this.running;
      this.passHashes = withName(this.passHashes, running !== null ? running! : paren > 0 ? rest.substring(0, paren) : rest);
      this.endTest(); this.passed++; return true;
    }
    // cmocka, in gtest's shape: `[  ERROR   ] --- 0x9 != 0x8` (its message lines) and `[   LINE   ] --- t.c:11:
    // error: Failure!` (its place) under the running test, before its `[  FAILED  ] test_add_big`.
    if ((tag == "ERROR" || tag == "LINE") && this.running !== null && rest.startsWith("--- ")) {
      let t = failureNamed(f.testsFor("gtest"), this.running!);
      if (this.cur === null) { this.cur = t; this.msg = []; }
      if (tag == "ERROR") { if (this.msg.length < 10) this.msg.push(rest.substring(4)); }
      else if (t.file === null) {
        let e = rest.indexOf(": error: ");
        let colon = e > 4 ? rest.lastIndexOf(":", e - 1) : -1;
        if (colon > 4) {
          let n = I64.parseInt(rest.substring(colon + 1, e));
          if (n > 0) { t.file = normPath(rest.substring(4, colon)); t.line = <i32>n; }
        }
      }
      return true;
    }
    if (tag == "DISABLED") { this.disabled++; return true; }
    if (tag == "SKIPPED") {
      if (isCount(rest)) { this.totSkipped = max<i64>(this.totSkipped, 0) + parseCount(rest); return true; }
      if (this.running !== null) { this.endTest(); this.skipped++; }
      else if (rest.indexOf(" (") > 0) this.skipped++;
      return true;
    }
    if (tag == "PASSED") { if (isCount(rest)) this.totPassed = max<i64>(this.totPassed, 0) + parseCount(rest); return true; }
    if (tag == "FAILED") {
      if (isCount(rest)) { this.totFailed = max<i64>(this.totFailed, 0) + parseCount(rest); return true; }
      let paren = rest.lastIndexOf(" (");
      let name = paren > 0 ? rest.substring(0, paren) : rest;
      // `Suite.Name, where GetParam() = 3 (0 ms)` for parameterised tests
      let comma = name.indexOf(", where ");
      if (comma > 0) name = name.substring(0, comma);
      if (this.running !== null) {
        let t = failureNamed(f.testsFor("gtest"), this.running!);
        this.endTest();
        if (t.message.length == 0) t.message = "failed";
        this.failed++;
      } else if (paren < 0) {
        // The closing list: a test not seen failing above still counts as listed.
        let t = f.testsFor("gtest");
        if (!hasName(t.failures, name)) failureNamed(t, name).message = "failed";
      }
      return true;
    }
    return true;
  }

  private endTest(): void {
    let t = this.cur;
    if (t !== null && this.msg.length > 0) {
      t.message = joinLines(this.msg, 8);
      for (let i = 0; i < this.msg.length; i++) {
        let m = this.msg[i];
        if (m.startsWith("Actual: ")) t.actual = m.substring(8);
        else if (m.startsWith("Expected: ") && m.length > 10) t.expected = m.substring(10);
        else if (m.startsWith("Which is: ")) { if (t.actual === null) t.actual = m.substring(10); else t.expected = m.substring(10); }
      }
    }
    this.cur = null;
    this.msg = [];
    this.running = null;
  }

  finish(f: Facts): void {
    this.crit.finish(f);
    if (!this.seen) return;
    let t = f.testsFor("gtest");
    if (t.runner != "gtest") { return; }
    let crashed = this.running;
    if (crashed !== null) {
      let tf = failureNamed(t, crashed!);
      let sig = runSignal(f);
      this.endTest();
      tf.message = "test binary died" + (sig !== null ? " (" + sig! + ")" : "") + " while running " + crashed!;
      this.failed++;
      crashMidSuite(f, null, "test binary died while running " + crashed!);
    }
    t.passed = this.totPassed >= 0 ? this.totPassed : this.passed;
    t.failed = this.totFailed >= 0 ? max(this.totFailed, this.failed) : this.failed;
    t.skipped = (this.totDisabled >= 0 ? this.totDisabled : this.disabled) + (this.totSkipped >= 0 ? this.totSkipped : this.skipped);
    if (this.totPassed >= 0) t.totals = true;
    // A binary that died mid-suite never ran the rest: say so, rather than count them nowhere.
    if (this.planned >= 0) t.notRun = max(<i64>0, this.planned - t.passed - t.failed - (this.totSkipped >= 0 ? this.totSkipped : this.skipped));
    // Each binary named every test it passed, as many as their `[  PASSED  ] N tests.` say: which ran is known.
    let hs = this.passHashes;
    if (hs !== null && this.totPassed >= 0 && <i64>hs.length == this.totPassed && crashed === null) t.passedSet = hs;
  }
}

function isCount(s: string): bool {
  // (cmocka: `1 test(s).`, `2 test(s), listed below:`)
  return s.length > 0 && <u32>(s.charCodeAt(0) - Char._0) < 10 && (s.includes(" test.") || s.includes(" tests.") || s.includes(" test,") ||
    s.includes(" tests,") || s.includes(" test(s).") || s.includes(" test(s),"));
}

function parseCount(s: string): i64 {
  let e = 0;
  while (e < s.length && <u32>(s.charCodeAt(e) - Char._0) < 10) e++;
  return I64.parseInt(s.substring(0, e));
}

function hasName(fs: Array<TestFailure>, name: string): bool {
  for (let i = 0; i < fs.length; i++) if (fs[i].name == name) return true;
  return false;
}
