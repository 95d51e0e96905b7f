// cargo test / libtest: `running N tests`, `test name ... ok|FAILED|ignored`, `---- name stdout ----` blocks
// with the panic (`thread 'name' panicked at src/lib.rs:45:9:` + message, left/right), the `failures:` list,
// and one `test result:` line per test binary (summed). A binary killed by a signal mid-suite
// (`process didn't exit successfully: ... (signal: 6, SIGABRT: ...)`) is a crash with the tests so far.
// With `--nocapture` there are no blocks: the panic is printed, outside any block, before its test's
// `... FAILED` line, in a thread named after the test; it is kept aside until that test is seen to fail
// (a `should_panic` test panics too, and passes). libtest writes `test NAME ... ` and its result apart, so
// what is printed while the test runs (one thread: its own println and panic; more: another test's panic on
// stderr) comes between them and the result (`ok`, `FAILED`) starts a line of its own. Doc-tests
// (`src/lib.rs - f (line 14)`) panic at a line of the program rustdoc generated, not of the file: their
// location is the doc-test's own line. Under --nocapture rustdoc's verdict on one (`Test executable failed`,
// the program's stderr) is printed loose too: after its name with one thread, before it with more.
// Under `-- --show-output` the tests that passed show their output under `successes:`, in the same
// `---- NAME stdout ----` blocks (a passing should_panic test's panic among it), then their names: that section,
// up to `failures:` or the binary's `test result:`, is claimed and read as nothing.
// libtest's JSON events (`-- -Z unstable-options --format=json`): `{ "type": "suite", "event": "started",
// "test_count": 5 }` is a binary's `running 5 tests`, its `"event": "ok"|"failed"` with `"passed": 2, "failed": 2,
// "ignored": 1` its `test result:`; `{ "type": "test", "name": …, "event": "ok"|"failed"|"ignored" }` a test's
// line, a failure's `"stdout"` (its output and panic) read as its block, its `"message"` (should_panic's verdict)
// as the block's notes.
// A test returning `Result` that failed with `Err` prints `Error: {err:?}` in its block, no panic: its message.
// With one thread a test that prints without a newline gets its result on that line (`test x ... checking… ok`,
// `xok`): a line ending in `ok`/`FAILED` while the test's line is cut is its result once libtest's next line
// (`test …`, `failures:`) follows. `test x has been running for over 60 seconds` names a test still running: when
// the log ends inside that binary's run (the run killed), it is the test the binary hung in.
// libtest's terse format (`-- --format=terse`, and `cargo test -q`) prints a dot (`i` ignored) per test, with
// `. 1/18` counts, and `NAME --- FAILED` on a line of its own per failure: the test's line. Its dots are the
// counts of a binary that dies before its `test result:` line.
// Under --nocapture a test's `Error: {err:?}` is printed loose: the next failing test with no panic of its own takes it.
import { Char, isDigit } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts, Frame, Tests, TestFailure, MAX_FAILURES } from "../../model";
import { Parser } from "../../parser";
import { ByteSet } from "../../util/byte-set";
import { classify, normPath } from "../../frames";
import { withName } from "../../util/name-hash";
import { failureIn, pkgOr, crashMidSuite, countBefore, joinLines, foreignLine } from "./common";
import { decodeJsonString, jsonBuf } from "../../util/json-string";

/** Before cargo test showed itself: `test ..`, `running N tests` at column 0, `Running ..`/`Doc-tests ..` after blanks, `error: could not compile` at column 0. */
const STARTS = new ByteSet().chars("trRDe{");

/** l[a, b) is all lowercase hex digits. */
function isHex(l: Line, a: i32, b: i32): bool {
  for (let i = a; i < b; i++) { let c = l.at(i); if (!(isDigit(c) || (c >= Char.a && c <= Char.f))) return false; }
  return true;
}

export class CargoTestParser extends Parser {
  seen: bool = false;
  inBlock: bool = false;
  inList: bool = false;
  cur: TestFailure | null = null;
  msg: string[] = [];
  inMsg: bool = false;
  /** Inside an old-format panic message whose closing quote and location are still to come. */
  oldOpen: bool = false;
  /** After a loose panic's `stack backtrace:`: its frame lines follow. */
  looseTrace: bool = false;
  /** The test whose cut line a panic of the binary's main thread came in (a harness-less binary). */
  mainPanicOf: string | null = null;
  /** After pretty_assertions' `assertion failed: `(left == right)`` and its blank line: its `Diff` may follow. */
  prettyGap: bool = false;
  /** In pretty_assertions' diff: its unchanged lines (a space first) are left out of the message. */
  prettyDiff: bool = false;
  passed: i64 = 0; failed: i64 = 0; skipped: i64 = 0;
  bp: i64 = 0; bf: i64 = 0; bs: i64 = 0;
  crashed: string | null = null;
  /** The current test binary's `running N tests`. */
  planned: i64 = -1;
  /** Between a binary's `running N tests` and its `test result:` line. */
  inRun: bool = false;
  /** A test binary died before its `test result:` line (its counts are in passed/failed/skipped). */
  dead: bool = false;
  /** The tests of the binaries that died which they never reached; -1 while none of them said its plan. */
  notRun: i64 = -1;
  /** The block being read has shown its (first) panic. */
  panicSeen: bool = false;
  running: string | null = null;
  /**
   * The result word the latest line that ended with one ended with while `running`'s line was cut (--nocapture):
   * a test that prints without a newline gets its result on that line (`test x ... checking… ok`, `xok`); with more
   * threads another test's output may cut a whole line (`test a ... Error: ok`). It is the test's result when
   * libtest's next own line comes (the next `test ` line, `failures:`, `test result:`) with no result line before.
   */
  glued: string | null = null;
  /**
   * The test libtest said `has been running for over 60 seconds` of, until its result line: when the log ends
   * inside its binary's run (the run killed), that test is the one it hung in.
   */
  slow: string | null = null;
  /** The test a binary died in after its thread panicked (read from its first panic): the crash's place. */
  diedAt: TestFailure | null = null;
  /**
   * The test whose thread last printed a panic outside a block and has no result line since. With more threads
   * no `test NAME ... ` line names the test running: a panic that cannot unwind (`thread caused non-unwinding
   * panic. aborting.`: core's UB checks, a panic in a `Drop` while unwinding) prints loose, then the binary dies
   * of SIGABRT: that test is the one it died in.
   */
  lastLoose: string | null = null;
  /** Reading a panic printed outside a `---- name stdout ----` block (--nocapture) into cur. */
  loose: bool = false;
  /** Those panics, by thread (test) name, until their test's result line. */
  panics: TestFailure[] = [];
  /** The tests listed `... ok`, as many as the verdict lists failures: what ran if cargo then stopped. */
  okNames: string[] = [];
  /** Every `... ok` test hashed with its crate (Tests.passedSet); null past MAX_PASSED_SET. */
  passHashes: Array<u32> | null = [];
  /**
   * `error: test failed, to rerun pass `--lib`` and no target after it: cargo stopped there (no --no-fail-fast),
   * the targets after it did not run.
   */
  stoppedAfter: string | null = null;
  /**
   * The crate of the test binary running (`Running unittests src/lib.rs (target/debug/deps/lexer-fc35eba1)`:
   * lexer; `Doc-tests lexer`), "" before any: a workspace's crates may each have a `tests::parses`.
   */
  crate: string = "";
  /** The binary running is rustdoc's (`Doc-tests crate`). */
  doc: bool = false;
  /** Reading rustdoc's `Test executable failed` outside a block (--nocapture) until the program's panic. */
  docWait: bool = false;
  /** Doc-test failures rustdoc printed before their test's name (--nocapture, more threads), in order. */
  docPending: TestFailure[] = [];
  /** A `Running ...`/`Doc-tests ...` line named a test binary (not so under `cargo test -q`). */
  targetSeen: bool = false;
  /** The index in tests.failures where the current binary's failures start. */
  binStart: i32 = 0;
  /** Inside libtest's `successes:` section (--show-output): the passing tests' output and names. */
  inSuccess: bool = false;
  /**
   * std's `Error: {err:?}` of a test that ended in Err, printed loose (--nocapture: no blocks), until a failing test
   * with no panic of its own takes it as its message: it comes before its test's `test … FAILED` line (more
   * threads), or after its cut `test … ` line, on it when the test printed nothing (one thread).
   */
  looseErr: string | null = null;
  /** libtest refused its arguments (isLibtestUsage): the run's set-up failure. */
  refused: bool = false;
  /** A line of a JSON event's `stdout`, read as a block's line. */
  view: Line = new Line();
  /** Where in a trybuild section (`EXPECTED:`, then its text between two rules of `┈`) the line is. */
  quoted: Quote = Quote.NONE;
  /** trybuild's pass case that did not compile (`test tests/x.rs ... error`): its quoted output's first error is its message. */
  tbCase: TestFailure | null = null;

  busy(): bool { return this.inBlock || this.quoted != Quote.NONE; }
  atRest(): bool { return !this.seen && !this.inBlock && !this.loose; }
  starts(): ByteSet | null { return STARTS; }

  claim(l: Line, f: Facts): bool {
    if (this.quoted != Quote.NONE || this.inRun && !this.inBlock && !this.loose) {
      if (this.trybuild(l)) return true;
    }
    let c = l.at(0);
    // Not inside a block: a test's output may print such a line.
    if (c == Char.LBRACE && !this.inBlock && !this.loose && !this.inSuccess && l.matchAt("{ \"type\": \"", 0) && this.json(l, f)) return true;
    if (this.inSuccess) {
      if (!(l.startsWith("failures:") || l.startsWith("test result: ") || l.startsWith("running ") || foreignLine(l))) return true;
      this.inSuccess = false;
    }
    if (this.inBlock) {
      if (foreignLine(l)) return false;
      if (c == Char.MINUS && l.startsWith("---- ") && l.endsWith(" ----")) { this.endBlock(); this.block(l, f); return true; }
      if (l.startsWith("failures:") || l.startsWith("test result: ") || l.startsWith("running ")) { this.endBlock(); this.inBlock = false; }
      else { this.blockLine(l); return true; }
      c = l.at(0);
    }
    // The frames of a panic printed loose (RUST_BACKTRACE=1), up to its `note: Some details are omitted`.
    if (this.looseTrace) {
      if (isFrameLine(l)) return true;
      this.looseTrace = false;
    }
    if (this.loose && this.docWait) {
      // rustdoc's `stderr:` header and blank lines, up to the program's panic (its message is the doc-test's).
      if (l.startsWith("thread '") && l.indexOf(" panicked at ") > 0) { this.docWait = false; this.blockLine(l); return true; }
      if (!(c == Char.t && l.startsWith("test ") || this.running !== null && isResultWord(l))) return true;
      this.docWait = false;
      this.endLoose();
    }
    if (this.doc && this.inRun && !this.inBlock && !this.loose && isRustdocVerdict(l, 0)) return this.docVerdict(l, f);
    if (this.loose) {
      if (!(c == Char.t && (l.startsWith("test ") || l.startsWith("thread '")) || l.startsWith("failures:") ||
          l.startsWith("running ") || l.startsWith("---- ") || this.running !== null && isResultWord(l))) {
        this.blockLine(l);
        if (!this.inMsg) this.endLoose();
        return true;
      }
      this.endLoose();
    }
    if (this.running !== null && this.inRun) {
      let g = this.glued;
      if (g !== null && (c == Char.t && l.startsWith("test ") || c == Char.f && l.startsWith("failures:"))) {
        // The line before ended with the running test's result, glued to what it printed.
        let name = this.running!;
        this.glued = null;
        if (g != "FAILED") dropPending(f.testsFor("cargo-test"), name, this.crate);
        this.testResult(name, g, f);
      } else {
        // The latest word stands: more output may follow it (another thread's, with more than one thread:
        // `test a ... Error: ok`, its `Error:` from a test still running).
        // (a `test ` line is libtest's, read as one below, never a test's output)
        if (!(c == Char.t && l.startsWith("test "))) {
          let w = gluedResult(l);
          if (w !== null) this.glued = w;
        }
      }
    }
    if (this.inRun && c == Char.E && l.startsWith("Error: ")) {
      // Another thread's `test NAME ... ok` cut std's line after its `Error: ` (the error's text on the next line):
      // the rest is libtest's line.
      if (l.matchAt("test ", 7) && l.indexOf(" ... ", 12) > 0) { let v = this.view; v.set(l.ptr + 7, l.len - 7); v.no = l.no; return this.testLine(v, f); }
      this.looseErr = l.trimmed(0);
      return true;
    }
    // The result of the test whose `test NAME ... ` line was cut by output printed while it ran (--nocapture).
    if (this.running !== null && isResultWord(l)) {
      let name = this.running!;
      let res = withoutTime(l.trimmed(0));
      // It did not die in it: the failure its cut line stood for goes, unless it failed after all.
      if (res != "FAILED") dropPending(f.testsFor("cargo-test"), name, this.crate);
      this.testResult(name, res, f);
      return true;
    }
    if (this.inRun) {
      // terse: `tests::x --- FAILED`, `.... 4/18`
      if (l.endsWith(" --- FAILED") && l.len > 11) { this.testResult(withoutMode(l.str(0, l.len - 11)), "FAILED", f); return true; }
      if ((c == Char.DOT || c == Char.i) && isTerseProgress(l)) { this.terseDots(l); return true; }
    }
    if (c == Char.t) {
      if (l.startsWith("test result: ")) { this.result(l, f); this.inList = false; return true; }
      if (l.startsWith("test ")) {
        if (this.inRun && l.endsWith(RUNNING_LONG) && l.len > 5 + RUNNING_LONG.length) {
          this.slow = l.str(5, l.len - RUNNING_LONG.length);
          return true;
        }
        return this.testLine(l, f);
      }
      if (this.seen && l.startsWith("thread '")) {
        // `thread 'tests::x' (7) has overflowed its stack`: the runtime aborts the binary; that test is the one
        // that died. The line is left to the Rust panic parser, whose crash it is.
        let name = overflowedThread(l);
        if (name !== null) { failureIn(f.testsFor("cargo-test"), name!, this.crate).message = "thread '" + name! + "' has overflowed its stack"; return false; }
        return this.loosePanic(l);
      }
      return false;
    }
    if (c == Char.r && l.startsWith("running ")) {
      let n = l.readInt(8);
      if (n < 0 || !l.matchAt(" test", l.end)) return false;
      this.begin(n, f);
      return true;
    }
    // libtest refused its arguments before it ran a test (`error: Unrecognized option: 'bogus'`, `error: the option `Z`
    // is only accepted on the nightly compiler`): the command line is what failed, the run's set-up.
    if (c == Char.e && !this.inRun && l.startsWith("error: ") && isLibtestUsage(l, 7)) {
      if (f.setupFailure === null && f.crash === null) f.setupFailure = l.trimmed(0);
      this.seen = true;
      this.refused = true;
      return true;
    }
    let p0 = l.skipSpaces(0);
    if (l.matchAt("Running unittests ", p0) || l.matchAt("Running tests/", p0) || l.matchAt("Running benches/", p0) || l.matchAt("Doc-tests ", p0)) { this.target(l, p0); return true; }
    if (!this.seen) {
      if (l.startsWith("error: could not compile `") && l.indexOf(" test)") > 0 && !f.cargoCheck) { f.testsFor("cargo-test"); this.seen = true; return false; }
      return false;
    }
    if (c == Char.MINUS && l.startsWith("---- ") && l.endsWith(" ----")) { this.block(l, f); return true; }
    if (c == Char.s && this.inRun && l.startsWith("successes:") && l.len <= 11) { this.inSuccess = true; return true; }
    // `failures (time limit exceeded):` (--ensure-time), before its own list of names
    if (l.startsWith("failures:") || l.startsWith("failures (") && l.endsWith("):")) { this.inList = true; return true; }
    if (this.inList && l.startsWith("    ") && !l.isBlank()) return true;
    let p = l.skipSpaces(0);
    if (l.matchAt("Running ", p) || l.matchAt("Doc-tests ", p)) { this.target(l, p); return true; }
    if (l.startsWith("error: test failed, to rerun pass ") || l.startsWith("error: doctest failed, to rerun pass ") ||
        l.startsWith("error: bench failed, to rerun pass ")) {
      // The binary's main thread panicked in a test (above): it ended there, that test failed where it panicked
      // and the tests after it never ran. Its exit (101) is a panic's, no crash.
      let r = this.running;
      if (this.inRun && r !== null && this.mainPanicOf == r) {
        let tf = failureIn(f.testsFor("cargo-test"), r, this.crate);
        if (tf.message.length == 0 && tf.file === null) this.firstPanic(tf);
        this.died(f);
      }
      this.stoppedAfter = l.trimmed(l.indexOf(" pass ") + 6);
      // Quiet (-q) names no binary: the target cargo names here is the unit of the failures its binary printed.
      if (!this.targetSeen) quietTarget(f.testsFor("cargo-test"), this.binStart, this.stoppedAfter!);
      return true;
    }
    // --no-fail-fast: cargo went on to the next target (a `Running` line), and sums the failed ones up here
    // (`error: 2 targets failed:`, `error: 1 target failed:`).
    if (l.startsWith("error: ") && (l.contains(" targets failed:") || l.contains(" target failed:"))) { this.stoppedAfter = null; return true; }
    if (l.startsWith("    `--") && l.endsWith("`")) return true;
    if (l.startsWith("Caused by:")) return true;
    // after `process didn't exit successfully: … (exit status: 3)`: cargo's, not the test's
    if (l.startsWith("note: test exited abnormally")) return true;
    if (l.matchAt("process didn't exit successfully: ", p)) {
      let x = l.indexOf("(exit status: ");
      if (x > 0 && this.inRun) {
        // A test ended its binary (`process::exit(3)`) before the binary's `test result:`: that test failed,
        // the ones after it never ran. No crash: it exited.
        if (this.running !== null) {
          let tf = failureIn(f.testsFor("cargo-test"), this.running!, this.crate);
          if (tf.message.length == 0) tf.message = "test binary exited early (" + l.trimmed(x + 1, l.lastIndexOfByte(Char.RPAREN)) + ")";
        }
        this.died(f);
        return true;
      }
      let s = l.indexOf("(signal: ");
      if (s > 0) {
        let comma = l.indexOf(", ", s);
        let colon = l.indexOf(":", comma);
        if (comma > 0 && colon > comma) this.crashed = l.str(comma + 2, colon);
        if (this.running === null && this.inRun) this.running = this.lastLoose;
        if (this.running !== null) {
          let tf = failureIn(f.testsFor("cargo-test"), this.running!, this.crate);
          // A panic while it panicked (a Drop that panics while unwinding: `panic in a destructor during
          // cleanup`, `thread caused non-unwinding panic. aborting.`) aborts the binary: its thread's first panic
          // is why the test died, and where.
          if (tf.message.length == 0 && tf.file === null && this.firstPanic(tf)) this.diedAt = tf;
          // `has overflowed its stack` said already why it died.
          if (tf.message.length == 0) tf.message = "test binary killed by " + l.trimmed(s + 1, l.lastIndexOfByte(Char.RPAREN));
        }
        // cargo may go on to the next binary (--no-fail-fast), whose `running N tests` starts its counts anew.
        if (this.inRun) this.died(f);
      }
      return true;
    }
    return false;
  }

  /**
   * trybuild (a test running compile-fail cases, `t.compile_fail("tests/ui/*.rs")`) prints per case
   * `test tests/ui/x.rs ... mismatch` (or `error`), then sections headed `EXPECTED:`, `ACTUAL OUTPUT:` (`STDERR:`,
   * `STDOUT:`), each the compiler's output quoted between two rules of `┈`, and `note: If the actual output is the
   * correct output you can bless it by rerunning` + `your test with the environment variable TRYBUILD=overwrite`.
   * The quoted errors are what the case's compile printed or was to print, not the build's: claimed, read as nothing.
   */
  private trybuild(l: Line): bool {
    let q = this.quoted;
    if (q != Quote.NONE) {
      if (isTrybuildRule(l)) {
        this.quoted = q == Quote.HEADED ? Quote.INSIDE : Quote.NONE;
        if (this.quoted == Quote.NONE) this.tbCase = null;
        return true;
      }
      if (q == Quote.INSIDE) { this.caseError(l); return true; }
      if (isTrybuildHeader(l)) return true;
      this.quoted = Quote.NONE; // a header with no rule under it: not trybuild's
      this.tbCase = null;
      return false;
    }
    if (isTrybuildHeader(l)) { this.quoted = Quote.HEADED; return true; }
    return l.startsWith("note: If the actual output is the correct output you can bless it") ||
      l.startsWith("      your test with the environment variable TRYBUILD=");
  }

  /** A pass case's first quoted error (`error[E0308]: mismatched types`, its `--> file:line:col`) is its failure. */
  private caseError(l: Line): void {
    let t = this.tbCase;
    if (t === null) return;
    if (t.message.length == 0) {
      if (l.startsWith("error")) t.message = l.toString();
      return;
    }
    let p = 0;
    while (l.at(p) == Char.SPACE) p++;
    if (t.file === null && l.matchAt("--> ", p)) this.loc(t, l.trimmed(p + 4));
    if (t.file !== null) this.tbCase = null;
  }

  /** A libtest JSON event (`{ "type": "test", ...`); false for a type it does not print. */
  private json(l: Line, f: Facts): bool {
    let suite = l.matchAt("suite\"", 11);
    if (!suite && !l.matchAt("test\"", 11)) {
      if (!l.matchAt("bench\"", 11)) return false;
      // `{ "type": "bench", "name": "ascii_line", "median": 269.8, "deviation": 141.1 }`: a benchmark that ran
      let b = l.indexOf("\"name\": \"", 16);
      if (b > 0) {
        let n = decodeJsonString(l, b + 9);
        this.testResult(String.UTF8.decodeUnsafe(jsonBuf(), <usize>n), "ok", f);
      }
      return true;
    }
    let ev = l.indexOf("\"event\": \"", 16);
    if (ev < 0) return false;
    ev += 10;
    this.seen = true;
    if (suite) {
      if (l.matchAt("started\"", ev)) {
        let k = l.indexOf("\"test_count\": ", ev);
        this.begin(k > 0 ? l.readInt(k + 14) : -1, f);
        return true;
      }
      let p = jsonCount(l, "\"passed\": "), fl = jsonCount(l, "\"failed\": "), ig = jsonCount(l, "\"ignored\": ");
      let ms = jsonCount(l, "\"measured\": ");
      if (ms > 0) this.passed += ms;
      if (p > 0) this.passed += p;
      if (fl > 0) this.failed += fl;
      if (ig > 0) this.skipped += ig;
      this.running = null;
      this.bp = 0; this.bf = 0; this.bs = 0;
      this.inRun = false; f.testRun = false;
      f.testsFor("cargo-test").totals = true;
      return true;
    }
    let k = l.indexOf("\"name\": \"", 16);
    if (k < 0) return true;
    let n = decodeJsonString(l, k + 9);
    let name = withoutMode(String.UTF8.decodeUnsafe(jsonBuf(), <usize>n));
    if (l.matchAt("ok\"", ev)) this.testResult(name, "ok", f);
    else if (l.matchAt("ignored\"", ev)) this.testResult(name, "ignored", f);
    else if (l.matchAt("failed\"", ev)) {
      this.testResult(name, "FAILED", f);
      let t = failureIn(f.testsFor("cargo-test"), name, this.crate);
      this.cur = t;
      this.msg = [];
      this.inMsg = false;
      this.panicSeen = false;
      let o = l.indexOf("\"stdout\": \"", ev);
      if (o > 0) this.jsonText(l, o + 11);
      o = l.indexOf("\"message\": \"", ev);
      if (o > 0) {
        this.inMsg = false;
        this.jsonText(l, o + 12);
      }
      this.endBlock();
    }
    return true;
  }

  /**
   * The JSON string at l[p] read line by line into the current failure, as a block's lines; a `message`'s
   * `test did not panic as expected at src/lib.rs:5:8` as the text format's note.
   */
  private jsonText(l: Line, p: i32): void {
    let n = decodeJsonString(l, p);
    let b = jsonBuf();
    let v = this.view;
    let s = 0;
    for (let i = 0; i <= n; i++) {
      if (i < n && load<u8>(b + <usize>i) != Char.LF) continue;
      v.set(b + <usize>s, i - s);
      v.no = l.no;
      if (s == 0 && v.startsWith("test did not panic as expected")) {
        this.msg = ["test did not panic as expected"];
        let at = v.indexOf(" at ", 30);
        if (at > 0 && this.cur !== null) this.loc(this.cur!, v.trimmed(at + 4));
      } else if (s == 0 && v.startsWith("panic did not contain expected string")) {
        this.msg.push("panic did not contain expected string");
      } else this.blockLine(v);
      s = i + 1;
    }
  }

  /** A test binary's `running N tests` (n -1 when it did not say): its counts start. */
  private begin(n: i64, f: Facts): void {
    if (this.inRun) this.endedEarly(f);
    this.seen = true; this.inList = false;
    this.bp = 0; this.bf = 0; this.bs = 0;
    this.planned = n; this.inRun = true; f.testRun = true;
    this.slow = null; this.glued = null; this.looseErr = null;
    this.mainPanicOf = null;
    this.lastLoose = null;
    // A binary after a failing one ran: cargo did not stop there (-q names no target to say so).
    this.stoppedAfter = null;
    this.binStart = f.testsFor("cargo-test").failures.length;
  }

  /**
   * A test binary's `Running` line (at p) or `Doc-tests crate`: the next target; its crate is the binary's
   * name less cargo's hash (`target/debug/deps/lexer-fc35eba13dc2f10f`, in parentheses since cargo 1.61).
   */
  private target(l: Line, p: i32): void {
    this.stoppedAfter = null;
    this.targetSeen = true;
    this.doc = l.matchAt("Doc-tests ", p);
    if (this.doc) { this.crate = l.trimmed(p + 10); return; }
    let e = l.len;
    if (l.at(e - 1) == Char.RPAREN) e--;
    let slash = l.lastIndexOfByte(Char.SLASH, e);
    let dash = l.lastIndexOfByte(Char.MINUS, e);
    let a = slash + 1;
    this.crate = slash > p && dash > a && e - dash - 1 >= 8 && isHex(l, dash + 1, e) ? l.str(a, dash) : "";
  }

  /** `test tests::x ... ok`, `test tests::y - should panic ... FAILED`, `test z ... error: test failed` (died). */
  private testLine(l: Line, f: Facts): bool {
    let dots = l.indexOf(" ... ");
    if (dots < 0) return false;
    // `cargo bench` pads the names to one width: `test ascii_line     ... bench:  171.98 ns/iter (+/- 213.52)`.
    let e = dots;
    while (e > 5 && l.at(e - 1) == Char.SPACE) e--;
    let name = l.str(5, e);
    name = withoutMode(name);
    let t = f.testsFor("cargo-test");
    this.seen = true;
    // --report-time: `ok <0.000s>`; --ensure-time: `FAILED (time limit exceeded) <1.200s>`.
    let res = withoutTime(l.trimmed(dots + 5));
    if (res == "FAILED (time limit exceeded)") {
      this.testResult(name, "FAILED", f);
      let tf = failureIn(t, name, this.crate);
      if (tf.message.length == 0) tf.message = "time limit exceeded";
      return true;
    }
    // A doc-test's verdict printed after its name (--nocapture, one thread): `Test executable succeeded, but it's
    // marked `should_panic`.FAILED` whole, or `Test executable failed (exit status: 101).` and its stderr to come.
    if (this.doc && isRustdocVerdict(l, dots + 5)) {
      if (res.endsWith("FAILED")) {
        let tf = failureIn(t, name, this.crate);
        if (tf.message.length == 0) tf.message = rustdocSentence(res);
        docTestLocation(tf);
        this.testResult(name, "FAILED", f);
        return true;
      }
      this.testResult(name, res, f);
      this.docCapture(failureIn(t, name, this.crate));
      return true;
    }
    this.testResult(name, res, f);
    // The binary ended in that test (`process::exit(0)`) and cargo's next `     Running tests/x.rs (…)` or
    // `   Doc-tests x` went on the same line: that target's line.
    if (this.running === null) return true;
    let v = l.indexOf("Running ", dots + 5);
    if (v < 0) v = l.indexOf("Doc-tests ", dots + 5);
    if (v > dots + 5 && l.at(v - 1) == Char.SPACE && (l.matchAt("Running unittests ", v) || l.matchAt("Running tests/", v) ||
        l.matchAt("Running benches/", v) || l.matchAt("Doc-tests ", v))) {
      this.endedEarly(f);
      this.target(l, v);
    }
    return true;
  }

  /**
   * rustdoc's verdict on a doc-test at the start of a line, before the test's name (--nocapture, more threads):
   * a failure of the next doc-test said to fail. `... marked `should_panic`.test src/lib.rs - f (line 9) ... FAILED`
   * goes on with that test's line.
   */
  private docVerdict(l: Line, f: Facts): bool {
    let p = new TestFailure();
    if (this.docPending.length < 64) this.docPending.push(p);
    if (l.startsWith("Test executable failed")) { this.docCapture(p); return true; }
    let s = rustdocSentence(l.toString());
    p.message = s;
    let rest = l.indexOf("test ", s.length);
    if (rest == s.length) {
      let sub = new Line();
      sub.set(l.ptr + <usize>rest, l.len - rest);
      this.testLine(sub, f);
    }
    return true;
  }

  /** Reads what follows `Test executable failed` (stderr, the program's panic) into t, as a block would. */
  private docCapture(t: TestFailure): void {
    this.cur = t;
    this.msg = [];
    this.inMsg = false;
    this.panicSeen = false;
    this.loose = true;
    this.docWait = true;
  }

  /**
   * The test's result word. Anything else is the test still running: the binary died in it (a failure, with
   * no message yet), or the rest of the line is output printed before its result (--nocapture: the test's
   * println, another test's panic; with one thread always), whose own line then drops that failure.
   */
  private testResult(name: string, res: string, f: Facts): void {
    let sl = this.slow;
    if (sl !== null && sl == name) this.slow = null;
    let ll = this.lastLoose;
    if (ll !== null && ll == name) this.lastLoose = null;
    // trybuild's case whose output it wrote (`test tests/ui/x.rs ... wip`: to wip/, or over its .stderr under
    // TRYBUILD=overwrite): no result of a test; the test running the cases passes or fails on its own line.
    if (res == "wip" && name.endsWith(".rs")) { this.running = null; return; }
    // trybuild's pass case that failed to compile (`test tests/x.rs ... error`): the compiler's output follows between
    // two rules of `┈` with no header: a quoted section, not the build's errors.
    if (res == "error" && name.endsWith(".rs")) {
      this.running = null;
      this.quoted = Quote.HEADED;
      this.tbCase = failureIn(f.testsFor("cargo-test"), name, this.crate);
      return;
    }
    // A benchmark that ran (`bench: 171.98 ns/iter (+/- 213.52)`, `test result:`'s `measured`) passed.
    if (res == "ok" || res.startsWith("bench: ")) { this.running = null; this.bp++; if (this.okNames.length < MAX_FAILURES) this.okNames.push(name); this.passHashes = withName(this.passHashes, name, this.crate); }
    else if (res == "FAILED") { this.adopt(failureIn(f.testsFor("cargo-test"), name, this.crate)); this.running = null; this.bf++; }
    else if (res.startsWith("ignored")) { this.running = null; this.bs++; }
    else {
      this.running = name; this.glued = res.endsWith("ok") ? "ok" : res.endsWith("FAILED") ? "FAILED" : null;
      if (res.startsWith("Error: ")) this.looseErr = res;
      failureIn(f.testsFor("cargo-test"), name, this.crate);
    }
  }

  /**
   * terse's progress (`..i. 4/18`): a dot per test that passed, `i` per one ignored. They are what counts of a
   * binary that dies before its `test result:` line (a stack overflow under `cargo test -q`).
   */
  private terseDots(l: Line): void {
    for (let i = 0; i < l.len; i++) {
      let c = l.at(i);
      if (c == Char.DOT) this.bp++;
      else if (c == Char.i) this.bs++;
      else break;
    }
  }

  /** `thread 'tests::x' panicked at src/lib.rs:4:5:` outside a block: a test's panic under --nocapture. */
  private loosePanic(l: Line): bool {
    let q = l.indexOfByte(Char.APOS, 8);
    if (q <= 8 || l.indexOf(" panicked at ", q) < 0) return false;
    let name = l.str(8, q);
    // Not a test's thread: one the test spawned without a name.
    if (name == "<unnamed>") return false;
    if (name == "main") {
      // A harness-less binary (`harness = false`: bencher's main, a custom one) runs each test on its main
      // thread: a panic of it while a test's line is cut (`test push_full ... `) is that test's. Else the harness's own.
      if (this.running === null || !this.inRun) return false;
      name = this.running!;
      this.mainPanicOf = name;
    }
    let t = new TestFailure();
    t.name = name;
    this.lastLoose = name;
    if (this.panics.length < 64) this.panics.push(t);
    this.cur = t;
    this.msg = [];
    this.loose = true;
    this.blockLine(l);
    return true;
  }

  private endLoose(): void {
    this.loose = false;
    this.endBlock();
  }

  /** Gives tf the first panic its thread printed (loose: one thread, or --nocapture); false when there is none. */
  private firstPanic(tf: TestFailure): bool {
    let ps = this.panics;
    for (let i = 0; i < ps.length; i++) {
      let p = ps[i];
      if (p.name != tf.name || p.file === null) continue;
      tf.file = p.file; tf.line = p.line; tf.message = p.message; tf.expected = p.expected; tf.actual = p.actual;
      return true;
    }
    return false;
  }

  /** Gives a failing test the panic its thread printed earlier (--nocapture), unless a block already did. */
  private adopt(tf: TestFailure): void {
    if (tf.file !== null || tf.message.length > 0) return;
    if (isDocTest(tf.name) && this.docPending.length > 0) {
      let p = this.docPending.shift();
      tf.message = p.message; tf.expected = p.expected; tf.actual = p.actual;
      docTestLocation(tf);
      return;
    }
    let ps = this.panics;
    for (let i = ps.length - 1; i >= 0; i--) {
      let p = ps[i];
      if (p.name != tf.name) continue;
      tf.file = p.file; tf.line = p.line; tf.message = p.message; tf.expected = p.expected; tf.actual = p.actual;
      return;
    }
    let e = this.looseErr;
    if (e !== null) { tf.message = e; this.looseErr = null; }
  }

  private block(l: Line, f: Facts): void {
    let name = l.str(5, l.len - 5);
    if (name.endsWith(" stdout")) name = name.substring(0, name.length - 7);
    else if (name.endsWith(" stderr")) name = name.substring(0, name.length - 7);
    this.cur = failureIn(f.testsFor("cargo-test"), name, this.crate);
    this.inBlock = true;
    this.inMsg = false;
    this.msg = [];
  }

  private blockLine(l: Line): void {
    let t = this.cur;
    if (t === null) return;
    let pan = l.indexOf(" panicked at ");
    if (l.startsWith("thread '") && pan > 0) {
      // The first panic of a test is the cause: a later one is its consequence (the test thread's
      // `worker thread failed: Any { .. }` after the worker it joined panicked).
      if (this.panicSeen) { this.inMsg = false; return; }
      this.panicSeen = true;
      let p = pan + 13;
      if (l.at(p) == Char.APOS) {
        // Old format (rustc < 1.73): panicked at 'msg', src/lib.rs:1:2 — the message may span lines,
        // and then the quote closes, with the location, on a later line.
        let q = l.lastIndexOf("', ");
        if (q > p) { this.msg = [l.str(p + 1, q)]; this.loc(t, l.trimmed(q + 3)); this.oldOpen = false; }
        else { this.msg = [l.str(p + 1)]; this.oldOpen = true; }
        this.inMsg = true;
        return;
      }
      let end = l.len;
      if (l.at(end - 1) == Char.COLON) end--;
      this.loc(t, l.str(p, end));
      this.msg = [];
      this.inMsg = true;
      this.prettyGap = false; this.prettyDiff = false;
      return;
    }
    if (l.startsWith("note: test did not panic as expected")) {
      this.msg = ["test did not panic as expected"];
      let at = l.indexOf(" at ", 30);
      if (at > 0) this.loc(t, l.trimmed(at + 4));
      this.inMsg = false;
      return;
    }
    if (l.startsWith("note: run with `RUST_BACKTRACE")) { this.inMsg = false; return; }
    if (l.startsWith("stack backtrace:")) { this.inMsg = false; if (this.loose) this.looseTrace = true; return; }
    if (this.prettyGap) {
      // pretty_assertions: its header, a blank line, then the diff (`Diff < left / right > :`, the changed lines
      // `<left` / `>right`) or assert_ne!'s `Both sides:` and the value; anything else ended the message.
      this.prettyGap = false;
      if (l.startsWith("Diff < left / right > :")) { this.prettyDiff = true; this.msg.push("Diff < left / right > :"); return; }
      if (!l.startsWith("Both sides:")) this.inMsg = false;
    }
    if (!this.inMsg) {
      // A doctest that fails without a panic: rustdoc's words, or rustc's first error when it did not compile
      // (its `-->` line is not used: rustdoc's lines there run one past the file's).
      if (this.msg.length == 0 && isDocTest(t.name) && (l.startsWith("Test executable succeeded, but it's marked `should_panic`") ||
          l.startsWith("Test compiled successfully, but it's marked `compile_fail`") ||
          l.startsWith("error[E") || l.startsWith("error: ") && !cargoOwn(l))) {
        this.msg.push(l.trimmed(0));
        return;
      }
      // A test returning `Result` that ended in `Err` does not panic: std prints `Error: {err:?}` (anyhow's adds
      // `Caused by:` and its causes, left out). The last such line before any panic is the message.
      if (!this.panicSeen && l.startsWith("Error: ")) { this.msg = [l.trimmed(0)]; return; }
      if (l.startsWith("note: panic did not contain expected string")) { this.msg.push("panic did not contain expected string"); }
      else if (l.matchAt(" expected substring: ", 0)) this.msg.push(l.trimmed(0));
      return;
    }
    if (l.isBlank()) {
      if (this.msg.length == 1 && !this.prettyDiff && isPrettyHeader(this.msg[0])) { this.prettyGap = true; return; }
      this.inMsg = false; this.prettyDiff = false;
      return;
    }
    if (this.prettyDiff) {
      // its lines that differ (`<left`, `>right`); an unchanged line (a space first) is left out; anything else
      // is no line of the diff
      let c0 = l.at(0);
      if (c0 == Char.SPACE) return;
      if (c0 != Char.LT && c0 != Char.GT) { this.inMsg = false; this.prettyDiff = false; return; }
    }
    // proptest's search counts after its failure (`\tsuccesses: 19`): they vary from run to run, no message.
    if (isProptestCount(l)) return;
    let s = l.toString();
    if (this.oldOpen) {
      let q = l.lastIndexOf("', ");
      if (q >= 0) {
        this.loc(t, l.trimmed(q + 3));
        this.oldOpen = false;
        s = l.str(0, q);
        // `right: `5`: amounts are absolute` — the assert's own message follows the values.
        let tail = s.indexOf("`: ");
        if (tail >= 0 && s.trimStart().trimEnd().startsWith("right: ")) { if (this.msg.length < 6) this.msg.push(s.substring(tail + 3)); s = s.substring(0, tail + 1); }
      }
    }
    let tr = s.trimStart().trimEnd();
    this.proptestPlace(t, tr);
    if (tr.startsWith("left: ")) t.actual = tr.endsWith(",") ? tr.substring(6, tr.length - 1) : tr.substring(6);
    else if (tr.startsWith("right: ")) t.expected = tr.substring(7);
    if (this.msg.length < 6) this.msg.push(tr);
  }

  /** proptest's failure closes with `{reason} at {file}:{line}; minimal failing input: {input}` (prop_assert!'s own
   *  place; the panic's is the proptest! macro's line): the failure is placed there. */
  private proptestPlace(t: TestFailure, s: string): void {
    let m = s.indexOf("; minimal failing input: ");
    if (m < 0) return;
    let at = s.lastIndexOf(" at ", m);
    if (at >= 0) this.loc(t, s.substring(at + 4, m));
  }

  private loc(t: TestFailure, s: string): void {
    // src/lib.rs:45:9
    let c2 = s.lastIndexOf(":");
    if (c2 < 0) return;
    let c1 = s.lastIndexOf(":", c2 - 1);
    let lineStr = c1 >= 0 ? s.substring(c1 + 1, c2) : s.substring(c2 + 1);
    let file = c1 >= 0 ? s.substring(0, c1) : s.substring(0, c2);
    let n = I32.parseInt(lineStr);
    if (n <= 0) return;
    t.file = normPath(file);
    t.line = n;
  }

  private endBlock(): void {
    let t = this.cur;
    if (t !== null && this.msg.length > 0) t.message = joinLines(this.msg, 6);
    if (t !== null) docTestLocation(t);
    this.cur = null;
    this.msg = [];
    this.inMsg = false;
    this.oldOpen = false;
    this.prettyGap = false; this.prettyDiff = false;
    this.panicSeen = false;
  }

  /** `test result: FAILED. 1 passed; 4 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.00s` */
  private result(l: Line, f: Facts): void {
    let s = l.toString();
    let p = countBefore(s, "passed"); let fl = countBefore(s, "failed"); let ig = countBefore(s, "ignored");
    // the benchmarks that ran (`0 passed; 1 failed; 0 ignored; 2 measured`) passed, as their lines said
    let ms = countBefore(s, "measured");
    if (ms > 0) this.passed += ms;
    if (p > 0) this.passed += p;
    if (fl > 0) this.failed += fl;
    if (ig > 0) this.skipped += ig;
    this.running = null;
    this.slow = null;
    this.seen = true;
    this.bp = 0; this.bf = 0; this.bs = 0;
    this.inRun = false; f.testRun = false;
    f.testsFor("cargo-test").totals = true;
  }

  /**
   * The next binary starts while the last one had no `test result:` line and cargo said nothing of it: a test
   * ended the binary with `process::exit(0)` (a success to cargo). What it printed counts; the test it was in and
   * the ones after it did not finish: not run, not failed.
   */
  private endedEarly(f: Facts): void {
    let r = this.running;
    if (r !== null) dropPending(f.testsFor("cargo-test"), r, this.crate);
    this.passed += this.bp; this.failed += this.bf; this.skipped += this.bs;
    if (this.planned >= 0) this.notRun = max<i64>(this.notRun, 0) + max<i64>(this.planned - this.bp - this.bf - this.bs, 0);
    this.bp = 0; this.bf = 0; this.bs = 0;
    this.planned = -1; this.inRun = false; f.testRun = false; this.running = null;
  }

  /**
   * The test binary died before its `test result:` line: what it printed counts, the test it died in failed,
   * and its tests after that one (of its `running N tests`) did not run.
   */
  private died(f: Facts): void {
    f.testRun = false;
    this.passed += this.bp; this.failed += this.bf + 1; this.skipped += this.bs;
    if (this.planned >= 0) this.notRun = max<i64>(this.notRun, 0) + max<i64>(this.planned - this.bp - this.bf - this.bs - 1, 0);
    this.bp = 0; this.bf = 0; this.bs = 0;
    this.planned = -1; this.inRun = false; this.dead = true; this.running = null;
  }

  finish(f: Facts): void {
    this.endBlock();
    this.inSuccess = false;
    if (!this.seen) return;
    let t = f.testsFor("cargo-test");
    if (t.runner != "cargo-test") return;
    // The log ends inside a binary that was running a test (killed with cargo, or cut). One that died of a
    // signal was counted at its `process didn't exit successfully` line.
    let sl = this.slow;
    if (this.inRun && this.running === null && sl !== null) {
      // Killed while libtest said that test had been running long: it hung there.
      let tf = failureIn(t, sl, this.crate);
      if (tf.message.length == 0) tf.message = "has been running for over 60 seconds";
      this.running = sl;
    }
    let dying = this.crashed !== null || this.running !== null;
    if (this.inRun && this.running !== null) this.died(f);
    t.passed = this.passed + this.bp; t.failed = this.failed + this.bf; t.skipped = this.skipped + this.bs;
    // libtest refused its arguments and no binary ran a test: the counts are unknown, not 0.
    if (this.refused && t.passed == 0 && t.failed == 0 && t.skipped == 0) { t.passed = -1; t.failed = -1; t.skipped = -1; t.errors = -1; }
    // Stopped at the first failing target (no --no-fail-fast): the tests of the targets after it are in no line.
    let stop = this.stoppedAfter;
    if (stop !== null) { t.unfinished.push(stop); t.unfinishedPassed = this.okNames; }
    // cargo names every test it runs (`test x ... ok`): a test failing before and in neither list did not run
    // (filtered out, its target not built). Only when each one counted passed was named.
    let hs = this.passHashes;
    if (hs !== null && <i64>hs.length == t.passed) t.passedSet = hs;
    if (this.dead || dying) {
      // A crash after the binary's own `test result:` line: still a failure of the run.
      if (!this.dead) t.failed += 1;
      if (this.notRun >= 0) t.notRun = this.notRun;
      crashMidSuite(f, this.crashed, "test binary killed by " + (this.crashed !== null ? this.crashed! : "a signal"));
      let d = this.diedAt, c = f.crash;
      if (d !== null && c !== null && c.tool == "signal" && c.frames.length == 0) {
        let fr = new Frame();
        fr.file = d.file; fr.line = d.line;
        classify(fr);
        c.frames.push(fr);
        // its first line: assert_eq!'s `left:`/`right:` are the failure's
        if (c.message === null) { let m = d.message, nl = m.indexOf("\n"); c.message = nl < 0 ? m : m.substring(0, nl); }
      }
    } else if (this.notRun >= 0) t.notRun = this.notRun; // a binary a test ended with exit(0)
  }
}

/** Where a line is in a trybuild section. */
const enum Quote { NONE, HEADED, INSIDE }

/** trybuild's section headers (`EXPECTED:`, `ACTUAL OUTPUT:`, `EXPECTED STDOUT:`, `STDERR:`, `NOTE: writing …`). */
function isTrybuildHeader(l: Line): bool {
  let c = l.at(0);
  // TRYBUILD=overwrite (or a case with no .stderr yet): `NOTE: writing the following output to `tests/ui/x.stderr`.`
  if (c == Char.N) return l.startsWith("NOTE: writing the following output to `") && l.endsWith("`.");
  if (c != Char.E && c != Char.A && c != Char.S || l.len > 24 || l.at(l.len - 1) != Char.COLON) return false;
  if (!(l.startsWith("EXPECTED") || l.startsWith("ACTUAL") || l.startsWith("STDERR") || l.startsWith("STDOUT"))) return false;
  for (let i = 0; i < l.len - 1; i++) { let b = l.at(i); if (!(b >= Char.A && b <= Char.Z || b == Char.SPACE)) return false; }
  return true;
}

/** trybuild's rule: `┈` (U+2508, bytes E2 94 88) repeated, nothing else. */
function isTrybuildRule(l: Line): bool {
  let n = l.len;
  if (n < 3 || n % 3 != 0) return false;
  for (let i = 0; i < n; i += 3) if (l.at(i) != 0xE2 || l.at(i + 1) != 0x94 || l.at(i + 2) != 0x88) return false;
  return true;
}

/** libtest terse's progress: dots (`i` an ignored test), then ` 17/18` at every 100 and the last. */
function isTerseProgress(l: Line): bool {
  let p = 0;
  while (l.at(p) == Char.DOT || l.at(p) == Char.i) p++;
  if (p == l.len) return true;
  if (l.at(p) != Char.SPACE) return false;
  p++;
  let d = p;
  while (isDigit(l.at(p))) p++;
  if (p == d || l.at(p) != Char.SLASH) return false;
  p++;
  let e = p;
  while (isDigit(l.at(p))) p++;
  return p > e && p == l.len;
}

/** The number after `key` (`"passed": `) in a JSON line, or -1. */
function jsonCount(l: Line, key: string): i64 {
  let k = l.indexOf(key);
  return k < 0 ? -1 : l.readInt(k + key.length);
}

/** The thread of `thread 'NAME' (12) has overflowed its stack` (no `(12)` before Rust 1.88), or null; not main's. */
export function overflowedThread(l: Line): string | null {
  if (!l.startsWith("thread '") || !l.endsWith(" has overflowed its stack")) return null;
  let q = l.indexOfByte(Char.APOS, 8);
  if (q <= 8) return null;
  let name = l.str(8, q);
  return name == "main" || name == "<unnamed>" ? null : name;
}

/** The failures from index `from` that name no unit get cargo's name of their target (`--lib`, `-p x --test it`). */
function quietTarget(t: Tests, from: i32, target: string): void {
  let unit = unticked(target);
  let fs = t.failures;
  for (let i = max(from, 0); i < fs.length; i++) if (fs[i].pkg === null) fs[i].pkg = unit;
}

/** `--lib` for "`--lib`": cargo's target as a unit's name (delta.ts compares tests.unfinished so). */
function unticked(s: string): string {
  return s.replaceAll("`", "");
}

/**
 * The test's name without libtest's mode after it (`tests::y - should panic`, a doc-test's `- compile fail`,
 * `- compile`); a doc-test's own ` - ` (`src/lib.rs - f (line 9)`) stays.
 */
function withoutMode(name: string): string {
  let sp = name.lastIndexOf(" - ");
  if (sp <= 0) return name;
  let mode = name.substring(sp + 3);
  return mode == "should panic" || mode == "compile fail" || mode == "compile" ? name.substring(0, sp) : name;
}

/** rustdoc's words on a doc-test at l[p]: `Test executable failed (exit status: 101).`, `... succeeded, but it's marked `should_panic`.`, `Test compiled successfully, but it's marked `compile_fail`.` */
function isRustdocVerdict(l: Line, p: i32): bool {
  return l.matchAt("Test executable ", p) || l.matchAt("Test compiled successfully", p);
}

/** The first sentence of s (rustdoc's verdict), without what was printed after it on the line. */
function rustdocSentence(s: string): string {
  let tick = s.indexOf("`.");
  if (tick >= 0) return s.substring(0, tick + 2);
  let dot = s.indexOf(").");
  return dot >= 0 ? s.substring(0, dot + 2) : s;
}

/** Removes the failure a test's cut `test NAME ... ` line stood for (nothing said yet): it had a result after all. */
function dropPending(t: Tests, name: string, crate: string): void {
  let fs = t.failures;
  for (let i = fs.length - 1; i >= 0; i--) {
    let x = fs[i];
    if (x.name != name || pkgOr(x) != crate) continue;
    if (x.file === null && x.message.length == 0) fs.splice(i, 1);
    return;
  }
}

/** A line that is only a test's result (`ok`, `FAILED`, `ignored[, reason]`): its `test NAME ... ` was cut. */
/** libtest's words (at m, past `error: `) when it refuses its arguments: getopts' and its own about nightly-only options. */
export function isLibtestUsage(l: Line, m: i32): bool {
  let c = l.at(m);
  if (c == Char.U) return l.matchAt("Unrecognized option: '", m) || l.matchAt("Unexpected argument to option '", m);
  if (c == Char.A) return l.matchAt("Argument to option '", m);
  if (c == Char.R) return l.matchAt("Required option '", m);
  if (c == Char.O) return l.matchAt("Option '", m) && l.endsWith("' given more than once");
  if (c == Char.a) return l.matchAt("argument for --", m);
  if (c == Char.t || c == Char.T) return l.indexOf(" is only accepted on the nightly compiler", m) > 0;
  return false;
}

function isResultWord(l: Line): bool {
  let s = withoutTime(l.trimmed(0));
  return s == "ok" || s == "FAILED" || s == "ignored" || s.startsWith("ignored, ");
}

/** libtest's line for a test still running after a minute (`test x has been running for over 60 seconds`). */
const RUNNING_LONG = " has been running for over 60 seconds";

/** The result word l ends with after other text (`checking half... ok`, `xok`), or null. */
function gluedResult(l: Line): string | null {
  let n = l.len;
  while (n > 0 && l.at(n - 1) == Char.SPACE) n--;
  if (n > 2 && l.at(n - 1) == Char.k && l.at(n - 2) == Char.o) return "ok";
  if (n > 6 && l.at(n - 1) == Char.D && l.matchAt("FAILED", n - 6)) return "FAILED";
  return null;
}

/** A result without the time --report-time puts after it: `ok <0.000s>` is `ok`. */
function withoutTime(s: string): string {
  let n = s.length;
  if (n < 5 || s.charCodeAt(n - 1) != Char.GT || s.charCodeAt(n - 2) != Char.s) return s;
  let lt = s.lastIndexOf(" <");
  return lt > 0 ? s.substring(0, lt) : s;
}

/** cargo's and rustc's closing lines, never a doctest's error: `error: doctest failed, to rerun pass `--doc``. */
function cargoOwn(l: Line): bool {
  return l.startsWith("error: aborting due to") || l.startsWith("error: test failed") || l.startsWith("error: doctest failed") ||
    l.startsWith("error: bench failed") || l.startsWith("error: could not compile") || l.startsWith("error: could not document") || l.contains(" target failed") || l.contains(" targets failed");
}

/** `src/lib.rs - to_celsius (line 14)`: a doc-test's name. */
function isDocTest(n: string): bool {
  let dash = n.indexOf(" - ");
  return n.endsWith(")") && dash > 0 && n.lastIndexOf(" (line ") > dash;
}

/** `src/lib.rs - to_celsius (line 14)`: a doc-test is located at its own line of its file. */
function docTestLocation(t: TestFailure): void {
  let n = t.name;
  if (!isDocTest(n)) return;
  let dash = n.indexOf(" - ");
  let at = n.lastIndexOf(" (line ");
  let k = I32.parseInt(n.substring(at + 7, n.length - 1));
  if (k <= 0) return;
  t.file = normPath(n.substring(0, dash));
  t.line = k;
}

/**
 * pretty_assertions' assert_eq!/assert_ne! panic message (`assertion failed: `(left == right)``, `: msg` after it),
 * whose values come after a blank line. std's own (`assertion `left == right` failed`; before 1.73 the same words
 * as this, its `left:`/`right:` on the next lines) never has the blank line.
 */
function isPrettyHeader(s: string): bool {
  return s.startsWith("assertion failed: `(left == right)`") || s.startsWith("assertion failed: `(left != right)`");
}

/** A line of a Rust backtrace: `  12: fill::push_full`, `             at ./benches/fill.rs:15:7`, its closing note. */
function isFrameLine(l: Line): bool {
  let p = l.skipSpaces(0);
  if (p == 0) return l.startsWith("note: Some details are omitted");
  if (l.matchAt("at ", p)) return true;
  let c = l.at(p);
  if (c < Char._0 || c > Char._9) return false;
  while (p < l.len && l.at(p) >= Char._0 && l.at(p) <= Char._9) p++;
  return l.at(p) == Char.COLON;
}

/** proptest's counts of its search, each after a tab: `\tsuccesses: N`, `\tlocal rejects: N`, `\tglobal rejects: N`. */
function isProptestCount(l: Line): bool {
  if (l.at(0) != Char.TAB) return false;
  return l.matchAt("successes: ", 1) || l.matchAt("local rejects: ", 1) || l.matchAt("global rejects: ", 1);
}

