// The contract between the dispatcher and each parser: ordered line claiming.
import { Line } from "./util/line";
import { Facts } from "./model";
import { ByteSet } from "./util/byte-set";

export class Parser {
  /** Returns true when the line belongs to this parser; a claimed line is kept out of the tail. */
  claim(l: Line, f: Facts): bool { return false; }
  /** True while inside a multi-line block: the dispatcher then offers it the next line first. */
  busy(): bool { return false; }
  /** End of input: flush a pending block. */
  finish(f: Facts): void {}
  /**
   * The dispatcher's filter (ParserSet): while atRest() is true, a line whose key (its first byte after
   * leading spaces and tabs; 0 for a blank line) is not in starts() is not offered to this parser at all.
   * A parser that declares both promises: at rest, claim() on such a line returns false and changes
   * nothing, in the parser or in the facts, whatever came before. atRest() reads only the parser's own
   * fields. The default, for a parser that declares nothing, is to be offered every line.
   */
  atRest(): bool { return false; }
  /** The keys that can start something for this parser at rest; null: every line (the default). */
  starts(): ByteSet | null { return null; }
  /**
   * True: at rest, a line with a head colon (Line.headColon() >= 0: not indented, holds ": ") can start
   * something too, whatever its key (a compiler's `path:line: ...`, whose path may begin with any byte).
   */
  headColonStarts(): bool { return false; }
  /**
   * True: at rest, a line holding a ':' anywhere (Line.firstColon() >= 0, indented or not) can start
   * something too, whatever its key: a marker found anywhere in the line that holds a colon (ubsan's
   * ` runtime error: `, Android's `FATAL EXCEPTION: `, bash's `NAME: line N: ` prefix).
   */
  colonStarts(): bool { return false; }
  /**
   * At rest, a line whose last byte (no trimming; 0 for an empty line) is in this set can start something
   * too, whatever its key (pytest's progress line ends with `%]`); null: none beyond starts().
   */
  endsStarts(): ByteSet | null { return null; }
}
