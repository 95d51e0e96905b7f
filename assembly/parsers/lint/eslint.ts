// ESLint's default (stylish) formatter: a file's path alone at column 0, then one line per problem,
// `  40:9   error    'unused' is assigned a value but never used  no-unused-vars` (the rule id after two or
// more spaces; none for a parse error), and the closing `✖ 2 problems (1 error, 1 warning)` with its
// `  0 errors and 1 warning potentially fixable with the `--fix` option.` A path is the header only once a
// problem line follows it.
// Its one-line formatters too: `--format unix`, `path:40:9: message. [Error/no-unused-vars]`, and `--format
// compact`, `path: line 40, col 9, Error - message. (no-unused-vars)`, each closed by `2 problems`; the
// message loses its last period as stylish prints it, so one problem reads the same whatever the format.
// eslint-formatter-pretty (xo's report, and tsd's, which prints its type-test findings with it): a file's header
// two in, `  index.js:5:1` (its relative path and its first error's place), then one line per problem, `  ✖  5:1
// message  rule` (`⚠` a warning; the rule id after a run of spaces, none for tsd, whose lines end with the
// padding), a blank line between files, and the closing `  1 warning` / `  3 errors`. A line without a rule id
// whose message is not ESLint's `Parsing error: …` is tsd's (its tool).
// vfile-reporter 8 (remark-cli's, retext's and every unified-engine CLI's report): the file's path at column 0, then
// one row a message, at column 0 too: `3:5-3:24 warning Unexpected reference … no-undefined-references remark-lint`
// (its place or range, `error`/`warning`/`info`, the reason, the rule id and the source), each cell padded to the
// widest of its column (one space after the widest), a blank line between files, and the closing `⚠ 1 warning`,
// `✖ 1 error` or `2 messages (✖ 1 error, ⚠ 1 warning)`. The tool is the message's source (`remark-lint`).
// oxlint's default (miette's graphical) report, eslint's rules under other names: a problem's mark two in (`x`
// error, `!` warning; `×` and `⚠` on a terminal, the rule then a hyperlink), its plugin, rule and message,
// `  ! eslint(no-unused-expressions): Expected expression to be used`, then its place on the next line,
// `    ,-[test/a.ts:13:3]`
// (`╭─[`), its numbered source lines, marks, `` `---- `` and `  help: …` down to a blank line; the run closes with
// `Found 6 warnings and 0 errors.` and `Finished in 76ms on 3 files with 96 rules using 2 threads.` The mark
// line is left to the tail, then taken back by its place line (which ends in `]`: offered at rest).
// Warnings that fail the run (Facts.warningsFailLine, with a non-zero exit): that closing count (remark --frail),
// ESLint's `ESLint found too many warnings (maximum: 0).` (--max-warnings).
import { Char, isDigit } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts, Diagnostic } from "../../model";
import { Parser } from "../../parser";
import { ByteSet } from "../../util/byte-set";
import { normPath } from "../../frames";
import { utf8, matchBytes } from "../runners/common";

const CROSS = utf8("\u2716 ");   // ✖
const TOO_MANY = "ESLint found too many warnings (maximum: ";
// log-symbols' error and warning marks: `✖` `⚠`, and `×` `‼` where the terminal has no Unicode.
const P_ERR = utf8("\u2716"); const P_WARN = utf8("\u26a0");
const P_ERR_ASCII = utf8("\u00d7"); const P_WARN_ASCII = utf8("\u203c");
const OX_CORNER = utf8("\u256d\u2500[");   // ╭─[

/**
 * At rest (no candidate path, no file, no summary seen): an indented line finds no file and is not taken; a
 * column-0 line is taken only as the `✖ N problems` summary (key 0xE2) and remembered only when it names a
 * linted file (its last byte, of .js .ts .jsx .vue .md .json .html ...: endsStarts).
 */
const STARTS = new ByteSet().chars("\u2716");
// Digits: pretty's header, `  index.js:5:1`.
// `o`: staticcheck's stylish header (`/w/lint.go`).
const ENDS = new ByteSet().chars("sxednlo])0123456789");

export class EslintParser extends Parser {
  /** The last column-0 line that could be a file's path; the file whose problems follow, once one did. */
  candidate: string | null = null;
  /** The candidate's line as it came, held back from the tail. */
  held: string | null = null;
  file: string | null = null;
  seen: bool = false;
  /** The candidate or file is pretty's (two in, `  ✖  5:1 …` lines); pretty's closing counts may follow. */
  pretty: bool = false;
  prettySeen: bool = false;
  /** A line that may be pretty's header (`  index.js:5:1`, left to the tail): its path, and the tail's count then. */
  hdr: string | null = null;
  hdrAt: i64 = -1;
  /** In an oxlint problem's block, after its place line: its lines up to the blank one are its own. */
  oxBlock: bool = false;
  /** The file whose vfile-reporter rows follow (its header the line before the first). */
  vfile: string | null = null;
  vfileSeen: bool = false;

  atRest(): bool { return this.candidate === null && this.file === null && this.vfile === null && !this.seen; }
  starts(): ByteSet | null { return STARTS; }
  endsStarts(): ByteSet | null { return ENDS; }

  claim(l: Line, f: Facts): bool {
    let c = l.at(0);
    if (this.oxBlock) {
      if (!l.isBlank()) return true;
      this.oxBlock = false;
      return false;
    }
    if (c == Char.SPACE && l.at(l.len - 1) == Char.RBRACKET && this.oxlintPlace(l, f)) return true;
    if (this.seen && c == Char.F && oxlintClosing(l)) return true;
    if (c == Char.SPACE) {
      if (this.seen && l.contains(" potentially fixable with the `--fix` option")) { this.drop(f); return true; }
      // staticcheck's stylish closing, one in: ` ✖ 4 problems (4 errors, 0 warnings, 0 ignored)`.
      if (this.seen && l.at(1) == 0xE2 && matchBytes(l, CROSS, 1) && l.indexOf(" problem", 1) > 0 && l.at(l.len - 1) == Char.RPAREN) { this.file = null; return true; }
      if (this.pretty) {
        if (this.prettyProblem(l, f, this.file!)) return true;
        this.file = null; this.pretty = false;
      }
      let file = this.file !== null ? this.file : this.candidate;
      if (file === null) return this.prettyAtRest(l, f);
      if (!this.problem(l, f, file!)) { this.drop(f); return false; }
      this.file = file; this.candidate = null; this.held = null;
      return true;
    }
    if (isDigit(c) && (this.vfile !== null || this.candidate !== null)) {
      let file = this.vfile !== null ? this.vfile! : this.candidate!;
      if (this.vfileRow(l, f, file)) { this.vfile = file; this.vfileSeen = true; this.candidate = null; this.held = null; return true; }
    }
    this.vfile = null;
    this.file = null;
    this.drop(f);
    this.pretty = false;
    // `--max-warnings N` exceeded: `ESLint found too many warnings (maximum: 0).`, exit 1 on warnings alone.
    if (this.seen && c == Char.E && l.startsWith(TOO_MANY)) {
      if (f.warningsFailLine === null) f.warningsFailLine = l.trimmed(0);
      return true;
    }
    if (this.seen && vfileSummary(l, c)) {
      // Under --frail its warnings fail the run too (statusOf reads it with the exit code).
      if (this.vfileSeen && f.warningsFailLine === null) f.warningsFailLine = l.trimmed(0);
      return true;
    }
    // Nothing at column 0 ending in a digit is ESLint's (offered for pretty's header).
    if (isDigit(l.at(l.len - 1))) return false;
    if (this.oneLine(l, f)) return true;
    if (this.seen && isDigit(c) && plainSummary(l)) return true;
    if (matchBytes(l, CROSS, 0) && (l.indexOf(" problem", 0) > 0) && l.at(l.len - 1) == Char.RPAREN) { this.seen = true; return true; }
    if (l.isBlank() || l.indexOfByte(Char.SPACE) >= 0) return false;
    if (!lintedFile(l) || (l.indexOfByte(Char.COLON) >= 0 && !l.startsWith("/"))) return false;
    // Held back from the tail until the next line says whether it is a file's header (Facts.released).
    this.held = l.toString();
    this.candidate = normPath(this.held!);
    return true;
  }

  finish(f: Facts): void { this.drop(f); }

  /**
   * A line two in with no file open: pretty's first problem of a file, its header the line before (left to the
   * tail, whence it is taken back: another reader may own a `  path:4:3` line), or its closing counts.
   */
  private prettyAtRest(l: Line, f: Facts): bool {
    if (l.at(1) != Char.SPACE) return false;
    let k = l.at(2);
    if (k == 0xE2 || k == 0xC3) {
      let hdr = this.hdr;
      let tl = f.tailLines;
      if (hdr === null || tl === null || tl.pushed != this.hdrAt + 1) return false;
      if (!this.prettyProblem(l, f, hdr!)) return false;
      tl.dropLast();
      this.hdr = null;
      this.file = hdr; this.pretty = true;
      return true;
    }
    if (k == Char.SPACE) return false;
    if (isDigit(l.at(l.len - 1))) { this.prettyHeader(l, f); return false; }
    return this.prettySeen && prettySummary(l);
  }

  /** Pretty's header, `  index.js:5:1`: noted (not taken) with the tail's count, for the line after it. */
  private prettyHeader(l: Line, f: Facts): void {
    this.hdr = null;
    let tl = f.tailLines;
    if (tl === null || l.indexOfByte(Char.SPACE, 2) >= 0) return;
    let q = l.len - 1;
    while (q > 2 && isDigit(l.at(q))) q--;
    if (q == l.len - 1 || l.at(q) != Char.COLON) return;
    let r = q - 1;
    while (r > 2 && isDigit(l.at(r))) r--;
    if (r == q - 1 || l.at(r) != Char.COLON) return;
    let path = l.str(2, r);
    if (!lintedPath(path)) return;
    this.hdr = normPath(path);
    this.hdrAt = tl.pushed;
  }

  /** Pretty's `  ✖  5:1   message   rule` (the line number padded to the file's widest, the message too). */
  private prettyProblem(l: Line, f: Facts, file: string): bool {
    if (l.at(0) != Char.SPACE || l.at(1) != Char.SPACE) return false;
    let sev = ""; let p = 2;
    if (matchBytes(l, P_ERR, 2)) { sev = "error"; p += 3; }
    else if (matchBytes(l, P_WARN, 2)) { sev = "warning"; p += 3; }
    else if (matchBytes(l, P_ERR_ASCII, 2)) { sev = "error"; p += 2; }
    else if (matchBytes(l, P_WARN_ASCII, 2)) { sev = "warning"; p += 3; }
    else return false;
    if (l.at(p) != Char.SPACE || l.at(p + 1) != Char.SPACE) return false;
    let q = l.skipSpaces(p);
    let line = l.readInt(q);
    if (line < 0 || l.at(l.end) != Char.COLON) return false;
    let col = l.readInt(l.end + 1);
    if (col < 0 || l.at(l.end) != Char.SPACE || l.at(l.end + 1) != Char.SPACE) return false;
    let rest = l.trimmed(l.skipSpaces(l.end));
    let code: string | null = null;
    // The rule id after the padding; none when the line ends in it (tsd's findings have no rule).
    if (l.at(l.len - 1) != Char.SPACE) {
      let gap = rest.lastIndexOf("  ");
      if (gap > 0 && rest.indexOf(" ", gap + 2) < 0) { code = rest.substring(gap + 2); rest = rest.substring(0, gap).trimEnd(); }
    }
    let d = new Diagnostic();
    d.tool = code === null && !rest.startsWith("Parsing error") ? "tsd" : "eslint";
    d.severity = sev; d.code = code; d.line = <i32>line; d.col = <i32>col;
    d.file = file;
    // stylish's `message.replace(/([^ ])\.$/u, "$1")`, so one problem reads the same whatever the format.
    if (d.tool == "eslint" && rest.length > 1 && rest.charCodeAt(rest.length - 1) == Char.DOT && rest.charCodeAt(rest.length - 2) != Char.SPACE) rest = rest.substring(0, rest.length - 1);
    d.message = rest;
    f.addDiagnostic(d);
    this.seen = true; this.prettySeen = true;
    return true;
  }

  /** vfile-reporter's row: `3:5-3:24 warning reason rule-id source` (rule id and source may be missing). */
  private vfileRow(l: Line, f: Facts, file: string): bool {
    let line = l.readInt(0);
    if (line < 0 || l.at(l.end) != Char.COLON) return false;
    let col = l.readInt(l.end + 1);
    if (col < 0) return false;
    let p = l.end;
    // The range's end: `-3:24`.
    if (l.at(p) == Char.MINUS) {
      if (l.readInt(p + 1) < 0 || l.at(l.end) != Char.COLON || l.readInt(l.end + 1) < 0) return false;
      p = l.end;
    }
    if (l.at(p) != Char.SPACE) return false;
    let s = l.skipSpaces(p);
    let sev = "";
    if (l.matchAt("warning ", s)) sev = "warning";
    else if (l.matchAt("error ", s)) sev = "error";
    else if (l.matchAt("info ", s)) sev = "info";
    else return false;
    let rest = l.trimmed(l.skipSpaces(s + sev.length));
    let d = new Diagnostic();
    d.tool = "vfile";
    d.severity = sev == "info" ? "note" : sev;
    d.file = file; d.line = <i32>line; d.col = <i32>col;
    // The rule id and the source: the last two words, each a lower-case id; taken when padding sets them off or
    // the rule id is a kebab-case one (`final-newline`), so a reason's own last words (`regular text`) stay.
    let b = rest.lastIndexOf(" ");
    if (b > 0 && ruleWord(rest, b + 1, rest.length)) {
      let re = b;
      while (re > 0 && rest.charCodeAt(re - 1) == Char.SPACE) re--;
      let a = rest.lastIndexOf(" ", re - 1);
      if (a > 0 && ruleWord(rest, a + 1, re)) {
        let rule = rest.substring(a + 1, re);
        if (rest.charCodeAt(a - 1) == Char.SPACE || rule.includes("-")) {
          d.code = rule;
          d.tool = rest.substring(b + 1);
          rest = rest.substring(0, a).trimEnd();
        }
      }
    }
    d.message = rest;
    f.addDiagnostic(d);
    this.seen = true;
    return true;
  }

  /**
   * oxlint's place line, `    ,-[test/a.ts:13:3]` (`╭─[`), under its problem's mark line: the newest line of the
   * tail, taken back as the problem (see the header).
   */
  private oxlintPlace(l: Line, f: Facts): bool {
    let p = l.skipSpaces(0);
    let q = -1;
    if (l.matchAt(",-[", p)) q = p + 3;
    else if (matchBytes(l, OX_CORNER, p)) q = p + OX_CORNER.byteLength;
    if (q < 0) return false;
    let tl = f.tailLines;
    if (tl === null) return false;
    let mark = tl.last();
    if (mark === null) return false;
    let d = oxlintMark(mark!);
    if (d === null) return false;
    let e = l.len - 1;
    let k = l.lastIndexOfByte(Char.COLON, e);
    let j = k > q ? l.lastIndexOfByte(Char.COLON, k) : -1;
    if (j <= q || !isDigit(l.at(j + 1)) || !isDigit(l.at(k + 1))) return false;
    let line = l.readInt(j + 1);
    if (l.end != k) return false;
    let col = l.readInt(k + 1);
    if (l.end != e) return false;
    d!.file = normPath(l.str(q, j));
    d!.line = <i32>line;
    d!.col = <i32>col;
    tl.dropLast();
    f.addDiagnostic(d!);
    this.seen = true;
    this.oxBlock = true;
    return true;
  }

  /** A candidate path the next line did not make a header: no longer one, its line back to the tail. */
  private drop(f: Facts): void {
    if (this.held !== null) f.released.push(this.held!);
    this.held = null;
    this.candidate = null;
  }

  /** A problem of the unix or compact formatter, on one column-0 line. */
  private oneLine(l: Line, f: Facts): bool {
    let last = l.at(l.len - 1);
    if (last != Char.RBRACKET && last != Char.RPAREN && last != Char.DOT) return false;
    let k = l.headColon();
    if (k <= 0) return false;
    // Read into locals: the Diagnostic is made only for a line that is one (a go `--- PASS: TestX (0.00s)`
    // ends the same way, and a repeated log's garbage grew the memory).
    let m = -1; let end = l.len;
    let sev = ""; let code: string | null = null; let line: i64 = -1; let col: i64 = -1;
    if (l.matchAt(": line ", k)) {
      // compact: `path: line 40, col 9, Error - message (rule)`.
      line = l.readInt(k + 7);
      if (line < 0 || !l.matchAt(", col ", l.end)) return false;
      col = l.readInt(l.end + 6);
      if (col < 0) return false;
      let p = l.end;
      if (l.matchAt(", Error - ", p)) { sev = "error"; m = p + 10; }
      else if (l.matchAt(", Warning - ", p)) { sev = "warning"; m = p + 12; }
      else return false;
      if (last == Char.RPAREN) {
        let o = l.lastIndexOf(" (");
        if (o > m && l.indexOfByte(Char.SPACE, o + 2) < 0) { code = l.str(o + 2, l.len - 1); end = o; }
      }
    } else {
      // unix: `path:40:9: message [Error/rule]`: the place is the two numbers before the first ": ".
      if (last != Char.RBRACKET) return false;
      let b = l.lastIndexOf(" [");
      if (b <= k) return false;
      let sv = b + 2;
      if (l.matchAt("Error", sv)) { sev = "error"; sv += 5; }
      else if (l.matchAt("Warning", sv)) { sev = "warning"; sv += 7; }
      else return false;
      if (sv != l.len - 1) {
        if (l.at(sv) != Char.SLASH) return false;
        code = l.str(sv + 1, l.len - 1);
      }
      let q = k - 1;
      while (q > 0 && isDigit(l.at(q))) q--;
      if (q == k - 1 || l.at(q) != Char.COLON) return false;
      let colAt = q + 1;
      let r = q - 1;
      while (r > 0 && isDigit(l.at(r))) r--;
      if (r == q - 1 || l.at(r) != Char.COLON) return false;
      line = l.readInt(r + 1); col = l.readInt(colAt);
      k = r; m = l.headColon() + 2; end = b;
    }
    let path = l.str(0, k);
    if (!lintedPath(path)) return false;
    let d = new Diagnostic();
    d.severity = sev; d.code = code; d.line = <i32>line; d.col = <i32>col;
    d.tool = "eslint";
    d.file = normPath(path);
    let msg = l.trimmed(m, end);
    // stylish's `message.replace(/([^ ])\.$/u, "$1")`.
    if (msg.length > 1 && msg.charCodeAt(msg.length - 1) == Char.DOT && msg.charCodeAt(msg.length - 2) != Char.SPACE) msg = msg.substring(0, msg.length - 1);
    d.message = msg;
    f.addDiagnostic(d);
    this.seen = true;
    return true;
  }

  private staticcheckProblem(l: Line, f: Facts, file: string): bool {
    let e = staticcheckProblemAt(l);
    if (e < 0 || !file.endsWith(".go")) return false;
    let line = l.readInt(3);
    let col = l.readInt(l.end + 2);
    let c = l.skipSpaces(e);
    let ce = l.indexOfByte(Char.SPACE, c);
    if (ce <= c) return false;
    let d = new Diagnostic();
    d.tool = "staticcheck";
    d.severity = "error";
    d.file = file;
    d.line = <i32>line;
    d.col = <i32>col;
    d.code = l.str(c, ce);
    d.message = l.trimmed(l.skipSpaces(ce));
    f.addDiagnostic(d);
    this.seen = true;
    return true;
  }

  /** `  40:9  error  message  rule-id` (`   9:1` above a `100:1`); also the fixable count under the summary. */
  private problem(l: Line, f: Facts, file: string): bool {
    // Two spaces, and more before a shorter line number: stylish right-aligns `line:col` within a file
    // (`    4:16  warning …` above `  111:19  warning …`).
    let p = l.skipSpaces(0);
    if (p == 2 && l.at(2) == Char.LPAREN) return this.staticcheckProblem(l, f, file);
    if (p < 2 || p > 9 || !isDigit(l.at(p))) return false;
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
      rest = rest.substring(0, gap).trimStart().trimEnd();
    }
    d.message = rest;
    f.addDiagnostic(d);
    this.seen = true;
    return true;
  }
}

/**
 * staticcheck's `-f stylish` (ESLint's layout for Go: the file's path alone, then a line a finding): `  (6, 5)
 * S1002   should omit comparison to bool constant, can be simplified to b`, its check's code then the message
 * (tab-aligned). No severity is printed: its findings are errors, as its text format's (`lint.go:6:5: … (S1002)`).
 */
function staticcheckProblemAt(l: Line): i32 {
  let line = l.readInt(3);
  if (line < 0 || !l.matchAt(", ", l.end)) return -1;
  let col = l.readInt(l.end + 2);
  if (col < 0 || l.at(l.end) != Char.RPAREN || l.at(l.end + 1) != Char.SPACE) return -1;
  return l.end + 1;
}

/** The kinds of file ESLint reads (its own and its plugins'): a path that ends in one may be a header. */
const LINTED: string[] = [".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx", ".vue", ".svelte", ".md", ".json", ".html", ".go"];

function lintedPath(p: string): bool {
  if (p.indexOf(" ") >= 0) return false;
  for (let i = 0; i < LINTED.length; i++) if (p.endsWith(LINTED[i])) return true;
  return false;
}

/** A rule id or a message source as vfile-reporter prints them: lower-case letters, digits, `-`, `:`, `/`, `@`, `.`. */
function ruleWord(s: string, a: i32, b: i32): bool {
  if (b <= a) return false;
  for (let i = a; i < b; i++) {
    let c = s.charCodeAt(i);
    if (!((c >= 0x61 && c <= 0x7A) || isDigit(c) || c == Char.MINUS || c == Char.COLON || c == Char.SLASH || c == Char.AT || c == Char.DOT)) return false;
  }
  return true;
}

/** vfile-reporter's closing line: `⚠ 1 warning`, `✖ 2 errors`, `2 messages (✖ 1 error, ⚠ 1 warning)`. */
function vfileSummary(l: Line, c: i32): bool {
  if (isDigit(c)) {
    let n = l.readInt(0);
    return n >= 0 && l.matchAt(" messages (", l.end) && l.at(l.len - 1) == Char.RPAREN;
  }
  let p = matchBytes(l, P_ERR, 0) || matchBytes(l, P_WARN, 0) ? 3 : -1;
  if (p < 0 || l.at(p) != Char.SPACE) return false;
  let n = l.readInt(p + 1);
  if (n < 0 || l.at(l.end) != Char.SPACE) return false;
  let e = l.end + 1;
  return (l.matchAt("error", e) || l.matchAt("warning", e)) && l.indexOfByte(Char.SPACE, e) < 0;
}

/** Pretty's closing `  3 errors` / `  1 warning`, two in. */
function prettySummary(l: Line): bool {
  let n = l.readInt(2);
  if (n < 0 || l.at(l.end) != Char.SPACE) return false;
  let e = l.end + 1;
  return (l.matchAt("error", e) && (l.len == e + 5 || (l.len == e + 6 && l.at(e + 5) == 0x73)))
    || (l.matchAt("warning", e) && (l.len == e + 7 || (l.len == e + 8 && l.at(e + 7) == 0x73)));
}

/** The unix and compact formatters' closing `2 problems` (`1 problem`). */
function plainSummary(l: Line): bool {
  let n = l.readInt(0);
  if (n < 0) return false;
  return (l.matchAt(" problems", l.end) && l.end + 9 == l.len) || (l.matchAt(" problem", l.end) && l.end + 8 == l.len);
}

function lintedFile(l: Line): bool {
  for (let i = 0; i < LINTED.length; i++) {
    let e = LINTED[i];
    if (l.len > e.length && l.matchAt(e, l.len - e.length)) return true;
  }
  return false;
}

/** oxlint's mark line, `  ! eslint(no-unused-expressions): Expected expression to be used`: its problem, unplaced. */
function oxlintMark(s: string): Diagnostic | null {
  if (!s.startsWith("  ")) return null;
  let sev = "";
  let p = 2;
  if (s.startsWith("x ", 2)) { sev = "error"; p = 4; }
  else if (s.startsWith("! ", 2)) { sev = "warning"; p = 4; }
  else if (s.startsWith("\u00d7 ", 2)) { sev = "error"; p = 4; }
  else if (s.startsWith("\u26a0 ", 2)) { sev = "warning"; p = 4; }
  else return null;
  // `plugin(rule-id): message`: an identifier, the rule in parentheses, then `: `.
  let open = s.indexOf("(", p);
  let close = s.indexOf("): ", p);
  if (open <= p || close <= open + 1 || s.indexOf(" ", p) < close) return null;
  let d = new Diagnostic();
  d.tool = "oxlint";
  d.severity = sev;
  d.code = s.substring(p, close + 1);
  d.message = s.substring(close + 3).trimEnd();
  return d;
}

/** oxlint's closing lines: `Found 6 warnings and 0 errors.`, `Finished in 76ms on 3 files with 96 rules using 2 threads.` */
function oxlintClosing(l: Line): bool {
  if (l.startsWith("Found ")) return isDigit(l.at(6)) && l.contains(" warning") && l.contains(" error") && l.at(l.len - 1) == Char.DOT;
  return l.startsWith("Finished in ") && l.contains(" files with ") && l.contains(" rules");
}
