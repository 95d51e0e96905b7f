// Every parser, one instance each, behind one dispatcher: a line is offered to the parser whose block is
// open, then to each parser in CLAIM_ORDER (./order). Every parser has the same entry shape (Parser:
// claim/busy/finish); the switch on ParserId makes each offer a direct call, not a virtual one.
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
import { CentipedeParser } from "./fuzzers/centipede";
import { V8SandboxParser } from "./v8/v8-sandbox";
import { MakeParser } from "./c-family/make";
import { LinkerParser } from "./c-family/linker";
import { GccParser } from "./c-family/gcc";
import { RustParser } from "./rust/rustc";
import { TscParser } from "./tsc/tsc";
import { GoParser } from "./go/go-build";
import { JunitLogParser } from "./runners/junit-log";
import { Junit4Parser } from "./runners/junit4";
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
import { TapParser } from "./runners/tap";
import { CheckScriptParser } from "./runners/check-script";
import { EslintParser } from "./lint/eslint";
import { PythonParser } from "./python/python";
import { RustPanicParser } from "./rust/rust-panic";
import { GoPanicParser } from "./go/go-panic";
import { GoRaceParser } from "./go/go-race";
import { NodeErrorParser } from "./node/node-error";
import { JavaExceptionParser } from "./java/java-exception";
import { ShellParser } from "./shell/shell";

/** What an offer came to. */
const enum Claim { NO, DONE, BUSY }

/** Offers a line to one parser (a direct call: T is the concrete class). */
@inline function ask<T extends Parser>(p: T, l: Line, f: Facts): Claim {
  if (!p.claim(l, f)) return Claim.NO;
  return p.busy() ? Claim.BUSY : Claim.DONE;
}

@final
export class ParserSet {
  /** Make's directory stack, which compiler and linker paths are resolved against. */
  private ctx: DiagContext = new DiagContext();
  private san: SanitizerParser = new SanitizerParser();
  private ubsan: UbsanParser = new UbsanParser();
  private term: CxxTerminateParser = new CxxTerminateParser();
  private asrt: AssertParser = new AssertParser();
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
  private make: MakeParser = new MakeParser(this.ctx);
  private ld: LinkerParser = new LinkerParser(this.ctx);
  private gcc: GccParser = new GccParser(this.ctx);
  private rustc: RustParser = new RustParser(this.ctx);
  private tsc: TscParser = new TscParser(this.ctx);
  private goBuild: GoParser = new GoParser(this.ctx);
  private junitLog: JunitLogParser = new JunitLogParser();
  private junit4: Junit4Parser = new Junit4Parser();
  private ctest: CtestParser = new CtestParser();
  private pytest: PytestParser = new PytestParser();
  private unittest: UnittestParser = new UnittestParser();
  private cargoTest: CargoTestParser = new CargoTestParser();
  private goTest: GoTestParser = new GoTestParser();
  /** go test -json: each event's Output is fed to the text parser. */
  private goTestJson: GoTestJsonParser = new GoTestJsonParser(this.goTest);
  private gtest: GtestParser = new GtestParser();
  private catch2: Catch2Parser = new Catch2Parser();
  private unity: UnityParser = new UnityParser();
  private testhelp: TesthelpParser = new TesthelpParser();
  private jest: JestParser = new JestParser(false);
  private vitest: JestParser = new JestParser(true);
  private nodeTest: NodeTestParser = new NodeTestParser();
  private tap: TapParser = new TapParser();
  private checkScript: CheckScriptParser = new CheckScriptParser();
  private eslint: EslintParser = new EslintParser();
  private python: PythonParser = new PythonParser();
  private rustPanic: RustPanicParser = new RustPanicParser();
  private goPanic: GoPanicParser = new GoPanicParser();
  private goRace: GoRaceParser = new GoRaceParser();
  private nodeError: NodeErrorParser = new NodeErrorParser();
  private java: JavaExceptionParser = new JavaExceptionParser();
  private shell: ShellParser = new ShellParser();
  /** The parser inside a multi-line block, offered the next line first; -1 when none. */
  private active: i32 = -1;

  /** Offers a line to the parsers; false when none claims it (it then belongs to the tail). */
  claim(l: Line, f: Facts): bool {
    let a = this.active;
    if (a >= 0) {
      let r = this.offer(a, l, f);
      if (r != Claim.NO) {
        if (r == Claim.DONE) this.active = -1;
        return true;
      }
      this.active = -1;
    }
    let order = CLAIM_ORDER;
    for (let i = 0, n = order.length; i < n; i++) {
      let id = unchecked(order[i]);
      let r = this.offer(id, l, f);
      if (r != Claim.NO) {
        if (r == Claim.BUSY) this.active = id;
        return true;
      }
    }
    return false;
  }

  /** End of input: every parser flushes its pending block, in FINISH_ORDER. */
  finish(f: Facts): void {
    let order = FINISH_ORDER;
    for (let i = 0, n = order.length; i < n; i++) this.close(unchecked(order[i]), f);
    this.active = -1;
  }

  private offer(id: i32, l: Line, f: Facts): Claim {
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
      case ParserId.MAKE: return ask(this.make, l, f);
      case ParserId.LINKER: return ask(this.ld, l, f);
      case ParserId.GCC: return ask(this.gcc, l, f);
      case ParserId.RUSTC: return ask(this.rustc, l, f);
      case ParserId.TSC: return ask(this.tsc, l, f);
      case ParserId.GO_BUILD: return ask(this.goBuild, l, f);
      case ParserId.ESLINT: return ask(this.eslint, l, f);
      case ParserId.JUNIT_LOG: return ask(this.junitLog, l, f);
      case ParserId.JUNIT4: return ask(this.junit4, l, f);
      case ParserId.CTEST: return ask(this.ctest, l, f);
      case ParserId.PYTEST: return ask(this.pytest, l, f);
      case ParserId.UNITTEST: return ask(this.unittest, l, f);
      case ParserId.CARGO_TEST: return ask(this.cargoTest, l, f);
      case ParserId.GO_TEST_JSON: return ask(this.goTestJson, l, f);
      case ParserId.GO_TEST: return ask(this.goTest, l, f);
      case ParserId.GTEST: return ask(this.gtest, l, f);
      case ParserId.CATCH2: return ask(this.catch2, l, f);
      case ParserId.UNITY: return ask(this.unity, l, f);
      case ParserId.TESTHELP: return ask(this.testhelp, l, f);
      case ParserId.JEST: return ask(this.jest, l, f);
      case ParserId.VITEST: return ask(this.vitest, l, f);
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

  private close(id: i32, f: Facts): void {
    switch (id) {
      case ParserId.SANITIZER: this.san.finish(f); break;
      case ParserId.UBSAN: this.ubsan.finish(f); break;
      case ParserId.CXX_TERMINATE: this.term.finish(f); break;
      case ParserId.ASSERT: this.asrt.finish(f); break;
      case ParserId.V8_FATAL: this.v8.finish(f); break;
      case ParserId.KERNEL: this.kernel.finish(f); break;
      case ParserId.CDB: this.cdb.finish(f); break;
      case ParserId.GDB: this.gdb.finish(f); break;
      case ParserId.ANDROID: this.android.finish(f); break;
      case ParserId.CHROME_GPU: this.chromeGpu.finish(f); break;
      case ParserId.TRUSTY: this.trusty.finish(f); break;
      case ParserId.BUG_DETECTED: this.bugDetected.finish(f); break;
      case ParserId.CENTIPEDE: this.centipede.finish(f); break;
      case ParserId.V8_SANDBOX: this.v8Sandbox.finish(f); break;
      case ParserId.MAKE: this.make.finish(f); break;
      case ParserId.LINKER: this.ld.finish(f); break;
      case ParserId.GCC: this.gcc.finish(f); break;
      case ParserId.RUSTC: this.rustc.finish(f); break;
      case ParserId.TSC: this.tsc.finish(f); break;
      case ParserId.GO_BUILD: this.goBuild.finish(f); break;
      case ParserId.JUNIT_LOG: this.junitLog.finish(f); break;
      case ParserId.JUNIT4: this.junit4.finish(f); break;
      case ParserId.CTEST: this.ctest.finish(f); break;
      case ParserId.PYTEST: this.pytest.finish(f); break;
      case ParserId.UNITTEST: this.unittest.finish(f); break;
      case ParserId.CARGO_TEST: this.cargoTest.finish(f); break;
      case ParserId.GO_TEST_JSON: this.goTestJson.finish(f); break;
      case ParserId.GO_TEST: this.goTest.finish(f); break;
      case ParserId.GTEST: this.gtest.finish(f); break;
      case ParserId.CATCH2: this.catch2.finish(f); break;
      case ParserId.UNITY: this.unity.finish(f); break;
      case ParserId.TESTHELP: this.testhelp.finish(f); break;
      case ParserId.JEST: this.jest.finish(f); break;
      case ParserId.VITEST: this.vitest.finish(f); break;
      case ParserId.NODE_TEST: this.nodeTest.finish(f); break;
      case ParserId.TAP: this.tap.finish(f); break;
      case ParserId.CHECK_SCRIPT: this.checkScript.finish(f); break;
      case ParserId.PYTHON: this.python.finish(f); break;
      case ParserId.RUST_PANIC: this.rustPanic.finish(f); break;
      case ParserId.GO_PANIC: this.goPanic.finish(f); break;
      case ParserId.GO_RACE: this.goRace.finish(f); break;
      case ParserId.NODE_ERROR: this.nodeError.finish(f); break;
      case ParserId.JAVA: this.java.finish(f); break;
      case ParserId.SHELL: this.shell.finish(f); break;
    }
  }
}
