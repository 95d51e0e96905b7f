// Hand-rolled check scripts and C test programs: `PASS name`, `FAIL name: expected X, got Y`,
// `name: expected: X got: Y`, an optional `(file.c:21)` at the end, and a closing `N failed` /
// `N check(s) failed` / `3 of 4 checks failed` line. Also `ok: name` / `not ok: name (detail)`, and
// `✓ name` / `✗ name` marks (indented or not) whose more-indented lines below are the failure's message;
// with bats' `(in test file x.bats, line 11)` among them, or its `4 tests, 2 failures`, the runner is bats.
// A self-check's banner, `*** zlib test OK ***` / `*** zlib 64-bit test FAILED ***` (zlib's `make test`), is one check.
// Also mocha's spec reporter (./mocha), automake's harness (./automake), minctest's groups (./minctest), Acutest (./acutest),
// µnit (./munit), CUnit (./cunit), Check (./libcheck), Boost.Test (./boost-test), CppUTest's closing line (./cpputest)
// and meson test (./meson).
// Runs last among the runners: its line shapes are the most generic.
import { Char, isDigit, isIdent, isSpace } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts, TestFailure } from "../../model";
import { Parser } from "../../parser";
import { normPath } from "../../frames";
import { failureNamed } from "./common";
import { batsLocation, batsFrame, batsUntimed } from "./common";
import { MochaReport } from "./mocha";
import { AutomakeReport } from "./automake";
import { MinctestReport } from "./minctest";
import { AcutestReport } from "./acutest";
import { MunitReport } from "./munit";
import { CunitReport } from "./cunit";
import { CheckReport } from "./libcheck";
import { BoostTestReport } from "./boost-test";
import { CpputestReport } from "./cpputest";
import { MesonReport } from "./meson";
import { DiagContext } from "../diag-context";

/** The lead and second bytes of U+2713..U+2718 (✓ ✔ ✕ ✖ ✗ ✘) in UTF-8; the third tells which. */
const MARK_LEAD = 0xE2;
/** `FAILED: name` lines remembered before a tally closes them. */
const MAX_PENDING = 200;
const MARK_SECOND = 0x9C;
const enum Mark { CHECK = 0x93, HEAVY_CHECK = 0x94, HEAVY_X = 0x96, BALLOT_X = 0x97, HEAVY_BALLOT_X = 0x98 }

export class CheckScriptParser extends Parser {
  seen: bool = false;
  passed: i64 = 0; failed: i64 = 0;
  /** The `✗ name` failure whose more-indented detail lines follow, and the mark's indent. */
  detail: TestFailure | null = null;
  detailIndent: i32 = 0;

  /** `FAILED: name (at line 17)` lines not yet known to be checks, and the `PASSED: n` of a tally just read. */
  pendName: string[] = [];
  pendMsg: string[] = [];
  tallyPassed: i64 = -1;
  /** `Tests failed: N` of a tally just read (parson's tests.c prints it before `Tests passed: N`). */
  tallyFailed: i64 = -1;

  /** greatest's closing `Pass: 2, fail: 2, skip: 1.` (added up over programs); -1 until one is read. */
  gPassed: i64 = -1; gFailed: i64 = 0; gSkipped: i64 = 0;
  /** greatest's `Expected: full` / `     Got: partial` above the failure they explain (null when none). */
  gExpected: string | null = null;
  gGot: string | null = null;

  /** Mocha's summary and failure blocks, under its spec tree's `✔ name` marks (read here). */
  mocha: MochaReport = new MochaReport();
  /** Automake's test harness: `PASS: name`, `FAIL: name` and each directory's `# TOTAL: n` summary (read here). */
  automake: AutomakeReport;
  /** minctest's groups (`\tName   pass:42   fail: 0   0ms`) and their failed checks (read here). */
  minctest: MinctestReport = new MinctestReport();
  /** Acutest's `Test name...  [ FAILED ]` lines, their checks and its `FAILED: 1 of 4 unit tests` summary (read here). */
  acutest: AcutestReport = new AcutestReport();
  /** µnit's `/path<pad>[ ERROR ]` lines, the `Error: file:line: ` lines under them and its summary (read here). */
  munit: MunitReport = new MunitReport();
  /** CUnit's basic interface: `  Test: name ...FAILED`, its assertions and the `Run Summary:` table (read here). */
  cunit: CunitReport = new CunitReport();
  /** Check's `file:line:F:tcase:test:0: message` lines and its `NN%: Checks: N, Failures: F, Errors: E` (read here). */
  check: CheckReport = new CheckReport();
  /** Boost.Test's `file(line): error: in "suite/case": message` and its `Running N test cases...` (read here). */
  boost: BoostTestReport = new BoostTestReport();
  /** CppUTest's `Errors (3 failures, 5 tests, 4 ran, ...)` / `OK (...)` closing line (its failures: the gcc parser). */
  cpputest: CpputestReport = new CpputestReport();
  /** meson test's `N/M project:suite / name   STATUS   0.01s` lines, its error logs and `Ok:` ... summary (read here). */
  meson: MesonReport;

  constructor(ctx: DiagContext | null = null) {
    super();
    this.automake = new AutomakeReport(ctx);
    this.meson = new MesonReport(ctx);
  }

  busy(): bool { return this.detail !== null || this.mocha.busy() || this.boost.busy() || this.automake.busy() || this.meson.busy(); }

  claim(l: Line, f: Facts): bool {
    if (this.mocha.claim(l, f)) return true;
    let am = this.automake.claim(l, f);
    if (am != 0) return am > 0;
    let ms = this.meson.claim(l, f);
    if (ms != 0) return ms > 0;
    if (this.minctest.claim(l, f)) return true;
    if (this.acutest.claim(l, f)) return true;
    if (this.munit.claim(l, f)) return true;
    if (this.cunit.claim(l, f)) return true;
    if (this.check.claim(l, f)) return true;
    if (this.boost.claim(l, f)) return true;
    if (this.cpputest.claim(l, f)) return true;
    let c = l.at(0);
    let d = this.detail;
    if (d !== null) {
      let p = l.skipSpaces(0);
      if (p > this.detailIndent && p < l.len) {
        let s = l.trimmed(p);
        // bats' pretty formatter: `(in test file trim.bats, line 11)` under `✗ name` locates it, and says bats.
        // A failure in a helper: its calls first (`(from function `flunk' in file test_helper.bash, line 33,`), then
        // `in test file test/exec.bats, line 20)`.
        if (batsFrame(s)) return true;
        if (batsLocation(d, s)) { d.name = batsUntimed(d.name); this.bats(f); return true; }
        if (d.message.length == 0) d.message = s;
        else if (d.message.split("\n").length < 4) d.message = d.message + "\n" + s;
        return true;
      }
      this.detail = null;
    }
    if (l.len == 0 && !this.mocha.seen) this.mocha.blank();
    // zlib's `make test`: `\t\t*** zlib shared test OK ***`, `*** zlib 64-bit test FAILED ***`.
    let b = l.skipSpaces(0);
    if (l.at(b) == Char.STAR && l.matchAt("*** ", b) && this.banner(l, f, b)) return true;
    if (c == Char.SPACE || c == MARK_LEAD) {
      let p = l.skipSpaces(0);
      if (l.at(p) == MARK_LEAD && l.at(p + 1) == MARK_SECOND && l.at(p + 3) == Char.SPACE) return this.mark(l, f, p);
      // Mocha's spec tree: a suite's title (its tests' names start with it). Not claimed.
      if (c == Char.SPACE && !this.mocha.seen) this.mocha.treeLine(l, p);
    }
    if (c == Char.P && l.matchAt("Pass: ", 0) && this.greatestTally(l, f)) return true;
    // greatest prints a failed string or value comparison's two sides above its `FAIL name: msg` line.
    let gp = l.skipSpaces(0);
    if (l.matchAt("Expected: ", gp) && gp == 0) { this.gExpected = l.str(10); this.gGot = null; return false; }
    if (l.matchAt("Got: ", gp) && gp == 5 && this.gExpected !== null) { this.gGot = l.str(10); return false; }
    if (c == Char.P || c == Char.F) { let r = this.tally(l, f); if (r != 0) return r > 0; }
    if (c == Char.T && l.matchAt("Tests ", 0)) { let r = this.testsTally(l, f); if (r != 0) return r > 0; }
    if (isDigit(c) && l.endsWith(" - FAILED") && this.lineFailed(l)) return false;
    if (!l.isBlank()) { this.tallyPassed = -1; this.tallyFailed = -1; }
    if (c == Char.o && l.matchAt("ok: ", 0)) {
      // (`ok: [host]` is Ansible's task result, not a check.)
      if (l.at(4) == Char.LBRACKET || l.len == 4) return false;
      this.seen = true; this.passed++; f.testsFor("check-script");
      return true;
    }
    if (c == Char.n && l.matchAt("not ok: ", 0)) return this.notOk(l, f);
    if (c == Char.P && l.matchAt("PASS ", 0)) {
      let e = identEnd(l, 5);
      if (e == 5 || (e < l.len && l.at(e) != Char.COLON)) return false;
      this.seen = true; this.passed++; f.testsFor("check-script");
      return true;
    }
    if (c == Char.F && l.matchAt("FAIL ", 0)) {
      let e = identEnd(l, 5);
      if (e == 5 || (e < l.len && l.at(e) != Char.COLON)) return false;
      let t = this.fail(l, f, l.str(5, e), e < l.len ? e + 1 : e);
      let ge = this.gExpected, gg = this.gGot;
      if (ge !== null && gg !== null && t.expected === null) { t.expected = ge; t.actual = gg; }
      this.gExpected = null; this.gGot = null;
      return true;
    }
    // Between greatest's `Got:` and its FAIL line: its progress mark (`F`) and blank lines only.
    if (l.len > 1 && !l.isBlank()) { this.gExpected = null; this.gGot = null; }
    if (isIdentStart(c)) {
      // `add_zero: expected: 3 got: 4`
      let e = identEnd(l, 0);
      if (e > 0 && l.at(e) == Char.COLON && l.matchAt(" expected", e + 1) && l.indexOf(" got", e) > 0) {
        this.fail(l, f, l.str(0, e), e + 1);
        return true;
      }
      // `test2 failed`: a check named by one word, kept till a tally (`102 tests conducted, 1 failed.`) closes it.
      if (e > 0 && e + 7 == l.len && l.matchAt(" failed", e) && this.pendName.length < MAX_PENDING) {
        this.pendName.push(l.str(0, e));
        this.pendMsg.push("");
      }
      return false;
    }
    if (isDigit(c) && this.ranTally(l, f)) return true;
    if (this.seen && isDigit(c)) {
      l.readInt(0);
      let e = l.end;
      // `3 of 4 checks failed`
      if (l.matchAt(" of ", e) && l.readInt(e + 4) >= 0) e = l.end;
      let r = l.str(e);
      // bats: `4 tests, 2 failures` (`, 1 skipped`, `, 1 not run`)
      if ((r.startsWith(" tests, ") || r.startsWith(" test, ")) && r.includes(" failure")) { this.bats(f); return true; }
      if (r == " failed" || r == " check(s) failed" || r == " checks failed" || r == " test(s) failed" || r == " tests failed" || r == " passed") return true;
    }
    return false;
  }

  /**
   * A C test program's own tally (jsmn's test.h): `FAILED: name (at line 17)` per failing check, then
   * `PASSED: 3` and `FAILED: 1`. The FAILED lines are checks only once the tally closes them (ninja prints
   * `FAILED: out.o` of its own): till then they are remembered, not claimed. 1 claimed, -1 not ours, 0 other.
   */
  private tally(l: Line, f: Facts): i32 {
    let pass = l.matchAt("PASSED: ", 0);
    if (!pass && !l.matchAt("FAILED: ", 0)) return 0;
    let n = l.readInt(8);
    if (n >= 0 && l.end == l.len) {
      if (pass) { this.tallyPassed = n; return 1; }
      if (this.tallyPassed < 0) return -1;
      this.closeTally(f, this.tallyPassed, n);
      return 1;
    }
    this.tallyPassed = -1;
    if (pass || this.pendName.length >= MAX_PENDING) return -1;
    let end = l.len;
    while (end > 8 && l.at(end - 1) == Char.SPACE) end--;
    let open = l.at(end - 1) == Char.RPAREN ? groupStart(l, end - 1) : -1;
    if (open > 8 && l.at(open - 1) == Char.SPACE) {
      this.pendName.push(l.trimmed(8, open));
      this.pendMsg.push(l.trimmed(open + 1, end - 1));
    } else {
      this.pendName.push(l.trimmed(8, end));
      this.pendMsg.push("");
    }
    return -1;
  }

  /**
   * parson's tests.c: `160 (expression)<pad> - FAILED` per failing check (the test program's line, then the
   * check), remembered as jsmn's are until a tally closes them. True when the line has that shape.
   */
  private lineFailed(l: Line): bool {
    let n = l.readInt(0);
    let a = l.end;
    if (n < 0 || l.at(a) != Char.SPACE || this.pendName.length >= MAX_PENDING) return false;
    let name = l.trimmed(a, l.len - 9);
    if (name.length == 0) return false;
    this.pendName.push(name);
    this.pendMsg.push("line " + n.toString());
    return true;
  }

  /** `Tests failed: 1` and `Tests passed: 348`, in either order, one right after the other. 1 claimed, 0 other. */
  private testsTally(l: Line, f: Facts): i32 {
    let pass = l.matchAt("Tests passed: ", 0);
    if (!pass && !l.matchAt("Tests failed: ", 0)) return 0;
    let n = l.readInt(14);
    if (n < 0 || l.end != l.len) return 0;
    if (pass) this.tallyPassed = n; else this.tallyFailed = n;
    if (this.tallyPassed < 0 || this.tallyFailed < 0) return 1;
    this.closeTally(f, this.tallyPassed, this.tallyFailed);
    return 1;
  }

  /**
   * A closing `102 tests conducted, 1 failed.` (uthash's do_tests; also `N tests run, M failed`): the run's
   * checks, the `name failed` lines kept before it being its failures. True when the line has that shape.
   */
  private ranTally(l: Line, f: Facts): bool {
    // Gradle's `3 tests completed, 2 failed` closes its own runner's report.
    let t = f.tests;
    if (t !== null && t.runner != "check-script") return false;
    let n = l.readInt(0);
    let p = l.end;
    if (n < 0) return false;
    if (l.matchAt(" tests ", p)) p += 7;
    else if (l.matchAt(" test ", p)) p += 6;
    else return false;
    let w = p;
    while (p < l.len && isIdent(l.at(p)) && !isDigit(l.at(p))) p++;
    if (p == w || !l.matchAt(", ", p)) return false;
    let m = l.readInt(p + 2);
    if (m < 0 || m > n || !l.matchAt(" failed", l.end)) return false;
    let e = l.end + 7;
    if (e < l.len && l.at(e) == Char.DOT) e++;
    if (e != l.len) return false;
    this.closeTally(f, n - m, m);
    return true;
  }

  /** A tally read whole: its counts, and the FAILED lines remembered before it are its failing checks. */
  private closeTally(f: Facts, passed: i64, failed: i64): void {
    this.seen = true;
    let t = f.testsFor("check-script");
    this.passed += passed; this.failed += failed;
    for (let i = 0; i < this.pendName.length; i++) failureNamed(t, this.pendName[i]).message = this.pendMsg[i];
    this.pendName = []; this.pendMsg = []; this.tallyPassed = -1; this.tallyFailed = -1;
  }

  /**
   * A self-check's banner at b: `*** name OK ***` (or PASSED), `*** name FAILED ***` (or FAIL): one check
   * each, named by the words between. Not a banner (false): glibc's `*** Error in ... ***` and the like.
   */
  private banner(l: Line, f: Facts, b: i32): bool {
    let e = l.len;
    while (e > b && isSpace(l.at(e - 1))) e--;
    if (e - b < 12 || !l.matchAt(" ***", e - 4)) return false;
    let w = l.lastIndexOfByte(Char.SPACE, e - 5);
    if (w <= b + 4) return false;
    let word = l.str(w + 1, e - 4);
    let ok = word == "OK" || word == "PASSED";
    if (!ok && word != "FAILED" && word != "FAIL") return false;
    let name = l.trimmed(b + 4, w);
    if (name.length == 0) return false;
    this.seen = true;
    let t = f.testsFor("check-script");
    if (ok) { this.passed++; return true; }
    this.failed++;
    failureNamed(t, name);
    return true;
  }

  /** The marks are bats' (`bats --formatter pretty`, its default on a terminal). */
  private bats(f: Facts): void {
    let t = f.tests;
    if (t !== null && t.runner == "check-script") t.runner = "bats";
  }

  /** `  ✓ port is set`, `  ✗ port is unprivileged` (its detail on the more-indented lines below). */
  private mark(l: Line, f: Facts, p: i32): bool {
    let k = l.at(p + 2);
    let ok = k == Mark.CHECK || k == Mark.HEAVY_CHECK;
    if (!ok && k != Mark.BALLOT_X && k != Mark.HEAVY_BALLOT_X && k != Mark.HEAVY_X) return false;
    let name = l.trimmed(p + 4);
    if (name.length == 0) return false;
    this.seen = true;
    let t = f.testsFor("check-script");
    if (ok) { this.passed++; this.mocha.passedMark(name, p); return true; }
    this.failed++;
    this.detail = failureNamed(t, name);
    this.detailIndent = p;
    return true;
  }

  /** `not ok: bundle under 1 kB (dist/app.js is 2070 bytes)`: the parenthesised tail is the message. */
  private notOk(l: Line, f: Facts): bool {
    let a = l.skipSpaces(8);
    if (a >= l.len) return false;
    this.seen = true;
    this.failed++;
    let end = l.len;
    while (end > a && l.at(end - 1) == Char.SPACE) end--;
    let open = l.at(end - 1) == Char.RPAREN ? groupStart(l, end - 1) : -1;
    if (open > a && l.at(open - 1) == Char.SPACE) {
      let t = failureNamed(f.testsFor("check-script"), l.trimmed(a, open));
      t.message = l.trimmed(open + 1, end - 1);
    } else {
      failureNamed(f.testsFor("check-script"), l.trimmed(a, end));
    }
    return true;
  }

  /**
   * greatest's last line, `Pass: 173, fail: 35, skip: 23.` (after `Total: 231 tests (...), 418 assertions`):
   * the run's counts, its FAIL lines being only the failures. True when the line has that shape.
   */
  private greatestTally(l: Line, f: Facts): bool {
    let p = l.readInt(6);
    if (p < 0 || !l.matchAt(", fail: ", l.end)) return false;
    let n = l.readInt(l.end + 8);
    if (n < 0 || !l.matchAt(", skip: ", l.end)) return false;
    let s = l.readInt(l.end + 8);
    if (s < 0 || !l.matchAt(".", l.end) || l.end + 1 != l.len) return false;
    this.seen = true;
    f.testsFor("check-script");
    this.gPassed = (this.gPassed < 0 ? 0 : this.gPassed) + p;
    this.gFailed += n;
    this.gSkipped += s;
    return true;
  }

  private fail(l: Line, f: Facts, name: string, p: i32): TestFailure {
    this.seen = true;
    this.failed++;
    let t = failureNamed(f.testsFor("check-script"), name);
    let end = l.len;
    // A trailing `(file.c:21)`.
    if (l.at(end - 1) == Char.RPAREN) {
      let open = l.lastIndexOf(" (");
      let colon = l.lastIndexOfByte(Char.COLON);
      if (open > p && colon > open) {
        let n = l.readInt(colon + 1);
        if (n >= 0 && l.end == end - 1) {
          t.file = normPath(l.str(open + 2, colon));
          t.line = <i32>n;
          end = open;
        }
      }
    }
    let msg = l.trimmed(p, end);
    t.message = msg;
    // `expected X, got Y` / `expected: X got: Y`
    let ex = msg.indexOf("expected");
    let got = msg.lastIndexOf("got");
    if (ex >= 0 && got > ex) {
      let a = ex + 8;
      if (a < msg.length && msg.charCodeAt(a) == Char.COLON) a++;
      let b = got;
      let v = msg.substring(a, b).trimStart().trimEnd();
      if (v.endsWith(",")) v = v.substring(0, v.length - 1);
      let g = msg.substring(got + 3);
      if (g.startsWith(":")) g = g.substring(1);
      t.expected = v.trimStart().trimEnd();
      t.actual = g.trimStart().trimEnd();
    }
    return t;
  }

  finish(f: Facts): void {
    this.mocha.finish(f);
    this.automake.finish(f);
    this.meson.finish(f);
    this.minctest.finish(f);
    this.acutest.finish(f);
    this.munit.finish(f);
    this.cunit.finish(f);
    this.check.finish(f);
    this.boost.finish(f);
    this.cpputest.finish(f);
    if (!this.seen) return;
    let t = f.testsFor("check-script");
    if (t.runner != "check-script" && t.runner != "bats") return;
    t.passed = this.passed; t.failed = this.failed;
    if (this.gPassed >= 0) { t.passed = this.gPassed; t.failed = this.gFailed; t.skipped = this.gSkipped; }
  }
}

/** The `(` that opens the group closed by the `)` at close, or -1. */
function groupStart(l: Line, close: i32): i32 {
  let depth = 0;
  for (let i = close; i >= 0; i--) {
    let c = l.at(i);
    if (c == Char.RPAREN) depth++;
    else if (c == Char.LPAREN && --depth == 0) return i;
  }
  return -1;
}

function isIdentStart(c: i32): bool { return isIdent(c) && !isDigit(c); }

function identEnd(l: Line, p: i32): i32 {
  let i = p;
  while (i < l.len) {
    let c = l.at(i);
    if (!isIdent(c) && c != Char.MINUS && c != Char.DOT && c != Char.SLASH) break;
    i++;
  }
  return i;
}
