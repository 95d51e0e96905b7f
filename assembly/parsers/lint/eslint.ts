// ESLint's default (stylish) formatter: a file's path alone at column 0, then one line per problem,
// `  40:9   error    'unused' is assigned a value but never used  no-unused-vars` (the rule id after two or
// more spaces; none for a parse error), and the closing `✖ 2 problems (1 error, 1 warning)` with its
// `  0 errors and 1 warning potentially fixable with the `--fix` option.` A path is the header only once a
// problem line follows it.
import { Char, isDigit } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts, Diagnostic } from "../../model";
import { Parser } from "../../parser";
import { ByteSet } from "../../util/byte-set";
import { normPath } from "../../frames";
import { utf8, matchBytes } from "../runners/common";

const CROSS = utf8("\u2716 ");   // ✖

/**
 * At rest (no candidate path, no file, no summary seen): an indented line finds no file and is not taken; a
 * column-0 line is taken only as the `✖ N problems` summary (key 0xE2) and remembered only when it names a
 * linted file (its last byte, of .js .ts .jsx .vue .md .json .html ...: endsStarts).
 */
const STARTS = new ByteSet().chars("\u2716");
const ENDS = new ByteSet().chars("sxednl");

export class EslintParser extends Parser {
  /** The last column-0 line that could be a file's path; the file whose problems follow, once one did. */
  candidate: string | null = null;
  file: string | null = null;
  seen: bool = false;

  atRest(): bool { return this.candidate === null && this.file === null && !this.seen; }
  starts(): ByteSet | null { return STARTS; }
  endsStarts(): ByteSet | null { return ENDS; }

  claim(l: Line, f: Facts): bool {
    let c = l.at(0);
    if (c == Char.SPACE) {
      if (this.seen && l.contains(" potentially fixable with the `--fix` option")) return true;
      let file = this.file !== null ? this.file : this.candidate;
      if (file === null) return false;
      if (!this.problem(l, f, file!)) return false;
      this.file = file; this.candidate = null;
      return true;
    }
    this.file = null;
    if (matchBytes(l, CROSS, 0) && (l.indexOf(" problem", 0) > 0) && l.at(l.len - 1) == Char.RPAREN) { this.seen = true; return true; }
    this.candidate = null;
    if (l.isBlank() || l.indexOfByte(Char.SPACE) >= 0) return false;
    if (!lintedFile(l) || (l.indexOfByte(Char.COLON) >= 0 && !l.startsWith("/"))) return false;
    this.candidate = normPath(l.toString());
    return false;
  }

  /** `  40:9  error  message  rule-id`; also the fixable count under the summary. */
  private problem(l: Line, f: Facts, file: string): bool {
    let p = l.skipSpaces(0);
    if (p != 2 || !isDigit(l.at(p))) return false;
    let line = l.readInt(p);
    if (line < 0 || l.at(l.end) != Char.COLON) return false;
    let col = l.readInt(l.end + 1);
    if (col < 0 || l.at(l.end) != Char.SPACE) return false;
    let s = l.skipSpaces(l.end);
    let sev = "";
    if (l.matchAt("error  ", s)) sev = "error";
    else if (l.matchAt("warning  ", s)) sev = "warning";
    else return false;
    let m = l.skipSpaces(s + sev.length);
    let d = new Diagnostic();
    d.tool = "eslint";
    d.severity = sev;
    d.file = file;
    d.line = <i32>line;
    d.col = <i32>col;
    let rest = l.trimmed(m);
    // The rule id: the last word, after a run of two or more spaces.
    let gap = rest.lastIndexOf("  ");
    if (gap > 0 && rest.indexOf(" ", gap + 2) < 0) {
      d.code = rest.substring(gap + 2);
      rest = rest.substring(0, gap).trim();
    }
    d.message = rest;
    f.addDiagnostic(d);
    this.seen = true;
    return true;
  }
}

/** The kinds of file ESLint reads (its own and its plugins'): a path that ends in one may be a header. */
const LINTED: string[] = [".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx", ".vue", ".svelte", ".md", ".json", ".html"];

function lintedFile(l: Line): bool {
  for (let i = 0; i < LINTED.length; i++) {
    let e = LINTED[i];
    if (l.len > e.length && l.matchAt(e, l.len - e.length)) return true;
  }
  return false;
}
