// The parsers for sanitizer reports (ASan, LSan, TSan, MSan, HWASan) and UBSan runtime errors, in the order they are offered a line.
// They sit behind one Parser so the dispatcher makes one virtual call per line for the whole family; inside,
// the same claim/busy contract runs with static calls: the block being read is offered the line first, then
// sanitizer reports, UBSan runtime errors, uncaught C++ exceptions, failed assertions, in that order.
import { Line } from "../util/line";
import { Facts } from "../model";
import { Parser } from "../parser";
import { SanitizerParser } from "./sanitizer";
import { UbsanParser } from "./ubsan";
import { AssertParser } from "./assert";
import { CxxTerminateParser } from "./cxx-terminate";

const enum Active { NONE, SANITIZER, UBSAN, TERMINATE }

@final
class NativeCrashParser extends Parser {
  private san: SanitizerParser = new SanitizerParser();
  private ubsan: UbsanParser = new UbsanParser();
  private asrt: AssertParser = new AssertParser();
  private term: CxxTerminateParser = new CxxTerminateParser();
  private active: Active = Active.NONE;

  claim(l: Line, f: Facts): bool {
    let a = this.active;
    if (a == Active.SANITIZER) {
      if (this.san.claim(l, f)) { if (!this.san.busy()) this.active = Active.NONE; return true; }
      this.active = Active.NONE;
    } else if (a == Active.UBSAN) {
      if (this.ubsan.claim(l, f)) { if (!this.ubsan.busy()) this.active = Active.NONE; return true; }
      this.active = Active.NONE;
    } else if (a == Active.TERMINATE) {
      this.active = Active.NONE;
      if (this.term.claim(l, f)) { if (this.term.busy()) this.active = Active.TERMINATE; return true; }
    }
    if (this.san.claim(l, f)) { if (this.san.busy()) this.active = Active.SANITIZER; return true; }
    if (this.ubsan.claim(l, f)) { if (this.ubsan.busy()) this.active = Active.UBSAN; return true; }
    if (this.term.claim(l, f)) { if (this.term.busy()) this.active = Active.TERMINATE; return true; }
    return this.asrt.claim(l, f);
  }

  busy(): bool { return this.active != Active.NONE; }

  finish(f: Facts): void {
    this.san.finish(f);
    this.ubsan.finish(f);
    this.active = Active.NONE;
  }
}

export function nativeCrashParsers(): Parser[] {
  return [new NativeCrashParser()];
}
