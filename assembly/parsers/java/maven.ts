// Maven's console (`mvn test`, `mvn -q`, `mvn -B`), behind its level prefix `[INFO] `, `[WARNING] `, `[ERROR] `:
//
//   [ERROR] COMPILATION ERROR :                                   maven-compiler-plugin: javac's diagnostics as
//   [ERROR] /work/src/main/java/a/Foo.java:[982,17] cannot find symbol     `path.java:[line,col] msg`, the
//     symbol:   method isPreReleas()                              severity the prefix's; detail lines indented
//     location: class a.Foo                                       (unprefixed there, `[ERROR]   symbol:` in the
//   [INFO] 1 error                                                goal's summary, which prints them all again)
//   [WARNING] /work/src/.../Foo.java:[3,8] [serial] serializable class ...    -Xlint's category: the code
//
//   [INFO] Running a.FooTest                                      surefire: each test class's run, its line
//   [ERROR] Tests run: 16, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.07 s <<< FAILURE! - in a.FooTest
//   [ERROR] shouldParse  Time elapsed: 0.07 s  <<< FAILURE!      each failing test (JUnit 5 on surefire 2.x:
//   org.opentest4j.AssertionFailedError: expected: <1> but was: <2>    the method; JUnit 4: `m(a.FooTest)`;
//   	at a.FooTest.shouldParse(FooTest.java:40)                 surefire 3: `a.FooTest.m -- Time elapsed`), its
//                                                                 exception (the message) and trimmed stack (the place)
//   [ERROR] Failures:                                             the summary: each failing test by the name it
//   [ERROR]   FooTest.shouldParse:40 expected: <1> but was: <2>   is known by (`Class.method`, a nested class
//   [ERROR] Errors:                                               `Outer$Inner`): the failures' names
//   [ERROR]   FooTest$Inner.shouldSet:51 » UnsupportedOperation patch 3
//   [ERROR] Tests run: 334, Failures: 1, Errors: 0, Skipped: 0    the module's totals (summed over modules)
//
//   [ERROR] Failed to execute goal ...: There are test failures.   the goal's failure: what the lines above explain;
//   [ERROR] Failed to execute goal ... Could not resolve dependencies ... in offline mode   a dependency or plugin
//                                                                 that could not be resolved: the set-up's failure
//   [ERROR] The forked VM terminated without properly saying goodbye. VM crash or System.exit called?
//   [ERROR] Process Exit Code: 3 / Crashed tests: / a.FooTest     the test JVM died: a crash, those classes unfinished
//
// And JUnit 5's ConsoleLauncher (junit-platform-console), the other way JUnit 5 tests are run by hand, read here as
// a JVM runner of the same shape (runner junit-platform): its `Failures (N):` section (`  JUnit Jupiter:FooTest:
// Inner:m()`, `=> exception`, frames), `--details=flat`'s `Finished: m() ([engine:…]/[class:a.FooTest]/[method:m()])`
// followed by `=> Exception: msg`, and its totals box (`[         3 tests successful      ]`).
import { Char, isDigit, isSpace } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts, Diagnostic, TestFailure, Frame, Tests, Crash } from "../../model";
import { Parser } from "../../parser";
import { ByteSet } from "../../util/byte-set";
import { DiagContext, addNote } from "../diag-context";
import { setLocation } from "../../frames";
import { failureNamed, failureIn, junitValues } from "../runners/common";
import { withName } from "../../util/name-hash";

const RUNNER = "surefire";

const enum State { NONE = 0, DETAIL = 1, BLOCK = 2, SUMMARY = 3, FORK = 4, CONSOLE = 5, FLAT = 6, TREE = 7 }
const enum Level { NONE = 0, INFO = 1, WARNING = 2, ERROR = 3 }

/**
 * At rest, only Maven's prefixed lines start something, and ConsoleLauncher's tree (its `╷`, first byte 0xE2, or
 * its ASCII theme's first engine, `+-- JUnit Jupiter [OK]`: the theme's `.` above it is left to the others, as a
 * line of cargo's terse dots may be one).
 */
const STARTS = new ByteSet().chars("[F+").add(0xE2);
// ConsoleLauncher's tree (--details=tree, its default) in its two themes, chosen by the JVM's charset: UNICODE (in
// UTF-8 bytes, as the line holds them) opens it with `╷`, a level is `│  ` or three spaces, a node `├─ ` or `└─ `,
// its result after the name ` ✔`, ` ✘`, ` ↷ reason` (disabled) or ` ■ Assumption failed: …` (aborted); ASCII opens
// it with `.` (read from its first engine's node, `+-- JUnit …`), a level is `| ` or two spaces, a node `+-- ` or
// `'-- `, the results ` [OK]`, ` [X]`, ` [S]`, ` [A]`.
const TREE_TOP = "\u00E2\u0095\u00B7";
const TREE_BAR = ["\u00E2\u0094\u0082  ", "| "];
const TREE_BLANK = ["   ", "  "];
const TREE_MID = ["\u00E2\u0094\u009C\u00E2\u0094\u0080 ", "+-- "];
const TREE_END = ["\u00E2\u0094\u0094\u00E2\u0094\u0080 ", "'-- "];
const TREE_OK = [" \u00E2\u009C\u0094", " [OK]"];
const TREE_FAIL = [" \u00E2\u009C\u0098", " [X]"];
const TREE_SKIP = [" \u00E2\u0086\u00B7", " [S]"];
const TREE_ABORT = [" \u00E2\u0096\u00A0", " [A]"];
/** JUnit 5's ConsoleLauncher (junit-platform-console): its `Failures (N):` section and its totals box. */
const CONSOLE = "junit-platform";

/** A failing test's block, until the summary names it. */
class Pending {
  name: string = "";
  method: string = "";
  cls: string = "";
  message: string = "";
  expected: string | null = null;
  actual: string | null = null;
  file: string | null = null;
  line: i64 = -1;
  wantMessage: bool = true;
  /**
   * Lines of the message still to read: an exception whose first line ends at its colon (hamcrest's
   * `java.lang.AssertionError: ` then `Expected: …` / `     but: …`, JUnit 5's `MultipleFailuresError: ` then
   * `Multiple Failures (2 failures)` and each failure) carries its message on the lines under it.
   */
  more: i32 = 0;
  /** The name is settled (a nested class's, from its frame). */
  named: bool = false;
  used: bool = false;
}

@final
export class MavenParser extends Parser {
  private ctx: DiagContext;
  private state: i32 = State.NONE;
  private last: Diagnostic | null = null;
  /** The diagnostics read (file, line, column, message): the goal's summary prints them again. */
  private seenDiags: Set<string> = new Set<string>();
  /** The test class surefire runs (`Running a.FooTest`, `- in a.FooTest`). */
  private cls: string = "";
  private pending: Array<Pending> = [];
  /** Under maven-compiler-plugin's goal line (`--- maven-compiler-plugin:…:compile … ---`), up to the next goal's. */
  private compilerGoal: bool = false;
  /** Unprefixed lines still to take as the message of the summary line above (see messageBelow). */
  private summaryMore: i32 = 0;
  /** The forked VM's death, once (surefire prints its report twice). */
  private vmCrash: Crash | null = null;
  /** Under `Crashed tests:`: the classes' lines. */
  private crashed: bool = false;
  /** In maven-compiler-plugin's `COMPILATION ERROR :` section, up to its `[INFO] N errors`. */
  private compiling: bool = false;
  /** Past `Failed to execute goal ...: Compilation failure`: the errors again. */
  private compileGoal: bool = false;
  /**
   * A reactor of several modules (`Reactor Build Order:`): each failure is of the module being built (the artifactId
   * of the `--- plugin @ module ---` line), as a go package's: two modules' `RatioTest.third` are two failures.
   */
  private reactor: bool = false;
  private module: string = "";
  /** In the summary's `Flakes:` section. */
  private flakes: bool = false;
  private cur: Pending | null = null;
  /** The test of the last flat `Finished:` line, and its class. */
  private flatName: string = "";
  private flatCls: string = "";
  /** ConsoleLauncher's failure being read. */
  private curFailure: TestFailure | null = null;
  /**
   * ConsoleLauncher's tree: the names of the nodes above the last one (by depth, the engine's first), the last
   * node's depth and whether it passed (a leaf once the next node is no deeper), and the hashes of the passed
   * leaves, named as its `Failures` section names a test (`ParamTest.test(int).[2] 5`).
   */
  private treePath: Array<string> = [];
  private treeDepth: i32 = -1;
  private treeOk: bool = false;
  private treePassed: Array<u32> | null = [];
  private treeCount: i64 = 0;
  /** The tree's theme: 0 UNICODE, 1 ASCII (TREE_* index). */
  private treeTheme: i32 = 0;
  /** The totals of the modules read so far. */
  private run: i64 = 0;
  private failures: i64 = 0;
  private errors: i64 = 0;
  private skipped: i64 = 0;

  constructor(ctx: DiagContext) { super(); this.ctx = ctx; }

  busy(): bool { return this.state != State.NONE; }
  atRest(): bool { return this.state == State.NONE; }
  starts(): ByteSet | null { return STARTS; }

  claim(l: Line, f: Facts): bool {
    let lv = Level.NONE;
    let p = 0;
    if (l.at(0) == Char.LBRACKET) {
      if (l.matchAt("[INFO]", 0)) { lv = Level.INFO; p = 6; }
      else if (l.matchAt("[ERROR]", 0)) { lv = Level.ERROR; p = 7; }
      else if (l.matchAt("[WARNING]", 0)) { lv = Level.WARNING; p = 9; }
      if (lv != Level.NONE) {
        if (p < l.len && l.at(p) != Char.SPACE) { lv = Level.NONE; p = 0; }
        else if (p < l.len) p++;
      }
      // Checkstyle's plain format: `[WARN] /src/Foo.java:12:5: msg [Check]` (Maven prints no `[WARN]`)
      else if (this.state == State.NONE && l.matchAt("[WARN] ", 0)) return this.checkstyle(l, 7, Level.WARNING, f);
    }
    let st = this.state;
    if (st == State.BLOCK) {
      if (lv == Level.NONE) {
        if (l.isBlank()) {
          // hamcrest's `java.lang.AssertionError: ` has a blank line before its `Expected: …`
          let pd = this.cur;
          if (pd !== null && pd.more > 0 && pd.message.endsWith(":")) return true;
          this.state = State.NONE; this.cur = null; return true;
        }
        this.body(l);
        return true;
      }
      this.state = State.NONE;
      this.cur = null;
    } else if (st == State.DETAIL) {
      // `  symbol:   method x()` (unprefixed in the COMPILATION ERROR section, `[ERROR]   symbol:` in the goal's)
      if (p < l.len && isSpace(l.at(p)) && (lv == Level.NONE || lv == Level.ERROR || lv == Level.WARNING)) {
        let q = l.skipSpaces(p);
        if (q < l.len) {
          let d = this.last;
          if (d !== null && d.label === null && l.matchAt("symbol:", q)) d.label = l.trimmed(q + 7);
          return true;
        }
      }
      this.state = State.NONE;
    } else if (st == State.SUMMARY) {
      if (lv != Level.NONE && l.matchAt("  ", p) && !isSpace(l.at(p + 2))) {
        if (!this.flakes) this.summaryLine(l, p + 2, f);
        this.summaryMore = messageBelow(l.trimmed(p + 2)) ? 8 : 0;
        return true;
      }
      if (lv != Level.NONE && l.matchAt("    ", p)) return true; // `Run 1: ...` of a flaky test's runs, a wrapped message
      // -Dsurefire.rerunFailingTestsCount: a rerun test's head, `ex.RatioTest.quarter(ex.RatioTest)`, its `Run 1:` …
      // lines under it; under `Flakes:` it passed on a rerun: its failing run's block is no failure.
      if ((lv == Level.ERROR || lv == Level.WARNING) && l.at(l.len - 1) == Char.RPAREN && l.indexOfByte(Char.SPACE, p) < 0) {
        if (this.flakes) this.dropFlaky(l.str(p, l.len));
        return true;
      }
      // the message's lines under a summary line that has none or only its head (hamcrest's `Expected: …`,
      // a MultipleFailuresError's `\tjava.lang.AssertionError: `), unprefixed
      if (lv == Level.NONE && this.summaryMore > 0 && !l.isBlank()) { this.summaryMore--; return true; }
      this.state = State.NONE;
    } else if (st == State.FORK) {
      if (lv == Level.ERROR) { this.fork(l, p, f); return true; }
      this.state = State.NONE;
    }
    if (st == State.TREE) {
      if (this.treeLine(l)) return true;
      this.treeLeaf();
      this.state = State.NONE;
    }
    if (st == State.CONSOLE) {
      if (this.consoleLine(l, f)) return true;
      this.state = State.NONE;
      this.cur = null;
    }
    if (st == State.FLAT) {
      if (this.flatLine(l, f)) return true;
      this.state = State.NONE;
    }
    if (lv == Level.NONE) {
      let c0 = l.at(0);
      if (c0 == Char.F && l.startsWith("Finished:") && l.at(l.len - 1) == Char.RPAREN) return this.finished(l, f);
      let ascii = c0 == 0x2B && l.startsWith("+-- JUnit ");
      if ((c0 == 0xE2 && l.len == 3 && l.startsWith(TREE_TOP)) || ascii) {
        this.state = State.TREE;
        this.treeTheme = ascii ? 1 : 0;
        this.treeDepth = -1;
        this.treePath = [];
        return ascii ? this.treeLine(l) : true;
      }
      if (c0 == 0xE2 || c0 == 0x2B) return false;
      if (c0 == Char.F && l.startsWith("Failures (") && isDigit(l.at(10)) && l.endsWith("):")) {
        this.state = State.CONSOLE;
        this.cur = null;
        let t = f.testsFor(CONSOLE);
        if (t.runner == CONSOLE && !t.totals) t.passed = max<i64>(t.passed, 0);
        return true;
      }
      if (c0 == Char.LBRACKET) return this.consoleTotals(l, f);
      return false;
    }
    return this.prefixed(l, p, lv, f);
  }

  private prefixed(l: Line, p: i32, lv: i32, f: Facts): bool {
    let c = l.at(p);
    if (c == Char.T && l.matchAt("Tests run: ", p)) return this.testsRun(l, p, f);
    if (c == Char.R && l.matchAt("Running ", p) && lv == Level.INFO) {
      this.cls = l.trimmed(p + 8);
      return true;
    }
    if (lv == Level.ERROR || lv == Level.WARNING) {
      // the summary's headings, alone on their line (`Results:` before them is an [INFO] line: not under -q)
      if (summaryHead(l, p)) {
        this.state = State.SUMMARY;
        // a flaky test failed, then passed on a rerun (-Dsurefire.rerunFailingTestsCount): no failure
        this.flakes = l.matchAt("Flakes:", p);
        return true;
      }
      if (l.matchAt("COMPILATION ERROR", p) || l.matchAt("COMPILATION WARNING", p)) { this.compiling = true; return true; }
      if (this.diagnostic(l, p, lv, f)) return true;
      if (this.checkstyle(l, p, lv, f)) return true;
      // javac's own -Xlint:options warnings, printed bare in the compiler's goal (no section) when the build passes
      if (lv == Level.WARNING && this.compilerGoal && javacOptionsWarning(l, p)) {
        let m = l.trimmed(p);
        let key = "warning\n\n" + m;
        if (this.seenDiags.has(key)) return true;
        this.seenDiags.add(key);
        let d = new Diagnostic();
        d.tool = "javac";
        d.severity = "warning";
        d.code = "options";
        d.message = m;
        f.addDiagnostic(d);
        return true;
      }
      // javac's own (no file: `exporting a package from system module java.base is not allowed with --release`),
      // in the compiler's section or again under the goal's `Compilation failure`
      if ((this.compiling || this.compileGoal) && this.own(l, p, lv, f)) return true;
      if (this.failureLine(l, p, f)) return true;
      if (l.matchAt("Failed to execute goal ", p)) return this.goal(l, p, f);
      if (l.matchAt("The forked VM terminated", p) || l.matchAt("org.apache.maven.surefire.booter.SurefireBooterForkException: ", p)) {
        this.forkDied(l, p, f);
        return true;
      }
      if (this.resolution(l, p, f)) return true;
      if (lv == Level.ERROR && this.noise(l, p)) return true;
      return false;
    }
    // INFO
    if (c == Char.R && l.matchAt("Results:", p)) return true;
    if (c == Char.R && l.matchAt("Reactor Build Order:", p)) { this.reactor = true; return false; }
    // `--- maven-compiler-plugin:3.10.1:compile (default-compile) @ ratio ---`: the goal the lines below are of
    if (c == Char.MINUS && l.matchAt("--- ", p) && l.endsWith(" ---")) this.compilerGoal = l.matchAt("--- maven-compiler-plugin:", p);
    // `--- maven-surefire-plugin:2.22.3:test (default-test) @ ratio-a ---`: the module a reactor builds now
    if (c == Char.MINUS && this.reactor && l.matchAt("--- ", p) && l.endsWith(" ---")) {
      let at = l.lastIndexOf(" @ ");
      if (at > p) this.module = l.trimmed(at + 3, l.len - 4);
      return false;
    }
    if (this.note(l, p, f)) return true;
    if (c == Char.B && (l.matchAt("BUILD FAILURE", p) || l.matchAt("BUILD SUCCESS", p))) return true;
    // maven-compiler-plugin compiled nothing: the warnings of the module's sources are not printed again
    if (c == Char.N && l.matchAt("Nothing to compile - all classes are up to date", p)) { f.upToDate = true; return false; }
    if (isDigit(c) && this.compiling) {
      let n = l.readInt(p);
      let rest = l.trimmed(l.end);
      if (n >= 0 && (rest == "error" || rest == "errors" || rest == "warning" || rest == "warnings")) { this.compiling = false; return true; }
    }
    if (!l.matchAt("---", p)) this.compiling = false;
    return false;
  }

  /** `/work/src/a/Foo.java:[982,17] cannot find symbol` (maven-compiler-plugin's form of javac's diagnostics). */
  private diagnostic(l: Line, p: i32, lv: i32, f: Facts): bool {
    let k = l.indexOf(".java:[", p);
    if (k < 0 || (p < l.len && isSpace(l.at(p)))) return false;
    let a = k + 7;
    let ln = l.readInt(a);
    let e = l.end;
    if (ln < 0 || l.at(e) != Char.COMMA) return false;
    let col = l.readInt(e + 1);
    let e2 = l.end;
    if (col < 0 || l.at(e2) != Char.RBRACKET) return false;
    let m = e2 + 1;
    if (l.at(m) == Char.SPACE) m++;
    let d = new Diagnostic();
    d.tool = "javac";
    d.severity = lv == Level.ERROR ? "error" : "warning";
    d.file = this.ctx.resolve(l.str(p, k + 5));
    d.line = ln;
    d.col = col;
    if (l.at(m) == Char.LBRACKET) {
      let close = l.indexOfByte(Char.RBRACKET, m);
      if (close > m + 1 && l.at(close + 1) == Char.SPACE) {
        d.code = l.str(m + 1, close);
        m = close + 2;
      }
    }
    d.message = l.trimmed(m);
    this.state = State.DETAIL;
    let key = d.severity + "\n" + d.file! + "\n" + ln.toString() + "\n" + col.toString() + "\n" + d.message;
    if (this.seenDiags.has(key)) { this.last = null; return true; }
    this.seenDiags.add(key);
    f.addDiagnostic(d);
    this.last = d;
    return true;
  }

  /**
   * Checkstyle's plain format (its CLI, `checkstyle -c sun_checks.xml src`): `[ERROR] /src/a/Foo.java:12:5: 'if'
   * construct must use '{}'s. [NeedBraces]` (the column left out where the check has none), the check's name
   * the code; `[WARN]` for a check of severity warning. Its closing `Checkstyle ends with 200 errors.` counts them.
   */
  private checkstyle(l: Line, p: i32, lv: i32, f: Facts): bool {
    let k = l.indexOf(".java:", p);
    if (k < 0 || l.at(l.len - 1) != Char.RBRACKET || isSpace(l.at(p))) return false;
    let ln = l.readInt(k + 6);
    let e = l.end;
    if (ln < 0 || l.at(e) != Char.COLON) return false;
    let col: i64 = -1;
    if (isDigit(l.at(e + 1))) {
      col = l.readInt(e + 1);
      e = l.end;
      if (l.at(e) != Char.COLON) return false;
    }
    if (l.at(e + 1) != Char.SPACE) return false;
    let open = l.lastIndexOfByte(Char.LBRACKET);
    if (open <= e + 2 || l.at(open - 1) != Char.SPACE) return false;
    let d = new Diagnostic();
    d.tool = "checkstyle";
    d.severity = lv == Level.ERROR ? "error" : "warning";
    d.file = this.ctx.resolve(l.str(p, k + 5));
    d.line = ln;
    d.col = col;
    d.code = l.str(open + 1, l.len - 1);
    d.message = l.trimmed(e + 2, open);
    f.addDiagnostic(d);
    return true;
  }

  /**
   * A line of ConsoleLauncher's `Failures (N):` section: `  JUnit Jupiter:RatioTest:Rounding:thirds()` a failing
   * test (its engine, then its classes and method), `    MethodSource [className = 'ex.RatioTest', ...]`,
   * `    => java.lang.AssertionError: msg` its exception, `       ex.RatioTest.third(RatioTest.java:16)` its frames.
   */
  private consoleLine(l: Line, f: Facts): bool {
    if (l.isBlank()) return true;
    let q = l.skipSpaces(0);
    // an exception line ending at its colon (`=> org.opentest4j.AssertionFailedError: `): ConsoleLauncher prints its
    // message's lines as they are, from column 0 (AssertJ's `Expecting:` / ` <3>` / `to be equal to:`, hamcrest's
    // `Expected: …` / `     but: …`), up to its frames (indented, `a.FooTest.m(FooTest.java:9)`, or `[...]`)
    let cur = this.cur;
    let curTf = this.curFailure;
    if (cur !== null && curTf !== null && cur.more > 0) {
      if (!consoleFrame(l, q)) {
        cur.more--;
        let m = l.trimmed(q);
        curTf.message = curTf.message.endsWith(":") ? curTf.message + " " + m : curTf.message + "\n" + m;
        return true;
      }
      cur.more = 0;
    }
    if (q == 2) {
      let c = l.indexOfByte(Char.COLON, 2);
      if (c < 0) return false;
      let t = f.testsFor(CONSOLE);
      let pd = new Pending();
      pd.name = l.str(c + 1, l.len).replaceAll(":", ".");
      pd.wantMessage = true;
      this.cur = t.runner == CONSOLE ? pd : null;
      if (t.runner == CONSOLE) {
        let tf = failureNamed(t, pd.name);
        if (!t.totals) t.failed = t.failures.length;
        this.curFailure = tf;
      }
      return true;
    }
    let pd = this.cur;
    let tf = this.curFailure;
    if (q < 4) return false;
    if (pd === null || tf === null) return true;
    if (l.matchAt("MethodSource [className = '", q)) {
      let a = q + 27;
      let e = l.indexOfByte(Char.APOS, a);
      if (e > a) pd.cls = l.str(a, e);
      return true;
    }
    if (l.matchAt("=> ", q)) {
      if (pd.wantMessage) {
        pd.wantMessage = false;
        tf.message = l.trimmed(q + 3);
        if (tf.message.endsWith(":") && tf.message.indexOf(": ") < 0) pd.more = 7;
        expectedActual(tf.message, pd);
        if (pd.expected !== null) { tf.expected = pd.expected; tf.actual = pd.actual; }
      }
      return true;
    }
    // a frame without `at `: the innermost in the test's package places it
    if (tf.file === null && pd.cls.length > 0) {
      let open = l.indexOfByte(Char.LPAREN, q);
      let close = l.lastIndexOfByte(Char.RPAREN);
      let dot = open > 0 ? l.lastIndexOfByte(Char.DOT, open) : -1;
      if (dot > q && close > open && samePackage(l.str(q, dot), pd.cls)) {
        let fr = new Frame();
        if (setLocation(fr, l.str(open + 1, close)) && fr.file !== null) { tf.file = fr.file; tf.line = fr.line; }
      }
    }
    return true;
  }

  /**
   * A line of ConsoleLauncher's tree: a node (`│  │  ├─ thirds() ✔`: depth 2) or a failed node's message under it
   * (claimed); a blank line ends it. A passed node no deeper node follows is a test that passed.
   */
  private treeLine(l: Line): bool {
    if (l.isBlank()) return false;
    let th = this.treeTheme;
    let bar = TREE_BAR[th];
    let blank = TREE_BLANK[th];
    let p = 0;
    let depth = 0;
    while (true) {
      if (l.matchAt(bar, p)) p += bar.length;
      else if (l.matchAt(blank, p)) p += blank.length;
      else break;
      depth++;
    }
    let mid = TREE_MID[th];
    if (!l.matchAt(mid, p) && !l.matchAt(TREE_END[th], p)) {
      // a failed node's message, under it
      return p > 0 || l.at(0) == 0xE2;
    }
    p += mid.length;
    let e = l.len;
    while (e > p && isSpace(l.at(e - 1))) e--;
    let ok = false;
    let k = l.indexOf(TREE_FAIL[th], p);
    if (k < 0) k = l.indexOf(TREE_SKIP[th], p);
    if (k < 0) k = l.indexOf(TREE_ABORT[th], p);
    let okMark = TREE_OK[th];
    if (k < 0 && e - p > okMark.length && l.matchAt(okMark, e - okMark.length)) { k = e - okMark.length; ok = true; }
    if (k < 0) return true;
    if (depth <= this.treeDepth) this.treeLeaf();
    let path = this.treePath;
    while (path.length > depth) path.pop();
    while (path.length < depth) path.push("");
    path.push(l.str(p, k).replaceAll(":", "."));
    this.treeDepth = depth;
    this.treeOk = ok;
    return true;
  }

  /** The last node read, a leaf: a passed test's name (its path below the engine) hashed. */
  private treeLeaf(): void {
    if (this.treeDepth < 1 || !this.treeOk) { this.treeDepth = -1; return; }
    let path = this.treePath;
    let name = path[1];
    for (let i = 2; i < path.length; i++) name += "." + path[i];
    this.treePassed = withName(this.treePassed, name);
    this.treeCount++;
    this.treeDepth = -1;
  }

  /**
   * ConsoleLauncher's `--details=flat`: `Finished:    third() ([engine:junit-jupiter]/[class:ex.RatioTest]/
   * [nested-class:Rounding]/[method:third()])`, then, for a failure, `             => Exception: msg` and its
   * frames: named as the tree names it (`RatioTest.Rounding.third()`).
   */
  private finished(l: Line, f: Facts): bool {
    let e = l.indexOf(" ([engine:");
    if (e < 0) return false;
    let name = "";
    let cls = "";
    let i = l.indexOf("]/[", e);
    while (i > 0) {
      let a = i + 3;
      let colon = l.indexOfByte(Char.COLON, a);
      let close = l.indexOf("]/[", a);
      let end = close > 0 ? close : l.len - 2;
      if (colon < 0 || colon > end) break;
      let v = l.str(colon + 1, end);
      if (l.matchAt("class:", a)) { cls = v; v = simpleName(v); }
      else if (l.matchAt("nested-class:", a)) cls = cls + "$" + v;
      name = name.length > 0 ? name + "." + v : v;
      i = close;
    }
    this.flatName = name;
    this.flatCls = cls;
    this.state = State.FLAT;
    this.curFailure = null;
    return true;
  }

  /** The lines after a flat `Finished:`: `=> Exception: msg` makes it a failure; its frames place it. */
  private flatLine(l: Line, f: Facts): bool {
    let q = l.skipSpaces(0);
    if (q == 0 || q >= l.len) return false;
    if (l.matchAt("=> ", q) && this.curFailure === null && this.flatName.length > 0) {
      let t = f.testsFor(CONSOLE);
      if (t.runner != CONSOLE) return true;
      let tf = failureNamed(t, this.flatName);
      let m = l.trimmed(q + 3);
      if (m.startsWith("Exception: ")) m = m.substring(11);
      tf.message = m;
      let pd = new Pending();
      expectedActual(m, pd);
      if (pd.expected !== null) { tf.expected = pd.expected; tf.actual = pd.actual; }
      if (!t.totals) t.failed = t.failures.length;
      this.curFailure = tf;
      return true;
    }
    let tf = this.curFailure;
    if (tf === null) return false;
    if (l.matchAt("at ", q) && tf.file === null) {
      let a = q + 3;
      let open = l.indexOfByte(Char.LPAREN, a);
      let close = l.lastIndexOfByte(Char.RPAREN);
      let dot = open > 0 ? l.lastIndexOfByte(Char.DOT, open) : -1;
      if (dot > a && close > open && samePackage(l.str(a, dot), this.flatCls)) {
        let fr = new Frame();
        if (setLocation(fr, l.str(open + 1, close)) && fr.file !== null) { tf.file = fr.file; tf.line = fr.line; }
      }
    }
    return true;
  }

  /** ConsoleLauncher's totals box: `[       333 tests successful      ]`, `[         1 tests failed          ]`. */
  private consoleTotals(l: Line, f: Facts): bool {
    let q = l.skipSpaces(1);
    if (q == 1 || !isDigit(l.at(q)) || l.at(l.len - 1) != Char.RBRACKET) return false;
    let n = l.readInt(q);
    let e = l.end;
    if (n < 0 || !l.matchAt(" tests ", e) && !l.matchAt(" containers ", e)) return false;
    if (l.matchAt(" containers ", e)) return true;
    let t = f.testsFor(CONSOLE);
    if (t.runner != CONSOLE) return true;
    let w = e + 7;
    if (l.matchAt("successful", w)) { t.passed = n; t.totals = true; }
    else if (l.matchAt("failed", w)) { t.failed = n; t.totals = true; }
    else if (l.matchAt("skipped", w)) { t.skipped = n; }
    // a test whose assumption failed (`assumeTrue`) is aborted: it did not run, as a disabled one
    else if (l.matchAt("aborted", w)) { t.skipped += n; }
    return true;
  }

  /**
   * javac's mandatory notes as maven-compiler-plugin prints them, each behind the file's path:
   * `/work/src/a/Foo.java: /work/src/a/Foo.java uses unchecked or unsafe operations.` (a note of the file, as javac's
   * `Note: Foo.java uses …`), `/work/src/a/Foo.java: Recompile with -Xlint:unchecked for details.`, `…: Some input
   * files use …` (claimed).
   */
  private note(l: Line, p: i32, f: Facts): bool {
    let k = l.indexOf(".java: ", p);
    if (k < 0 || (p < l.len && isSpace(l.at(p)))) return false;
    let m = k + 7;
    if (l.matchAt("Recompile with -X", m) || l.matchAt("Some input files ", m) ||
        l.matchAt("Some messages have been simplified", m)) return true;
    let u = l.indexOf(".java uses ", m);
    if (u < 0 || l.indexOfByte(Char.SPACE, m) != u + 5) return false;
    let d = new Diagnostic();
    d.tool = "javac";
    d.severity = "note";
    d.file = this.ctx.resolve(l.str(m, u + 5));
    d.message = l.trimmed(u + 6);
    let key = "note\n" + d.file! + "\n" + d.message;
    if (this.seenDiags.has(key)) return true;
    this.seenDiags.add(key);
    addNote(f, null, d);
    return true;
  }

  /** javac's own error or warning in the compiler's section: a diagnostic with no file (read once). */
  private own(l: Line, p: i32, lv: i32, f: Facts): bool {
    let q = l.skipSpaces(p);
    if (l.matchAt("-> [Help ", q)) { this.compileGoal = false; this.compiling = false; return false; }
    if (q >= l.len || q > p || l.matchAt("Failed to execute goal", q)) return false;
    let m = l.trimmed(p);
    let sev = lv == Level.ERROR ? "error" : "warning";
    let key = sev + "\n\n" + m;
    this.state = State.NONE;
    if (this.seenDiags.has(key)) return true;
    this.seenDiags.add(key);
    let d = new Diagnostic();
    d.tool = "javac";
    d.severity = sev;
    // `[options] system modules path not set ...`: -Xlint's category, as in javac's `warning: [options] ...`
    if (l.at(p) == Char.LBRACKET) {
      let close = l.indexOfByte(Char.RBRACKET, p);
      if (close > p + 1 && l.at(close + 1) == Char.SPACE) { d.code = l.str(p + 1, close); m = l.trimmed(close + 2); }
    }
    d.message = m;
    f.addDiagnostic(d);
    this.last = d;
    return true;
  }

  /** surefire's line of a module's or a test class's counts. */
  private testsRun(l: Line, p: i32, f: Facts): bool {
    let run = l.readInt(p + 11);
    if (run < 0) return false;
    let fl = countAt(l, "Failures: ", p);
    let er = countAt(l, "Errors: ", p);
    let sk = countAt(l, "Skipped: ", p);
    if (fl < 0 || er < 0) return false;
    let t = f.testsFor(RUNNER);
    if (t.runner != RUNNER) return true;
    if (l.indexOf("Time elapsed", p) >= 0) {
      // one test class's: `... - in a.FooTest` (surefire 3: `-- in`)
      let i = l.lastIndexOf(" in ");
      if (i > p) this.cls = l.trimmed(i + 4);
      if (!t.totals) t.passed = max<i64>(t.passed, 0);
      return true;
    }
    this.flush(t);
    this.run += run; this.failures += fl; this.errors += er; this.skipped += max<i64>(sk, 0);
    t.failed = this.failures;
    t.errors = this.errors;
    t.skipped = this.skipped;
    t.passed = max<i64>(0, this.run - this.failures - this.errors - this.skipped);
    t.totals = true;
    return true;
  }

  /**
   * `shouldParse  Time elapsed: 0.07 s  <<< FAILURE!` (JUnit 5), `bad(a.FooTest)  Time elapsed: ...` (JUnit 4),
   * `a.FooTest.bad -- Time elapsed: 0.01 s <<< ERROR!` (surefire 3).
   */
  private failureLine(l: Line, p: i32, f: Facts): bool {
    let c = l.lastIndexOf(" <<< ");
    if (c < 0 || !(l.matchAt(" <<< FAILURE!", c) || l.matchAt(" <<< ERROR!", c))) return false;
    let te = l.indexOf(" Time elapsed: ", p);
    if (te <= p || te > c) return false;
    let ne = te;
    while (ne > p && l.at(ne - 1) == Char.SPACE) ne--;
    if (ne > p + 2 && l.at(ne - 1) == Char.MINUS && l.at(ne - 2) == Char.MINUS) { ne -= 2; while (ne > p && l.at(ne - 1) == Char.SPACE) ne--; }
    if (ne <= p) return false;
    let raw = l.str(p, ne);
    let pd = new Pending();
    let cls = this.cls;
    let method = raw;
    let open = raw.indexOf("(");
    if (open > 0 && raw.endsWith(")") && raw.charCodeAt(open + 1) != Char.RPAREN) {
      // JUnit 4: `bad(a.FooTest)`, `test[3](a.FooTest)`
      cls = raw.substring(open + 1, raw.length - 1);
      method = raw.substring(0, open);
    } else if (cls.length > 0 && raw.startsWith(cls + ".")) {
      method = raw.substring(cls.length + 1);
    }
    pd.cls = cls;
    pd.method = method;
    pd.name = simpleName(cls) + "." + method;
    if (this.pending.length < 1000) this.pending.push(pd);
    this.cur = pd;
    this.state = State.BLOCK;
    let t = f.testsFor(RUNNER);
    if (t.runner == RUNNER && !t.totals) t.passed = max<i64>(t.passed, 0);
    return true;
  }

  /** A line of a failing test's block: its exception's first line is the message; a frame places it. */
  private body(l: Line): void {
    let pd = this.cur;
    if (pd === null) return;
    let q = l.skipSpaces(0);
    if (q > 0 && l.matchAt("at ", q)) {
      pd.wantMessage = false;
      pd.more = 0;
      if (pd.file !== null && pd.named) return;
      let a = q + 3;
      let open = l.indexOfByte(Char.LPAREN, a);
      let close = l.lastIndexOfByte(Char.RPAREN);
      if (open < 0 || close <= open) return;
      let dot = l.lastIndexOfByte(Char.DOT, open);
      if (dot <= a) return;
      let frameCls = l.str(a, dot);
      // JUnit 5's nested classes: the frame names `Outer$Inner.method`, the block only the method
      if (!pd.named && frameCls.startsWith(pd.cls + "$") && l.str(dot + 1, open) == baseMethod(pd.method)) {
        pd.name = simpleName(frameCls) + "." + pd.method;
        pd.named = true;
      }
      // the innermost frame in the test's package: the code under test (a full stack), else the test's own line
      if (pd.file !== null || !samePackage(frameCls, pd.cls)) return;
      let fr = new Frame();
      if (!setLocation(fr, l.str(open + 1, close)) || fr.file === null) return;
      pd.file = fr.file;
      pd.line = fr.line;
      return;
    }
    if (pd.more > 0) {
      let m = l.trimmed(0);
      if (m.length == 0) { pd.more = 0; return; }
      pd.more--;
      // the first line under an empty message is the message: `MultipleFailuresError: Multiple Failures (2 failures)`
      pd.message = pd.message.endsWith(":") ? pd.message + " " + m : pd.message + "\n" + m;
      return;
    }
    if (!pd.wantMessage) return;
    pd.wantMessage = false;
    let m = l.trimmed(0);
    pd.message = m;
    if (m.endsWith(":") && m.indexOf(": ") < 0) pd.more = 7;
    expectedActual(m, pd);
  }

  /** `FooTest.shouldParse:40 expected: <1> but was: <2>`, `FooTest$Inner.m:51 » Unsupported x`, `FooTest » Init`. */
  private summaryLine(l: Line, a: i32, f: Facts): void {
    let t = f.testsFor(RUNNER);
    if (t.runner != RUNNER) return;
    let s = l.str(a, l.len);
    // a rerun test's runs (-Dsurefire.rerunFailingTestsCount): `Run 2: RatioTest.third:24 » UnsupportedOperation …`
    if (s.startsWith("Run ")) {
      let c = s.indexOf(": ");
      if (c > 4 && isDigit(s.charCodeAt(4))) s = s.substring(c + 2);
    }
    let name = "";
    let line: i32 = -1;
    let msg = "";
    // the first `:N` followed by a space, `->` or the end
    let i = 0;
    while (true) {
      i = s.indexOf(":", i);
      if (i < 0) break;
      let j = i + 1;
      while (j < s.length && isDigit(s.charCodeAt(j))) j++;
      if (j > i + 1 && (j == s.length || s.charCodeAt(j) == Char.SPACE || s.charCodeAt(j) == Char.MINUS)) {
        name = s.substring(0, i);
        line = I32.parseInt(s.substring(i + 1, j));
        let sp = s.indexOf(" ", j);
        msg = sp >= 0 ? s.substring(sp + 1).trimStart().trimEnd() : "";
        break;
      }
      i = j;
    }
    if (name.length == 0) {
      let r = s.indexOf(" » ");
      if (r > 0) { name = s.substring(0, r); msg = s.substring(r + 1).trimStart().trimEnd(); }
      else {
        let sp = s.indexOf(" ");
        name = sp > 0 ? s.substring(0, sp) : s;
        msg = sp > 0 ? s.substring(sp + 1).trimStart().trimEnd() : "";
      }
    }
    if (name.length == 0) return;
    let pd = this.take(name);
    // a parameterized test's invocations (`m{String}[1]`, JUnit 4's `m[1]`): the summary names each by its method
    let tf = failureIn(t, pd !== null ? name + pd.method.substring(baseMethod(pd.method).length) : name, this.module);
    if (pd !== null) fill(tf, pd);
    if (tf.message.length == 0) tf.message = msg;
    if (tf.file === null && line > 0) {
      // surefire names the class, Java's frames the file: `Outer$Inner` is in Outer.java
      let dot = name.lastIndexOf(".");
      let c = dot > 0 ? name.substring(0, dot) : name;
      let d = c.indexOf("$");
      if (d > 0) c = c.substring(0, d);
      tf.file = c + ".java";
      tf.line = line;
    }
    if (!t.totals) t.failed = t.failures.length;
  }

  /** The pending block of the test the summary names: by its name, else by its method's. */
  private take(name: string): Pending | null {
    let ps = this.pending;
    for (let i = 0; i < ps.length; i++) {
      let pd = unchecked(ps[i]);
      if (!pd.used && pd.name == name) { pd.used = true; return pd; }
    }
    let dot = name.lastIndexOf(".");
    let m = dot >= 0 ? name.substring(dot + 1) : name;
    for (let i = 0; i < ps.length; i++) {
      let pd = unchecked(ps[i]);
      if (!pd.used && baseMethod(pd.method) == m) { pd.used = true; return pd; }
    }
    return null;
  }

  /** A flaky test's blocks (`ex.RatioTest.quarter(ex.RatioTest)`, JUnit 4's head in `Flakes:`): taken, no failure. */
  private dropFlaky(head: string): void {
    let open = head.indexOf("(");
    if (open <= 0) return;
    let cls = head.substring(open + 1, head.length - 1);
    let full = head.substring(0, open);
    let method = full.startsWith(cls + ".") ? full.substring(cls.length + 1) : full.substring(full.lastIndexOf(".") + 1);
    let name = simpleName(cls) + "." + method;
    let ps = this.pending;
    for (let i = 0; i < ps.length; i++) { let pd = unchecked(ps[i]); if (pd.name == name) pd.used = true; }
  }

  /** The blocks no summary named (a run cut short, a summary not printed): failures by their own names. */
  private flush(t: Tests): void {
    let ps = this.pending;
    for (let i = 0; i < ps.length; i++) {
      let pd = unchecked(ps[i]);
      if (pd.used) continue;
      fill(failureIn(t, pd.name, this.module), pd);
    }
    this.pending = [];
  }

  /**
   * `The forked VM terminated without properly saying goodbye. VM crash or System.exit called?`: the JVM running
   * the tests died (System.exit, a signal, out of memory) with no totals: a crash, in the classes surefire lists
   * under `Crashed tests:`, whose tests did not all run.
   */
  private forkDied(l: Line, p: i32, f: Facts): void {
    this.state = State.FORK;
    this.crashed = false;
    if (this.vmCrash !== null) return;
    let c = new Crash();
    c.tool = "java";
    c.kind = "forked-vm-exit";
    let m = l.trimmed(p);
    let k = m.indexOf("Exception: ");
    if (k > 0 && m.startsWith("org.apache.maven.surefire.")) m = m.substring(k + 11);
    c.summary = m;
    c.message = m;
    this.vmCrash = c;
    if (f.crash === null) f.setCrash(c);
    let t = f.testsFor(RUNNER);
    if (t.runner == RUNNER && !t.totals) t.passed = max<i64>(t.passed, 0);
  }

  /** A line of the forked VM's report: its exit code, the crashed classes, the booter's frames. */
  private fork(l: Line, p: i32, f: Facts): void {
    let c = this.vmCrash;
    if (c === null) return;
    if (l.matchAt("Process Exit Code: ", p)) {
      let code = l.readInt(p + 19);
      if (code >= 0 && c.summary !== null && c.summary!.indexOf("(exit code") < 0) {
        c.summary = c.summary! + " (exit code " + code.toString() + ")";
        c.message = c.summary;
      }
      return;
    }
    if (l.matchAt("Crashed tests:", p)) { this.crashed = true; return; }
    let q = l.skipSpaces(p);
    if (this.crashed && q == p && q < l.len && l.indexOfByte(Char.SPACE, q) < 0) {
      let t = f.testsFor(RUNNER);
      let cls = l.str(q, l.len);
      if (t.runner == RUNNER && !t.unfinished.includes(cls)) t.unfinished.push(cls);
      return;
    }
    this.crashed = false;
  }

  /** `Failed to execute goal G on project P: msg`. */
  private goal(l: Line, p: i32, f: Facts): bool {
    // under -q no `[INFO] N errors` closes the compiler's section: the goal's line does
    this.compiling = false;
    if (l.indexOf("There are test failures", p) >= 0 || l.indexOf("There was a timeout", p) >= 0) return true;
    // surefire ran no test (-Dtest matched none): the build compiled, none ran; the line is left for the tail.
    if (l.indexOf(": No tests were executed!", p) >= 0) {
      if (f.tests === null) { let t = f.testsFor(RUNNER); t.passed = 0; t.failed = 0; t.totals = true; }
      return false;
    }
    if (this.resolution(l, p, f)) return true;
    if (l.indexOf(": Compilation failure", p) >= 0) {
      this.compileGoal = true;
      if (f.errorCount == 0 && f.buildFailedLine === null) f.buildFailedLine = l.trimmed(p);
      return true;
    }
    if (f.buildFailedLine === null) f.buildFailedLine = l.trimmed(p);
    return true;
  }

  /** A dependency, plugin or parent POM Maven could not get (offline, no repository): the set-up's failure. */
  private resolution(l: Line, p: i32, f: Facts): bool {
    if (!(l.indexOf("could not be resolved", p) >= 0 || l.indexOf("Could not resolve", p) >= 0 ||
        l.indexOf("in offline mode", p) >= 0 || l.indexOf("Non-resolvable", p) >= 0 ||
        l.indexOf("Unresolveable", p) >= 0 || l.indexOf("Could not transfer artifact", p) >= 0)) return false;
    if (f.setupFailure === null && f.crash === null) f.setupFailure = l.trimmed(p);
    return true;
  }

  /** Maven's own advice after a failure, and the empty `[ERROR] ` lines around it. */
  private noise(l: Line, p: i32): bool {
    let q = l.skipSpaces(p);
    if (q >= l.len) return true;
    return l.matchAt("-> [Help ", q) || l.matchAt("[Help ", q) || l.matchAt("To see the full stack trace", q) ||
      l.matchAt("Re-run Maven using", q) || l.matchAt("For more information about the errors", q) ||
      l.matchAt("Please refer to ", q) || l.matchAt("After correcting the problems", q) ||
      l.matchAt("mvn <args> -rf ", q) || l.matchAt("[ERROR] Some problems were encountered", q) ||
      l.matchAt("The build could not read ", q) || (l.matchAt("The project ", q) && l.indexOf(" has ", q) > 0 && (l.endsWith(" error") || l.endsWith(" errors")));
  }

  finish(f: Facts): void {
    if (this.state == State.TREE) this.treeLeaf();
    this.state = State.NONE;
    this.cur = null;
    let t = f.tests;
    // ConsoleLauncher's tree named every test that passed: as many as its box counts
    let hs = this.treePassed;
    if (t !== null && t.runner == CONSOLE && this.treeCount > 0 && hs !== null && <i64>hs.length == t.passed) t.passedSet = hs;
    if (t !== null && t.runner == RUNNER) {
      this.flush(t);
      if (!t.totals) t.failed = t.failures.length;
    }
  }
}

/** `Failures: `, `Errors: `, `Flakes: ` (surefire 2.19+), `Failed tests: `, `Tests in error: ` (before), alone. */
function summaryHead(l: Line, p: i32): bool {
  let c = l.at(p);
  let n = 0;
  if (c == Char.F) {
    if (l.matchAt("Failures:", p)) n = 9;
    else if (l.matchAt("Flakes:", p)) n = 7;
    else if (l.matchAt("Failed tests:", p)) n = 13;
  } else if (c == Char.E) {
    if (l.matchAt("Errors:", p)) n = 7;
  } else if (c == Char.T && l.matchAt("Tests in error:", p)) n = 15;
  return n > 0 && l.skipSpaces(p + n) >= l.len;
}

/** A test's method without a parameterized invocation's suffix: `m{String}[1]` (JUnit 5), `m[1]` (JUnit 4) → `m`. */
function baseMethod(m: string): string {
  for (let i = 0; i < m.length; i++) {
    let c = m.charCodeAt(i);
    if (c == Char.LBRACE || c == Char.LBRACKET || c == Char.LPAREN) return m.substring(0, i);
  }
  return m;
}

/** The class's name without its package: `a.b.FooTest` → `FooTest`. */
function simpleName(cls: string): string {
  let d = cls.lastIndexOf(".");
  return d >= 0 ? cls.substring(d + 1) : cls;
}

/**
 * javac's own warnings of its options (javac's `warning: [options] …`; maven-compiler-plugin prints the text alone):
 * `bootstrap class path not set in conjunction with -source 8`, `system modules path not set in conjunction with
 * -source 11`, `source value 7 is obsolete and will be removed in a future release`, `target value 7 is obsolete …`,
 * `To suppress warnings about obsolete options, use -Xlint:-options.`
 */
function javacOptionsWarning(l: Line, p: i32): bool {
  let c = l.at(p);
  if (c == 0x73) {  // s
    if (l.matchAt("source value ", p)) return l.indexOf(" is obsolete", p) > 0;
    if (l.matchAt("system modules path not set", p)) return true;
    return false;
  }
  if (c == 0x62) return l.matchAt("bootstrap class path not set", p);  // b
  if (c == 0x74) return l.matchAt("target value ", p) && l.indexOf(" is obsolete", p) > 0;  // t
  if (c == Char.T) return l.matchAt("To suppress warnings about obsolete options", p);
  return false;
}

/**
 * A summary line whose message is on the lines under it: none after the place (`RatioTest.halves:21`, hamcrest's
 * message starts on the next line) or only JUnit 5's `Multiple Failures (2 failures)`.
 */
function messageBelow(s: string): bool {
  if (s.includes(" Multiple Failures (")) return true;
  let k = s.lastIndexOf(":");
  if (k < 0 || k + 1 >= s.length || s.includes(" ")) return false;
  for (let i = k + 1; i < s.length; i++) if (!isDigit(s.charCodeAt(i))) return false;
  return true;
}

/** A frame of ConsoleLauncher's failure, indented, with no `at `: `a.FooTest.m(FooTest.java:9)`, or its `[...]`. */
function consoleFrame(l: Line, q: i32): bool {
  if (q < 4) return false;
  if (l.at(q) == Char.LBRACKET) return l.matchAt("[...]", q);
  let open = l.indexOfByte(Char.LPAREN, q);
  if (open < 0 || l.at(l.len - 1) != Char.RPAREN) return false;
  let sp = l.indexOfByte(Char.SPACE, q);
  return sp < 0 || sp > open;
}

/** Whether class c (`a.b.Foo$1`) is in the package of test class t (`a.b.FooTest`). */
function samePackage(c: string, t: string): bool {
  let d = t.lastIndexOf(".");
  let e = c.lastIndexOf(".");
  if (d != e) return false;
  return d < 0 || c.substring(0, e) == t.substring(0, d);
}

function fill(tf: TestFailure, pd: Pending): void {
  if (pd.message.length > 0) tf.message = pd.message;
  if (pd.expected !== null) { tf.expected = pd.expected; tf.actual = pd.actual; }
  if (pd.file !== null && tf.file === null) { tf.file = pd.file; tf.line = pd.line; }
}

/** JUnit 4's `expected:<a> but was:<b>`, JUnit 5's `expected: <a> but was: <b>`. */
function expectedActual(m: string, pd: Pending): void {
  let v = junitValues(m);
  if (v !== null) { pd.expected = v[0]; pd.actual = v[1]; }
}

/** The number after `word` in the line from p (`Failures: 2`), or -1. */
function countAt(l: Line, word: string, p: i32): i64 {
  let i = l.indexOf(word, p);
  if (i < 0) return -1;
  return l.readInt(i + word.length);
}
