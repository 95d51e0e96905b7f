// Ruby's own reports (ruby 3.1; 3.4's quotes too), outside a test runner:
//   An uncaught exception: its innermost frame, the message and the class on the first line, the callers under it
//     stats.rb:3:in `/': divided by 0 (ZeroDivisionError)          (3.4: in 'Integer#/')
//     	from stats.rb:7:in `summarize'
//   (a message of several lines goes on under the first; error_highlight's code excerpt and carets, and
//   did_you_mean's `Did you mean?  strip`, follow after a blank line, before the `from` lines). The crash is tool
//   "ruby", kind the class, message its text, the frames innermost first.
//   A syntax error, as the parser reports a file it reads: `syn.rb:5: syntax error, unexpected ...`, then the
//   source line and a caret under the column: an error diagnostic (tool ruby). A file loaded by require that does
//   not parse raises it as an exception, `req.rb:1:in `require_relative': /w/syn.rb:5: syntax error, ...
//   (SyntaxError)`: the same diagnostic, at the place its message names; its cause printed under it (a LoadError
//   rubygems rescued before requiring it) is no crash.
// RuboCop's offenses (its default progress format, clang's and emacs'), one a line: `lib/a.rb:39:68: C: [Correctable]
//   Style/AndOr: Use || instead of or.` (the place, the severity's letter, `[Correctable]` or `[Corrected]` when it
//   can fix it, the cop `Department/Name`, the message), then in the progress and clang formats the source line and a
//   caret line under the offense (`   ^^`). Its letters: E and F (error, fatal) errors, C, W and R (convention,
//   warning, refactor) warnings, I (info) a note. Each finding is tool "rubocop", its cop the code. An offense `-a`
//   corrected (`[Corrected]`) is no finding: the file no longer has it.
import { Char, isDigit, isSpace, isIdent } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts, Crash, Frame, Diagnostic } from "../../model";
import { Parser } from "../../parser";
import { ByteSet } from "../../util/byte-set";
import { setLocation, normPath, classify } from "../../frames";
import { commitCrash, pushFrame, renumber } from "../runtime-common";
import { isConstPath } from "../runners/common";

const NONE = new ByteSet();
const SYNTAX = ": syntax error, ";
const FROM = "from ";
const MAX_SYNTAX_LINES: i32 = 400;

const enum St { IDLE, EXC, SYN, COP }

@final
export class RubyParser extends Parser {
  private st: St = St.IDLE;
  private crash: Crash | null = null;
  private diag: Diagnostic | null = null;
  /** Lines after the head before its first `from`: the message's own, then (after a blank) the excerpt. */
  private extra: i32 = 0;
  private blank: bool = false;
  private froms: bool = false;
  /** The syntax error's source line was seen: the next is its caret line. */
  private src: i32 = 0;
  private f: Facts | null = null;

  busy(): bool { return this.st != St.IDLE; }
  atRest(): bool { return this.st == St.IDLE; }
  /** At rest: only a line with a head colon (`x.rb:3:in ...: `, `x.rb:5: syntax error, `). */
  starts(): ByteSet | null { return NONE; }
  headColonStarts(): bool { return true; }

  /** RuboCop's offenses read that fail its run (neither info nor `[Corrected]`). */
  private cops: i32 = 0;

  finish(f: Facts): void {
    this.close();
    // RuboCop exits 1 when an offense it did not correct is at or above its fail level (refactor, by default).
    let n = this.cops;
    if (n > 0 && f.buildFailedLine === null) f.buildFailedLine = "rubocop reported " + n.toString() + (n == 1 ? " offense" : " offenses");
  }

  claim(l: Line, f: Facts): bool {
    this.f = f;
    // Ruby prints the raised exception, then its cause (`…: cannot load such file -- x (LoadError)` and its own
    // `from` lines), with nothing between: the cause of a SyntaxError read as a diagnostic is no crash either.
    let cause = false;
    if (this.st == St.EXC) {
      if (this.more(l)) return true;
      cause = this.diag !== null && this.froms;
      this.close();
    } else if (this.st == St.SYN) {
      if (this.caret(l)) return true;
      this.close();
    } else if (this.st == St.COP) {
      let r = rubocop(l, f);
      if (r > 0) { this.cops += r - 1; this.src = 0; return true; }
      if (this.copSource(l)) return true;
      this.close();
    }
    if (l.len == 0 || l.at(0) == Char.SPACE || l.at(0) == Char.TAB) return false;
    let r = rubocop(l, f);
    if (r > 0) { this.cops += r - 1; this.st = St.COP; this.src = 0; return true; }
    // On the bytes first: most lines with a head colon are neither kind (no string made for them).
    if (l.indexOf(SYNTAX) <= 0) {
      let e = l.len;
      while (e > 0 && isSpace(l.at(e - 1))) e--;
      if (e == 0 || l.at(e - 1) != Char.RPAREN || l.indexOf(":in ") <= 0) return false;
    }
    let s = l.trimmed(0);
    // `syn.rb:5: syntax error, unexpected ...`
    let k = s.indexOf(SYNTAX);
    if (k > 0 && !s.includes(":in ")) {
      let d = syntaxDiag(s.substring(0, k), s.substring(k + 2));
      if (d === null) return false;
      f.addDiagnostic(d!);
      this.diag = d;
      this.st = St.SYN;
      this.src = 0;
      return true;
    }
    return this.head(s, f, cause);
  }

  /** `loc:in `fn': message (Class)`: an uncaught exception's first line. */
  private head(s: string, f: Facts, cause: bool): bool {
    let i = s.indexOf(":in ");
    if (i <= 0) return false;
    let loc = s.substring(0, i);
    if (loc.includes(" ")) return false;
    let q = s.charCodeAt(i + 4);
    if (q != Char.BACKTICK && q != 0x27) return false;
    let close = s.indexOf("': ", i + 5);
    if (close < 0) return false;
    if (!s.endsWith(")")) return false;
    let open = s.lastIndexOf(" (");
    if (open <= close) return false;
    let kind = s.substring(open + 2, s.length - 1);
    if (!isConstPath(kind)) return false;
    let fr = frameAt(loc, s.substring(i + 5, close));
    if (fr === null) return false;
    let msg = s.substring(close + 3, open);
    // A SyntaxError from a file loaded by require: the error is where its message says.
    if (kind == "SyntaxError") {
      let k = msg.indexOf(SYNTAX);
      if (k > 0) {
        let d = syntaxDiag(msg.substring(0, k), msg.substring(k + 2));
        if (d !== null) { f.addDiagnostic(d!); this.diag = d; }
      }
    }
    this.st = St.EXC;
    this.extra = 0;
    this.blank = false;
    this.froms = false;
    this.crash = null;
    if (this.diag !== null || cause) return true;
    if (f.crash !== null) { f.crashCount++; return true; }
    let c = new Crash();
    c.tool = "ruby";
    c.kind = kind;
    c.message = msg;
    c.summary = s;
    pushFrame(c.frames, fr!);
    this.crash = c;
    commitCrash(f, c);
    return true;
  }

  /** A `\tfrom loc:in `fn'` frame; before the first, the message's further lines and error_highlight's excerpt. */
  private more(l: Line): bool {
    let p = l.skipSpaces(0);
    if (p > 0 && l.matchAt(FROM, p)) {
      let s = l.trimmed(p + FROM.length);
      let i = s.indexOf(":in ");
      let fr = i > 0 ? frameAt(s.substring(0, i), s.substring(i + 5, s.length - 1)) : frameAt(s, "");
      let c = this.crash;
      if (fr !== null && c !== null) pushFrame(c.frames, fr!);
      this.froms = true;
      return fr !== null;
    }
    // `\t ... 10067 levels...` (a deep recursion's elided frames)
    if (this.froms) return p > 0 && l.matchAt("... ", p) && l.endsWith(" levels...");
    // A required file's further syntax errors, in the SyntaxError's message: diagnostics of their own.
    if (p == 0 && this.diag !== null) {
      let s = l.trimmed(0);
      let k = s.indexOf(SYNTAX);
      if (k > 0) {
        let d = syntaxDiag(s.substring(0, k), s.substring(k + 2));
        if (d !== null) { this.f!.addDiagnostic(d!); this.diag = d; this.extra = 0; return true; }
      }
    }
    // A required file's SyntaxError names all its syntax errors, each with its source and caret (and `Invalid return`
    // lines), before its `from` lines: up to MAX_SYNTAX_LINES of them.
    if (this.extra >= (this.diag !== null ? MAX_SYNTAX_LINES : 8)) return false;
    this.extra++;
    if (l.isBlank()) { this.blank = true; return true; }
    // The caret under a required file's syntax error (its source line above it).
    let d = this.diag;
    if (d !== null && d.col < 0 && this.extra == 2) {
      let k = l.indexOfByte(Char.CARET, 0);
      if (k >= 0) d.col = k + 1;
    }
    let c = this.crash;
    if (!this.blank && c !== null && this.extra <= 5) c.message = c.message! + "\n" + l.trimmed(0);
    return true;
  }

  /** The syntax error's source line, then the caret under its column (`  ^~~~`). */
  private caret(l: Line): bool {
    if (this.src >= 2 || l.isBlank()) return false;
    this.src++;
    if (this.src == 2) {
      let c = l.indexOfByte(Char.CARET, 0);
      if (c < 0) return false;
      let d = this.diag;
      if (d !== null && d.col < 0) d.col = c + 1;
    }
    return true;
  }

  /** After a RuboCop offense: the source line it is on, then the caret line under it (progress and clang formats). */
  private copSource(l: Line): bool {
    if (this.src >= 2) return false;
    this.src++;
    if (this.src == 1) return true;
    let p = l.skipSpaces(0);
    if (p >= l.len || l.at(p) != Char.CARET) return false;
    while (p < l.len && l.at(p) == Char.CARET) p++;
    return p == l.len;
  }

  private close(): void {
    if (this.st == St.IDLE) return;
    this.st = St.IDLE;
    this.diag = null;
    this.f = null;
    let c = this.crash;
    this.crash = null;
    if (c !== null) renumber(c.frames);
  }
}

function syntaxDiag(loc: string, msg: string): Diagnostic | null {
  let fr = new Frame();
  if (loc.includes(" ") || !setLocation(fr, loc) || fr.file === null || fr.line <= 0) return null;
  let d = new Diagnostic();
  d.tool = "ruby";
  d.severity = "error";
  d.file = normPath(fr.file!);
  d.line = fr.line;
  d.message = msg;
  return d;
}

/** The frame `loc` (`stats.rb:3`) in fn, classified (Ruby's stdlib and gems are not the user's); null when loc is no place. */
function frameAt(loc: string, fn: string): Frame | null {
  let fr = new Frame();
  if (!setLocation(fr, loc) || fr.file === null || fr.line <= 0) return null;
  fr.file = normPath(fr.file!);
  if (fn.length > 0) fr.fn = fn;
  classify(fr);
  return fr;
}


/**
 * A RuboCop offense, `path:L:C: S: [Correctable] Dept/Cop: message` (the bracketed mark optional), added as a finding:
 * 2 when it fails the run, 1 when not (info; `[Corrected]`, not added); 0 when the line is none.
 */
function rubocop(l: Line, f: Facts): i32 {
  let k = l.headColon();
  // `: S: `, S one of RuboCop's severity letters, after `path:L:C`.
  if (k <= 0 || l.at(k + 3) != Char.COLON || l.at(k + 4) != Char.SPACE) return 0;
  let sev = "";
  let s = l.at(k + 2);
  if (s == Char.E || s == Char.F) sev = "error";
  else if (s == Char.C || s == Char.W || s == Char.R) sev = "warning";
  else if (s == Char.I) sev = "note";
  else return 0;
  let i = k - 1;
  while (i > 0 && isDigit(l.at(i))) i--;
  if (i == k - 1 || l.at(i) != Char.COLON) return 0;
  let col = <i32>l.readInt(i + 1);
  let j = i - 1;
  while (j > 0 && isDigit(l.at(j))) j--;
  if (j == i - 1 || l.at(j) != Char.COLON) return 0;
  let line = <i32>l.readInt(j + 1);
  let m = k + 5;
  let fails = sev != "note";
  let corrected = false;
  if (l.at(m) == Char.LBRACKET) {
    let e = l.indexOf("] ", m);
    if (e < 0) return 0;
    corrected = l.matchAt("[Corrected]", m);
    m = e + 2;
  }
  // The cop: `Department/Name`, then `: `.
  let c = l.indexOf(": ", m);
  if (c < 0) return 0;
  let slash = -1;
  for (let q = m; q < c; q++) {
    let b = l.at(q);
    if (b == Char.SLASH) slash = q;
    else if (!isIdent(b)) return 0;
  }
  if (slash <= m || slash >= c - 1) return 0;
  let path = l.str(0, j);
  if (path.includes(" ")) return 0;
  // `-a` prints the offenses it corrected too: gone from the file, no finding.
  if (corrected) return 1;
  let d = new Diagnostic();
  d.tool = "rubocop";
  d.severity = sev;
  d.file = normPath(path);
  d.line = line;
  d.col = col;
  d.code = l.str(m, c);
  d.message = l.trimmed(c + 2);
  f.addDiagnostic(d);
  return fails ? 2 : 1;
}
