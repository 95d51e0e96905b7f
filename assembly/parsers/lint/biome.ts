// Biome's (`biome check`, `biome lint`, `biome format`, `biome ci`) default reporter: each diagnostic under a
// header that names its place and category and ends in a rule of `━` (U+2501):
//   `src/same.ts:3:14 lint/suspicious/noDoubleEquals  FIXABLE  ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━`
//   `src/fmt.ts format ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━`
// then, two spaces in, its message after a mark of its severity (`× ` error, `! ` warning, `i ` information;
// biome 1's `✖ ` error too), a code frame, notes and a suggested fix, all indented or blank. The formatter's
// diagnostic has no place in its header: the first changed line of its diff (`    2   │ - ····return·n*2·;`) is
// its line. The run closes with `Checked 3 files in 16ms. No fixes applied.`, `Found 2 errors.` and a header of no
// path (`check ━━━…`) over `× Some errors were emitted while running checks.`: claimed, no diagnostic. An
// information (`i`: the configuration's deprecation notes) is no diagnostic either; its block is claimed.
// Prettier's `--check` (the other formatter) is read here too: after its `Checking formatting...`, each file it
// would change is `[warn] src/a.js` (an error of tool `prettier`: the run exits 1 on it) and a file it cannot
// parse `[error] src/b.js: SyntaxError: Unexpected token (3:1)` (exit 2) over its code frame (`[error]   1 | …`);
// its closing lines (`[warn] Code style issues found in 2 files. Run Prettier with --write to fix.`, `All matched
// files use Prettier code style!`, `Error occurred when checking code style in the above file.`) are claimed.
import { Char, isDigit, isIdent } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts, Diagnostic } from "../../model";
import { Parser } from "../../parser";
import { ByteSet } from "../../util/byte-set";
import { normPath } from "../../frames";
import { utf8, matchBytes } from "../runners/common";

const RULE = utf8("\u2501\u2501\u2501");   // ━━━
const TIMES = utf8("\u00d7 ");             // ×
const HEAVY = utf8("\u2716 ");             // ✖
const BAR_MINUS = utf8("\u2502 - ");       // │ -
const BAR_PLUS = utf8("\u2502 + ");        // │ +

/** At rest only a line ending in `━` (its last UTF-8 byte, 0x81) can start a block, or prettier's `Checking …`. */
const ENDS = new ByteSet().add(0x81);
const STARTS = new ByteSet().add(Char.C);
const PRETTIER_HEAD = "Checking formatting...";
const WARN = "[warn] ";
const ERROR = "[error] ";

const enum State { NONE = 0, MARK = 1, BODY = 2 }

export class BiomeParser extends Parser {
  private state: i32 = State.NONE;
  /** The header's diagnostic, until its mark says its severity (null: the run's closing block). */
  private pending: Diagnostic | null = null;
  /** The formatter's diagnostic whose line is its diff's first changed line, until that line comes. */
  private needLine: Diagnostic | null = null;
  /** A header was read: the closing `Checked …` and `Found …` lines are the run's. */
  private seen: bool = false;
  /** In the run's closing `check ━━━` block. */
  private closing: bool = false;
  /** Prettier's `Checking formatting...` was read: its `[warn]`/`[error]` lines follow. */
  private prettier: bool = false;

  atRest(): bool { return this.state == State.NONE && !this.seen && !this.prettier; }
  starts(): ByteSet | null { return STARTS; }
  endsStarts(): ByteSet | null { return ENDS; }
  busy(): bool { return this.state != State.NONE; }

  claim(l: Line, f: Facts): bool {
    if (this.state != State.NONE) {
      let c = l.at(0);
      // The closing block is its mark line and blank lines: an indented line after it is another tool's.
      if (l.len == 0 || c == Char.SPACE && !(this.closing && this.state == State.BODY && !l.isBlank())) {
        if (this.state == State.MARK && !l.isBlank()) this.mark(l, f);
        else if (this.needLine !== null) this.diffLine(l);
        return true;
      }
      this.end();
    }
    if (this.prettier && this.prettierLine(l, f)) return true;
    if (l.at(0) == Char.C && l.len == PRETTIER_HEAD.length && l.startsWith(PRETTIER_HEAD)) { this.prettier = true; return true; }
    if (this.header(l)) return true;
    if (this.seen && closing(l)) return true;
    return false;
  }

  /** A line of prettier's `--check` (see the header). */
  private prettierLine(l: Line, f: Facts): bool {
    let c = l.at(0);
    if (c == Char.LBRACKET) {
      if (l.startsWith(WARN)) {
        let p = WARN.length;
        if (l.matchAt("Code style issues found in ", p)) return true;
        // One word: the file.
        if (l.len <= p || l.indexOfByte(Char.SPACE, p) >= 0) return false;
        let d = new Diagnostic();
        d.tool = "prettier";
        d.file = normPath(l.str(p));
        d.message = "Code style issues found (prettier --check)";
        f.addDiagnostic(d);
        return true;
      }
      if (!l.startsWith(ERROR)) return false;
      let p = ERROR.length;
      // The code frame of the file it could not parse: `[error]   1 | …`, `[error] > 3 |`, `[error]     | ^`.
      if (l.at(p) == Char.SPACE || l.at(p) == Char.GT) return true;
      let e = l.indexOf(": ", p);
      if (e <= p || l.indexOfByte(Char.SPACE, p) < e) return false;
      let d = new Diagnostic();
      d.tool = "prettier";
      d.file = normPath(l.str(p, e));
      // `SyntaxError: Unexpected token (3:1)`: its place in parentheses at the end.
      let m = l.trimmed(e + 2);
      let o = l.lastIndexOfByte(Char.LPAREN);
      let k = o > 0 ? l.indexOfByte(Char.COLON, o) : -1;
      if (k > o + 1 && l.at(l.len - 1) == Char.RPAREN && isDigit(l.at(o + 1)) && isDigit(l.at(k + 1))) {
        d.line = <i32>l.readInt(o + 1);
        d.col = <i32>l.readInt(k + 1);
        m = l.trimmed(e + 2, o);
      }
      d.message = m;
      f.addDiagnostic(d);
      return true;
    }
    if (c == Char.A) return l.startsWith("All matched files use Prettier code style!");
    if (c == Char.E) return l.startsWith("Error occurred when checking code style in ");
    return false;
  }

  finish(f: Facts): void { this.end(); }

  private end(): void {
    this.state = State.NONE;
    this.closing = false;
    this.pending = null;
    this.needLine = null;
  }

  /** `path[:line:col] category [TAG]... ━━━…`, or the closing `check ━━━…` (its category alone). */
  private header(l: Line): bool {
    let n = l.len;
    if (n < 12 || !matchBytes(l, RULE, n - 9)) return false;
    let sp = l.indexOfByte(Char.SPACE);
    if (sp <= 0) return false;
    let c0 = l.at(sp + 1);
    if (c0 == 0xE2) {
      // `check ━━━`: the run's closing block, no diagnostic.
      if (!isCategory(l, 0, sp)) return false;
      this.seen = true;
      this.state = State.MARK;
      this.pending = null;
      this.closing = true;
      return true;
    }
    let ce = l.indexOfByte(Char.SPACE, sp + 1);
    if (ce < 0 || !isCategory(l, sp + 1, ce)) return false;
    // The place: `path:line:col`, or the path alone.
    let pathEnd = sp; let line: i64 = -1; let col: i64 = -1;
    let k = l.lastIndexOfByte(Char.COLON, sp);
    if (k > 0 && isDigit(l.at(k + 1))) {
      let j = l.lastIndexOfByte(Char.COLON, k);
      if (j > 0 && isDigit(l.at(j + 1))) {
        line = l.readInt(j + 1);
        if (l.end == k) { col = l.readInt(k + 1); if (l.end == sp) pathEnd = j; else line = -1; }
        else line = -1;
      }
    }
    let d = new Diagnostic();
    d.tool = "biome";
    d.file = normPath(l.str(0, pathEnd));
    if (line >= 0) { d.line = <i32>line; d.col = <i32>col; }
    d.code = l.str(sp + 1, ce);
    this.pending = d;
    this.seen = true;
    this.state = State.MARK;
    return true;
  }

  /** The block's first line: its severity's mark and the message. */
  private mark(l: Line, f: Facts): void {
    this.state = State.BODY;
    let d = this.pending;
    this.pending = null;
    if (d === null) return;
    let p = l.skipSpaces(0);
    let sev = "";
    if (matchBytes(l, TIMES, p)) { sev = "error"; p += 3; }
    else if (matchBytes(l, HEAVY, p)) { sev = "error"; p += 4; }
    else if (l.matchAt("! ", p)) { sev = "warning"; p += 2; }
    else return;   // `i `: an information
    d.severity = sev;
    d.message = l.trimmed(p);
    f.addDiagnostic(d);
    if (d.line <= 0 && d.code == "format") this.needLine = d;
  }

  /** The formatter's diff: `    2   │ - ····…` (the old line) or `      2 │ + ····…` (the new one alone). */
  private diffLine(l: Line): void {
    let b = l.indexOfByte(0xE2);
    while (b >= 0 && !matchBytes(l, BAR_MINUS, b) && !matchBytes(l, BAR_PLUS, b)) b = l.indexOfByte(0xE2, b + 1);
    if (b < 0) return;
    let p = l.skipSpaces(0);
    if (!isDigit(l.at(p))) return;
    let n = l.readInt(p);
    if (n > 0) { this.needLine!.line = <i32>n; }
    this.needLine = null;
  }
}

/** A category: `lint/suspicious/noDoubleEquals`, `format`, `parse`, `check`, `assist/source/organizeImports`. */
function isCategory(l: Line, a: i32, b: i32): bool {
  if (b - a < 2) return false;
  for (let i = a; i < b; i++) {
    let c = l.at(i);
    if (!isIdent(c) && c != Char.SLASH && c != 0x2D) return false;
  }
  let c0 = l.at(a);
  return c0 >= Char.a && c0 <= Char.z;
}

/** The run's closing lines: `Checked 3 files in 16ms. …`, `Found 2 errors.`, `Fixed 1 file in 5ms.` */
function closing(l: Line): bool {
  if (l.matchAt("Checked ", 0) || l.matchAt("Fixed ", 0) || l.matchAt("Formatted ", 0)) return isDigit(l.at(l.indexOfByte(Char.SPACE) + 1)) && l.contains(" in ");
  if (l.matchAt("Found ", 0)) return isDigit(l.at(6)) && l.at(l.len - 1) == Char.DOT;
  return false;
}
