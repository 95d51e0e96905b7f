// PHP's own errors, as the CLI prints them (Debian's php-cli logs them to stderr with a `PHP ` prefix; with
// display_errors on they read the same without it):
//   PHP Fatal error:  Uncaught RuntimeException: too big: 5 in /w/ex.php:3
//   Stack trace:
//   #0 /w/ex.php(7): f()
//   #1 {main}
//     thrown in /w/ex.php on line 3
//   PHP Parse error:  syntax error, unexpected token ";" in /w/parse.php on line 3
//   PHP Warning:  Undefined array key "k" in /w/warn.php on line 3
// An uncaught exception (and any other fatal error: memory exhausted, a redeclared function) is the run's crash,
// tool "php", kind the exception's class (`Fatal error` for the others), placed where it was thrown, its frames
// the stack trace's (frame #k is the call made at the place #k names, inside the function #k+1 names: each
// place goes with the function of the line above it). A parse error is an error diagnostic; a warning, a
// deprecation or a notice a warning diagnostic. An exception thrown with a previous one prints the chain innermost
// first: the previous exception's trace, a blank line, then `Next RuntimeException: msg in /w/x.php:9` and its
// trace; the last `Next` is the one uncaught: the crash's kind, message and place, its frames before the
// previous ones' (as Java's thrown exception and its `Caused by:`).
import { Line } from "../../util/line";
import { Facts, Crash, Frame, Diagnostic } from "../../model";
import { Parser } from "../../parser";
import { ByteSet } from "../../util/byte-set";
import { setLocation, classify } from "../../frames";
import { commitCrash, pushFrame, renumber } from "../runtime-common";

/** At rest: `PHP ` and the kinds without it (`Fatal error: `, `Parse error: `, `Warning: `, `Deprecated: `, `Notice: `). */
const STARTS = new ByteSet().chars("PFWDN");

@final
export class PhpErrorParser extends Parser {
  private active: bool = false;
  private crash: Crash | null = null;
  /** The place of the frame the next `#k` line names the function of. */
  private pending: Frame | null = null;
  /** A blank line in the trace: a `Next` exception may follow. */
  private blank: bool = false;
  /** The frames of the exceptions before the `Next` one being read (its previous ones). */
  private cause: Array<Frame> | null = null;

  busy(): bool { return this.active; }
  atRest(): bool { return !this.active; }
  starts(): ByteSet | null { return STARTS; }

  finish(f: Facts): void { this.close(); }

  claim(l: Line, f: Facts): bool {
    if (this.active) {
      if (this.more(l)) return true;
      this.close();
    }
    let p = l.startsWith("PHP ") ? 4 : 0;
    let colon = l.indexOf(":  ", p);
    if (colon < 0) colon = l.indexOf(": ", p);
    if (colon < 0) return false;
    let kind = l.str(p, colon);
    let text = l.trimmed(colon + 1);
    if (kind == "Fatal error") return this.fatal(f, text, l.trimmed(0));
    let sev: string;
    if (kind == "Parse error") sev = "error";
    else if (kind == "Warning" || kind == "Deprecated" || kind == "Notice") sev = "warning";
    else return false;
    // `msg in /w/x.php on line 3`
    let at = text.lastIndexOf(" in ");
    let on = text.lastIndexOf(" on line ");
    if (at < 0 || on < at) return false;
    let line = I64.parseInt(text.substring(on + 9));
    if (line <= 0) return false;
    let d = new Diagnostic();
    d.tool = "php";
    d.severity = sev;
    d.file = normFile(text.substring(at + 4, on));
    d.line = line;
    d.message = text.substring(0, at);
    f.addDiagnostic(d);
    return true;
  }

  private fatal(f: Facts, text: string, summary: string): bool {
    let c = new Crash();
    c.tool = "php";
    c.summary = summary;
    let top = new Frame();
    if (text.startsWith("Uncaught ")) {
      // `Uncaught App\Err: msg in /w/x.php:3`
      let body = text.substring(9);
      let at = body.lastIndexOf(" in ");
      let colon = body.indexOf(": ");
      if (at < 0) return false;
      c.kind = colon > 0 && colon < at ? body.substring(0, colon) : body.substring(0, at);
      c.message = colon > 0 && colon < at ? body.substring(colon + 2, at) : c.kind;
      if (!setLocation(top, body.substring(at + 4))) return false;
    } else {
      // `Allowed memory size of … exhausted … in /w/x.php on line 5`
      let at = text.lastIndexOf(" in ");
      let on = text.lastIndexOf(" on line ");
      if (at < 0 || on < at) return false;
      c.kind = "Fatal error";
      c.message = text.substring(0, at);
      top.file = normFile(text.substring(at + 4, on));
      top.line = I64.parseInt(text.substring(on + 9));
    }
    classify(top);
    this.active = true;
    if (f.crash !== null) { f.crashCount++; this.crash = null; return true; }
    this.crash = c;
    this.pending = top;
    commitCrash(f, c);
    return true;
  }

  /** `Stack trace:`, `#0 /w/x.php(7): f()`, `#1 {main}`, `  thrown in /w/x.php on line 3`. */
  private more(l: Line): bool {
    if (l.isBlank()) { if (this.blank) return false; this.blank = true; return true; }
    if (this.blank) {
      this.blank = false;
      return l.startsWith("Next ") && this.next(l);
    }
    if (l.startsWith("Stack trace:")) return true;
    let p = l.skipSpaces(0);
    if (p > 0 && l.matchAt("thrown in ", p)) { this.close(); return true; }
    if (l.at(0) != 0x23) return false;
    let sp = l.indexOf(" ");
    if (sp < 0) return false;
    let rest = l.trimmed(sp + 1);
    let c = this.crash;
    let pend = this.pending;
    if (rest == "{main}") {
      if (c !== null && pend !== null) { pend.fn = "{main}"; pushFrame(c.frames, pend); }
      this.pending = null;
      return true;
    }
    // `/w/x.php(7): Cls->f('a')`
    let close = rest.indexOf("): ");
    let open = close > 0 ? rest.lastIndexOf("(", close) : -1;
    if (open <= 0) return true;
    let fn = rest.substring(close + 3);
    let paren = fn.indexOf("(");
    if (paren > 0) fn = fn.substring(0, paren);
    if (c !== null && pend !== null) { pend.fn = fn; pushFrame(c.frames, pend); }
    let fr = new Frame();
    fr.file = normFile(rest.substring(0, open));
    fr.line = I64.parseInt(rest.substring(open + 1, close));
    classify(fr);
    this.pending = fr;
    return true;
  }

  /** `Next RuntimeException: msg in /w/x.php:9`: the exception thrown with the one above as its previous. */
  private next(l: Line): bool {
    let body = l.trimmed(5);
    let at = body.lastIndexOf(" in ");
    if (at < 0) return false;
    let top = new Frame();
    if (!setLocation(top, body.substring(at + 4))) return false;
    classify(top);
    let c = this.crash;
    if (c !== null) {
      let pend = this.pending;
      if (pend !== null && c.frames.length == 0) pushFrame(c.frames, pend);
      let prev = this.cause;
      if (prev === null) prev = new Array<Frame>();
      // this exception's frames go before those of the ones it was thrown with
      let fs = c.frames;
      for (let i = 0; i < fs.length; i++) pushFrame(prev, unchecked(fs[i]));
      this.cause = prev;
      c.frames = new Array<Frame>();
      let colon = body.indexOf(": ");
      c.kind = colon > 0 && colon < at ? body.substring(0, colon) : body.substring(0, at);
      c.message = colon > 0 && colon < at ? body.substring(colon + 2, at) : c.kind;
    }
    this.pending = top;
    return true;
  }

  private close(): void {
    if (!this.active) return;
    this.active = false;
    this.blank = false;
    let c = this.crash;
    let pend = this.pending;
    if (c !== null && pend !== null && c.frames.length == 0) pushFrame(c.frames, pend);
    let prev = this.cause;
    this.cause = null;
    if (c !== null && prev !== null) for (let i = 0; i < prev.length; i++) pushFrame(c.frames, unchecked(prev[i]));
    this.crash = null;
    this.pending = null;
    if (c !== null) renumber(c.frames);
  }
}

function normFile(s: string): string {
  let fr = new Frame();
  if (setLocation(fr, s + ":1") && fr.file !== null) return fr.file!;
  return s;
}
