// istanbul's coverage threshold check, as c8 (`--100`, `--check-coverage`) and nyc (`--check-coverage`) print it
// when a total falls short, one line each, and the run exits 1:
//   ERROR: Coverage for lines (83.33%) does not meet global threshold (100%)
//   ERROR: Coverage for branches (66.66%) does not meet threshold (100%) for clamp.js     (--per-file)
// coverage.py's (`coverage report --fail-under=N`, exit 2) and pytest-cov's (`--cov-fail-under=N`, exit 1):
//   Coverage failure: total of 88 is less than fail-under=100
//   FAIL Required test coverage of 100% not reached. Total coverage: 80.00%
// type-coverage's (`type-coverage --at-least N`, or `typeCoverage.atLeast` in package.json; exit 1), after its
// `(12 / 15) 80.00%`: `The type coverage rate(80.00%) is lower than the target(100%).` (tool `type-coverage`).
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
const PY_HEAD = "Coverage failure: total of ";
const PY_UNDER = " is less than fail-under=";
const COV_HEAD = "FAIL Required test coverage of ";
const COV_NOT = "% not reached. Total coverage: ";
const TYPE_HEAD = "The type coverage rate(";
const TYPE_LOWER = "%) is lower than the target(";

/** A threshold line starts with `E` (istanbul), `C` (coverage.py), `F` (pytest-cov) or `T` (type-coverage) at column 0. */
const STARTS = new ByteSet().add(Char.E).add(Char.C).add(Char.F).add(Char.T);

export class CoverageParser extends Parser {
  atRest(): bool { return true; }
  starts(): ByteSet | null { return STARTS; }

  claim(l: Line, f: Facts): bool {
    let c = l.at(0);
    if (c == Char.C) return this.python(l, f, PY_HEAD, PY_UNDER, 0);
    if (c == Char.F) return this.python(l, f, COV_HEAD, COV_NOT, 5);
    if (c == Char.T) return this.typeCoverage(l, f);
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

  /** type-coverage's `The type coverage rate(80.00%) is lower than the target(100%).` */
  private typeCoverage(l: Line, f: Facts): bool {
    if (!l.startsWith(TYPE_HEAD) || l.indexOf(TYPE_LOWER, TYPE_HEAD.length) < 0) return false;
    let d = new Diagnostic();
    d.tool = "type-coverage";
    let end = l.len;
    if (l.at(end - 1) == Char.DOT) end--;
    d.message = l.trimmed(0, end);
    f.addDiagnostic(d);
    return true;
  }

  /** coverage.py's or pytest-cov's line: `head`, then `mid` on it; its message from column `from`. */
  private python(l: Line, f: Facts, head: string, mid: string, from: i32): bool {
    if (!l.startsWith(head) || l.indexOf(mid, head.length) < 0) return false;
    let d = new Diagnostic();
    d.tool = "coverage";
    d.message = l.trimmed(from);
    f.addDiagnostic(d);
    return true;
  }
}
