// Centipede's (FuzzTest's engine) own findings, each one line from its runner before it kills the input's run:
// `========= Per-input timeout exceeded: 6 > 5 (sec); exiting` (older: `========= Timeout of 20 seconds
// exceeded; exiting`), `========= RSS limit exceeded: 4107 > 4096 (MB); exiting`, `========= Stack limit
// exceeded: 982784 > 131072 (byte); aborting`. The crash is tool `centipede`, kind `timeout`, `out-of-memory`
// or `stack-overflow`, message the line's own words. It has no stack: a sanitizer's abort report right after
// it (the runner aborts) lends it one (lendStack).
// (Centipede relays its target's log with each line prefixed `CRASH LOG: `: relay.ts unwraps those.)
import { Char } from "../../util/chars";
import { Line } from "../../util/line";
import { Crash, Facts } from "../../model";
import { Parser } from "../../parser";
import { ByteSet } from "../../util/byte-set";

const MARK = "========= ";

/** Stateless: `========= ` at column 0. */
const STARTS = new ByteSet().chars("=");

@final
export class CentipedeParser extends Parser {
  atRest(): bool { return true; }
  starts(): ByteSet | null { return STARTS; }

  claim(l: Line, f: Facts): bool {
    if (l.at(0) != Char.EQ || !l.startsWith(MARK)) return false;
    let p = MARK.length;
    let kind: string;
    if (l.matchAt("Per-input timeout exceeded", p) || (l.matchAt("Timeout of ", p) && l.indexOf(" exceeded", p) > 0)) {
      kind = "timeout";
    } else if (l.matchAt("RSS limit exceeded", p)) {
      kind = "out-of-memory";
    } else if (l.matchAt("Stack limit exceeded", p)) {
      kind = "stack-overflow";
    } else {
      return false;
    }
    let c = new Crash();
    c.tool = "centipede";
    c.kind = kind;
    let semi = l.indexOf("; ", p);
    c.message = l.trimmed(p, semi > 0 ? semi : l.len);
    c.stackless = true;
    f.setCrash(c);
    return true;
  }
}
