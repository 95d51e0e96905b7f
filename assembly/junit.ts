// JUnit XML (pytest --junitxml, jest-junit, gtest --gtest_output=xml, surefire, ...) -> Tests. A byte scanner
// over the report: <testcase classname name [file line status]> with <failure>/<error>/<skipped> children.
// Names are `classname.name`, or `name` alone when the two are equal (jest-junit). file:line is the innermost
// user location the failure text shows (a JS `at fn (file:l:c)` frame, else the last `file.py:12:` line,
// else a leading `file.cc:9`), falling back to the testcase's own file/line attributes.
import { Char, isDigit } from "./util/chars";
import { Line } from "./util/line";
import { decode, hidden } from "./util/utf8";
import { Tests, TestFailure, Facts, Crash } from "./model";
import { normPath } from "./frames";
import { JValue, Kind } from "./util/json";
import { frameOfText, isUserFile, failureNamed, batsLocation, batsFrame } from "./parsers/runners/common";
import { statusOf } from "./verdict";
import { join } from "./util/join";
import { withName } from "./util/name-hash";

class Cursor {
  p: usize;
  end: usize;
  constructor(p: usize, end: usize) { this.p = p; this.end = end; }
  @inline at(k: usize = 0): i32 { let q = this.p + k; return q < this.end ? <i32>load<u8>(q) : -1; }
  match(s: string): bool {
    let n = s.length;
    if (this.p + <usize>n > this.end) return false;
    for (let i = 0; i < n; i++) if (<u32>load<u8>(this.p + <usize>i) != <u32>s.charCodeAt(i)) return false;
    return true;
  }
  /** Moves to the next occurrence of s; false at the end. */
  seek(s: string): bool {
    let first = s.charCodeAt(0);
    while (this.p < this.end) {
      if (<i32>load<u8>(this.p) == first && this.match(s)) return true;
      this.p++;
    }
    return false;
  }
}

/**
 * A character reference's text: U+FFFD for what is no character (past U+10FFFF, a surrogate; the std
 * fromCodePoint aborts the instance on the first) and for what decode() replaces in text (control
 * characters but TAB and LF, hidden()), so a report cannot put through a reference what its bytes could not.
 */
function charRef(n: i32): string {
  if (<u32>n > 0x10FFFF || (n >= 0xD800 && n <= 0xDFFF) || (n < Char.SPACE && n != Char.TAB && n != Char.LF) || hidden(<u32>n)) return "\uFFFD";
  return String.fromCodePoint(n);
}

/** Replaces the five XML entities and &#N; / &#xN; references. */
function unescape(s: string): string {
  if (!s.includes("&")) return s;
  let parts = new Array<string>(0);
  let i = 0;
  while (i < s.length) {
    let a = s.indexOf("&", i);
    if (a < 0) { parts.push(s.substring(i)); break; }
    parts.push(s.substring(i, a));
    let b = s.indexOf(";", a);
    if (b < 0 || b - a > 10) { parts.push("&"); i = a + 1; continue; }
    let ent = s.substring(a + 1, b);
    if (ent == "lt") parts.push("<");
    else if (ent == "gt") parts.push(">");
    else if (ent == "amp") parts.push("&");
    else if (ent == "quot") parts.push("\"");
    else if (ent == "apos") parts.push("'");
    else if (ent.startsWith("#x") || ent.startsWith("#X")) parts.push(charRef(I32.parseInt(ent.substring(2), 16)));
    else if (ent.startsWith("#")) parts.push(charRef(I32.parseInt(ent.substring(1))));
    else parts.push("&" + ent + ";");
    i = b + 1;
  }
  return join(parts, "");
}

/** The value of attribute name inside the tag [a, b), or null. */
function attr(a: usize, b: usize, name: string): string | null {
  let c = new Cursor(a, b);
  let key = " " + name + "=\"";
  while (c.seek(key)) {
    let v = c.p + <usize>key.length;
    let e = v;
    while (e < b && load<u8>(e) != Char.QUOTE) e++;
    return unescape(decode(v, <i32>(e - v)));
  }
  // tabs or newlines before the attribute
  return null;
}

/** Text content [a, b), CDATA sections unwrapped, entities replaced. */
function text(a: usize, b: usize): string {
  let s = decode(a, <i32>(b - a));
  if (s.includes("<![CDATA[")) {
    let parts = new Array<string>(0);
    let i = 0;
    while (i < s.length) {
      let o = s.indexOf("<![CDATA[", i);
      if (o < 0) { parts.push(unescape(s.substring(i))); break; }
      parts.push(unescape(s.substring(i, o)));
      let e = s.indexOf("]]>", o);
      if (e < 0) e = s.length;
      parts.push(s.substring(o + 9, e));
      i = e + 3;
    }
    return join(parts, "");
  }
  return unescape(s);
}

function locate(tf: TestFailure, body: string): void {
  let lines = body.split("\n");
  let jsDone = false;
  let lastFile: string | null = null; let lastLine: i32 = -1;
  for (let i = 0; i < lines.length; i++) {
    let s = lines[i].trimStart().trimEnd();
    // bats' `(in test file x.bats, line 12)` (after its helper calls' `(from function …` lines) is the place.
    if (batsLocation(tf, s)) return;
    // vitest marks its frames `❯ stack.test.js:13:21` (or `❯ fn file:line:col`)
    if (s.startsWith("\u276F ")) {
      if (jsDone) continue;
      let fr = frameOfText(s.substring(2));
      if (fr !== null && fr.user) { tf.file = fr.file; tf.line = fr.line; jsDone = true; }
      continue;
    }
    if (s.startsWith("at ")) {
      if (jsDone) continue;
      let fr = frameOfText(s);
      if (fr !== null && fr.user) { tf.file = fr.file; tf.line = fr.line; jsDone = true; }
      continue;
    }
    // `calc.py:12: ZeroDivisionError`, `./ring_test.cc:9`
    let colon = s.indexOf(":");
    if (colon <= 0 || s.includes(" ") && s.indexOf(" ") < colon) continue;
    let e = colon + 1;
    while (e < s.length && isDigit(s.charCodeAt(e))) e++;
    if (e == colon + 1 || (e < s.length && s.charCodeAt(e) != Char.COLON)) continue;
    let file = normPath(s.substring(0, colon));
    if (!isUserFile(file)) continue;
    lastFile = file; lastLine = I32.parseInt(s.substring(colon + 1, e));
  }
  if (!jsDone && lastFile !== null) { tf.file = lastFile; tf.line = lastLine; }
}

function messageOf(msgAttr: string | null, body: string): string {
  // Catch2's body (`FAILED:`, the assertion, `with expansion:` and its values, or the exception's text, then `at
  // file:line`) says more than its message attribute, the bare expression (`s.pop() == 0`): the body is the message.
  let catch2 = body.trimStart().startsWith("FAILED:");
  let src = msgAttr !== null && msgAttr!.length > 0 && !catch2 ? msgAttr! : body;
  let lines = src.split("\n");
  let keep = new Array<string>(0);
  for (let i = 0; i < lines.length && keep.length < 6; i++) {
    let s = lines[i].trimStart().trimEnd();
    if (s.length == 0) continue;
    if (catch2 && keep.length == 0 && s == "FAILED:") continue;
    if (s.startsWith("at ")) break;
    // doctest's body opens with the place alone (`./stack_test.cpp:25:`): the place, not the message.
    if (keep.length == 0 && placeOnly(s)) continue;
    // bats' place and the helper calls above it (`(from function …,`, `in test file x.bats, line 12)`).
    if (keep.length == 0 && (batsFrame(s) || batsPlace(s))) continue;
    keep.push(s);
  }
  return join(keep, "\n");
}

/** bats' `(in test file x.bats, line 12)`, or its ` in test file …)` closing the helper calls. */
function batsPlace(s: string): bool {
  return s.endsWith(")") && (s.startsWith("(in test file ") || s.startsWith("in test file "));
}

/** `file:25:` and nothing else (no space): a place line. */
function placeOnly(s: string): bool {
  let n = s.length;
  if (n < 4 || s.charCodeAt(n - 1) != Char.COLON || s.includes(" ")) return false;
  let i = n - 2;
  while (i >= 0 && isDigit(s.charCodeAt(i))) i--;
  return i < n - 2 && i > 0 && s.charCodeAt(i) == Char.COLON;
}

/**
 * Boost.Test's JUNIT log (`--log_format=JUNIT`): the message attribute is a constant (`failure`, `unexpected
 * exception`); the body is `ASSERTION FAILURE:` with `- file   : bt_test.cpp`, `- line   : 22`, `- message: check ...`,
 * or `UNCAUGHT EXCEPTION:` at `- file: unknown location`, the exception's text between `EXCEPTION STACK TRACE: ---`
 * and a dashed line, then `Last checkpoint:` with its own `- file:` and `- line:` (the place, as the console's `last
 * checkpoint` line is). False when body is not that.
 */
function boostBody(tf: TestFailure, body: string): bool {
  let lines = body.split("\n");
  let i = 0;
  while (i < lines.length && lines[i].trimStart().length == 0) i++;
  if (i == lines.length) return false;
  let first = lines[i].trimEnd();
  let uncaught = first == "UNCAUGHT EXCEPTION:";
  if (!uncaught && first != "ASSERTION FAILURE:") return false;
  let file: string | null = null; let line: i32 = -1; let placing = false;
  let msg = ""; let trace = new Array<string>(0); let inTrace = false;
  for (i++; i < lines.length; i++) {
    let s = lines[i].trimStart().trimEnd();
    if (inTrace) {
      if (s.startsWith("-----")) inTrace = false;
      else if (s.length > 0 && trace.length < 4) trace.push(s);
      continue;
    }
    if (s.startsWith("EXCEPTION STACK TRACE:")) { inTrace = true; continue; }
    if (!s.startsWith("- ")) continue;
    let colon = s.indexOf(":");
    if (colon < 0) continue;
    let key = s.substring(2, colon).trimEnd();
    let val = s.substring(colon + 1).trimStart();
    if (key == "file") {
      placing = file === null && val.length > 0 && val != "unknown location";
      if (placing) file = normPath(val);
    } else if (key == "line") {
      if (placing && line < 0) line = I32.parseInt(val);
      placing = false;
    } else if (key == "message" && !uncaught && msg.length == 0) msg = val;
  }
  tf.message = uncaught ? join(trace, "\n") : msg;
  if (file !== null && line > 0) { tf.file = file; tf.line = line; }
  return true;
}

/**
 * node-tap's failure body is its YAML diagnostics (`compare: ===`, `at:`, `stack: |`, `source: |`, `diff: |`):
 * no message line of its own; its diff's `-`/`+` lines (after `@@`) are expected and actual. False when body is
 * not that.
 */
function tapYaml(tf: TestFailure, body: string): bool {
  let lines = body.split("\n");
  let first = "";
  for (let i = 0; i < lines.length && first.length == 0; i++) first = lines[i].trimStart().trimEnd();
  if (!(first.startsWith("compare: ") || first == "at:" || first == "stack: |")) return false;
  let diff = false; let hunk = false;
  let exp = new Array<string>(0); let act = new Array<string>(0);
  for (let i = 0; i < lines.length; i++) {
    let raw = lines[i];
    if (raw.startsWith("diff: ")) { diff = true; continue; }
    if (!diff) continue;
    if (!raw.startsWith("  ")) { diff = false; continue; }
    let s = raw.substring(2);
    if (s.startsWith("@@")) { hunk = true; continue; }
    if (!hunk || s.length == 0) continue;
    let c = s.charCodeAt(0);
    if (c == Char.MINUS && exp.length < 4) exp.push(s.substring(1));
    else if (c == Char.PLUS && act.length < 4) act.push(s.substring(1));
  }
  if (exp.length > 0) tf.expected = join(exp, "\n");
  if (act.length > 0) tf.actual = join(act, "\n");
  return true;
}

/** Opens and closes the `<testsuite name="…">` tags in [a, b) on the stack of suite names (at most 32 deep). */
function suiteStack(st: Array<string>, a: usize, b: usize): void {
  let p = a;
  while (p < b) {
    if (load<u8>(p) != Char.LT) { p++; continue; }
    let cur = new Cursor(p, b);
    if (cur.match("</testsuite>")) { if (st.length > 0) st.pop(); p += 12; continue; }
    if (cur.match("<testsuite") && (cur.at(10) == Char.SPACE || cur.at(10) == Char.GT || cur.at(10) == Char.LF || cur.at(10) == Char.TAB)) {
      let q = tagEnd(p + 10, b);
      let selfClose = q > p && load<u8>(q - 1) == Char.SLASH;
      let name = attr(p + 9, q, "name");
      if (!selfClose && st.length < 32) st.push(name !== null ? name!.trimStart().trimEnd() : "");
      p = q + 1;
      continue;
    }
    p++;
  }
}

/**
 * doctest's JUnit reporter gives each testcase its source file as classname (`classname="/home/u/p/test/test.cpp"
 * name="NAMEOF/variable"`: __FILE__, absolute under CMake): a place, not a class, so the test is its name alone
 * (as doctest's console names it; a path in the name would rename every test when the tree moves).
 */
function sourcePath(cn: string): bool {
  let slash = cn.includes("/") || cn.includes("\\");
  if (cn.endsWith(".cpp") || cn.endsWith(".cc") || cn.endsWith(".cxx") || cn.endsWith(".hpp") || cn.endsWith(".hh")) return true;
  return slash && (cn.endsWith(".c") || cn.endsWith(".h"));
}

/** Parses a JUnit report into Tests (runner "junit"). */
export function parseJunit(ptr: usize, len: i32): Tests {
  let t = new Tests();
  t.runner = "junit";
  t.totals = true;
  let end = ptr + <usize>max(len, 0);
  let c = new Cursor(ptr, end);
  // node-tap's report lists each subtest as a testcase after its children (classname `test/pop.ts > sub`): one
  // whose `classname > name` is an earlier testcase's classname is a parent, not a test of its own.
  let parents = new Set<string>();
  // node --test's report names every testcase's classname `test`: its `<testsuite name>`s (describe blocks)
  // around it are the test's parents (`node > changes ID length`), as node's other reporters name it.
  let suites = new Array<string>(0);
  let from = ptr;
  let vitest = vitestReport(ptr, end);
  let unrun: i64 = 0;
  let ran: Array<u32> | null = [];
  while (c.seek("<testcase")) {
    suiteStack(suites, from, c.p);
    let a = c.p + 9;
    let nx = load<u8>(a);
    if (nx != Char.SPACE && nx != Char.TAB && nx != Char.LF && nx != Char.CR && nx != Char.GT && nx != Char.SLASH) { c.p = a; continue; }
    let q = tagEnd(a, end);
    let selfClose = q > a && load<u8>(q - 1) == Char.SLASH;
    let name = attr(a - 1, q, "name");
    let cls = attr(a - 1, q, "classname");
    let status = attr(a - 1, q, "status");
    let file = attr(a - 1, q, "file");
    let lineAttr = attr(a - 1, q, "line");
    let n = name !== null ? name!.trimStart().trimEnd() : "";
    let cn = cls !== null ? cls!.trimStart().trimEnd() : "";
    // node-tap's classnames join the subtests' names with ` > `: its test's name joins the same way.
    let full = cn.length > 0 && cn != n && !sourcePath(cn) ? cn + (cn.includes(" > ") ? " > " : ".") + n : n;
    if (cn == "test" && suites.length > 0) full = join(suites, " > ") + " > " + n;
    let parent = cn.length > 0 && parents.size > 0 && parents.has(cn + " > " + n);
    if (cn.includes(" > ")) parents.add(cn);
    let bodyStart = q + 1;
    let bodyEnd = bodyStart;
    if (!selfClose) {
      let e = new Cursor(bodyStart, end);
      bodyEnd = e.seek("</testcase>") ? e.p : end;
    }
    c.p = selfClose ? q + 1 : bodyEnd;
    from = c.p;
    if (parent) continue;
    let kind = 0; // 0 pass, 1 failure, 2 error, 3 skipped
    let ka: usize = 0; let kq: usize = 0;
    let inner = new Cursor(bodyStart, bodyEnd);
    while (inner.seek("<")) {
      if (inner.match("<failure")) kind = 1;
      else if (inner.match("<error")) kind = 2;
      else if (inner.match("<skipped")) kind = 3;
      else { inner.p++; continue; }
      ka = inner.p;
      kq = tagEnd(ka, bodyEnd);
      break;
    }
    if (kind == 0 && status !== null && status! == "notrun") kind = 3;
    if (kind == 0 && vitest && unrunByVitest(a - 1, q)) { unrun++; continue; }
    if (kind == 0) { t.passed++; if (vitest) ran = withName(ran, full); continue; }
    if (kind == 3) { t.skipped++; continue; }
    if (kind == 1) t.failed++; else t.errors++;
    let tf = failureNamed(t, full);
    let msg = attr(ka, kq, "message");
    let body = "";
    let selfK = kq > ka && load<u8>(kq - 1) == Char.SLASH;
    if (!selfK) {
      let close = new Cursor(kq + 1, bodyEnd);
      let tag = kind == 1 ? "</failure>" : "</error>";
      let ce = close.seek(tag) ? close.p : bodyEnd;
      body = text(kq + 1, ce);
    }
    let yaml = tapYaml(tf, body);
    let boost = !yaml && boostBody(tf, body);
    if (!boost) tf.message = yaml ? "" : messageOf(msg, body);
    // node-tap's file and line attributes are the assertion's; its YAML's other places are not.
    if (!boost && (!yaml || file === null)) locate(tf, body.length > 0 ? body : (msg !== null ? msg! : ""));
    if (tf.file === null && file !== null) {
      tf.file = normPath(file!);
      if (lineAttr !== null) tf.line = I32.parseInt(lineAttr!);
    }
    let lines = (msg !== null ? msg! : body).split("\n");
    for (let i = 0; i < lines.length; i++) {
      let s = lines[i].trimStart().trimEnd();
      if (s.startsWith("Expected: ")) tf.expected = s.substring(10);
      else if (s.startsWith("Received: ") || s.startsWith("Actual: ")) tf.actual = s.substring(s.indexOf(" ") + 1);
    }
  }
  // node --test's report closes with the run's own counts (`<!-- pass 30 -->`, `<!-- fail 2 -->`, `<!-- skipped 0
  // -->`). They count a test() whose subtests ran, written as a `<testsuite>` and no testcase, as node's other
  // reporters do (`ℹ pass 30`; wooorm/trough's t.test suites): they win over the testcases read, as doctest's do.
  // The tests that passed are named too: a test failing before and passing now ran (fixed), one left unrun did not.
  if (unrun > 0) { t.notRun = unrun; if (ran !== null) t.passedSet = ran; }
  let np = commentCount(ptr, end, "<!-- pass ");
  let nf = commentCount(ptr, end, "<!-- fail ");
  if (np >= 0 && nf >= 0) {
    t.passed = np;
    t.failed = nf;
    let ns = commentCount(ptr, end, "<!-- skipped ");
    if (ns >= 0) t.skipped = ns;
  }
  return t;
}

/** vitest's junit reporter names its root `<testsuites name="vitest tests"` (its first tag after the XML declaration). */
function vitestReport(ptr: usize, end: usize): bool {
  let c = new Cursor(ptr, min(end, ptr + 256));
  return c.seek("<testsuites name=\"vitest tests\"");
}

/**
 * vitest writes every test of the run, those `--bail` stopped before they started too: such a testcase has no
 * child and `time="0"` (a test that ran has its measured duration, milliseconds / 1000 with their fraction, never
 * a bare 0). It was not run; its skipped ones carry `<skipped/>`.
 */
function unrunByVitest(a: usize, q: usize): bool {
  let time = attr(a, q, "time");
  return time !== null && time! == "0";
}

/** The number after node's summary comment `key` (`<!-- pass 30 -->`) in the report, -1 when there is none. */
function commentCount(ptr: usize, end: usize, key: string): i32 {
  let c = new Cursor(ptr, end);
  if (!c.seek(key)) return -1;
  let p = c.p + <usize>key.length;
  let n = 0; let digits = 0;
  while (p < end && digits < 9) {
    let b = <i32>load<u8>(p);
    if (!isDigit(b)) break;
    n = n * 10 + (b - Char._0);
    digits++; p++;
  }
  if (digits == 0 || p >= end || load<u8>(p) != Char.SPACE) return -1;
  return n;
}

/** Where the start tag whose name ends at a ends: its `>` (end when there is none). */
function tagEnd(a: usize, end: usize): usize {
  // A `>` inside a quoted attribute value is legal XML and ends nothing (Catch2's JUnit reporter writes
  // `<testcase … name="tp->wait_empty()" …/>`, a test case named after its section).
  let q = a;
  while (q < end) {
    let c = load<u8>(q);
    if (c == Char.GT) break;
    if (c == Char.QUOTE || c == Char.APOS) {
      // An unclosed quote (a report cut short): the first `>` ends it, as before.
      let z = q + 1;
      while (z < end && load<u8>(z) != c) z++;
      if (z < end) q = z;
    }
    q++;
  }
  return q;
}

/**
 * doctest's XML reporter (`-r=xml`, on stdout; Neargye/nameof's suite): `<doctest binary version>`, a
 * `<TestCase name filename line [skipped="true"]>` per test case (filtered out: skipped, self-closed), its
 * `<SubCase>`s, each failed assertion an `<Expression success="false" type="REQUIRE" filename line>` with
 * `<Original>` and `<Expanded>` (or `<Exception>`: it threw), the case's `<OverallResultsAsserts ...
 * test_case_success="false">`, and the run's `<OverallResultsTestCases successes failures skipped>`. A failing
 * case is named as doctest's console names it (the test case), placed at its first failed assertion, whose
 * expansion is its message (`values: REQUIRE( field == fields )`, as the console prints it).
 */
export function parseDoctestXml(ptr: usize, len: i32, catch2: bool = false): Tests {
  let t = new Tests();
  t.runner = catch2 ? "catch2" : "doctest";
  t.totals = true;
  let end = ptr + <usize>max(len, 0);
  let c = new Cursor(ptr, end);
  while (c.seek("<TestCase")) {
    let a = c.p + 9;
    let nx = a < end ? load<u8>(a) : 0;
    if (nx != Char.SPACE && nx != Char.GT) { c.p = a; continue; }
    let q = tagEnd(a, end);
    let selfClose = q > a && load<u8>(q - 1) == Char.SLASH;
    let nm = attr(a - 1, q, "name");
    let name = nm !== null ? nm!.trimStart().trimEnd() : "";
    let skipped = attr(a - 1, q, "skipped");
    let bodyStart = q + 1;
    let bodyEnd = bodyStart;
    if (!selfClose) {
      let e = new Cursor(bodyStart, end);
      bodyEnd = e.seek("</TestCase>") ? e.p : end;
    }
    c.p = selfClose ? q + 1 : bodyEnd;
    if (skipped !== null && skipped! == "true") { t.skipped++; continue; }
    let o = new Cursor(bodyStart, bodyEnd);
    let failed = false;
    // Catch2's XML reporter (`-r xml`, root `<Catch2TestRun>`, v2 `<Catch>`): `<OverallResult success="false"/>`.
    if (catch2) {
      if (o.seek("<OverallResult ")) {
        let oq = tagEnd(o.p, bodyEnd);
        let ok = attr(o.p, oq, "success");
        failed = ok !== null && ok! == "false";
      }
    } else if (o.seek("<OverallResultsAsserts")) {
      let oq = tagEnd(o.p, bodyEnd);
      let ok = attr(o.p, oq, "test_case_success");
      failed = ok !== null && ok! == "false";
    }
    if (!failed) { t.passed++; continue; }
    t.failed++;
    let tf = failureNamed(t, name);
    let x = new Cursor(bodyStart, bodyEnd);
    while (x.seek("<Expression")) {
      let xq = tagEnd(x.p, bodyEnd);
      let ok = attr(x.p, xq, "success");
      if (ok === null || ok! != "false") { x.p = xq; continue; }
      let type = attr(x.p, xq, "type");
      let file = attr(x.p, xq, "filename");
      let ln = attr(x.p, xq, "line");
      if (file !== null) tf.file = normPath(file!);
      if (ln !== null) tf.line = I32.parseInt(ln!);
      let ee = new Cursor(xq, bodyEnd);
      let eEnd = ee.seek("</Expression>") ? ee.p : bodyEnd;
      let tp = type !== null ? type! : "CHECK";
      let ex = new Cursor(xq, eEnd);
      if (catch2 && ex.seek("<Original>")) {
        // Catch2: `REQUIRE( original )`, then `with expansion:` and the values, as its console prints them.
        let s = ex.p + 10;
        let ce = new Cursor(s, eEnd);
        let m = tp + "( " + text(s, ce.seek("</Original>") ? ce.p : eEnd).trimStart().trimEnd() + " )";
        let xe = new Cursor(xq, eEnd);
        if (xe.seek("<Expanded>")) {
          let v = xe.p + 10;
          let ve = new Cursor(v, eEnd);
          m += "\nwith expansion:\n" + text(v, ve.seek("</Expanded>") ? ve.p : eEnd).trimStart().trimEnd();
        }
        tf.message = m;
      } else if (ex.seek("<Expanded>")) {
        let s = ex.p + 10;
        let ce = new Cursor(s, eEnd);
        tf.message = "values: " + tp + "( " + text(s, ce.seek("</Expanded>") ? ce.p : eEnd).trimStart().trimEnd() + " )";
      } else {
        let th = new Cursor(xq, eEnd);
        if (th.seek("<Exception")) {
          let s = tagEnd(th.p, eEnd) + 1;
          let ce = new Cursor(s, eEnd);
          // the text is quoted already (`"pop from an empty stack"`), as the console prints it
          tf.message = "THREW exception: " + text(s, ce.seek("</Exception>") ? ce.p : eEnd).trimStart().trimEnd();
        }
      }
      break;
    }
    if (tf.message.length == 0) {
      // an exception outside any assertion: `<Exception crash="false">text</Exception>` in the case
      let th = new Cursor(bodyStart, bodyEnd);
      if (th.seek("<Exception")) {
        let s = tagEnd(th.p, bodyEnd) + 1;
        let ce = new Cursor(s, bodyEnd);
        tf.message = "TEST CASE FAILED: threw exception: " + text(s, ce.seek("</Exception>") ? ce.p : bodyEnd).trimStart().trimEnd();
      }
    }
  }
  // The run's own count of test cases wins over the elements read.
  let r = new Cursor(ptr, end);
  if (catch2) {
    // `<OverallResultsCases successes="1" failures="3" expectedFailures="0" skips="0"/>`
    if (r.seek("<OverallResultsCases ")) {
      let rq = tagEnd(r.p, end);
      let ok = attr(r.p, rq, "successes"); let bad = attr(r.p, rq, "failures"); let sk = attr(r.p, rq, "skips");
      if (ok !== null && bad !== null) {
        t.passed = I32.parseInt(ok!);
        t.failed = I32.parseInt(bad!);
        if (sk !== null) t.skipped = I32.parseInt(sk!);
      }
    }
  } else if (r.seek("<OverallResultsTestCases")) {
    let rq = tagEnd(r.p, end);
    let ok = attr(r.p, rq, "successes"); let bad = attr(r.p, rq, "failures"); let sk = attr(r.p, rq, "skipped");
    if (ok !== null && bad !== null) {
      t.passed = I32.parseInt(ok!);
      t.failed = I32.parseInt(bad!);
      if (sk !== null) t.skipped = I32.parseInt(sk!);
    }
  }
  return t;
}

/**
 * Boost.Test's XML log (`--log_format=XML --log_sink=stdout`, one line): `<TestLog>`, a `<TestSuite name=..>` per
 * suite (the first is the module), `<TestCase name=.. file=.. line=..>` holding an `<Error file= line=>` or
 * `<FatalError ...>` per failed check (its text the check's) or an `<Exception file="unknown location" line="0">`
 * whose text is the exception's or the caught signal's and whose `<LastCheckpoint file= line=>` places it. A case
 * is named as the console names it (`suite/case`, the module left out) and placed at its first failure; a case or
 * suite tag closed on itself with `skipped="yes"` was not run. At the default --log_level=error the log has no
 * case tags: no tests are read from it (null).
 */
export function parseBoostXml(ptr: usize, len: i32): Tests | null {
  let t = new Tests();
  t.runner = "boost-test";
  t.totals = true;
  let end = ptr + <usize>max(len, 0);
  let suites = new Array<string>(0);
  let cases = 0;
  let c = new Cursor(ptr, end);
  while (c.seek("<")) {
    let a = c.p;
    if (c.match("</TestSuite>")) { if (suites.length > 0) suites.pop(); c.p = a + 12; continue; }
    let suite = c.match("<TestSuite");
    let isCase = !suite && c.match("<TestCase");
    if (!suite && !isCase) { c.p = a + 1; continue; }
    let n = a + (suite ? 10 : 9);
    let nx = n < end ? load<u8>(n) : 0;
    if (nx != Char.SPACE && nx != Char.GT && nx != Char.SLASH) { c.p = n; continue; }
    let q = tagEnd(n, end);
    let selfClose = q > n && load<u8>(q - 1) == Char.SLASH;
    let nm = attr(a, q, "name");
    let name = nm !== null ? nm! : "";
    c.p = q + 1;
    if (suite) { if (!selfClose && suites.length < 32) suites.push(name); continue; }
    cases++;
    if (selfClose) { let sk = attr(a, q, "skipped"); if (sk !== null && sk! == "yes") t.skipped++; continue; }
    let e = new Cursor(q + 1, end);
    let bodyEnd = e.seek("</TestCase>") ? e.p : end;
    c.p = bodyEnd;
    let b = new Cursor(q + 1, bodyEnd);
    let tag = "";
    while (b.seek("<")) {
      if (b.match("<Error")) { tag = "Error"; break; }
      if (b.match("<FatalError")) { tag = "FatalError"; break; }
      if (b.match("<Exception")) { tag = "Exception"; break; }
      b.p++;
    }
    if (tag.length == 0) { t.passed++; continue; }
    t.failed++;
    let parts = new Array<string>(0);
    for (let i = 1; i < suites.length; i++) parts.push(suites[i]);
    parts.push(name);
    let tf = failureNamed(t, join(parts, "/"));
    let fa = b.p;
    let fq = tagEnd(fa + 1, bodyEnd);
    let closeTag = "</" + tag + ">";
    let ce = new Cursor(fq + 1, bodyEnd);
    let fEnd = ce.seek(closeTag) ? ce.p : bodyEnd;
    let msgEnd = fEnd;
    let pa = fa; let pq = fq;
    if (tag == "Exception") {
      let lc = new Cursor(fq + 1, fEnd);
      if (lc.seek("<LastCheckpoint")) { msgEnd = lc.p; pa = lc.p; pq = tagEnd(lc.p + 15, fEnd); }
    }
    tf.message = text(fq + 1, msgEnd).trimStart().trimEnd();
    let file = attr(pa, pq, "file");
    let ln = attr(pa, pq, "line");
    if (file !== null && file! != "unknown location" && ln !== null) {
      tf.file = normPath(file!);
      tf.line = I32.parseInt(ln!);
    }
  }
  return cases > 0 ? t : null;
}

/**
 * The status of a verdict (its JSON) once its tests are replaced by t: the same precedence as statusOf,
 * from the facts the JSON keeps.
 */
export function mergedStatus(v: JValue, t: Tests): string {
  let f = new Facts();
  let ex = v.get("exit");
  let e = f.exit;
  let code = ex.get("code");
  e.known = code.kind == Kind.NUM;
  e.code = <i32>code.int(0);
  e.signal = ex.get("signal").strOrNull();
  e.timedOut = ex.get("timed_out").bool();
  f.setupFailure = v.get("setup_error").strOrNull();
  if (v.get("crash").kind == Kind.OBJ) f.crash = new Crash();
  f.errorCount = <i32>v.get("counts").get("errors").int(0);
  f.buildFailedLine = v.get("build_failure").strOrNull();
  f.tests = t;
  // A status the engine settled for reasons the JSON does not spell out (e.g. a runner's timeout) stands.
  let old = v.get("status").str();
  if (old == "timeout") f.timeoutSeen = true;
  if (old == "interrupted") e.interrupted = true;
  return statusOf(f, e);
}
