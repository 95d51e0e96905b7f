// The JavaScript bundlers' build failures, read by the tsc parser (their family: vite and tsup run esbuild,
// read there too). Each failure is one error diagnostic of the bundler's, placed where it says; the bundler's own
// stack under it (node_modules frames of rollup, esbuild) is claimed with it, never a crash of the user's code.
//   vite build:   `✓ 19 modules transformed.`, `✓ built in 10.77s`, `✗ Build failed in 1.85s` are its progress,
//                 no tests; a failure is `error during build:`, then the error's message (`Could not resolve
//                 "./x" from "src/App.tsx"`, rollup's `src/App.tsx (5:9): "f" is not exported by …`, a plugin's
//                 `[vite:css] …`), `file: /work/src/App.tsx[:5:9]` (its place), a code frame, and the stack.
//                 esbuild's `[vite:esbuild] Transform failed with 1 error:` is followed by esbuild's own one-line
//                 error (`/work/src/App.tsx:20:24: ERROR: …`), read by the tsc parser as esbuild's: no second one.
//   rollup -c:    `[!] RollupError: src/main.js (1:14): "sub" is not exported by "src/math.js", …` (or `[!] Error:`,
//                 `[!] (plugin x) Error:`), a link to the docs, the place alone (`src/main.js (1:14)`, or the path),
//                 the code frame (`1: import …`, its `^`), the stack and a `[cause]` with its own.
//   webpack:      `ERROR in ./src/index.js 2:0-39` (line, 0-based columns) or `WARNING in …`, then the message
//                 (`Module not found: Error: Can't resolve './x' in '/work/src'`, `Module parse failed: …`,
//                 `export 'sub' (imported as 'sub') was not found in './math.js' …`; under `Module build failed
//                 (from ./node_modules/babel-loader/…):` the loader's error on the next line), then the resolver's
//                 trace or the code frame, up to a blank line.
import { Char, isDigit } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts, Diagnostic } from "../../model";
import { DiagContext, readLoc } from "../diag-context";
import { utf8, matchBytes } from "../runners/common";

const enum Kind { NONE = 0, VITE = 1, ROLLUP = 2, WEBPACK = 3 }
/** What a line inside a block came to: claimed, left to the tsc parser's own reading, or the block's end. */
export const enum Take { CLAIM = 0, PASS = 1, END = 2 }

/** A block past this many lines without its stack has lost its shape: it ends. */
const MAX_BLOCK = 60;

const CHECK = utf8("\u2713 ");       // ✓
const BALLOT = utf8("\u2717 ");      // ✗

export class BundlerBlock {
  private kind: i32 = Kind.NONE;
  /** The block's diagnostic, until it is added (its place read, or the block's end). */
  private d: Diagnostic | null = null;
  /** The message is still to come (vite: the line after `error during build:`; webpack: after `ERROR in`). */
  private wantMessage: bool = false;
  /** webpack: a loader's failure (`Module build failed (from …):`): its error is the next line. */
  private loader: bool = false;
  /** webpack: a blank line was read inside the block (a loader's code frame and stack may follow). */
  private afterBlank: bool = false;
  /** vite: esbuild's own errors follow (`Transform failed with 1 error:`): their lines are the tsc parser's. */
  private esbuild: bool = false;
  /** A stack line (`    at …`) was read: the first line after it that is none ends the block. */
  private stack: bool = false;
  private lines: i32 = 0;
  private ctx: DiagContext;

  constructor(ctx: DiagContext) { this.ctx = ctx; }

  open(): bool { return this.kind != Kind.NONE; }

  /** vite's progress marks at column 0 (`✓ 19 modules transformed.`, `✓ built in 2.1s`, `✗ Build failed in 1.8s`). */
  progress(l: Line): bool {
    let ok = matchBytes(l, CHECK, 0);
    if (!ok && !matchBytes(l, BALLOT, 0)) return false;
    let p = 4;
    if (ok) {
      if (l.matchAt("built in ", p)) return duration(l, p + 9);
      let n = l.readInt(p);
      return n >= 0 && l.matchAt(" modules transformed.", l.end) && l.end + 21 == l.len;
    }
    return l.matchAt("Build failed in ", p) && duration(l, p + 16);
  }

  /** A line that opens a block (at rest): vite's `error during build:`, rollup's `[!] …`, webpack's `ERROR in …`. */
  start(l: Line, f: Facts): bool {
    let c = l.at(0);
    if (c == Char.e && l.len == 19 && l.matchAt("error during build:", 0)) {
      this.begin(Kind.VITE, "vite", "error");
      this.wantMessage = true;
      return true;
    }
    if (c == Char.LBRACKET && l.matchAt("[!] ", 0) && l.len > 4) {
      this.begin(Kind.ROLLUP, "rollup", "error");
      this.message(l, 4);
      return true;
    }
    let sev = "";
    let p = 0;
    if (c == Char.E && l.matchAt("ERROR in ", 0)) { sev = "error"; p = 9; }
    else if (c == Char.W && l.matchAt("WARNING in ", 0)) { sev = "warning"; p = 11; }
    if (p == 0 || p >= l.len) return false;
    this.begin(Kind.WEBPACK, "webpack", sev);
    // `WARNING in asset size limit: The following asset(s) exceed …`: no module, the message on the line.
    if (this.webpackWhere(l, p)) this.wantMessage = true;
    else this.d!.message = l.trimmed(p);
    return true;
  }

  /** A line inside the block. */
  take(l: Line, f: Facts): i32 {
    this.lines++;
    let blank = l.isBlank();
    if (this.kind == Kind.WEBPACK) return this.webpackLine(l, f, blank);
    let p = l.skipSpaces(0);
    if (p > 0 && l.matchAt("at ", p) || p > 0 && l.matchAt("[cause] ", p)) { this.stack = true; return Take.CLAIM; }
    if (blank) return Take.CLAIM;
    if (this.stack || this.lines > MAX_BLOCK) { this.end(f); return Take.END; }
    if (this.wantMessage) {
      this.wantMessage = false;
      // esbuild's errors follow, each read as esbuild's: this block adds none of its own.
      if (l.contains("Transform failed with ") && l.at(l.len - 1) == Char.COLON) { this.d = null; this.esbuild = true; return Take.CLAIM; }
      this.message(l, 0);
      return Take.CLAIM;
    }
    let d = this.d;
    if (this.kind == Kind.VITE && p == 0 && l.matchAt("file: ", 0)) {
      if (d !== null) this.place(l, 6, f);
      this.esbuild = false;
      return Take.CLAIM;
    }
    if (d === null) return this.esbuild && p == 0 && l.headColon() > 0 ? Take.PASS : Take.CLAIM;
    if (this.kind == Kind.VITE) return Take.CLAIM;
    // rollup: the place alone, `src/main.js (1:14)` or `src/main.js`, once.
    if (p == 0 && d.file === null && (l.indexOfByte(Char.COLON) < 0 || placeParen(l, 0) > 0)) this.place(l, 0, f);
    return Take.CLAIM;
  }

  /** At the end of input, or when another block begins: the pending diagnostic is added. */
  end(f: Facts): void {
    let d = this.d;
    if (d !== null) {
      // No place line: rollup's `… from "src/main.js"` names the importer.
      if (d.file === null) d.file = importer(d.message, this.ctx);
      f.addDiagnostic(d);
    }
    this.d = null;
    this.kind = Kind.NONE;
  }

  private begin(kind: i32, tool: string, sev: string): void {
    this.kind = kind;
    let d = new Diagnostic();
    d.tool = tool;
    d.severity = sev;
    this.d = d;
    this.wantMessage = false;
    this.esbuild = false;
    this.loader = false;
    this.afterBlank = false;
    this.stack = false;
    this.lines = 0;
  }

  /**
   * The error's message from p: a plugin's `[vite:css] ` or `(plugin x) ` is its code; `RollupError: ` / `Error: `
   * go; rollup's `path (line:col): ` before the message is its place.
   */
  private message(l: Line, p: i32): void {
    let d = this.d!;
    // `[vite:build-import-analysis] [plugin vite:build-import-analysis] …`, `[vite]: …`, `(plugin x) …`: the first
    // names the code.
    for (let k = 0; k < 3; k++) {
      let c = l.at(p);
      let close = c == Char.LBRACKET ? Char.RBRACKET : c == Char.LPAREN && l.matchAt("(plugin ", p) ? Char.RPAREN : 0;
      if (close == 0) break;
      let e = l.indexOfByte(close, p);
      if (e < p + 2 || l.at(e + 1) != Char.SPACE && l.at(e + 1) != Char.COLON) break;
      if (d.code === null) {
        let a = l.matchAt("[plugin ", p) || l.matchAt("(plugin ", p) ? p + 8 : p + 1;
        d.code = l.str(a, e);
      }
      p = e + 1;
      if (l.at(p) == Char.COLON) p++;
      p = l.skipSpaces(p);
    }
    if (l.matchAt("RollupError: ", p)) p += 13;
    else if (l.matchAt("Error: ", p)) p += 7;
    let q = placeParen(l, p);
    if (q > 0 && l.matchAt(": ", q)) {
      this.readParen(l, p, q, d);
      p = q + 2;
    }
    d.message = l.trimmed(p);
  }

  /** The place from p to the line's end: `path:line:col`, `path (line:col)` or a path alone. Adds the diagnostic. */
  private place(l: Line, p: i32, f: Facts): void {
    let d = this.d!;
    if (d.file === null) {
      let q = placeParen(l, p);
      if (q == l.len) this.readParen(l, p, q, d);
      else {
        let e = l.len;
        while (e > p && l.at(e - 1) == Char.SPACE) e--;
        let t = new Diagnostic();
        // vite's `file: /work/src/App.tsx:5:9`: rollup's place, the column 0-based.
        if (readLoc(l, p, e, t, this.ctx)) { d.file = t.file; d.line = t.line; d.col = t.col >= 0 ? t.col + 1 : -1; }
        else if (e > p && l.indexOfByte(Char.SPACE, p) < 0) d.file = this.ctx.resolve(l.str(p, e));
      }
    }
    f.addDiagnostic(d);
    this.d = null;
  }

  /** `path (line:col)` in [p, q), its column 0-based (rollup's, as acorn counts): d's place. */
  private readParen(l: Line, p: i32, q: i32, d: Diagnostic): void {
    let o = l.lastIndexOf(" (", q);
    d.file = this.ctx.resolve(l.str(p, o));
    parenAt(l, o, d);
  }

  /**
   * webpack's `./src/index.js 2:0-39`: the module's path, its line and 0-based column (a loader's suffix aside).
   * False when the line names no module (`asset size limit: …`, `[entry] [initial]`): no path of a file there.
   */
  private webpackWhere(l: Line, p: i32): bool {
    let d = this.d!;
    let c = l.at(p);
    if (c != Char.DOT && c != Char.SLASH && !isPathByte(c)) return false;
    let sp = l.indexOfByte(Char.SPACE, p);
    let e = sp < 0 ? l.len : sp;
    if (l.at(e - 1) == Char.COLON) return false;
    let slash = l.indexOfByte(Char.SLASH, p);
    let dot = l.indexOfByte(Char.DOT, p);
    if ((slash < 0 || slash >= e) && (dot < 0 || dot >= e)) return false;
    d.file = this.ctx.resolve(l.str(p, e));
    if (sp < 0 || !isDigit(l.at(sp + 1))) return true;
    let line = l.readInt(sp + 1);
    if (l.at(l.end) != Char.COLON) return true;
    let col = l.readInt(l.end + 1);
    if (line <= 0 || col < 0) return true;
    d.line = <i32>line;
    d.col = <i32>col + 1;
    return true;
  }

  /**
   * A line of webpack's block: its message, then anything up to a blank line; past a blank line, a loader's code
   * frame (`> 2 | …`, indented lines) and stack (`    at …`, ` @ ./src/main.ts 1:0-31`) go on, any other line ends it.
   */
  private webpackLine(l: Line, f: Facts, blank: bool): i32 {
    let p = l.skipSpaces(0);
    if (blank) { this.afterBlank = true; return Take.CLAIM; }
    if (p > 0 && l.matchAt("at ", p)) { this.lines--; return Take.CLAIM; }
    if (this.afterBlank && p == 0 && !l.matchAt("> ", 0) || this.lines > MAX_BLOCK) {
      this.end(f);
      return Take.END;
    }
    this.afterBlank = false;
    if (!this.wantMessage) return Take.CLAIM;
    let d = this.d!;
    // ts-loader's `./src/main.ts 1:22-30` under `ERROR in /work/src/main.ts`: webpack's place of it.
    if (p == 0 && (l.at(0) == Char.DOT || l.at(0) == Char.SLASH)) {
      let sp = l.indexOfByte(Char.SPACE);
      if (sp > 0 && isDigit(l.at(sp + 1)) && l.indexOfByte(Char.SPACE, sp + 1) < 0 && this.webpackWhere(l, 0)) return Take.CLAIM;
    }
    if (!this.loader && l.matchAt("Module build failed (from ", p)) { this.loader = true; return Take.CLAIM; }
    // ts-loader: `ERROR in /work/src/a.ts`, then `3:6-7` (webpack's place), `[tsl] ERROR in /work/src/a.ts(3,7)` (its
    // own, 1-based) and `      TS2322: …`, the message.
    if (p == 0 && isDigit(l.at(0)) && l.indexOfByte(Char.SPACE) < 0) {
      let line = l.readInt(0);
      if (l.at(l.end) == Char.COLON && line > 0) {
        let col = l.readInt(l.end + 1);
        if (col >= 0 && d.line <= 0) { d.line = <i32>line; d.col = <i32>col + 1; }
        return Take.CLAIM;
      }
    }
    if (l.matchAt("[tsl] ", p)) {
      let o = l.lastIndexOfByte(Char.LPAREN);
      let c = o > 0 ? l.indexOfByte(Char.COMMA, o) : -1;
      if (c > o && l.at(l.len - 1) == Char.RPAREN) {
        let line = l.readInt(o + 1);
        let col = l.readInt(c + 1);
        if (line > 0 && col > 0) { d.line = <i32>line; d.col = <i32>col; }
      }
      return Take.CLAIM;
    }
    if (l.matchAt("TS", p) && isDigit(l.at(p + 2))) {
      let k = l.indexOf(": ", p);
      if (k > p) { d.code = l.str(p, k); p = k + 2; }
    }
    this.wantMessage = false;
    // babel-loader's `SyntaxError: /work/src/cart.js: Unexpected token, expected "," (2:58)`: the path goes, the place
    // (its column 0-based) is the error's when webpack gave none.
    let k = l.indexOf(": ", p);
    if (k > p && (l.at(k + 2) == Char.SLASH || l.at(k + 2) == Char.DOT)) {
      let k2 = l.indexOf(": ", k + 2);
      if (k2 > 0 && l.indexOfByte(Char.SPACE, k + 2) > k2) {
        d.message = l.str(p, k + 2) + l.trimmed(k2 + 2);
        let o = l.lastIndexOf(" (");
        let q = o > k2 ? parenLoc(l, o + 2) : -1;
        if (q == l.len && d.line <= 0) parenAt(l, o, d);
        return Take.CLAIM;
      }
    }
    d.message = l.trimmed(p);
    return Take.CLAIM;
  }
}

/** The importer rollup names at a message's end (`Could not resolve "./x" from "src/a.js"`), or null. */
function importer(m: string, ctx: DiagContext): string | null {
  let e = m.endsWith("\".") ? m.length - 2 : m.endsWith("\"") ? m.length - 1 : -1;
  if (e < 0) return null;
  let o = m.lastIndexOf(" from \"", e);
  if (o < 0 || m.indexOf("\"", o + 7) != e) return null;
  return ctx.resolve(m.substring(o + 7, e));
}

/** ` (line:col)` at o, checked by parenLoc, its column 0-based: d's line and 1-based column. */
function parenAt(l: Line, o: i32, d: Diagnostic): void {
  d.line = <i32>l.readInt(o + 2);
  d.col = <i32>l.readInt(l.end + 1) + 1;
}

/** `line:col)` at p: the position after its `)`, else -1. */
function parenLoc(l: Line, p: i32): i32 {
  let n = l.readInt(p);
  if (n <= 0 || l.at(l.end) != Char.COLON) return -1;
  let c = l.readInt(l.end + 1);
  if (c < 0 || l.at(l.end) != Char.RPAREN) return -1;
  return l.end + 1;
}

/** ` (line:col)` right after a path from p: the position after its `)`, else -1. */
function placeParen(l: Line, p: i32): i32 {
  let o = l.indexOf(" (", p);
  if (o <= p || l.indexOfByte(Char.SPACE, p) < o) return -1;
  return parenLoc(l, o + 2);
}

/** `10.77s`, `179ms` ending the line at p. */
function duration(l: Line, p: i32): bool {
  let q = p;
  while (q < l.len && (isDigit(l.at(q)) || l.at(q) == Char.DOT)) q++;
  if (q == p) return false;
  return l.matchAt("ms", q) && q + 2 == l.len || l.at(q) == Char.s && q + 1 == l.len;
}

/** A byte a relative module path may start with (`src/a.js`). */
function isPathByte(c: i32): bool {
  return c >= Char.a && c <= Char.z || c >= Char.A && c <= Char.Z || isDigit(c) || c == Char.UNDERSCORE || c == Char.AT;
}
