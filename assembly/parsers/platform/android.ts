// A native crash on Android as logcat and debuggerd's tombstone show it: libc's `Fatal signal 11 (SIGSEGV),
// code 2, fault addr 0xb6e43000 in tid 1544 (surfaceflinger)` (the tombstone's own `signal 6 (SIGABRT), code -6
// (SI_TKILL), fault addr --------`), the message the program passed to abort (`Abort message: file.cpp:3301
// CHECK_EQ(a,b) failed: 25 vs. 1`, `Abort message: [FATAL:x.cc(550)] Timed out ...`: a CHECK or
// LOG_ALWAYS_FATAL) and the `backtrace:` (`    #0 0x00084fe6 in tgkill /bionic/libc/.../tgkill.S:20`, or the
// tombstone's `    #00 pc 0001a2b3  /system/lib/libc.so (abort+63)`).
// The crash is tool `android`, kind the signal's name, or `abort-message` once the program said why it
// aborted (its message the state's head: `what in file.cpp`); address the fault address. A crash with no
// frame worth naming is grouped by its process (`Surfaceflinger`), as ClusterFuzz does.
import { Char, isDigit } from "../../util/chars";
import { Line } from "../../util/line";
import { Crash, Facts, Frame, MAX_FRAMES, lendStack } from "../../model";
import { Parser } from "../../parser";
import { ByteSet } from "../../util/byte-set";
import { classify, parseSanFrame, normPath } from "../../frames";
import { checkCondition, sourceBase } from "../../state-text";

const FATAL_SIGNAL = "Fatal signal ";
const ABORT_MESSAGE = "Abort message: ";
const BACKTRACE = "backtrace:";
/** Lines between `backtrace:` and its first frame (logcat interleaves other tags' lines). */
const LEAD = 2;

/** Outside a backtrace: `Fatal signal`, `signal N`, `Abort message`, `backtrace:` at column 0. */
const STARTS = new ByteSet().chars("FsAb");

@final
export class AndroidParser extends Parser {
  /** The crash the signal line began; it is the log's crash only if no other report names one (settle()). */
  private crash: Crash | null = null;
  private process: string | null = null;
  /** The backtrace's frames, read before it is known whose they are. */
  private frames: Array<Frame> = [];
  private inTrace: bool = false;
  private lead: i32 = 0;
  private traced: i32 = 0;

  busy(): bool { return this.inTrace; }
  atRest(): bool { return !this.inTrace; }
  starts(): ByteSet | null { return STARTS; }

  finish(f: Facts): void {
    if (this.inTrace) this.endTrace(f);
    let c = this.crash;
    if (c === null) return;
    if (f.crash === null) f.setCrash(c);
    if (f.crash !== c || c.stateHead !== null || this.process === null) return;
    for (let i = 0; i < c.frames.length; i++) if (c.frames[i].fn !== null || c.frames[i].file !== null) return;
    let p = this.process!;
    c.stateHead = [p.substring(0, 1).toUpperCase() + p.substring(1)];
  }

  claim(l: Line, f: Facts): bool {
    if (this.inTrace) {
      if (this.traceLine(l)) return true;
      if (this.traced > 0 || --this.lead < 0) this.endTrace(f);
    }
    let ch = l.at(0);
    if (ch == Char.F && l.startsWith(FATAL_SIGNAL)) return this.signal(l, FATAL_SIGNAL.length, f);
    if (ch == Char.s && l.startsWith("signal ") && isDigit(l.at(7))) return this.signal(l, 7, f);
    if (ch == Char.A && l.startsWith(ABORT_MESSAGE)) return this.abortMessage(l, f);
    if (ch == Char.b && l.startsWith(BACKTRACE) && l.len == BACKTRACE.length) {
      if (this.crash === null) return false;
      this.inTrace = this.crash!.frames.length == 0;
      this.lead = LEAD;
      this.traced = 0;
      this.frames = [];
      return true;
    }
    return false;
  }

  /** `Fatal signal 11 (SIGSEGV), code 2, fault addr 0xb6e43000 in tid 1544 (surfaceflinger)`; p after "signal ". */
  private signal(l: Line, p: i32, f: Facts): bool {
    let n = l.readInt(p);
    if (n < 0 || !l.matchAt(" (SIG", l.end)) return false;
    let s = l.end + 2;
    let close = l.indexOfByte(Char.RPAREN, s);
    if (close < 0) return false;
    let notice = f.crash;
    if (this.crash === null && notice !== null && notice.tool == "signal" && notice.frames.length == 0 && notice.kind == l.str(s, close)) {
      // The shell's "Segmentation fault" for the same signal, printed before the device's log: one crash, which
      // the tombstone tells in full (address, process, backtrace).
      f.crash = null;
      f.crashCount--;
    }
    if (this.crash !== null || f.crash !== null) return true;
    // Not yet the log's crash: an assertion's own report of the abort (`Abort message: [FATAL:..] Check failed:`,
    // read by the assert parser) names it better, and then this backtrace is that assertion's stack.
    let c = new Crash();
    c.tool = "android";
    c.kind = l.str(s, close);
    c.summary = l.trimmed(0);
    let a = l.indexOf("fault addr 0x", close);
    if (a > 0) {
      let e = l.skipHex(a + 13);
      if (e > a + 13) c.address = l.str(a + 11, e);
    }
    // "in tid 1544 (surfaceflinger)": the process's name ends the line
    if (l.at(l.len - 1) == Char.RPAREN) {
      let open = l.lastIndexOfByte(Char.LPAREN);
      if (open > close && l.indexOf(" in tid ", close) > 0) this.process = l.str(open + 1, l.len - 1);
    }
    this.crash = c;
    return true;
  }

  /** The backtrace ends: its frames are this crash's, or the stack of the assertion that reported the abort. */
  private endTrace(f: Facts): void {
    this.inTrace = false;
    let c = this.crash;
    let fc = f.crash;
    if (c === null || this.frames.length == 0) return;
    if (fc === null || fc === c) c.frames = this.frames;
    else if (fc.stackless) lendStack(fc, this.frames);
    this.frames = [];
  }

  /** `Abort message: <where> <what>` (or `[FATAL:where] what`): why the program aborted. */
  private abortMessage(l: Line, f: Facts): bool {
    if (f.crash !== null && f.crash !== this.crash) return true;
    let c = this.crash;
    if (c === null) {
      c = new Crash();
      c.tool = "android";
      this.crash = c;
    }
    if (f.crash === null) f.setCrash(c);
    let msg = l.trimmed(ABORT_MESSAGE.length);
    c.kind = "abort-message";
    c.message = msg;
    let where = "";
    let what = msg;
    if (msg.startsWith("[")) {
      let close = msg.indexOf("] ");
      if (close > 0) {
        where = msg.substring(1, close);
        let fatal = where.indexOf("FATAL:");
        if (fatal >= 0) where = where.substring(fatal + 6);
        what = msg.substring(close + 2);
      }
    } else {
      let sp = msg.indexOf(" ");
      if (sp > 0 && msg.substring(0, sp).includes(".")) { where = msg.substring(0, sp); what = msg.substring(sp + 1); }
    }
    // Chromium's "Out of memory. size=4194304" (base's OOM handler): the program ran out of memory
    if (what.startsWith("Out of memory")) c.kind = "out-of-memory";
    let cond = checkCondition(what);
    let file = where.length > 0 ? sourceBase(where) : "";
    c.stateHead = [file.length > 0 ? cond + " in " + file : cond];
    return true;
  }

  /** A frame of the backtrace: sanitizer-style (`#0 0x.. in fn file:line`) or the tombstone's (`#00 pc ..`). */
  private traceLine(l: Line): bool {
    let p = l.skipSpaces(0);
    if (l.at(p) != Char.HASH || !isDigit(l.at(p + 1))) return false;
    let fr = parseSanFrame(l);
    if (fr === null) fr = tombstoneFrame(l, p);
    if (fr === null) return false;
    this.traced++;
    fr.index = this.frames.length;
    if (this.frames.length < MAX_FRAMES) this.frames.push(fr);
    return true;
  }
}

/** `#00 pc 0001a2b3  /system/lib/libc.so (abort+63)` (the function may be absent); p at '#'. */
function tombstoneFrame(l: Line, p: i32): Frame | null {
  let n = l.readInt(p + 1);
  if (n < 0) return null;
  let q = l.skipSpaces(l.end);
  if (!l.matchAt("pc ", q)) return null;
  q = l.skipSpaces(l.skipHex(l.skipSpaces(q + 3)));
  let fr = new Frame();
  fr.index = <i32>n;
  let open = l.indexOf(" (", q);
  let modEnd = open > 0 ? open : l.len;
  let mod = l.trimmed(q, modEnd);
  if (mod.length > 0) fr.module = normPath(mod);
  if (open > 0 && l.at(l.len - 1) == Char.RPAREN) {
    let inner = l.str(open + 2, l.len - 1);
    let plus = inner.lastIndexOf("+");
    fr.fn = plus > 0 ? inner.substring(0, plus) : inner;
  }
  classify(fr);
  return fr;
}
