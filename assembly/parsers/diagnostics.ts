// The parsers for compiler and linker diagnostics (gcc, clang, ld, make, rustc, cargo, tsc, go build/vet), in the order they are offered a line.
// They sit behind one Parser, so the dispatcher makes one virtual call per line for the family, and the
// line's first ": " (where every one of these formats puts its location/severity boundary) is looked for
// once. Inside, the same claim/busy contract runs with static calls: the block being read is offered the
// line first, then make (its `Makefile:5: warning:` would otherwise read as a compiler's header), the
// linker (its unprefixed `main.c:8: undefined reference` lines), gcc/clang, rustc, tsc, go. They share
// one DiagContext: make's directory stack, which compiler and linker paths are resolved against.
import { Char } from "../util/chars";
import { Line } from "../util/line";
import { Facts } from "../model";
import { Parser } from "../parser";
import { DiagContext } from "./diag-context";
import { MakeParser } from "./make";
import { LinkerParser } from "./linker";
import { GccParser } from "./gcc";
import { RustParser } from "./rustc";
import { TscParser } from "./tsc";
import { GoParser } from "./go-build";

const enum Active { NONE, MAKE, LD, GCC, RUST, TSC, GO }

@final
class DiagnosticsParser extends Parser {
  private ctx: DiagContext = new DiagContext();
  private make: MakeParser = new MakeParser(this.ctx);
  private ld: LinkerParser = new LinkerParser(this.ctx);
  private gcc: GccParser = new GccParser(this.ctx);
  private rust: RustParser = new RustParser(this.ctx);
  private tsc: TscParser = new TscParser(this.ctx);
  private go: GoParser = new GoParser(this.ctx);
  private active: Active = Active.NONE;

  claim(l: Line, f: Facts): bool {
    let c0 = l.at(0);
    // Indented lines are only ever continuations: no parser looks at their ": ".
    let k = c0 == Char.SPACE || c0 == Char.TAB || c0 < 0 ? -1 : l.indexOf(": ");
    let a = this.active;
    if (a != Active.NONE) {
      if (this.offer(a, l, f, k)) return true;
      this.active = Active.NONE;
    }
    if (this.offer(Active.MAKE, l, f, k)) return true;
    if (this.offer(Active.LD, l, f, k)) return true;
    if (this.offer(Active.GCC, l, f, k)) return true;
    if (this.offer(Active.RUST, l, f, k)) return true;
    if (this.offer(Active.TSC, l, f, k)) return true;
    return this.offer(Active.GO, l, f, k);
  }

  busy(): bool { return this.active != Active.NONE; }

  finish(f: Facts): void {
    this.ld.finish(f);
    this.gcc.finish(f);
    this.rust.finish(f);
    this.tsc.finish(f);
    this.go.finish(f);
    this.make.finish(f);
    this.active = Active.NONE;
  }

  /** Offers the line to one parser; on a claim, it becomes the active one while it is busy. */
  private offer(which: Active, l: Line, f: Facts, k: i32): bool {
    let ok = false;
    let busy = false;
    switch (which) {
      case Active.MAKE: ok = this.make.take(l, f, k); busy = ok && this.make.busy(); break;
      case Active.LD: ok = this.ld.take(l, f, k); busy = ok && this.ld.busy(); break;
      case Active.GCC: ok = this.gcc.take(l, f, k); busy = ok && this.gcc.busy(); break;
      case Active.RUST: ok = this.rust.claim(l, f); busy = ok && this.rust.busy(); break;
      case Active.TSC: ok = this.tsc.take(l, f, k); busy = ok && this.tsc.busy(); break;
      case Active.GO: ok = this.go.take(l, f, k); busy = ok && this.go.busy(); break;
      default: return false;
    }
    if (ok) this.active = busy ? which : Active.NONE;
    return ok;
  }
}

export function diagnosticParsers(): Parser[] {
  return [new DiagnosticsParser()];
}
