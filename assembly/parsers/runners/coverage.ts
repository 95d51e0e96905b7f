// istanbul's coverage threshold check, as c8 (`--100`, `--check-coverage`) and nyc (`--check-coverage`) print it
// when a total falls short, one line each, and the run exits 1:
//   ERROR: Coverage for lines (83.33%) does not meet global threshold (100%)
//   ERROR: Coverage for branches (66.66%) does not meet threshold (100%) for clamp.js     (--per-file)
// Each is an error of the run (tool `coverage`), as jest's own threshold lines are (jest.ts): its tests all
// passing, the run still failed on it.
import { Char } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts, Diagnostic } from "../../model";
import { Parser } from "../../parser";
import { ByteSet } from "../../util/byte-set";
import { normPath } from "../../frames";

const HEAD = "ERROR: Coverage for ";
const MEET = ") does not meet ";
const FOR = ") for ";

/** A threshold line starts with `E` at column 0. */
const STARTS = new ByteSet().add(Char.E);

export class CoverageParser extends Parser {
  atRest(): bool { return true; }
  starts(): ByteSet | null { return STARTS; }

  claim(l: Line, f: Facts): bool {
    if (!l.startsWith(HEAD)) return false;
    let m = l.indexOf(MEET, HEAD.length);
    if (m < 0 || l.indexOf("threshold (", m) < 0) return false;
    let d = new Diagnostic();
    d.tool = "coverage";
    // `… threshold (100%) for clamp.js`: the file the check was made for.
    let fo = l.indexOf(FOR, m + MEET.length);
    if (fo > 0) {
      d.file = normPath(l.trimmed(fo + FOR.length));
      d.message = l.str(7, fo + 1);
    } else d.message = l.trimmed(7);
    f.addDiagnostic(d);
    return true;
  }
}
