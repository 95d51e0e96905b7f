// V8's own fatal reports (d8, and every embedder of V8: Chromium, Node's V8 CHECKs):
//   #
//   # Fatal error in ../../src/heap/mark-compact.h, line 54
//   # Check failed: !IsImpossible(mark_bit).          (or "Debug check failed: ", "unreachable code", any text)
//   #
//   #FailureMessage Object: 0x7ff8722f7460
//   ==== C stack trace ===============================
//    1: 0xb29b0f4                                     (or "/path/libv8.so(fn+0x2e) [0x7ff8..]" lines)
// also "# Runtime error in file, line N" (a runtime function's argument check), "# Fatal process out of
// memory: what", "# V8 correctness failure" with its "# V8 correctness configs: ..." lines, CodeStubAssembler's
// one-line "abort: CSA_ASSERT failed: cond [file.cc:12]", and the in-process signal handler's "Received signal
// 11 SEGV_MAPERR 000000000000" that d8 and Chromium print.
// The crash is tool "assert" (V8's CHECKs are assertions): kind "check-failed", "dcheck-failed", "fatal-error",
// "unreachable", "runtime-assert", "out-of-memory", "assertion-failed" or "correctness-failure". Its state
// starts with the condition and the file (`cond in mark-compact.h`); V8 aborts right after, so a sanitizer's
// abort report that follows lends it its symbolized stack (Crash.stackless).
import { Char, isDigit } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts, Crash, signalCrash, MAX_FRAMES } from "../../model";
import { parseSanFrame } from "../../frames";
import { Parser } from "../../parser";
import { ByteSet } from "../../util/byte-set";
import { signalName } from "../../signals";
import { checkCondition, sourceBase } from "../../state-text";

const FATAL = "Fatal error";
const RUNTIME = "Runtime error in ";
const OOM_PROCESS = "Fatal process out of memory";
const OOM_JS = "Fatal JavaScript out of memory";
const OOM_SIZE = "Fatal JavaScript invalid size error";
const CORRECTNESS = "V8 correctness failure";
const CORRECTNESS_META = "V8 correctness ";
const FAILURE_OBJECT = "FailureMessage Object:";
const C_TRACE = "==== C stack trace ";
const CSA_ABORT = "abort: CSA_";
const SIGNAL = "Received signal ";

const enum St { IDLE, BLOCK, TRACE, SIGNAL }

/** At rest: `# Fatal error ...`, `abort: CSA_`, `Received signal `, `==== C stack trace ` at column 0. */
const STARTS = new ByteSet().chars("#aR=");

@final
export class V8FatalParser extends Parser {
  private state: St = St.IDLE;
  /** The crash of the block being read; null when the log already had its crash (the block is only claimed). */
  private crash: Crash | null = null;
  /** The block's message line was read. */
  private hasMessage: bool = false;
  /** The file the block's header names (`mark-compact.h`), or "". */
  private file: string = "";

  busy(): bool { return this.state != St.IDLE; }
  atRest(): bool { return this.state == St.IDLE; }
  starts(): ByteSet | null { return STARTS; }

  finish(f: Facts): void { this.state = St.IDLE; this.crash = null; }

  claim(l: Line, f: Facts): bool {
    if (this.state == St.BLOCK) {
      if (this.blockLine(l)) return true;
      this.state = St.IDLE;
    } else if (this.state == St.TRACE) {
      if (traceLine(l)) return true;
      this.state = St.IDLE;
    } else if (this.state == St.SIGNAL) {
      if (this.signalLine(l)) return true;
      this.state = St.IDLE;
    }
    let c0 = l.at(0);
    if (c0 == Char.HASH) return this.header(l, f);
    if (c0 == Char.a && l.startsWith(CSA_ABORT)) return this.csaAbort(l, f);
    if (c0 == Char.R && l.startsWith(SIGNAL)) return this.signal(l, f);
    if (c0 == Char.EQ && l.startsWith(C_TRACE)) { this.state = St.TRACE; return true; }
    return false;
  }

  /** "# Fatal error in X, line N", "# Runtime error in X, line N", "# Fatal process out of memory: ..". */
  private header(l: Line, f: Facts): bool {
    let p = l.skipSpaces(1);
    if (l.matchAt(FATAL, p) && (p + FATAL.length == l.len || l.matchAt(" in ", p + FATAL.length))) {
      this.begin(f, "fatal-error", l);
      this.file = whereFile(l, p + FATAL.length + 4);
      // A block cut short after its header is known by its file alone.
      let c = this.crash;
      if (c !== null && this.file.length > 0) { c.stateHead = [this.file]; }
      return true;
    }
    if (l.matchAt(RUNTIME, p)) {
      this.begin(f, "runtime-assert", l);
      this.file = whereFile(l, p + RUNTIME.length);
      return true;
    }
    if (l.matchAt(OOM_PROCESS, p) || l.matchAt(OOM_JS, p) || l.matchAt(OOM_SIZE, p)) {
      this.begin(f, "out-of-memory", l);
      this.file = "";
      this.message(l, p);
      return true;
    }
    if (l.matchAt(CORRECTNESS, p)) {
      this.begin(f, "correctness-failure", l);
      let c = this.crash;
      if (c !== null) {
        c.message = CORRECTNESS;
        c.stateHead = new Array<string>(0);
        c.stateHeadOnly = true;
        c.stateVerbatim = true;
      }
      this.hasMessage = true;
      return true;
    }
    return false;
  }

  private begin(f: Facts, kind: string, l: Line): void {
    this.state = St.BLOCK;
    this.hasMessage = false;
    this.crash = null;
    if (f.crash !== null) { f.crashCount++; return; }
    let c = new Crash();
    c.tool = "assert";
    c.kind = kind;
    c.summary = l.trimmed(1);
    c.stackless = true;
    f.setCrash(c);
    this.crash = c;
  }

  /** A line inside the "#" block: its message, V8 correctness metadata, the blank "#" lines. */
  private blockLine(l: Line): bool {
    if (l.at(0) != Char.HASH) {
      if (l.startsWith(C_TRACE)) { this.state = St.TRACE; return true; }
      return false;
    }
    let p = l.skipSpaces(1);
    if (p >= l.len || l.matchAt(FAILURE_OBJECT, p)) return true;
    let c = this.crash;
    if (c !== null && c.kind == "correctness-failure") {
      // "# V8 correctness configs: x64,ignition:x64,ignition_turbo": metadata that tells failures apart.
      if (l.matchAt(CORRECTNESS_META, p) && c.stateHead !== null) c.stateHead!.push(l.trimmed(p + CORRECTNESS_META.length));
      return true;
    }
    if (!this.hasMessage) this.message(l, p);
    return true;
  }

  /** The block's message at p: what failed, and the kind it makes. */
  private message(l: Line, p: i32): void {
    this.hasMessage = true;
    let c = this.crash;
    if (c === null) return;
    let msg = l.trimmed(p);
    let cond = msg;
    if (msg.startsWith("Check failed: ")) { c.kind = "check-failed"; cond = checkCondition(msg.substring(14)); }
    else if (msg.startsWith("Debug check failed: ")) { c.kind = "dcheck-failed"; cond = checkCondition(msg.substring(20)); }
    else if (msg.startsWith("RepresentationChangerError: ")) {
      // "RepresentationChangerError: node #81:Int64Constant of kRepWord64 ..." names the node by its number.
      c.kind = "check-failed";
      let colon = msg.indexOf(":", 28);
      cond = colon > 0 ? msg.substring(colon + 1) : msg.substring(28);
    } else if (msg == "unreachable code" || msg == "unimplemented code") {
      c.kind = "unreachable";
      c.message = msg;
      let head = new Array<string>(0);
      if (this.file.length > 0) head.push(this.file);
      c.stateHead = head;
      return;
    } else if (msg.startsWith(OOM_PROCESS) || msg.startsWith(OOM_JS) || msg.startsWith(OOM_SIZE) ||
               msg.startsWith("Allocation failed") && msg.includes("out of memory")) {
      c.kind = "out-of-memory";
    } else {
      cond = checkCondition(msg);
    }
    c.message = msg;
    let head = new Array<string>(0);
    head.push(this.file.length > 0 ? cond + " in " + this.file : cond);
    c.stateHead = head;
  }

  /** "abort: CSA_ASSERT failed: cond [../../src/code-stub-assembler.cc:1567]": the state is the text and the file. */
  private csaAbort(l: Line, f: Facts): bool {
    let p = 7; // after "abort: "
    let e = l.indexOf(" failed: ", p);
    if (e < 0) return false;
    if (f.crash !== null) { f.crashCount++; return true; }
    let c = new Crash();
    c.tool = "assert";
    c.kind = "assertion-failed";
    c.summary = l.trimmed(0);
    let open = l.indexOf(" [", e);
    let msg = l.trimmed(p, open > 0 ? open : l.len);
    c.message = msg;
    let head = new Array<string>(0);
    head.push(msg);
    if (open > 0) {
      let close = l.indexOfByte(Char.RBRACKET, open);
      if (close > open) {
        let b = sourceBase(l.str(open + 2, close));
        if (b.length > 0) head.push(b);
      }
    }
    c.stateHead = head;
    c.stateHeadOnly = true;
    f.setCrash(c);
    return true;
  }

  /** The in-process signal handler's "Received signal 11 SEGV_MAPERR 000000000000". */
  private signal(l: Line, f: Facts): bool {
    let n = l.readInt(SIGNAL.length);
    if (n <= 0 || n > 64 || l.at(l.end) != Char.SPACE) return false;
    if (f.crash !== null) { f.crashCount++; return true; }
    let name = signalName(<i32>n);
    let c = signalCrash(name !== null ? name! : "SIG" + n.toString(), l.trimmed(0));
    // The last word is the faulting address, in hex without "0x".
    let sp = l.lastIndexOfByte(Char.SPACE);
    if (sp > l.end && l.skipHex(sp + 1) == l.len && l.len > sp + 1) c.address = "0x" + l.str(sp + 1);
    f.setCrash(c);
    this.crash = c;
    this.state = St.SIGNAL;
    return true;
  }

  /**
   * After "Received signal": Chromium's CFI note ("CFI: Most likely a control flow integrity violation; ..."
   * and its link), the handler's stack ("#0 0x7fdf1ae337a8 in abc::def() /blah/blah.cc:111"), its register
   * dump ("  dx: 0000000000000529  ax: ..") and "[end of stack trace]".
   */
  private signalLine(l: Line): bool {
    let c = this.crash;
    if (l.startsWith("CFI: Most likely a control flow integrity violation")) {
      if (c !== null) { c.tool = "cfi"; c.kind = "cfi-bad-type"; }
      return true;
    }
    if (l.startsWith("https://") || l.startsWith("[end of stack trace]")) return true;
    if (l.startsWith(C_TRACE)) { this.state = St.TRACE; return true; }
    let p = l.skipSpaces(0);
    if (l.at(p) == Char.HASH) {
      let fr = parseSanFrame(l);
      if (fr === null) return false;
      if (c !== null && c.frames.length < MAX_FRAMES) { fr.index = c.frames.length; c.frames.push(fr); }
      return true;
    }
    // "  dx: 0000000000000529  ax: 0000000000001fe9"
    return p > 0 && l.at(p + 2) == Char.COLON && l.at(p + 3) == Char.SPACE;
  }
}

/** The file of "../../src/heap/mark-compact.h, line 54" from p; "" when the place is no file (a function name). */
function whereFile(l: Line, p: i32): string {
  let e = l.indexOf(", line ", p);
  if (e < 0) return "";
  return sourceBase(l.str(p, e));
}

/** A line of the "==== C stack trace" that follows the block: numbered pcs, module(fn+off) [pc], blank lines. */
function traceLine(l: Line): bool {
  let p = l.skipSpaces(0);
  if (p >= l.len) return true;
  let c = l.at(p);
  // " 1: 0xb29b0f4", "21: __libc_start_main"
  if (isDigit(c)) {
    let n = l.readInt(p);
    return n >= 0 && l.at(l.end) == Char.COLON;
  }
  // "[0xf7194e1c]" (the pc on a line of its own), "[end of stack trace]"
  if (c == Char.LBRACKET) return l.at(l.len - 1) == Char.RBRACKET;
  // "/path/libv8.so(v8::internal::Foo()+0x38) [0x..]", also a signature wrapped onto the next line
  let last = l.at(l.len - 1);
  if (last == Char.RBRACKET && l.indexOf("[0x") > 0) return true;
  return c == Char.SLASH && l.indexOfByte(Char.LPAREN) > 0;
}
