// go test (text, with and without -v): `=== RUN X`, `--- FAIL: X (0.00s)` / PASS / SKIP (indented for
// subtests), the `    x_test.go:20: msg` log lines of a test, `FAIL pkg`/`ok pkg`, and a panic inside a test
// (its goroutine stack becomes the crash; the running test fails there). Leaf tests are counted, and a
// parent that failed on its own (no subtest under it failed); a test run again (`-count=3`) counts each
// run; a benchmark counts when go prints a result line for it (`--- FAIL` / `--- SKIP`; a passing one
// prints only its measurement). A package that failed with no failing test (a panic in init or TestMain,
// after its tests passed, or TestMain returning non-zero) is an error named by the package; one that did
// not build (`FAIL pkg [build failed]`) is the build's failure, its compiler errors, not a test's.
// go-test-json.ts feeds the decoded `Output` of `go test -json` through the same `text()`.
import { Char, isDigit, isSpace } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts, Crash, Frame, Tests, MAX_FAILURES } from "../../model";
import { Parser } from "../../parser";
import { ByteSet } from "../../util/byte-set";
import { classify, normPath, firstUser, isGoTimeout, runsGoTest, goTestRole, GoTestRole, goTestFunc, goTrimmedStd } from "../../frames";
import { failureIn, pkgOr, foreignLine } from "./common";
import { withName, MAX_PASSED_SET } from "../../util/name-hash";
import { setSeverity } from "../diag-context";
import { usageOfGo, testingRefused, flagRefused } from "../go/go-build";

const enum Res { PASS, FAIL, SKIP }
const MAX_PARENTS = 32;
/** Further lines of a test's first log line kept in its message (testify's block, a multi-line t.Error). */
const MAX_MORE = 8;
/** An Example's output lines kept to compare got with want (each), and the differing lines shown of each. */
const EX_LINES = 256;
const EX_SHOWN = 3;
const MAX_MARKED = 4096;
/** A package's test runs held before the sealed ones are counted (fold), and the open ones past which all are. */
const FOLD_AT = 4096;
const MAX_OPEN = 65536;
/** failingPkg and logPkg until their first entry (never written to). */
const NONE: string[] = [];

/**
 * Before go test showed itself: `=== RUN`.. and `--- FAIL:`.. (after blanks); `panic: ..[recovered]`, a package's
 * `FAIL`/`ok`/`?` line, `BenchmarkX` at column 0; the test binary's bare `PASS` and go's `exit status N` (noted, not claimed);
 * gotestsum's line a package (`✓  pkg (12ms)`: a mark's first byte 0xE2).
 */
const STARTS = new ByteSet().chars("=-").chars("pFo?BPe").range(0xE2, 0xE2);

export class GoTestParser extends Parser {
  seen: bool = false;
  /** The current package's test runs (a name run again is another entry), folded into the counts below at
   * its result line: memory holds one package's tests, not the whole log's (issue 32, 64 MB on any input). */
  names: string[] = [];
  res: Res[] = [];
  index: Map<string, i32> = new Map<string, i32>();
  parents: Set<string> = new Set<string>();
  /** Tests with a failing subtest under them: their own failure is that subtest's. */
  failedUnder: Set<string> = new Set<string>();
  passed: i64 = 0;
  failed: i64 = 0;
  skipped: i64 = 0;
  /** The failing tests' names in the order they failed, each once a package, as many as the verdict can list. */
  failing: string[] = [];
  /** Each failing test's package (its import path, from the package's result line; "" until that line). */
  failingPkg: string[] = NONE;
  /** Where the current package's entries begin in failing and in logName (earlier ones are sealed). */
  failStart: i32 = 0;
  logStart: i32 = 0;
  /** When the current package's runs are next folded (those sealed): FOLD_AT, or twice the runs left open. */
  foldAt: i32 = FOLD_AT;
  logName: string[] = [];
  logFile: string[] = [];
  logLine: i32[] = [];
  logMsg: string[] = [];
  /** Each log entry's package, as failingPkg. */
  logPkg: string[] = NONE;
  /** The package of the test a pending panic stopped, once its result line came ("" before). */
  panicPkg: string = "";
  /**
   * The module's import path and its directory relative to the work dir, when the log shows both: a panic's
   * frame `example.com/m/geom.Parse(...)` at `geom/parse.go` says example.com/m is the work dir's root. Then
   * go test's bare file names (`parse_test.go:8:`) are placed in their package's directory.
   */
  module: string | null = null;
  /** The current package's directory, work-relative, when a testify Error Trace named a file of it; else null. */
  pkgDir: string | null = null;
  /** The entry of logMsg the next continuation lines extend (the test's first log line), or -1; how many they were. */
  logOpen: i32 = -1;
  logMore: i32 = 0;
  /** Inside testify's `Diff:` (dropped: the expected and actual lines above it say the same). */
  logDiff: bool = false;
  /** Inside testify's `Error Trace:` (its further frames, one a line, are places, not the message). */
  logTrace: bool = false;
  /**
   * A fuzz target's panic, which go test reports as the test's error (`testing.go:1356: panic: msg`, then
   * debug.Stack()'s goroutine dump indented under it): the dump's frames are read for the first of the user's,
   * the failure's place; they are not its message. stackFn: the function line whose location line comes next.
   * testify's suite reports a test method's panic the same way, from its own file (`suite.go:77: test panicked:
   * assignment to entry in nil map`, then the dump): there the frames above the dump's `panic(...)` are
   * debug.Stack's and the suite's recovering ones (stackWait), the place is the first user frame below it.
   * stackPlaced: the dump placed the failure already.
   */
  logStack: bool = false;
  stackFn: string | null = null;
  stackWait: bool = false;
  stackPlaced: bool = false;
  /** f.crashCount at the last package result line: a go-panic crash since then that go test did not see. */
  crashesAt: i32 = 0;
  current: string | null = null;
  /** `=== RUN` seen (-v or -json): every test reports. Without it only failures do: passed/skipped unknown. */
  verbose: bool = false;
  panic: Crash | null = null;
  panicTest: string | null = null;
  inPanic: bool = false;
  /**
   * A panic's value over several lines: its further lines up to the first goroutine (go-panic.ts's rule); a blank
   * line among them (msgBlank) is the value's when a line other than a goroutine's follows it.
   */
  private msgOpen: bool = false;
  private msgAppend: bool = false;
  private msgLines: i32 = 0;
  private msgBlank: bool = false;
  /** The value's lines past a blank line, held (and left to the others) until its ` [recovered]` or a goroutine shows them its own. */
  private msgHeld: string = "";
  private msgHolding: bool = false;
  pendingFn: string | null = null;
  frameNo: i32 = 0;
  /** The -timeout alarm's own frames while the goroutines after it are read for the running test's (go-panic.ts). */
  alarm: Array<Frame> | null = null;
  alarmThread: string | null = null;
  /** The first goroutine after the alarm's whose test waits in t.Run for a subtest: the place if none runs. */
  waiting: Array<Frame> | null = null;
  waitingThread: string | null = null;
  /** A package's `ok … [no tests to run]` (-run matched none of its tests); a package whose tests did run. */
  noneToRun: bool = false;
  someRan: bool = false;
  /** Since the last package result line: tests that failed, a panic outside any test, the last other line. */
  pkgFails: i32 = 0;
  pkgPanic: bool = false;
  /** A panic since the last package result line: the package's test binary ended there. */
  pkgStopped: bool = false;
  /** The tests the current package reported passed (-v, -json): if a panic then ends it, they did run. */
  pkgPassed: string[] = [];
  /**
   * -v names every test it runs (`--- PASS: TestX`, a subtest's indented): those of the current package until its
   * result line names the package they are keyed by; then hashed into passHashes (Tests.passedSet), null past
   * MAX_PASSED_SET.
   */
  passNames: string[] = [];
  passHashes: Array<u32> | null = [];
  lastOut: string = "";
  /** Packages that failed outside their tests or did not build (listed in failures, counted as errors). */
  pkgErrors: i64 = 0;
  panicDone: bool = false;
  /**
   * Since the last package result line: the test binary's own bare `PASS`/`FAIL` (its tests all reported) and
   * go's `exit status N` line (the binary's exit, the message of a package that failed with nothing else to say).
   */
  binaryDone: bool = false;
  binaryPassed: bool = false;
  exitLine: string = "";
  /** A `=== RUN`/`CONT`/`NAME` of current with no result line after it yet (-v, -json): the test running. */
  runOpen: bool = false;
  /** f.diagnostics' length at the last package result line: the diagnostics since are this package's build's. */
  diagAt: i32 = 0;
  /** Facts.tailLines' count of lines at the last package result line: a newer one is the binary's own output. */
  tailAt: i64 = 0;
  /** The line before was the benchmarks' `pkg: example.com/m` header (go test not seen yet). */
  benchHeader: bool = false;
  /**
   * gotestsum (over go test -json): its summary's `=== FAIL: pkg TestX (0.00s)` names the package of each test
   * (relative to the module: `.`, `price`), the one of the entries not yet sealed (null: none); inside a block
   * that repeats a failure already read (its --format testname printed it as go -v does): claimed, not read.
   */
  gsPkg: string | null = null;
  gsRepeat: bool = false;
  /** `--format testname`'s `PASS TestX (0.00s)` seen: its `FAIL pkg` / `PASS pkg` lines end a package. */
  gsTestname: bool = false;
  /**
   * -json: go's flag package refusing an option inside the binary's Output (`flag provided but not defined: -skip`),
   * then, once its `Usage of …/x.test:` followed, the run's set-up failure (go-build.ts reads the text's).
   */
  flagLine: string | null = null;
  flagFailed: string | null = null;
  /** The current package's binary refused its flags (flagFailed's lines seen since its last result line). */
  pkgRefused: bool = false;
  /** f.goFlagRefusals at the last package's result line (text: go-build reads the refusals). */
  refusalsAt: i32 = 0;
  /** Inside a failing Example's `got:` / `want:` block (column 0, its output's lines): its message. */
  exampleOpen: bool = false;
  /** The Example's block being read: its log entry, its `got:` and `want:` lines, and which one is being read. */
  private exLog: i32 = -1;
  private exGot: string[] = [];
  private exWant: string[] = [];
  private exInWant: bool = false;
  private exUnordered: bool = false;
  /** go's own package result line seen (gotestsum's standard-verbose, standard-quiet): its summary repeats. */
  goPkgLine: bool = false;
  /** Its `DONE 10 tests, 1 skipped, 3 failures in 1.2s` (-1: none), and the result lines that named a pass. */
  gsTotal: i64 = -1;
  gsSkipped: i64 = 0;
  gsFailures: i64 = 0;
  passLines: i64 = 0;
  /** The names of the result lines last read at each indentation level (byIndent). */
  levelNames: string[] = [];
  /** The tests a subtest's result line stood under (byIndent): parents by go's own indentation. */
  levelParents: Set<string> = new Set<string>();

  busy(): bool { return this.inPanic || this.exampleOpen || this.gsRepeat; }
  atRest(): bool { return !this.seen && !this.inPanic; }
  starts(): ByteSet | null { return STARTS; }

  claim(l: Line, f: Facts): bool {
    return this.text(l, f);
  }

  text(l: Line, f: Facts): bool {
    // gotestsum's summary block of a failure it printed before: up to its next `=== ` or `DONE ` line.
    if (this.gsRepeat) {
      if (!l.startsWith("=== ") && !l.startsWith("DONE ")) return true;
      this.gsRepeat = false;
    }
    if (this.exampleOpen) {
      if (this.exampleLine(l)) return true;
      this.exampleEnd();
    }
    let fl = this.flagLine;
    if (fl !== null) {
      this.flagLine = null;
      if (usageOfGo(l)) { if (this.flagFailed === null) this.flagFailed = fl; this.pkgRefused = true; }
    }
    if (flagRefused(l)) { this.flagLine = l.trimmed(0); return false; }
    // -json: the binary refusing a -run/-skip/-bench pattern or to fuzz (go-build.ts reads the text line): a wrong
    // command line.
    if (l.at(0) == Char.t && testingRefused(l)) { if (this.flagFailed === null) this.flagFailed = l.trimmed(0); this.pkgRefused = true; return false; }
    if (this.inPanic) {
      if (foreignLine(l)) { this.endPanic(); return false; }
      if (this.panicLine(l)) return true;
      this.endPanic();
    }
    let p = l.skipSpaces(0);
    // testify's block under its `file.go:23: ` line is indented by spaces then a tab (`Error Trace:\t/w/x.go:23`
    // names a file, a diff's `--- Expected` reads as a result line): never a line of its own.
    if (l.at(0) == Char.SPACE && l.at(p - 1) == Char.TAB && this.seen && this.current !== null) return this.continuation(l, p);
    let c = l.at(p);
    // A `=`/`-` line that is none of go's own (`            - 	A: &4,` of a diff the test printed) goes on to
    // the message lines below.
    if (c == Char.EQ && l.matchAt("=== ", p)) {
      let q = p + 4;
      if (l.matchAt("RUN ", q) || l.matchAt("CONT ", q) || l.matchAt("NAME ", q) || l.matchAt("PAUSE ", q)) {
        let sp = l.indexOfByte(Char.SPACE, q);
        let name = l.trimmed(sp);
        // (Not under gotestsum's `=== FAIL: pkg X` naming it: its summary prints a fuzz target's RUN lines again.)
        let gs = this.gsPkg !== null && this.current !== null && this.current! == name;
        if (!l.matchAt("PAUSE ", q)) { this.current = name; this.runOpen = true; }
        this.logOpen = -1;
        // A test run again (`-count=3`, or the same name in the next package): its result is another run's.
        if (l.matchAt("RUN ", q) && this.index.has(name) && !gs) this.index.delete(name);
        this.verbose = true;
        this.mark(name);
        this.seen = true;
        f.testsFor("go-test");
        return true;
      }
      if (p == 0 && (l.matchAt("FAIL: ", q) || l.matchAt("SKIP: ", q))) return this.summaryLine(l, q, f);
      return false;
    }
    if (c == Char.MINUS && this.resultLine(l, p, f)) return true;
    if ((c == Char.MINUS || c == Char.EQ) && !this.seen) return false; // not go test's (yet): as before, at once
    if (p == 0) {
      if (l.startsWith("panic: ") && (this.seen || l.contains("[recovered]"))) { this.startPanic(l, f); return true; }
      // A bare `PASS`/`FAIL` is go test's only once go test has shown itself (a `=== RUN`, a `--- FAIL:`, a
      // package's `ok  pkg 0.01s` line): many programs print a bare PASS of their own.
      if (l.len == 4 && (l.startsWith("FAIL") || l.startsWith("PASS"))) {
        this.binaryDone = true;
        this.binaryPassed = l.at(0) == Char.P;
        if (this.seen) { this.current = null; return true; }
        return false;
      }
      if (c == 0xE2) return this.gsPackageLine(l, f);
      if (l.len == 4 && l.startsWith("got:") && this.exampleGot()) return true;
      if (l.at(4) == Char.SPACE && this.testnameLine(l, f)) return true;
      if (this.seen && l.startsWith("DONE ") && this.doneLine(l, f)) return true;
      if (this.packageEnd(l, f)) return true;
      if (l.startsWith("exit status ")) {
        this.exitLine = l.trimmed(0);
        return this.seen;
      }
      // A measurement is counted, and left to the tail (its figures are what the run was for).
      if (l.startsWith("Benchmark") && this.measurement(l)) return false;
      // A benchmark whose code panicked: go printed its name column, then the panic on the same line
      // (`BenchmarkOps/FlipRange-2     \tpanic: runtime error: …`; a benchmark's panic is not recovered): that
      // benchmark's crash, its goroutines after it (-json prints the two on lines of their own).
      if (l.startsWith("Benchmark")) { let m = this.benchPanic(l); if (m > 0) { this.startPanic(l, f, m); return true; } }
      // `BenchmarkX` alone on a line: go -v announcing a benchmark (its log lines follow). Go test's own once
      // it has shown itself, or right after the benchmarks' `pkg: example.com/m` header (-run '^$': no test
      // line before; a first benchmark that fails logs its message under this line).
      if (l.startsWith("Benchmark") && l.indexOfByte(Char.SPACE) < 0 && l.indexOfByte(Char.TAB) < 0) {
        this.current = l.toString();
        this.runOpen = true;
        this.verbose = true;
        if (this.benchHeader) { this.seen = true; f.testsFor("go-test"); }
        this.benchHeader = false;
        return this.seen;
      }
      // Kept over `cpu: …` (and any line the dispatch filter does not offer: the same with it off).
      if (STARTS.has(l.at(0))) this.benchHeader = !this.seen && l.startsWith("pkg: ") && isImportPath(l, 5);
      // `some output--- PASS: TestZ (0.06s)`: the test printed no newline before its result.
      if (this.seen) {
        let m = l.indexOf("--- ");
        if (m > 0 && l.at(l.len - 1) == Char.RPAREN && this.resultLine(l, m, f)) return true;
        if (!l.isBlank()) this.lastOut = l.toString();
      }
      return false;
    }
    // `    price_test.go:20: message` (a t.Log/t.Error line), indented under its test.
    if (!this.seen || this.current === null) return false;
    let colon = l.indexOf(".go:", p);
    if (colon < 0) return l.len > p && (l.at(0) == Char.SPACE) && this.continuation(l, p);
    // A `.go:N` past the line's first word (`         got: "where_test.go:7"`, a quoted frame of pkg/errors'
    // format tests) is no log line's head: the line continues the message above it.
    let sp = l.indexOfByte(Char.SPACE, p);
    if (sp >= 0 && sp < colon) return l.at(0) == Char.SPACE && this.continuation(l, p);
    let n = l.readInt(colon + 4);
    // Nor is one with no `: ` after its `file.go:N` (`"pkg.TestX\n\t/work/x_test.go:175\n…"`, a quoted stack).
    if (n < 0 || !l.matchAt(": ", l.end)) return l.at(0) == Char.SPACE && this.continuation(l, p);
    let name = this.current!;
    this.logOpen = -1;
    this.logStack = false;
    let k0 = this.logIndex(name, "");
    if (k0 < 0) {
      this.logOpen = this.logName.length;
      this.logMore = 0;
      this.logDiff = false;
      this.logTrace = false;
      this.logName.push(name);
      this.logPkgs().push("");
      this.logFile.push(normPath(l.str(p, colon + 3)));
      this.logLine.push(<i32>n);
      let msg = l.trimmed(l.end + 2);
      this.logMsg.push(msg);
      this.logStack = this.logStackOf(this.logOpen);
      this.stackWait = msg.startsWith("test panicked: ");
      this.stackPlaced = false;
      this.stackFn = null;
    } else if (!readsFailed(this.logMsg[k0]) && !this.logStackOf(k0)) {
      // A later line of the test that reads as its failure (`got 2, want 3`, `race detected during execution
      // of test`) after a first that does not (`start 1 by 1`, a t.Log: go's text does not tell them apart):
      // the failure is the later one. A first line that reads failed stays the message (several t.Errorf).
      // A later line in the form Go's tests report a result (`Reverse(abc) = "cba"`, a call then ` = `) is one too.
      let msg = l.trimmed(l.end + 2);
      if (readsFailed(msg) || msg.includes(") = ")) {
        this.logOpen = k0;
        this.logMore = 0;
        this.logDiff = false;
        this.logTrace = false;
        this.logFile[k0] = normPath(l.str(p, colon + 3));
        this.logLine[k0] = <i32>n;
        this.logMsg[k0] = msg;
      }
    }
    return true;
  }

  /** `--- FAIL: X (0.00s)` (PASS, SKIP) at p. */
  private resultLine(l: Line, p: i32, f: Facts): bool {
    if (!l.matchAt("--- ", p)) return false;
    let q = p + 4;
    let r: Res;
    if (l.matchAt("FAIL: ", q)) r = Res.FAIL;
    else if (l.matchAt("PASS: ", q)) r = Res.PASS;
    else if (l.matchAt("SKIP: ", q)) r = Res.SKIP;
    else return false;
    let a = q + 6;
    let e = l.lastIndexOf(" (");
    if (e < a) e = l.len;
    let name = l.trimmed(a, e);
    this.logOpen = -1;
    this.runOpen = false;
    this.result(name, r, this.byIndent(l, p, name));
    if (r == Res.PASS) this.passLines++;
    if (r == Res.PASS && this.pkgPassed.length < MAX_FAILURES) this.pkgPassed.push(name);
    if (r == Res.PASS && this.passHashes !== null) {
      if (this.passNames.length < MAX_PASSED_SET) this.passNames.push(name); else this.passHashes = null;
    }
    if (r == Res.FAIL) { this.current = name; this.pkgFails++; }
    this.seen = true;
    f.testsFor("go-test");
    return true;
  }

  /**
   * gotestsum's summary: `=== FAIL: pkg TestX/sub (0.00s)` (`=== SKIP: …`) at q - 6, the test's output under it.
   * A failure already read (--format testname printed it before) opens a block that is only claimed.
   */
  private summaryLine(l: Line, q: i32, f: Facts): bool {
    let a = q + 6;
    let sp = l.indexOfByte(Char.SPACE, a);
    if (sp <= a) return false;
    let e = l.lastIndexOf(" (");
    if (e <= sp) e = l.len;
    let name = l.trimmed(sp + 1, e);
    // --rerun-fails: `=== FAIL: . TestX (re-run 1) (0.00s)`, the same test run again.
    let rr = name.lastIndexOf(" (re-run ");
    if (rr > 0 && name.endsWith(")")) name = name.substring(0, rr);
    if (name.length == 0) return false;
    let pkg = l.str(a, sp);
    let prev = this.gsPkg;
    if (prev !== null && prev! != pkg) this.gsSeal(prev!, f);
    this.gsPkg = pkg;
    this.seen = true;
    f.testsFor("go-test");
    this.logOpen = -1;
    this.runOpen = false;
    let fail = l.at(q) == Char.F;
    // go printed the tests itself (its `FAIL\tpkg` lines: --format standard-verbose, standard-quiet), each failure
    // and skip of the summary is one read before (by its package's import path, not gotestsum's relative one).
    // Not one that never ended (`(unknown)`: a panic, the -timeout alarm, an exit inside it): standard-quiet printed
    // none of its output before (it shows a test's output when the test ends), the summary is where it is.
    let unended = fail && l.endsWith(" (unknown)");
    if ((this.goPkgLine && !unended) || (fail && this.failedBefore(name, pkg))) { this.gsRepeat = true; this.current = null; return true; }
    this.current = name;
    this.result(name, fail ? Res.FAIL : Res.SKIP);
    if (fail) this.pkgFails++;
    return true;
  }

  /**
   * gotestsum's default format, a line a package: `✓  price (6ms)`, `✖  . (9ms)`, `∅  pkg (no test files)`: its
   * mark, two spaces, the package (what failed is in its summary below).
   */
  private gsPackageLine(l: Line, f: Facts): bool {
    if (l.at(3) != Char.SPACE || l.at(4) != Char.SPACE || l.len < 6 || l.at(5) == Char.SPACE) return false;
    let b1 = l.at(1); let b2 = l.at(2);
    let mark = (b1 == 0x9C && (b2 == 0x93 || b2 == 0x96)) || (b1 == 0x88 && b2 == 0x85);
    if (!mark) return false;
    this.seen = true;
    f.testsFor("go-test");
    return true;
  }

  /**
   * `got:` under `--- FAIL: ExampleX`: go's report of an Example whose output differs, `got:` and `want:` at
   * column 0 each followed by the output's lines. The block is the Example's message (go names no file or line).
   */
  private exampleGot(): bool {
    let cur = this.current;
    if (cur === null || !cur!.startsWith("Example") || !this.index.has(cur!) || this.res[this.index.get(cur!)] != Res.FAIL) return false;
    if (this.logIndex(cur!, "") >= 0) return false;
    this.logOpen = this.logName.length;
    this.logMore = 0;
    this.logDiff = false; this.logTrace = false; this.logStack = false;
    this.logName.push(cur!); this.logPkgs().push(""); this.logFile.push(""); this.logLine.push(-1);
    this.logMsg.push("got:");
    this.exampleOpen = true;
    this.exLog = this.logOpen;
    this.exGot.length = 0; this.exWant.length = 0;
    this.exInWant = false; this.exUnordered = false;
    return true;
  }

  /**
   * The Example's block ended. One longer than the message keeps (MAX_MORE lines) would show the head of
   * `got:` alone: its message becomes the lines that differ instead, the first line where got and want part
   * (`got (line 5 of 9):` / `want (line 5 of 9):`), or under `want (unordered):` the got lines not wanted and
   * the wanted lines not got (a few of each).
   */
  private exampleEnd(): void {
    this.exampleOpen = false;
    let k = this.exLog;
    this.exLog = -1;
    if (k < 0 || k >= this.logMsg.length || this.logMore < MAX_MORE || !this.exInWant) return;
    let g = this.exGot; let w = this.exWant;
    while (g.length > 0 && g[g.length - 1].length == 0) g.pop();
    while (w.length > 0 && w[w.length - 1].length == 0) w.pop();
    if (!this.exUnordered) {
      let n = g.length > w.length ? g.length : w.length;
      let i = 0;
      while (i < n && i < g.length && i < w.length && g[i] == w[i]) i++;
      if (i == n) return;
      let at = (i + 1).toString();
      this.logMsg[k] = "got (line " + at + " of " + g.length.toString() + "):\n" + (i < g.length ? g[i] : "(no line)") +
        "\nwant (line " + at + " of " + w.length.toString() + "):\n" + (i < w.length ? w[i] : "(no line)");
      return;
    }
    let used = new Array<bool>(w.length);
    let extra = "";
    let ne = 0;
    for (let i = 0; i < g.length; i++) {
      let found = false;
      for (let j = 0; j < w.length && !found; j++) if (!used[j] && w[j] == g[i]) { used[j] = true; found = true; }
      if (!found && ne < EX_SHOWN) { extra += "\n" + g[i]; ne++; }
    }
    let missing = "";
    let nm = 0;
    for (let j = 0; j < w.length && nm < EX_SHOWN; j++) if (!used[j]) { missing += "\n" + w[j]; nm++; }
    if (ne == 0 && nm == 0) return;
    this.logMsg[k] = "got (unordered), not wanted:" + (ne > 0 ? extra : "\n(none)") + "\nwant (unordered), not got:" + (nm > 0 ? missing : "\n(none)");
  }

  /**
   * A line of the Example's block, up to go's next own line (a result, `=== RUN`, the package's, coverage) or a
   * sanitizer's. Busy while it lasts: an output line `x` or `..F` is no unittest progress line.
   */
  private exampleLine(l: Line): bool {
    if (foreignLine(l)) return false;
    let c = l.at(0);
    if (c == Char.MINUS && l.startsWith("--- ")) return false;
    if (c == Char.EQ && l.startsWith("=== ")) return false;
    if ((c == Char.F || c == Char.P) && (l.len == 4 || l.at(4) == Char.TAB || l.at(4) == Char.SPACE) && (l.startsWith("FAIL") || l.startsWith("PASS"))) return false;
    if (l.startsWith("ok  ") || l.startsWith("coverage: ") || l.startsWith("exit status ") || l.startsWith("panic: ")) return false;
    // gotestsum's summary ends with the run's `DONE 4 tests, 2 failures in 0.6s` (--format pkgname, testname: an
    // Example's block is the last failure it repeats, two blank lines before it).
    if (c == Char.D && gsDone(l)) return false;
    let k = this.logOpen;
    if (k < 0 || k >= this.logMsg.length) return false;
    if (this.logMore < MAX_MORE) { this.logMsg[k] = this.logMsg[k] + "\n" + l.toString(); this.logMore++; }
    // Kept aside too, for the lines that differ (exampleEnd).
    if (c == Char.w && (l.len == 5 && l.startsWith("want:") || l.len == 17 && l.startsWith("want (unordered):"))) {
      this.exInWant = true; this.exUnordered = l.len == 17;
    } else {
      let a = this.exInWant ? this.exWant : this.exGot;
      if (a.length < EX_LINES) a.push(l.toString());
    }
    return true;
  }

  /** Test name failed in package pkg: among the current package's runs, or sealed with pkg. */
  private failedBefore(name: string, pkg: string): bool {
    if (this.index.has(name) && this.res[this.index.get(name)] == Res.FAIL) return true;
    let fs = this.failing;
    for (let i = 0; i < fs.length; i++) if (fs[i] == name && this.failingPkg[i] == pkg) return true;
    return false;
  }

  /**
   * gotestsum --format testname: `PASS TestX (0.00s)`, `FAIL price.TestCache (0.00s)`, `SKIP …` (a test of a
   * package but the root's is named with it: a test's own name has no `.` before its first `/`), and once one
   * was seen, `FAIL price` / `PASS .` / `EMPTY pkg`: the package is over.
   */
  private testnameLine(l: Line, f: Facts): bool {
    let r: Res;
    if (l.startsWith("PASS")) r = Res.PASS;
    else if (l.startsWith("FAIL")) r = Res.FAIL;
    else if (l.startsWith("SKIP")) r = Res.SKIP;
    else return false;
    let e = l.lastIndexOf(" (");
    if (e < 5 || l.at(l.len - 1) != Char.RPAREN) {
      // A package's line: one word after the mark.
      if (!this.gsTestname || r == Res.SKIP || l.indexOfByte(Char.SPACE, 5) >= 0 || l.len <= 5) return false;
      this.gsSeal(l.str(5, l.len), f);
      return true;
    }
    let full = l.str(5, e);
    let slash = full.indexOf("/");
    let dot = full.lastIndexOf(".", slash < 0 ? full.length : slash);
    let name = dot >= 0 ? full.substring(dot + 1) : full;
    if (!name.startsWith("Test") && !name.startsWith("Example") && !name.startsWith("Benchmark") && !name.startsWith("Fuzz")) return false;
    this.gsTestname = true;
    this.seen = true;
    f.testsFor("go-test");
    this.logOpen = -1;
    this.runOpen = false;
    this.result(name, r);
    if (r == Res.FAIL) {
      // gotestsum's `(-1.00s)`: the test never reported, its binary exited while it ran (os.Exit, log.Fatal):
      // the test's last output line is its message, as the package's is under go test -v.
      if (l.endsWith(" (-1.00s)") && this.lastOut.length > 0 && this.logIndex(name, "") < 0) {
        this.logName.push(name); this.logPkgs().push(""); this.logFile.push(""); this.logLine.push(-1);
        this.logMsg.push(this.lastOut + " (the test binary exited while running it)");
      }
      this.current = name; this.pkgFails++; return true;
    }
    this.current = null;
    if (r == Res.PASS) {
      this.passLines++;
      if (this.pkgPassed.length < MAX_FAILURES) this.pkgPassed.push(name);
      if (this.passHashes !== null) {
        if (this.passNames.length < MAX_PASSED_SET) this.passNames.push(name); else this.passHashes = null;
      }
    }
    return true;
  }

  /**
   * gotestsum's `DONE 10 tests, 1 skipped, 3 failures, 1 error in 1.2s`: its counts; the last package is over.
   * With --rerun-fails each run prints one, the later ones counting all runs (`DONE 3 runs, 636 tests, 6 failures`):
   * the last one's stands, the tests run again being its failures.
   */
  private doneLine(l: Line, f: Facts): bool {
    let n = l.readInt(5);
    if (n >= 0 && l.matchAt(" runs, ", l.end)) n = l.readInt(l.end + 7);
    if (n < 0 || !l.matchAt(" test", l.end)) return false;
    let s = l.trimmed(l.end);
    let skipped: i64 = 0; let failures: i64 = 0;
    let parts = s.split(", ");
    for (let i = 1; i < parts.length; i++) {
      let w = parts[i];
      let sp = w.indexOf(" ");
      if (sp <= 0) continue;
      let k = <i64>I32.parseInt(w.substring(0, sp));
      if (w.startsWith("skipped", sp + 1)) skipped = k;
      else if (w.startsWith("failure", sp + 1)) failures = k;
    }
    let prev = this.gsPkg;
    if (prev !== null) this.gsSeal(prev!, f);
    this.gsTotal = n; this.gsSkipped = skipped; this.gsFailures = failures;
    this.current = null;
    return true;
  }

  /** gotestsum named the package pkg's tests (no `ok`/`FAIL pkg` line of go's): it is over, as packageEnd ends one. */
  private gsSeal(pkg: string, f: Facts): void {
    let t = f.testsFor("go-test");
    if (this.pkgStopped && t.runner == "go-test" && t.unfinished.length < MAX_FAILURES) {
      t.unfinished.push(pkg);
      let ps = this.pkgPassed;
      for (let i = 0; i < ps.length && t.unfinishedPassed.length < MAX_FAILURES; i++) t.unfinishedPassed.push(ps[i]);
    }
    this.pkgFails = 0; this.pkgPanic = false; this.pkgStopped = false;
    this.binaryDone = false; this.binaryPassed = false; this.runOpen = false;
    this.exitLine = ""; this.pkgPassed.length = 0;
    this.crashesAt = f.crashCount;
    this.someRan = true;
    this.keyPassed(pkg);
    this.logOpen = -1; this.lastOut = ""; this.current = null;
    this.fold();
    this.seal(pkg);
    this.gsPkg = null;
  }

  /**
   * `BenchmarkX-8   \t  1000\t  1234 ns/op` (then B/op, allocs/op..): a benchmark that passed, which go names
   * by its measurement only (a failing one prints `--- FAIL: BenchmarkX`, no measurement). Not counted (the
   * counts are the tests'), but it ran: in the run's list (passedSet), so a benchmark that failed before is
   * fixed, not "not run". Its name without the `-8` GOMAXPROCS suffix: the one go announced on the line
   * before (-v, -json), else the line's own name cut at its last `-digits`. True when the line is one; alone
   * it does not show go test (a log's other runner keeps the run).
   */
  private measurement(l: Line): bool {
    let n = l.len;
    let e = 9;
    while (e < n && !isSpace(l.at(e))) e++;
    let i = e;
    while (i < n && isSpace(l.at(i))) i++;
    let d = i;
    while (i < n && isDigit(l.at(i))) i++;
    if (i == d || i == n || !isSpace(l.at(i))) return false;
    while (i < n && isSpace(l.at(i))) i++;
    d = i;
    while (i < n && (isDigit(l.at(i)) || l.at(i) == Char.DOT)) i++;
    if (i == d || !l.matchAt(" ns/op", i)) return false;
    let cut = e;
    let cur = this.current;
    let s = cur !== null ? cur! : "";
    let suffix = s.length > 9 && s.length <= e && l.matchAt(s, 0) && (s.length == e || l.at(s.length) == Char.MINUS);
    if (suffix) cut = s.length;
    else {
      let k = e - 1;
      while (k > 9 && isDigit(l.at(k))) k--;
      if (k < e - 1 && l.at(k) == Char.MINUS) cut = k;
    }
    let name = l.str(0, cut);
    if (this.passHashes !== null) {
      if (this.passNames.length < MAX_PASSED_SET) this.passNames.push(name); else this.passHashes = null;
    }
    this.current = null;
    this.logOpen = -1;
    return true;
  }

  /**
   * A package's result line: `ok  \tpkg\t0.01s`, `FAIL\tpkg\t0.01s`, `?   \tpkg\t[no test files]`, older go's
   * `FAIL    pkg  0.003s` (spaces), `FAIL\tpkg [build failed]`. A failed package none of whose tests failed
   * failed outside them: that is an error of its own, named by the package.
   */
  private packageEnd(l: Line, f: Facts): bool {
    let fail = l.startsWith("FAIL");
    let a = fail ? 4 : l.startsWith("ok") ? 2 : l.startsWith("?") ? 1 : -1;
    if (a < 0 || !isSpace(l.at(a))) return false;
    let s = l.skipSpaces(a);
    let tab = l.indexOfByte(Char.TAB, a);
    let e = s;
    while (e < l.len && !isSpace(l.at(e))) e++;
    if (e == s) return false;
    let rest = l.skipSpaces(e);
    let tail = rest < l.len ? l.at(rest) : -1;
    let tabbed = tab >= a && tab < s;
    // Spaces only: the package must be followed by its time (`0.003s`), `(cached)` or go's bracketed note.
    if (!tabbed && !isDuration(l, rest) && !l.matchAt("(cached)", rest) && !l.matchAt("[build failed]", rest) &&
        !l.matchAt("[setup failed]", rest) && !l.matchAt("[no test files]", rest)) return false;
    let pkg = l.str(s, e);
    this.seen = true;
    if (tail != Char.LBRACKET) this.goPkgLine = true;
    if (!fail && a == 2 && l.contains("[no tests to run]")) this.noneToRun = true;
    else if (a != 1 && !(fail && tail == Char.LBRACKET)) this.someRan = true;
    let t = f.testsFor("go-test");
    // A panic go test did not show as a test's (the package's first output, no `--- FAIL:` and no `=== RUN`
    // before it: a goroutine's panic, the -timeout alarm's): the go-panic parser's crash since the last result
    // line ended the package's binary just the same.
    // The runtime's `fatal error: concurrent map writes` (go test reads no `fatal error:` line itself) ends it after
    // other tests failed too. A panic go test read (pkgPanic: TestMain's after m.Run, the binary's PASS or FAIL
    // printed) is not unseen.
    let fc = f.crash;
    let late = fail && !this.pkgStopped && !this.pkgPanic && tail != Char.LBRACKET && fc !== null &&
      fc!.tool == "go-panic" && f.crashCount != this.crashesAt;
    // After the binary's bare `PASS`/`FAIL` (m.Run returned, TestMain's clean-up panicked) every test reported:
    // the panic is the package's failure and stopped no test.
    let afterRun = late && this.binaryDone;
    let unseen = late && !this.binaryDone && (this.pkgFails == 0 || mapRace(fc!));
    if (unseen) this.pkgStopped = true;
    // A package that failed with no panic and no bare `PASS`/`FAIL` of its binary: the binary exited inside its
    // tests (os.Exit or log.Fatal in a test, TestMain exiting before m.Run): its tests that did not report are
    // unknown, as after a panic. (TestMain failing after m.Run prints the PASS first.) Tests that failed before it
    // do not change that: the package's own failure is listed beside theirs (a go-panic crash since the last
    // result line, after a failing test, stays the run's, as before).
    let exited = fail && !this.pkgStopped && !this.pkgPanic && tail != Char.LBRACKET && !this.binaryDone &&
      (this.pkgFails == 0 || !late);
    if (exited) this.pkgStopped = true;
    // -v and -json name the test it exited in: the one announced last with no result after it.
    let cur = this.current;
    let inTest = exited && this.runOpen && cur !== null ? " (exited while running " + cur! + ")" : "";
    // A package whose binary a panic ended: its tests after the panicking one never ran (none says so).
    if (fail && this.pkgStopped && t.runner == "go-test" && t.unfinished.length < MAX_FAILURES) {
      t.unfinished.push(pkg);
      let ps = this.pkgPassed;
      for (let i = 0; i < ps.length && t.unfinishedPassed.length < MAX_FAILURES; i++) t.unfinishedPassed.push(ps[i]);
    }
    if (fail && t.runner == "go-test") {
      // `[build failed]`, `[setup failed]`: the compiler's errors are the verdict's (build-failed); the
      // package's tests did not run (the delta says so), they did not fail.
      let built = tail == Char.LBRACKET;
      // A goroutine's panic no line announced (the go-panic parser's) whose stack ran in a test or was started by
      // one (`created by example.com/jobs.TestWorker`): that test failed with it, as finish names a panic's test.
      // (Not the -timeout alarm's, a deadlock's or a stack overflow's: those read as the package's, their own rules above.)
      // A runtime's `fatal error: concurrent map writes` (read and write, iteration and write) prints the goroutine
      // that hit it first, as a panic does: its test is named the same way.
      let sm = fc !== null ? fc!.summary : null;
      let goPanic = unseen && sm !== null && (sm!.startsWith("panic: ") || mapRace(fc!)) && !isGoTimeout(fc!.message);
      let fn = goPanic && this.panicTest === null && (this.panic === null || this.panicDone) ? testFunction(fc!.frames) : null;
      if (!built && (this.pkgFails == 0 || unseen) && fn !== null) {
        this.panic = fc; this.panicTest = testOfFunction(fn!); this.panicPkg = pkg; this.panicDone = false;
      } else if (!built && this.pkgFails == 0 && (this.pkgRefused || f.goFlagRefusals != this.refusalsAt) && !late) {
        // The package's binary refused its flags (its usage, `testing: invalid regexp …`, `will not fuzz`): its
        // `exit status 2` and `FAIL pkg` are that refusal's, the run's set-up failure, no error of the package.
      } else if (!built && (this.pkgFails == 0 || exited)) {
        let tf = failureIn(t, pkg, pkg);
        this.pkgErrors++;
        let c = unseen || afterRun ? fc : this.panic;
        if ((this.pkgPanic || unseen || afterRun) && c !== null) {
          if (!unseen && !afterRun) this.panicDone = true;
          // Its first line: `panic: msg`, or `fatal error: stack overflow` (a runtime error is no panic).
          let pm = c.message; let ps = c.summary;
          tf.message = ps !== null ? ps : pm !== null ? "panic: " + pm : "panic";
          let u = firstUser(c.frames);
          if (u !== null) { tf.file = u.file; tf.line = u.line; }
        } else if (this.lastOut.length > 0) tf.message = this.lastOut + inTest;
        else if (this.ownLast(f).length > 0) tf.message = this.ownLast(f) + inTest;
        else if (this.exitLine.length > 0) tf.message = this.exitLine + inTest;
        else if (inTest.length > 0) tf.message = inTest.substring(2, inTest.length - 1);
        // Its binary said PASS and still failed: TestMain (or a deferred check) after m.Run.
        else if (this.binaryPassed) tf.message = "the tests passed, then the test binary failed";
      }
    }
    this.pkgFails = 0;
    this.pkgRefused = false;
    this.refusalsAt = f.goFlagRefusals;
    this.pkgPanic = false;
    this.pkgStopped = false;
    this.binaryDone = false;
    this.binaryPassed = false;
    this.runOpen = false;
    this.exitLine = "";
    this.pkgPassed.length = 0;
    this.crashesAt = f.crashCount;
    // go test runs vet on the package before its tests: a finding of it stopped the build (`FAIL pkg [build
    // failed]` after it), so it is an error of this run, not a warning (go vet alone goes on).
    if (fail && l.matchAt("[build failed]", rest)) {
      let ds = f.diagnostics;
      for (let i = this.diagAt; i < ds.length; i++) if (ds[i].tool == "go-vet" && ds[i].severity == "warning") setSeverity(f, ds[i], "error");
      // Vet ends while other packages still test: its block can come out ahead of their result lines (a slow test
      // in the root package, then `FAIL example.com/m/internal/keys [build failed]`). A finding before them whose
      // file lies in this package's directory (`internal/keys/keys.go`) stopped this build too. (Not scanned past
      // the last VET_BACK findings.)
      let from = this.diagAt > VET_BACK ? this.diagAt - VET_BACK : 0;
      for (let i = from; i < this.diagAt && i < ds.length; i++) {
        let d = ds[i];
        if (d.tool == "go-vet" && d.severity == "warning" && inPackageDir(d.file, pkg)) setSeverity(f, d, "error");
      }
    }
    this.diagAt = f.diagnostics.length;
    let tl = f.tailLines;
    if (tl !== null) this.tailAt = tl.pushed;
    // A package that did not build (`FAIL pkg [build failed]`) did not run: not listed.
    this.keyPassed(pkg, !(fail && tail == Char.LBRACKET));
    this.logOpen = -1;
    this.lastOut = "";
    this.current = null;
    this.fold();
    this.seal(pkg);
    return true;
  }

  /**
   * The package's result line names it: its failing tests and log entries are its own (a test of the same
   * name in the next package is another test). The log entries of its tests that did not fail are dropped.
   */
  private seal(pkg: string): void {
    let dir = this.pkgDir;
    if (dir !== null && this.module === null) {
      if (dir!.length == 0) this.module = pkg;
      else if (pkg.length > dir!.length + 1 && pkg.endsWith("/" + dir!)) this.module = pkg.substring(0, pkg.length - dir!.length - 1);
    }
    this.pkgDir = null;
    let fs = this.failing;
    for (let i = this.failStart; i < fs.length; i++) this.failingPkg[i] = pkg;
    let p = this.panic;
    let pending = p !== null && !this.panicDone && this.panicTest !== null;
    if (pending && this.panicPkg.length == 0) this.panicPkg = pkg;
    for (let k = this.logStart; k < this.logName.length; k++) this.parentFailNow(k);
    let kept = this.logStart;
    for (let k = this.logStart; k < this.logName.length; k++) {
      let name = this.logName[k];
      let own = this.logPkg[k];
      // An entry of a package sealed before (a panic's note) is kept as it is.
      let keep = own.length > 0 || (pending && this.panicTest! == name);
      for (let i = this.failStart; i < fs.length && !keep; i++) if (fs[i] == name) keep = true;
      if (!keep) continue;
      this.logName[kept] = name; this.logPkg[kept] = own.length > 0 ? own : pkg;
      this.logFile[kept] = this.logFile[k]; this.logLine[kept] = this.logLine[k]; this.logMsg[kept] = this.logMsg[k];
      kept++;
    }
    this.logName.length = kept; this.logPkg.length = kept;
    this.logFile.length = kept; this.logLine.length = kept; this.logMsg.length = kept;
    this.failStart = fs.length;
    this.logStart = kept;
  }

  /**
   * A subtest that called its parent's t.Fatal (the closure's captured t): the parent's message is printed under
   * the parent (`=== CONT  TestTable`, `    table_test.go:24: got 60, want 61`), and the subtest fails with the
   * testing package's `testing.go:1343: test executed panic(nil) or runtime.Goexit: subtest may have called FailNow
   * on a parent test`. The subtest's entry k takes the parent's place; its message is the testing package's line
   * (what went wrong: the closure's t), then the parent's (the check that failed).
   */
  private parentFailNow(k: i32): void {
    let m = this.logMsg[k];
    if (this.logFile[k] != "testing.go" || !m.includes("subtest may have called FailNow on a parent test")) return;
    let name = this.logName[k];
    let slash = name.lastIndexOf("/");
    if (slash <= 0) return;
    let kp = this.logIndex(name.substring(0, slash), "");
    if (kp < 0 || this.logFile[kp].length == 0 || this.logFile[kp] == "testing.go") return;
    this.logFile[k] = this.logFile[kp]; this.logLine[k] = this.logLine[kp];
    this.logMsg[k] = m + "\n" + this.logMsg[kp];
  }

  /**
   * The binary's last line of its own since the last package result line, when go-test.ts was not offered it
   * (before go test showed itself the dispatch filter offers only its start keys: TestMain's `setup: …`, a
   * log.Fatal's line): the tail's newest, unless none came since or it is the binary's bare PASS/FAIL. Else "".
   */
  private ownLast(f: Facts): string {
    let tl = f.tailLines;
    if (tl === null || tl.pushed <= this.tailAt) return "";
    let s = tl.last();
    if (s === null || s == "PASS" || s == "FAIL") return "";
    return s!;
  }

  /** The package's passed tests, keyed by it (unit ""; a log cut before the package's line), and the package. */
  private keyPassed(unit: string, ran: bool = true): void {
    let ns = this.passNames;
    for (let i = 0; i < ns.length; i++) this.passHashes = withName(this.passHashes, ns[i], unit);
    ns.length = 0;
    // The package itself, as its own failure is named (a panic in init, TestMain): the run reached it.
    if (ran && unit.length > 0) this.passHashes = withName(this.passHashes, unit, unit);
  }

  /** logPkg, made at its first entry: a parser set is made for every verdict, most of them no go test's. */
  private logPkgs(): string[] {
    if (this.logPkg === NONE) this.logPkg = new Array<string>();
    return this.logPkg;
  }

  /** The log entry of test name in package pkg ("": the current package's), or -1. */
  /** The log entry k is a fuzz target's panic (its dump places it): never replaced. */
  private logStackOf(k: i32): bool {
    let m = this.logMsg[k];
    return (this.logFile[k] == "testing.go" && m.startsWith("panic: ")) || m.startsWith("test panicked: ");
  }

  private logIndex(name: string, pkg: string): i32 {
    for (let k = pkg.length == 0 ? this.logStart : 0; k < this.logName.length; k++) if (this.logName[k] == name && this.logPkg[k] == pkg) return k;
    return -1;
  }

  /**
   * Counts the package's test runs and forgets them (the failing ones' names are kept, up to the list's
   * bound). With sealedOnly, only the runs no later line can change: those whose name ran again since
   * (`-count=1000` in one package prints one `ok` line at its end); past MAX_OPEN runs still open, all.
   */
  private fold(sealedOnly: bool = false): void {
    let names = this.names;
    let res = this.res;
    for (let i = 0; i < names.length; i++) {
      if (res[i] != Res.FAIL) continue;
      let name = names[i];
      if (name.length > MAX_MARKED) continue;
      let s = name.lastIndexOf("/");
      for (let k = 0; s > 0 && k < MAX_PARENTS; k++) {
        let parent = name.substring(0, s);
        this.failedUnder.add(parent);
        s = parent.lastIndexOf("/");
      }
    }
    let index = this.index;
    let all = !sealedOnly;
    let kept = 0;
    for (let i = 0; i < names.length; i++) {
      let name = names[i];
      let r = res[i];
      // Kept in place: the runs still open move to the front.
      if (!all && index.has(name) && index.get(name) == i) { names[kept] = name; res[kept] = r; kept++; continue; }
      // A parent is not counted, unless it failed with no failing subtest (a t.Error of its own).
      if (this.parents.has(name) && (r != Res.FAIL || this.failedUnder.has(name))) continue;
      if (r == Res.PASS) this.passed++;
      else if (r == Res.SKIP) this.skipped++;
      else {
        this.failed++;
        let fs = this.failing;
        if (fs.length >= MAX_FAILURES) continue;
        let have = false;
        for (let k = fs.length - 1; k >= this.failStart; k--) if (unchecked(fs[k]) == name) { have = true; break; }
        if (!have) {
          fs.push(name);
          if (this.failingPkg === NONE) this.failingPkg = new Array<string>();
          this.failingPkg.push("");
        }
      }
    }
    names.length = kept;
    res.length = kept;
    index.clear();
    if (kept >= MAX_OPEN) { this.fold(); return; }
    for (let k = 0; k < kept; k++) index.set(unchecked(names[k]), k);
    // The next fold when as many runs again have come: a package of many open tests is not folded at each.
    this.foldAt = max(FOLD_AT, kept * 2);
  }

  /**
   * A further line of a multi-line t.Error message (indented deeper than the log line): part of the test's
   * message when it continues the test's first log line. testify's block (`Error Trace:`, `Error:`, `Test:`,
   * `Messages:`, each `label:<pad>\tvalue`, a value's further lines `<pad>\tvalue`) gives what it says:
   * the trace and the test's name are already the failure's place and name.
   */
  private continuation(l: Line, p: i32): bool {
    let k = this.logOpen;
    // A fuzz failure's input, saved (`    Failing input written to testdata/fuzz/FuzzX/<hash>`, under the test).
    if (p >= 4 && k >= 0 && k < this.logMsg.length && l.matchAt("Failing input written to ", p)) {
      // Within the message's bound: a log repeating the line would grow it (and the engine's memory) without end.
      if (this.logMore < MAX_MORE) { this.logMsg[k] = this.logMsg[k] + "\n" + l.trimmed(p); this.logMore++; }
      return true;
    }
    if (p < 8 || this.logName.length == 0) return false;
    if (this.logStack && k >= 0 && k < this.logMsg.length) { this.stackLine(k, l.trimmed(p)); return true; }
    if (k < 0 || k >= this.logMsg.length || this.logMore >= MAX_MORE) return true;
    let s = l.trimmed(p);
    // A field's label ends the diff of the one before (`Diff:` repeats the expected and actual lines).
    let label = s.startsWith("Error Trace:") || s.startsWith("Error:") || s.startsWith("Test:") || s.startsWith("Messages:");
    if (label) { this.logDiff = false; this.logTrace = false; }
    else if (s == "Diff:") this.logDiff = true;
    if (s.startsWith("Error Trace:")) { this.logTrace = true; this.errorTrace(k, s.substring(12).trimStart().trimEnd()); return true; }
    // The trace's further frames: a `file.go:N` alone on its line. Anything else ends the trace.
    if (this.logTrace && !label) { if (goLocation(s)) return true; this.logTrace = false; }
    if (this.logDiff || s.length == 0 || s.startsWith("Test:")) return true;
    if (s.startsWith("Error:")) s = s.substring(6).trimStart().trimEnd();
    else if (s.startsWith("Messages:")) s = "Messages: " + s.substring(9).trimStart().trimEnd();
    if (s.length == 0) return true;
    let m = this.logMsg[k];
    this.logMsg[k] = m.length > 0 ? m + "\n" + s : s;
    this.logMore++;
    return true;
  }

  /** A line of a fuzz panic's or a suite method's goroutine dump (logStack): its first user frame places the failure. */
  private stackLine(k: i32, s: string): void {
    if (s.length == 0 || s.startsWith("goroutine ")) return;
    let fn = this.stackFn;
    if (fn === null) {
      let open = s.lastIndexOf("(");
      if (s.endsWith(")") && open > 0) this.stackFn = s.substring(0, open);
      return;
    }
    this.stackFn = null;
    if (fn == "panic") { this.stackWait = false; return; }
    if (this.stackPlaced || this.stackWait) return;
    let end = s.lastIndexOf(" +0x");
    if (end < 0) end = s.length;
    let colon = s.lastIndexOf(":", end);
    if (colon <= 0) return;
    let fr = new Frame();
    fr.fn = fn;
    fr.file = normPath(s.substring(0, colon));
    fr.line = <i64>I32.parseInt(s.substring(colon + 1, end));
    classify(fr);
    if (!fr.user || fr.line <= 0) return;
    this.logFile[k] = fr.file!;
    this.logLine[k] = <i32>fr.line;
    this.stackPlaced = true;
  }

  /**
   * testify's `Error Trace:	/work/geom/parse_test.go:9` under the test's `parse_test.go:9:` line: the same
   * file by its whole path (work-relative once normalised), so the failure is placed there and the package's
   * directory is known (seal: the module's root).
   */
  private errorTrace(k: i32, v: string): void {
    let colon = v.lastIndexOf(":");
    if (colon <= 0) return;
    let path = normPath(v.substring(0, colon));
    let bare = this.logFile[k];
    if (path.length == 0 || path.charCodeAt(0) == Char.SLASH || path.startsWith("../") || bare.length == 0) return;
    if (I32.parseInt(v.substring(colon + 1)) != this.logLine[k]) return;
    let dir: string;
    if (path == bare) dir = "";
    else if (path.endsWith("/" + bare) && bare.indexOf("/") < 0) dir = path.substring(0, path.length - bare.length - 1);
    else return;
    this.logFile[k] = path;
    if (this.pkgDir === null) this.pkgDir = dir;
  }

  private mark(name: string): void {
    // Each parent is a copy of a prefix: a name with thousands of '/' (one long garbled line) would cost
    // memory quadratic in its length (a 64 KiB line took 128 MiB, found by bench/fuzz.js). Real subtests
    // nest a few levels: the deepest MAX_PARENTS are marked, and names past MAX_MARKED chars not at all.
    if (name.length > MAX_MARKED) return;
    let s = name.lastIndexOf("/");
    for (let k = 0; s > 0 && k < MAX_PARENTS; k++) {
      let parent = name.substring(0, s);
      this.parents.add(parent);
      s = parent.lastIndexOf("/");
    }
  }

  /**
   * go prints a test's result line before its subtests' (text, -v and -json's Output alike), each level four spaces
   * deeper (`--- PASS: TestServe/GET//user/x (0.00s)` at eight: a subtest `/user/x` of `GET`). A subtest's own name
   * may hold `/` (t.Run("/user/x/", …) beside t.Run("/user/x", …)): then its parents are the tests whose lines
   * stand one level up, not each prefix ending before a `/`. True when the name's parents were marked so.
   */
  private byIndent(l: Line, p: i32, name: string): bool {
    let d = p >> 2;
    let up = this.levelNames;
    // (A benchmark's result lines stand at column 0 under its parent's, `--- FAIL: BenchmarkX//user/x/`: a
    // top-level test's own name has no `/`, so such a line says nothing of levels.)
    if ((p & 3) != 0 || l.indent() != p || (d == 0 && name.indexOf("/") >= 0)) { up.length = 0; return false; }
    if (d > up.length) { up.length = 0; return false; }
    up.length = d;
    up.push(name);
    for (let k = 0; k < d; k++) {
      let parent = unchecked(up[k]);
      if (!name.startsWith(parent) || name.charCodeAt(parent.length) != Char.SLASH) return false;
    }
    for (let k = 0; k < d; k++) { this.parents.add(unchecked(up[k])); this.levelParents.add(unchecked(up[k])); }
    // As many `/` as levels: the prefixes are the parents (mark()).
    let slashes = 0;
    for (let i = name.indexOf("/"); i >= 0; i = name.indexOf("/", i + 1)) slashes++;
    if (slashes <= d) return false;
    // More: a prefix that is none of them was marked by the subtest's `=== RUN` line (-v), wrongly (a sibling
    // `/user/x` of `/user/x/`), unless a result line of its own subtests said it is one.
    if (name.length > MAX_MARKED) return true;
    for (let i = name.lastIndexOf("/"); i > 0; i = name.lastIndexOf("/", i - 1)) {
      let prefix = name.substring(0, i);
      if (!this.levelParents.has(prefix)) this.parents.delete(prefix);
    }
    return true;
  }

  private result(name: string, r: Res, marked: bool = false): void {
    if (!marked) this.mark(name);
    if (this.index.has(name)) { this.res[this.index.get(name)] = r; return; }
    this.index.set(name, this.names.length);
    this.names.push(name);
    this.res.push(r);
    if (this.names.length >= this.foldAt) this.fold(true);
  }

  /**
   * `BenchmarkX-8   \tpanic: msg`: where its `panic: ` starts (0 when the line is no such), the benchmark (its
   * name without the GOMAXPROCS suffix) then the running one, go test shown.
   */
  private benchPanic(l: Line): i32 {
    let n = l.len;
    let e = 9;
    while (e < n && !isSpace(l.at(e))) e++;
    let i = e;
    while (i < n && isSpace(l.at(i))) i++;
    if (i == e || !l.matchAt("panic: ", i)) return 0;
    let k = e - 1;
    while (k > 9 && isDigit(l.at(k))) k--;
    let cut = k < e - 1 && l.at(k) == Char.MINUS ? k : e;
    this.current = l.str(0, cut);
    this.seen = true;
    return i;
  }

  /** `panic: msg` at column at (0, or after a benchmark's name column). */
  private startPanic(l: Line, f: Facts, at: i32 = 0): void {
    // Another package's test binary panicking after this one: the earlier panic stays its test's failure.
    let prev = this.panic;
    if (prev !== null && !this.panicDone && this.panicTest !== null) this.notePanic(prev, this.panicTest!);
    let c = new Crash();
    c.tool = "go-panic";
    let msg = l.trimmed(at + 7);
    if (msg.endsWith(" [recovered]")) msg = msg.substring(0, msg.length - 12);
    c.message = msg;
    let k = msg;
    let b = k.indexOf(" [");
    if (b > 0) k = k.substring(0, b);
    c.kind = k;
    c.summary = "panic: " + msg;
    this.panic = c;
    this.panicPkg = "";
    // The running test, not one that already passed (a panic after the tests, in TestMain or at exit).
    // A test's own panic is recovered by testing.tRunner, which prints its `--- FAIL:` before `panic: … [recovered]`;
    // a panic without it (the -timeout alarm's, a goroutine's) came after every test that printed a result.
    let cur = this.current;
    if (cur !== null && this.index.has(cur!) && (this.res[this.index.get(cur!)] != Res.FAIL || !l.contains(" [recovered"))) cur = null;
    this.panicTest = cur;
    if (cur === null) this.pkgPanic = true; else this.pkgFails++;
    // After the binary's bare `FAIL`/`PASS` (m.Run returned: TestMain panics in its clean-up) every test reported.
    if (!this.binaryDone) this.pkgStopped = true;
    this.panicDone = false;
    this.inPanic = true;
    this.msgOpen = true;
    this.msgAppend = !l.contains(" [recovered");
    this.msgLines = 0;
    this.msgBlank = false;
    this.msgHeld = ""; this.msgHolding = false;
    this.pendingFn = null;
    this.frameNo = 0;
    f.setCrash(c);
  }

  /** The value's held lines were its own: the message's (the blank line before the goroutine dropped). */
  private keepHeld(c: Crash): void {
    let h = this.msgHeld;
    let e = h.length;
    while (e > 0 && h.charCodeAt(e - 1) == Char.LF) e--;
    let m = c.message;
    if (m !== null && e > 0) c.message = m + h.substring(0, e);
    this.msgHeld = ""; this.msgHolding = false;
  }

  /** The panic's report ended: the alarm's own frames back when no goroutine after it ran a test. */
  private endPanic(): void {
    this.inPanic = false;
    let c = this.panic; let a = this.alarm; let w = this.waiting;
    if (c !== null && a !== null && !runsGoTest(c.frames)) {
      if (w !== null) { c.frames = w; c.thread = this.waitingThread; }
      else { c.frames = a; c.thread = this.alarmThread; }
    }
    this.alarm = null;
    this.waiting = null;
    // Without -v no line named the test the alarm stopped: its goroutine's test function does.
    if (c !== null && this.panicTest === null && this.pkgPanic && isGoTimeout(c.message) && runsGoTest(c.frames)) {
      let name = goTestFunc(c.frames);
      if (name !== null) { this.panicTest = name; this.pkgPanic = false; this.pkgFails++; }
    }
    // Without -v no line named the test of any other panic either: the panicking goroutine's stack does when it
    // runs in a test or a test started it (`created by example.com/jobs.TestWorker`).
    if (c !== null && this.panicTest === null && this.pkgPanic && !isGoTimeout(c.message)) {
      let fn = testFunction(c.frames);
      if (fn !== null) { this.panicTest = testOfFunction(fn!); this.pkgPanic = false; this.pkgFails++; }
    }
  }

  /** The test a panic stopped carries the panic's message and first user frame, as its log line would. */
  private notePanic(c: Crash, name: string): void {
    let pkg = this.panicPkg;
    let k = this.logIndex(name, pkg);
    if (k < 0) {
      k = this.logName.length;
      this.logName.push(name); this.logPkgs().push(pkg); this.logFile.push(""); this.logLine.push(-1); this.logMsg.push("");
    }
    let m = c.message;
    this.logMsg[k] = m !== null ? m : c.kind;
    let u = firstUser(c.frames);
    let file = u !== null ? u.file : null;
    this.logFile[k] = file !== null ? file : "";
    this.logLine[k] = u !== null ? <i32>u.line : -1;
    this.panicDone = true;
  }

  /**
   * `example.com/m/geom.Parse` at `geom/parse.go` (work-relative): package example.com/m/geom is the directory
   * geom, so the module example.com/m is the work dir's root. Nothing from an absolute path (outside the
   * work dir) or a package path that does not end in the file's directory.
   */
  private learnModule(fn: string, file: string | null): void {
    if (file === null || file!.length == 0 || file!.charCodeAt(0) == Char.SLASH || file!.startsWith("../")) return;
    let f = file!;
    let slash = fn.lastIndexOf("/");
    let dot = fn.indexOf(".", slash + 1);
    if (dot <= 0) return;
    let pkg = fn.substring(0, dot);
    let fs = f.lastIndexOf("/");
    if (fs < 0) { this.module = pkg; return; }
    let dir = f.substring(0, fs);
    if (pkg.length > dir.length + 1 && pkg.endsWith("/" + dir)) this.module = pkg.substring(0, pkg.length - dir.length - 1);
  }

  /** The goroutine dump: `goroutine 7 [running]:`, `pkg.fn(args)` then `\tfile.go:10 +0x1d`. */
  private panicLine(l: Line): bool {
    let c = this.panic!;
    if (l.isBlank()) {
      if (this.msgOpen && c.frames.length == 0 && this.msgLines < 16) {
        if (this.msgAppend) { this.msgHolding = true; this.msgHeld += "\n"; } else this.msgBlank = true;
      } else this.msgOpen = false;
      return true;
    }
    // Tab-indented; spaces when the log went through a CI system or expand(1).
    let c0 = l.at(0);
    // The value's further lines (`panic(fmt.Sprintf("bad count %d\nitems: …"))`), before any goroutine: the
    // message's, up to the first copy's ` [recovered]`; the tab-indented re-panic's own are only claimed.
    if (this.msgOpen && c.frames.length == 0 && !l.startsWith("goroutine ") && !l.startsWith("[signal ") &&
        !l.startsWith("exit status ") && !l.startsWith("FAIL")) {
      let p = 0;
      while (p < l.len && (l.at(p) == Char.TAB || l.at(p) == Char.SPACE)) p++;
      if (p > 0 && l.matchAt("panic: ", p)) { this.msgAppend = false; return true; }
      let pass = false;
      if (this.msgAppend) {
        let rec = l.indexOf(" [recovered");
        let m = c.message;
        if (this.msgHolding) {
          // Past a blank line: the value's only once its ` [recovered]` (or a goroutine) closes it.
          if (this.msgLines >= 16) { this.msgOpen = false; this.msgHolding = false; this.msgHeld = ""; return false; }
          this.msgHeld += "\n" + (rec >= 0 ? l.str(0, rec) : l.toString());
          this.msgLines++;
          if (rec < 0) return false;
          this.keepHeld(c);
          this.msgAppend = false;
          return true;
        }
        if (m !== null && this.msgLines < 16) { c.message = m + "\n" + (rec >= 0 ? l.str(0, rec) : l.toString()); this.msgLines++; }
        if (rec >= 0) this.msgAppend = false;
      } else if (this.msgBlank) {
        // The re-panic's copy of the value: past a blank line, only a line the value holds (else the report was cut).
        let m = c.message;
        if (m === null || !m.includes(l.toString())) { this.msgOpen = false; this.msgBlank = false; pass = true; }
      }
      if (!pass) return true;
    }
    if (c0 == Char.TAB || (c0 == Char.SPACE && (this.pendingFn !== null || l.contains("panic: ")))) {
      let p = 0;
      while (l.at(p) == Char.TAB || l.at(p) == Char.SPACE) p++;
      if (l.matchAt("panic: ", p)) return true;
      let fn = this.pendingFn;
      if (fn === null) return true;
      let fr = new Frame();
      fr.index = this.frameNo++;
      fr.fn = fn;
      let end = l.lastIndexOf(" +0x");
      if (end < 0) end = l.len;
      let colon = l.lastIndexOfByte(Char.COLON, end);
      let trimmedStd = false;
      if (colon > p) {
        let loc = l.str(p, colon);
        fr.file = normPath(loc);
        trimmedStd = goTrimmedStd(fn, loc);
        let n = l.readInt(colon + 1);
        if (n >= 0) fr.line = <i32>n;
      }
      classify(fr);
      if (trimmedStd) fr.user = false;
      if (this.module === null && fr.user) this.learnModule(fn, fr.file);
      // Frames above a `panic(...)` frame are a deferred function that recovered the panic and panicked
      // again: the fault is below it (as in go-panic.ts).
      if (fn == "panic") { fr.user = false; for (let i = 0; i < c.frames.length; i++) c.frames[i].user = false; }
      c.frames.push(fr);
      this.pendingFn = null;
      return true;
    }
    if (l.startsWith("goroutine ")) {
      // The value's lines end at the first goroutine (a blank line before it left them open).
      if (this.msgHolding) this.keepHeld(c);
      this.msgOpen = false; this.msgBlank = false;
      // The -timeout alarm's goroutine, then one not running a test (goroutine 1's testing.(*M).Run): read on.
      if (c.frames.length > 0 && isGoTimeout(c.message) && !runsGoTest(c.frames)) {
        if (this.alarm === null) { this.alarm = c.frames; this.alarmThread = c.thread; }
        else if (this.waiting === null && goTestRole(c.frames) == GoTestRole.WAITS) { this.waiting = c.frames; this.waitingThread = c.thread; }
        c.thread = l.trimmed(0, l.len - 1);
        c.frames = new Array<Frame>(0);
        this.frameNo = 0;
        return true;
      }
      if (c.frames.length > 0) return false;
      c.thread = l.trimmed(0, l.len - 1);
      return true;
    }
    if (l.startsWith("[signal ")) return true;
    if (l.startsWith("exit status ") || l.startsWith("FAIL\t") || l.startsWith("FAIL") && l.len == 4) return false;
    if (l.startsWith("created by ")) {
      let s = l.trimmed(11);
      let g = s.indexOf(" in goroutine ");
      if (g > 0) s = s.substring(0, g);
      this.pendingFn = s;
      return true;
    }
    // pkg.(*T).Method(0xc00...) or pkg.fn(...)
    if (l.at(l.len - 1) == Char.RPAREN) {
      let open = l.lastIndexOfByte(Char.LPAREN);
      this.pendingFn = open > 0 ? l.str(0, open) : l.toString();
      return true;
    }
    return false;
  }

  /**
   * go test names a test's file bare (`parse_test.go:8:`), in its package's directory: with the module's root
   * known (learnModule), a failure of a package under it is placed there (`geom/parse_test.go`).
   */
  private placeFiles(t: Tests): void {
    let m = this.module;
    if (m === null) return;
    let mod = m!;
    for (let i = 0; i < t.failures.length; i++) {
      let tf = t.failures[i];
      let file = tf.file; let pkg = tf.pkg;
      if (file === null || pkg === null || file!.indexOf("/") >= 0) continue;
      if (pkg! == mod) continue;
      if (pkg!.length > mod.length + 1 && pkg!.startsWith(mod) && pkg!.charCodeAt(mod.length) == Char.SLASH)
        tf.file = pkg!.substring(mod.length + 1) + "/" + file!;
    }
  }

  finish(f: Facts): void {
    if (this.inPanic) this.endPanic();
    if (this.exampleOpen) this.exampleEnd();
    let ff = this.flagFailed;
    if (ff !== null && f.setupFailure === null && f.crash === null && !f.timeoutSeen) f.setupFailure = ff;
    if (!this.seen) return;
    let t = f.testsFor("go-test");
    if (t.runner != "go-test") return;
    let gp = this.gsPkg;
    if (gp !== null) this.gsSeal(gp!, f);
    this.fold();
    let passed = this.passed; let failed = this.failed; let skipped = this.skipped;
    for (let i = 0; i < this.failing.length; i++) {
      let name = this.failing[i];
      let pkg = this.failingPkg[i];
      let tf = failureIn(t, name, pkg);
      let k = this.logIndex(name, pkg);
      if (k >= 0) {
        let lf = this.logFile[k];
        tf.file = lf.length > 0 ? lf : null; tf.line = this.logLine[k]; tf.message = this.logMsg[k];
      }
      // `testing.go:1319: race detected during execution of test`: the testing package's own report, not
      // a line of the user's; the race (the crash) says where in the user's code it happened.
      if (tf.file !== null && tf.file! == "testing.go") {
        let u = f.crash !== null ? firstUser(f.crash!.frames) : null;
        tf.file = u !== null ? u.file : null;
        tf.line = u !== null ? u.line : -1;
      }
    }
    let c = this.panic;
    if (c !== null && !this.panicDone) {
      let name = this.panicTest !== null ? this.panicTest! : "(panic)";
      if (this.parents.has(name)) name = name; // a parent named by the dump keeps its name
      let pkg = this.panicPkg;
      // No test announced (no -v): the panicking goroutine's stack names its test when it runs in one, or was
      // started by one (`created by example.com/m.TestWait`): that test, of that package.
      if (this.panicTest === null) {
        let fn = testFunction(c.frames);
        if (fn !== null) { name = testOfFunction(fn!); if (pkg.length == 0) pkg = pkgOfFunction(fn!); }
      }
      let isNew = true;
      for (let i = 0; i < t.failures.length; i++) if (t.failures[i].name == name && pkgOr(t.failures[i]) == pkg) { isNew = false; break; }
      let tf = failureIn(t, name, pkg);
      if (isNew) failed++;
      tf.message = c.message !== null ? c.message! : c.kind;
      for (let i = 0; i < c.frames.length; i++) {
        if (c.frames[i].user) { tf.file = c.frames[i].file; tf.line = c.frames[i].line; break; }
      }
    }
    this.placeFiles(t);
    t.passed = passed; t.failed = failed; t.skipped = skipped; t.errors = this.pkgErrors;
    // Without -v, go test names only the tests that failed: the passing and skipped ones are not counted
    // anywhere in the log, so their counts are unknown (null), not 0.
    if (!this.verbose) { t.passed = -1; t.skipped = -1; }
    // -v lists each test that ran by its result line: a test failing before and in neither list did not run
    // (-failfast, -run, a panic stopped its package, renamed).
    this.keyPassed("");
    let hs = this.passHashes;
    if (this.verbose && hs !== null && (hs.length > 0 || t.failures.length > 0)) t.passedSet = hs;
    // Without -v: every package that ran said `[no tests to run]` (-run matched nothing, a test renamed): no
    // test ran, so the list of those that did is empty but for the packages; one that failed before was not run.
    if (!this.verbose && hs !== null && this.noneToRun && !this.someRan && t.failures.length == 0) {
      t.passedSet = hs;
      t.passed = 0; t.skipped = 0;
    }
    // gotestsum's DONE line counts every test (a parent too, as its `--- PASS` lines name them): the passes are
    // the rest; the run's list is whole only when as many passes were named (testname, standard-verbose).
    if (this.gsTotal >= 0) {
      let p = this.gsTotal - this.gsSkipped - this.gsFailures;
      t.passed = p > 0 ? p : 0; t.skipped = this.gsSkipped;
      if (this.passLines < t.passed) t.passedSet = null;
      else if (hs !== null && (hs.length > 0 || t.failures.length > 0)) t.passedSet = hs;
    }
  }
}

/** `/work/pkg/x_test.go:27` (testify's further Error Trace frames): a .go file and a line number, nothing after. */
function goLocation(s: string): bool {
  let colon = s.lastIndexOf(":");
  if (colon <= 3 || colon == s.length - 1 || s.substring(colon - 3, colon) != ".go") return false;
  for (let i = colon + 1; i < s.length; i++) if (!isDigit(s.charCodeAt(i))) return false;
  return s.indexOf(" ") < 0;
}

/** `0.003s` from p to the end of the line. */
function isDuration(l: Line, p: i32): bool {
  let n = l.len;
  if (n - p < 2 || l.at(n - 1) != Char.s) return false;
  for (let i = p; i < n - 1; i++) { let c = l.at(i); if (!isDigit(c) && c != Char.DOT) return false; }
  return isDigit(l.at(p));
}

/** `example.com/m` from p to the end of the line: one word, no spaces. */
function isImportPath(l: Line, p: i32): bool {
  if (p >= l.len) return false;
  for (let i = p; i < l.len; i++) if (isSpace(l.at(i))) return false;
  return true;
}

/**
 * The innermost frame's function that is a test's (`example.com/m.TestWait`, `.TestWait.func2`, a `_test`
 * package's), or null: go names a test function Test, Benchmark or Fuzz and an upper-case letter, a digit or `_`
 * (or nothing) after it; TestMain is not one.
 */
function testFunction(frames: Array<Frame>): string | null {
  for (let i = 0; i < frames.length; i++) {
    let fn = frames[i].fn;
    if (fn === null) continue;
    let s = fn!;
    let dot = s.indexOf(".", s.lastIndexOf("/") + 1);
    if (dot <= 0) continue;
    let k = dot + 1;
    // An Example's panic too (go prints its `--- FAIL: ExampleX` before the panic, from processRunResult).
    let word = s.startsWith("Test", k) ? 4 : s.startsWith("Benchmark", k) ? 9 : s.startsWith("Fuzz", k) ? 4 : s.startsWith("Example", k) ? 7 : 0;
    if (word == 0) continue;
    let c = k + word < s.length ? s.charCodeAt(k + word) : Char.DOT;
    // TestMain runs the tests, it is none of them (a panic in it is the package's).
    if (word == 4 && s.startsWith("TestMain", k) && (k + 8 == s.length || s.charCodeAt(k + 8) == Char.DOT)) continue;
    if (c == Char.DOT || c == 0x5F || isDigit(c) || (c >= 0x41 && c <= 0x5A)) return s;
  }
  return null;
}

/** `example.com/m.TestWait.func2` -> `TestWait`. */
function testOfFunction(fn: string): string {
  let dot = fn.indexOf(".", fn.lastIndexOf("/") + 1);
  let rest = fn.substring(dot + 1);
  let e = rest.indexOf(".");
  return e > 0 ? rest.substring(0, e) : rest;
}

/** `example.com/m_test.TestWait` -> `example.com/m` (an external test package is its package's). */
function pkgOfFunction(fn: string): string {
  let p = fn.substring(0, fn.indexOf(".", fn.lastIndexOf("/") + 1));
  return p.endsWith("_test") ? p.substring(0, p.length - 5) : p;
}

/** Words of a failure's message (`got 2, want 3`, `expected …`, `race detected …`, `mismatch`), lower case. */
const FAILED_WORDS: string[] = [
  "want", "expect", "got", "mismatch", "unexpected", "should", "fail", "error", "!=", "race detected",
  "not equal", "wrong", "panic", "differ", "invalid", "missing", "incorrect",
];

/** How many findings before a package's earlier result lines a `[build failed]` line looks back at. */
const VET_BACK = 64;

/** True when file (`internal/keys/keys.go`) lies in the directory that package path pkg ends with. */
function inPackageDir(file: string | null, pkg: string): bool {
  if (file === null) return false;
  let slash = file!.lastIndexOf("/");
  if (slash <= 0) return false;
  let dir = file!.substring(file!.startsWith("./") ? 2 : 0, slash);
  if (dir.length == 0 || dir.startsWith("/") || dir.startsWith("../")) return false;
  return pkg == dir || (pkg.length > dir.length && pkg.endsWith(dir) && pkg.charCodeAt(pkg.length - dir.length - 1) == Char.SLASH);
}

/** gotestsum's closing `DONE 4 tests, …` or `DONE 2 runs, 636 tests, …` line (doneLine reads its counts). */
function gsDone(l: Line): bool {
  if (!l.startsWith("DONE ")) return false;
  let n = l.readInt(5);
  if (n >= 0 && l.matchAt(" runs, ", l.end)) n = l.readInt(l.end + 7);
  return n >= 0 && l.matchAt(" test", l.end);
}

/** True when a test's log line reads as its failure (FAILED_WORDS), not as a note (a t.Log). */
function readsFailed(msg: string): bool {
  let m = msg.toLowerCase();
  for (let i = 0; i < FAILED_WORDS.length; i++) if (m.includes(FAILED_WORDS[i])) return true;
  return false;
}

/** The runtime's fatal error for a map two goroutines used at once (`concurrent map writes`, `… read and map write`). */
function mapRace(c: Crash): bool {
  let sm = c.summary;
  return sm !== null && sm.startsWith("fatal error: concurrent map ");
}
