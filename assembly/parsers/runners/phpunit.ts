// PHPUnit's default output (phpunit 8-9, the text printer off a TTY): `PHPUnit 9.6.7 by Sebastian Bergmann and
// contributors.`, a progress line of marks (`.FFE.F.FSIR.E   13 / 13 (100%)`), `Time: 00:00.007, Memory: 4.00 MB`,
// then one block per kind: `There was 1 error:` / `There were 4 failures:` (also risky tests, warnings, and with
// --verbose skipped and incomplete tests), its entries `1) Class::testName` (a data set: `with data set "name"
// (args)` / `with data set #1 (args)`), the message (`Failed asserting that ...`, an error's `Class: msg`), a
// `--- Expected` / `+++ Actual` / `@@ @@` diff (`-` expected, `+` actual), a blank line, then the places
// innermost first (`/path/src/X.php:7`, `/path/tests/XTest.php:23`); `--` between blocks. The summary:
// `OK (4 tests, 4 assertions)`, or `FAILURES!` / `ERRORS!` / `WARNINGS!` / `OK, but incomplete, skipped, or
// risky tests!` then `Tests: 13, Assertions: 8, Errors: 2, Failures: 4, Skipped: 1, Incomplete: 1, Risky: 1.`
// --testdox: a heading per test class at column 0 (`Char Count Based (FastRoute\Dispatcher\CharCountBased)`: the
// class less `Test` in brackets; `Slug` alone outside a namespace), a line per test (` ✔ Found dispatches with
// data set #1`, ` ✘ ` failed, ` ↩ ` skipped, ` ∅ ` incomplete, ` ☢ ` risky), a failure's message, diff and places
// in a box (`   │ …`) under its line, as the default blocks hold them; `Summary of non-successful tests:` repeats
// the headings and failures (skipped). A test is named `Class::prose` (`Slug::Joins words`); the ✔ and ☢ lines
// are the run's passes, ↩ and ∅ its skipped tests.
import { isDigit } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts, Tests, TestFailure, Frame } from "../../model";
import { Parser } from "../../parser";
import { ByteSet } from "../../util/byte-set";
import { setLocation } from "../../frames";
import { joinLines, failureNamed, isUserFile } from "./common";
import { withName, withSkipped } from "../../util/name-hash";

const HEADER = "PHPUnit ";
const BY = " by Sebastian Bergmann";
const MARKS = ".FESIRWD";

/** At rest, PHPUnit starts on its `PHPUnit x.y.z by Sebastian Bergmann and contributors.` line. */
const STARTS = new ByteSet().add(0x50);

const enum Block { NONE, FAILURES, ERRORS, OTHER }

export class PhpunitParser extends Parser {
  seen: bool = false;
  /** PHPUnit ran tests: a progress mark, a failures block or the totals were seen. */
  ran: bool = false;
  block: Block = Block.NONE;
  cur: TestFailure | null = null;
  /** In the entry: 0 message, 1 diff, 2 places (after the blank line under the message). */
  part: i32 = 0;
  msg: string[] = [];
  expected: string[] = [];
  actual: string[] = [];
  nPass: i64 = 0; nFail: i64 = 0; nErr: i64 = 0; nSkip: i64 = 0;
  tests: i64 = -1; failed: i64 = 0; errors: i64 = 0; skipped: i64 = 0; warnings: i64 = 0;
  /** --testdox: a ✔/✘ line was seen; the class heading the tests are under; in the summary that repeats them. */
  testdox: bool = false;
  heading: string = "";
  inSummary: bool = false;
  passes: Array<u32> | null = [];
  skips: Array<u32> | null = null;
  /** An error PHPUnit names `Error` (an invalid data provider): named by its message's first line. */
  anon: bool = false;
  tests_: Tests | null = null;

  busy(): bool { return this.cur !== null; }
  atRest(): bool { return !this.seen; }
  starts(): ByteSet | null { return STARTS; }

  claim(l: Line, f: Facts): bool {
    if (!this.seen) {
      if (!l.matchAt(HEADER, 0) || !isDigit(l.at(HEADER.length)) || l.indexOf(BY) < 0) return false;
      // The tests are the run's once PHPUnit ran any (marks, a failure, its totals): `Error in bootstrap
      // script: ParseError:` after the header stopped it before the first test, the run's error.
      this.seen = true;
      return true;
    }
    if (this.inSummary) {
      if (l.at(0) == 0x20 || l.isBlank() || !endLine(l.trimmed(0))) return true;
      this.inSummary = false;
    }
    if (l.at(0) == 0x20 && l.at(1) == 0xE2 && this.testdoxLine(l, f)) return true;
    if (this.testdox && l.at(0) == 0x20 && l.at(3) == 0xE2 && l.at(4) == 0x94 && l.at(5) == 0x82 && l.at(2) == 0x20) {
      // `   │ text`: the box of the failure above.
      if (this.cur !== null) {
        let raw = l.str(7);
        this.body(raw.trimStart().trimEnd(), raw.length > 0 && (raw.charCodeAt(0) == 0x20 || raw.charCodeAt(0) == 0x09));
      }
      return true;
    }
    let s = l.trimmed(0);
    if (l.at(0) == 0x20 || l.at(0) == 0x09) {
      if (this.cur !== null) { this.body(s, true); return true; }
      return this.block != Block.NONE;
    }
    if (s.startsWith("There was 1 ") || s.startsWith("There were ")) {
      if (!s.endsWith(":")) return false;
      this.end();
      this.ran = true;
      this.block = s.includes(" failure") ? Block.FAILURES : s.includes(" error") ? Block.ERRORS : Block.OTHER;
      return true;
    }
    if (s == "--") { this.end(); this.block = Block.NONE; return true; }
    if (this.block != Block.NONE && isDigit(l.at(0))) {
      let n = l.readInt(0);
      if (n > 0 && l.at(l.end) == 0x29 && l.at(l.end + 1) == 0x20) {
        this.end();
        if (this.block == Block.OTHER) { this.cur = new TestFailure(); this.part = 0; return true; }
        let name = testName(l.trimmed(l.end + 2));
        this.msg = []; this.expected = []; this.actual = [];
        if (name == "Error" || name == "Warning") { this.cur = new TestFailure(); this.anon = true; this.part = 0; this.tests_ = f.testsFor("phpunit"); return true; }
        let tf = failureNamed(f.testsFor("phpunit"), name);
        this.cur = tf;
        this.part = 0;
        this.msg = []; this.expected = []; this.actual = [];
        return true;
      }
    }
    if (s == "OK" || s.startsWith("OK (") || s.startsWith("OK, but ") || s == "FAILURES!" || s == "ERRORS!" || s == "WARNINGS!" || s == "No tests executed!") {
      this.end(); this.block = Block.NONE;
      if (s.startsWith("OK (")) this.totals(s.substring(4));
      return true;
    }
    if (s.startsWith("Tests: ") && s.includes("Assertions: ")) { this.end(); this.block = Block.NONE; this.totals(s); return true; }
    if (this.testdox && s == "Summary of non-successful tests:") { this.end(); this.inSummary = true; return true; }
    if (s.startsWith("Time: ") && s.includes(", Memory: ")) { this.end(); return true; }
    if (s.startsWith("Runtime: ") || s.startsWith("Configuration: ")) return true;
    if (this.cur !== null && !this.testdox) { this.body(s, false); return true; }
    if (this.block == Block.NONE && this.progress(s)) return true;
    if (this.block == Block.NONE && this.cur === null && isLetter(l.at(0)) && s.indexOf(":") < 0) {
      // A --testdox class heading (no colon: a PHP message at column 0 is not one): claimed once the tests
      // under it are seen as testdox lines, kept before the first.
      this.heading = headingClass(s);
      return this.testdox;
    }
    if (this.testdox && this.cur !== null && l.isBlank()) { this.end(); return true; }
    return l.isBlank() && this.block != Block.NONE;
  }

  /** ` ✔ prose`, ` ✘ prose`, ` ↩ ` skipped, ` ∅ ` incomplete, ` ☢ ` risky: a --testdox test line. */
  private testdoxLine(l: Line, f: Facts): bool {
    let b2 = l.at(2), b3 = l.at(3);
    let kind = 0;
    if (b2 == 0x9C && b3 == 0x94) kind = 1;        // ✔ U+2714
    else if (b2 == 0x9C && b3 == 0x98) kind = 2;   // ✘ U+2718
    else if (b2 == 0x86 && b3 == 0xA9) kind = 3;   // ↩ U+21A9
    else if (b2 == 0x88 && b3 == 0x85) kind = 3;   // ∅ U+2205
    else if (b2 == 0x98 && b3 == 0xA2) kind = 1;   // ☢ U+2622
    if (kind == 0 || l.at(4) != 0x20 || l.len < 6) return false;
    this.end();
    this.testdox = true;
    this.ran = true;
    let prose = l.trimmed(5);
    let name = this.heading.length > 0 ? this.heading + "::" + prose : prose;
    if (kind == 1) this.passes = withName(this.passes, name);
    else if (kind == 3) this.skips = withSkipped(this.skips, name);
    else {
      this.cur = failureNamed(f.testsFor("phpunit"), name);
      this.part = 0;
      this.msg = []; this.expected = []; this.actual = [];
    }
    return true;
  }

  /** `.FFE.F.FSIR.E    13 / 13 (100%)`, or marks alone (the last line before the count is printed). */
  private progress(s: string): bool {
    let e = s.indexOf(" ");
    let marks = e < 0 ? s : s.substring(0, e);
    if (marks.length == 0) return false;
    for (let i = 0; i < marks.length; i++) if (!MARKS.includes(marks.charAt(i))) return false;
    if (e >= 0) {
      let rest = s.substring(e).trimStart().trimEnd();
      if (!rest.endsWith("%)") || !rest.includes(" / ")) return false;
    }
    this.ran = true;
    for (let i = 0; i < marks.length; i++) {
      let c = marks.charAt(i);
      if (c == "." || c == "R") this.nPass++;
      else if (c == "F") this.nFail++;
      else if (c == "E") this.nErr++;
      else if (c == "S" || c == "I") this.nSkip++;
    }
    return true;
  }

  private body(s: string, indented: bool): void {
    if (this.anon) {
      if (s.length == 0) return;
      // `The data provider specified for ExpectTest::testCases is invalid.`: the test it names.
      this.anon = false;
      let name = "Error";
      if (s.startsWith(PROVIDER)) {
        let e = s.indexOf(" is invalid", PROVIDER.length);
        if (e > PROVIDER.length) name = s.substring(PROVIDER.length, e);
      }
      this.cur = failureNamed(this.tests_!, name);
    }
    let t = this.cur!;
    if (s.length == 0) {
      // The blank line between the message (and its diff) and the places.
      if (this.part < 2 && (this.msg.length > 0 || this.part == 1)) this.part = 2;
      return;
    }
    if (this.part < 2 && !indented && (s == "--- Expected" || s == "+++ Actual" || s.startsWith("@@ "))) { this.part = 1; return; }
    if (this.part == 1) {
      if (indented) return;  // a context line of the diff
      let c = s.charAt(0);
      if (c == "-" && this.expected.length < 6) this.expected.push(s.substring(1).trimStart().trimEnd());
      else if (c == "+" && this.actual.length < 6) this.actual.push(s.substring(1).trimStart().trimEnd());
      return;
    }
    if (this.part == 0 && !indented && this.msg.length > 0 && this.msg[this.msg.length - 1].endsWith(" at") && !s.includes(" ")) {
      // `… Message was: "x" at` then the places with no blank line (an expectException that met another exception).
      let fr = new Frame();
      if (setLocation(fr, s) && fr.file !== null && fr.line > 0) {
        let last = this.msg[this.msg.length - 1];
        this.msg[this.msg.length - 1] = last.substring(0, last.length - 3);
        this.part = 2;
      }
    }
    if (this.part == 2) {
      // `/path/tests/XTest.php:18`: the first place outside PHPUnit and the dependencies is the failure's.
      if (t.file === null && !s.includes(" ")) {
        let fr = new Frame();
        if (setLocation(fr, s) && fr.file !== null && fr.line > 0 && fr.col < 0 && ownFile(fr.file!)) {
          t.file = fr.file; t.line = fr.line;
        }
      }
      return;
    }
    if (this.msg.length < 6) this.msg.push(s);
  }

  private end(): void {
    let t = this.cur;
    if (t !== null) {
      let m = joinLines(this.msg, 6);
      if (m.length > 0) t.message = m;
      if (this.expected.length > 0) t.expected = joinLines(this.expected, 6);
      if (this.actual.length > 0) t.actual = joinLines(this.actual, 6);
    }
    this.cur = null;
    this.anon = false;
    this.msg = []; this.expected = []; this.actual = [];
    this.part = 0;
  }

  /** `Tests: 13, Assertions: 8, Errors: 2, Failures: 4, Skipped: 1, Incomplete: 1, Risky: 1.`, `4 tests, 4 assertions)`. */
  private totals(s: string): void {
    this.ran = true;
    let parts = s.split(", ");
    for (let i = 0; i < parts.length; i++) {
      let p = parts[i].trimStart().trimEnd();
      while (p.endsWith(".") || p.endsWith(")")) p = p.substring(0, p.length - 1);
      let colon = p.indexOf(": ");
      let key: string, num: string;
      if (colon > 0) { key = p.substring(0, colon); num = p.substring(colon + 2); }
      else {
        let sp = p.indexOf(" ");
        if (sp <= 0) continue;
        num = p.substring(0, sp); key = p.substring(sp + 1);
      }
      if (num.length == 0 || !isDigit(num.charCodeAt(0))) continue;
      let n = I64.parseInt(num);
      if (key == "Tests" || key == "tests" || key == "test") this.tests = n;
      else if (key == "Failures") this.failed = n;
      else if (key == "Errors") this.errors = n;
      else if (key == "Skipped" || key == "Incomplete") this.skipped += n;
      else if (key == "Warnings") this.warnings = n;
    }
  }

  finish(f: Facts): void {
    this.end();
    if (!this.seen || !this.ran) return;
    let t = f.testsFor("phpunit");
    if (t.runner != "phpunit") return;
    if (this.tests >= 0) {
      t.failed = this.failed;
      t.errors = this.errors;
      t.skipped = this.skipped;
      let p = this.tests - this.failed - this.errors - this.skipped - this.warnings;
      t.passed = p > 0 ? p : 0;
      t.totals = true;
    } else {
      t.passed = this.nPass; t.failed = this.nFail; t.errors = this.nErr; t.skipped = this.nSkip;
    }
    if (this.testdox) {
      let ps = this.passes;
      if (ps !== null && <i64>ps.length == t.passed) t.passedSet = ps;
      if (this.skips !== null) t.skippedSet = this.skips;
    }
  }
}

const PROVIDER = "The data provider specified for ";

/** An ASCII letter or `\\`: how a class heading starts. */
function isLetter(c: i32): bool { return (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x5C; }

/** The summary's end: `FAILURES!`, `ERRORS!`, `OK …`, the totals. */
function endLine(s: string): bool {
  return s == "FAILURES!" || s == "ERRORS!" || s == "WARNINGS!" || s.startsWith("OK") || s.startsWith("Tests: ");
}

/** `Char Count Based (FastRoute\Dispatcher\CharCountBased)` → the class in brackets; `Slug` → `Slug`. */
function headingClass(s: string): string {
  if (s.endsWith(")")) {
    let k = s.lastIndexOf(" (");
    if (k > 0) return s.substring(k + 2, s.length - 1);
  }
  return s;
}

/**
 * `SlugTest::testCases with data set "tabs" ('a\tb', 'a_b')` → `SlugTest::testCases with data set "tabs"`: the
 * data set's values (they may change with the test) left out.
 */
function testName(s: string): string {
  let k = s.indexOf(" with data set ");
  if (k < 0) return s;
  let a = k + 15;
  if (s.charAt(a) == "\"") {
    let q = s.indexOf("\" (", a + 1);
    if (q > 0) return s.substring(0, q + 1);
    return s;
  }
  let sp = s.indexOf(" (", a);
  return sp > 0 ? s.substring(0, sp) : s;
}

/** A place in the project: not PHPUnit's own (Debian's /usr/share/php) nor a composer dependency's (vendor/). */
function ownFile(file: string): bool {
  if (file.startsWith("vendor/") || file.includes("/vendor/") || file.startsWith("/usr/share/php/")) return false;
  if (file.endsWith("/phpunit") || file.startsWith("/usr/bin/")) return false;
  return isUserFile(file);
}
