// The Windows debugger's crash report (cdb/WinDbg, usually `!analyze -v; k; q`): the exception line
// (`(14a8.c04): Access violation - code c0000005 (!!! second chance !!!)`, or the analysis's
// `ExceptionCode: c0000094 (Integer divide-by-zero)`), the access (`Attempt to read from address 0000..10`),
// the analysis's bucket (`DEFAULT_BUCKET_ID:  HEAP_CORRUPTION`, what names an exception cdb has no name for) and
// the `k` command's stack (`ChildEBP RetAddr` / `Child-SP RetAddr Call Site`, then `sp ret module!function+0xoff`
// lines, innermost first). A first-chance exception is one the program may handle: not a crash.
// The crash is tool `cdb`; kind the exception's name in lowercase words joined by '-' (`access-violation`,
// `stack-overflow`, `integer-divide-by-zero`), or the bucket's words when the exception has no name
// (`heap-corruption`); the access and address from the `Attempt to` line.
import { Char, isHex } from "../../util/chars";
import { Line } from "../../util/line";
import { Crash, Facts, Frame, MAX_FRAMES } from "../../model";
import { Parser } from "../../parser";
import { ByteSet } from "../../util/byte-set";
import { classify } from "../../frames";

const SECOND_CHANCE = "(!!! second chance !!!)";
const EXCEPTION_CODE = "ExceptionCode: ";
const ATTEMPT = "Attempt to ";
const BUCKET = "DEFAULT_BUCKET_ID:";
/** A bucket suffix that says Application Verifier was on, not what went wrong. */
const AVRF = "_AVRF";

/** Outside a stack: the lines it reads begin (after blanks) with `(`, `ExceptionCode`, `Attempt`, `DEFAULT_BUCKET`, `Child`. */
const STARTS = new ByteSet().chars("(EADC");

@final
export class CdbParser extends Parser {
  /** The crash this debugger session reported, or null before its exception. */
  private crash: Crash | null = null;
  /** The exception had a name of its own (else the bucket names it). */
  private named: bool = false;
  /** Inside a `k` stack. */
  private inStack: bool = false;

  busy(): bool { return this.inStack; }
  atRest(): bool { return !this.inStack; }
  starts(): ByteSet | null { return STARTS; }

  finish(f: Facts): void { this.inStack = false; }

  claim(l: Line, f: Facts): bool {
    if (this.inStack) {
      if (this.frame(l)) return true;
      this.inStack = false;
    }
    let p = l.skipSpaces(0);
    let c = l.at(p);
    if (c == Char.LPAREN && l.endsWith(SECOND_CHANCE)) return this.exception(l, p, f);
    if (c == Char.E && l.matchAt(EXCEPTION_CODE, p)) return this.exceptionCode(l, p + EXCEPTION_CODE.length, f);
    let cr = this.crash;
    if (cr === null) return false;
    if (c == Char.A && l.matchAt(ATTEMPT, p)) return this.attempt(cr, l, p + ATTEMPT.length);
    if (c == Char.D && l.matchAt(BUCKET, p)) {
      if (!this.named) {
        let k = this.bucketKind(l.trimmed(p + BUCKET.length));
        if (k.length > 0) cr.kind = k;
      }
      return true;
    }
    if (c == Char.C && (l.matchAt("ChildEBP RetAddr", p) || l.matchAt("Child-SP ", p))) {
      // `k` prints the stack again after the analysis: the last one printed is the faulting thread's.
      cr.frames = [];
      this.inStack = true;
      return true;
    }
    return false;
  }

  /** `(14a8.c04): Access violation - code c0000005 (!!! second chance !!!)`: the exception that killed it. */
  private exception(l: Line, p: i32, f: Facts): bool {
    let close = l.indexOf("): ", p);
    let dash = l.indexOf(" - code ", p);
    if (close < 0 || dash < close) return false;
    let cr = this.begin(f);
    if (cr === null) return true;
    this.setName(cr, l.str(close + 3, dash));
    return true;
  }

  /** `ExceptionCode: c0000094 (Integer divide-by-zero)`: the analysis's record of it. */
  private exceptionCode(l: Line, p: i32, f: Facts): bool {
    let e = l.skipHex(p);
    if (e == p) return false;
    let cr = this.crash;
    if (cr === null) cr = this.begin(f);
    if (cr === null) return true;
    let open = l.indexOfByte(Char.LPAREN, e);
    let close = l.lastIndexOfByte(Char.RPAREN);
    if (!this.named && open > 0 && close > open) this.setName(cr, l.str(open + 1, close));
    return true;
  }

  /** `Attempt to read from address 0000000000000010`, `Attempt to write to address ...`, `Attempt to execute ...`. */
  private attempt(cr: Crash, l: Line, p: i32): bool {
    if (l.matchAt("read ", p)) cr.access = "READ";
    else if (l.matchAt("write ", p)) cr.access = "WRITE";
    else if (l.matchAt("execute ", p)) cr.access = "EXECUTE";
    else return false;
    let a = l.indexOf(" address ", p);
    if (a > 0) {
      let s = a + 9;
      let e = s;
      while (e < l.len && (isHex(l.at(e)) || l.at(e) == Char.BACKTICK)) e++;
      if (e > s) cr.address = "0x" + without(l.str(s, e), "`");
    }
    return true;
  }

  /** A `k` stack line: `002df7e4 00fd1423 Module!Function+0x1e`; false when the line is not one. */
  private frame(l: Line): bool {
    let p = hexWord(l, 0);
    if (p <= 0 || l.at(p) != Char.SPACE) return false;
    let q = hexWord(l, p + 1);
    if (q <= p + 1 || l.at(q) != Char.SPACE) return false;
    let s = l.skipSpaces(q);
    if (s >= l.len) return false;
    let cr = this.crash!;
    let bang = l.indexOfByte(Char.BANG, s);
    // `MSHTML+0x5289` (a module without symbols) and a bare `0x000000c4`b3ae0fc3` are frames without a name.
    if (bang < 0 || cr.frames.length >= MAX_FRAMES) return true;
    let end = l.lastIndexOf("+0x");
    if (end < bang) end = l.len;
    let fr = new Frame();
    fr.index = cr.frames.length;
    fr.module = l.str(s, bang);
    fr.fn = l.str(bang + 1, end);
    classify(fr);
    cr.frames.push(fr);
    return true;
  }

  private begin(f: Facts): Crash | null {
    if (this.crash !== null) return this.crash;
    let cr = new Crash();
    cr.tool = "cdb";
    cr.kind = "exception";
    this.crash = cr;
    f.setCrash(cr);
    return cr;
  }

  /** The exception's name as the kind (`Access violation` -> `access-violation`); `Unknown exception` is none. */
  private setName(cr: Crash, name: string): void {
    let k = words(name);
    if (k.length == 0 || k == "unknown-exception") return;
    cr.kind = k;
    cr.message = name.trimStart().trimEnd();
    this.named = true;
  }

  /** `STATUS_INTEGER_OVERFLOW_AVRF` -> `integer-overflow`, `HEAP_CORRUPTION` -> `heap-corruption`. */
  private bucketKind(b: string): string {
    if (b.endsWith(AVRF)) b = b.substring(0, b.length - AVRF.length);
    if (b.startsWith("STATUS_")) b = b.substring(7);
    return words(b.replaceAll("_", " "));
  }
}

/** End of a run of hex digits and backticks (`00000000`04deadb8`) at p; p when there is none. */
function hexWord(l: Line, p: i32): i32 {
  let e = p;
  while (e < l.len && (isHex(l.at(e)) || l.at(e) == Char.BACKTICK)) e++;
  return e;
}

/** Lowercase words joined by '-': `Integer divide-by-zero` -> `integer-divide-by-zero`. */
function words(s: string): string {
  let out = "";
  let t = s.trimStart().trimEnd().toLowerCase();
  let gap = false;
  for (let i = 0; i < t.length; i++) {
    let ch = t.charCodeAt(i);
    if (ch == Char.SPACE || ch == Char.UNDERSCORE) { gap = out.length > 0; continue; }
    if (gap) { out += "-"; gap = false; }
    out += String.fromCharCode(ch);
  }
  return out;
}

function without(s: string, what: string): string {
  return s.replaceAll(what, "");
}
