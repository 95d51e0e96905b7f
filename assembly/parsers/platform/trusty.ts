// Trusty (the TEE kernel on Android devices) reports a trusted app's crash in the device log:
//   Backtrace for thread: trusty_app_9_829bdd97-2cf8-4c3c
//   (app: hwbcc)
//   kSP+0x0df0: 0xffff000000022f5c in trusty_app_exit ld-temp.o:?
//   uSP+0x01d0: 0x000000000001b048 in fe_invert /src/boringssl/src/crypto/internal.h:845
//   uSP+0x2f60: 0x0000000000000000 in hwbcc.syms.elf
// A crash of tool `trusty`, kind `app-crash`, message the app's name. Its frames are the app's own (uSP, the user
// stack); the kernel's (kSP: the exit and exception path that reported it) are not the app's and stay out.
import { Char } from "../../util/chars";
import { Line } from "../../util/line";
import { Crash, Facts, Frame, MAX_FRAMES } from "../../model";
import { Parser } from "../../parser";
import { ByteSet } from "../../util/byte-set";
import { classify, setLocation } from "../../frames";

const HEADER = "Backtrace for thread: ";
const APP = "(app: ";

/** Outside a trace: its header at column 0. */
const STARTS = new ByteSet().chars("B");

@final
export class TrustyParser extends Parser {
  private crash: Crash | null = null;
  private inTrace: bool = false;

  busy(): bool { return this.inTrace; }
  atRest(): bool { return !this.inTrace; }
  starts(): ByteSet | null { return STARTS; }

  claim(l: Line, f: Facts): bool {
    if (this.inTrace) {
      if (this.traceLine(l)) return true;
      this.inTrace = false;
    }
    if (l.at(0) != Char.B || !l.startsWith(HEADER)) return false;
    this.inTrace = true;
    if (f.crash !== null) { this.crash = null; f.crashCount++; return true; }
    let c = new Crash();
    c.tool = "trusty";
    c.kind = "app-crash";
    c.thread = l.trimmed(HEADER.length);
    c.summary = l.trimmed(0);
    f.setCrash(c);
    this.crash = c;
    return true;
  }

  finish(f: Facts): void {
    this.inTrace = false;
    this.crash = null;
  }

  /** "(app: hwbcc)", or a "kSP+0x..: 0x.. in fn file:line" / "uSP+..." frame; false ends the trace. */
  private traceLine(l: Line): bool {
    let c = this.crash;
    if (l.startsWith(APP) && l.at(l.len - 1) == Char.RPAREN) {
      if (c !== null) c.message = l.str(APP.length, l.len - 1);
      return true;
    }
    let user = l.startsWith("uSP+0x");
    if (!user && !l.startsWith("kSP+0x")) return false;
    let colon = l.indexOf(": 0x", 6);
    if (colon < 0) return false;
    if (!user || c === null || c.frames.length >= MAX_FRAMES) return true;
    let fr = new Frame();
    fr.index = c.frames.length;
    let at = l.indexOf(" in ", colon + 4);
    if (at > 0) {
      let rest = l.trimmed(at + 4);
      let sp = rest.lastIndexOf(" ");
      if (sp > 0) {
        fr.fn = rest.substring(0, sp);
        let loc = rest.substring(sp + 1);
        if (!setLocation(fr, loc)) {
          let q = loc.indexOf(":");
          fr.file = q > 0 ? loc.substring(0, q) : loc;
        }
      } else {
        fr.module = rest; // "hwbcc.syms.elf": the image alone, no function
      }
    }
    classify(fr);
    c.frames.push(fr);
    return true;
  }
}
