// Jest and Vitest default reporters. Jest: `FAIL ./x.test.js`, `  ● a › b › c` blocks (message, Expected /
// Received, a code frame, `at fn (file:line:col)` frames), `Tests:       3 failed, 1 skipped, 4 passed, 8 total`.
// Vitest: ` RUN  v3`, the ✓/×/↓ tree, ` FAIL  file > a > b` blocks (message, `❯ file:line:col` frames, code
// frame), `      Tests  3 failed | 3 passed | 1 skipped (7)`. The failure's file:line is the innermost user frame.
// A test with several failed assertions (`expect.soft`) gets one block per assertion, all under its name:
// the first block is the failure's (the first assertion that failed); the others are read and dropped.
import { Char, isDigit } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts, Tests, TestFailure, Frame, Diagnostic, MAX_FAILURES } from "../../model";
import { Parser } from "../../parser";
import { ByteSet } from "../../util/byte-set";
import { TscParser } from "../tsc/tsc";
import { DiagOnce } from "../diag-once";
import { DiagContext } from "../diag-context";
import { withName, MAX_PASSED_SET } from "../../util/name-hash";
import { utf8, matchBytes, failureNamed, frameOfText, countBefore, joinLines, foreignLine, dedent, rightTrimmed } from "./common";

// UTF-8 lead bytes of the reporters' symbols.
const BULLET = utf8("\u25CF ");     // ●
const ARROW = utf8("\u276F ");      // ❯
const CHECK = utf8("\u2713 ");      // ✓
const CROSS = utf8("\u00D7 ");      // ×
const DOWN = utf8("\u2193 ");       // ↓
const RARROW = utf8("\u2192 ");     // →
const RULE = utf8("\u23AF");        // ⎯
const MIETTE = utf8("\u256D\u2500[ "); // ╭─[ : oxc's (vitest 4's) code frame opens with the error's place
const JCROSS = utf8("\u2715 ");     // ✕ jest --verbose's failed test
const CIRCLE = utf8("\u25CB ");     // ○ jest --verbose's skipped test
const PENCIL = utf8("\u270E ");     // ✎ jest --verbose's todo
const CHEVRON = utf8("\u203A ");    // › jest's snapshot summary line
const HOOK = utf8("\u21B3 ");       // ↳ its test file
const DOT = utf8("\u2022 ");        // • its snapshot (or snapshot file)
/** Obsolete snapshots listed under jest's `Snapshot Summary`: none, their keys under `↳ file`, snapshot files. */
const OBSOLETE_NONE = 0, OBSOLETE_KEYS = 1, OBSOLETE_FILES = 2;

/**
 * Before jest showed itself: `FAIL`/`PASS x.test.js` (after blanks), `Tests: .. total` at column 0; its own words
 * before `Tests:` under a reporter that names no test file (`--reporters=summary`): `Jest: "global" coverage
 * threshold …`, `Snapshot Summary`.
 */
const JEST_STARTS = new ByteSet().chars("FPTJS");
/** Before vitest showed itself: `RUN  v..`, `Test Files ..` (after blanks). */
const VITEST_STARTS = new ByteSet().chars("RT");

export class JestParser extends Parser {
  vitest: bool;
  seen: bool = false;
  cur: TestFailure | null = null;
  /** Vitest's earlier ` FAIL  file > a > b` headers with no body of their own: they share the next one's error. */
  shared: TestFailure[] = [];
  msg: string[] = [];
  framed: bool = false;
  located: bool = false;
  /** Where the block's message says the error is (vite's `File: src/x.ts:2:63`, oxc's `╭─[ src/x.ts:3:58 ]`). */
  place: Frame | null = null;
  passed: i64 = 0; failed: i64 = 0; skipped: i64 = 0; totals: bool = false;
  /** The test file of jest's latest `FAIL x.test.js` line, of vitest's latest ` FAIL  x.test.js > a > b`. */
  file: string | null = null;
  /** Test files that failed to load (jest's `● Test suite failed to run`, vitest's `FAIL  x.test.js [ x.test.js ]`). */
  suiteErrors: i64 = 0;
  /** ts-jest's TypeScript errors in a block, indented (`    src/x.test.ts:4:28 - error TS2322: ...`): read by tsc's parser. */
  private tsc: TscParser = new TscParser(new DiagContext());
  /**
   * The facts of the TypeScript errors read in `● Test suite failed to run` blocks: ts-jest compiles a module
   * once per test file that imports it and prints its errors in each file's block; an error is one error.
   */
  private suiteTs: DiagOnce | null = null;
  /** In a `● Test suite failed to run` block. */
  private inSuite: bool = false;
  /** Past its `Details:` line (jest's `Jest encountered an unexpected token` advice above it). */
  private details: bool = false;
  /** jest's failures and the test file (`FAIL x.test.js`) each was read under: a test is its file and its name. */
  private owned: TestFailure[] | null = null;
  private ownedFile: string[] | null = null;
  private view: Line = new Line();
  /**
   * The tests a verbose tree marked passed (jest --verbose's `✓ title` under its describe lines, vitest's verbose
   * ` ✓ file > a > b`), hashed with their test file (Tests.passedSet); null past MAX_PASSED_SET. treeMarks: a
   * test line (✓ ✕ ○ ✎, vitest's ×) was read.
   */
  private passHashes: Array<u32> | null = [];
  private treeMarks: bool = false;
  /** jest's current test file (`PASS x.test.js` too) and the describe lines above the tree line read: indent, title. */
  private treeFile: string | null = null;
  private suiteAt: i32[] = [];
  private suiteTitle: string[] = [];
  /**
   * A test's title that spans lines (`✓ should cast {` then `  "toString": "[Function toString]"` and `} to hey
   * (15 ms)`: a title built with JSON.stringify(v, null, 2)): the brackets it left open, and its lines read.
   */
  private titleOpen: i32 = 0;
  private titleLines: i32 = 0;
  /** The test files jest named (`PASS`/`FAIL file`), vitest's verbose lines named: listed as their own failure is named. */
  private files: string[] = [];

  /**
   * vitest --typecheck's `⎯⎯⎯ Unhandled Source Error ⎯⎯⎯`: tsc's error in a source file (no test's), `TypeCheckError:
   * <message>` then ` ❯ src/x.ts:5:40` and a code frame. The error being read, and whether it was added.
   */
  private srcErr: Diagnostic | null = null;
  private srcAdded: bool = false;
  /** In vitest's block of an error no test caught: its title (`Uncaught Exception`). */
  private unhandled: string | null = null;
  /** In the `Snapshot Summary`'s list of obsolete snapshots (OBSOLETE_*), and the test file of its `↳` line. */
  private obsolete: i32 = OBSOLETE_NONE;
  private obsoleteFile: string | null = null;

  constructor(vitest: bool) { super(); this.vitest = vitest; }

  private get runner(): string { return this.vitest ? "vitest" : "jest"; }

  busy(): bool { return this.cur !== null; }
  atRest(): bool { return !this.seen && this.cur === null; }
  starts(): ByteSet | null { return this.vitest ? VITEST_STARTS : JEST_STARTS; }

  claim(l: Line, f: Facts): bool {
    return this.vitest ? this.vitestLine(l, f) : this.jestLine(l, f);
  }

  private jestLine(l: Line, f: Facts): bool {
    let p0 = l.skipSpaces(0);
    let c = l.at(p0);
    if ((c == Char.F || c == Char.P) && (l.matchAt("FAIL ", p0) || l.matchAt("PASS ", p0))) {
      // `FAIL ./cart.test.js`, `PASS src/a.test.ts (5.2 s)`: the first word is a script.
      let a = l.skipSpaces(p0 + 5);
      let sp = l.indexOfByte(Char.SPACE, a);
      let file = l.str(a, sp > 0 ? sp : l.len);
      if (!isScript(file)) return false;
      if (sp > 0 && l.at(l.skipSpaces(sp)) != Char.LPAREN) return false;
      this.end(); this.seen = true; f.testsFor("jest");
      this.file = l.matchAt("FAIL ", p0) ? file : null;
      this.treeFile = file; this.suiteAt.length = 0; this.suiteTitle.length = 0; this.titleOpen = 0;
      if (this.files.length < MAX_PASSED_SET) this.files.push(file);
      return true;
    }
    if (c == Char.T && l.startsWith("Tests:") && l.contains(" total")) {
      this.end();
      let s = l.toString();
      this.passed = max<i64>(countBefore(s, "passed"), 0);
      this.failed = max<i64>(countBefore(s, "failed"), 0);
      this.skipped = max<i64>(countBefore(s, "skipped"), 0) + max<i64>(countBefore(s, "todo"), 0) * 0;
      this.totals = true; this.seen = true; f.testsFor("jest");
      return true;
    }
    if (!this.seen) {
      // jest's summary reporter alone (style-to-object's `CI=true jest --ci` off GitHub) names no test file: its
      // coverage threshold lines and `Snapshot Summary` come before `Tests:`, and say jest ran.
      if (p0 != 0) return false;
      if (c == Char.S && l.len == 16 && l.startsWith("Snapshot Summary")) { this.seen = true; f.testsFor("jest"); return true; }
      if (c != Char.J || !coverageThreshold(l)) return false;
      this.seen = true; f.testsFor("jest");
    }
    if (c == Char.J && coverageThreshold(l)) {
      // jest 29's `Jest: "global" coverage threshold for lines (80%) not met: 68.75%`, jest 30's `Jest: Coverage
      // for lines (68.75%) does not meet "global" threshold (80%)` (or a path's, a glob's; `Jest: Coverage data
      // for ./src/x.js was not found.`): the run failed on it, every test passing; an error of no file.
      this.end();
      let d = new Diagnostic();
      d.tool = "coverage";
      d.message = l.trimmed(6);
      f.addDiagnostic(d);
      return true;
    }
    if (l.startsWith("Test Suites:") || l.startsWith("Snapshots:") || l.startsWith("Time:") || l.startsWith("Ran all test suites")) { this.end(); return true; }
    let p = l.skipSpaces(0);
    if (p > 0 && this.snapshotSummary(l, p, f)) return true;
    if (matchBytes(l, BULLET, p)) {
      this.end();
      let name = l.trimmed(p + BULLET.byteLength);
      if (name == "Console") return true;
      // A file that failed to load: the failure is the file's, an error, not a test's.
      this.inSuite = name == "Test suite failed to run" && this.file !== null;
      if (this.inSuite) name = this.file!;
      this.cur = this.blockFor(f.testsFor("jest"), name);
      // Past 20 files jest repeats each failure block under `Summary of all failing tests`: a file that did
      // not load is one error (the repeat's block is a throwaway, with no unit).
      if (this.inSuite && this.cur!.pkg !== null) this.suiteErrors++;
      this.msg = []; this.framed = false; this.located = false;
      return true;
    }
    if (this.cur === null) return this.treeLine(l, p);
    if (foreignLine(l)) return false;
    // istanbul's text table (--coverage) at column 0 after the last block: a block with no stack (ts-jest's `Test
    // suite failed to run`, tsc's message and code frame) runs into it otherwise.
    if (p == 0 && l.at(0) == Char.MINUS && l.startsWith("----------|")) { this.end(); return false; }
    if (p > 0 && (l.indexOf(" - error TS", p) > p || l.indexOf(" - warning TS", p) > p)) {
      // A TypeScript error that kept the file from loading: a diagnostic of the run as well as the message.
      let v = this.view;
      v.set(l.ptr + <usize>p, l.len - p);
      v.no = l.no;
      if (this.inSuite && this.suiteTs === null) this.suiteTs = new DiagOnce();
      this.tsc.once = this.inSuite ? this.suiteTs : null;
      this.tsc.claim(v, f);
    }
    this.body(l, p);
    return true;
  }

  /**
   * jest's `Snapshot Summary` lists the obsolete snapshots, which fail the run without -u (--ci or not), every
   * test passing: ` › 1 snapshot obsolete from 1 test suite. To remove it, …` then `↳ test/a.test.js` and a
   * `• the limits 1` line for each; ` › 1 snapshot file obsolete from …` then `↳   • test/__snapshots__/b.test.js.snap`.
   * Each is an error of the run (tool `jest`) at its test file, or the snapshot file.
   */
  private snapshotSummary(l: Line, p: i32, f: Facts): bool {
    if (matchBytes(l, CHEVRON, p)) {
      let q = p + CHEVRON.byteLength;
      this.obsolete = OBSOLETE_NONE;
      if (!isDigit(l.at(q))) return false;
      if (l.indexOf(" snapshot file obsolete from ", q) > 0 || l.indexOf(" snapshot files obsolete from ", q) > 0) this.obsolete = OBSOLETE_FILES;
      else if (l.indexOf(" snapshot obsolete from ", q) > 0 || l.indexOf(" snapshots obsolete from ", q) > 0) this.obsolete = OBSOLETE_KEYS;
      else return false;
      this.end();
      this.obsoleteFile = null;
      return true;
    }
    if (this.obsolete == OBSOLETE_NONE) return false;
    if (matchBytes(l, HOOK, p)) {
      p = l.skipSpaces(p + HOOK.byteLength);
      if (!matchBytes(l, DOT, p)) { this.obsoleteFile = l.trimmed(p); return true; }
    }
    if (!matchBytes(l, DOT, p)) { this.obsolete = OBSOLETE_NONE; return false; }
    let name = l.trimmed(p + DOT.byteLength);
    let d = new Diagnostic();
    d.tool = "jest";
    if (this.obsolete == OBSOLETE_FILES) { d.file = name; d.message = "snapshot file obsolete"; }
    else { d.file = this.obsoleteFile; d.message = "snapshot obsolete: " + name; }
    f.addDiagnostic(d);
    return true;
  }

  private vitestLine(l: Line, f: Facts): bool {
    let p = l.skipSpaces(0);
    if (!this.seen) {
      if (l.matchAt("RUN  v", p)) { this.seen = true; f.testsFor("vitest"); return true; }
      if (!l.matchAt("Test Files ", p)) return false;
      this.seen = true; f.testsFor("vitest");
    }
    if (l.matchAt("Test Files ", p) || l.matchAt("Start at ", p) || l.matchAt("Duration ", p)) { this.end(); return true; }
    if (l.matchAt("Tests ", p) && l.at(l.len - 1) == Char.RPAREN) {
      this.end();
      let s = l.toString();
      this.passed = max<i64>(countBefore(s, "passed"), 0);
      this.failed = max<i64>(countBefore(s, "failed"), 0);
      this.skipped = max<i64>(countBefore(s, "skipped"), 0);
      this.totals = true;
      return true;
    }
    if (this.srcErr !== null && !matchBytes(l, RULE, p) && this.sourceErrorLine(l, f, p)) return true;
    if (matchBytes(l, RULE, p)) {
      if (this.srcErr !== null) { this.endSourceError(f); this.srcErr = null; }
      this.end();
      // `⎯⎯⎯⎯⎯ Uncaught Exception ⎯⎯⎯⎯⎯` (`Unhandled Rejection`, `Unhandled Error`) under `Unhandled Errors`:
      // an error no test caught, an error of the run; its block ends with `This error originated in "x.test.ts"`.
      let title = ruleTitle(l, p);
      if (title == "Unhandled Source Error") {
        let d = new Diagnostic();
        d.tool = "tsc";
        this.srcErr = d; this.srcAdded = false;
        return true;
      }
      if (title == "Uncaught Exception" || title == "Unhandled Rejection" || title == "Unhandled Error") {
        this.file = null;
        this.suiteErrors++;
        this.startBlock(f.testsFor("vitest"), title);
        this.unhandled = title;
      }
      return true;
    }
    if (this.unhandled !== null && this.cur !== null && l.matchAt("This error originated in \"", p)) {
      // The test file it came from: the error is named and kept with it (`Uncaught Exception in x.test.ts`).
      let a = p + 26;
      let q = l.indexOfByte(Char.QUOTE, a);
      if (q > a) { let file = l.str(a, q); this.cur!.name = this.unhandled! + " in " + file; this.cur!.pkg = file; }
      return true;
    }
    if (this.unhandled !== null && this.cur !== null && l.matchAt("The latest test that might've caused the error is ", p)) return true;
    if (l.matchAt("Vitest caught ", p) && l.contains(" unhandled error")) { this.end(); return true; }
    if (l.matchAt("This might cause false positive tests.", p) || (l.matchAt("Errors ", p) && l.contains(" error"))) { this.end(); return true; }
    if (l.matchAt("FAIL ", p) && l.contains(" > ")) {
      let s = l.trimmed(p + 5);
      let gt = s.indexOf(" > ");
      this.file = s.substring(0, gt);
      this.startBlock(f.testsFor("vitest"), s.substring(gt + 3));
      return true;
    }
    // ` FAIL  test/x.test.js [ test/x.test.js ]`: a file that failed to load (its error follows).
    if (l.matchAt("FAIL ", p) && l.at(l.len - 1) == Char.RBRACKET) {
      let s = l.trimmed(p + 5);
      let br = s.indexOf(" [ ");
      if (br > 0) {
        this.suiteErrors++;
        this.file = s.substring(0, br);
        this.startBlock(f.testsFor("vitest"), this.file!);
        return true;
      }
    }
    if (this.cur !== null) {
      if (foreignLine(l)) return false;
      this.body(l, p);
      return true;
    }
    let mark = matchBytes(l, CHECK, p) ? CHECK : matchBytes(l, CROSS, p) ? CROSS : matchBytes(l, DOWN, p) ? DOWN : null;
    if (mark !== null) {
      // The verbose reporter: ` ✓ test/x.test.js > a > b 1ms`, one line a test (the default's ` ✓ x.test.js (3 tests)` is a file's).
      let s = l.trimmed(p + mark.byteLength);
      let gt = s.indexOf(" > ");
      // The default reporter's ` ✓ title` under a failed file has no file: a title holding ` > ` is not one.
      if (gt > 0 && isScript(s.substring(0, gt))) {
        this.treeMarks = true;
        let file = s.substring(0, gt);
        if (this.files.length < MAX_PASSED_SET && (this.files.length == 0 || this.files[this.files.length - 1] != file)) this.files.push(file);
        if (mark == CHECK) this.passHashes = withName(this.passHashes, withoutTime(s.substring(gt + 3)), s.substring(0, gt));
      }
      return true;
    }
    if (matchBytes(l, ARROW, p) || matchBytes(l, RARROW, p)) return true;
    return false;
  }

  /**
   * jest --verbose's tree under its `PASS`/`FAIL file` line: describe titles indented by two a level, tests
   * `✓ title (5 ms)` (✕ failed, ○ skipped, ✎ todo). A passed test is named as its failure would be: the titles
   * above it and its own, joined by ` › `. Only ✓ lines are claimed.
   */
  private treeLine(l: Line, p: i32): bool {
    let file = this.treeFile;
    if (file === null) return false;
    // The further lines of a test's title that left a bracket open: the title's, not describe lines (their
    // indent is the title's own, `} to hey (15 ms)` at column 0).
    if (this.titleOpen > 0) {
      if (l.isBlank() || ++this.titleLines > MAX_TITLE_LINES || !jsonLine(l)) this.titleOpen = 0;
      else { this.titleOpen += bracketBalance(l, 0); return true; }
    }
    if (p < 2 || l.isBlank()) return false;
    let at = this.suiteAt; let titles = this.suiteTitle;
    while (at.length > 0 && at[at.length - 1] >= p) { at.pop(); titles.pop(); }
    if (matchBytes(l, CHECK, p)) {
      this.treeMarks = true;
      let name = "";
      for (let i = 0; i < titles.length; i++) name += titles[i] + " \u203A ";
      // A title that goes on past this line is named by this line, as its failure's `● a › b › title` is.
      this.openTitle(l, p + CHECK.byteLength);
      this.passHashes = withName(this.passHashes, name + withoutTime(l.trimmed(p + CHECK.byteLength)), file!);
      return true;
    }
    let mark = matchBytes(l, JCROSS, p) ? JCROSS : matchBytes(l, CIRCLE, p) ? CIRCLE : matchBytes(l, PENCIL, p) ? PENCIL : null;
    if (mark !== null) { this.treeMarks = true; this.openTitle(l, p + mark.byteLength); return false; }
    if (at.length < MAX_PASSED_SET) { at.push(p); titles.push(l.trimmed(p)); }
    return false;
  }

  /** A test line's title from `from`: whether it leaves a `{` or `[` open (then its next lines are its own). */
  private openTitle(l: Line, from: i32): void {
    let b = bracketBalance(l, from);
    this.titleOpen = b > 0 ? b : 0;
    this.titleLines = 0;
  }

  /**
   * A vitest failure block begins (a test's, or a file's that failed to load). Vitest prints the headers of
   * those that failed with the same error one under the other, then the error once: the block before, if
   * nothing came under its header, shares the error that follows.
   */
  private startBlock(t: Tests, name: string): void {
    let cur = this.cur;
    if (cur !== null && this.msg.length == 0 && !this.framed && cur.file === null) { this.shared.push(cur); this.cur = null; }
    else this.end();
    this.cur = this.blockFor(t, name);
    this.msg = []; this.framed = false; this.located = false;
  }

  /** The failure a block describes; a throwaway one when an earlier block of the same test already did. */
  private blockFor(t: Tests, name: string): TestFailure {
    let tf = this.file === null ? failureNamed(t, name) : this.failureIn(t, this.file!, name);
    if (tf.message.length == 0 && tf.file === null) return tf;
    let spare = new TestFailure();
    spare.name = name;
    return spare;
  }

  /**
   * The failure of the test named name in test file file: two files may hold tests with the same describe
   * path and name, and each is a test of its own.
   */
  private failureIn(t: Tests, file: string, name: string): TestFailure {
    let own = this.owned;
    let files = this.ownedFile;
    if (own === null || files === null) { this.owned = own = new Array<TestFailure>(0); this.ownedFile = files = new Array<string>(0); }
    for (let i = own.length - 1; i >= 0; i--) if (own[i].name == name && files[i] == file) return own[i];
    let tf = new TestFailure();
    tf.name = name;
    // Its unit: the test file, which a failure placed in a module it imports (src/x.ts) does not name.
    tf.pkg = file;
    if (t.failures.length < MAX_FAILURES) { t.failures.push(tf); own.push(tf); files.push(file); }
    return tf;
  }

  /** A line inside a failure block: message, Expected/Received, code frame, stack frames. */
  private body(l: Line, p: i32): void {
    let t = this.cur!;
    if (l.isBlank()) return;
    // Code frame: `    > 18 |   expect(...)`, `      16 |`, `         |    ^`, vitest `      9|   expect(...)`.
    let q = p;
    if (l.at(q) == Char.GT) q = l.skipSpaces(q + 1);
    while (q < l.len && <u32>(l.at(q) - Char._0) < 10) q++;
    q = l.skipSpaces(q);
    if (l.at(q) == Char.PIPE) { this.framed = true; return; }
    // A file that did not compile (vite's transform error): its frames are vite's and esbuild's own, in
    // node_modules; the message names the place.
    if (!this.located && this.place === null) {
      if (matchBytes(l, MIETTE, p) && l.at(l.len - 1) == Char.RBRACKET) {
        this.place = frameOfText(l.str(p + MIETTE.byteLength, l.len - 1));
        this.framed = true;
        return;
      }
      if (l.matchAt("File: ", p)) {
        let fr = frameOfText(l.str(p + 6));
        if (fr !== null && fr.user && fr.line > 0) this.place = fr;
      }
    }
    let frame = l.matchAt("at ", p) || matchBytes(l, ARROW, p);
    if (frame) {
      this.framed = true;
      if (!this.located) {
        let fr = frameOfText(l.str(l.matchAt("at ", p) ? p : p + ARROW.byteLength));
        if (fr !== null && fr.user) { t.file = fr.file; t.line = fr.line; this.located = true; }
      }
      return;
    }
    if (this.framed) return;
    let s = l.trimmed(0);
    // `Jest encountered an unexpected token`: a page of advice, then `Details:` and the transformer's error,
    // Babel's `SyntaxError: /abs/src/x.js: Unexpected token (2:30)`: that is the message, and its place the
    // block's (before the `at Object.require (test/x.test.js:1:18)` that loaded it). A test file of plain
    // JavaScript that does not parse gets Babel's error first, with no advice (jest 29: then @babel/parser's frames).
    if (this.inSuite && !this.details && s == "Details:") { this.details = true; this.msg = []; return; }
    if ((this.details || this.inSuite) && this.msg.length == 0 && s.startsWith("SyntaxError: ")) {
      let fr = babelPlace(s);
      if (fr !== null && fr.user) { t.file = fr.file; t.line = fr.line; t.col = fr.col; this.located = true; }
    }
    if (s.startsWith("Expected: ")) t.expected = s.substring(10);
    else if (s.startsWith("Received: ")) t.actual = s.substring(10);
    // With their indentation (a nested diff's); the block's own margin goes in end().
    if (this.msg.length < MAX_RAW) this.msg.push(rightTrimmed(l));
  }

  /** A line of an `Unhandled Source Error` block: its message, its place, its code frame; false past the block. */
  private sourceErrorLine(l: Line, f: Facts, p: i32): bool {
    let d = this.srcErr!;
    if (l.isBlank()) return true;
    if (d.message.length == 0 && d.file === null && l.matchAt("TypeCheckError: ", p)) { d.message = l.trimmed(p + 16); return true; }
    if (d.file === null && matchBytes(l, ARROW, p)) {
      let fr = frameOfText(l.str(p + ARROW.byteLength));
      if (fr !== null) { d.file = fr.file; d.line = fr.line; d.col = fr.col; }
      this.endSourceError(f);
      return true;
    }
    // The code frame: `      5|   return …`, `       |     ^`.
    let q = p;
    while (q < l.len && isDigit(l.at(q))) q++;
    if (d.message.length > 0 && l.at(l.skipSpaces(q)) == Char.PIPE) return true;
    this.endSourceError(f);
    this.srcErr = null;
    return false;
  }

  private endSourceError(f: Facts): void {
    let d = this.srcErr;
    if (d === null || this.srcAdded || d.message.length == 0) return;
    f.addDiagnostic(d);
    this.srcAdded = true;
  }

  private end(): void {
    let t = this.cur;
    let at = this.place;
    if (t !== null && t.file === null && at !== null) { t.file = at.file; t.line = at.line; t.col = at.col; }
    this.place = null;
    if (t !== null) {
      dedent(this.msg);
      t.message = joinLines(messageLines(this.msg), MESSAGE_LINES);
    }
    let shared = this.shared;
    for (let i = 0; i < shared.length; i++) {
      let s = shared[i];
      if (t === null) continue;
      s.message = t.message; s.expected = t.expected; s.actual = t.actual;
      s.file = t.file; s.line = t.line; s.col = t.col;
    }
    if (shared.length > 0) this.shared = [];
    this.cur = null;
    this.msg = [];
    this.inSuite = false;
    this.details = false;
    this.unhandled = null;
  }

  finish(f: Facts): void {
    this.end();
    if (this.srcErr !== null) { this.endSourceError(f); this.srcErr = null; }
    if (!this.seen) return;
    let t = f.testsFor(this.runner);
    if (t.runner != this.runner) return;
    if (this.totals) { t.passed = this.passed; t.failed = this.failed; t.skipped = this.skipped; t.totals = true; }
    else t.failed = max<i64>(t.failed, <i64>t.failures.length - this.suiteErrors);
    t.errors += this.suiteErrors;
    // A verbose tree that named every test the totals count passed: which tests ran is known.
    let hs = this.passHashes;
    if (this.totals && this.treeMarks && hs !== null && <i64>hs.length == this.passed) {
      // Each test file too, as a file that did not load is named: one that ran is in the run.
      let fs = this.files;
      for (let i = 0; i < fs.length && hs !== null; i++) hs = withName(hs, fs[i], fs[i]);
      if (hs !== null) t.passedSet = hs;
    }
  }
}

/** A test file's name: a script (`x.test.js`, `.ts`, `.jsx`, `.tsx`, `.mjs`, `.cjs`, `.mts`, `.cts`). */
function isScript(file: string): bool {
  return file.endsWith(".js") || file.endsWith(".ts") || file.endsWith(".jsx") || file.endsWith(".tsx") || file.endsWith(".mjs") ||
    file.endsWith(".cjs") || file.endsWith(".mts") || file.endsWith(".cts");
}

/**
 * A test's title without the time its reporter adds: jest's ` (5 ms)`, ` (1.2 s)`; vitest's ` 3ms`, ` 1.20s`.
 */
function withoutTime(s: string): string {
  let n = s.length;
  let paren = n > 0 && s.charCodeAt(n - 1) == Char.RPAREN;
  let e = paren ? n - 1 : n;
  let unit = e >= 2 && s.substring(e - 2, e) == "ms" ? 2 : e >= 1 && s.charCodeAt(e - 1) == Char.s ? 1 : 0;
  if (unit == 0) return s;
  let i = e - unit;
  if (paren && i > 0 && s.charCodeAt(i - 1) == Char.SPACE) i--;
  let d = i;
  while (i > 0 && (isDigit(s.charCodeAt(i - 1)) || s.charCodeAt(i - 1) == Char.DOT)) i--;
  if (i == d || i < 1) return s;
  if (paren) { if (i < 2 || s.charCodeAt(i - 1) != Char.LPAREN) return s; i--; }
  if (s.charCodeAt(i - 1) != Char.SPACE) return s;
  return s.substring(0, i - 1);
}

/** A line of jest's coverage threshold check that failed the run (see jestLine). */
function coverageThreshold(l: Line): bool {
  if (!l.startsWith("Jest: ")) return false;
  if (l.at(6) == Char.QUOTE) return l.contains(" coverage threshold for ") && l.contains(" not met: ");
  if (l.matchAt("Coverage for ", 6)) return l.contains(" does not meet \"") && l.contains("\" threshold (");
  return l.matchAt("Coverage data for ", 6) && l.contains(" was not found");
}

/** Babel's `SyntaxError: /abs/src/x.js: Unexpected token (2:30)`: the file and the `(line:col)` at its end. */
function babelPlace(s: string): Frame | null {
  if (!s.endsWith(")")) return null;
  let a = 13;   // "SyntaxError: "
  let b = s.indexOf(": ", a);
  let o = s.lastIndexOf(" (");
  if (b <= a || o <= b) return null;
  let lc = s.substring(o + 2, s.length - 1);
  let c = lc.indexOf(":");
  if (c <= 0) return null;
  for (let i = 0; i < lc.length; i++) { let ch = lc.charCodeAt(i); if (ch != Char.COLON && !isDigit(ch)) return null; }
  return frameOfText(s.substring(a, b) + ":" + lc);
}

/** The most further lines a test's title is read over (treeLine). */
const MAX_TITLE_LINES = 64;

/**
 * A further line of a title that holds a value's JSON (`  "toString": "[Function toString]"`, `} to hey`): it
 * starts (after its indent) with a quote, a bracket, a digit or minus, or true/false/null. A tree line (a mark,
 * a describe's title) does not: a title with a `{` of its own ends there.
 */
function jsonLine(l: Line): bool {
  let p = l.skipSpaces(0);
  let c = l.at(p);
  if (c == Char.QUOTE || c == Char.LBRACE || c == Char.RBRACE || c == Char.LBRACKET || c == Char.RBRACKET || c == Char.MINUS || isDigit(c)) return true;
  return l.matchAt("true", p) || l.matchAt("false", p) || l.matchAt("null", p);
}

/** `{` and `[` opened less those closed, in the line from `from`. */
function bracketBalance(l: Line, from: i32): i32 {
  let n = 0;
  for (let i = from; i < l.len; i++) {
    let c = l.at(i);
    if (c == Char.LBRACE || c == Char.LBRACKET) n++;
    else if (c == Char.RBRACE || c == Char.RBRACKET) n--;
  }
  return n;
}

/** Lines of a failure block read before its code frame, and how many make its message. */
const MAX_RAW = 60;
const MESSAGE_LINES = 6;

/**
 * A message's lines: the first ones as they come; in a `- Expected` / `+ Received` diff, its changed lines
 * (`-`/`+`), each after the unchanged line above it (when a replaced line's `-` and `+` both fit after it), and
 * not its `@@ -2,10 +2,9 @@` hunk header, so that what differs is within the lines shown.
 */
function messageLines(raw: string[]): string[] {
  let out = new Array<string>(0);
  let i = 0;
  let diff = false;
  for (; i < raw.length; i++) {
    let s = raw[i];
    if (out.length >= MESSAGE_LINES) return out;
    out.push(s);
    if (s.startsWith("+ Received")) { diff = true; i++; break; }
  }
  if (!diff) return out;
  let lastCtx = -1;
  let shown = -1;
  for (; i < raw.length && out.length < MESSAGE_LINES; i++) {
    let s = raw[i];
    if (s.startsWith("@@ ")) continue;
    let c = s.length > 0 ? s.charCodeAt(0) : 0;
    if (c == Char.MINUS || c == Char.PLUS) {
      // A line replaced (`-` then `+`) is shown whole before the unchanged line above it: the context only
      // when both fit after it.
      let need = c == Char.MINUS && i + 1 < raw.length && raw[i + 1].startsWith("+") ? 3 : 2;
      if (lastCtx >= 0 && lastCtx > shown && out.length + need <= MESSAGE_LINES) out.push(raw[lastCtx]);
      out.push(s);
      shown = i;
    } else if (s.trimStart().trimEnd().length > 0) lastCtx = i;
  }
  return out;
}

/** The words between vitest's rules: `⎯⎯⎯⎯ Uncaught Exception ⎯⎯⎯⎯` → `Uncaught Exception`. */
function ruleTitle(l: Line, p: i32): string {
  let s = l.trimmed(p);
  let a = 0;
  while (a < s.length && s.charCodeAt(a) == 0x23AF) a++;
  let b = s.length;
  while (b > a && s.charCodeAt(b - 1) == 0x23AF) b--;
  return s.substring(a, b).trimStart().trimEnd();
}
