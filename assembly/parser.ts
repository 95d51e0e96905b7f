// The contract between the dispatcher and each parser: ordered line claiming.
import { Line } from "./util/line";
import { Facts } from "./model";

export class Parser {
  /** Returns true when the line belongs to this parser; a claimed line is kept out of the tail. */
  claim(l: Line, f: Facts): bool { return false; }
  /** True while inside a multi-line block: the dispatcher then offers it the next line first. */
  busy(): bool { return false; }
  /** End of input: flush a pending block. */
  finish(f: Facts): void {}
}
