// pytest: progress lines (`test_x.py ..F.s [ 50%]`, `-v` `node::id PASSED [ 7%]`), the FAILURES/ERRORS
// sections (`____ name ____` blocks, `E   ` lines, `file.py:14: AssertionError` locations), the short
// test summary (`FAILED id - msg`), and the final `N failed, M passed in 1.0s` line. A faulthandler dump
// (`Fatal Python error: Aborted`) mid-suite is a crash with the tests seen so far.
// Other --tb styles: `--tb=native` blocks hold a plain Python traceback (frames, then the exception line);
// `--tb=line` has no `____ name ____` headers, each failure being its `E` lines closed by one
// `file.py:16: message` line. A block without a node id takes it from the short summary, or else from
// the progress lines: failures are reported in the order they ran, so the k-th failure block is the
// k-th `F` of the progress.
import { Char, isDigit } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts, Tests, TestFailure, Frame, Crash, MAX_FAILURES, MAX_FRAMES } from "../../model";
import { Parser } from "../../parser";
import { ByteSet } from "../../util/byte-set";
import { normPath, classify } from "../../frames";
import { renumber } from "../runtime-common";
import { withName, withSkipped } from "../../util/name-hash";
import { SympyReader } from "./sympy";
import { chainWord, DocOutput, failureNamed, hasFailure, isUserFile, pyFrame, crashMidSuite, hostTimeoutKill, signalOfWords, runSignal, countBefore, joinLines, foreignLine, dedent } from "./common";

const COV_FAIL = "FAIL Required test coverage of ";
const enum Sec { NONE, FAILURES, ERRORS, PASSES, SUMMARY, OTHER, FATAL, WARNINGS }

/** Short-summary entries kept per kind (FAILED, ERROR): the failures kept, and as many again to match them. */
const MAX_SUMMARY = 2 * MAX_FAILURES;
/** Frames of a faulthandler dump kept (it prints at most 100 a thread). */
const MAX_FATAL_FRAMES = 256;

const STARTS = new ByteSet().chars("=nI+").digits();
/** pytest's own error (exit 3): each line of its traceback follows this prefix. */
const INTERNAL = "INTERNALERROR> ";
const INTERNAL_TB = "INTERNALERROR> Traceback (most recent call last):";
const ENDS = new ByteSet().chars("]");
const LAST_FAILED = "run-last-failure: ";
/** pytest's --tb=line crash line of a report that has none (a doctest's): `str(longrepr)[:50]`. */
const DOC_CUT = 50;

class Block {
  header: string = "";
  /** Its place among the failure (error) blocks, in run order: the progress's k-th `F` (`E`) names it. */
  ran: i32 = 0;
  error: bool = false;
  fail: TestFailure = new TestFailure();
  elines: string[] = [];
  userFile: string | null = null;
  userLine: i64 = -1;
  anyFile: string | null = null;
  anyLine: i64 = -1;
  firstFile: string | null = null;
  /** --tb=line: no header; the location line closes the block. */
  headerless: bool = false;
  /** Hypothesis' `Falsifying example: test_x(`, its arguments and `)`, kept past the message's cap. */
  example: string[] | null = null;
  closed: bool = false;
  /** The message a --tb=line location line ends with (`file.py:16: AssertionError: assert ...`). */
  locMsg: string | null = null;
  /** --tb=native: a Python traceback; its exception line (and indented continuation) is the message. */
  native: bool = false;
  /** An exception group's traceback (`  + Exception Group Traceback …`, then `  | ` lines): read as native. */
  group: bool = false;
  exc: string[] = [];
  excOpen: bool = false;
  /** A blank line came after the exception's lines: an indented line goes on with them (pytest's `  ` before
   * `Differing items:`), one at column 0 does not. */
  excBlank: bool = false;
  /** A `---- Captured stdout call ----` section began: the test's own output follows. */
  captured: bool = false;
  /** The block's first line when it is at column 0 (`[XPASS(strict)] reason`). */
  firstText: string | null = null;
  nonBlank: i32 = 0;
  /** A doctest's `Expected:` / `Got:` sections or its `Differences (…):` block (1, 2, 3 while reading one), and their lines. */
  docSection: i32 = 0;
  doc: DocOutput | null = null;
  /** A chained exception's earlier one (`During handling of the above exception`): its first `E` line. */
  chainedFrom: string | null = null;
  /** pytest-xdist's `worker 'gw1' crashed while running 'a.py::test_x'` (the block is headed by the file): the test. */
  workerCrash: string | null = null;
}

const GROUP_TRACEBACK = "  + Exception Group Traceback (most recent call last)";

export class PytestParser extends Parser {
  /** A view into part of a line (an exception group's line past its `  | ` prefix). */
  private view: Line = new Line();
  seen: bool = false;
  sec: Sec = Sec.NONE;
  /**
   * The first MAX_FAILURES failure and error blocks (headers do not name the file: two tests of one name are
   * two blocks of one header). Later blocks are read, their lines consumed, and counted in nFail/nErr, not
   * kept; their tests still come from the short summary. A log of a hundred thousand failure blocks held
   * them all, and the collector walked them all every 256 KiB of input: quadratic time, and memory past the
   * engine's bound.
   */
  blocks: Block[] = [];
  nFail: i32 = 0;
  nErr: i32 = 0;
  cur: Block | null = null;
  /** Short-summary entries: kind ("FAILED"/"ERROR"), node id, message. */
  sumKind: string[] = [];
  sumId: string[] = [];
  sumMsg: string[] = [];
  /** Each kept summary id's test part as a header prints it (`TestX.test_y[p]` for `a.py::TestX::test_y[p]`), or "". */
  sumDotted: string[] = [];
  nSumFailed: i32 = 0;
  nSumErr: i32 = 0;
  totals: bool = false;
  passed: i64 = 0; failed: i64 = 0; errors: i64 = 0; skipped: i64 = 0; xfailed: i64 = 0;
  // Progress counts, used only when the run ends without its summary line (a crash).
  pPassed: i64 = 0; pFailed: i64 = 0; pErrors: i64 = 0; pSkipped: i64 = 0;
  /** -v's `id PASSED` ids hashed (Tests.passedSet); null past MAX_PASSED_SET. `verbose`: an `id RESULT` line was read. */
  passHashes: Array<u32> | null = [];
  verbose: bool = false;
  progressFile: string = "";
  /** The files the progress lines named (Tests.loadedSet), or null. */
  loadedFiles: Array<u32> | null = null;
  /** What the progress says each failure (`F`) and error (`E`) was, in run order: a node id or a file. */
  pFails: string[] = [];
  pErrs: string[] = [];
  fatal: string | null = null;
  /** Characters of a doctest's report --tb=line writes again after it (DOC_CUT), still to skip. */
  docCut: i32 = 0;
  /** --lf's `run-last-failure: rerun previous N failures`: N (Tests.rerunFailed); -1 when not printed. */
  rerunFailed: i64 = -1;
  /** The totals line's `N deselected` (Tests.deselected). */
  deselected: i64 = 0;
  /** `collected N items`, less the deselected ones; -1 when not printed. */
  collected: i64 = -1;
  /** `!!! Interrupted: 1 error during collection !!!`: pytest stopped before running any test. */
  collectionStopped: bool = false;
  /** `!!! stopping after 1 failures !!!` (-x, --maxfail): the tests after the last failure did not run. */
  maxfailStopped: bool = false;
  fatalFrames: Frame[] = [];
  /** Inside the dump, a thread other than the one that crashed (`Thread 0x…`): its frames are not the crash's. */
  otherThread: bool = false;
  /**
   * pytest-timeout's thread method: a test ran past --timeout, so the plugin printed every thread's stack between two
   * `+++ Timeout +++` rules (`~~~ Stack of MainThread (…) ~~~`, then traceback frames) and ended the process
   * (os._exit(1)): no report, no summary. 1 inside the dump, 2 after it. The main thread's frames, outermost first.
   */
  tmo: i32 = 0;
  tmoMain: bool = false;
  tmoFrames: Frame[] = [];
  /**
   * A dump at column 0 before any of pytest's output: a Python program's own (`python3 -X dev main.py`), unless its
   * frames are pytest's (-q prints nothing before a first test that dies). Told at the end (finish).
   */
  bareFatal: bool = false;
  /** pytest's INTERNALERROR traceback (a plugin or conftest hook raised): its frames, outermost first, and exception line. */
  ieFrames: Frame[] = [];
  ieExc: string | null = null;
  /**
   * `!!!! KeyboardInterrupt !!!!` (a test raised it, or Ctrl-C): pytest stops, prints where (`t.py:44: KeyboardInterrupt`)
   * and its counts so far. The run's crash, as unittest's (1: the place line is next), the tests after it not run.
   */
  kbState: i32 = 0;
  kbFrames: Frame[] = [];
  /**
   * `ImportError while loading conftest '…'.` (pytest exits 4 before its session): the import's frames in pytest's
   * form (`pkg/markers.py:1: in <module>`, outermost first) and its `E   ImportError: …` line: the program's crash.
   */
  confOpen: bool = false;
  confFrames: Frame[] = [];
  confExc: string | null = null;
  /**
   * -v prints a test's node id, then runs it, then its result: the id of a line with no result yet is the test
   * running. If the process dies there (a signal, no summary), that test failed, by the crash, as unittest's
   * (unittest.ts) and gtest's are; the tests after it did not run. Also the id on a faulthandler line.
   */
  running: string | null = null;
  /** A shell's report of the signal on the running test's line (`id bash: line 1: 123 Segmentation fault  pytest`). */
  runningSignal: string | null = null;
  /** SymPy's own runner (`==== test process starts ====`): its lines are its reader's while its run is open. */
  sympy: SympyReader | null = null;

  busy(): bool { return this.confOpen || this.sympyOpen() || this.tmo == 1 || this.sec == Sec.FAILURES || this.sec == Sec.ERRORS || this.sec == Sec.PASSES || this.sec == Sec.FATAL; }

  /**
   * Before the run is seen: a `====` bar ('='), the final counts (a digit, `no tests ran`), a progress line
   * (it ends with `%]`: endsStarts) or a faulthandler dump's `Fatal Python error: ` (a colon: colonStarts).
   */
  atRest(): bool { return !this.seen && !this.confOpen && !this.sympyOpen(); }
  private sympyOpen(): bool { let sy = this.sympy; return sy !== null && sy.open; }
  starts(): ByteSet | null { return STARTS; }
  endsStarts(): ByteSet | null { return ENDS; }
  colonStarts(): bool { return true; }

  claim(l: Line, f: Facts): bool {
    let c = l.at(0);
    let sy = this.sympy;
    if (sy !== null && sy.open) {
      if (sy.claim(l, f)) return true;
      if (sy.open) return false;
    }
    if (this.confOpen) {
      if (this.conftestLine(l)) return true;
      this.confOpen = false;
    }
    if (c == Char.I && l.startsWith(INTERNAL)) { this.internalLine(l, INTERNAL.length); return true; }
    if (this.sec == Sec.FATAL) return this.fatalLine(l);
    if (c == Char.I && !this.seen && this.confExc === null && l.startsWith("ImportError while loading conftest ")) {
      this.confOpen = true;
      return true;
    }
    if (this.tmo == 1) {
      if (this.timeoutLine(l)) return true;
      this.tmo = 2;
    }
    if (c == Char.PLUS && this.sec == Sec.NONE && l.at(1) == Char.PLUS && l.at(l.len - 1) == Char.PLUS && l.indexOf(" Timeout ") > 0) {
      this.tmo = 1; this.tmoMain = false; this.tmoFrames = [];
      return true;
    }
    if (c == Char.EQ) return this.bar(l, f);
    if (!this.seen) {
      if (this.progress(l, f)) return true;
      return this.finalLine(l, f);
    }
    if (this.sec == Sec.FAILURES || this.sec == Sec.ERRORS || this.sec == Sec.PASSES) {
      if (foreignLine(l)) return false;
      // pytest-cov's threshold line, which its terminal summary prints after the last failure's block, before the
      // short summary: the coverage reader's (coverage.ts).
      if (c == Char.F && l.startsWith(COV_FAIL)) return false;
      if (c == Char.UNDERSCORE && (l.at(1) == Char.UNDERSCORE || isNarrowHeader(l))) { this.header(l); return true; }
      if (this.sec != Sec.PASSES) this.blockLine(l);
      return true;
    }
    if (this.sec == Sec.SUMMARY) {
      if (this.summaryLine(l)) return true;
    }
    // `warnings summary`: the tests that raised each warning (`test_x.py::test_a`; a module, `test_x.py` or, for one
    // raised while it was imported, `test_x.py:1`), and
    // its closing `-- Docs: …` link. The warnings, indented under them, are python-lint.ts's.
    if (this.sec == Sec.WARNINGS && c != Char.SPACE && (l.startsWith("-- Docs: ") || l.indexOf("::") > 0 || l.endsWith(".py") || modulePlace(l))) return true;
    if (this.progress(l, f)) return true;
    if (this.finalLine(l, f)) return true;
    if (this.sec == Sec.NONE && this.runningLine(l)) return true;
    if (this.kbState == 1 && this.interruptLine(l)) return true;
    if (c == Char.BANG && l.matchAt("!!!", 0)) {
      if (l.indexOf(" KeyboardInterrupt ") > 0) { this.kbState = 1; return true; }
      if (l.indexOf(" during collection ") > 0 && l.indexOf("Interrupted: ") > 0) this.collectionStopped = true;
      if (l.indexOf(" stopping after ") > 0) this.maxfailStopped = true;
      return true;
    }
    // --lf: `run-last-failure: rerun previous 6 failures (skipped 3 files)` (`… failures first` under --ff, which runs
    // the others too); `run-last-failure: no previously failed tests, not deselecting items.`; --sw's `stepwise: …`.
    if (this.sec == Sec.NONE && c == Char.r && l.startsWith(LAST_FAILED)) {
      if (l.matchAt("rerun previous ", LAST_FAILED.length)) {
        let n = l.readInt(LAST_FAILED.length + 15);
        let e = l.end;
        if (n > 0 && (l.matchAt(" failures", e) || l.matchAt(" failure", e)) && l.indexOf(" first", e) < 0) this.rerunFailed = n;
      }
      return true;
    }
    if (this.sec == Sec.NONE && c == Char.s && l.startsWith("stepwise: ")) return true;
    let ca = l.startsWith("collected ") ? 10 : l.startsWith("collecting ... collected ") ? 25 : -1;
    if (this.sec == Sec.NONE && ca > 0) {
      // `collected 3 items` (`/ 1 deselected` follows when some are; -v: `collecting ... collected 3 items`):
      // what a run cut short did not reach.
      let n = l.readInt(ca);
      if (n >= 0) {
        let d = l.indexOf(" deselected");
        let k = l.lastIndexOf("/ ", d);
        this.collected = n - (d > 0 && k > 0 ? max<i64>(l.readInt(k + 2), 0) : 0);
      }
      return true;
    }
    if (this.sec == Sec.NONE && (l.startsWith("platform ") || l.startsWith("rootdir: ") || l.startsWith("plugins: ")
      || l.startsWith("cachedir: ") || l.startsWith("collected ") || l.startsWith("collecting ") || l.startsWith("configfile: ")
      || l.startsWith("benchmark: ") || l.startsWith("hypothesis profile") || l.startsWith("cachedir:"))) return true;
    return false;
  }

  /** A line of the conftest's import error: a location (`x.py:3: in <module>`), its source, or the `E` line. */
  private conftestLine(l: Line): bool {
    let c = l.at(0);
    if (c == Char.E && (l.at(1) == Char.SPACE || l.len == 1)) {
      if (this.confExc === null && l.skipSpaces(1) < l.len) this.confExc = l.trimmed(1);
      return true;
    }
    if (this.confExc !== null) return false;
    if (c == Char.SPACE) return true;
    let colon = l.indexOf(":");
    if (colon <= 0) return false;
    let n = l.readInt(colon + 1);
    if (n < 0 || !l.matchAt(": in ", l.end)) return false;
    if (this.confFrames.length < MAX_FATAL_FRAMES) {
      let fr = new Frame();
      fr.file = normPath(l.str(0, colon));
      fr.line = <i32>n;
      fr.fn = l.trimmed(l.end + 5);
      classify(fr);
      this.confFrames.push(fr);
    }
    return true;
  }

  /**
   * A line of pytest's INTERNALERROR traceback, from p (after the prefix): `Traceback (most recent call last):` (a
   * chained one starts again: the last is the one pytest died of), a frame, or the exception line after the frames.
   * The lines after it (pluggy's `Plugin: …, Hook: …`, the warning it wraps) are claimed, not read.
   */
  private internalLine(l: Line, p: i32): void {
    if (l.matchAt("Traceback (most recent call last):", p)) { this.ieFrames = []; this.ieExc = null; return; }
    let c = l.at(p);
    if (c == Char.SPACE) {
      if (this.ieExc !== null) return;
      let fr = pyFrame(l, p);
      if (fr !== null && this.ieFrames.length < MAX_FATAL_FRAMES) this.ieFrames.push(fr);
      return;
    }
    if (this.ieExc === null && this.ieFrames.length > 0 && p < l.len) this.ieExc = l.trimmed(p);
  }

  /** After `!!! KeyboardInterrupt !!!`: its place (`/w/t.py:44: KeyboardInterrupt`) and pytest's advice under it. */
  private interruptLine(l: Line): bool {
    if (l.startsWith("(to show a full traceback on KeyboardInterrupt")) { this.kbState = 2; return true; }
    if (!l.endsWith(": KeyboardInterrupt")) return false;
    let colon = l.indexOf(":");
    if (colon <= 0) return false;
    let n = l.readInt(colon + 1);
    if (n < 0 || l.at(l.end) != Char.COLON) return false;
    let fr = new Frame();
    fr.file = normPath(l.str(0, colon));
    fr.line = n;
    fr.user = isUserFile(fr.file!);
    this.kbFrames = [fr];
    return true;
  }

  /** The conftest's import error as the program's crash (innermost frame first). */
  private conftestCrash(f: Facts): void {
    this.pyCrash(f, this.confExc, this.confFrames);
  }

  /** `Type: message` and its frames (outermost first) as the run's crash, unless it has one. */
  private pyCrash(f: Facts, e: string | null, frames: Frame[]): void {
    if (e === null || f.crash !== null) return;
    let colon = e!.indexOf(":");
    let cr = new Crash();
    cr.tool = "python";
    cr.kind = colon > 0 ? e!.substring(0, colon) : e!;
    cr.message = colon > 0 ? e!.substring(colon + 1).trimStart().trimEnd() : null;
    cr.summary = e;
    let fs = frames;
    fs.reverse();
    renumber(fs);
    cr.frames = fs;
    f.setCrash(cr);
  }

  /** `==== title ====` bars: section changes, and the final summary inside one. */
  private bar(l: Line, f: Facts): bool {
    if (l.at(1) != Char.EQ) return false;
    let a = 0;
    while (l.at(a) == Char.EQ) a++;
    let b = l.len;
    while (b > a && l.at(b - 1) == Char.EQ) b--;
    if (b <= a || l.at(a) != Char.SPACE) return false;
    let title = l.trimmed(a, b);
    if (title == "test process starts") {
      let sy = this.sympy;
      if (sy === null) { sy = new SympyReader(); this.sympy = sy; }
      sy.begin();
      return true;
    }
    if (title == "test session starts") { this.seen = true; this.sec = Sec.NONE; return true; }
    if (title == "FAILURES") { this.seen = true; this.sec = Sec.FAILURES; this.cur = null; return true; }
    if (title == "ERRORS") { this.seen = true; this.sec = Sec.ERRORS; this.cur = null; return true; }
    if (title == "PASSES") { this.seen = true; this.sec = Sec.PASSES; this.cur = null; return true; }
    if (title == "short test summary info") { this.seen = true; this.sec = Sec.SUMMARY; this.cur = null; return true; }
    if (title == "warnings summary") { this.seen = true; this.sec = Sec.WARNINGS; this.cur = null; return true; }
    if (this.counts(title, f)) { this.sec = Sec.OTHER; return true; }
    if (!this.seen) return false;
    this.sec = Sec.OTHER;
    this.cur = null;
    return true;
  }

  /** `4 failed, 6 passed, 2 skipped, 1 xfailed, 1 error in 1.02s` (also bare, with -q). */
  private counts(s: string, f: Facts): bool {
    if (s.length == 0) return false;
    let inAt = s.lastIndexOf(" in ");
    if (inAt <= 0) return false;
    let head = s.substring(0, inAt);
    if (!isDigit(head.charCodeAt(0)) && !head.startsWith("no tests ran")) return false;
    let p = countBefore(head, "passed");
    let fl = countBefore(head, "failed");
    let e = countBefore(head, "error");
    if (e < 0) e = countBefore(head, "errors");
    let sk = countBefore(head, "skipped");
    let xf = countBefore(head, "xfailed");
    let any = p >= 0 || fl >= 0 || e >= 0 || sk >= 0 || xf >= 0 || countBefore(head, "deselected") >= 0
      || countBefore(head, "warnings") >= 0 || countBefore(head, "warning") >= 0 || head.startsWith("no tests ran");
    if (!any) return false;
    this.seen = true;
    this.totals = true;
    this.passed = max<i64>(p, 0); this.failed = max<i64>(fl, 0); this.errors = max<i64>(e, 0); this.skipped = max<i64>(sk, 0);
    this.xfailed = max<i64>(xf, 0);
    this.deselected = max<i64>(countBefore(head, "deselected"), 0);
    f.testsFor("pytest");
    return true;
  }

  private finalLine(l: Line, f: Facts): bool {
    if (!isDigit(l.at(0)) && !l.startsWith("no tests ran")) return false;
    // counts() needs its " in " (`2 failed in 0.1s`): a line without one is not made a string.
    if (l.indexOf(" in ") < 0) return false;
    return this.counts(l.trimmed(0), f);
  }

  /** `test_x.py ..F.s   [ 50%]`, `..F [ 37%]`, `test_x.py::test_a PASSED  [  7%]`. */
  private progress(l: Line, f: Facts): bool {
    let n = l.len;
    let fatal = l.indexOf("Fatal Python error: ");
    if (fatal == 0 && !this.seen) {
      this.fatal = l.trimmed(20);
      this.sec = Sec.FATAL;
      this.bareFatal = true;
      return true;
    }
    // `.FINTERNALERROR> Traceback (most recent call last):`: pytest broke down after the marks of the line (a hook
    // raised on a report). Told by the line's end: one compare, no scan.
    let ie = fatal < 0 && n > INTERNAL_TB.length && l.matchAt(INTERNAL_TB, n - INTERNAL_TB.length) ? n - INTERNAL_TB.length : -1;
    if (ie > 0) fatal = ie;
    let cut = false;
    if (fatal < 0 && (n < 6 || l.at(n - 1) != Char.RBRACKET || l.at(n - 2) != Char.PERCENT)) {
      // The run killed mid-line (the host's timeout, a signal): its last progress line has no `[ NN%]` yet. Only
      // after pytest's header or a whole progress line, before any report or count, and not under -v.
      if (!this.seen || this.sec != Sec.NONE || this.totals || this.verbose || !cutProgress(l)) return false;
      cut = true;
    }
    let end = fatal >= 0 ? fatal : cut ? n : l.lastIndexOfByte(Char.LBRACKET);
    if (end < 0) return false;
    let sp = l.indexOfByte(Char.SPACE);
    // A parametrized id holding a blank (`test_x.py::test_y[two words] PASSED`): the id ends at the `]` the result
    // word follows; brackets inside it (`test_y[amp [and] space] PASSED`) do not end it.
    let br = sp > 0 ? l.indexOfByte(Char.LBRACKET) : -1;
    if (br > 0 && br < sp && l.indexOfByte(Char.RBRACKET, br) > sp) {
      let k = idEnd(l, sp);
      if (k > 0 && k < end) sp = k + 1;
    }
    let start = 0;
    if (sp > 0 && sp < end && (l.at(0) != Char.DOT && l.at(0) != Char.F || l.indexOf("::") > 0 && l.indexOf("::") < sp)) {
      let word = l.trimmed(sp, end);
      let id = l.str(0, sp);
      if (id.includes("::")) {
        // -v: one test per line.
        this.verbose = true;
        this.running = word.length == 0 ? id : null;
        if (word.startsWith("PASSED")) { this.pPassed++; this.passHashes = withName(this.passHashes, id); }
        else if (word.startsWith("FAILED")) { this.pFailed++; this.note(this.pFails, id); }
        else if (word.startsWith("ERROR")) { this.pErrors++; this.note(this.pErrs, id); }
        else if (word.startsWith("SKIPPED")) this.pSkipped++;
        this.progressFile = id;
        start = -1;
      } else {
        if (id != this.progressFile) this.loadedFiles = withSkipped(this.loadedFiles, id);
        this.progressFile = id;
        start = sp + 1;
      }
    }
    if (start >= 0) {
      for (let i = start; i < end; i++) {
        let c = l.at(i);
        if (c == Char.DOT) this.pPassed++;
        else if (c == Char.F) { this.pFailed++; this.note(this.pFails, this.progressFile); }
        else if (c == Char.E) { this.pErrors++; this.note(this.pErrs, this.progressFile); }
        else if (c == Char.s) this.pSkipped++;
        else if (c == Char.SPACE || c == Char.x || c == Char.X) continue;
        // Before pytest said a word (its header, a progress line), a dump after other text is not its: unittest -v's
        // `test_x (m.C.test_x) ... Fatal Python error: …`.
        else if (fatal < 0 || !this.seen) return false;
      }
    }
    this.seen = true;
    f.testsFor("pytest");
    if (ie > 0) this.internalLine(l, ie + INTERNAL.length);
    else if (fatal >= 0) {
      this.fatal = l.trimmed(fatal + 20);
      this.sec = Sec.FATAL;
    }
    return true;
  }

  /**
   * -v's `test_x.py::test_y[p q] ` with no result after it: the test running (its result comes when it ends);
   * or with a shell's report of the signal that killed the run printed on it. Not an indented or a bare line.
   */
  private runningLine(l: Line): bool {
    let c = l.at(0);
    if (c == Char.SPACE || c == Char.TAB || c < 0) return false;
    let sep = l.indexOf("::");
    let sp = l.indexOfByte(Char.SPACE);
    if (sep <= 0 || sp < 0 || sp < sep) return false;
    // A parametrized id may hold blanks inside its brackets.
    let br = l.indexOfByte(Char.LBRACKET);
    if (br > 0 && br < sp) {
      let k = l.indexOf("] ", br);
      if (k < 0) return false;
      sp = k + 1;
    }
    let rest = l.trimmed(sp, l.len);
    let sig: string | null = null;
    if (rest.length > 0) {
      sig = signalOfWords(rest);
      if (sig === null) return false;
    }
    this.running = l.str(0, sp);
    this.runningSignal = sig;
    this.seen = true;
    return true;
  }

  private note(to: string[], what: string): void {
    if (to.length < MAX_FAILURES) to.push(what);
  }

  /** A line of pytest-timeout's dump (tmo 1): false at a line not its; its closing rule ends it. */
  private timeoutLine(l: Line): bool {
    let c = l.at(0);
    if (c == Char.PLUS && l.at(1) == Char.PLUS && l.indexOf(" Timeout ") > 0) { this.tmo = 2; return true; }
    if (c == Char.TILDE && l.at(1) == Char.TILDE) { this.tmoMain = l.indexOf(" Stack of MainThread ") > 0; return true; }
    if (l.isBlank()) return true;
    if (c != Char.SPACE) return false;
    let fr = pyFrame(l);
    if (fr !== null && this.tmoMain && this.tmoFrames.length < MAX_FATAL_FRAMES * 4) this.tmoFrames.push(fr);
    return true;
  }

  /** The faulthandler dump: `Current thread 0x... (most recent call first):` and `  File "x.py", line N in fn`. */
  private fatalLine(l: Line): bool {
    let c = l.at(0);
    if (c == Char.C && l.startsWith("Current thread ")) { this.otherThread = false; return true; }
    if (c == Char.T && l.startsWith("Thread 0x")) { this.otherThread = true; return true; }
    if (l.isBlank() || l.startsWith("Extension modules:")
      || l.startsWith("  <no Python frame>") || l.matchAt("...", l.skipSpaces(0))) return true;
    let fr = pyFrame(l);
    if (fr !== null) { if (!this.otherThread && this.fatalFrames.length < MAX_FATAL_FRAMES) this.fatalFrames.push(fr); return true; }
    this.sec = Sec.OTHER;
    return false;
  }

  private header(l: Line): void {
    let a = 0;
    while (l.at(a) == Char.UNDERSCORE) a++;
    let b = l.len;
    while (b > a && l.at(b - 1) == Char.UNDERSCORE) b--;
    let b2 = new Block();
    b2.header = l.trimmed(a, b);
    b2.error = this.sec == Sec.ERRORS || b2.header.startsWith("ERROR ");
    if (this.sec == Sec.PASSES) { this.cur = null; return; }
    this.keep(b2);
  }

  /** b is the block being read; it is kept while fewer than MAX_FAILURES are. */
  private keep(b: Block): void {
    b.ran = b.error ? this.nErr++ : this.nFail++;
    this.cur = b;
    if (this.blocks.length < MAX_FAILURES) this.blocks.push(b);
  }

  private blockLine(l: Line): void {
    let b = this.cur;
    let c = l.at(0);
    if (b === null || b.closed) {
      // --tb=line after a doctest's report: its first 50 characters again (the report has no crash line, so pytest
      // writes `str(report)[:50]`), over as many lines as they hold: no failure's.
      if (this.docCut > 0) { this.docCut -= codePoints(l) + 1; return; }
      // --tb=line: a failure without a header starts at its first line.
      if (l.isBlank()) return;
      let nb = new Block();
      nb.headerless = true;
      nb.error = this.sec == Sec.ERRORS;
      this.keep(nb);
      b = nb;
    }
    if (b.captured) return;
    if (c == Char.MINUS && l.at(1) == Char.MINUS && l.indexOf(" Captured ") > 0) { b.captured = true; return; }
    // pytest-xdist starts a failure's block with the worker's platform (`[gw1] linux -- Python 3.11.7 …`): not the failure's.
    if (c == Char.LBRACKET && l.matchAt("[gw", 0) && l.indexOf("] ") > 0 && l.indexOf(" -- Python ") > 0) return;
    if (c == Char.w && l.startsWith("worker '") && l.indexOf("' crashed while running '") > 0 && l.at(l.len - 1) == Char.APOS) {
      let k = l.indexOf("' crashed while running '");
      b.workerCrash = l.str(k + 25, l.len - 1);
      b.locMsg = l.trimmed(0);
      return;
    }
    if (!l.isBlank() && b.nonBlank++ == 0 && c > Char.SPACE) b.firstText = l.trimmed(0);
    if (b.group || c == Char.SPACE && l.startsWith(GROUP_TRACEBACK)) { this.groupLine(b, l); return; }
    if (b.native || c == Char.T && l.startsWith("Traceback (most recent call last)")) { this.nativeLine(b, l); return; }
    if (c == Char.E && (l.at(1) == Char.SPACE || l.len == 1) || c == Char.SPACE && b.headerless && b.elines.length > 0) exampleLine(b, l);
    if (c == Char.E && (l.at(1) == Char.SPACE || l.len == 1)) {
      // Kept with their indentation (a SyntaxError's caret under its column, a diff's nesting): the
      // common indent of the block's `E` lines goes at the end (dedent).
      if (b.elines.length < 6 && l.skipSpaces(1) < l.len) {
        let e = l.len;
        while (e > 1 && isSpaceByte(l.at(e - 1))) e--;
        b.elines.push(l.str(1, e));
      }
      return;
    }
    // --tb=line prints the `E` line's further lines indented, without their `E` (assert's `+  where …`, a diff,
    // Hypothesis' `Falsifying example: …`): the message's, as under the other styles.
    if (c == Char.SPACE && b.headerless && b.elines.length > 0) {
      if (b.elines.length < 6 && l.skipSpaces(0) < l.len) {
        let e = l.len;
        while (e > 1 && isSpaceByte(l.at(e - 1))) e--;
        b.elines.push(l.str(1, e));
      }
      return;
    }
    // A failing doctest: `Expected:` and `Got:` at column 0, each value indented under it; or, when both are longer
    // than two lines (pytest's --doctest-report default, udiff), `Differences (unified diff with -expected +actual):`
    // and the diff indented under it (`ndiff` with --doctest-report ndiff).
    if (c == Char.SPACE && b.docSection > 0) {
      let d = b.doc!;
      if (b.docSection == 3) d.diffLine(l, l.skipSpaces(0));
      else d.add(b.docSection == 2, l.trimmed(0));
      return;
    }
    if (c == Char.E && l.len == 9 && l.startsWith("Expected:")) { b.docSection = 1; if (b.doc === null) b.doc = new DocOutput(); return; }
    if (c == Char.G && l.len == 4 && l.startsWith("Got:")) { b.docSection = 2; if (b.doc === null) b.doc = new DocOutput(); return; }
    if (c == Char.D && l.startsWith("Differences (") && (l.indexOf("(unified diff ") > 0 || l.indexOf("(ndiff ") > 0)) {
      b.docSection = 3;
      if (b.doc === null) b.doc = new DocOutput();
      return;
    }
    b.docSection = 0;
    // A chained exception: the failure is the last one; the earlier one stays as its cause.
    let how = chainWord(l);
    if (how !== null) {
      if (b.elines.length > 0) {
        b.chainedFrom = how + b.elines[0].trimStart().trimEnd();
        b.elines = [];
      }
      return;
    }
    // `test_calc.py:14: AssertionError`, `test_mul.py:1: in <module>`: a location line at column 0; a fixture lookup's
    // (`fixture 'x' not found`) ends with the test's own place alone, `/w/test_x.py:16`.
    if (c == Char.SPACE || c < 0) return;
    let colon = l.indexOf(":");
    if (colon <= 0) return;
    let n = l.readInt(colon + 1);
    if (n < 0) return;
    if (l.at(l.end) != Char.COLON && !(l.end == l.len && colon > 3 && l.matchAt(".py", colon - 3))) return;
    let file = normPath(l.str(0, colon));
    if (file.includes(" ")) return;
    b.anyFile = file; b.anyLine = <i32>n;
    if (b.firstFile === null) b.firstFile = file;
    if (isUserFile(file)) { b.userFile = file; b.userLine = <i32>n; }
    if (b.headerless) this.closeHeaderless(b, l);
  }

  /** --tb=line: the location line `file.py:16: message` ends the block. */
  private closeHeaderless(b: Block, l: Line): void {
    b.closed = true;
    let m = l.trimmed(l.end + 1);
    if (m.length > 0) b.locMsg = m;
    if (m == "DocTestFailure" || m == "UnexpectedException") this.docCut = DOC_CUT;
  }

  /**
   * An exception group's traceback, as pytest prints an ExceptionGroup raised in its own hooks (unraisable-exception
   * warnings made errors by -W error): `  + Exception Group Traceback (most recent call last):`, the group's frames and
   * its line (`  | ExceptionGroup: multiple unraisable exception warnings (36 sub-exceptions)`) behind `  | `, then each
   * sub-exception's traceback one level deeper (`    | `) between `+-+---- 1 ----` rules. The group's own lines read as
   * a native traceback (its line the message); a deeper one only places the failure, at its first frame in the project,
   * when the group's frames had none.
   */
  private groupLine(b: Block, l: Line): void {
    if (!b.group) {
      b.group = true; b.native = true;
      b.userFile = null; b.userLine = -1; b.anyFile = null; b.anyLine = -1;
      b.exc = []; b.excOpen = false; b.excBlank = false;
      return;
    }
    let p = l.skipSpaces(0);
    if (p >= l.len) return;
    let ch = l.at(p);
    if (ch == Char.PLUS) return;
    if (ch != Char.PIPE || p < 2) { b.group = false; return; }
    let off = p + 2 <= l.len ? p + 2 : l.len;
    let v = this.view;
    v.set(l.ptr + <usize>off, l.len - off);
    if (p == 2) { this.nativeLine(b, v); return; }
    if (b.userFile !== null) return;
    let fr = pyFrame(v);
    if (fr !== null && fr.file !== null && fr.user) { b.userFile = fr.file; b.userLine = fr.line; }
  }

  /** A --tb=native block: `Traceback (most recent call last):`, `  File "x.py", line 3, in f`, `ValueError: ..`. */
  private nativeLine(b: Block, l: Line): void {
    let c = l.at(0);
    if (c == Char.T && l.startsWith("Traceback (most recent call last)")) {
      // A chained exception's traceback: the last one is the failure's.
      b.native = true;
      b.userFile = null; b.userLine = -1; b.anyFile = null; b.anyLine = -1;
      b.exc = []; b.excOpen = false; b.excBlank = false;
      return;
    }
    if (l.isBlank()) { if (b.excOpen) b.excBlank = true; return; }
    if (c == Char.SPACE) {
      if (b.excOpen) { if (b.exc.length < 4) b.exc.push(l.trimmed(0)); return; }
      let fr = pyFrame(l);
      if (fr === null || fr.file === null) return;
      b.anyFile = fr.file; b.anyLine = fr.line;
      if (fr.user) { b.userFile = fr.file; b.userLine = fr.line; }
      return;
    }
    if (b.excBlank) { b.excOpen = false; b.excBlank = false; }
    // A doctest's example raised (`UNEXPECTED EXCEPTION: …` and its traceback): its location line at column 0
    // (`/w/units.py:25: UnexpectedException`) follows the exception, no line of it; under --tb=line it ends the block.
    if (c != Char.SPACE && b.exc.length > 0 && l.at(l.len - 1) != Char.COLON) {
      let k = locationEnd(l);
      if (k > 0) {
        b.excOpen = false;
        // The example's own frame is `File "<doctest mod.f[8]>", line 1`: the docstring's line in the file places it.
        let uf = b.userFile;
        if (uf === null || uf!.startsWith("<doctest ")) {
          let n = l.readInt(k + 1);
          b.userFile = normPath(l.str(0, k)); b.userLine = <i32>n;
        }
        if (b.headerless) { l.readInt(k + 1); this.closeHeaderless(b, l); }
        return;
      }
    }
    let how = chainWord(l);
    if (how !== null) {
      // The failure is the last traceback's exception; this one stays as its cause.
      if (b.exc.length > 0) b.chainedFrom = how! + b.exc[0];
      b.excOpen = false;
      return;
    }
    if (b.exc.length == 0 || b.excOpen) { if (b.exc.length < 4) b.exc.push(l.trimmed(0)); b.excOpen = true; }
  }

  private summaryLine(l: Line): bool {
    let kind: string | null = null;
    let p = 0;
    if (l.startsWith("FAILED ")) { kind = "FAILED"; p = 7; }
    else if (l.startsWith("ERROR ")) { kind = "ERROR"; p = 6; }
    else if (l.startsWith("PASSED ") || l.startsWith("SKIPPED ") || l.startsWith("XFAIL ") || l.startsWith("XPASS ")) return true;
    // pytest 9's subtest lines (`SUBFAILED(n=8) a.py::TestX::test_y`, `SUBPASSED[msg] …`): their reports were read.
    else if (l.startsWith("SUB") && (l.startsWith("SUBFAILED") || l.startsWith("SUBPASSED") || l.startsWith("SUBSKIPPED"))) {
      let c = l.at(l.indexOfByte(Char.D) + 1);
      return c == Char.LPAREN || c == Char.LBRACKET || c == Char.SPACE;
    }
    if (kind === null) return false;
    let n = kind == "FAILED" ? this.nSumFailed++ : this.nSumErr++;
    if (n >= MAX_SUMMARY) return true;
    // `FAILED a.py::t[x - y] - msg`: a parametrized id may hold ` - ` itself; the message's follows its `]`.
    let dash = l.indexOf(" - ", p);
    let br = l.indexOfByte(Char.LBRACKET, p);
    if (br >= 0 && br < dash) { dash = l.indexOf("] - ", br); if (dash > 0) dash++; }
    let id = l.trimmed(p, dash > 0 ? dash : l.len);
    let sep = id.indexOf("::");
    this.sumKind.push(kind!);
    this.sumId.push(id);
    this.sumDotted.push(sep >= 0 ? dottedPath(id.substring(sep + 2)) : "");
    this.sumMsg.push(dash > 0 ? l.trimmed(dash + 3) : "");
    return true;
  }

  finish(f: Facts): void {
    let sy = this.sympy;
    if (sy !== null) sy.finish(f);
    this.conftestCrash(f);
    this.pyCrash(f, this.ieExc, this.ieFrames);
    if (this.kbState > 0) this.pyCrash(f, "KeyboardInterrupt", this.kbFrames);
    if (this.bareFatal && !this.seen) {
      // A program's own dump, no test run: the signal and the dump's stack are the crash.
      if (!pytestFrames(this.fatalFrames)) {
        crashMidSuite(f, signalOfWords(this.fatal!), "Fatal Python error: " + this.fatal!);
        this.dumpFrames(f);
        return;
      }
      this.seen = true;
      f.testsFor("pytest");
    }
    // pytest-timeout's dump under -q (no header; its progress line, cut before `[ NN%]`, was no line of pytest's):
    // the main thread's stack in pytest's own frames says the run was pytest's.
    if (!this.seen && this.tmo > 0 && pytestFrames(this.tmoFrames)) { this.seen = true; f.testsFor("pytest"); }
    if (!this.seen) return;
    let t = f.testsFor("pytest");
    if (t.runner != "pytest") return;
    let used = new Array<bool>(this.sumId.length);
    // The progress names the k-th failure (error) block when it counts as many as there are blocks.
    let fails = this.pFails.length == this.nFail ? this.pFails : null;
    let errs = this.pErrs.length == this.nErr ? this.pErrs : null;
    let pre = this.summaryOfBlocks(used);
    for (let i = 0; i < this.blocks.length; i++) {
      let b = this.blocks[i];
      let ran: string | null = null;
      if (b.error) { if (errs !== null) ran = errs[b.ran]; }
      else { if (fails !== null) ran = fails[b.ran]; }
      let name = headerName(b);
      // `[doctest] units.miles_to_km`: the node id is `units.py::units.miles_to_km` (the dots stay).
      let doctest = name.startsWith("[doctest] ");
      if (doctest) name = name.substring(10);
      // A subtest's report (pytest 9's, of unittest's subTest or the subtests fixture): `TestX.test_y (n=8)`,
      // `test_y [msg] (i=1)`, the test's header and the subtest's description after a blank. Its test is the
      // failure's name, the description its subtest (two of one test are two failures, as unittest's).
      let sub: string | null = null;
      if (!doctest && !b.header.startsWith("ERROR collecting ")) {
        let s = subtestAt(name);
        if (s > 0) { sub = name.substring(s + 1); name = name.substring(0, s); }
      }
      let k = pre !== null ? pre[i] : b.headerless ? this.nextSummary(b.error ? "ERROR" : "FAILED", used) : this.matchSummary(name, used);
      if (k >= 0) { used[k] = true; name = this.sumId[k]; }
      else if (b.headerless) {
        name = ran !== null ? ran! : (b.anyFile !== null ? b.anyFile! : "(unnamed test)");
      } else if (!b.header.startsWith("ERROR collecting ") && !beforeParams(name).includes("::")) {
        let file: string | null = null;
        if (ran !== null) { let sep = ran!.indexOf("::"); file = sep >= 0 ? ran!.substring(0, sep) : ran; }
        else if (b.anyFile !== null) file = this.testFile(b);
        if (file !== null && file!.length > 0) name = file! + "::" + (doctest ? name : classPath(name));
      }
      // A test that failed (or errored at setup: `fixture 'x' not found`) and then errored at teardown: its failure is
      // the first report's; the teardown error follows from it or stands beside it.
      let teardown = b.header.startsWith("ERROR at teardown of ");
      let had = teardown && hasFailure(t, name);
      let tf = sub !== null && hasFailure(t, name) ? newFailure(t, name) : failureNamed(t, name);
      if (sub !== null) tf.subtest = sub;
      if (had && tf.message.length > 0) continue;
      dedent(b.elines);
      // `E     File "versions.py", line 3` over a SyntaxError: the failure is where the bad line is, not at
      // the import that read it.
      syntaxAt(b);
      if (b.chainedFrom !== null && b.elines.length > 0) {
        let e = b.elines.length > 3 ? b.elines.slice(0, 3) : b.elines;
        e.push(b.chainedFrom!);
        b.elines = e;
      } else if (b.chainedFrom !== null && b.native && b.exc.length > 0) {
        let e = b.exc.length > 3 ? b.exc.slice(0, 3) : b.exc;
        e.push(b.chainedFrom!);
        b.exc = e;
      }
      tf.message = b.elines.length > 0 ? withExample(joinLines(b.elines, 4), b.example)
        : b.exc.length > 0 ? joinLines(b.exc, 4)
        : b.doc !== null && b.doc!.any() ? "doctest output differs from the docstring"
        : b.locMsg !== null ? b.locMsg!
        // The short summary cuts its message to the line (`[XPASS(strict)] name...`, `Failed: test_x does not supp...`):
        // the block's own first line, when it has one, is whole.
        : k >= 0 && this.sumMsg[k].length > 0 && !(b.firstText !== null && this.sumMsg[k].endsWith("...")) ? this.sumMsg[k]
        : b.firstText !== null ? b.firstText! : "";
      let doc = b.doc;
      if (doc !== null) {
        let e = doc.firstExpected();
        if (e !== null) tf.expected = e;
        let g = doc.firstGot();
        if (g !== null) tf.actual = g;
      }
      // --tb=line's one location is the innermost frame's: one of the standard library's or a package's (re's
      // parser raising) is not the failure's place, and the line names no other.
      if (b.userFile !== null) { tf.file = b.userFile; tf.line = b.userLine; }
      else if (b.anyFile !== null && !b.headerless) { tf.file = b.anyFile; tf.line = b.anyLine; }
      if (b.elines.length > 0) assertParts(tf, b.elines[0]);
      else if (b.exc.length > 0) assertParts(tf, b.exc[0]);
      else if (b.locMsg !== null) assertParts(tf, b.locMsg!);
    }
    for (let k = 0; k < this.sumId.length; k++) {
      if (used[k]) continue;
      let tf = failureNamed(t, this.sumId[k]);
      if (tf.message.length == 0) tf.message = this.sumMsg[k];
    }
    if (this.fatal !== null) {
      // Crashed mid-suite: the running test is the innermost test function of the dump.
      let fr: Frame | null = null;
      let user: Frame | null = null;
      for (let i = 0; i < this.fatalFrames.length; i++) {
        let x = this.fatalFrames[i];
        if (user === null && x.user) user = x;
        if (fr === null && x.fn !== null && x.fn!.startsWith("test")) fr = x;
      }
      // -v named the test on the line the dump began on (its node id holds its class; the dump's frame does not).
      let name = this.running !== null ? this.running!
        : fr !== null ? fr.file! + "::" + fr.fn! : (this.progressFile.length > 0 ? this.progressFile : "(crashed test)");
      // The run went on to its totals (pytest-xdist replaced the worker that died): xdist reported that test's failure.
      if (!this.totals) {
        let tf = failureNamed(t, name);
        tf.message = "Fatal Python error: " + this.fatal!;
        if (user !== null) { tf.file = user.file; tf.line = user.line; }
      }
      crashMidSuite(f, signalOfWords(this.fatal!), "Fatal Python error: " + this.fatal!);
      this.dumpFrames(f);
      this.pFailed++;
    }
    // pytest-timeout ended the run (its thread method): the test in the main thread's stack ran out of time.
    if (this.tmo > 0 && !this.totals && this.tmoFrames.length > 0) {
      let fs = this.tmoFrames;
      let test: Frame | null = null;
      let user: Frame | null = null;
      for (let i = fs.length - 1; i >= 0; i--) {
        let x = fs[i];
        if (user === null && x.user) user = x;
        if (test === null && x.fn !== null && x.fn!.startsWith("test")) test = x;
      }
      let name = this.running !== null ? this.running! : test !== null ? test.file! + "::" + test.fn! : this.progressFile;
      if (name.length > 0 && !hasFailure(t, name)) {
        let tf = failureNamed(t, name);
        tf.message = "Timeout: pytest-timeout stopped the run in this test";
        if (user !== null) { tf.file = user.file; tf.line = user.line; }
        this.pFailed++;
        this.running = null;
      }
    }
    // -v: killed by a signal while a test ran (its id printed, no result, no dump, no summary): that test failed.
    let died = false;
    let crashed = this.running;
    if (this.fatal === null && !this.totals && crashed !== null) {
      let sig = this.runningSignal !== null ? this.runningSignal : runSignal(f);
      if (sig !== null && !hasFailure(t, crashed!)) {
        let tf = failureNamed(t, crashed!);
        // Killed by the host's timeout: the test that was running when the time ran out.
        tf.message = hostTimeoutKill(f, sig) ? "timed out while running " + crashed!
          : "the test process died (" + sig! + ") while running " + crashed!;
        this.pFailed++;
        died = true;
        crashMidSuite(f, sig, "the test process died while running " + crashed!);
      }
    }
    t.rerunFailed = this.rerunFailed;
    // Only a run stopped before its end needs it (a complete run's counts say a file that loaded now passed or failed).
    if (this.kbState > 0 || !this.totals) t.loadedSet = this.loadedFiles;
    if (this.totals) {
      t.passed = this.passed; t.failed = this.failed; t.errors = this.errors; t.skipped = this.skipped; t.totals = true;
      t.xfailed = this.xfailed; t.deselected = this.deselected;
    } else {
      t.passed = this.pPassed; t.failed = this.pFailed; t.errors = this.pErrors; t.skipped = this.pSkipped;
      // -qq prints no totals line: a collection error (no progress letter) is counted by its summary's `ERROR` line.
      if (this.collectionStopped && <i64>this.nSumErr > t.errors) t.errors = this.nSumErr;
      // -v named the tests that failed before the run died; their reports (FAILURES) were never printed.
      if (this.verbose) { lostReports(t, this.pFails); lostReports(t, this.pErrs); }
    }
    // Died mid-run (Fatal Python error), stopped by a collection error before the first test or by -x after
    // a failure: the collected tests it never reached did not run.
    if ((this.fatal !== null || died || this.collectionStopped || this.maxfailStopped || (!this.totals && hostTimeoutKill(f, null))) && this.collected >= 0) t.notRun = max<i64>(this.collected - t.passed - t.failed - t.errors - t.skipped, 0);
    // -v names every test it runs: with each one counted passed named, a test failing before and in neither
    // list did not run (deselected, renamed, removed).
    let hs = this.passHashes;
    if (this.verbose && hs !== null && <i64>hs.length == t.passed) t.passedSet = hs;
    // Interrupted by a collection error, pytest ran no test: its list of those it ran is empty, though without
    // -v it prints no collected count (a test that failed before, in a file that loaded, did not run).
    if (this.collectionStopped && t.passed == 0 && t.failed == 0 && t.skipped == 0 && t.passedSet === null) t.passedSet = [];
  }

  /** The dump's frames (innermost first) as the stack of the signal crash it printed before the process died. */
  private dumpFrames(f: Facts): void {
    let c = f.crash;
    if (c === null || c.tool != "signal" || c.frames.length > 0) return;
    let fs = this.fatalFrames.length > MAX_FRAMES ? this.fatalFrames.slice(0, MAX_FRAMES) : this.fatalFrames.slice(0);
    renumber(fs);
    c.frames = fs;
  }

  /** The summary id whose test part is name (`a.py::TestX::test_y[p]` for header `TestX.test_y[p]`). */
  private matchSummary(name: string, used: bool[]): i32 {
    for (let k = 0; k < this.sumId.length; k++) {
      if (used[k]) continue;
      if (this.sumId[k] == name) return k;
      let d = this.sumDotted[k];
      if (d.length > 0 && d == name) return k;
    }
    return -1;
  }

  /**
   * Each block's short-summary entry (-1: none), its used[] set, when no block is header-less: by its header, and a
   * header that names no entry (a plugin's item whose reportinfo() titles its report: docopt's `usecase: testcases(3)`
   * for `testcases.docopt::testcases(3)`) takes the next entry of its kind no header named, in order (the report and
   * the summary list failures in the same order), when such headers and such entries are as many of each kind.
   * null when some block is header-less: those take the next entry as they come (nextSummary).
   */
  private summaryOfBlocks(used: bool[]): Array<i32> | null {
    let bs = this.blocks;
    for (let i = 0; i < bs.length; i++) if (bs[i].headerless) return null;
    let ks = new Array<i32>(bs.length);
    let lostF = 0; let lostE = 0;
    for (let i = 0; i < bs.length; i++) {
      let name = headerName(bs[i]);
      if (name.startsWith("[doctest] ")) name = name.substring(10);
      let k = this.matchSummary(name, used);
      ks[i] = k;
      if (k >= 0) used[k] = true;
      else if (bs[i].error) lostE++; else lostF++;
    }
    if (lostF + lostE == 0) return ks;
    let freeF = 0; let freeE = 0;
    for (let k = 0; k < this.sumId.length; k++) if (!used[k]) { if (this.sumKind[k] == "ERROR") freeE++; else freeF++; }
    for (let i = 0; i < bs.length; i++) {
      if (ks[i] >= 0) continue;
      let e = bs[i].error;
      if (e ? lostE != freeE : lostF != freeF) continue;
      let k = this.nextSummary(e ? "ERROR" : "FAILED", used);
      ks[i] = k;
      if (k >= 0) used[k] = true;
    }
    return ks;
  }

  /** The first unused summary entry of kind: a header-less block's, in run order. */
  private nextSummary(kind: string, used: bool[]): i32 {
    for (let k = 0; k < this.sumId.length; k++) if (!used[k] && this.sumKind[k] == kind) return k;
    return -1;
  }

  private testFile(b: Block): string {
    return b.firstFile !== null ? b.firstFile! : "";
  }
}

/** A block's test as its header names it: `ERROR collecting a.py` → `a.py`, `ERROR at setup of test_x` → `test_x`. */
function headerName(b: Block): string {
  let name = b.workerCrash !== null ? b.workerCrash! : b.header;
  if (name.startsWith("ERROR collecting ")) return name.substring(17);
  if (name.startsWith("ERROR at setup of ")) return name.substring(18);
  if (name.startsWith("ERROR at teardown of ")) return name.substring(21);
  return name;
}

/**
 * `_ test_x[long-id] _`: the header of a test whose name leaves no room on the line for more underscores
 * (pytest pads it to the terminal width with at least one on each side, and one more on the right when the
 * width left is odd: `_ title __`). Not the `_ _ _ _` line between a traceback's entries.
 */
function isNarrowHeader(l: Line): bool {
  let n = l.len;
  if (n > 5 && l.at(n - 1) == Char.UNDERSCORE && l.at(n - 2) == Char.UNDERSCORE && l.at(n - 3) == Char.SPACE) n--;
  if (n < 5 || l.at(1) != Char.SPACE || l.at(n - 1) != Char.UNDERSCORE || l.at(n - 2) != Char.SPACE) return false;
  for (let i = 2; i < n - 2; i++) {
    let c = l.at(i);
    if (c != Char.UNDERSCORE && c != Char.SPACE) return true;
  }
  return false;
}

/**
 * A progress line the run was killed in the middle of: result marks (`..F.sxX`), after `file.py ` unless -q,
 * and no `[ NN%]` yet.
 */
function cutProgress(l: Line): bool {
  let n = l.len;
  while (n > 0 && l.at(n - 1) == Char.SPACE) n--;
  let k = n;
  while (k > 0 && isMark(l.at(k - 1))) k--;
  if (k == n) return false;
  if (k == 0) return true;
  if (l.at(k - 1) != Char.SPACE || k < 5 || !l.matchAt(".py ", k - 4)) return false;
  for (let i = 0; i < k - 1; i++) if (l.at(i) == Char.SPACE) return false;
  return true;
}

function isMark(c: i32): bool {
  return c == Char.DOT || c == Char.F || c == Char.E || c == Char.s || c == Char.x || c == Char.X;
}

/**
 * Where a header's subtest description starts: the blank before `(` or `[` outside the test's own brackets
 * (`test_x[a b] (n=1)`: the id's parameters may hold blanks), the name ending with `)` or `]`; -1 when none.
 */
function subtestAt(name: string): i32 {
  let n = name.length;
  if (n < 4) return -1;
  let last = name.charCodeAt(n - 1);
  if (last != Char.RPAREN && last != Char.RBRACKET) return -1;
  let depth = 0;
  for (let i = 0; i < n - 1; i++) {
    let c = name.charCodeAt(i);
    if (c == Char.LBRACKET) depth++;
    else if (c == Char.RBRACKET) depth--;
    else if (c == Char.SPACE && depth == 0) {
      let d = name.charCodeAt(i + 1);
      return i > 0 && (d == Char.LPAREN || d == Char.LBRACKET) ? i : -1;
    }
  }
  return -1;
}

/** A failure of its own named name (another subtest of a test that failed already). */
function newFailure(t: Tests, name: string): TestFailure {
  let tf = new TestFailure();
  tf.name = name;
  if (t.failures.length < MAX_FAILURES) t.failures.push(tf);
  return tf;
}

/** A node id's part before its parameters (`test_x` of `test_x[a::b]`). */
function beforeParams(name: string): string {
  let br = name.indexOf("[");
  return br < 0 ? name : name.substring(0, br);
}

/** `TestX::test_y[a::b]` as a header names it, `TestX.test_y[a::b]` (the parameters stay as they are). */
function dottedPath(id: string): string {
  let br = id.indexOf("[");
  if (br < 0) return id.replaceAll("::", ".");
  return id.substring(0, br).replaceAll("::", ".") + id.substring(br);
}

/** A header's `TestX.test_y[p.1]` as the node id's `TestX::test_y[p.1]` (dots in the parameters stay). */
function classPath(name: string): string {
  let br = name.indexOf("[");
  if (br < 0) return name.replaceAll(".", "::");
  return name.substring(0, br).replaceAll(".", "::") + name.substring(br);
}

/** An `E` line `File "x.py", line 3` (a SyntaxError's own location) in the user's code: the block's location. */
function syntaxAt(b: Block): void {
  for (let i = 0; i < b.elines.length; i++) {
    let s = b.elines[i].trimStart().trimEnd();
    if (!s.startsWith("File \"")) continue;
    let q = s.indexOf("\"", 6);
    if (q < 0 || !s.startsWith("\", line ", q)) continue;
    let k = q + 8;
    let e = k;
    while (e < s.length && isDigit(s.charCodeAt(e))) e++;
    if (e == k) continue;
    let file = normPath(s.substring(6, q));
    if (!isUserFile(file)) continue;
    b.userFile = file;
    b.userLine = I32.parseInt(s.substring(k, e));
    // The place is the failure's own now; the message leads with what is wrong (`SyntaxError: expected ':'`,
    // printed last, under the bad line and its caret), as a failure's first line is all a group shows.
    let rest = new Array<string>(0);
    let last = b.elines[b.elines.length - 1];
    let lead = i < b.elines.length - 1 && last.length > 0 && last.charCodeAt(0) != Char.SPACE;
    if (lead) rest.push(last);
    for (let j = 0; j < b.elines.length - (lead ? 1 : 0); j++) if (j != i) rest.push(b.elines[j]);
    b.elines = rest;
    return;
  }
}

/** -v's `id FAILED` / `id ERROR` tests of a run that died before its report: failures with no report of their own. */
function lostReports(t: Tests, ids: string[]): void {
  for (let i = 0; i < ids.length; i++) {
    let id = ids[i];
    if (!id.includes("::") || hasFailure(t, id)) continue;
    failureNamed(t, id).message = "failed (the run died before pytest printed its report)";
  }
}

function isSpaceByte(c: i32): bool { return c == Char.SPACE || c == Char.TAB; }

/** `assert 2 == 3`: actual on the left, expected on the right. */
function assertParts(tf: TestFailure, e: string): void {
  let s = e;
  if (s.startsWith("AssertionError: ")) s = s.substring(16);
  if (!s.startsWith("assert ")) return;
  let eq = s.indexOf(" == ");
  if (eq < 0) return;
  tf.actual = s.substring(7, eq);
  tf.expected = s.substring(eq + 4);
}

/** Whether a faulthandler dump ran inside pytest (a frame of pytest's own package). */
function pytestFrames(fs: Frame[]): bool {
  for (let i = 0; i < fs.length; i++) {
    let x = fs[i].file;
    if (x !== null && x!.includes("/_pytest/")) return true;
  }
  return false;
}

/** Hypothesis' falsifying example among a block's `E` lines (or --tb=line's indented ones): its first lines kept. */
function exampleLine(b: Block, l: Line): void {
  let p = l.skipSpaces(1);
  if (p >= l.len) return;
  if (l.matchAt("Falsifying example: ", p)) { b.example = [l.trimmed(p)]; return; }
  let ex = b.example;
  if (ex === null || ex.length >= 4 || ex[ex.length - 1] == ")") return;
  let t = l.trimmed(p);
  ex.push(t == ")" ? t : "  " + t);
}

/** The message, with the falsifying example after it when the message's first lines left it out. */
function withExample(m: string, ex: string[] | null): string {
  if (ex === null || m.includes(ex[0])) return m;
  return m + "\n" + ex.join("\n");
}

/** Characters (code points) of a line of UTF-8: its bytes less the continuation ones. */
function codePoints(l: Line): i32 {
  let n = 0;
  for (let i = 0; i < l.len; i++) if ((l.at(i) & 0xC0) != 0x80) n++;
  return n;
}

/** A location line's colon before its line number (`x.py:25: …`, the number then a colon), or -1. */
function locationEnd(l: Line): i32 {
  let colon = l.indexOf(".py:");
  if (colon <= 0) return textDocPlace(l);
  let sp = l.indexOfByte(Char.SPACE);
  if (sp >= 0 && sp < colon) return -1;
  colon += 3;
  let n = l.readInt(colon + 1);
  if (n < 0 || l.at(l.end) != Char.COLON) return -1;
  return colon;
}

/**
 * A text file's doctest (--doctest-glob: `/w/docs/usage.rst:924: UnexpectedException`, `README.txt:12: DocTestFailure`):
 * its location line names the doctest's own exception, whatever the file; the colon after the path, or -1.
 */
function textDocPlace(l: Line): i32 {
  let colon = l.indexOfByte(Char.COLON);
  if (colon <= 0) return -1;
  let sp = l.indexOfByte(Char.SPACE);
  if (sp >= 0 && sp < colon) return -1;
  if (l.readInt(colon + 1) < 0 || l.at(l.end) != Char.COLON || l.at(l.end + 1) != Char.SPACE) return -1;
  let m = l.end + 2;
  let n = l.len - m;
  if (!(n == 19 && l.matchAt("UnexpectedException", m)) && !(n == 14 && l.matchAt("DocTestFailure", m))) return -1;
  return colon;
}

/**
 * The `]` that ends a parametrized id holding blanks, in a -v line (`test_y[amp [and] space] PASSED`): the first `] `
 * from `from` that a result word follows; the first `] ` when none does (a line cut before its word). -1 when none.
 */
function idEnd(l: Line, from: i32): i32 {
  let first = l.indexOf("] ", from);
  for (let k = first; k > 0; k = l.indexOf("] ", k + 1)) {
    let w = k + 2;
    if (l.matchAt("PASSED", w) || l.matchAt("FAILED", w) || l.matchAt("ERROR", w) || l.matchAt("SKIPPED", w) ||
      l.matchAt("XFAIL", w) || l.matchAt("XPASS", w)) return k;
  }
  return first;
}

/** `test_x.py:12`: a module's place, heading a warning raised while it was imported. */
function modulePlace(l: Line): bool {
  let i = l.len - 1;
  while (i > 0 && isDigit(l.at(i))) i--;
  return i < l.len - 1 && l.at(i) == Char.COLON && i > 3 && l.matchAt(".py", i - 3);
}
