// The test runners' JSON reports printed into the log:
// - jest's `--json` and vitest's `--reporter=json`: one line, `{"numFailedTestSuites":2,…}` (jest; its own report
//   goes to stderr beside it, and a runner read off that report keeps its tests) or `{"numTotalTestSuites":4,…}`
//   (vitest): the counts (`numPassedTests`, `numFailedTests`, `numPendingTests`), and each test under its file's
//   `testResults[].assertionResults[]` (`ancestorTitles`, `title`, `status`, `failureMessages`: message and stack
//   as one string). A failure is named as the runner's own report names it (jest: `a › b › title`; vitest:
//   `a > b > title`), placed at its stack's first frame in the project's code, else its `location`; a file that
//   did not load (`status: "failed"`, no tests, its `message`) is a failure named by the file.
// - mocha's `--reporter json`: from a `{` alone at column 0, whose next line opens `"stats"`, to the `}` alone at
//   column 0: `stats` (`passes`, `failures`, `pending`), `failures[]` (`title`, `fullTitle`: its suites' titles and
//   its own, joined by spaces; `err.stack`, `err.message`, `err.actual`, `err.expected`), `passes[]`. A failure is
//   named `suites > title` (the suites as mocha joins them).
// - RSpec's `--format json`: one line, `{"version":"3.12.0","examples":[…]…}` (runners/rspec.ts reads it).
// - Criterion's `--json`: `{` alone at column 0, then `  "id": "Criterion v2.4.1"`: read line by line (its templates
//   do not escape an assertion's words, `== ("full")`: the report is often not JSON): the totals at two spaces
//   (`passed`, `failed`: a test that died, `ERRORED`, is among them; `skipped`), each suite's `name` at six, its tests'
//   `name`, `status` and `messages` at ten (`crit_test.c:16: popped the wrong value`: the first places the failure),
//   named `suite::name` as Criterion's other outputs name it.
// - ESLint's `--format json`: one line, `[{"filePath":"/abs/src/a.js","messages":[{"ruleId":"no-var","severity":2,
//   "message":"Unexpected var, use let or const instead.","line":2,"column":3,…}],…},…]`: each message is a
//   finding of the file (severity 2 an error, 1 a warning; a parse error has `"ruleId":null` and `"fatal":true`),
//   read as the stylish report reads it (lint/eslint.ts): the rule its code, the message without its last period.
// A report that does not parse gives no tests (its lines stay claimed).
import { Char } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts, Tests, TestFailure, Diagnostic } from "../../model";
import { Parser } from "../../parser";
import { ByteSet } from "../../util/byte-set";
import { JValue, Kind, parse } from "../../util/json";
import { normPath } from "../../frames";
import { frameOfText, failureNamed, joinLines } from "./common";
import { withName, withSkipped } from "../../util/name-hash";
import { join } from "../../util/join";
import { rspecReport } from "./rspec";

/** A report larger than this is not buffered further (and then not read). */
const MAX_BYTES = 8 << 20;

const STARTS = new ByteSet().chars("{[");
const ESLINT_JSON = "[{\"filePath\":\"";

const enum State { NONE = 0, OPEN = 1, MOCHA = 2, CRITERION = 3 }

@final
export class JsonReportParser extends Parser {
  private state: i32 = State.NONE;
  private held: string | null = null;
  private buf: ArrayBuffer = new ArrayBuffer(0);
  private len: i32 = 0;
  private overflow: bool = false;
  /** Criterion's report: its tests (null when another reader's stand), the suite and test being read. */
  private crit: Tests | null = null;
  private critSuite: string = "";
  private critTest: string = "";
  private critFailure: TestFailure | null = null;
  private critMsgs: bool = false;

  atRest(): bool { return this.state == State.NONE; }
  starts(): ByteSet | null { return STARTS; }
  busy(): bool { return this.state != State.NONE; }

  claim(l: Line, f: Facts): bool {
    if (this.state == State.OPEN) {
      this.state = State.NONE;
      if (l.startsWith("  \"stats\": {")) {
        this.held = null;
        this.state = State.MOCHA;
        this.len = 0; this.overflow = false;
        this.append(Char.LBRACE);
        this.appendLine(l);
        return true;
      }
      if (l.startsWith("  \"id\": \"Criterion v")) {
        this.held = null;
        this.state = State.CRITERION;
        this.crit = reportTests(f, "criterion");
        this.critSuite = ""; this.critTest = ""; this.critFailure = null; this.critMsgs = false;
        return true;
      }
      if (this.held !== null) f.released.push(this.held!);
      this.held = null;
      return false;
    }
    if (this.state == State.CRITERION) { this.criterionLine(l); return true; }
    if (this.state == State.MOCHA) {
      if (f.tests === null) this.appendLine(l);
      if (l.len == 1 && l.at(0) == Char.RBRACE) this.read(f);
      return true;
    }
    if (l.at(0) == Char.LBRACKET) return this.eslint(l, f);
    if (l.at(0) != Char.LBRACE) return false;
    if (l.len == 1) {
      // mocha's report, if its next line opens `"stats"`: held back from the tail until then.
      this.state = State.OPEN;
      this.held = l.toString();
      return true;
    }
    if (l.matchAt("{\"version\":\"", 0) && l.at(l.len - 1) == Char.RBRACE) return this.rspec(l, f);
    if (!l.matchAt("{\"num", 0) || l.at(l.len - 1) != Char.RBRACE) return false;
    if (!l.matchAt("{\"numFailedTestSuites\":", 0) && !l.matchAt("{\"numTotalTestSuites\":", 0)) return false;
    // Another reader's tests stand (jest's own report on stderr): the line is claimed, not read.
    if (f.tests !== null) return true;
    let v = parse(l.ptr, l.len);
    if (v !== null && v.kind == Kind.OBJ) jestReport(v, f);
    return true;
  }

  /** ESLint's `--format json` report (see the header): read when the line parses as an array. */
  private eslint(l: Line, f: Facts): bool {
    if (!l.matchAt(ESLINT_JSON, 0) || l.at(l.len - 1) != Char.RBRACKET) return false;
    let v = parse(l.ptr, l.len);
    if (v === null || v.kind != Kind.ARR) return false;
    for (let i = 0; i < v.length; i++) {
      let fr = v.at(i);
      let file = normPath(fr.get("filePath").str());
      let ms = fr.get("messages");
      for (let k = 0; k < ms.length; k++) eslintMessage(ms.at(k), file, f);
    }
    return true;
  }

  /** RSpec's `--format json` report (`{"version":"3.12.0","examples":[…`): read when it parses and holds `examples`. */
  private rspec(l: Line, f: Facts): bool {
    if (l.indexOf("\"examples\":[") < 0) return false;
    if (f.tests !== null) return true;
    let v = parse(l.ptr, l.len);
    if (v === null || v.kind != Kind.OBJ || v.get("examples").kind != Kind.ARR) return false;
    rspecReport(v, f);
    return true;
  }

  finish(f: Facts): void {
    if (this.state == State.MOCHA) this.read(f);
    else if (this.state == State.OPEN && this.held !== null) f.released.push(this.held!);
    this.state = State.NONE;
    this.held = null;
  }

  /** A line of Criterion's report (its layout is its printf templates': keys at fixed indents). */
  private criterionLine(l: Line): void {
    if (l.len == 1 && l.at(0) == Char.RBRACE) { this.state = State.NONE; this.crit = null; return; }
    let t = this.crit;
    if (t === null) return;
    let p = l.skipSpaces(0);
    if (this.critMsgs) {
      if (l.at(p) == Char.RBRACKET) { this.critMsgs = false; return; }
      this.critMessage(l, p, l.len);
      return;
    }
    if (l.at(p) != Char.QUOTE) return;
    if (p == 2) {
      if (l.matchAt("\"passed\": ", p)) t.passed = max<i64>(l.readInt(p + 10), 0);
      else if (l.matchAt("\"failed\": ", p)) t.failed = max<i64>(l.readInt(p + 10), 0);
      else if (l.matchAt("\"skipped\": ", p)) t.skipped = max<i64>(l.readInt(p + 11), 0);
    } else if (p == 6) {
      if (l.matchAt("\"name\": ", p)) this.critSuite = quoted(l, p + 8);
    } else if (p == 10) {
      if (l.matchAt("\"name\": ", p)) { this.critTest = quoted(l, p + 8); this.critFailure = null; }
      else if (l.matchAt("\"status\": ", p)) {
        if (l.matchAt("\"FAILED\"", p + 10) || l.matchAt("\"ERRORED\"", p + 10)) {
          let tf = failureNamed(t, this.critSuite + "::" + this.critTest);
          if (tf.message == "failed") tf.message = "";
          this.critFailure = tf;
        }
      } else if (l.matchAt("\"messages\": [", p)) {
        let a = p + 13;
        let e = l.len;
        if (l.at(e - 1) == Char.COMMA) e--;
        if (l.at(e - 1) == Char.RBRACKET) this.critMessage(l, a, e - 1);
        else this.critMsgs = true;
      }
    }
  }

  /** One `"file.c:16: words"` of a failed test's messages, in [a, e): its place (the first's) and its words. */
  private critMessage(l: Line, a: i32, e: i32): void {
    let tf = this.critFailure;
    if (tf === null) return;
    while (e > a && (l.at(e - 1) == Char.COMMA || l.at(e - 1) == Char.SPACE)) e--;
    a = l.skipSpaces(a);
    if (l.at(a) != Char.QUOTE || e - a < 2 || l.at(e - 1) != Char.QUOTE) return;
    a++; e--;
    let k = l.indexOf(": ", a);
    if (k > a && k < e) {
      let colon = l.lastIndexOfByte(Char.COLON, k);
      let n = colon > a ? l.readInt(colon + 1) : -1;
      if (n > 0 && l.end == k) {
        if (tf.file === null) { tf.file = normPath(l.str(a, colon)); tf.line = <i32>n; }
        a = k + 2;
      }
    }
    let msg = l.str(a, e);
    tf.message = tf.message.length == 0 ? msg : tf.message.split("\n").length < 8 ? tf.message + "\n" + msg : tf.message;
  }

  private append(b: i32): void {
    this.ensure(this.len + 1);
    if (this.overflow) return;
    store<u8>(changetype<usize>(this.buf) + <usize>this.len, <u8>b);
    this.len++;
  }

  private appendLine(l: Line): void {
    let need = this.len + l.len + 1;
    this.ensure(need);
    if (this.overflow) return;
    let at = changetype<usize>(this.buf) + <usize>this.len;
    memory.copy(at, l.ptr, <usize>l.len);
    store<u8>(at + <usize>l.len, Char.LF);
    this.len = need;
  }

  private ensure(need: i32): void {
    if (this.overflow) return;
    if (need > MAX_BYTES) { this.overflow = true; return; }
    if (need > this.buf.byteLength) {
      let next = new ArrayBuffer(max(need, this.buf.byteLength << 1));
      memory.copy(changetype<usize>(next), changetype<usize>(this.buf), <usize>this.len);
      this.buf = next;
    }
  }

  private read(f: Facts): void {
    this.state = State.NONE;
    if (!this.overflow && f.tests === null) {
      let v = parse(changetype<usize>(this.buf), this.len);
      if (v !== null && v.kind == Kind.OBJ && v.get("stats").kind == Kind.OBJ) mochaReport(v, f);
    }
    this.buf = new ArrayBuffer(0);
    this.len = 0;
  }
}

/** One message of ESLint's JSON report: a finding of the file, as stylish prints it. */
function eslintMessage(m: JValue, file: string, f: Facts): void {
  let sev = m.get("severity").int(0);
  if (sev != 1 && sev != 2) return;
  let d = new Diagnostic();
  d.tool = "eslint";
  d.severity = sev == 2 ? "error" : "warning";
  let rule = m.get("ruleId");
  d.code = rule.kind == Kind.STR ? rule.str() : null;
  d.file = file;
  d.line = <i32>m.get("line").int(0);
  d.col = <i32>m.get("column").int(0);
  // stylish's `message.replace(/([^ ])\.$/u, "$1")`: one problem reads the same whatever the format.
  let msg = m.get("message").str();
  if (msg.length > 1 && msg.charCodeAt(msg.length - 1) == Char.DOT && msg.charCodeAt(msg.length - 2) != Char.SPACE) msg = msg.substring(0, msg.length - 1);
  d.message = msg;
  f.addDiagnostic(d);
}

/** The string after a key at p (`"ring",`): its bytes up to the line's last quote, unescaped by Criterion. */
function quoted(l: Line, p: i32): string {
  let a = l.indexOfByte(Char.QUOTE, p);
  let b = l.lastIndexOfByte(Char.QUOTE);
  return a >= 0 && b > a ? l.str(a + 1, b) : "";
}

/** The report's tests, unless another reader already read this run's (jest's own report on stderr). */
function reportTests(f: Facts, runner: string): Tests | null {
  if (f.tests !== null) return null;
  let t = f.testsFor(runner);
  t.totals = true;
  return t;
}

function jestReport(v: JValue, f: Facts): void {
  let jest = v.has("numRuntimeErrorTestSuites") || v.has("openHandles");
  let t = reportTests(f, jest ? "jest" : "vitest");
  if (t === null) return;
  let sep = jest ? " \u203a " : " > ";
  t.passed = max<i64>(v.get("numPassedTests").int(0), 0);
  t.failed = max<i64>(v.get("numFailedTests").int(0), 0);
  t.skipped = max<i64>(v.get("numPendingTests").int(0), 0);
  let hs: Array<u32> | null = [];
  let files = v.get("testResults");
  for (let i = 0; i < files.length; i++) {
    let fr = files.at(i);
    let file = normPath(fr.get("name").str());
    let tests = fr.get("assertionResults");
    if (tests.length == 0 && fr.get("status").str() == "failed") {
      // A file that did not load: its message is the error.
      let tf = failureNamed(t, file);
      tf.file = file;
      readFailure(tf, fr.get("message").str());
      t.errors++;
      continue;
    }
    for (let k = 0; k < tests.length; k++) {
      let a = tests.at(k);
      let status = a.get("status").str();
      let parts = new Array<string>(0);
      let anc = a.get("ancestorTitles");
      for (let j = 0; j < anc.length; j++) parts.push(anc.at(j).str());
      parts.push(a.get("title").str());
      let name = join(parts, sep);
      if (status == "passed") { hs = withName(hs, name); continue; }
      if (status == "pending" || status == "skipped" || status == "todo") { t.skippedSet = withSkipped(t.skippedSet, name); continue; }
      if (status != "failed") continue;
      let tf = failureNamed(t, name);
      readFailure(tf, a.get("failureMessages").at(0).str());
      if (tf.file === null) {
        tf.file = file;
        let loc = a.get("location");
        if (loc.kind == Kind.OBJ) tf.line = <i32>loc.get("line").int(0);
      }
    }
  }
  if (hs !== null && <i64>hs.length == t.passed) t.passedSet = hs;
}

function mochaReport(v: JValue, f: Facts): void {
  let t = reportTests(f, "mocha");
  if (t === null) return;
  let st = v.get("stats");
  t.passed = max<i64>(st.get("passes").int(0), 0);
  t.failed = max<i64>(st.get("failures").int(0), 0);
  t.skipped = max<i64>(st.get("pending").int(0), 0);
  let fs = v.get("failures");
  for (let i = 0; i < fs.length; i++) {
    let a = fs.at(i);
    let tf = failureNamed(t, mochaName(a));
    let err = a.get("err");
    let stack = err.get("stack").str();
    readFailure(tf, stack.length > 0 ? stack : err.get("message").str());
    let ac = err.get("actual"); let ex = err.get("expected");
    if (ac.kind == Kind.STR && ex.kind == Kind.STR) { tf.actual = ac.s; tf.expected = ex.s; }
    if (tf.file === null) { let file = a.get("file").str(); if (file.length > 0) tf.file = normPath(file); }
  }
  let hs: Array<u32> | null = [];
  let ps = v.get("passes");
  for (let i = 0; i < ps.length; i++) hs = withName(hs, mochaName(ps.at(i)));
  let pe = v.get("pending");
  for (let i = 0; i < pe.length; i++) t.skippedSet = withSkipped(t.skippedSet, mochaName(pe.at(i)));
  if (hs !== null && ps.length > 0 && <i64>hs.length == t.passed) t.passedSet = hs;
}

/** `price parsePrice accepts a leading dollar sign` with title `accepts a leading dollar sign`: `price parsePrice > accepts …`. */
function mochaName(a: JValue): string {
  let full = a.get("fullTitle").str();
  let title = a.get("title").str();
  if (title.length > 0 && full.length > title.length + 1 && full.endsWith(" " + title)) {
    return full.substring(0, full.length - title.length - 1) + " > " + title;
  }
  return full.length > 0 ? full : title;
}

/**
 * A failure's text (its message, then its stack): the message lines before the first frame, and that frame's place;
 * or before vite's code frame, whose `╭─[ path:line:col ]` is the place.
 */
function readFailure(tf: TestFailure, text: string): void {
  let lines = text.split("\n");
  let msg = new Array<string>(0);
  let framed = false;
  for (let i = 0; i < lines.length; i++) {
    let s = lines[i].trimStart().trimEnd();
    if (s.length > 0 && s.charCodeAt(0) == 0x256D) {
      // vite's code frame under `Transform failed with 1 error:`: `╭─[ src/slug.ts:2:64 ]` is the place; its lines
      // are not the message.
      let a = s.indexOf("[ "); let b = s.lastIndexOf(" ]");
      if (a > 0 && b > a) {
        let fr = frameOfText(s.substring(a + 2, b));
        if (fr !== null && fr.user) { tf.file = fr.file; tf.line = fr.line; break; }
      }
      framed = true;
      continue;
    }
    if (s.startsWith("at ")) {
      framed = true;
      let fr = frameOfText(s);
      if (fr !== null && fr.user) { tf.file = fr.file; tf.line = fr.line; break; }
      continue;
    }
    if (!framed && s.length > 0 && msg.length < 6) msg.push(stripAnsi(s));
  }
  tf.message = joinLines(msg, 6);
}

/** jest's failureMessages keep its colours when it printed them (`\u001b[2m…\u001b[22m`). */
function stripAnsi(s: string): string {
  if (!s.includes("\u001b[")) return s;
  let out = "";
  let i = 0;
  while (i < s.length) {
    let c = s.charCodeAt(i);
    if (c == 0x1B && i + 1 < s.length && s.charCodeAt(i + 1) == Char.LBRACKET) {
      i += 2;
      while (i < s.length && s.charCodeAt(i) < 0x40) i++;
      i++;
      continue;
    }
    out += String.fromCharCode(c);
    i++;
  }
  return out;
}
