// javac's diagnostics (the JDK's compiler, its default plain format):
//
//   src/main/java/a/Foo.java:12: error: cannot find symbol        `path.java:line: error|warning: message`
//           return totl;                                          the source line
//                  ^                                              the caret: its column is the diagnostic's
//     symbol:   variable totl                                     detail lines, indented: `symbol:` is what tells
//     location: class Foo                                         two `cannot find symbol` apart (the label)
//   Foo.java:10: warning: [rawtypes] found raw type: List         -Xlint's category in brackets: the code
//   2 errors                                                      javac's closing counts
//   3 warnings
//   Note: Foo.java uses unchecked or unsafe operations.           mandatory notes (no -Xlint): a note of the file,
//   Note: Recompile with -Xlint:unchecked for details.            not counted (javac does not count them either)
//   error: warnings found and -Werror specified                   javac's own errors, no file (own())
//   warning: [path] bad path element "/usr/share/java/x.jar": no such file or directory     and warnings, of the
//   warning: [options] bootstrap class path not set in conjunction with -source 8          categories with no file
//
// No column is printed on the header line: the caret gives it (javac copies the source line's tabs into the
// caret line, so its offset is the column). Without this reader gcc's parser took the header (`tool: clang`, no
// column) and left the caret and detail lines in the tail.
import { Char, isIdent, isDigit, isSpace } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts, Diagnostic } from "../../model";
import { Parser } from "../../parser";
import { ByteSet } from "../../util/byte-set";
import { DiagContext, addNote } from "../diag-context";

const enum State { NONE = 0, SOURCE = 1, CARET = 2, DETAIL = 3 }

/**
 * At rest: `N error(s)`/`N warning(s)` (digits), `Note: ...`, javac's own `error: ...` / `warning: [path] ...`,
 * or a header (head colon).
 */
const STARTS = new ByteSet().chars("0123456789New");

@final
export class JavacParser extends Parser {
  private ctx: DiagContext;
  private state: i32 = State.NONE;
  private last: Diagnostic | null = null;
  /** A javac header was read in this log: its closing counts are javac's. */
  private seen: bool = false;

  constructor(ctx: DiagContext) { super(); this.ctx = ctx; }

  busy(): bool { return this.state != State.NONE; }
  atRest(): bool { return this.state == State.NONE; }
  starts(): ByteSet | null { return STARTS; }
  headColonStarts(): bool { return true; }

  claim(l: Line, f: Facts): bool {
    let k = l.headColon();
    if (k > 0 && this.header(l, f, k)) return true;
    let st = this.state;
    if (st == State.SOURCE) {
      // the source line, whatever it holds (a diagnostic without one is followed by the next header, read above)
      if (l.isBlank()) { this.state = State.NONE; return false; }
      this.state = State.CARET;
      return true;
    }
    if (st == State.CARET) {
      let p = l.skipSpaces(0);
      if (l.at(p) == Char.CARET && l.skipSpaces(p + 1) >= l.len) {
        let d = this.last;
        if (d !== null) d.col = p + 1;
        this.state = State.DETAIL;
        return true;
      }
      this.state = State.DETAIL;
    }
    if (this.state == State.DETAIL) {
      if (l.len > 0 && isSpace(l.at(0)) && !l.isBlank()) {
        let p = l.skipSpaces(0);
        let d = this.last;
        if (d !== null && d.label === null && l.matchAt("symbol:", p)) d.label = l.trimmed(p + 7);
        return true;
      }
      this.state = State.NONE;
    }
    return this.closing(l, f);
  }

  /** `Foo.java:12: error: msg` / `Foo.java:10: warning: [rawtypes] msg`; k is the first ": ". */
  private header(l: Line, f: Facts, k: i32): bool {
    if (k == 5 && l.startsWith("error: ")) return this.own(l, f);
    if (k == 7 && l.startsWith("warning: [")) return this.ownWarning(l, f);
    let t = k;
    while (t > 0 && isDigit(l.at(t - 1))) t--;
    if (t == k || t < 6 || l.at(t - 1) != Char.COLON || !l.matchAt(".java", t - 6)) return false;
    let m = k + 2;
    let sev = "";
    if (l.matchAt("error: ", m)) { sev = "error"; m += 7; }
    else if (l.matchAt("warning: ", m)) { sev = "warning"; m += 9; }
    else return false;
    let d = new Diagnostic();
    d.tool = "javac";
    d.severity = sev;
    let s = l.at(0) == Char.COLON ? gluedTask(l, t - 1) : 0;
    if (s < 0) return false;
    d.file = this.ctx.resolve(l.str(s, t - 1));
    d.line = l.readInt(t);
    d.col = -1;
    // -Xlint's category: `[rawtypes] found raw type: List`
    if (l.at(m) == Char.LBRACKET) {
      let close = l.indexOfByte(Char.RBRACKET, m);
      if (close > m + 1 && l.at(close + 1) == Char.SPACE) {
        d.code = l.str(m + 1, close);
        m = close + 2;
      }
    }
    d.message = l.trimmed(m);
    f.addDiagnostic(d);
    this.last = d;
    this.seen = true;
    this.state = State.SOURCE;
    return true;
  }

  /**
   * javac's own error, with no file: `error: warnings found and -Werror specified` (after the warnings it made
   * errors), `error: file not found: Foo.java`, `error: invalid flag: -Xfoo`, `error: no source files`. Another
   * `error: ...` at column 0 is javac's only after one of its headers in this log.
   */
  private own(l: Line, f: Facts): bool {
    let m = l.trimmed(7);
    if (!this.seen && m != "warnings found and -Werror specified" && m != "no source files" &&
        !m.startsWith("file not found: ") && !m.startsWith("invalid flag: ")) return false;
    let d = new Diagnostic();
    d.tool = "javac";
    d.severity = "error";
    d.message = m;
    f.addDiagnostic(d);
    this.last = d;
    this.seen = true;
    this.state = State.NONE;
    return true;
  }

  /**
   * javac's own warning, with no file, of a -Xlint category about the command rather than a source: `warning: [path]
   * bad path element "/usr/share/java/cglib.jar": no such file or directory` (a jar's manifest Class-Path naming a
   * missing jar), `warning: [options] system modules path not set in conjunction with -source 11`. The category
   * is its code.
   */
  private ownWarning(l: Line, f: Facts): bool {
    let isPath = l.matchAt("[path] ", 9);
    if (!isPath && !l.matchAt("[options] ", 9)) return false;
    let d = new Diagnostic();
    d.tool = "javac";
    d.severity = "warning";
    d.code = isPath ? "path" : "options";
    d.message = l.trimmed(isPath ? 16 : 19);
    f.addDiagnostic(d);
    this.last = d;
    this.seen = true;
    this.state = State.NONE;
    return true;
  }

  /** javac's closing `2 errors` / `1 warning` (after one of its headers), and its `Note: ...` lines. */
  private closing(l: Line, f: Facts): bool {
    let c0 = l.at(0);
    if (isDigit(c0)) {
      if (!this.seen) return false;
      let n = l.readInt(0);
      let e = l.end;
      if (n < 0) return false;
      let rest = l.trimmed(e);
      return rest == "error" || rest == "errors" || rest == "warning" || rest == "warnings";
    }
    if (c0 != Char.N || !l.startsWith("Note: ")) return false;
    // `Note: Foo.java uses unchecked or unsafe operations.`, `Note: Foo.java uses or overrides a deprecated API.`,
    // `Note: Some input files use ...`, `Note: Recompile with -Xlint:unchecked for details.`,
    // `Note: Some messages have been simplified; recompile with -Xdiags:verbose to get full output`
    let u = l.indexOf(".java uses ", 6);
    if (u > 6 && l.indexOfByte(Char.SPACE, 6) == u + 5) {
      let d = new Diagnostic();
      d.tool = "javac";
      d.severity = "note";
      d.file = this.ctx.resolve(l.str(6, u + 5));
      d.message = l.trimmed(u + 6);
      addNote(f, null, d);
      return true;
    }
    return l.matchAt("Some input files ", 6) || l.matchAt("Recompile with -X", 6) ||
      (l.matchAt("Some messages have been simplified", 6));
  }
}

/**
 * Where the path starts behind Gradle 4's task name (its plain console prints `:compileJava` with no newline, so
 * the compiler's first line follows it: `:compileJava/work/src/main/java/a/Foo.java:12: error: …`), or -1. No
 * path begins with `:`; the task's name is letters, digits, `_`, `-` and the `:` between projects, the path's
 * first byte a `/` or a `.`.
 */
function gluedTask(l: Line, end: i32): i32 {
  let i = 1;
  while (i < end) {
    let c = l.at(i);
    if (!(isIdent(c) || c == Char.MINUS || c == Char.COLON)) break;
    i++;
  }
  let c = l.at(i);
  return i > 1 && i < end && (c == Char.SLASH || c == Char.DOT) ? i : -1;
}
