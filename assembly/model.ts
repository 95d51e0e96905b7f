// The verdict's model: the facts a log yields, as the parsers collect them (Facts), and the verdict made of
// them (Verdict). verdict.ts makes a Verdict of Facts, verdict-writer.ts writes it as sbx.verdict/1 JSON,
// verdict-reader.ts reads that JSON back into the same classes for delta.ts and render.ts.
// Numbers the log did not give (a line, a column, a count) are -1. Lines, columns and indexes are i64: a
// verdict read back may carry any integer, and it reads back as it was written.
import { signalName } from "./signals";
import { Tail } from "./tail";

export const MAX_DIAGNOSTICS = 400;
export const MAX_FRAMES = 64;
export const MAX_FAILURES = 500;

/** Where something is: file, 1-based line and column (-1 when unknown). */
export class Located {
  file: string | null = null;
  line: i64 = -1;
  col: i64 = -1;
  /** The file, or "" when unknown. */
  get fileOr(): string { let f = this.file; return f !== null ? f : ""; }
}

export class Frame extends Located {
  index: i64 = -1;
  fn: string | null = null;
  module: string | null = null;
  user: bool = false;
  /**
   * The frame as its line printed it, after the pc (`foo(int) src/a.cc:3:5`, `/lib/libc.so.6+0x271ca`), for
   * the crash state's ignore rules, which read a frame's file and module with its name; null when the parser
   * keeps only the name. Not part of the verdict.
   */
  text: string | null = null;
}

export class Diagnostic extends Located {
  tool: string = "";
  severity: string = "error";
  code: string | null = null;
  message: string = "";
  /**
   * The text the tool puts on the primary span (rustc's `^^^ expected `i32`, found `usize``): what tells two
   * errors with the same message apart. null when there is none.
   */
  label: string | null = null;
  /** Notes grouped under an error (template instantiation, "required from here", include chain). */
  notes: Array<Diagnostic> = [];
}

export class Crash {
  tool: string = "";
  kind: string = "";
  access: string | null = null;
  size: i64 = -1;
  address: string | null = null;
  summary: string | null = null;
  message: string | null = null;
  frames: Array<Frame> = [];
  allocFrames: Array<Frame> = [];
  freeFrames: Array<Frame> = [];
  /** A second stack when the report has one (the other access of a data race). */
  otherFrames: Array<Frame> = [];
  thread: string | null = null;
  /**
   * Where the accessed address lies, as the report says it without addresses (ASan's `0 bytes to the right
   * of 40-byte region`, `4 bytes inside of 40-byte region`), or null.
   */
  region: string | null = null;
  /**
   * The stack variable ASan marks as the one accessed (`[32, 48) 'buf' (line 5) <== Memory access at offset 32 is
   * inside this variable`): its name, the line it is declared on (-1: not printed), how the access fell
   * (`inside`, `overflows`, `partially overflows`, `underflows`…) and the frame it lives in (the function of a
   * stack-use-after-return that has returned), or null when the report marks none.
   */
  objectName: string | null = null;
  objectLine: i64 = -1;
  objectAccess: string | null = null;
  objectFrame: Frame | null = null;
  /**
   * The exceptions this one was chained to, nearest first (Python's `raise X from e`: the FileNotFoundError
   * under the RuntimeError). Each keeps its kind, message and frames; relation is how it is chained.
   */
  causes: Array<Crash> = [];
  /** As a member of causes: "cause" (the direct cause: `raise .. from`) or "context" (raised while handling it). */
  relation: string | null = null;
  /**
   * What the verdict says of the crash beyond its facts, set by verdict.ts (settleCrash) or read back: the
   * first frame in the user's code (a cause's `at`), the crash state (crash-state.ts; null in a verdict
   * written before it existed), the identity and the hint.
   */
  firstUserFrame: Frame | null = null;
  state: Array<string> | null = null;
  identity: string | null = null;
  hint: string | null = null;
  /**
   * Reported without a symbolized stack (a failed assertion, a Rust panic without RUST_BACKTRACE): the abort
   * report a sanitizer or libFuzzer prints right after it lends it one (lendStack). Not part of the verdict.
   */
  stackless: bool = false;
  /**
   * The state's first lines when the report names them itself (V8's `cond in file.cc`, a CSA_ASSERT's message
   * and file), or null: crash-state.ts then derives the head from the message. Not part of the verdict.
   */
  stateHead: Array<string> | null = null;
  /** stateHead is the whole state: the report's stack is not part of what tells two crashes apart. */
  stateHeadOnly: bool = false;
  /** stateHead is metadata to keep verbatim (numbers and addresses in it are what tells crashes apart). */
  stateVerbatim: bool = false;
  /**
   * The frames the crash state reads when they are not `frames`: every Go frame line of the report in the
   * order printed (other goroutines and `runtime stack:` included), then the stack a stackless crash borrowed
   * (lendStack); a Rust panic's own backtrace is not one a fleet reads. null: `frames`. Not part of the verdict.
   */
  stateFrames: Array<Frame> | null = null;
}

/**
 * Gives a stackless crash the stack of the abort report that followed it. An assertion (and an uncaught C++
 * exception) takes the whole stack when it has a user frame (the symbolizer's name for the assertion's caller, the callers below it); any other
 * crash keeps its frames and only borrows the name of a nameless frame found at the same file and line.
 */
export function lendStack(c: Crash, frames: Array<Frame>): void {
  c.stackless = false;
  // SystemSan's finding (a shell injection, a file opened) has no stack of its own at all: it takes this one,
  // user frame or not (the target may be all libc and fuzzer driver, the bug a call to system()).
  // So does Centipede's (a timeout, a stack limit): the abort its runner then raises shows where it stood.
  // And V8's sandbox violation, announced before the report that shows it.
  if (c.tool == "systemsan" || c.tool == "centipede" || (c.tool == "v8" && c.kind == "sandbox-violation")) {
    c.frames = frames;
    c.stateFrames = null;
    return;
  }
  // The state reads on from the crash's own printed frames (a CHECK's trace; not the frame made of an
  // assertion's file:line) into the report's, as the log prints them.
  let own = c.stateFrames;
  if (own === null) {
    own = new Array<Frame>(0);
    for (let i = 0; i < c.frames.length; i++) if (c.frames[i].text !== null) own.push(c.frames[i]);
  }
  c.stateFrames = own.concat(frames);
  let u: Frame | null = null;
  for (let i = 0; i < frames.length; i++) if (frames[i].user) { u = frames[i]; break; }
  if (u === null) return;
  // An uncaught C++ exception (cxx-terminate: a SIGABRT with a message and no frame) takes it too: the
  // frames under std::terminate are where it was thrown.
  if (c.tool == "assert" || (c.tool == "signal" && c.frames.length == 0)) { c.frames = frames; return; }
  for (let i = 0; i < c.frames.length; i++) {
    let fr = c.frames[i];
    if (fr.fn !== null || fr.file === null) continue;
    for (let k = 0; k < frames.length; k++) {
      let s = frames[k];
      if (s.user && s.fn !== null && s.file !== null && s.line == fr.line && sameFile(s.file!, fr.file!)) {
        let name = s.fn!;
        // A Rust symbol's "::h0123456789abcdef" build hash moves between builds.
        let h = name.lastIndexOf("::h");
        fr.fn = h > 0 && name.length - h == 19 ? name.substring(0, h) : name;
        break;
      }
    }
  }
}

function sameFile(a: string, b: string): bool {
  return a == b || a.endsWith("/" + b) || b.endsWith("/" + a);
}

/** A failing test; its col is only ever read back (a verdict does not write one). */
export class TestFailure extends Located {
  name: string = "";
  /** The unit the test belongs to (go: the package's import path), when the log names it; null else. */
  pkg: string | null = null;
  /**
   * The subtest a failure is of, when the runner lists a test's failing subtests each under the test's name
   * (unittest's `FAIL: test_x (mod.C.test_x) (n=3)`: `(n=3)`); null else. Two failures of one test are paired
   * by it across runs.
   */
  subtest: string | null = null;
  message: string = "";
  expected: string | null = null;
  actual: string | null = null;
}

export class Tests {
  runner: string = "";
  /** Counts; -1 when the log does not say (`go test` without -v prints no passing or skipped test). */
  passed: i64 = 0;
  failed: i64 = 0;
  errors: i64 = 0;
  skipped: i64 = 0;
  /**
   * pytest's `xfailed` (an xfail test that failed, as expected): no pass, no skip, no failure. A test failing before
   * (`[XPASS(strict)]`) that is one now was fixed: the delta counts it with the passes when it asks whether one could
   * have passed.
   */
  xfailed: i64 = 0;
  /** Tests the runner announced but never ran (the binary died mid-suite); -1 when it announced no total. */
  notRun: i64 = -1;
  /**
   * Units (a go package) whose tests stopped before all of them reported: a panic ended the package's test
   * binary; for cargo test, the target (`--lib`, `--test it`) after whose failure cargo stopped, the targets
   * after it unrun. A test missing from the failures may be one that never ran: not fixed. Written only when any.
   */
  unfinished: Array<string> = [];
  /**
   * The tests the log lists as passed before the stop (`go test -v`, `-json`: those of the stopped packages;
   * cargo's `... ok`: all, as many as MAX_FAILURES): they ran, so a failing test among them that is missing now
   * was fixed. Written only when any.
   */
  unfinishedPassed: Array<string> = [];
  /**
   * Hashes (util/name-hash.ts) of every test the run listed as passed, by the name a failure of it would
   * have, or null: set only for a runner that lists each test it ran by name (mocha's spec tree, cargo test, pytest -v),
   * when it named as many as it counted and no more than MAX_PASSED_SET (util/name-hash.ts). A test that failed before and is in neither
   * list of such a run did not run (mocha --bail stopped first): never "fixed".
   */
  passedSet: Array<u32> | null = null;
  /**
   * Hashes, as passedSet's, of the tests the run names as skipped (RSpec's `Pending:` list, a JSON report's
   * pending tests), or null when it named none: a test that failed before and is skipped now did not run, it was
   * not fixed (the counts alone cannot tell which of several gone tests it was). At most MAX_PASSED_SET.
   */
  skippedSet: Array<u32> | null = null;
  /**
   * Hashes, as passedSet's, of the test files whose results the run printed (pytest's progress lines `t.py ..F`), or
   * null when it printed none: a file that did not load before (its collection error, named by its path) loaded now,
   * whatever stopped the run after (a KeyboardInterrupt, a crash). At most MAX_PASSED_SET.
   */
  loadedSet: Array<u32> | null = null;
  /**
   * pytest --lf (`run-last-failure: rerun previous 6 failures`): how many tests that failed in pytest's last run it ran
   * again, and nothing else; -1 when the run did not say. When they are as many as failed before, a test failing before
   * and in no failure now ran and passed (fixed), though the run names no passing test and its counts fell.
   */
  rerunFailed: i64 = -1;
  /**
   * pytest's `11 deselected` (-k, -m): tests the run left out by the user's choice; 0 when none. A test failing before
   * and in no failure of such a run may be one of them: not run, and still failing for the next run that runs it.
   */
  deselected: i64 = 0;
  failures: Array<TestFailure> = [];
  /** Set when the runner printed its own totals (then they win over counting). */
  totals: bool = false;
}

/** Failures that share a root cause: the same message at the same place (failureKey). */
export class ErrorGroup extends Located {
  count: i64 = 0;
  message: string = "";
  /** The first few failures' names. */
  tests: Array<string> = [];
}

/** What makes two failures "the same" (error groups): message and location. */
export function failureKey(message: string, at: Located): string {
  return message + "\u0000" + at.fileOr + ":" + at.line.toString();
}

export class ExitInfo {
  code: i32 = 0;
  known: bool = false;
  signal: string | null = null;
  timedOut: bool = false;
  /**
   * The caller stopped the run (Ctrl-C to `sbx run`): the command did not finish, so the log is not its
   * result. The signal is the one that stopped it; it is no crash of the command's.
   */
  interrupted: bool = false;
  /**
   * Which exit facts the parsers read while lines were fed (a stream fed as the command runs is begun
   * before its exit is known: exitKnown() in index.ts then checks that the answers still hold).
   */
  askedFatal: bool = false;
  askedSignal: bool = false;

  /** The signal that killed the command, or the one a shell reports as exit 128+N. */
  signalOrShellExit(): string | null {
    this.askedSignal = true;
    return this.shellSignal();
  }

  shellSignal(): string | null {
    if (this.signal !== null) return this.signal;
    if (this.known && this.code > 128 && this.code < 128 + 32) return signalName(this.code - 128);
    return null;
  }

  /** A printed report (traceback, panic) kills the program unless it exited 0 (see reportIsFatal). */
  fatal(): bool {
    this.askedFatal = true;
    return this.isFatal();
  }

  isFatal(): bool {
    return !(this.known && this.code == 0 && this.signal === null);
  }
}

/** A crash known only by its signal (a shell's message, an exit status, an assert's abort). */
export function signalCrash(kind: string, summary: string | null): Crash {
  let c = new Crash();
  c.tool = "signal";
  c.kind = kind;
  c.summary = summary;
  return c;
}

export class Facts {
  exit: ExitInfo = new ExitInfo();
  diagnostics: Array<Diagnostic> = [];
  diagnosticsDropped: i32 = 0;
  errorCount: i32 = 0;
  warningCount: i32 = 0;
  crash: Crash | null = null;
  crashCount: i32 = 0;
  /**
   * An assertion message that is a crash only if the program then dies of it (`ASSERTION FAILED: x`, glib's
   * `assertion 'x' failed`, which a program may also print and carry on): the abort report that follows
   * makes it the crash (the sanitizer parser's borrows()); without one it is nothing.
   */
  pendingCrash: Crash | null = null;
  tests: Tests | null = null;
  /**
   * cargo check or clippy (a `Checking` line): a test target that fails to build was being checked, not built to
   * run, so its `could not compile `x` (lib test)` says nothing of tests.
   */
  cargoCheck: bool = false;
  /**
   * A libtest binary is running (between its `running N tests` and its `test result:`; cargo-test keeps it): a
   * bare `warning: x` or `error: x` then is a test's own output (an eprintln!), not rustc's or cargo's.
   */
  testRun: bool = false;
  /** A timeout the log itself reports (timeout(1), a runner's own "timed out"). */
  timeoutSeen: bool = false;
  /** "command not found" style failure before the command ran. */
  setupFailure: string | null = null;
  /**
   * How many times a go test binary refused its flags so far (go-build.ts: its usage after `invalid value … for
   * flag -test.…`, `testing: invalid regexp …`): the package's `FAIL pkg` after one is that refusal's (go-test.ts).
   */
  goFlagRefusals: i32 = 0;
  /** The shared library the dynamic loader could not find, when that is the set-up failure. */
  missingLibrary: string | null = null;
  /** make's "*** [...] Error N" or a build tool's own failure line, without a diagnostic. */
  buildFailedLine: string | null = null;
  /**
   * A build tool said a compile step did not run, its outputs up to date (Gradle's `:compileJava UP-TO-DATE`,
   * Maven's `Nothing to compile`, make's `Nothing to be done`, `ninja: no work to do.`): the warnings of the
   * files it did not compile are not printed again.
   */
  upToDate: bool = false;
  /**
   * The base names' hashes (util/name-hash.ts) of the C and C++ sources the build said it compiled (ninja's and
   * CMake's `Building C object …/util.c.o`, make's echo `gcc -c util.c`), or null: none said (parsers/c-family/compiled.ts).
   */
  compiled: Array<u32> | null = null;
  /** compiled's hashes as a set: a build's every compile line asks whether its source is known. */
  compiledSeen: Set<u32> | null = null;
  /** More sources than MAX_PASSED_SET: compiled is null, and stays so. */
  compiledOverflow: bool = false;
  /**
   * A build tool's report that a step failed (make's "*** [Makefile:5: test] Error 1"). It is the
   * consequence of what the step printed: build-failed only when no crash, error or failing test explains it.
   */
  stepFailedLine: string | null = null;
  /**
   * A linter's line that fails the run on warnings when it exits non-zero (vfile-reporter's `⚠ 1 warning` under
   * remark's --frail, ESLint's `ESLint found too many warnings (maximum: 0).`): build-failed, not a runtime error,
   * when the run had warnings and no error.
   */
  warningsFailLine: string | null = null;
  /**
   * The run's test runner says in its closing counts that every test passed, and its exit code does not say so: SymPy's
   * legacy runner exits 1 when every test passed (and 0 when any failed): its non-zero exit is no runtime error.
   */
  passedByCounts: bool = false;
  rawBytes: i64 = 0;
  lines: i64 = 0;
  nulBytes: i64 = 0;
  /**
   * Lines a parser held back from the tail and then let go (rustc's candidate `error: ...` that no `-->`
   * followed): the session puts them into the tail, before the line being offered. No line that matters vanishes.
   */
  released: Array<string> = [];
  /** The session's tail (the unclaimed lines so far), to read its newest line; null outside a session. */
  tailLines: Tail | null = null;
  /**
   * The SUMMARY of the latest sanitizer report (the first, kept as crash, or a later one, only counted), and how
   * many there were: a runner names a test's failure by the report its output held.
   */
  lastReport: string | null = null;
  reports: i32 = 0;
  /**
   * The latest failed assertion the assert parser read (kept as the crash or only counted): a runner's block
   * whose output held it names its test's failure by it when the line went to that parser, not the block's
   * reader (meson's error log with valgrind's report before the assertion).
   */
  lastAssert: Crash | null = null;

  /**
   * Counts d and keeps it among the first MAX_DIAGNOSTICS; returns false when it was only counted. A parser
   * must not hold on to a diagnostic that was not kept: a log of a million warnings would keep a million.
   */
  addDiagnostic(d: Diagnostic): bool {
    if (d.severity == "error") this.errorCount++;
    else if (d.severity == "warning") this.warningCount++;
    if (this.diagnostics.length >= MAX_DIAGNOSTICS) { this.diagnosticsDropped++; return false; }
    this.diagnostics.push(d);
    return true;
  }

  /** Keeps the first crash: later reports in the same log are usually consequences of it. */
  setCrash(c: Crash): void {
    this.crashCount++;
    if (this.crash === null) this.crash = c;
  }

  testsFor(runner: string): Tests {
    let t = this.tests;
    if (t === null) { t = new Tests(); t.runner = runner; this.tests = t; }
    return t;
  }
}

/**
 * A verdict, as its sbx.verdict/1 JSON holds it: made of Facts by verdict.ts, written by verdict-writer.ts,
 * read back by verdict-reader.ts (where a field absent or of the wrong type reads as its "unknown" value).
 */
export class Verdict {
  /** null only in a verdict read back without one. */
  status: string | null = null;
  exitCode: i64 = -1;
  exitKnown: bool = false;
  exitSignal: string | null = null;
  timedOut: bool = false;
  diagnostics: Array<Diagnostic> = [];
  errorCount: i64 = 0;
  warningCount: i64 = 0;
  diagnosticsDropped: i64 = 0;
  crashCount: i64 = 0;
  crash: Crash | null = null;
  tests: Tests | null = null;
  errorGroups: Array<ErrorGroup> = [];
  setupError: string | null = null;
  /** The shared library the dynamic loader could not find (written only when there is one). */
  missingLibrary: string | null = null;
  buildFailure: string | null = null;
  /** Facts.upToDate (written only when true). */
  upToDate: bool = false;
  /** Facts.compiled (written only when not null). */
  compiledSet: Array<u32> | null = null;
  tail: Array<string> = [];
  rawBytes: i64 = 0;
  lines: i64 = 0;
  binary: bool = false;

  /** The status, or "" when the verdict has none. */
  get statusOr(): string { let s = this.status; return s !== null ? s : ""; }
}
