// The TypeScript compiler: `src/a.ts(3,7): error TS2322: msg` (--pretty false) with its indented message
// chain, the pretty `src/a.ts:3:7 - error TS2322: msg` with its numbered source and `~~~` squiggle lines
// and indented related-information locations (kept as notes), option errors (`error TS5023: ...`), and
// the closing `Found N errors in M files.` with its `Errors  Files` table.
// esbuild, the TypeScript and JavaScript bundler (vite, tsx and tsup run it), in the same family:
//   ✘ [ERROR] Could not resolve "./nope"                 its message (`[plugin vite:x]`, a warning's `[check-name]`
//                                                        after it: the code), then, indented by 4, its place
//       src/warn.js:3:7:                                 (`file:line:col:`), the source line and its marks
//         3 │ import "./nope";                           (`│`, `╵`) deeper, a note's text at 2 (its own place
//           ╵        ~~~~~~~~                            under it); `▲ [WARNING] …` alike; the closing
//   1 warning and 2 errors                               `N warnings and M errors`.
//   src/bad.ts:1:44: ERROR: Unexpected ";"               its one-line form, in the message of an error its API
//                                                        threw (`Transform failed with 1 error:`: tsx, vite;
//                                                        `Build failed with 1 error:`: tsup)
// esbuild's columns are 0-based, in bytes (its API's `location.column`; `handler(evt!;` after six tabs is
// `src/index.ts:109:18:` where tsc says `(109,19)`): one is added, as for the other bundlers. One error is printed
// once per build that met it (tsup builds each format apart: `CJS Build failed`, `ESM Build failed`) and again in
// the one-line form of the error the API threw: an esbuild diagnostic equal in every fact to one read is the same.
import { Char, isDigit, isSpace } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts, Diagnostic } from "../../model";
import { Parser } from "../../parser";
import { ByteSet } from "../../util/byte-set";
import { DiagContext, readLoc, addNote } from "../diag-context";
import { DiagOnce } from "../diag-once";
import { BundlerBlock, Take } from "./bundler";

const enum State { NONE = 0, PLAIN = 1, PRETTY = 2, TABLE = 3, ESBUILD = 4, BUNDLER = 5 }


/**
 * Outside a diagnostic: `Found N errors`, `Errors  Files` at column 0, or a header with a head colon (`a.ts(3,5): error
 * TS..`, `error TS..: ..`) (headColonStarts); the bundlers' `error during build:`, `ERROR in`, `WARNING in`, `[!] …: ` and
 * vite's `✓` marks (./bundler).
 */
const STARTS = new ByteSet().chars("FEWe").add(0xE2);

@final
export class TscParser extends Parser {
  private ctx: DiagContext;
  private state: i32 = State.NONE;
  private last: Diagnostic | null = null;
  /** esbuild: the message read, its place not yet (added at its place, or when the block ends without one). */
  private esb: Diagnostic | null = null;
  /** esbuild: the note whose place comes next. */
  private esbNote: Diagnostic | null = null;
  /** esbuild's diagnostics read so far: a build of another format (or the thrown error's summary) repeats them. */
  private esbOnce: DiagOnce = new DiagOnce();
  /**
   * Set by a test runner whose per-suite compile step prints a module's errors once per test file that imports
   * it (ts-jest's `● Test suite failed to run`): a diagnostic equal in every fact to one already read is the
   * same error, kept once. Never set for tsc's own output.
   */
  once: DiagOnce | null = null;
  /** vite's, rollup's and webpack's build failures. */
  private bundler: BundlerBlock;

  constructor(ctx: DiagContext) { super(); this.ctx = ctx; this.bundler = new BundlerBlock(ctx); }

  busy(): bool { return this.state != State.NONE; }
  atRest(): bool { return this.state == State.NONE; }
  starts(): ByteSet | null { return STARTS; }
  headColonStarts(): bool { return true; }

  claim(l: Line, f: Facts): bool {
    let k = l.headColon();  // the first ": ", found once per line for all the diagnostic parsers
    let n = l.len;
    if (this.state == State.BUNDLER) {
      let r = this.bundler.take(l, f);
      if (r == Take.CLAIM) { if (!this.bundler.open()) this.state = State.NONE; return true; }
      this.state = State.NONE;
      // esbuild's one-line error under vite's `Transform failed with 1 error:`: read here, the block goes on.
      if (r == Take.PASS) { let took = k > 0 && this.header(l, f, k); this.state = State.BUNDLER; return took; }
    }
    if (this.state == State.ESBUILD) {
      if (n == 0 || l.isBlank()) return false;
      if (isSpace(l.at(0))) { this.esbuildBody(l, f); return true; }
      this.esbuildEnd(f);
      if (esbuildTotals(l)) return true;
    }
    if (l.at(0) == 0xE2) return this.esbuildHeader(l, f) || this.bundler.progress(l);
    if (this.bundler.start(l, f)) { this.state = State.BUNDLER; return true; }
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

  finish(f: Facts): void {
    if (this.state == State.ESBUILD) this.esbuildEnd(f);
    if (this.state == State.BUNDLER) { this.bundler.end(f); this.state = State.NONE; }
  }

  /** `✘ [ERROR] msg` / `▲ [WARNING] msg [check-name]`: a diagnostic of esbuild, its place on a line to come. */
  private esbuildHeader(l: Line, f: Facts): bool {
    // ✘ is E2 9C 98 in UTF-8, ▲ E2 96 B2.
    let at = -1;
    let sev = "error";
    if (l.at(1) == 0x9C && l.at(2) == 0x98 && l.matchAt(" [ERROR] ", 3)) at = 12;
    else if (l.at(1) == 0x96 && l.at(2) == 0xB2 && l.matchAt(" [WARNING] ", 3)) { at = 14; sev = "warning"; }
    if (at < 0) return false;
    if (this.state == State.ESBUILD) this.esbuildEnd(f);
    let d = new Diagnostic();
    d.tool = "esbuild";
    d.severity = sev;
    let m = l.trimmed(at);
    // `… [equals-negative-zero]`, `… [plugin vite:dep-scan]`: the check or the plugin that reported it.
    if (m.endsWith("]")) {
      let o = m.lastIndexOf(" [");
      if (o > 0) { d.code = m.substring(o + 2, m.length - 1); m = m.substring(0, o); }
    }
    d.message = m;
    this.esb = d;
    this.esbNote = null;
    this.state = State.ESBUILD;
    return true;
  }

  /** An indented line of an esbuild block: a place (`    src/a.ts:3:10:`), a source or mark line, a note's text. */
  private esbuildBody(l: Line, f: Facts): void {
    let p = l.skipSpaces(0);
    let n = l.len;
    if (p == 4 && l.at(n - 1) == Char.COLON && l.indexOfByte(Char.SPACE, p) < 0) {
      let d = new Diagnostic();
      if (!readLoc(l, p, n - 1, d, this.ctx)) return;
      let to = this.esbNote !== null ? this.esbNote! : this.esb;
      if (to === null || to.file !== null) return;
      to.file = d.file; to.line = d.line; to.col = oneBased(d.col);
      if (to === this.esb) this.esbuildAdd(f);
      return;
    }
    if (p == 2 && this.last !== null && this.esb === null) {
      // A note: `  The file "x" was marked as external…` (its place, if any, on the next place line).
      let d = new Diagnostic();
      d.tool = "esbuild";
      d.severity = "note";
      d.message = l.trimmed(p);
      addNote(f, this.last, d);
      this.esbNote = d;
    }
  }

  private esbuildAdd(f: Facts): void {
    let d = this.esb;
    if (d === null) return;
    this.esb = null;
    this.keepEsbuild(f, d);
  }

  /** An esbuild diagnostic: added unless another build (or the thrown error's summary) printed it already. */
  private keepEsbuild(f: Facts, d: Diagnostic): void {
    if (this.esbOnce.repeated(d)) { this.last = d; return; }
    this.keep(f, d);
  }

  private esbuildEnd(f: Facts): void {
    this.esbuildAdd(f);
    this.esbNote = null;
    this.state = State.NONE;
  }

  /** d read: added unless it repeats one already read (then its related notes go with it, unseen); notes attach to it. */
  private keep(f: Facts, d: Diagnostic): void {
    if (!this.repeated(d)) f.addDiagnostic(d);
    this.last = d;
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
    } else if ((l.matchAt("ERROR: ", k + 2) || l.matchAt("WARNING: ", k + 2)) && l.at(k - 1) != Char.RPAREN) {
      // esbuild's one-line form: `src/bad.ts:1:44: ERROR: Unexpected ";"`
      let d = new Diagnostic();
      if (!readLoc(l, 0, k, d, this.ctx) || d.line <= 0 || d.col < 0) return false;  // doctest (C++): `f.cpp:12: ERROR:`
      let err = l.at(k + 2) == Char.E;
      d.col = oneBased(d.col);
      d.tool = "esbuild";
      d.severity = err ? "error" : "warning";
      d.message = l.trimmed(k + (err ? 9 : 11));
      this.keepEsbuild(f, d);
      this.state = State.NONE;
      return true;
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
    else this.keep(f, d);
    this.state = pretty ? State.PRETTY : State.PLAIN;
    return true;
  }
}

/** esbuild's 0-based column as the 1-based one the others print; -1 (none) stays. */
function oneBased(col: i64): i64 { return col >= 0 ? col + 1 : col; }

/** esbuild's closing count: `1 error`, `3 warnings`, `1 warning and 2 errors`. */
function esbuildTotals(l: Line): bool {
  let p = 0;
  for (let k = 0; k < 2; k++) {
    let n = l.readInt(p);
    if (n < 0) return false;
    p = l.end;
    if (l.matchAt(" errors", p)) p += 7;
    else if (l.matchAt(" error", p)) p += 6;
    else if (l.matchAt(" warnings", p)) p += 9;
    else if (l.matchAt(" warning", p)) p += 8;
    else return false;
    if (p == l.len) return true;
    if (k == 0 && l.matchAt(" and ", p)) { p += 5; continue; }
    return false;
  }
  return false;
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
