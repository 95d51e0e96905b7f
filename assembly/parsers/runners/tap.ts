// TAP 13/14 (node --test --test-reporter=tap, tape, any TAP producer) and Perl's prove. TAP: `ok N - desc`,
// `not ok N - desc # TODO|SKIP`, indented subtests (a parent is not listed; a failure under `# Subtest:`
// parents is named `parent > child`), the YAML block after a failure
// (`error:`, `expected:`, `actual:`, `stack:`, `location:`), node's `# pass N` totals. prove: Test::More's
// `#   Failed test 'desc'` / `#   at t/x.t line 9.` / `got:` / `expected:`, `Failed 2/4 subtests`,
// `(less 1 skipped subtest: ...)` and `Files=2, Tests=10` (passed = Tests - failed - skipped). The failed
// count is the Test Summary Report's `(Wstat: 0 Tests: 4 Failed: 1)` when it is there: `Failed 2/5
// subtests` also counts planned tests that never ran (`Bad plan`). Under `prove -v` a failure without a
// Test::More location is in the test file whose `t/x.t ..` header it follows; a `#   text` comment after it is
// its message. A stream with node's `# pass N` keeps every `ok` leaf's full name hashed (Tests.passedSet) when
// they are as many (prove's files are units its list does not name: none). tape's stream is flat: a `# name`
// comment opens each test, its `ok N message` lines are the test's assertions; an assertion is named
// `test > message` (a message repeats across tests: `should be deeply equivalent`), and its `# pass  N` (two
// blanks) is the count its list is checked against. Not under prove, nor once node's `# Subtest:` was seen.
// node-tap (tap 18+) closes every reporter's output with `# { total: 125, pass: 124, fail: 1 }` (its totals);
// its own reporters (base, terse, dot: Ink's, not TAP) print a failure as ` FAIL  test/pop.ts 1 failed of 23
// 113ms`, `✖ pop disposes > should be equal` (named under the file, as its TAP names it), the place (`test/pop.ts`
// or `test/pop.ts:75:5`), a code frame, the diff (`-4`, `+3`), the stack (`Test.<anonymous> (test/pop.ts:75:5)`).
// Test::More's diagnostics under prove (stderr, in no order with the TAP on stdout) are the only names a failure
// has without -v: a subtest's failure is indented four columns a level and printed before its parent's, so one
// is held until its top-level parent names the path (`reduce > 2/4 > reduces`, as `# Subtest:` names it under
// -v; the parent is not listed), its message the block's lines two columns in (`got:`/`expected:`, is_deeply's
// `Structures begin differing at:`, like()'s quoted value and `doesn't match`); an unnamed one is named by its
// place (`t/x.t line 28`: under -v its nameless `not ok 4` is the same). A test file that died (`Dubious, test
// returned 255`, or `No subtests run`, or `Looks like your test exited with`) has Perl's error (`msg at FILE line
// N.`, a `syntax error at …` before what it caused) as its message: the failure it interrupted (its diagnostics
// right before it, `No tests run for subtest "x"`), else an error named by the file.
// Its coverage check (100 % unless told otherwise) prints no message of its own: a run whose tests all passed
// and that exited non-zero under an `All files` row below 100 failed on it (an error of tool `coverage`).
import { Char, isAlpha, isDigit } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts, TestFailure, Frame, Diagnostic, Tests, MAX_FAILURES } from "../../model";
import { Parser } from "../../parser";
import { normPath, setLocation } from "../../frames";
import { failureNamed, frameOfText, joinLines, isScriptPath, isErrorLine, frameNamedIn, hasFailure, fileFailureOf, batsLocation, batsFrame } from "./common";
import { join } from "../../util/join";
import { withName } from "../../util/name-hash";

/** Subtests' failures held for their top-level parent (hold): no more. */
const MAX_HELD = 512;

const enum Yaml { NONE, BLOCK, ERROR, STACK, EXPECTED, ACTUAL, ERRMAP, QUOTED, DIFF }

export class TapParser extends Parser {
  seen: bool = false;
  kids: i32[] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
  /** `# Subtest: name` per depth (4 spaces a level): a nested failure is named `parent > child`. */
  subtests: string[] = ["", "", "", "", "", "", "", "", "", ""];
  raw: i64[] = [0, 0, 0];   // leaf passed, failed, skipped
  node: i64[] = [-1, -1, -1];
  prove: bool = false;
  proveTests: i64 = -1; proveFailed: i64 = 0; proveSkipped: i64 = 0;
  /** Sum of the Test Summary Report's per-file `Failed: N`, or -1 when it has none. */
  reportFailed: i64 = -1;
  /** The test file prove is running (its `t/x.t .. ` header), or null. */
  proveFile: string | null = null;
  /** The failure the next `#   diagnostic` comments describe. */
  diag: TestFailure | null = null;
  /** The failure bats has placed (`in test file x.bats, line N)`): every comment under it is its message. */
  batsFor: TestFailure | null = null;
  /** The earlier failure of the name of the one being read (pf), when that one is another (topFailure). */
  pfDup: TestFailure | null = null;
  /** The tests pfDup's twin was added to. */
  pfTests: Tests | null = null;
  yaml: Yaml = Yaml.NONE;
  yamlIndent: i32 = 0;
  /** The indent of the key whose block scalar (`expected: |-`, tape's) is being read, and its lines. */
  valIndent: i32 = 0;
  val: string[] = [];
  cur: TestFailure | null = null;
  msg: string[] = [];
  /** A quoted message's code frame began: its lines are no longer the message. */
  framed: bool = false;
  /** The `name:` of vitest's `error:` map (`TypeError`): the message's first line opens with it. */
  errName: string = "";
  /**
   * The line of the last `not ok`, and whether the lines indented under it are mocha's TAP diagnostics (no
   * YAML: its message, then its stack, two spaces in); -1 when none.
   */
  notOkLine: i32 = -1;
  loose: bool = false;
  pf: TestFailure | null = null;
  /** Every `ok` leaf's full name hashed (Tests.passedSet); null past MAX_PASSED_SET. */
  passHashes: Array<u32> | null = [];
  /** tape's test: the last `# name` comment at the line's start, outside a failure's diagnostics; "" else. */
  title: string = "";
  /** A `# Subtest:` line was read: node's stream, whose comments are not test names. */
  subtestSeen: bool = false;
  /**
   * Criterion's stream (`# Criterion v2.4.1`): a test is the first word after the dash, what follows its time or
   * the reason it failed (`ok - ring::push  (0.00s)`, `not ok - names::null_ring unexpected signal after t.c:31`),
   * its YAML's `failures:` a list of `- t.c:16: |+` items, each with its message under it.
   */
  criterion: bool = false;
  /**
   * The top-level `# ` comments since the last result: node --test prints there what a test file wrote to
   * stderr (a SyntaxError that kept it from loading, with `path:line` above it) and the error thrown after a
   * test ended (`# Error: Test "t" at x.test.js:2:1 generated asynchronous activity after the test ended…`),
   * then fails the file by its path with the bare `error: 'test failed'`.
   */
  pre: string[] = [];
  /** The file's failure those comments describe, and the message they give it (its YAML's is replaced). */
  preFor: TestFailure | null = null;
  preMsg: string | null = null;
  /** node-tap's reporter: the file of the last ` FAIL  path N failed of M` line, "" before one. */
  tapFile: string = "";
  /** The `✖ name` failure whose indented lines are being read (node-tap's reporter), or null. */
  tapCur: TestFailure | null = null;
  /** In tapCur's diff (`@@ -1,1 +1,1 @@` read): `-`/`+` lines are expected/actual. */
  tapDiff: bool = false;
  /** The diff being read is the failure's first (an assertion of the same name failing again keeps the first's values). */
  diffOwn: bool = false;
  /** A TAP result line (`ok`, `not ok`) was read. */
  results: bool = false;
  /** node-tap's `# { total: … }` was read. */
  tapTotals: bool = false;
  /** The `All files` row of istanbul's text table, when a column is below 100 (node-tap's coverage); "" else. */
  tapCoverage: string = "";
  /** Test::More's failures inside subtests, innermost first, with their depth: held until the top-level parent's. */
  pend: TestFailure[] = [];
  pendDepth: i32[] = [];
  /** The held failure is a parent (a failure below it was its): not listed. */
  pendKids: bool[] = [];
  /** The `#` column of pf's block, its last line's number, its place read, its message its own, a quote open. */
  pfCol: i32 = 0;
  pfLast: i32 = -2;
  pfPlaced: bool = false;
  pfOwn: bool = false;
  pfQuote: bool = false;
  /** The lines under the failure are Test2's table (a `+---` border came). */
  pfTable: bool = false;
  /** The failure being read is Test2's (one space after its `#`). */
  pfTest2: bool = false;
  /** Perl's error (`msg at FILE line N.`) since the last test file ended, for a file that died; "" when none. */
  dieMsg: string = "";
  dieFile: string = "";
  dieLine: i32 = 0;
  dieSyntax: bool = false;
  /** Test::More's `Looks like your test exited with N` after it. */
  exited: bool = false;
  /** The status of the `Dubious, test returned N` line just read, -1 else. */
  dubious: i32 = -1;
  /** Test files that died with no failing test their error was given to. */
  fileErrors: i64 = 0;

  /** Inside a YAML block, or under a Test2 failure's `at` line (its table is read before any other reader's lines). */
  busy(): bool { return this.yaml != Yaml.NONE || this.pf !== null && this.pfPlaced && this.pfTest2; }

  claim(l: Line, f: Facts): bool {
    if (this.pfTest2 && l.no != this.pfLast + 1) { this.pf = null; this.pfTest2 = false; }
    let p = l.skipSpaces(0);
    let c = l.at(p);
    if (this.yaml != Yaml.NONE) { if (this.yamlLine(l, p)) return true; }
    if (this.tapCur !== null) { if (p >= 2 && this.tapLine(l, p)) return true; this.tapCur = null; }
    if (p <= 1 && (c == Char.F || c == Char.P || c == Char.R || c == 0xE2)) { if (this.tapReporter(l, f, p)) return true; }
    // The row is read, not claimed: it stays in the tail, as the table around it.
    if (p == 0 && c == Char.A && l.startsWith("All files ") && l.indexOfByte(Char.PIPE) > 0) { this.coverageRow(l); return false; }
    if (c == Char.o && l.matchAt("ok", p) && (l.at(p + 2) == Char.SPACE || p + 2 == l.len)) return this.result(l, f, p, p + 2, false);
    if (c == Char.n && l.matchAt("not ok", p) && (l.at(p + 6) == Char.SPACE || p + 6 == l.len)) return this.result(l, f, p, p + 6, true);
    if (c == Char.HASH) return this.comment(l, f, p);
    // TAP 14's buffered subtest closes with `}` at its parent's indent.
    if (c == Char.RBRACE && this.seen && p + 1 == l.len) {
      let depth = min(p >> 2, 8);
      for (let i = depth; i < this.subtests.length; i++) this.subtests[i] = "";
      this.kids[depth + 1] = 0;
      return true;
    }
    if (this.cur !== null && p >= 2 && (this.loose || (p == 2 && l.no == this.notOkLine + 1 && !l.matchAt("---", p)))) return this.looseLine(l, p);
    if (this.loose && l.isBlank()) return true;
    if (c == Char.MINUS && this.seen && l.matchAt("---", p) && l.len == p + 3) { this.yaml = Yaml.BLOCK; this.yamlIndent = p; this.msg = []; return true; }
    if (c == Char.T && l.matchAt("TAP version ", p)) { this.seen = true; f.testsFor("tap"); return true; }
    if (isDigit(c) && l.matchAt("1..", p)) { if (!this.seen && p > 0) return false; this.seen = true; f.testsFor("tap"); return true; }
    if (c == Char.B && this.seen && l.matchAt("Bail out!", p)) return true;
    return this.proveLine(l, f, p);
  }

  private result(l: Line, f: Facts, p: i32, q: i32, notOk: bool): bool {
    // Outside a TAP stream (no `TAP version`, no plan yet) a numbered point starts one when it is point 1 or has a
    // description or directive (`ok 4 - name`, `ok 4 # skip`: a log whose head was cut); a bare "ok" or a
    // program's `ok 1000` is just words.
    if (!this.seen && !opensStream(l, l.skipSpaces(q))) return false;
    this.results = true;
    let depth = p >> 2;
    if (depth > 8) depth = 8;
    this.seen = true;
    let pre = this.pre;
    this.pre = [];
    let t = f.testsFor("tap");
    let parent = this.kids[depth + 1] > 0;
    this.kids[depth + 1] = 0;
    this.kids[depth]++;
    let r = l.skipSpaces(q);
    if (isDigit(l.at(r))) { l.readInt(r); r = l.skipSpaces(l.end); }
    // tape writes `ok 3 message`; node, Test::More and most others `ok 3 - name`: only tape's are named by a title.
    let dashed = l.matchAt("- ", r);
    if (dashed) r += 2;
    let hash = l.indexOf(" # ", r);
    let directive = hash > 0 ? l.trimmed(hash + 3).toUpperCase() : "";
    // TAP 14's buffered subtest: `not ok 1 - text.test.js # time=51.65ms {` opens its children (vitest's `tap`).
    let opens = l.len > r + 1 && l.at(l.len - 1) == Char.LBRACE && l.at(l.len - 2) == Char.SPACE;
    let nameEnd = hash > 0 ? hash : opens ? l.len - 2 : l.len;
    // bats -T: `ok 1 lower-cases in 53ms`, the time not the name.
    if (!dashed) nameEnd = untimedEnd(l, r, nameEnd);
    let reason = "";
    if (this.criterion && dashed) {
      let sp = l.indexOfByte(Char.SPACE, r);
      if (sp > r && sp < nameEnd) { reason = l.trimmed(sp, nameEnd); nameEnd = sp; }
    }
    let name = l.trimmed(r, nameEnd);
    if (hash < 0 && l.matchAt("# ", r)) { directive = l.trimmed(r + 2).toUpperCase(); name = ""; }
    if (opens) {
      this.subtests[depth] = name;
      for (let i = depth + 1; i < this.subtests.length; i++) this.subtests[i] = "";
      this.cur = null; this.diag = null; this.loose = false; this.notOkLine = -1;
      return true;
    }
    let skip = directive.startsWith("SKIP");
    let todo = directive.startsWith("TODO");
    this.cur = null;
    this.diag = null;
    this.loose = false;
    // mocha's are top-level (`not ok 1 title` at column 0, its lines two spaces in).
    this.notOkLine = notOk && p == 0 ? l.no : -1;
    if (parent) return true;
    if (skip) { this.raw[2]++; return true; }
    if (!notOk || todo) { this.raw[0]++; this.passHashes = withName(this.passHashes, this.fullName(name, depth, dashed)); return true; }
    this.raw[1]++;
    let full = this.fullName(name, depth, dashed);
    let tf = failureNamed(t, full);
    // prove -v: another test file's failure of this name, already placed, is not this one (as in topFailure). One
    // placed in a module (`lib/Ratio.pm`, where a test file died) says nothing of which test file it was.
    if (this.prove && depth == 0 && this.proveFile !== null && inTestFile(tf) && tf.file! != this.proveFile!) {
      // This test file's own failure of the name, read before (the file run again, a log read twice): that one.
      let same = failureIn(t, full, this.proveFile!);
      if (same !== null) tf = same;
      else {
        if (tf.pkg === null) tf.pkg = tf.file;
        tf = addFailure(t, full);
        tf.pkg = this.proveFile;
      }
    }
    if (tf.file === null && this.proveFile !== null) tf.file = this.proveFile;
    // Criterion's reason, not its time: `unexpected signal after t.c:31`, `timed out (1.00s)`.
    if (reason.length > 0 && reason.charCodeAt(0) != Char.LPAREN && tf.message.length == 0) tf.message = reason;
    this.cur = tf;
    this.diag = tf;
    this.msg = [];
    if (depth == 0 && this.subtestSeen && isScriptPath(name)) this.fileError(tf, pre);
    return true;
  }

  /**
   * mocha's TAP reporter: under `not ok 1 title`, the error's message then its stack, each line two spaces in (no
   * YAML block). The message is the error's own line (`TypeError: msg`, from the stack), else the first line; the
   * place the stack's first user frame.
   */
  private looseLine(l: Line, p: i32): bool {
    let t = this.cur!;
    if (!this.loose) { this.loose = true; this.msg = []; t.message = ""; }
    if (l.isBlank()) return true;
    let s = l.trimmed(p);
    if (s.startsWith("at ")) {
      if (t.file === null) {
        let fr = frameOfText(s);
        if (fr !== null && fr.user) { t.file = fr.file; t.line = fr.line; }
      }
      return true;
    }
    // The error's own line opens with its class (a quoted `'TypeError: …'` is a value the message shows).
    if (isErrorLine(s) && isAlpha(s.charCodeAt(0)) && !(isErrorLine(t.message) && isAlpha(t.message.charCodeAt(0)))) t.message = s;
    else if (t.message.length == 0) t.message = s;
    return true;
  }

  /** A test file node failed as a whole: the error in the comments before it is its message and place. */
  private fileError(tf: TestFailure, pre: string[]): void {
    let err: string | null = null;
    for (let i = 0; i < pre.length && err === null; i++) if (isErrorLine(pre[i])) err = pre[i];
    if (err === null) return;
    this.preFor = tf;
    this.preMsg = err;
    // A SyntaxError's `path:line` above its source line; else the test named in the message (`at x.test.js:2:1`).
    let fr = new Frame();
    if (pre.length > 0 && !pre[0].includes(" ") && setLocation(fr, pre[0]) && fr.file !== null && fr.line > 0) {
      tf.file = normPath(fr.file!); tf.line = fr.line;
      return;
    }
    let fr2 = frameNamedIn(err!);
    if (fr2 !== null) { tf.file = fr2.file; tf.line = fr2.line; }
  }

  /** name under its parent subtests (node's `describe` blocks): `slug > whitespace > collapses runs`. */
  private fullName(name: string, depth: i32, dashed: bool): string {
    if (depth == 0) return this.title.length > 0 && !dashed ? this.title + " > " + name : name;
    let parts = new Array<string>(0);
    for (let i = 0; i < depth; i++) if (this.subtests[i].length > 0) parts.push(this.subtests[i]);
    parts.push(name);
    return join(parts, " > ");
  }

  /** The YAML diagnostics block of a failure. */
  private yamlLine(l: Line, p: i32): bool {
    if (l.matchAt("...", p) && p <= this.yamlIndent) { this.endYaml(); return true; }
    let t = this.cur;
    let s = l.trimmed(p);
    if (this.yaml == Yaml.EXPECTED || this.yaml == Yaml.ACTUAL) {
      if (p > this.valIndent && s.length > 0) { if (this.val.length < 4) this.val.push(s); return true; }
      this.endValue();
    }
    if (this.yaml == Yaml.QUOTED) {
      // A double-quoted scalar runs over lines, at any indent, to the line that ends in its closing quote.
      let e = l.len - 1;
      let closes = e >= 0 && l.at(e) == Char.QUOTE && l.at(e - 1) != Char.BACKSLASH;
      let v = l.trimmed(p, closes ? e : l.len);
      if (t !== null) this.quotedLine(t, v);
      if (closes) this.yaml = Yaml.ERRMAP;
      return true;
    }
    if (this.yaml == Yaml.ERRMAP) {
      // vitest's `error:` map: `name: "TypeError"`, `message: "…"` below it.
      if (p > this.yamlIndent) {
        if (s.startsWith("name: ")) this.errName = unquote(s.substring(6));
        else if (t !== null && s.startsWith("message: ")) {
          let v = s.substring(9);
          if (v.length > 0 && v.charCodeAt(0) == Char.QUOTE && (v.length == 1 || v.charCodeAt(v.length - 1) != Char.QUOTE || v.charCodeAt(v.length - 2) == Char.BACKSLASH)) {
            this.yaml = Yaml.QUOTED;
            this.quotedLine(t, v.substring(1));
          } else this.msg.push(unquote(v));
        }
        return true;
      }
      this.yaml = Yaml.BLOCK;
    }
    if (this.yaml == Yaml.DIFF) {
      // node-tap's `diff: |` (`--- expected`, `+++ actual`, `@@ -1,1 +1,1 @@`, `-4`, `+3`): expected and actual.
      if (p > this.yamlIndent) {
        let c = l.at(p);
        if (c == Char.AT) this.tapDiff = true;
        else if (t !== null && this.tapDiff && this.diffOwn && (c == Char.MINUS || c == Char.PLUS)) {
          let v = l.str(p + 1, l.len);
          if (c == Char.MINUS) t.expected = upTo4(t.expected, v); else t.actual = upTo4(t.actual, v);
        }
        return true;
      }
      this.yaml = Yaml.BLOCK;
    }
    if (this.yaml == Yaml.ERROR || this.yaml == Yaml.STACK) {
      if (p > this.yamlIndent) {
        if (t !== null) {
          if (this.yaml == Yaml.ERROR) { if (s.length > 0 && this.msg.length < 6) this.msg.push(s); }
          else if (t.file === null) {
            let fr = frameOfText(s);
            if (fr !== null && fr.user) { t.file = fr.file; t.line = fr.line; }
          }
        }
        return true;
      }
      this.yaml = Yaml.BLOCK;
    }
    if (p < this.yamlIndent) { this.endYaml(); return false; }
    if (t !== null) {
      if (s == "error:") this.yaml = Yaml.ERRMAP;
      else if (s.startsWith("error: ")) {
        let v = s.substring(7);
        if (v == "|-" || v == "|" || v == ">-") this.yaml = Yaml.ERROR;
        else this.msg.push(unquote(v));
      } else if (s.startsWith("stack: ")) this.yaml = Yaml.STACK;
      else if (this.criterion && s.startsWith("- ") && s.endsWith(": |+")) {
        // Criterion's failed assertion: `- crit_test.c:16: |+`, its message the lines under it.
        let loc = s.substring(2, s.length - 4);
        let colon = loc.lastIndexOf(":");
        let n = colon > 0 ? I32.parseInt(loc.substring(colon + 1)) : 0;
        if (t.file === null && n > 0) { t.file = normPath(loc.substring(0, colon)); t.line = n; }
        this.yaml = Yaml.ERROR;
      }
      // node-tap's file killed by a signal (`signal: SIGALRM` past `--timeout`): no error of its own.
      else if (s.startsWith("signal: SIG") && this.msg.length == 0 && t.message.length == 0) this.msg.push("killed by " + s.substring(8));
      else if (s == "diff: |" || s == "diff: |-") { this.yaml = Yaml.DIFF; this.tapDiff = false; this.diffOwn = t.expected === null && t.actual === null; }
      else if (s.startsWith("expected: ")) { let v = s.substring(10); if (isBlockScalar(v)) this.startValue(Yaml.EXPECTED, p); else t.expected = unquote(v); }
      else if (s.startsWith("actual: ")) { let v = s.substring(8); if (isBlockScalar(v)) this.startValue(Yaml.ACTUAL, p); else t.actual = unquote(v); }
      else if (s.startsWith("at: ") && t.file === null) {
        // vitest's `at: "/work/text.js:4:22"`: the error's place, when it is the project's (not node_modules');
        // node's `location:` is the test's declaration, a fallback its stack's frame wins over.
        let fr = frameOfText(unquote(s.substring(4)));
        if (fr !== null && fr.user) { t.file = fr.file; t.line = fr.line; }
      }
    }
    return true;
  }

  /**
   * A line of a double-quoted message over several lines (vite's `Transform failed with 1 error:`, a blank line,
   * its `[PARSE_ERROR] …`, the code frame): its non-blank lines up to the frame are the message; the frame's
   * `╭─[ src/slug.ts:2:64 ]` is the failure's place.
   */
  private quotedLine(t: TestFailure, v: string): void {
    if (v.length == 0) return;
    let c = v.charCodeAt(0);
    if (c == 0x256D) {   // ╭─[ path:line:col ]
      let a = v.indexOf("[ "); let b = v.lastIndexOf(" ]");
      if (t.file === null && a > 0 && b > a) {
        let fr = frameOfText(v.substring(a + 2, b));
        if (fr !== null && fr.user) { t.file = fr.file; t.line = fr.line; }
      }
      this.framed = true;
      return;
    }
    if (this.framed || c >= 0x2500 && c <= 0x257F || this.msg.length >= 6) return;
    this.msg.push(v.includes("\\") ? unquote("\"" + v + "\"") : v);
  }

  /** `expected: |-` (tape): the value is the lines below, indented deeper than the key. */
  private startValue(y: Yaml, p: i32): void { this.yaml = y; this.valIndent = p; this.val = []; }

  private endValue(): void {
    let t = this.cur;
    if (t !== null && this.val.length > 0) {
      let v = joinLines(this.val, 4);
      if (this.yaml == Yaml.EXPECTED) t.expected = v; else t.actual = v;
    }
    this.val = [];
    this.yaml = Yaml.BLOCK;
  }

  private endYaml(): void {
    if (this.yaml == Yaml.EXPECTED || this.yaml == Yaml.ACTUAL) this.endValue();
    let t = this.cur;
    if (this.errName.length > 0 && this.msg.length > 0) this.msg[0] = this.errName + ": " + this.msg[0];
    this.errName = "";
    if (t !== null && this.msg.length > 0) t.message = joinLines(this.msg, 6);
    // node's bare `error: 'test failed'` for a file: the error its comments gave wins.
    if (t !== null && t === this.preFor && this.preMsg !== null) t.message = this.preMsg!;
    if (t === this.preFor) { this.preFor = null; this.preMsg = null; }
    // The block is the failure's diagnostics (tape's, node's): a comment after it is not one.
    if (this.yaml != Yaml.NONE) this.diag = null;
    this.yaml = Yaml.NONE;
    this.msg = [];
    this.framed = false;
  }

  private comment(l: Line, f: Facts, p: i32): bool {
    if (p == 0 && l.matchAt("# { total: ", 0)) { this.tapTotalsLine(l, f); return true; }
    let s = l.trimmed(p + 1);
    if (s.startsWith("Criterion v")) { this.criterion = true; return this.seen; }
    if (s.startsWith("Subtest: ")) {
      this.seen = true;
      this.subtestSeen = true;
      this.title = "";
      let depth = min(p >> 2, 8);
      this.subtests[depth] = s.substring(9).trimStart().trimEnd();
      for (let i = depth + 1; i < this.subtests.length; i++) this.subtests[i] = "";
      return true;
    }
    if (s.startsWith("Failed test") || s.startsWith("Failed (TODO) test ")) {
      this.seen = true;
      this.pf = null;
      if (s.startsWith("Failed (TODO)")) return true;
      let q1 = s.indexOf("'");
      let q2 = s.lastIndexOf("'");
      let unnamed = q1 < 0 && s.startsWith("Failed test at ");
      // `Failed test at t/nested.t line 28.`: an unnamed test, named by its place.
      let name = q1 >= 0 && q2 > q1 ? s.substring(q1 + 1, q2) : unnamed ? trimDot(s.substring(15)) : s.substring(12);
      let depth = min(p >> 2, 8);
      let tf = depth > 0 ? this.hold(name, depth) : this.topFailure(f, name);
      this.pf = tf;
      this.pfCol = p; this.pfLast = l.no; this.pfQuote = false; this.pfTable = false;
      // Test2 writes `# Failed test 'x'` (Test::More `#   Failed test 'x'`), a table under its `at` line.
      this.pfTest2 = l.at(p + 1) == Char.SPACE && l.at(p + 2) == Char.F;
      this.pfOwn = tf.message.length == 0;
      this.pfPlaced = unnamed && perlPlace(tf, s.substring(12));
      if (this.pfPlaced) this.sameNamed(tf);
      return true;
    }
    let pf = this.pf;
    if (pf !== null && p == this.pfCol && l.no == this.pfLast + 1) {
      this.pfLast = l.no;
      if (this.pfQuote) { if (s.endsWith("'")) this.pfQuote = false; return true; }
      // Test2's table under its `at` line (`# +------+-----+----+-------+`, `# | PATH | GOT | OP | CHECK |`, a row
      // per difference, a border after each part): its header and rows are the message.
      let c = s.length > 1 ? s.charCodeAt(0) : 0;
      if (this.pfPlaced && (c == Char.PLUS && s.charCodeAt(1) == Char.MINUS || c == Char.PIPE && this.pfTable)) {
        if (c == Char.PLUS) this.pfTable = true;
        else if (this.pfOwn && pf.message.split("\n").length < 4) pf.message = pf.message.length == 0 ? s : pf.message + "\n" + s;
        return true;
      }
      if (!this.pfPlaced && s.startsWith("at ") && s.includes(" line ")) {
        this.pfPlaced = perlPlace(pf, s);
        if (this.pfPlaced) this.sameNamed(pf);
        return true;
      }
      // Test::More's own lines are two columns in or more (a test's diag() is one: its block ended).
      if (l.at(p + 1) == Char.SPACE && l.at(p + 2) == Char.SPACE && s.length > 0) {
        if (!this.pfOwn) return true;
        if (s.startsWith("got: ")) pf.actual = s.substring(5);
        else if (s.startsWith("expected: ")) pf.expected = s.substring(10);
        // like()'s value over lines: its first line is the message's, the rest (`# ` one in) up to its closing quote not.
        else if (s.charCodeAt(0) == Char.APOS && (s.length == 1 || !s.endsWith("'"))) this.pfQuote = true;
        if (pf.message.split("\n").length < 4) pf.message = pf.message.length == 0 ? s : pf.message + "\n" + s;
        return true;
      }
      this.pf = null;
    }
    if (this.dieMsg.length > 0 && s.startsWith("Looks like your test exited with ")) this.exited = true;
    if (!this.seen) return false;
    if (s.startsWith("Looks like ")) return true;
    let d = this.diag;
    // bats: `# (in test file wc.bats, line 14)` locates the failure; a failure in a helper names the helper calls
    // first (`# (from function `assert_equal' in file test_helper.bash, line 56,`, `#  from function …`) and closes
    // with `#  in test file test/exec.bats, line 20)`. The `#   `[ ... ]' failed` comment under it is the message, and
    // so are the helper's own lines after it (`# expected: …`, `# command failed with exit status 2`).
    if (d !== null) {
      if (batsFrame(s)) return true;
      if (batsLocation(d, s)) { this.batsFor = d; return true; }
    }
    // `#   missing ./config/app.ini` under a failure: an indented diagnostic, its message.
    if (d !== null && (l.matchAt("  ", p + 1) || d === this.batsFor) && s.length > 0) {
      d.message = d.message.length == 0 ? s : d.message.split("\n").length < 4 ? d.message + "\n" + s : d.message;
      return true;
    }
    let sp = s.indexOf(" ");
    if (sp > 0 && this.node[0] > -2) {
      let key = s.substring(0, sp);
      // tape pads its totals: `# pass  146`.
      let rest = s.substring(sp + 1).trimStart();
      if (rest.length > 0 && isDigit(rest.charCodeAt(0)) && !rest.includes(" ")) {
        let v = I64.parseInt(rest);
        if (key == "pass") this.node[0] = v;
        else if (key == "fail") this.node[1] = v;
        else if (key == "skip" || key == "skipped") this.node[2] = v;
        return true;
      }
    }
    if (p == 0 && this.pre.length < 24) this.pre.push(s);
    // tape's `# merge nested objects`: the test whose assertions follow.
    if (p == 0 && d === null && !this.prove && !this.subtestSeen && s.length > 0 && l.at(1) == Char.SPACE && l.at(2) != Char.SPACE) this.title = s;
    return true;
  }

  /**
   * A failure inside a subtest (depth > 0), held: the held ones deeper than it, after the last one not, are below it
   * (named under it, and it a parent).
   */
  private hold(name: string, depth: i32): TestFailure {
    let tf = new TestFailure();
    tf.name = name;
    let n = this.pend.length;
    // No more are held past MAX_HELD, and a parent past them names none: one not held would leave the ones below
    // it open to every parent after it (a mutated log: each name held every one of them, 64 MiB from 133 KB).
    if (n >= MAX_HELD) return tf;
    let k = n;
    while (k > 0 && unchecked(this.pendDepth[k - 1]) > depth) k--;
    for (let i = k; i < n; i++) { let c = unchecked(this.pend[i]); c.name = name + " > " + c.name; }
    this.pend.push(tf); this.pendDepth.push(depth); this.pendKids.push(k < n);
    return tf;
  }

  /** A top-level failure: its held subtests' failures are listed under its name (it is not), else it is. */
  private topFailure(f: Facts, name: string): TestFailure {
    let t = f.testsFor("tap");
    this.pfDup = null;
    if (this.pend.length == 0) {
      let tf = failureNamed(t, name);
      // Placed in a module (where a test file died), it names no test file to tell two apart by.
      if (!inTestFile(tf)) return tf;
      // prove runs one file after another: a failure of a name an earlier one had (`just rows` in three files), after
      // that one's `at FILE line N`, is its own; the two are named with their files (pkg) once this one is placed.
      this.pfDup = tf;
      this.pfTests = t;
      return addFailure(t, name);
    }
    this.flushHeld(t, name + " > ");
    return new TestFailure();
  }

  /**
   * tf, a failure of the name of an earlier one (pfDup), placed: both are named with their files when these differ.
   * One of its name at the same place is that one again (a file run twice, a log read twice): one failure, as before,
   * and tf, the last added, goes.
   */
  private sameNamed(tf: TestFailure): void {
    let d = this.pfDup;
    this.pfDup = null;
    if (d === null || tf.file === null || d.file === null) return;
    let t = this.pfTests;
    if (t !== null) {
      let fs = t.failures;
      let n = fs.length;
      if (n > 0 && fs[n - 1] === tf) {
        for (let i = 0; i < n - 1; i++) {
          let o = fs[i];
          if (o.name == tf.name && o.line == tf.line && o.file !== null && o.file! == tf.file!) {
            fs.pop();
            this.pf = o;
            this.pfOwn = o.message.length == 0;
            return;
          }
        }
      }
    }
    if (d.file! == tf.file!) return;
    if (d.pkg === null) d.pkg = d.file;
    tf.pkg = tf.file;
  }

  /** The held failures that are no parent, listed as prefix + their path (their fields to one the TAP named). */
  private flushHeld(t: Tests, prefix: string): void {
    for (let i = 0; i < this.pend.length; i++) {
      if (unchecked(this.pendKids[i])) continue;
      let src = unchecked(this.pend[i]);
      let dst = failureNamed(t, prefix + src.name);
      if (src.line > 0) { dst.file = src.file; dst.line = src.line; }
      if (dst.message.length == 0) dst.message = src.message;
      if (dst.expected === null) dst.expected = src.expected;
      if (dst.actual === null) dst.actual = src.actual;
    }
    this.pend = []; this.pendDepth = []; this.pendKids = [];
  }

  /**
   * Perl's error at column 0: `msg at FILE line N.` (die, Can't locate…; `, <DATA> line 3.` after it) or
   * `syntax error at FILE line N, near "…"`. The first since the last file ended is kept (a syntax error over the
   * `BEGIN failed--compilation aborted` lines it causes); right after a failure's diagnostics it is that failure's.
   */
  private perlError(l: Line): bool {
    let n = l.len;
    let syntax = l.at(0) == Char.s && l.startsWith("syntax error at ");
    if (!syntax && !(n > 12 && l.at(n - 1) == Char.DOT && isDigit(l.at(n - 2)))) return false;
    let a = syntax ? 12 : l.lastIndexOf(" at ");
    if (a < 0) return false;
    let li = l.indexOf(" line ", a + 4);
    if (li < 0 || l.indexOfByte(Char.SPACE, a + 4) < li || !isDigit(l.at(li + 6))) return false;
    let num = <i32>l.readInt(li + 6);
    let e = l.end;
    if (!syntax && e != n - 1 && !l.matchAt(", <", e)) return false;
    let pf = this.pf;
    if (pf !== null && l.no == this.pfLast + 1 && pf.message.length == 0) {
      // The die that ended the subtest just reported (`No tests run for subtest "x"`).
      pf.message = syntax ? l.toString() : l.str(0, a);
      pf.file = normPath(l.str(a + 4, li)); pf.line = num;
      this.pf = null;
      return true;
    }
    if (this.dieMsg.length > 0 && (this.dieSyntax || !syntax)) return true;
    this.dieMsg = syntax ? l.toString() : l.str(0, a);
    this.dieFile = normPath(l.str(a + 4, li));
    this.dieLine = num;
    this.dieSyntax = syntax;
    return true;
  }

  /** After `Dubious, test returned N`: a file that died (255, no test run, or Test::More said so) gets its error. */
  private afterDubious(l: Line, f: Facts): void {
    let died = this.dubious == 255 || this.exited || l.startsWith("No subtests run");
    this.dubious = -1;
    let file = this.proveFile;
    if (died && this.dieMsg.length > 0 && file !== null) {
      let t = f.testsFor("tap");
      let tf = hasFailure(t, file!) ? failureNamed(t, file!) : fileFailureOf(t, file!);
      if (tf.message.length == 0) { tf.message = this.dieMsg; tf.file = this.dieFile; tf.line = this.dieLine; }
      this.fileErrors++;
    }
    this.dropDie();
  }

  private dropDie(): void { this.dieMsg = ""; this.dieSyntax = false; this.exited = false; }

  /** `# { total: 126, pass: 124, fail: 2, skip: 1, todo: 1 }`: node-tap's totals (a todo is neither). */
  private tapTotalsLine(l: Line, f: Facts): void {
    this.seen = true;
    this.tapTotals = true;
    f.testsFor("tap");
    let s = l.str(4, l.len);
    this.node[0] = tapCount(s, "pass: ");
    this.node[1] = tapCount(s, "fail: ");
    this.node[2] = tapCount(s, "skip: ");
  }

  /**
   * node-tap's own reporters: ` FAIL  path 1 failed of 23 113ms` (its ` PASS  ` and ` RUNS  ` lines too, claimed)
   * and the `✖ name` of a failure under it.
   */
  private tapReporter(l: Line, f: Facts, p: i32): bool {
    if (p == 1 && (l.matchAt("FAIL  ", 1) || l.matchAt("PASS  ", 1) || l.matchAt("RUNS  ", 1))) {
      let sp = l.indexOfByte(Char.SPACE, 7);
      if (sp < 0) return false;
      let fail = l.matchAt("FAIL", 1);
      if (!isDigit(l.at(sp + 1)) || (fail ? l.indexOf(" failed of ", sp) < 0 : l.indexOf(" OK", sp) < 0)) return false;
      this.seen = true;
      f.testsFor("tap");
      if (fail) this.tapFile = normPath(l.str(7, sp));
      return true;
    }
    // `✖ ` (U+2716: E2 9C 96) at column 0, under a FAIL line.
    if (p == 0 && this.tapFile.length > 0 && l.at(1) == 0x9C && l.at(2) == 0x96 && l.at(3) == Char.SPACE) {
      let t = f.testsFor("tap");
      let n = t.failures.length;
      // base's live view puts the place on the line: `✖ clamp > should be equal test/clamp.ts:6:5`.
      let name = l.trimmed(4);
      let at: Frame | null = null;
      let sp = name.lastIndexOf(" ");
      if (sp > 0 && isDigit(name.charCodeAt(name.length - 1))) {
        at = frameOfText(name.substring(sp + 1));
        if (at !== null && at.user && at.line > 0 && at.file !== null && normPath(at.file!) == this.tapFile) name = name.substring(0, sp);
        else at = null;
      }
      let tf = failureNamed(t, this.tapFile + " > " + name);
      if (at !== null && tf.file === null) { tf.file = at.file; tf.line = at.line; }
      if (t.failures.length > n) this.raw[1]++;
      this.tapCur = tf;
      this.tapDiff = false;
      this.diffOwn = tf.expected === null && tf.actual === null;
      return true;
    }
    return false;
  }

  /** A line two spaces in under `✖ name`: its place, diff or error line; false when the block is over. */
  private tapLine(l: Line, p: i32): bool {
    let t = this.tapCur!;
    if (p != 2) return l.at(p) != Char.HASH; // the code frame's `━━┛`, the frame's own indent
    let c = l.at(p);
    if (c == Char.AT && l.matchAt("@@ ", p)) { this.tapDiff = true; return true; }
    if (this.tapDiff && (c == Char.MINUS || c == Char.PLUS)) {
      if (!this.diffOwn) return true;
      let v = l.str(p + 1, l.len);
      if (c == Char.MINUS) t.expected = upTo4(t.expected, v);
      else t.actual = upTo4(t.actual, v);
      return true;
    }
    if (isDigit(c) || c == Char.MINUS || c == Char.PLUS) return true;  // the code frame's `75   t.equal(…)`; `--- expected`
    let s = l.trimmed(p);
    let fr = frameOfText(s);
    if (fr !== null && fr.user && fr.line > 0) {
      if (t.file === null || t.line <= 0) { t.file = fr.file; t.line = fr.line; }
      return true;
    }
    if (t.message.length == 0 && isErrorLine(s) && isAlpha(c)) t.message = s;
    return true;
  }

  /**
   * `All files   |   85.06 |   76.64 |   58.25 |   85.06 |`: kept when a column is below 100. The cells are read off
   * the line's bytes (AssemblyScript's String#trim left a blank of `"     70"`).
   */
  private coverageRow(l: Line): void {
    let names = ["statements", "branches", "functions", "lines"];
    let parts = new Array<string>(0);
    let bar = l.indexOfByte(Char.PIPE);
    for (let i = 0; i < 4 && bar >= 0; i++) {
      let next = l.indexOfByte(Char.PIPE, bar + 1);
      let v = l.trimmed(bar + 1, next < 0 ? l.len : next);
      if (v.length == 0 || !isDigit(v.charCodeAt(0))) return;
      if (v != "100") parts.push(names[i] + " " + v + "%");
      bar = next;
    }
    this.tapCoverage = parts.length > 0 ? "incomplete coverage: " + join(parts, ", ") : "";
  }

  private proveLine(l: Line, f: Facts, p: i32): bool {
    // The line after `Dubious, test returned N`: whether the file died, its error then given to it.
    if (this.dubious >= 0) this.afterDubious(l, f);
    // Perl's error, read and left in the tail (its file's prove lines come after it).
    if (p == 0 && this.perlError(l)) return false;
    // Cheap rejections first: this runs on every line nobody else wanted.
    let dots0 = p == 0 ? l.indexOf(" ..") : -1;
    if (dots0 < 0 && !this.prove && !this.seen) return false;
    if (dots0 < 0 && l.indexOfByte(Char.LPAREN) < 0) {
      // Without " .." or a '(' (`(less ..`, ` (Wstat: `), only the heads below can be prove's: other lines
      // are not made strings.
      let c0 = l.at(0);
      if (c0 != Char.D && c0 != Char.T && c0 != Char.MINUS && c0 != Char.A && c0 != Char.R && c0 != Char.SPACE
        && c0 != Char.B && c0 != Char.F) return false;
    }
    let s = l.toString();
    // `t/convert.t ... `, `t/convert.t ... ok`
    let dots = s.indexOf(" ..");
    if (p == 0 && dots > 0 && (s.endsWith(".. ") || s.endsWith(" ok") || s.endsWith("..") || s.includes(".. skipped"))) {
      let file = s.substring(0, dots);
      if (file.includes(".t") || file.includes("/")) {
        this.prove = true; this.seen = true; f.testsFor("tap");
        this.proveFile = normPath(file);
        this.diag = null;
        // A file that passed: an error before it was a warning.
        if (s.endsWith(" ok")) this.dropDie();
        return true;
      }
    }
    if (!this.prove && !this.seen) return false;
    if (s.startsWith("Dubious, test returned ")) { this.dubious = <i32>l.readInt(23); return true; }
    if (s == "Test Summary Report" || s.startsWith("-------------------")
      || s.startsWith("All tests successful.") || s.startsWith("Result: ") || s.startsWith("  Failed test") || s.startsWith("  Non-zero exit status")
      || s.startsWith("  Parse errors:") || s.startsWith("  TODO passed:") || s.startsWith("Bailout called.")
      || s.startsWith("FAILED--Further testing stopped")) { return true; }
    if (s.startsWith("Failed ") && s.includes(" subtests")) {
      let sl = s.indexOf("/");
      if (sl > 7) this.proveFailed += I64.parseInt(s.substring(7, sl));
      this.prove = true;
      return true;
    }
    if (s.trimStart().startsWith("(less ") && s.includes(" skipped subtest")) {
      let a = s.indexOf("(less ") + 6;
      let e = s.indexOf(" ", a);
      this.proveSkipped += I64.parseInt(s.substring(a, e));
      return true;
    }
    if (s.startsWith("Files=") && s.includes(", Tests=")) {
      let a = s.indexOf(", Tests=") + 8;
      let e = a;
      while (e < s.length && isDigit(s.charCodeAt(e))) e++;
      this.proveTests = I64.parseInt(s.substring(a, e));
      this.prove = true;
      return true;
    }
    if (this.prove && s.includes(" (Wstat: ")) {
      // `t/slices.t (Wstat: 0 Tests: 4 Failed: 1)`
      let a = s.lastIndexOf(" Failed: ");
      if (a > 0) {
        let e = a + 9;
        while (e < s.length && isDigit(s.charCodeAt(e))) e++;
        if (e > a + 9) this.reportFailed = max<i64>(this.reportFailed, 0) + I64.parseInt(s.substring(a + 9, e));
      }
      return true;
    }
    return false;
  }

  finish(f: Facts): void {
    this.endYaml();
    if (!this.seen) return;
    let t = f.testsFor("tap");
    if (t.runner != "tap") return;
    // Subtests' failures whose parent never reported (the file died in them): by the path known.
    if (this.pend.length > 0) this.flushHeld(t, "");
    if (this.proveTests >= 0) {
      if (this.reportFailed >= 0) this.proveFailed = this.reportFailed;
      dropNameless(t);
      t.failed = this.proveFailed;
      t.errors = this.fileErrors;
      t.skipped = this.proveSkipped;
      t.passed = max<i64>(this.proveTests - this.proveFailed - this.proveSkipped, 0);
      t.totals = true;
    } else if (this.node[0] >= 0) {
      // mocha's TAP totals are `# tests`, `# pass`, `# fail`: its skipped are the `# SKIP` results.
      t.passed = this.node[0]; t.failed = max<i64>(this.node[1], 0); t.skipped = this.node[2] >= 0 ? this.node[2] : this.raw[2];
      t.totals = true;
      let hs = this.passHashes;
      if (hs !== null && <i64>hs.length == t.passed) t.passedSet = hs;
      // node-tap's coverage check failed the run: every test passed, it exited non-zero (no signal), a total below 100.
      if (this.tapTotals && t.failed == 0 && this.tapCoverage.length > 0 && f.exit.fatal() && f.exit.signalOrShellExit() === null) {
        let d = new Diagnostic();
        d.tool = "coverage";
        d.severity = "error";
        d.message = this.tapCoverage;
        f.addDiagnostic(d);
      }
    } else {
      t.passed = this.raw[0]; t.failed = this.raw[1]; t.skipped = this.raw[2];
      // node-tap's dot reporter names its failures and counts nothing: how many passed is not known.
      if (this.tapFile.length > 0 && !this.results) t.passed = -1;
      // tape cut short (a test threw: the process died before its totals): what it ran is every `ok` it printed.
      let hs = this.passHashes;
      if (this.title.length > 0 && !this.prove && !this.subtestSeen && hs !== null && <i64>hs.length == t.passed) t.passedSet = hs;
    }
  }
}

/** `t/x.t line 28.` less its dot. */
function trimDot(s: string): string { return s.endsWith(".") ? s.substring(0, s.length - 1) : s; }

/** `at t/x.t line 9.`: t's place; false when s is not one. */
function perlPlace(t: TestFailure, s: string): bool {
  if (!s.startsWith("at ")) return false;
  let li = s.lastIndexOf(" line ");
  if (li < 3) return false;
  let e = li + 6;
  let k = e;
  while (k < s.length && isDigit(s.charCodeAt(k))) k++;
  if (k == e) return false;
  t.file = normPath(s.substring(3, li));
  t.line = I32.parseInt(s.substring(e, k));
  return true;
}

/**
 * prove -v: a nameless `not ok 4` of a file whose unnamed failure Test::More's diagnostics named by its place
 * (`t/x.t line 28`, in no order with the TAP) is that one.
 */
function dropNameless(t: Tests): void {
  let fs = t.failures;
  for (let i = fs.length - 1; i >= 0; i--) {
    let a = unchecked(fs[i]);
    if (a.name.length > 0 || a.file === null) continue;
    let prefix = a.file! + " line ";
    for (let j = 0; j < fs.length; j++) {
      let b = unchecked(fs[j]);
      if (b.name.startsWith(prefix) && b.file !== null && b.file! == a.file! && b.name == prefix + b.line.toString()) { fs.splice(i, 1); break; }
    }
  }
}

/** v added as a line of a value of at most 4 lines. */
function upTo4(cur: string | null, v: string): string {
  if (cur === null) return v;
  return cur.split("\n").length < 4 ? cur + "\n" + v : cur;
}

/** The number after key in node-tap's totals (`pass: 124`), or -1 when it has none (`fail` when nothing failed). */
function tapCount(s: string, key: string): i64 {
  let k = s.indexOf(key);
  if (k < 0) return -1;
  let a = k + key.length;
  let e = a;
  while (e < s.length && isDigit(s.charCodeAt(e))) e++;
  return e > a ? I64.parseInt(s.substring(a, e)) : -1;
}

function isBlockScalar(v: string): bool { return v == "|-" || v == "|" || v == ">-" || v == ">" || v == "|+"; }

/**
 * A YAML scalar's value: `'a'` (a quote doubled inside), or `"'a' == 'b'"` (node's TAP double-quotes a string that
 * holds single quotes; `\"`, `\\` and `\n` escaped inside).
 */
function unquote(v: string): string {
  let n = v.length;
  if (n >= 2 && v.charCodeAt(0) == Char.APOS && v.charCodeAt(n - 1) == Char.APOS) return v.substring(1, n - 1).replaceAll("''", "'");
  if (n >= 2 && v.charCodeAt(0) == Char.QUOTE && v.charCodeAt(n - 1) == Char.QUOTE) {
    let s = v.substring(1, n - 1);
    if (!s.includes("\\")) return s;
    let out = new Array<i32>(0);
    for (let i = 0; i < s.length; i++) {
      let c = s.charCodeAt(i);
      if (c == Char.BACKSLASH && i + 1 < s.length) {
        let d = s.charCodeAt(++i);
        out.push(d == Char.n ? Char.LF : d == Char.t ? Char.TAB : d);
      } else out.push(c);
    }
    return String.fromCharCodes(out);
  }
  return v;
}

/**
 * A failure its diagnostics have placed already in a test file (`at t/01-basic.t line 6.`), not in a module where a
 * test file died (`lib/Ratio.pm`, which says nothing of which test file it was).
 */
function inTestFile(tf: TestFailure): bool { return tf.line > 0 && tf.file !== null && tf.file!.endsWith(".t"); }

/** The failure called name of test file `file` (its package, else its place), or null. */
function failureIn(t: Tests, name: string, file: string): TestFailure | null {
  let fs = t.failures;
  for (let i = 0; i < fs.length; i++) {
    let o = fs[i];
    if (o.name != name) continue;
    let at = o.pkg !== null ? o.pkg : o.file;
    if (at !== null && at! == file) return o;
  }
  return null;
}

/** A new failure called name, beside any of that name (failureNamed would return the latest of them). */
function addFailure(t: Tests, name: string): TestFailure {
  let tf = new TestFailure();
  tf.name = name;
  if (t.failures.length < MAX_FAILURES) t.failures.push(tf);
  return tf;
}

/** The end of a name before bats -T's ` in 53ms` at e (r its start), else e. */
function untimedEnd(l: Line, r: i32, e: i32): i32 {
  if (l.at(e - 1) != Char.s || l.at(e - 2) != Char.m) return e;
  let k = e - 3;
  while (k > r && isDigit(l.at(k))) k--;
  if (k == e - 3 || k - 3 <= r || !l.matchAt(" in ", k - 3)) return e;
  return k - 3;
}

/** True when the test point at i (its number) is point 1, or has more after its number. */
function opensStream(l: Line, i: i32): bool {
  if (!isDigit(l.at(i))) return false;
  let j = i + 1;
  while (isDigit(l.at(j))) j++;
  return j == i + 1 && l.at(i) == Char._1 || l.skipSpaces(j) < l.len;
}
