// Python's linters, one finding a line: flake8 and pycodestyle (`src/a.py:3:1: E302 expected 2 blank lines,
// found 1`), ruff's concise format (`src/a.py:4:8: F401 [*] `json` imported but unused`) and pylint's
// (`src/a.py:34:4: W0612: Unused variable 'count' (unused-variable)`, its column counted from 0, under a
// `************* Module pkg.a` header, and the closing `Your code has been rated at 9.50/10`); ruff's full format
// (its default: `F401 [*] `json` imported but unused`, ` --> src/a.py:4:8`, a source snippet and
// `help:` lines, a blank line after each), and ruff's closing lines (`Found 2 errors.`, `[*] 1 fixable with the
// `--fix` option.`, `No fixes available ...`).
//
// Severity: pylint's E and F (error, fatal) are errors, its W, C and R (warning, convention, refactor) warnings;
// every finding of flake8 and ruff is an error, whatever its code (pycodestyle's W ones too): each fails the run
// and both count them so (`Found 2 errors.`, `flake8 --count`). A finding of the concise shape is flake8's until
// the run's `Found N errors.` says ruff (or its `[*]` fix mark does).
import { Char, isDigit } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts, Diagnostic } from "../../model";
import { Parser } from "../../parser";
import { ByteSet } from "../../util/byte-set";
import { normPath } from "../../frames";

/** Column-0 keys that start something at rest: a ruff header's code, pylint's `*`, ruff's `[*] N fixable`. */
const STARTS = new ByteSet().upper().chars("*[i");

const enum Block { NONE = 0, HEADER = 1, SNIPPET = 2 }

export class PyLintParser extends Parser {
  private block: i32 = Block.NONE;
  /** ruff full format: the header read, waiting for its ` --> path:line:col` line. */
  private pending: Diagnostic | null = null;
  /** Concise findings tagged flake8 so far, retagged ruff when ruff's summary comes. */
  private guessed: Array<Diagnostic> = [];

  atRest(): bool { return this.block == Block.NONE; }
  starts(): ByteSet | null { return STARTS; }
  headColonStarts(): bool { return true; }
  busy(): bool { return this.block != Block.NONE; }

  claim(l: Line, f: Facts): bool {
    if (this.block == Block.HEADER) {
      this.block = Block.NONE;
      let d = this.pending;
      this.pending = null;
      if (d !== null && this.arrow(l, d)) { f.addDiagnostic(d); this.block = Block.SNIPPET; return true; }
    } else if (this.block == Block.SNIPPET) {
      if (!l.isBlank()) return true;
      this.block = Block.NONE;
      return false;
    }
    let c0 = l.at(0);
    if (c0 == Char.SPACE || c0 == Char.TAB || c0 < 0) return false;
    let k = l.headColon();
    if (k > 0 && this.concise(l, f, k)) return true;
    return this.closing(l) || this.fullHeader(l);
  }

  finish(f: Facts): void { this.block = Block.NONE; this.pending = null; this.guessed.length = 0; }

  /** `path:line:col: CODE msg` (flake8, pycodestyle, ruff) or `path:line:col: CODE: msg (symbol)` (pylint). */
  private concise(l: Line, f: Facts, k: i32): bool {
    let s = k + 2;
    let e = codeEnd(l, s);
    if (e < 0) return false;
    let pylint = l.at(e) == Char.COLON;
    if (!pylint && l.at(e) != Char.SPACE) return false;
    // The place: `path:line:col` (or `path:line`) of a Python file.
    let a = 0;
    let b = k;
    let n2 = -1;
    let i = b - 1;
    while (i > a && isDigit(l.at(i))) i--;
    if (i == b - 1 || l.at(i) != Char.COLON) return false;
    let n1 = <i32>l.readInt(i + 1);
    b = i;
    i = b - 1;
    while (i > a && isDigit(l.at(i))) i--;
    if (i < b - 1 && l.at(i) == Char.COLON) { n2 = n1; n1 = <i32>l.readInt(i + 1); b = i; }
    if (!endsPy(l, b)) return false;
    let d = new Diagnostic();
    d.file = normPath(l.str(a, b));
    d.line = n1;
    d.col = n2 < 0 ? -1 : (pylint ? n2 + 1 : n2);
    d.code = l.str(s, e);
    let m = l.skipSpaces(pylint ? e + 1 : e);
    let ruff = false;
    if (l.matchAt("[*] ", m)) { ruff = true; m = l.skipSpaces(m + 4); }
    d.message = l.trimmed(m);
    let c = l.at(s);
    if (pylint) {
      d.tool = "pylint";
      d.severity = c == Char.E || c == Char.F ? "error" : "warning";
    } else {
      d.tool = ruff ? "ruff" : "flake8";
      d.severity = "error";
      if (!ruff && this.guessed.length < 4096) this.guessed.push(d);
    }
    f.addDiagnostic(d);
    return true;
  }

  /** The closing lines of pylint and ruff. */
  private closing(l: Line): bool {
    if (l.startsWith("************* Module ")) return true;
    if (l.startsWith("Your code has been rated at ")) return true;
    if (l.startsWith("[*] ") && l.contains(" fixable with the ")) { this.retag(); return true; }
    if (l.startsWith("No fixes available (")) { this.retag(); return true; }
    if (l.startsWith("Found ") && (l.endsWith(" error.") || l.endsWith(" errors.") || l.endsWith(" remaining)."))) {
      this.retag();
      return true;
    }
    return false;
  }

  private retag(): void {
    let g = this.guessed;
    for (let i = 0; i < g.length; i++) g[i].tool = "ruff";
    g.length = 0;
  }

  /** ruff's full format: `CODE [*] msg` or `invalid-syntax: msg`, its place on the next line. */
  private fullHeader(l: Line): bool {
    let m = 0;
    let e = 0;
    if (l.startsWith("invalid-syntax: ")) {
      m = 16;
    } else {
      e = codeEnd(l, 0);
      if (e < 0 || l.at(e) != Char.SPACE) return false;
      m = l.skipSpaces(e);
      if (l.matchAt("[*] ", m)) m = l.skipSpaces(m + 4);
      if (m >= l.len) return false;
    }
    // A line of any other tool could open so: nothing is kept until the next line's ` --> ` place.
    let d = new Diagnostic();
    d.tool = "ruff";
    if (e > 0) d.code = l.str(0, e);
    d.severity = "error";
    d.message = l.trimmed(m);
    this.pending = d;
    this.block = Block.HEADER;
    return true;
  }

  /** ` --> src/a.py:4:8` (the arrow's indent is the snippet's gutter width). */
  private arrow(l: Line, d: Diagnostic): bool {
    let p = l.skipSpaces(0);
    if (p == 0 || !l.matchAt("--> ", p)) return false;
    p += 4;
    let n = l.len;
    while (n > p && l.at(n - 1) == Char.SPACE) n--;
    let i = n - 1;
    while (i > p && isDigit(l.at(i))) i--;
    if (i == n - 1 || l.at(i) != Char.COLON) return false;
    let v1 = <i32>l.readInt(i + 1);
    let b = i;
    i = b - 1;
    while (i > p && isDigit(l.at(i))) i--;
    let v2 = -1;
    if (i < b - 1 && l.at(i) == Char.COLON) { v2 = v1; v1 = <i32>l.readInt(i + 1); b = i; }
    if (!endsPy(l, b) && !(b - p > 6 && l.matchAt(".ipynb", b - 6))) return false;
    d.file = normPath(l.str(p, b));
    d.line = v1;
    d.col = v2;
    return true;
  }
}

/** The text before b ends in `.py` or `.pyi`. */
function endsPy(l: Line, b: i32): bool {
  return (b > 3 && l.matchAt(".py", b - 3)) || (b > 4 && l.matchAt(".pyi", b - 4));
}

/**
 * The end of a lint code at s: one to five capital letters, then three or four digits (`E302`, `F401`,
 * `W0612`, `UP006`, `PLR0913`, `ASYNC100`); -1 when there is none.
 */
function codeEnd(l: Line, s: i32): i32 {
  let i = s;
  while (i - s < 6 && l.at(i) >= Char.A && l.at(i) <= Char.Z) i++;
  if (i == s || i - s > 5) return -1;
  let j = i;
  while (j - i < 5 && isDigit(l.at(j))) j++;
  if (j - i < 3 || j - i > 4) return -1;
  return j;
}
