// unittest: `-v` result lines (`test_x (mod.Class.test_x) ... ok`), the quiet progress line (`.s.EF`),
// `FAIL:` / `ERROR:` blocks with their tracebacks, `Ran N tests in Xs` and `FAILED (failures=2, errors=1)`.
// An error in a class or module fixture (`ERROR: setUpClass (mod.Class)`) is in `errors=` but not among
// the tests `Ran` counts: passed = Ran − failures − (errors − fixture errors) − skipped. Under -v every
// `... ok` test is hashed by its name (Tests.passedSet) when they are as many as that count. A test with a
// docstring has it on a line of its own, the first line of it, after its name: `test_x (mod.C.test_x)` then
// `What it checks. ... ok` under -v; `FAIL: test_x (mod.C.test_x)` then `What it checks.` in its block's head.
import { Char } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts, TestFailure, Frame, Crash, MAX_FAILURES, MAX_FRAMES } from "../../model";
import { Parser } from "../../parser";
import { failureNamed, hasFailure, pyFrame, joinLines, foreignLine, runSignal, crashMidSuite, signalOfWords, chainWord, exceptionMessage } from "./common";
import { renumber } from "../runtime-common";
import { withName, nameHash, MAX_PASSED_SET } from "../../util/name-hash";
import { DoctestReport } from "./doctest-report";

const enum St { NONE, HEAD, BODY, EXC, DOC, TRACE }

/** Lines of an exception's message kept: endBlock takes at most 4 before the first blank one. */
const MAX_MSG_LINES = 8;

export class UnittestParser extends Parser {
  seen: bool = false;
  st: St = St.NONE;
  cur: TestFailure | null = null;
  curError: bool = false;
  msg: string[] = [];
  ran: i64 = -1;
  failures: i64 = 0; errors: i64 = 0; skipped: i64 = 0; expectedFailures: i64 = 0;
  nFail: i64 = 0; nErr: i64 = 0; nSkip: i64 = 0;
  /** ERROR blocks of setUpClass / tearDownClass / setUpModule / tearDownModule: not tests that ran. */
  fixtureErrors: i64 = 0;
  /** Tests with a FAIL/ERROR block, and how many blocks repeated one (its other failing subtests). */
  failingNames: Set<string> = new Set<string>();
  repeats: i64 = 0;
  verdictSeen: bool = false;
  /** -v's `name (id) ... ok` tests hashed by id (Tests.passedSet); null past MAX_PASSED_SET. `verbose`: a result line was read. */
  passHashes: Array<u32> | null = [];
  verbose: bool = false;
  /** The modules and classes of the tests hashed (`a`, `a.b`, `a.b.C` of `a.b.C.test_x`), listed too: a module that did not import is named by itself. */
  units: Set<string> = new Set<string>();
  /** A line after the FAIL/ERROR line of the block's head was passed over (the test's docstring line). */
  headDoc: bool = false;
  /** The docstring line's number (Line.no): a line's bytes may sit where the line before's did (the splitter's carry). */
  docAt: i32 = -1;
  /** The line before, when it was `test_x (mod.C.test_x)` alone: a test whose docstring line holds its result. */
  described: string | null = null;
  /**
   * That name line's text, held back from the tail (once -v's result lines were seen): its result comes on the next
   * line; when the next is not one, it is let go (Facts.released) before it.
   */
  heldName: string | null = null;
  /**
   * The test whose `... ` line has no result yet (-v): the one running if the process dies before it (a signal):
   * that test failed, by the crash, as gtest's test in a binary that dies is (gtest.ts); the tests after it did not run.
   */
  running: string | null = null;
  /** -v: the test whose ` ... ` was followed by what it printed, its result not yet read (loneResult). */
  awaiting: string | null = null;
  /**
   * -v's result line that faulthandler's dump began on (`test_x (m.C.test_x) ... Fatal Python error: Segmentation
   * fault`): the test running died; the dump's frames (`Current thread 0x…`, `  File "x.py", line 9 in f`) follow.
   */
  fatal: string | null = null;
  inDump: bool = false;
  otherThread: bool = false;
  dumpFrames: Array<Frame> = [];
  /** -v's `... FAIL` / `... ERROR` tests: a run cut before its blocks (a crash) has no other word of them. */
  vFailed: Array<string> = [];
  /**
   * A traceback after the run's verdict (`OK`, `FAILED (…)`) is no test's: unittest printed its report and re-raised
   * what ended the run (a KeyboardInterrupt: Ctrl-C, a SIGINT the test sent): the program's crash. Its frames.
   */
  traceFrames: Array<Frame> = [];
  /** -v: the test whose result line that traceback began on (`test_x (…) ... Traceback (most recent call last):`). */
  traceTest: string | null = null;
  traceCrash: Crash | null = null;
  /** A chained exception's earlier one (`The above exception was the direct cause`, `During handling`): its line. */
  chainedFrom: string | null = null;
  /** The block's traceback is an exception group's (`  + Exception Group Traceback`): its own lines are `  | …`. */
  group: bool = false;
  /**
   * A doctest's failure (`AssertionError: Failed doctest test for m.f`): after the block's rule doctest's own report
   * follows (`File "m.py", line 7, in m.f`, `Failed example:`, `Expected:`, `Got:`, each value indented under it;
   * reports of several failing examples are parted by rules). The first example's place and values are kept.
   */
  docPart: i32 = 0;
  docRule: bool = false;
  docFile: bool = false;
  docExample: string | null = null;
  docExpected: string | null = null;
  docGot: string | null = null;

  /** Django's parallel runner: the test named by `name (id) failed:`, its repr line to come. */
  pickled: TestFailure | null = null;
  pickledList: Array<TestFailure> = [];

  /** doctest run as a program (`python3 -m doctest x.txt`): its own report, between 70-star rules. */
  doctest: DoctestReport = new DoctestReport();

  busy(): bool { return this.st != St.NONE || this.doctest.open || this.pickled !== null; }

  claim(l: Line, f: Facts): bool {
    let c = l.at(0);
    let described = this.described;
    this.described = null;
    let held = this.heldName;
    if (held !== null) {
      this.heldName = null;
      // The docstring's line with the result: the held name line was that test's.
      if (described === null || l.lastIndexOf(" ... ") <= 0) f.released.push(held!);
    }
    if (this.inDump) {
      if (this.dumpLine(l)) return true;
      this.inDump = false;
    }
    if (this.st == St.NONE && this.doctest.wants(c) && this.doctest.claim(l, f)) return true;
    // The 70-column rules that open a block and close the last one.
    if (this.st == St.DOC) {
      if (this.docLine(l)) return true;
      this.endBlock();
      this.st = St.NONE;
    }
    if ((c == Char.EQ || c == Char.MINUS) && l.len == 70 && l.at(69) == c && l.at(35) == c) {
      if (c == Char.MINUS && this.st == St.EXC && this.msg.length > 0 && this.msg[0].startsWith("AssertionError: Failed doctest test for ")) {
        this.st = St.DOC; this.docPart = 0; this.docRule = false;
        return true;
      }
      if (c == Char.EQ) { this.endBlock(); this.st = St.HEAD; this.seen = true; }
      else if (this.st == St.HEAD) this.st = St.BODY;
      else { this.endBlock(); this.st = St.NONE; }
      return this.seen || c == Char.MINUS;
    }
    if (this.st == St.HEAD) {
      let e = l.startsWith("ERROR: ");
      if (e || l.startsWith("FAIL: ")) {
        this.curError = e;
        this.headDoc = false;
        let t = f.testsFor("unittest");
        let name = nameOf(l, e ? 7 : 6);
        // A failing subTest (`FAIL: test_x (mod.C.test_x) (n=8)`) is a failure of its own, listed once per
        // subtest; the test method is still one test of those `Ran` counts.
        if (this.failingNames.has(name)) this.repeats++;
        else this.failingNames.add(name);
        // Each keeps its parameters (`(n=8)`, its subtest): the delta pairs a test's failing subtests by them.
        let sub = subtestOf(l, e ? 7 : 6);
        if (sub !== null && hasFailure(t, name)) {
          let tf = new TestFailure();
          tf.name = name;
          if (t.failures.length < MAX_FAILURES) t.failures.push(tf);
          this.cur = tf;
        } else this.cur = failureNamed(t, name);
        if (sub !== null && this.cur !== null) this.cur!.subtest = sub;
        if (e) { this.nErr++; if (isFixture(l, 7)) this.fixtureErrors++; } else this.nFail++;
        return true;
      }
      if (l.startsWith("UNEXPECTED SUCCESS: ")) return true;
      // The test's docstring line, between its FAIL/ERROR line and the rule above its traceback: one line, left
      // to the other parsers (a log cut after `FAIL: x` goes on with another tool's lines).
      // (The dispatcher offers a line its busy parser left to the others to it again: docAt tells that line.)
      if (this.cur !== null && (!this.headDoc || l.no == this.docAt) && l.indexOf(") ... ") < 0) { this.headDoc = true; this.docAt = l.no; return false; }
      this.st = St.NONE;
      return false;
    }
    if (this.st == St.TRACE) {
      if (this.traceLine(l, f)) return true;
      this.st = St.NONE;
    }
    if (this.st == St.NONE && this.verdictSeen && c == Char.T && l.startsWith("Traceback (most recent call last):")) {
      this.st = St.TRACE;
      this.traceFrames = [];
      return true;
    }
    if (this.st == St.BODY || this.st == St.EXC) {
      if (foreignLine(l)) return false;
      this.body(l);
      return true;
    }
    // Django's parallel runner, a failure it could not send back (no tblib, or an exception that does not pickle):
    // `test_x (mod.C.test_x) failed:`, a blank line, the exception's repr indented, then its apology; the run dies.
    let pk = this.pickled;
    if (pk !== null) {
      if (l.isBlank()) return true;
      this.pickled = null;
      if (c == Char.SPACE && l.matchAt("    ", 0) && l.at(4) != Char.SPACE) { pk.message = reprMessage(l.trimmed(4)); return true; }
    }
    if (c != Char.SPACE && l.endsWith(") failed:") && this.pickledList.length < MAX_FAILURES && l.indexOf(" (") > 0) {
      let name = nameOf(l, 0);
      if (name.indexOf(" ") < 0) {
        // Added at the end: the traceback of the run's death that follows is its crash (python.ts reads none once
        // there are test results).
        let tf = new TestFailure();
        tf.name = name;
        this.pickled = tf;
        this.pickledList.push(tf);
        return true;
      }
    }
    if (c == Char.R && l.startsWith("Ran ")) {
      let n = l.readInt(4);
      if (n >= 0 && l.matchAt(" test", l.end)) { this.ran = n; this.seen = true; f.testsFor("unittest"); return true; }
      return false;
    }
    if (this.awaiting !== null && this.st == St.NONE && this.loneResult(l)) return true;
    if (!this.seen && !this.progressOnly(l)) return this.resultLine(l, f, described);
    if (c == Char.O && (l.len == 2 && l.startsWith("OK") || l.startsWith("OK ("))) { this.verdictLine(l); return true; }
    if (c == Char.F && l.startsWith("FAILED (")) { this.verdictLine(l); return true; }
    // Dots alone while a libtest binary runs are its terse progress (cargo test -q), cargo-test's to count.
    if (this.progressOnly(l)) return this.seen || !f.testRun || !dotsOnly(l);
    return this.resultLine(l, f, described);
  }

  /** `.s.EEFF`: the quiet progress line. */
  private progressOnly(l: Line): bool {
    if (l.len == 0) return false;
    for (let i = 0; i < l.len; i++) {
      let c = l.at(i);
      if (c != Char.DOT && c != Char.s && c != Char.E && c != Char.F && c != Char.x && c != Char.u) return false;
    }
    return true;
  }

  /**
   * `test_add (mod.Class.test_add) ... ok`, or its docstring's line `Adds. ... ok` after `test_add (mod.Class.test_add)`
   * (described: that line's test). That name line alone is not claimed: it is remembered for the next line.
   */
  private resultLine(l: Line, f: Facts, described: string | null): bool {
    if (described !== null) {
      let r = l.lastIndexOf(" ... ");
      if (r > 0) {
        this.seen = true;
        this.verbose = true;
        f.testsFor("unittest");
        this.running = noResult(l, r + 5) ? described : null;
        this.result(l, r + 5, described);
        return true;
      }
    }
    let dots = l.indexOf(") ... ");
    if (dots < 0) {
      if (l.at(0) != Char.SPACE && l.len > 3 && l.at(l.len - 1) == Char.RPAREN && l.indexOf(" (") > 0 && l.indexOf(" ") == l.indexOf(" (")) {
        this.described = nameOf(l, 0);
        if (this.verbose) { this.heldName = l.toString(); return true; }
      }
      return false;
    }
    if (l.at(0) == Char.SPACE) return false;
    let open = l.indexOf(" (");
    // A test's name is one word before its id: `test src/lib.rs - f (line 9) ... ok` is a cargo doc-test's.
    if (open < 0 || open > dots || l.indexOf(" ") != open) return false;
    this.seen = true;
    this.verbose = true;
    f.testsFor("unittest");
    // `... ok` ends the line; a test that printed puts its `ok` on a line of its own (then the list is short).
    this.running = noResult(l, dots + 6) ? nameOf(l, 0) : null;
    this.result(l, dots + 6, null);
    return true;
  }

  /**
   * A result alone on its line (`ok`, `FAIL`, `ERROR`, `skipped 'why'`, `expected failure`, `unexpected success`): the
   * result of the -v line before it, whose test printed after its ` ... ` (a log record, a warning: stderr).
   */
  private loneResult(l: Line): bool {
    let name = this.awaiting;
    if (name === null) return false;
    if (!resultWord(l, 0)) return false;
    this.awaiting = null;
    this.result(l, 0, name);
    return true;
  }

  /** The result after a -v line's ` ... ` at p: `ok`, `FAIL`, `ERROR`, or faulthandler's dump beginning there. */
  private result(l: Line, p: i32, described: string | null): void {
    let c = l.at(p);
    if (c == Char.o && l.len == p + 2 && l.matchAt("ok", p)) this.passed(described !== null ? described! : nameOf(l, 0));
    else if (c == Char.F && l.len == p + 4 && l.matchAt("FAIL", p) || c == Char.E && l.len == p + 5 && l.matchAt("ERROR", p)) {
      if (this.vFailed.length < MAX_FAILURES) this.vFailed.push(described !== null ? described! : nameOf(l, 0));
    } else if (c == Char.T && l.matchAt("Traceback (most recent call last):", p)) {
      // unittest does not catch what ended the run (KeyboardInterrupt): Python's traceback begins on the test's line.
      this.traceTest = described !== null ? described! : nameOf(l, 0);
      this.running = null;
      this.st = St.TRACE;
      this.traceFrames = [];
    } else if (c == Char.F && l.matchAt("Fatal Python error: ", p)) {
      this.running = described !== null ? described! : nameOf(l, 0);
      this.fatal = l.trimmed(p + 20);
      this.inDump = true;
      this.otherThread = false;
    } else if (p < l.len && !resultWord(l, p)) {
      // What the test printed: its result comes on a line of its own (loneResult).
      this.awaiting = described !== null ? described! : nameOf(l, 0);
      return;
    }
    this.awaiting = null;
  }

  /** A line of the traceback after the verdict (St.TRACE): its frames, then the exception's line, the crash. */
  private traceLine(l: Line, f: Facts): bool {
    let c = l.at(0);
    if (c == Char.SPACE) {
      if (runtimeFrame(l)) return true;
      let fr = pyFrame(l);
      if (fr !== null) {
        // The innermost frames are the last: past the cap the outermost go.
        if (this.traceFrames.length >= MAX_FRAMES) this.traceFrames.shift();
        this.traceFrames.push(fr);
      }
      return true;
    }
    if (l.isBlank() || this.traceFrames.length == 0) return false;
    let colon = l.indexOf(": ");
    let kind = colon > 0 ? l.str(0, colon) : l.trimmed(0);
    for (let i = 0; i < kind.length; i++) {
      let k = kind.charCodeAt(i);
      if (!(k == Char.DOT || k == Char.UNDERSCORE || <u32>(k - Char._0) < 10 || <u32>((k | 0x20) - Char.a) < 26)) return false;
    }
    if (kind.length == 0) return false;
    let cr = new Crash();
    cr.tool = "python";
    cr.kind = kind;
    cr.message = colon > 0 ? l.trimmed(colon + 2) : null;
    cr.summary = l.trimmed(0);
    let fs = this.traceFrames;
    fs.reverse();
    renumber(fs);
    cr.frames = fs;
    this.traceFrames = [];
    this.traceCrash = cr;
    // A signal's crash the host recorded (SIGINT) says less than the traceback.
    let old = f.crash;
    if (old !== null && old.tool == "signal") f.crash = null;
    f.setCrash(cr);
    this.st = St.NONE;
    return true;
  }

  /** A line of faulthandler's dump (after fatal); false at its end. Frames of the current thread are kept. */
  private dumpLine(l: Line): bool {
    let c = l.at(0);
    if (c == Char.C && l.startsWith("Current thread ")) { this.otherThread = false; return true; }
    if (c == Char.T && l.startsWith("Thread 0x")) { this.otherThread = true; return true; }
    if (l.isBlank() || l.startsWith("Extension modules:") || l.startsWith("  <no Python frame>") || l.matchAt("...", l.skipSpaces(0))) return true;
    if (l.matchAt("  File \"", 0) && runtimeFrame(l)) return true;
    let fr = pyFrame(l);
    if (fr === null) return false;
    if (!this.otherThread && this.dumpFrames.length < MAX_FRAMES) this.dumpFrames.push(fr);
    return true;
  }

  private passed(id: string): void {
    this.passHashes = withName(this.passHashes, id);
    // Its packages and module (`tests`, `tests.test_core`, `tests.test_core.CoreTest`), shortest first and at most
    // MAX_UNIT_DEPTH of them: a name of thousands of dots (a fuzzed line) kept every prefix, a copy of the line
    // each (45 KB of them: 128 MiB).
    let n = 0;
    for (let d = id.indexOf("."); d > 0 && n < MAX_UNIT_DEPTH; d = id.indexOf(".", d + 1)) { this.units.add(id.substring(0, d)); n++; }
  }

  private verdictLine(l: Line): void {
    this.verdictSeen = true;
    let s = l.toString();
    this.failures = kv(s, "failures=");
    this.errors = kv(s, "errors=");
    this.skipped = kv(s, "skipped=");
    this.expectedFailures = kv(s, "expected failures=") + kv(s, "unexpected successes=");
  }

  private body(l: Line): void {
    let t = this.cur;
    if (t === null) return;
    if (l.startsWith("Traceback (most recent call last)")) { this.st = St.BODY; this.msg = []; this.group = false; return; }
    if (l.startsWith("  + Exception Group Traceback (most recent call last)")) { this.st = St.BODY; this.msg = []; this.group = true; return; }
    // An exception group's own frames and exception line are drawn at `  | `; its members, nested deeper, are not it.
    let at = 0;
    if (this.group) {
      if (!l.matchAt("  | ", 0)) { if (this.st == St.EXC && this.msg.length < MAX_MSG_LINES) this.msg.push(""); return; }
      at = 4;
    }
    let fr = pyFrame(l, at);
    if (fr !== null && this.st == St.BODY) {
      if (fr.user) { t.file = fr.file; t.line = fr.line; }
      return;
    }
    if (this.st == St.BODY) {
      if (l.at(at) == Char.SPACE || l.isBlank()) return;
      // The exception line ends the frames.
      this.st = St.EXC;
      this.msg = [l.str(at)];
      return;
    }
    if (at > 0) {
      if (this.msg.length < MAX_MSG_LINES) this.msg.push(l.str(at));
      return;
    }
    // St.EXC: the message continues until a blank line. endBlock reads its first lines only: the rest of a
    // long one (a test's buffered output, repeated) is not kept.
    if (this.msg.length >= MAX_MSG_LINES) return;
    if (l.isBlank()) { if (this.msg.length > 0) this.msg.push(""); return; }
    let how = chainWord(l);
    if (how !== null) {
      // The failure is the last exception of the chain; the one before stays as its cause (as pytest's blocks say).
      if (this.msg.length > 0) this.chainedFrom = how! + this.msg[0];
      return;
    }
    this.msg.push(l.toString());
  }

  /** A line of a doctest's report (St.DOC); false at its end. */
  private docLine(l: Line): bool {
    let c = l.at(0);
    if (c == Char.MINUS && l.len == 70 && l.at(69) == c) { this.docRule = true; return true; }
    if (l.isBlank()) return true;
    let rule = this.docRule;
    this.docRule = false;
    if (c == Char.F && l.startsWith("File \"")) {
      let fr = pyFrame(l);
      if (fr === null) return false;
      let t = this.cur;
      if (!this.docFile && t !== null) { this.docFile = true; t.file = fr.file; t.line = fr.line; }
      this.docPart = 0;
      return true;
    }
    if (rule) return false;
    if (c == Char.SPACE) {
      let v = l.trimmed(0);
      if (this.docPart == 1 && this.docExample === null) this.docExample = v;
      else if (this.docPart == 2 && this.docExpected === null) this.docExpected = v;
      else if (this.docPart == 3 && this.docGot === null) this.docGot = v;
      return true;
    }
    if (l.startsWith("Failed example:")) { this.docPart = 1; return true; }
    if (l.startsWith("Expected:")) { this.docPart = 2; return true; }
    if (l.startsWith("Got:") || l.startsWith("Exception raised:")) { this.docPart = 3; return true; }
    return false;
  }

  private endBlock(): void {
    let t = this.cur;
    if (t !== null && this.msg.length > 0) {
      // Trailing blank lines and everything after the first paragraph beyond a few lines are dropped.
      t.message = exceptionMessage(this.msg, this.chainedFrom);
      let m = this.msg[0];
      if (m.startsWith("AssertionError: ")) {
        let ne = m.indexOf(" != ");
        if (ne > 0) {
          let a = m.substring(16, ne);
          let colon = a.lastIndexOf(": ");
          if (colon >= 0 && !a.startsWith("'") ) a = a.substring(colon + 2);
          t.actual = a; t.expected = m.substring(ne + 4);
        }
      }
    }
    if (t !== null && this.docExample !== null) {
      t.message = "Failed example: " + this.docExample!;
      if (this.docExpected !== null) t.expected = this.docExpected;
      if (this.docGot !== null) t.actual = this.docGot;
    }
    this.docFile = false; this.docExample = null; this.docExpected = null; this.docGot = null; this.docPart = 0;
    this.cur = null;
    this.group = false;
    this.chainedFrom = null;
    this.msg = [];
  }

  finish(f: Facts): void {
    this.pickled = null;
    if (this.heldName !== null) { f.released.push(this.heldName!); this.heldName = null; }
    this.doctest.finish(f);
    this.endBlock();
    let pl = this.pickledList;
    if (pl.length > 0) {
      let tp = f.testsFor("unittest");
      for (let i = 0; i < pl.length; i++) {
        if (tp.runner != "unittest" || hasFailure(tp, pl[i].name) || tp.failures.length >= MAX_FAILURES) continue;
        tp.failures.push(pl[i]);
        this.nErr++;
      }
      this.pickledList = [];
      this.seen = true;
    }
    if (!this.seen) return;
    let t = f.testsFor("unittest");
    if (t.runner != "unittest") return;
    let fl = this.verdictSeen ? this.failures : this.nFail;
    let er = this.verdictSeen ? this.errors : this.nErr;
    t.failed = max<i64>(fl, 0);
    t.errors = max<i64>(er, 0);
    t.skipped = max<i64>(this.skipped, 0);
    // Expected failures and unexpected successes are neither passes nor failures of the suite's verdict.
    let ranErrors = max<i64>(t.errors - this.fixtureErrors, 0);
    // Failures and errors count subtests; Ran counts test methods: a method failing in several subtests is one.
    let failingTests = max<i64>(t.failed + ranErrors - this.repeats, 0);
    // Killed by a signal in the middle of a test (-v named it, no result, no `Ran` line): that test failed.
    let crashed = this.running;
    let sig = runSignal(f);
    if (sig === null && this.fatal !== null) sig = signalOfWords(this.fatal!);
    let cut = this.ran < 0 && !this.verdictSeen;
    if (crashed !== null && cut && sig !== null && !hasFailure(t, crashed!)) {
      let tf = failureNamed(t, crashed!);
      t.failed++;
      if (this.fatal !== null) {
        // faulthandler's dump: the innermost frame of the project's in the thread that crashed is the failure's place.
        tf.message = "Fatal Python error: " + this.fatal!;
        let fs = this.dumpFrames;
        for (let i = 0; i < fs.length; i++) if (fs[i].user) { tf.file = fs[i].file; tf.line = fs[i].line; break; }
        crashMidSuite(f, sig, "Fatal Python error: " + this.fatal! + " while running " + crashed!);
        let c = f.crash;
        if (c !== null && c.tool == "signal" && c.frames.length == 0 && fs.length > 0) {
          let kept = fs.slice(0);
          renumber(kept);
          c.frames = kept;
        }
      } else {
        tf.message = "the test process died (" + sig! + ") while running " + crashed!;
        crashMidSuite(f, null, "the test process died while running " + crashed!);
      }
    }
    // -v: the traceback that ended the run began on this test's line: it failed by that crash.
    let tt = this.traceTest;
    let tc = this.traceCrash;
    if (tt !== null && tc !== null && cut && !hasFailure(t, tt!)) {
      let tf = failureNamed(t, tt!);
      let sm = tc.summary;
      tf.message = sm !== null ? sm! : tc.kind;
      for (let i = 0; i < tc.frames.length; i++) if (tc.frames[i].user) { tf.file = tc.frames[i].file; tf.line = tc.frames[i].line; break; }
      t.failed++;
    }
    // A run cut short (no `Ran` line) printed no FAIL/ERROR block: -v's `... FAIL` lines are its failures.
    if (cut) {
      for (let i = 0; i < this.vFailed.length; i++) {
        if (hasFailure(t, this.vFailed[i])) continue;
        failureNamed(t, this.vFailed[i]);
        t.failed++;
      }
    }
    let hs = this.passHashes;
    if (this.ran >= 0) { t.passed = max<i64>(this.ran - failingTests - t.skipped - this.expectedFailures, 0); t.totals = true; }
    // No `Ran` line (the run was killed): under -v its `... ok` lines are the passes it made.
    else if (this.verbose && hs !== null) t.passed = <i64>hs.length;
    if (this.verbose && this.ran >= 0 && hs !== null && <i64>hs.length == t.passed) {
      // A module that did not import (`ERROR: tests.test_core (unittest.loader._FailedTest…)`) is named by itself:
      // one whose tests ran is in the run.
      let us = this.units.values();
      for (let i = 0; i < us.length && hs.length < MAX_PASSED_SET; i++) hs.push(nameHash(us[i]));
      t.passedSet = hs;
    }
  }
}

/**
 * A frame of Python's own library or an installed package (`/lib/python3.11/`, `site-packages/`, `<frozen runpy>`):
 * told by bytes, not parsed: a crash's place and a test's are the project's frames; the rest of a long stack is not kept.
 */
function runtimeFrame(l: Line): bool {
  return l.indexOf("/lib/python") > 0 || l.indexOf("-packages/") > 0 || l.indexOf("\"<frozen ") > 0;
}

/** The deepest package/module prefix of a test id kept as a unit of the run (Python's packages nest a few deep). */
const MAX_UNIT_DEPTH = 16;

/** Nothing but blanks from p to the line's end: a `... ` whose result has not come. */
function noResult(l: Line, p: i32): bool {
  for (let i = p; i < l.len; i++) if (l.at(i) != Char.SPACE && l.at(i) != Char.TAB) return false;
  return true;
}

/** `test_x (mod.C.test_x) (n=8)`: a second parenthesised group after the name, a subTest's parameters. */
/** A subTest's parameters, the second group of `test_x (mod.C.test_x) (n=3)`: `(n=3)`; null for a test's own failure. */
function subtestOf(l: Line, p: i32): string | null {
  let open = l.indexOf(" (", p);
  if (open < 0) return null;
  let close = l.indexOfByte(Char.RPAREN, open);
  if (close < 0 || !l.matchAt(" (", close + 1)) return null;
  let s = l.trimmed(close + 2);
  return s.length > 0 ? s : null;
}

/** `setUpClass (mod.Class)`, `tearDownModule (mod)`: a fixture's error, named without the method repeated. */
function isFixture(l: Line, p: i32): bool {
  let fix = l.matchAt("setUpClass (", p) || l.matchAt("tearDownClass (", p) || l.matchAt("setUpModule (", p) ||
    l.matchAt("tearDownModule (", p);
  if (!fix) return false;
  let open = l.indexOf(" (", p);
  let close = l.indexOfByte(Char.RPAREN, open);
  if (close < 0) return false;
  // `setUpClass (mod.Class.setUpClass)` would be a test method of that name.
  let m = l.str(p, open);
  return !l.str(open + 2, close).endsWith("." + m);
}

const FAILED_TEST = "unittest.loader._FailedTest";

/** `test_total (test_inventory.InventoryTest.test_total)` → `test_inventory.InventoryTest.test_total`. */
function nameOf(l: Line, p: i32): string {
  let s = l.trimmed(p);
  let open = s.indexOf(" (");
  let close = open < 0 ? -1 : s.indexOf(")", open);
  if (close < 0) return s;
  // A subTest adds its parameters in a second group, "(n=3)": the test is still the method.
  let method = s.substring(0, open);
  let inner = s.substring(open + 2, close);
  // A test module that did not import: `tests.test_core (unittest.loader._FailedTest.tests.test_core)` (3.11),
  // `(unittest.loader._FailedTest)` before: named by the module, whose tests are named under it.
  if (inner.startsWith(FAILED_TEST) && (inner.length == FAILED_TEST.length || inner.charCodeAt(FAILED_TEST.length) == Char.DOT)) return method;
  if (inner.endsWith("." + method)) return inner;
  return inner + "." + method;
}

/** The count after key in "FAILED (failures=2, expected failures=1)"; "failures=" is not "expected failures=". */
function kv(s: string, key: string): i64 {
  let i = s.indexOf(key);
  while (i > 0 && s.charCodeAt(i - 1) != Char.LPAREN && !(s.charCodeAt(i - 1) == Char.SPACE && s.charCodeAt(i - 2) == Char.COMMA)) i = s.indexOf(key, i + 1);
  if (i < 0) return 0;
  let j = i + key.length;
  let e = j;
  while (e < s.length && <u32>(s.charCodeAt(e) - Char._0) < 10) e++;
  return e > j ? I64.parseInt(s.substring(j, e)) : 0;
}

/** The line is dots alone (`.....`). */
function dotsOnly(l: Line): bool {
  for (let i = 0; i < l.len; i++) if (l.at(i) != Char.DOT) return false;
  return true;
}

/**
 * A -v result at p: `ok`, `FAIL` or `ERROR` ending the line, or `skipped 'why'`, `expected failure`, `unexpected
 * success`.
 */
function resultWord(l: Line, p: i32): bool {
  let c = l.at(p);
  let n = l.len - p;
  return c == Char.o && n == 2 && l.at(p + 1) == Char.k || c == Char.F && n == 4 && l.matchAt("FAIL", p)
    || c == Char.E && n == 5 && l.matchAt("ERROR", p) || c == Char.s && l.matchAt("skipped ", p)
    || c == Char.e && l.matchAt("expected failure", p) || c == Char.u && l.matchAt("unexpected success", p);
}

/**
 * An exception's repr as its message: `AttributeError("'Tag' object has no attribute 'nam'")` is `AttributeError: 'Tag'
 * object has no attribute 'nam'` (one string argument unquoted); another repr is kept as printed.
 */
function reprMessage(r: string): string {
  let open = r.indexOf("(");
  if (open <= 0 || !r.endsWith(")")) return r;
  for (let i = 0; i < open; i++) {
    let ch = r.charCodeAt(i);
    if (!(ch >= Char.A && ch <= Char.Z || ch >= Char.a && ch <= Char.z || ch >= Char._0 && ch <= Char._9 || ch == Char.UNDERSCORE || ch == Char.DOT)) return r;
  }
  let inner = r.substring(open + 1, r.length - 1);
  if (inner.length == 0) return r.substring(0, open);
  let q = inner.charCodeAt(0);
  if ((q == Char.QUOTE || q == Char.APOS) && inner.length >= 2 && inner.charCodeAt(inner.length - 1) == q) inner = inner.substring(1, inner.length - 1);
  return r.substring(0, open) + ": " + inner;
}
