// The TypeScript compiler: `src/a.ts(3,7): error TS2322: msg` (--pretty false) with its indented message
// chain, the pretty `src/a.ts:3:7 - error TS2322: msg` with its numbered source and `~~~` squiggle lines
// and indented related-information locations (kept as notes), option errors (`error TS5023: ...`), and
// the closing `Found N errors in M files.` with its `Errors  Files` table.
import { Char, isDigit, isSpace } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts, Diagnostic } from "../../model";
import { Parser } from "../../parser";
import { ByteSet } from "../../util/byte-set";
import { DiagContext, readLoc, addNote } from "../diag-context";
import { DiagOnce } from "../diag-once";

const enum State { NONE = 0, PLAIN = 1, PRETTY = 2, TABLE = 3 }

/** Outside a diagnostic: `Found N errors`, `Errors  Files` at column 0, or a header with a head colon (`a.ts(3,5): error TS..`, `error TS..: ..`) (headColonStarts). */
const STARTS = new ByteSet().chars("FE");

@final
export class TscParser extends Parser {
  private ctx: DiagContext;
  private state: i32 = State.NONE;
  private last: Diagnostic | null = null;
  /**
   * Set by a test runner whose per-suite compile step prints a module's errors once per test file that imports
   * it (ts-jest's `● Test suite failed to run`): a diagnostic equal in every fact to one already read is the
   * same error, kept once. Never set for tsc's own output.
   */
  once: DiagOnce | null = null;

  constructor(ctx: DiagContext) { super(); this.ctx = ctx; }

  busy(): bool { return this.state != State.NONE; }
  atRest(): bool { return this.state == State.NONE; }
  starts(): ByteSet | null { return STARTS; }
  headColonStarts(): bool { return true; }

  claim(l: Line, f: Facts): bool {
    let k = l.headColon();  // the first ": ", found once per line for all the diagnostic parsers
    let n = l.len;
    if (n == 0 || l.isBlank()) {
      if (this.state != State.PRETTY) this.state = State.NONE;
      return false;
    }
    let c0 = l.at(0);
    let st = this.state;
    if (isSpace(c0)) {
      if (st == State.PLAIN || st == State.TABLE) return true; // message chain; `     3  app.ts:3`
      if (st != State.PRETTY) return false;
      // squiggle, or related information: `  src/b.ts:1:14` alone (its source and message lines follow)
      // or, from newer compilers, `  src/b.ts:1:14 - 'x' is declared here.` with the message inline
      let p = l.skipSpaces(0);
      let c = l.at(p);
      if (c == Char.TILDE || isDigit(c)) return true;
      let sp = l.indexOfByte(Char.SPACE, p);
      let e = sp < 0 ? n : sp;
      if (e > p && isDigit(l.at(e - 1)) && (sp < 0 || l.matchAt(" - ", sp))) {
        let d = new Diagnostic();
        if (readLoc(l, p, e, d, this.ctx)) {
          d.tool = "tsc";
          d.severity = "note";
          let m = sp < 0 ? "" : l.trimmed(sp + 3);
          d.message = m.length > 0 ? m : "related location";
          addNote(f, this.last, d);
        }
      }
      return true;
    }
    if (isDigit(c0) && st == State.PRETTY) {
      // `3 const o: Order = ...`: the numbered source line
      let p = 0;
      while (isDigit(l.at(p))) p++;
      if (l.at(p) == Char.SPACE || p == n) return true;
    }
    if (c0 == Char.F && l.startsWith("Found ") && isDigit(l.at(6)) && l.indexOf(" error", 6) > 0) {
      this.state = State.NONE;
      return true;
    }
    if (l.startsWith("Errors  Files")) { this.state = State.TABLE; return true; }
    if (k > 0 && this.header(l, f, k)) return true;
    this.state = State.NONE;
    return false;
  }

  /** True when d repeats a diagnostic already read in `once` mode (and so is not one more error). */
  private repeated(d: Diagnostic): bool {
    let seen = this.once;
    return seen !== null && seen.repeated(d);
  }

  private header(l: Line, f: Facts, k: i32): bool {
    let s = -1;
    let pretty = false;
    let locEnd = 0;
    let paren = -1;
    if (l.matchAt("error TS", 0)) {
      s = 0;
    } else if (l.at(k - 1) == Char.RPAREN) {
      // `path(line,col): error TS...`
      if (!isSev(l, k + 2)) return false;
      paren = l.lastIndexOfByte(Char.LPAREN, k);
      if (paren <= 0) return false;
      s = k + 2;
      locEnd = k - 1;
    } else {
      // `path:line:col - error TS2322: msg`: the first ": " ends the code
      let t = k;
      while (t > 0 && isDigit(l.at(t - 1))) t--;
      if (t == k || !l.matchAt("TS", t - 2)) return false;
      let q = -1;
      if (l.matchAt(" - error ", t - 11)) q = t - 11;
      else if (l.matchAt(" - warning ", t - 13)) q = t - 13;
      else if (l.matchAt(" - message ", t - 13)) q = t - 13;
      if (q <= 0) return false;
      s = q + 3;
      locEnd = q;
      pretty = true;
    }
    let d = new Diagnostic();
    if (paren > 0) {
      let comma = l.indexOfByte(Char.COMMA, paren);
      if (comma < 0 || comma > locEnd) return false;
      let line = l.readInt(paren + 1);
      if (line < 0 || l.end != comma) return false;
      let col = l.readInt(comma + 1);
      if (col < 0 || l.end != locEnd || l.at(locEnd) != Char.RPAREN) return false;
      d.file = this.ctx.resolve(l.str(0, paren));
      d.line = <i32>line;
      d.col = <i32>col;
    } else if (pretty && !readLoc(l, 0, locEnd, d, this.ctx)) return false;
    let sp = l.indexOfByte(Char.SPACE, s);
    let sev = l.str(s, sp);
    d.severity = sev == "message" ? "note" : sev;
    let colon = l.indexOfByte(Char.COLON, sp);
    if (colon < 0) return false;
    d.code = l.str(sp + 1, colon);
    d.message = l.trimmed(colon + 1);
    d.tool = "tsc";
    if (d.severity == "note") addNote(f, this.last, d);
    else if (this.repeated(d)) this.last = d;  // its related notes go with it, unseen
    else { f.addDiagnostic(d); this.last = d; }
    this.state = pretty ? State.PRETTY : State.PLAIN;
    return true;
  }
}

/** `error TS1234`, `warning TS1234`, `message TS1234` at p. */
function isSev(l: Line, p: i32): bool {
  let q = -1;
  if (l.matchAt("error ", p)) q = p + 6;
  else if (l.matchAt("warning ", p)) q = p + 8;
  else if (l.matchAt("message ", p)) q = p + 8;
  else return false;
  return l.matchAt("TS", q) && isDigit(l.at(q + 2));
}
