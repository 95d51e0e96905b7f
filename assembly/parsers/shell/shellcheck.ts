// ShellCheck's default (tty) output, read by the shell reader: a block per source line with findings,
//
//   In run.sh line 2:
//   for f in $(ls *.txt); do
//            ^---------^ SC2045 (error): Iterating over ls output is fragile. Use globs.
//                 ^-- SC2035 (info): Use ./*glob* or -- *glob* so names with dashes won't become options.
//
//   Did you mean:          (its fix, then a blank line; optional)
//   …
//   For more information:
//     https://www.shellcheck.net/wiki/SC2045 -- Iterating over ls output is fragi...
//
// Each `^-- SCnnnn (level): message` line is a finding at the file, the line and the caret's column, its code
// `SCnnnn`: an error at ShellCheck's level error, else a warning (warning, info, style). ShellCheck exits 1 when it
// printed any finding, whatever its level: the check failed (Facts.buildFailedLine).
import { Char, isDigit } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts, Diagnostic } from "../../model";
import { normPath } from "../../frames";

const enum St { REST, SOURCE, CARETS, FIX, LINKS }

@final
export class ShellcheckReader {
  private st: St = St.REST;
  private file: string = "";
  private line: i64 = 0;
  private count: i32 = 0;

  open(): bool { return this.st != St.REST; }

  /** `In run.sh line 2:` (the caller checked `In ` at 0): a block begins. */
  begin(l: Line): bool {
    if (l.at(l.len - 1) != Char.COLON) return false;
    let k = l.lastIndexOf(" line ");
    if (k <= 3) return false;
    let n = l.readInt(k + 6);
    if (n < 0 || l.end != l.len - 1) return false;
    this.file = normPath(l.str(3, k));
    this.line = n;
    this.st = St.SOURCE;
    return true;
  }

  /** A line while a block is open; false: it is not ShellCheck's (the block ends). */
  claim(l: Line, f: Facts): bool {
    let c = l.at(0);
    if (c == Char.I && l.startsWith("In ") && this.begin(l)) return true;
    switch (this.st) {
      case St.SOURCE: { this.st = St.CARETS; return true; }
      case St.CARETS: {
        if (l.isBlank()) return true;
        if (this.caret(l, f)) return true;
        break;
      }
      case St.FIX: {
        if (l.isBlank()) { this.st = St.CARETS; return true; }
        return true;
      }
      case St.LINKS: {
        if (c == Char.SPACE && l.matchAt("https://", l.skipSpaces(0))) return true;
        break;
      }
      default: break;
    }
    if (c == Char.D && l.startsWith("Did you mean:")) { this.st = St.FIX; return true; }
    if (c == Char.F && l.startsWith("For more information:")) { this.st = St.LINKS; return true; }
    this.st = St.REST;
    return false;
  }

  /** `     ^-----^ SC2164 (warning): message`: a finding at the first caret's column. */
  private caret(l: Line, f: Facts): bool {
    let p = l.skipSpaces(0);
    if (l.at(p) != Char.CARET) return false;
    let q = p + 1;
    while (l.at(q) == Char.MINUS || l.at(q) == Char.CARET) q++;
    if (l.at(q) != Char.SPACE || !l.matchAt("SC", q + 1) || !isDigit(l.at(q + 3))) return false;
    let open = l.indexOf(" (", q + 3);
    if (open < 0) return false;
    let close = l.indexOf("): ", open);
    if (close < 0) return false;
    let level = l.str(open + 2, close);
    let d = new Diagnostic();
    d.tool = "shellcheck";
    d.severity = level == "error" ? "error" : "warning";
    d.file = this.file;
    d.line = this.line;
    d.col = p + 1;
    d.code = l.str(q + 1, open);
    d.message = l.trimmed(close + 3);
    f.addDiagnostic(d);
    this.count++;
    return true;
  }

  finish(f: Facts): void {
    shellcheckFailed(f, this.count);
    this.st = St.REST;
  }
}

/**
 * ShellCheck exits 1 when it printed any finding, in any format and at any level: with n findings read, the check
 * failed (its default report's blocks here, `-f gcc`'s lines in gcc.ts).
 */
export function shellcheckFailed(f: Facts, n: i32): void {
  if (n > 0 && f.buildFailedLine === null) {
    f.buildFailedLine = "shellcheck reported " + n.toString() + (n == 1 ? " finding" : " findings");
  }
}
