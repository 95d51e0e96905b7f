// AVA's default reporter (ava 6, off a TTY): one mark per test at indent 2 — `✔ file › title`, with ` (201ms)`
// when slow; `✔ [expected fail] title` (test.failing, a known failure); `✘ [fail]: title` (a message may follow
// the title on that line: ` Error thrown in test`); `- [skip] title`, `- [todo] title`. A test file that threw
// outside its tests (it did not load, or an error after its tests ended) prints `Uncaught exception in
// test/x.js` (`Unhandled rejection in ...`) with the error under it, then `✘ test/x.js exited with a non-zero
// exit code: 1`: a failure named by that path, the file's. After a `─` line each failing test's details follow,
// opened by its title alone: `test/x.js:9` (where), a code frame (`  9: t.is(...)`), `Difference (- actual, +
// expected):` with `- a` / `+ b` lines, or the error and its `at` frames; `› file://test/x.js:9:5`. The
// summary after the last `─`: `72 tests passed` (printed only when none failed), `2 tests failed`, `1 known
// failure`, `1 test skipped`, `1 test todo`, `2 uncaught exceptions`.
import { isDigit } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts, TestFailure, Frame, MAX_FAILURES } from "../../model";
import { Parser } from "../../parser";
import { ByteSet } from "../../util/byte-set";
import { setLocation, normPath } from "../../frames";
import { utf8, matchBytes, frameOfText, joinLines, failureNamed, foreignLine, isErrorLine, hasFailure, fileFailureOf } from "./common";
import { withName } from "../../util/name-hash";

const PASS = utf8("\u2714 ");   // ✔
const FAIL = utf8("\u2718 ");   // ✘
const RULE = utf8("\u2500");    // ─
const KNOWN = "[expected fail] ";
const FAILED = "[fail]: ";
const UNCAUGHT = "Uncaught exception in ";
const REJECTION = "Unhandled rejection in ";
const EXITED = " exited with a non-zero exit code";

/** At rest, AVA starts on a mark (a byte >= 0xE2), `- [skip]`, or `Uncaught …` / `Unhandled …`. */
const STARTS = new ByteSet().range(0xE2, 0xFF).add(0x2D).add(0x55);

export class AvaParser extends Parser {
  seen: bool = false;
  /** After the first `─`: the failures' details and the summary. */
  details: bool = false;
  cur: TestFailure | null = null;
  msg: string[] = [];
  /** The message is the error's own line (`TypeError: ...`), found among the lines. */
  errorLine: string | null = null;
  diff: bool = false;
  actual: string[] = [];
  expected: string[] = [];
  nPass: i64 = 0; nFail: i64 = 0; nSkip: i64 = 0;
  passed: i64 = -1; failed: i64 = -1; skipped: i64 = 0; errors: i64 = 0;
  summary: bool = false;
  /** The files that threw outside their tests, by path: their failures. */
  fileFailures: i64 = 0;
  passHashes: Array<u32> | null = [];
  /**
   * A run of one file whose tests all passed shows nothing of AVA's own before its end: `✔ title` marks with no
   * file, then the `─` rule and `N tests passed`. The rule after such marks (counted, not claimed) waits for
   * that summary, over the blank line between them.
   */
  ruleAfterPasses: bool = false;

  busy(): bool { return this.cur !== null; }
  atRest(): bool { return !this.seen && this.cur === null && !this.ruleAfterPasses; }
  starts(): ByteSet | null { return STARTS; }

  claim(l: Line, f: Facts): bool {
    let p = l.skipSpaces(0);
    let c = l.at(p);
    if (this.ruleAfterPasses && !this.seen) {
      if (l.len == 0) return false;
      this.ruleAfterPasses = false;
      if (p == 2 && isDigit(c) && this.count(l, p)) { this.begin(f); this.details = true; return true; }
    }
    if (p == 2 && c >= 0xE2) {
      if (matchBytes(l, RULE, p)) {
        if (!this.seen) { this.ruleAfterPasses = this.nPass > 0 && l.trimmed(p).length == 1; return false; }
        this.end(); this.details = true; return true;
      }
      if (matchBytes(l, PASS, p)) return this.pass(l, f, p + 4);
      if (matchBytes(l, FAIL, p)) return this.fail(l, f, p + 4);
    }
    if (p == 2 && (l.matchAt("- [skip] ", p) || l.matchAt("- [todo] ", p))) {
      this.end(); this.begin(f); this.nSkip++; return true;
    }
    if (p == 2 && (l.matchAt(UNCAUGHT, p) || l.matchAt(REJECTION, p))) {
      let path = l.trimmed(p + (l.matchAt(UNCAUGHT, p) ? UNCAUGHT.length : REJECTION.length));
      if (path.length == 0 || path.includes(" ")) return false;
      this.end(); this.begin(f);
      this.open(this.fileFailure(f, path));
      return true;
    }
    if (!this.seen) return false;
    if (this.details && p == 2 && this.cur === null && isDigit(c) && this.count(l, p)) return true;
    if (this.details && p == 2) {
      // A failing test's details open with its title alone.
      let s = l.trimmed(p);
      let t = f.testsFor("ava");
      for (let i = 0; i < t.failures.length; i++) {
        let x = t.failures[i];
        if (x.pkg !== null && x.name == x.pkg) continue;
        if (x.name == s || (x.name.startsWith(s + " ") && x.message.length == 0)) {
          this.end();
          x.name = s;
          this.open(x);
          return true;
        }
      }
    }
    if (this.cur === null) return false;
    if (foreignLine(l)) return false;
    this.body(l, p);
    return true;
  }

  private begin(f: Facts): void {
    this.seen = true;
    f.testsFor("ava");
  }

  private pass(l: Line, f: Facts, a: i32): bool {
    let s = l.trimmed(a);
    let known = s.startsWith(KNOWN);
    if (known) s = s.substring(KNOWN.length);
    let name = withoutDuration(s);
    if (name === null) return false;
    // Before AVA showed itself, only a title with its file (`file › title`, AVA's with several files) is
    // taken for AVA's: mocha's top-level `✔ name (52ms)` looks the same.
    // They are counted all the same (not claimed): when AVA shows itself later, they were its passes.
    if (!this.seen && !known && !name!.includes(" \u203A ")) {
      this.nPass++;
      this.passHashes = withName(this.passHashes, name!);
      return false;
    }
    this.end(); this.begin(f);
    if (!known) this.nPass++;
    this.passHashes = withName(this.passHashes, name!);
    return true;
  }

  private fail(l: Line, f: Facts, a: i32): bool {
    let s = l.trimmed(a);
    if (s.startsWith(FAILED)) {
      this.end(); this.begin(f);
      let name = s.substring(FAILED.length);
      let d = withoutDuration(name);
      if (d !== null) name = d!;
      this.nFail++;
      failureNamed(f.testsFor("ava"), name);
      return true;
    }
    // `✘ test/x.js exited with a non-zero exit code: 1`: the file's failure (its error was printed above).
    let e = s.indexOf(EXITED);
    if (e > 0 && !s.substring(0, e).includes(" ")) {
      this.end(); this.begin(f);
      let tf = this.fileFailure(f, s.substring(0, e));
      if (tf.message.length == 0) tf.message = s.substring(e + 1);
      return true;
    }
    if (!this.seen) return false;
    // `✘ Timed out while running tests` and other run-level marks: the run's, no test's.
    this.end();
    return true;
  }

  /** The failure of a test file that threw outside its tests, named by its path (its unit too). */
  private fileFailure(f: Facts, path: string): TestFailure {
    let t = f.testsFor("ava");
    if (hasFailure(t, path)) return failureNamed(t, path);
    this.fileFailures++;
    return fileFailureOf(t, path);
  }

  private open(tf: TestFailure): void {
    this.cur = tf;
    this.msg = [];
    this.errorLine = null;
    this.diff = false;
    this.actual = [];
    this.expected = [];
  }

  private body(l: Line, p: i32): void {
    let t = this.cur!;
    if (l.isBlank()) return;
    let s = l.trimmed(p);
    // `test/x.js:9`: where (AVA's own line, before the code frame).
    if (t.file === null && !s.includes(" ") && isDigit(s.charCodeAt(s.length - 1))) {
      let fr = new Frame();
      if (setLocation(fr, s) && fr.file !== null && fr.line > 0) { t.file = fr.file; t.line = fr.line; return; }
    }
    // A code frame line: `9:   t.is(...)`.
    if (isDigit(s.charCodeAt(0))) {
      let colon = s.indexOf(":");
      if (colon > 0 && allDigits(s.substring(0, colon))) return;
    }
    // `› file://test/x.js:9:5`, `› fn (test/x.js:9:4)`, and the error's `at` frames.
    if (s.startsWith("\u203A ") || s.startsWith("at ")) {
      if (t.file === null) {
        let fr = frameOfText(s.startsWith("at ") ? s : s.substring(2));
        if (fr !== null && fr.user) { t.file = fr.file; t.line = fr.line; }
      }
      return;
    }
    // esbuild's error inside a TransformError's message (tsx, AVA's TypeScript): `./test/x.ts:6:1: ERROR: Unexpected ")"`.
    let e = s.indexOf(": ERROR: ");
    if (e > 0) {
      let head = s.substring(0, e);
      let sp = head.lastIndexOf(" ");
      let fr = new Frame();
      if (setLocation(fr, head.substring(sp + 1)) && fr.file !== null && fr.line > 0) {
        t.file = normPath(fr.file!); t.line = fr.line;
        let m = s.substring(sp + 1);
        this.errorLine = m.endsWith("`,") ? m.substring(0, m.length - 2) : m;
        return;
      }
    }
    if (s.startsWith("Difference (- actual, + expected)")) { this.diff = true; return; }
    if (this.diff) {
      if (s.startsWith("- ") && this.actual.length < 6) { this.actual.push(s.substring(2).trimStart().trimEnd()); return; }
      if (s.startsWith("+ ") && this.expected.length < 6) { this.expected.push(s.substring(2).trimStart().trimEnd()); return; }
      return;
    }
    if (this.errorLine === null && isErrorLine(s)) this.errorLine = s;
    if (this.msg.length < 6) this.msg.push(s);
  }

  private end(): void {
    let t = this.cur;
    if (t !== null) {
      let m = this.errorLine !== null ? this.errorLine! : joinLines(this.msg, 6);
      if (m.length > 0 || t.message.length == 0) t.message = m;
      if (this.actual.length > 0) t.actual = joinLines(this.actual, 6);
      if (this.expected.length > 0) t.expected = joinLines(this.expected, 6);
      if (t.message.length == 0 && this.diff) t.message = "Difference (- actual, + expected)";
    }
    this.cur = null;
    this.msg = [];
  }

  /** A summary line: `72 tests passed`, `1 test failed`, `2 known failures`, `1 test skipped`, ... */
  private count(l: Line, p: i32): bool {
    let n = l.readInt(p);
    if (n < 0) return false;
    let s = l.trimmed(p);
    let sp = s.indexOf(" ");
    if (sp < 0) return false;
    let w = s.substring(sp + 1);
    if (w == "tests passed" || w == "test passed") this.passed = n;
    else if (w == "tests failed" || w == "test failed") this.failed = n;
    else if (w == "tests skipped" || w == "test skipped" || w == "tests todo" || w == "test todo") this.skipped += n;
    else if (w == "uncaught exceptions" || w == "uncaught exception" || w == "unhandled rejections" || w == "unhandled rejection") this.errors += n;
    else if (!(w == "known failures" || w == "known failure")) return false;
    this.summary = true;
    return true;
  }

  finish(f: Facts): void {
    this.end();
    if (!this.seen) return;
    let t = f.testsFor("ava");
    // A `✔ name` line before AVA showed itself went to the generic check-script marks (node --test's with a
    // duration, `(201ms)`: AVA run on one file names no file); AVA's own summary
    // (`3 tests passed` after `─`) says whose the run is, and its counts are the run's.
    if ((t.runner == "check-script" || t.runner == "node-test") && this.summary) t.runner = "ava";
    if (t.runner != "ava") return;
    // AVA prints `N tests passed` only when none failed: else its marks are the count.
    t.passed = this.passed >= 0 ? this.passed : this.nPass;
    t.failed = this.failed >= 0 ? this.failed : this.nFail;
    t.skipped = this.summary ? this.skipped : this.nSkip;
    t.errors = this.summary ? max<i64>(this.errors, this.fileFailures) : this.fileFailures;
    if (this.summary) t.totals = true;
    let hs = this.passHashes;
    if (hs !== null && this.summary && <i64>hs.length >= t.passed) t.passedSet = hs;
  }
}

/** The title without AVA's ` (201ms)` / ` (1.1s)`; null when the parenthesis is node's `(0.5123ms)`. */
function withoutDuration(s: string): string | null {
  if (!s.endsWith("ms)") && !s.endsWith("s)")) return s;
  let open = s.lastIndexOf(" (");
  if (open < 0) return s;
  let d = s.substring(open + 2, s.length - 1);
  let unit = d.endsWith("ms") ? 2 : 1;
  let num = d.substring(0, d.length - unit);
  if (num.length == 0) return s;
  let dot = num.indexOf(".");
  // AVA: whole milliseconds, seconds with one decimal; node --test: milliseconds with decimals.
  if (unit == 2 && dot >= 0) return null;
  if (!allDigits(dot >= 0 ? num.substring(0, dot) + num.substring(dot + 1) : num)) return s;
  return s.substring(0, open);
}

function allDigits(s: string): bool {
  if (s.length == 0) return false;
  for (let i = 0; i < s.length; i++) if (!isDigit(s.charCodeAt(i))) return false;
  return true;
}
