// Linux kernel crash reports, as dmesg, a serial console, syzkaller or the Linux Kernel Library print them
// (a "[    0.058593] " time stamp may open every line):
//   BUG: KASAN: slab-out-of-bounds in hid_probe+0x26/0x31 [at addr ffff..]   (or "... on address 0000..40")
//   Write of size 4 at addr 00007f2a8ad06d18 by task kworker/0:1/11
//   general protection fault: 0000 [#1] SMP KASAN
//   kernel BUG at kernel/time/timer.c:1147!
//   Kernel panic - not syncing: corrupted stack end detected inside scheduler
//   Internal error: Oops: 96000005 [#1] PREEMPT SMP                        (arm: the fault status register)
// then "Call trace:" / "Call Trace:" / "Linux Kernel Library Stack Trace:" and frames:
//   [<ffffffc000d36974>] platform_match+0x100/0x1d8 drivers/base/platform.c:834
//   #8 [<0x00000000008013f1>] hid_generic_probe+0xa1/0xd0
//   test_rtc_alarm_irq_enable+0x74/0xa0 [rtc_test]
// A frame the unwinder is unsure of ("? fn+0x..") and one inlined into its caller ("[<  inline  >] fn") are
// not the call chain: they stay out. The crash is tool "kernel"; its kind the report's words
// ("slab-out-of-bounds", "general-protection-fault", "bug", "panic", "oops"), its message what follows them.
import { Char, isDigit, isHex } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts, Crash, Frame, MAX_FRAMES } from "../../model";
import { Parser } from "../../parser";
import { ByteSet } from "../../util/byte-set";
import { setLocation, parseSanFrame } from "../../frames";

const KASAN = "BUG: KASAN: ";
const GPF = "general protection fault";
const KBUG = "kernel BUG at ";
const PANIC = "Kernel panic - not syncing: ";
const OOPS = "Internal error: Oops: ";

/** At rest (no report read yet): a report's first line at column 0 or after a `[  1.23]` stamp. */
const STARTS = new ByteSet().chars("BgkKI[");

@final
export class KernelParser extends Parser {
  /** The crash whose frames are being read (null: not in a trace, or the report is not the crash). */
  private crash: Crash | null = null;
  private inTrace: bool = false;
  /** A report was read: its access line and its trace may follow. */
  private open: bool = false;

  busy(): bool { return this.inTrace; }
  atRest(): bool { return !this.inTrace && !this.open; }
  starts(): ByteSet | null { return STARTS; }

  finish(f: Facts): void { this.inTrace = false; this.open = false; this.crash = null; }

  claim(l: Line, f: Facts): bool {
    let p = afterStamp(l);
    if (this.inTrace) {
      if (this.frameLine(l, p)) return true;
      this.inTrace = false;
    }
    let c0 = l.at(p);
    if (c0 == Char.B && l.matchAt(KASAN, p)) return this.kasan(l, p + KASAN.length, f);
    if (c0 == Char.g && l.matchAt(GPF, p) && l.indexOf("KASAN", p) > 0) return this.report(f, "general-protection-fault", l.trimmed(p), l);
    if (c0 == Char.k && l.matchAt(KBUG, p)) return this.report(f, "bug", l.trimmed(p + KBUG.length), l);
    if (c0 == Char.K && l.matchAt(PANIC, p)) return this.report(f, "panic", l.trimmed(p + PANIC.length), l);
    if (c0 == Char.I && l.matchAt(OOPS, p)) {
      let e = l.skipHex(p + OOPS.length);
      return this.report(f, "oops", l.str(p + OOPS.length, e), l);
    }
    if (!this.open) return false;
    // arm's trace has no title: "[<c00911c4>] (next_frame+0xbb/0x111) from [<c0095e60>] (..)"
    if (c0 == Char.LBRACKET && l.matchAt("[<", p) && this.frameLine(l, p)) { this.inTrace = true; return true; }
    // "Read of size 1 by task kworker/u8:1/94", "Write of size 4 at addr 00007f2a8ad06d18 by task ..."
    if ((c0 == Char.R && l.matchAt("Read of size ", p)) || (c0 == Char.W && l.matchAt("Write of size ", p))) {
      let c = this.crash;
      if (c !== null && c.access === null) {
        c.access = c0 == Char.R ? "READ" : "WRITE";
        let n = l.readInt(p + (c0 == Char.R ? 13 : 14));
        if (n >= 0) c.size = n;
        let a = l.indexOf(" addr ", p);
        if (a > 0 && c.address === null) c.address = "0x" + l.str(a + 6, l.skipHex(a + 6));
      }
      return true;
    }
    if (l.matchAt("Call trace:", p) || l.matchAt("Call Trace:", p) || l.matchAt("Linux Kernel Library Stack Trace:", p)) {
      this.inTrace = true;
      return true;
    }
    // x86's "RIP: 0010:[<ffffffff92af056e>]  [<ffffffff92af056e>] keyring_destroy+0xe2/0x186": the faulting function
    if (c0 == Char.R && l.matchAt("RIP: ", p) && l.indexOf("[<", p) > 0) {
      let c = this.crash;
      if (c !== null && c.frames.length == 0) {
        let fr = kernelFrame(l, l.lastIndexOf("] ") + 2);
        if (fr !== null) c.frames.push(fr);
      }
      return true;
    }
    return false;
  }

  /** "BUG: KASAN: use-after-free in fn+0x1/0x2 [at addr X]", "BUG: KASAN: user-memory-access on address X". */
  private kasan(l: Line, p: i32, f: Facts): bool {
    let e = l.indexOf(" in ", p);
    let on = l.indexOf(" on ", p);
    if (e < 0 || (on > 0 && on < e)) e = on;
    let kind = e > 0 ? l.trimmed(p, e) : l.trimmed(p);
    if (kind.length == 0) return false;
    this.report(f, kind, l.trimmed(p), l);
    let c = this.crash;
    if (c !== null) {
      let a = l.indexOf("addr ", p);
      if (a < 0) { a = l.indexOf("address ", p); if (a >= 0) a += 3; }
      if (a >= 0) {
        let s = a + 5;
        if (l.matchAt("0x", s)) s += 2;
        let x = l.skipHex(s);
        if (x > s) c.address = "0x" + l.str(s, x);
      }
    }
    return true;
  }

  private report(f: Facts, kind: string, msg: string, l: Line): bool {
    this.open = true;
    this.inTrace = false;
    this.crash = null;
    if (f.crash !== null) { f.crashCount++; return true; }
    let c = new Crash();
    c.tool = "kernel";
    c.kind = kind;
    c.message = msg;
    c.summary = l.trimmed(afterStamp(l));
    f.setCrash(c);
    this.crash = c;
    return true;
  }

  /** A line of a kernel trace: a frame (kept), an unreliable or inlined one (claimed only), else false. */
  private frameLine(l: Line, p: i32): bool {
    p = l.skipSpaces(p);
    if (p >= l.len) return false;
    // LKL numbers its frames: "#8 [<0x00000000008013f1>] hid_generic_probe+0xa1/0xd0"
    if (l.at(p) == Char.HASH && isDigit(l.at(p + 1))) {
      // symbolized, it is a sanitizer's frame: "#4 0x0000000000a60a36 in fn /src/lkl/drivers/hid/hid-input.c:0:31"
      let sf = parseSanFrame(l);
      if (sf !== null && sf.fn !== null) {
        let c = this.crash;
        if (c !== null && c.frames.length < MAX_FRAMES) { sf.index = c.frames.length; c.frames.push(sf); }
        return true;
      }
      l.readInt(p + 1);
      p = l.skipSpaces(l.end);
    }
    if (l.matchAt("[<", p)) {
      let close = l.indexOf(">]", p);
      if (close < 0) return false;
      let inner = l.trimmed(p + 2, close);
      p = l.skipSpaces(close + 2);
      if (!inner.startsWith("0x") && !isHexText(inner)) return true; // "[<     inline     >] fn file:line"
    }
    if (l.at(p) == Char.QUESTION) return true; // "? fn+0x../0x..": a guess of the unwinder
    let fr = kernelFrame(l, p);
    if (fr === null) return false;
    let c = this.crash;
    if (c !== null && c.frames.length < MAX_FRAMES) { fr.index = c.frames.length; c.frames.push(fr); }
    return true;
  }
}

/** "fn+0x100/0x1d8 [file.c:834]" or "fn+0x74/0xa0 [module]" or "(fn+0x74/0xa0)" at p; null when no such thing. */
function kernelFrame(l: Line, p: i32): Frame | null {
  if (l.at(p) == Char.LPAREN) p++;
  let e = p;
  while (e < l.len) {
    let c = l.at(e);
    if (!(isDigit(c) || (c >= Char.a && c <= Char.z) || (c >= Char.A && c <= Char.Z) || c == Char.UNDERSCORE || c == Char.DOT)) break;
    e++;
  }
  if (e == p || !l.matchAt("+0x", e)) return null;
  let slash = l.indexOfByte(Char.SLASH, e);
  if (slash < 0) return null;
  let fr = new Frame();
  fr.fn = l.str(p, e);
  // ClusterFuzz reads a kernel frame's function as word characters only: a compiler's clone of a function
  // (`key_gc_unused_keys.constprop.1`, `.isra.0`, `.part.3`) is no frame of its crash state.
  fr.text = fr.fn!.includes(".") ? "" : fr.fn;
  // what follows the offset: a source location, or a module in brackets
  let rest = l.skipSpaces(l.skipHex(slash + 3));
  if (l.at(rest) == Char.RPAREN) rest = l.skipSpaces(rest + 1);
  if (rest < l.len) {
    if (l.at(rest) == Char.LBRACKET) {
      let close = l.indexOfByte(Char.RBRACKET, rest);
      if (close > rest) fr.module = l.str(rest + 1, close);
    } else {
      let sp = l.indexOfByte(Char.SPACE, rest);
      setLocation(fr, l.str(rest, sp > 0 ? sp : l.len));
    }
  }
  fr.user = true;
  return fr;
}

function isHexText(s: string): bool {
  if (s.length == 0) return false;
  for (let i = 0; i < s.length; i++) if (!isHex(s.charCodeAt(i))) return false;
  return true;
}

/** Past a kernel log time stamp ("[    0.058593] ", "[ 1998.156940] "), or 0. */
function afterStamp(l: Line): i32 {
  if (l.at(0) != Char.LBRACKET) return 0;
  let p = l.skipSpaces(1);
  let q = p;
  while (isDigit(l.at(q))) q++;
  if (q == p || l.at(q) != Char.DOT) return 0;
  q++;
  while (isDigit(l.at(q))) q++;
  if (l.at(q) != Char.RBRACKET) return 0;
  return l.at(q + 1) == Char.SPACE ? q + 2 : q + 1;
}
