// Every parser, one instance each, behind one dispatcher: a line is offered to the parser whose block is
// open, then to each parser in CLAIM_ORDER (./order). Every parser has the same entry shape (Parser:
// claim/busy/finish); the switch on ParserId makes each offer a direct call, not a virtual one.
// The filter: a parser that declares atRest() and starts() (Parser) is skipped while at rest when the line's
// key (first byte after leading blanks) is not in its set (and, for one that declares headColonStarts(), the
// line has no head colon; for one that declares colonStarts(), no ':' at all; for one that declares
// endsStarts(), its last byte is not in that set); one that declares nothing is offered every line.
import { Line } from "../util/line";
import { Facts } from "../model";
import { Parser } from "../parser";
import { ParserId, CLAIM_ORDER, FINISH_ORDER } from "./order";
import { DiagContext } from "./diag-context";
import { SanitizerParser } from "./sanitizers/sanitizer";
import { UbsanParser } from "./sanitizers/ubsan";
import { CxxTerminateParser } from "./c-family/cxx-terminate";
import { AssertParser } from "./c-family/assert";
import { V8FatalParser } from "./v8/v8-fatal";
import { KernelParser } from "./kernel/kernel";
import { CdbParser } from "./platform/cdb";
import { GdbParser } from "./platform/gdb";
import { AndroidParser } from "./platform/android";
import { ChromeGpuParser } from "./platform/chrome-gpu";
import { TrustyParser } from "./platform/trusty";
import { BugDetectedParser } from "./sanitizers/bug-detected";
import { ValgrindParser } from "./sanitizers/valgrind";
import { CentipedeParser } from "./fuzzers/centipede";
import { V8SandboxParser } from "./v8/v8-sandbox";
import { MakeParser } from "./c-family/make";
import { LinkerParser } from "./c-family/linker";
import { GccParser } from "./c-family/gcc";
import { RustParser } from "./rust/rustc";
import { TscParser } from "./tsc/tsc";
import { JavacParser } from "./java/javac";
import { MavenParser } from "./java/maven";
import { GoParser } from "./go/go-build";
import { JunitLogParser } from "./runners/junit-log";
import { JsonReportParser } from "./runners/json-report";
import { Junit4Parser } from "./runners/junit4";
import { GradleParser } from "./java/gradle";
import { CtestParser } from "./runners/ctest";
import { PytestParser } from "./runners/pytest";
import { UnittestParser } from "./runners/unittest";
import { CargoTestParser } from "./runners/cargo-test";
import { GoTestJsonParser } from "./runners/go-test-json";
import { GoTestParser } from "./runners/go-test";
import { GtestParser } from "./runners/gtest";
import { Catch2Parser } from "./runners/catch2";
import { UnityParser } from "./runners/unity";
import { TesthelpParser } from "./runners/testhelp";
import { JestParser } from "./runners/jest";
import { NodeTestParser } from "./runners/node-test";
import { AvaParser } from "./runners/ava";
import { RspecParser } from "./runners/rspec";
import { MinitestParser } from "./runners/minitest";
import { TestUnitParser } from "./runners/test-unit";
import { RubyParser } from "./ruby/ruby";
import { PhpunitParser } from "./runners/phpunit";
import { UvuParser } from "./runners/uvu";
import { CoverageParser } from "./runners/coverage";
import { PhpErrorParser } from "./php/php-error";
import { TapParser } from "./runners/tap";
import { CheckScriptParser } from "./runners/check-script";
import { EslintParser } from "./lint/eslint";
import { BiomeParser } from "./lint/biome";
import { PyLintParser } from "./lint/python-lint";
import { PythonParser } from "./python/python";
import { RustPanicParser } from "./rust/rust-panic";
import { GoPanicParser } from "./go/go-panic";
import { GoRaceParser } from "./go/go-race";
import { NodeErrorParser } from "./node/node-error";
import { JavaExceptionParser } from "./java/java-exception";
import { ShellParser } from "./shell/shell";

/** What an offer came to (the low bits), and LIVE when the parser is not at rest after it. */
const enum Claim { NO, DONE, BUSY, MASK = 3, LIVE = 4 }

/** Offers a line to one parser (a direct call: T is the concrete class). */
@inline function ask<T extends Parser>(p: T, l: Line, f: Facts): i32 {
  let r = Claim.NO;
  if (p.claim(l, f)) {
    // Inside a block: live without asking (taking a parser for live is always safe, only slower).
    if (p.busy()) return Claim.BUSY | Claim.LIVE;
    r = Claim.DONE;
  }
  return p.atRest() ? r : r | Claim.LIVE;
}

/** The filter on (the default); off, every parser is offered every line (the self-check test compares). */
let filterOn = true;
/** Sets the filter for the ParserSets made after this call. */
export function setDispatchFilter(on: bool): void { filterOn = on; }

/** Per key, the CLAIM_ORDER positions (bits) whose parser can start something on it; built once. */
let startsByKey: StaticArray<u64> | null = null;
/** Per last byte of the line, the positions whose parser can start something on it too (endsStarts); built with it. */
let startsByLast: StaticArray<u64> = changetype<StaticArray<u64>>(0);
/** Built with it: the positions started by a head colon too, go test's text parser's, those not at rest when new. */
let colonBits: u64 = 0;
let anyColonBits: u64 = 0;
let goTestBits: u64 = 0;
let freshLive: u64 = 0;

/** The line's key: its first byte after leading spaces and tabs; 0 for a blank line. */
@inline function keyOf(l: Line): i32 {
  let k = l.skipSpaces(0);
  return k < l.len ? <i32>load<u8>(l.ptr + <usize>k) : 0;
}

/** The line's last byte, as it is (no trimming); 0 for an empty line. */
@inline function lastOf(l: Line): i32 {
  return l.len > 0 ? <i32>load<u8>(l.ptr + <usize>(l.len - 1)) : 0;
}

@final
export class ParserSet {
  /** Make's directory stack, which compiler and linker paths are resolved against. */
  private ctx: DiagContext = new DiagContext();
  private san: SanitizerParser = new SanitizerParser();
  private ubsan: UbsanParser = new UbsanParser();
  private term: CxxTerminateParser = new CxxTerminateParser();
  private asrt: AssertParser = new AssertParser(this.ctx);
  private v8: V8FatalParser = new V8FatalParser();
  private kernel: KernelParser = new KernelParser();
  private cdb: CdbParser = new CdbParser();
  private gdb: GdbParser = new GdbParser();
  private android: AndroidParser = new AndroidParser();
  private chromeGpu: ChromeGpuParser = new ChromeGpuParser();
  private trusty: TrustyParser = new TrustyParser();
  private bugDetected: BugDetectedParser = new BugDetectedParser();
  private centipede: CentipedeParser = new CentipedeParser();
  private v8Sandbox: V8SandboxParser = new V8SandboxParser();
  private valgrind: ValgrindParser = new ValgrindParser();
  private make: MakeParser = new MakeParser(this.ctx);
  private ld: LinkerParser = new LinkerParser(this.ctx);
  private gcc: GccParser = new GccParser(this.ctx);
  private rustc: RustParser = new RustParser(this.ctx);
  private tsc: TscParser = new TscParser(this.ctx);
  private javac: JavacParser = new JavacParser(this.ctx);
  private maven: MavenParser = new MavenParser(this.ctx);
  private goBuild: GoParser = new GoParser(this.ctx);
  private junitLog: JunitLogParser = new JunitLogParser();
  private jsonReport: JsonReportParser = new JsonReportParser();
  private junit4: Junit4Parser = new Junit4Parser();
  private gradle: GradleParser = new GradleParser();
  private ctest: CtestParser = new CtestParser();
  private pytest: PytestParser = new PytestParser();
  private unittest: UnittestParser = new UnittestParser();
  private cargoTest: CargoTestParser = new CargoTestParser();
  private goTest: GoTestParser = new GoTestParser();
  private goRace: GoRaceParser = new GoRaceParser();
  /** go test -json: each event's Output is fed to the text parser (a DATA RACE report's lines to the race parser). */
  /** Declared here, before the -json parser that feeds it a runtime's `fatal error:` report. */
  private goPanic: GoPanicParser = new GoPanicParser();
  private goTestJson: GoTestJsonParser = new GoTestJsonParser(this.goTest, this.goRace, this.goPanic);
  private gtest: GtestParser = new GtestParser();
  private catch2: Catch2Parser = new Catch2Parser();
  private unity: UnityParser = new UnityParser();
  private testhelp: TesthelpParser = new TesthelpParser();
  private jest: JestParser = new JestParser(false);
  private vitest: JestParser = new JestParser(true);
  private ava: AvaParser = new AvaParser();
  private uvu: UvuParser = new UvuParser();
  private coverage: CoverageParser = new CoverageParser();
  private rspec: RspecParser = new RspecParser();
  private minitest: MinitestParser = new MinitestParser();
  private testUnit: TestUnitParser = new TestUnitParser();
  private ruby: RubyParser = new RubyParser();
  private phpunit: PhpunitParser = new PhpunitParser();
  private phpError: PhpErrorParser = new PhpErrorParser();
  private nodeTest: NodeTestParser = new NodeTestParser();
  private tap: TapParser = new TapParser();
  private checkScript: CheckScriptParser = new CheckScriptParser(this.ctx);
  private eslint: EslintParser = new EslintParser();
  private biome: BiomeParser = new BiomeParser();
  private pyLint: PyLintParser = new PyLintParser();
  private python: PythonParser = new PythonParser();
  private rustPanic: RustPanicParser = new RustPanicParser();
  private nodeError: NodeErrorParser = new NodeErrorParser();
  private java: JavaExceptionParser = new JavaExceptionParser();
  private shell: ShellParser = new ShellParser();
  /** The CLAIM_ORDER position of the parser inside a multi-line block, offered the next line first; -1 when none. */
  private active: i32 = -1;
  /** Per key, the positions to offer a line to when their parser is at rest (startsByKey, or every one with the filter off). */
  private starts: StaticArray<u64> = changetype<StaticArray<u64>>(0);
  /** Per last byte, the positions also offered a line ending with it when at rest (startsByLast). */
  private ends: StaticArray<u64> = changetype<StaticArray<u64>>(0);
  /** The positions whose parser is not at rest: offered every line. */
  private live: u64 = 0;
  /** The positions whose parser, at rest, is also offered every line with a head colon (headColonStarts). */
  private colon: u64 = 0;
  /** The positions whose parser, at rest, is also offered every line holding a ':' anywhere (colonStarts). */
  private anyColon: u64 = 0;
  /** The go test text parser's position bit (go -json's parser changes its state). */
  private goTestBit: u64 = 0;

  constructor() {
    let order = CLAIM_ORDER;
    let n = order.length;
    assert(n <= 64, "ParserSet: more than 64 parsers; the filter's masks hold 64");
    let table = startsByKey;
    if (table === null) {
      table = new StaticArray<u64>(256);
      let last = new StaticArray<u64>(256);
      for (let i = 0; i < n; i++) {
        let id = unchecked(order[i]);
        let p = this.parser(id);
        let s = p.starts();
        let bit = <u64>1 << <u64>i;
        for (let b = 0; b < 256; b++) if (s === null || s.has(b)) unchecked(table[b] = unchecked(table[b]) | bit);
        if (p.headColonStarts()) colonBits |= bit;
        if (p.colonStarts()) anyColonBits |= bit;
        let e = p.endsStarts();
        if (e !== null && s !== null) for (let b = 0; b < 256; b++) if (e.has(b)) unchecked(last[b] = unchecked(last[b]) | bit);
        if (id == ParserId.GO_TEST) goTestBits = bit;
        if (!p.atRest()) freshLive |= bit;
      }
      startsByKey = table;
      startsByLast = last;
    }
    if (!filterOn) {
      table = new StaticArray<u64>(256);
      for (let b = 0; b < 256; b++) unchecked(table[b] = n == 64 ? <u64>-1 : (<u64>1 << <u64>n) - 1);
    }
    this.starts = table;
    this.ends = startsByLast;
    this.goTestBit = goTestBits;
    if (filterOn) { this.colon = colonBits; this.anyColon = anyColonBits; }
    // Every parser is new: as at rest as the first set's were.
    this.live = freshLive;
  }

  /** Offers a line to the parsers; false when none claims it (it then belongs to the tail). */
  claim(l: Line, f: Facts): bool {
    let order = CLAIM_ORDER;
    let a = this.active;
    if (a >= 0) {
      let r = this.offer(unchecked(order[a]), l, f);
      // Still inside its block: its live bit (set when the block began) is settled when it leaves it.
      if ((r & Claim.MASK) == Claim.BUSY) return true;
      this.mark(a, r);
      this.active = -1;
      if ((r & Claim.MASK) == Claim.DONE) return true;
    }
    let todo = unchecked(this.starts[keyOf(l)]) | unchecked(this.ends[lastOf(l)]) | this.live;
    // Those also started by a head colon, when the line has one (found once per line: the compilers' parsers ask anyway).
    let c = this.colon & ~todo;
    if (c != 0 && l.headColon() >= 0) todo |= c;
    // Those started by a ':' anywhere (one scan per line, shared with headColon's).
    c = this.anyColon & ~todo;
    if (c != 0 && l.firstColon() >= 0) todo |= c;
    while (todo != 0) {
      let i = <i32>ctz(todo);
      todo &= todo - 1;
      let r = this.offer(unchecked(order[i]), l, f);
      this.mark(i, r);
      r &= Claim.MASK;
      if (r != Claim.NO) {
        if (r == Claim.BUSY) this.active = i;
        return true;
      }
    }
    return false;
  }

  /** Position i's parser is live (not at rest) after an offer that came to r. */
  @inline private mark(i: i32, r: i32): void {
    let bit = <u64>1 << <u64>i;
    this.live = (r & Claim.LIVE) != 0 ? this.live | bit : this.live & ~bit;
  }

  /** Every position's live bit, asked of its parser (after finish). */
  private settle(): void {
    let order = CLAIM_ORDER;
    let live: u64 = 0;
    for (let i = 0, n = order.length; i < n; i++) if (!this.parser(unchecked(order[i])).atRest()) live |= <u64>1 << <u64>i;
    this.live = live;
  }

  /** End of input: every parser flushes its pending block, in FINISH_ORDER. */
  finish(f: Facts): void {
    let order = FINISH_ORDER;
    for (let i = 0, n = order.length; i < n; i++) this.parser(unchecked(order[i])).finish(f);
    this.active = -1;
    this.settle();
  }

  private offer(id: i32, l: Line, f: Facts): i32 {
    switch (id) {
      case ParserId.SANITIZER: return ask(this.san, l, f);
      case ParserId.UBSAN: return ask(this.ubsan, l, f);
      case ParserId.CXX_TERMINATE: return ask(this.term, l, f);
      case ParserId.ASSERT: return ask(this.asrt, l, f);
      case ParserId.V8_FATAL: return ask(this.v8, l, f);
      case ParserId.KERNEL: return ask(this.kernel, l, f);
      case ParserId.CDB: return ask(this.cdb, l, f);
      case ParserId.GDB: return ask(this.gdb, l, f);
      case ParserId.ANDROID: return ask(this.android, l, f);
      case ParserId.CHROME_GPU: return ask(this.chromeGpu, l, f);
      case ParserId.TRUSTY: return ask(this.trusty, l, f);
      case ParserId.BUG_DETECTED: return ask(this.bugDetected, l, f);
      case ParserId.CENTIPEDE: return ask(this.centipede, l, f);
      case ParserId.V8_SANDBOX: return ask(this.v8Sandbox, l, f);
      case ParserId.VALGRIND: return ask(this.valgrind, l, f);
      case ParserId.MAKE: return ask(this.make, l, f);
      case ParserId.LINKER: return ask(this.ld, l, f);
      case ParserId.GCC: return ask(this.gcc, l, f);
      case ParserId.RUSTC: return ask(this.rustc, l, f);
      case ParserId.TSC: return ask(this.tsc, l, f);
      case ParserId.JAVAC: return ask(this.javac, l, f);
      case ParserId.GO_BUILD: return ask(this.goBuild, l, f);
      case ParserId.ESLINT: return ask(this.eslint, l, f);
      case ParserId.BIOME: return ask(this.biome, l, f);
      case ParserId.PY_LINT: return ask(this.pyLint, l, f);
      case ParserId.COVERAGE: return ask(this.coverage, l, f);
      case ParserId.JUNIT_LOG: return ask(this.junitLog, l, f);
      case ParserId.JSON_REPORT: return ask(this.jsonReport, l, f);
      case ParserId.JUNIT4: return ask(this.junit4, l, f);
      case ParserId.GRADLE: return ask(this.gradle, l, f);
      case ParserId.MAVEN: return ask(this.maven, l, f);
      case ParserId.CTEST: return ask(this.ctest, l, f);
      case ParserId.PYTEST: return ask(this.pytest, l, f);
      case ParserId.UNITTEST: return ask(this.unittest, l, f);
      case ParserId.CARGO_TEST: return ask(this.cargoTest, l, f);
      case ParserId.GO_TEST_JSON: {
        // It feeds the text parser, which may then leave its rest: that one's live bit too.
        let r = ask(this.goTestJson, l, f);
        if (!this.goTest.atRest()) this.live |= this.goTestBit;
        // (The Go panic parser it may feed is left out of the live set: the events after the report are still
        // this parser's, and those that close the report it offers on.)
        return r;
      }
      case ParserId.GO_TEST: return ask(this.goTest, l, f);
      case ParserId.GTEST: return ask(this.gtest, l, f);
      case ParserId.CATCH2: return ask(this.catch2, l, f);
      case ParserId.UNITY: return ask(this.unity, l, f);
      case ParserId.TESTHELP: return ask(this.testhelp, l, f);
      case ParserId.JEST: return ask(this.jest, l, f);
      case ParserId.VITEST: return ask(this.vitest, l, f);
      case ParserId.AVA: return ask(this.ava, l, f);
      case ParserId.UVU: return ask(this.uvu, l, f);
      case ParserId.RSPEC: return ask(this.rspec, l, f);
      case ParserId.MINITEST: return ask(this.minitest, l, f);
      case ParserId.TEST_UNIT: return ask(this.testUnit, l, f);
      case ParserId.RUBY: return ask(this.ruby, l, f);
      case ParserId.PHPUNIT: return ask(this.phpunit, l, f);
      case ParserId.PHP_ERROR: return ask(this.phpError, l, f);
      case ParserId.NODE_TEST: return ask(this.nodeTest, l, f);
      case ParserId.TAP: return ask(this.tap, l, f);
      case ParserId.CHECK_SCRIPT: return ask(this.checkScript, l, f);
      case ParserId.PYTHON: return ask(this.python, l, f);
      case ParserId.RUST_PANIC: return ask(this.rustPanic, l, f);
      case ParserId.GO_PANIC: return ask(this.goPanic, l, f);
      case ParserId.GO_RACE: return ask(this.goRace, l, f);
      case ParserId.NODE_ERROR: return ask(this.nodeError, l, f);
      case ParserId.JAVA: return ask(this.java, l, f);
      case ParserId.SHELL: return ask(this.shell, l, f);
      default: return Claim.NO;
    }
  }

  /** The parser of an id (a virtual call: for the set-up and the end, not for every line). */
  private parser(id: i32): Parser {
    switch (id) {
      case ParserId.SANITIZER: return this.san;
      case ParserId.CXX_TERMINATE: return this.term;
      case ParserId.UBSAN: return this.ubsan;
      case ParserId.ASSERT: return this.asrt;
      case ParserId.V8_FATAL: return this.v8;
      case ParserId.KERNEL: return this.kernel;
      case ParserId.CDB: return this.cdb;
      case ParserId.GDB: return this.gdb;
      case ParserId.ANDROID: return this.android;
      case ParserId.CHROME_GPU: return this.chromeGpu;
      case ParserId.TRUSTY: return this.trusty;
      case ParserId.BUG_DETECTED: return this.bugDetected;
      case ParserId.CENTIPEDE: return this.centipede;
      case ParserId.V8_SANDBOX: return this.v8Sandbox;
      case ParserId.VALGRIND: return this.valgrind;
      case ParserId.MAKE: return this.make;
      case ParserId.LINKER: return this.ld;
      case ParserId.GCC: return this.gcc;
      case ParserId.RUSTC: return this.rustc;
      case ParserId.TSC: return this.tsc;
      case ParserId.JAVAC: return this.javac;
      case ParserId.GO_BUILD: return this.goBuild;
      case ParserId.ESLINT: return this.eslint;
      case ParserId.BIOME: return this.biome;
      case ParserId.PY_LINT: return this.pyLint;
      case ParserId.COVERAGE: return this.coverage;
      case ParserId.JUNIT_LOG: return this.junitLog;
      case ParserId.JSON_REPORT: return this.jsonReport;
      case ParserId.JUNIT4: return this.junit4;
      case ParserId.GRADLE: return this.gradle;
      case ParserId.MAVEN: return this.maven;
      case ParserId.CTEST: return this.ctest;
      case ParserId.PYTEST: return this.pytest;
      case ParserId.UNITTEST: return this.unittest;
      case ParserId.CARGO_TEST: return this.cargoTest;
      case ParserId.GO_TEST_JSON: return this.goTestJson;
      case ParserId.GO_TEST: return this.goTest;
      case ParserId.GTEST: return this.gtest;
      case ParserId.CATCH2: return this.catch2;
      case ParserId.UNITY: return this.unity;
      case ParserId.TESTHELP: return this.testhelp;
      case ParserId.JEST: return this.jest;
      case ParserId.VITEST: return this.vitest;
      case ParserId.AVA: return this.ava;
      case ParserId.UVU: return this.uvu;
      case ParserId.RSPEC: return this.rspec;
      case ParserId.MINITEST: return this.minitest;
      case ParserId.TEST_UNIT: return this.testUnit;
      case ParserId.RUBY: return this.ruby;
      case ParserId.PHPUNIT: return this.phpunit;
      case ParserId.PHP_ERROR: return this.phpError;
      case ParserId.NODE_TEST: return this.nodeTest;
      case ParserId.TAP: return this.tap;
      case ParserId.CHECK_SCRIPT: return this.checkScript;
      case ParserId.PYTHON: return this.python;
      case ParserId.RUST_PANIC: return this.rustPanic;
      case ParserId.GO_PANIC: return this.goPanic;
      case ParserId.GO_RACE: return this.goRace;
      case ParserId.NODE_ERROR: return this.nodeError;
      case ParserId.JAVA: return this.java;
      case ParserId.SHELL: return this.shell;
      default: throw new Error("ParserSet: no parser of id " + id.toString());
    }
  }
}
