// UndefinedBehaviorSanitizer runtime errors: `file:line:col: runtime error: MESSAGE`, then optionally the
// "note: pointer points here" dump, a stack (UBSAN_OPTIONS=print_stacktrace=1) and clang's
// `SUMMARY: UndefinedBehaviorSanitizer: undefined-behavior file:line:col in`. With recovery on, one log holds
// several errors: each is counted, the first is the crash. The kind is the runtime's error-type name
// (what report_error_type=1 prints), read off the message.
import { Char, isDigit, isHex, isSpace } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts, Crash, Frame, MAX_FRAMES } from "../../model";
import { Parser } from "../../parser";
import { ByteSet } from "../../util/byte-set";
import { parseSanFrame, setLocation, classify, firstUser, normPath, basename } from "../../frames";

const RUNTIME_ERROR = " runtime error: ";
const SUMMARY = "SUMMARY: UndefinedBehaviorSanitizer: ";

/** At rest only a runtime error line opens a report: it holds ` runtime error: ` after a colon, at any key (colonStarts). */
const STARTS = new ByteSet();

@final
export class UbsanParser extends Parser {
  private active: bool = false;
  private crash: Crash = new Crash();
  /** The runtime error line's own location, as a frame with no function. */
  private loc: Frame | null = null;
  private stack: bool = false;
  /** Lines of the "pointer points here" dump still to come. */
  private dump: i32 = 0;
  /** False for an error after the first crash: it is only counted. */
  private keep: bool = false;

  busy(): bool { return this.active; }
  atRest(): bool { return !this.active; }
  starts(): ByteSet | null { return STARTS; }
  colonStarts(): bool { return true; }

  finish(f: Facts): void { this.close(); }

  claim(l: Line, f: Facts): bool {
    if (this.active) {
      if (this.more(l)) return true;
      this.close();
    }
    let at = findRuntimeError(l);
    if (at < 0) return false;
    this.open(l, at, f);
    return true;
  }

  private open(l: Line, at: i32, f: Facts): void {
    this.active = true;
    this.stack = false;
    this.dump = 0;
    this.keep = f.crash === null;
    if (!this.keep) { f.crashCount++; return; }
    let c = new Crash();
    c.tool = "ubsan";
    let msg = l.trimmed(at + 1 + RUNTIME_ERROR.length);
    c.message = msg;
    c.kind = ubsanKind(msg);
    // a NULL dereference says which way it went: "load of null pointer", "store to null pointer"
    if (msg.startsWith("load of null pointer")) c.access = "READ";
    else if (msg.startsWith("store to null pointer")) c.access = "WRITE";
    let bad = badCastTarget(msg);
    if (bad !== null) { c.stateHead = ["Bad-cast to " + bad!]; c.stateVerbatim = true; }
    let a = msg.indexOf("address 0x");
    if (a >= 0) {
      let s = a + 8;
      let e = s + 2;
      while (e < msg.length && isHex(msg.charCodeAt(e))) e++;
      c.address = msg.substring(s, e);
    }
    // The location is the last token before ": runtime error:" (a prefix such as a runner's tag may precede it).
    let sp = l.lastIndexOfByte(Char.SPACE, at);
    let where = l.str(sp + 1, at);
    // Without a SUMMARY line (gcc, or recovery off) the summary reads like report_error_type=1's.
    c.summary = c.kind + " " + where;
    let loc = new Frame();
    loc.index = 0;
    let ok = setLocation(loc, where);
    if (!ok && where.startsWith("(") && where.endsWith(")")) {
      let m = where.substring(1, where.length - 1);
      let plus = m.lastIndexOf("+0x");
      loc.module = normPath(plus > 0 ? m.substring(0, plus) : m);
      ok = true;
    }
    if (ok) {
      classify(loc);
      c.frames.push(loc);
      this.loc = loc;
    } else {
      this.loc = null;
    }
    f.setCrash(c);
    this.crash = c;
  }

  /** A line that continues the current report. */
  private more(l: Line): bool {
    let c = this.crash;
    let p = l.skipSpaces(0);
    let ch = l.at(p);
    if (ch == Char.HASH && !this.keep) {
      if (!isDigit(l.at(p + 1))) return false;
      this.stack = true;
      this.dump = 0;
      return true;
    }
    if (ch == Char.HASH) {
      let fr = parseSanFrame(l);
      if (fr !== null) {
        if (!this.stack) { this.stack = true; c.frames = []; }
        if (c.frames.length < MAX_FRAMES) c.frames.push(fr);
        this.dump = 0;
        return true;
      }
    }
    if (ch < 0) return this.stack; // the blank line after a stack, before clang's SUMMARY
    // the bytes under a note: a hex dump, its caret line and a "vptr for X" line, indented or not
    if (this.dump > 0 && !l.matchAt(SUMMARY, 0) && l.indexOf(RUNTIME_ERROR) < 0) { this.dump--; return true; }
    if (p == 0 && l.matchAt(SUMMARY, 0)) {
      if (!this.keep) { this.active = false; return true; }
      let s = SUMMARY.length;
      c.summary = l.trimmed(s);
      // With report_error_type=1 the SUMMARY names the check itself.
      if (!l.matchAt("undefined-behavior", s)) {
        let e = s;
        while (e < l.len && l.at(e) != Char.SPACE) e++;
        if (e > s) c.kind = l.str(s, e);
      }
      this.close();
      return true;
    }
    // "0x7ffc..: note: pointer points here" + the hex dump and caret lines; "file:line:col: note: ..." notes.
    let note = l.indexOf(": note: ");
    if (!this.stack && note > 0) {
      if (l.matchAt("0x", 0)) this.dump = l.indexOf("object", note) > 0 ? 3 : 2;
      if (this.keep) this.castSource(l, note + 8);
      return true;
    }
    return false;
  }

  /**
   * A bad cast's note on what the object really is: "note: object is of type 'A'", "note: vtable is of type
   * 'A'", "note: object has invalid vptr", "note: invalid vtable": the state's first line says it
   * ("Bad-cast to B from A").
   */
  private castSource(l: Line, p: i32): void {
    let c = this.crash;
    let head = c.stateHead;
    if (head === null || head!.length != 1 || head![0].includes(" from ")) return;
    let from: string | null = null;
    if (l.matchAt("object is of type ", p)) from = unquote(l.trimmed(p + 18));
    else if (l.matchAt("vtable is of type ", p)) from = unquote(l.trimmed(p + 18));
    else if (l.matchAt("object has invalid vptr", p) || l.matchAt("invalid vtable", p)) from = "invalid vptr";
    if (from !== null) head![0] = head![0] + " from " + from!;
  }

  private close(): void {
    if (!this.active) return;
    this.active = false;
    if (!this.keep) return;
    let c = this.crash;
    // A stack with no user frame (no symbols) still has the error's own location.
    let loc = this.loc;
    if (this.stack && loc !== null && firstUser(c.frames) === null) c.frames.unshift(loc);
    // Frame #0 is the function the check fired in; built without line tables it has no line (`in scale ub.c`,
    // `in scale (prog+0x118f)`), while the runtime error line carries the place the compiler wrote into the check.
    if (this.stack && loc !== null && loc.line > 0 && c.frames.length > 0) {
      let top = c.frames[0];
      if (top.line < 0 && top.fn !== null && (top.file === null || basename(top.file) == basename(loc.file))) {
        top.file = loc.file;
        top.line = loc.line;
        top.col = loc.col;
        classify(top);
      }
    }
  }
}

/** Position of the ':' that ends "file:line[:col]" before " runtime error: ", or -1. One pass over the colons. */
function findRuntimeError(l: Line): i32 {
  let n = l.len;
  // The runtime writes the location at the start of the line: indented lines (stacks, code, test output) are not it.
  if (n < 20 || isSpace(l.at(0))) return -1;
  let i = l.indexOfByte(Char.COLON);
  while (i >= 0 && i < n) {
    if (l.at(i + 1) == Char.SPACE && l.matchAt(RUNTIME_ERROR, i + 1)) {
      // "file:line:col", or "(prog+0x1234)" / "<unknown>" when the binary has no debug info.
      let b = l.at(i - 1);
      if ((isDigit(b) && !httpPanicServing(l, i)) || b == Char.RPAREN || b == Char.GT) return i;
    }
    i = l.indexOfByte(Char.COLON, i + 1);
  }
  return -1;
}

/**
 * Go's net/http server recovering a handler's panic logs `http: panic serving 127.0.0.1:58434: runtime error: index
 * out of range [1] with length 1` (after the log package's date and time), then the goroutine's stack: the token
 * before the colon at i is the client's address, not a source location, and the process went on (no UBSan report).
 */
function httpPanicServing(l: Line, i: i32): bool {
  let sp = l.lastIndexOfByte(Char.SPACE, i);
  return sp >= 19 && l.matchAt("http: panic serving ", sp - 19);
}

/**
 * The type a bad cast was to: "downcast of address 0x.. which does not point to an object of type 'B'",
 * "member call on address ..", "control flow integrity check for type 'B' failed during ..". null otherwise.
 */
function badCastTarget(m: string): string | null {
  let k = m.indexOf("which does not point to an object of type ");
  if (k >= 0 && (m.startsWith("downcast of ") || m.startsWith("member call on ") || m.startsWith("member access within "))) {
    return unquote(m.substring(k + 42));
  }
  if (m.startsWith("control flow integrity check for type ")) {
    let e = m.lastIndexOf(" failed during ");
    if (e > 38) return unquote(m.substring(38, e));
  }
  return null;
}

function unquote(s: string): string {
  let t = s.trimStart().trimEnd();
  if (t.length >= 2 && t.charCodeAt(0) == Char.APOS && t.charCodeAt(t.length - 1) == Char.APOS) return t.substring(1, t.length - 1);
  return t;
}

/** The runtime's error-type name for a message (compiler-rt ubsan_checks.inc). */
export function ubsanKind(m: string): string {
  if (m.startsWith("signed integer overflow")) return "signed-integer-overflow";
  if (m.startsWith("unsigned integer overflow")) return "unsigned-integer-overflow";
  if (m.startsWith("negation of ")) return m.includes("cast to an unsigned type") ? "signed-integer-overflow" : "unsigned-integer-overflow";
  if (m.startsWith("division of ") && m.includes(" by -1 ")) return "signed-integer-overflow";
  if (m.startsWith("division by zero")) return "integer-divide-by-zero";
  if (m.startsWith("shift exponent ")) return "invalid-shift-exponent";
  if (m.startsWith("left shift of ")) return "invalid-shift-base";
  if (m.startsWith("index ") && m.includes(" out of bounds")) return "out-of-bounds-index";
  if (m.includes("misaligned address")) return "misaligned-pointer-use";
  if (m.startsWith("applying zero offset to null pointer")) return "nullptr-with-offset";
  if (m.startsWith("applying non-zero offset to non-null pointer")) return "nullptr-after-nonzero-offset";
  if (m.startsWith("applying non-zero offset")) return "nullptr-with-nonzero-offset";
  if (m.startsWith("null pointer passed as argument")) return "invalid-null-argument";
  if (m.startsWith("null pointer returned from function")) return "invalid-null-return";
  // "upcast of null pointer of type 'Base'": a cast of null to a base class, not a dereference
  if (m.startsWith("upcast of null pointer")) return "upcast-of-null-pointer";
  if (m.includes("null pointer of type") || m.includes("null pointer")) return "null-pointer-use";
  if (m.includes("with insufficient space")) return "insufficient-object-size";
  if (m.startsWith("pointer index expression") || m.startsWith("addition of unsigned offset") ||
      m.startsWith("subtraction of unsigned offset")) return "pointer-overflow";
  if (m.startsWith("load of value ") && m.includes("not a valid value for type")) {
    return m.includes("'bool'") || m.includes("'_Bool'") ? "invalid-bool-load" : "invalid-enum-load";
  }
  if (m.startsWith("execution reached an unreachable program point")) return "unreachable-call";
  if (m.startsWith("execution reached the end of a value-returning function")) return "missing-return";
  if (m.startsWith("variable length array bound")) return "non-positive-vla-index";
  if (m.includes("is outside the range of representable values")) return "float-cast-overflow";
  if (m.startsWith("passing zero to ")) return "invalid-builtin-use";
  if (m.includes("incorrect function type")) return "function-type-mismatch";
  if (m.includes("which does not point to an object of type")) return "dynamic-type-mismatch";
  if (m.startsWith("control flow integrity check")) return "cfi-bad-type";
  if (m.startsWith("assumption of ") && m.includes("alignment")) return "alignment-assumption";
  if (m.startsWith("implicit conversion from type")) return implicitKind(m);
  if (m.startsWith("assumption is violated")) return "assumption-violation";
  return "undefined-behavior";
}

/** "implicit conversion from type 'int' of value -1 (32-bit, signed) to type 'unsigned char' changed ... (8-bit, unsigned)". */
function implicitKind(m: string): string {
  let a = m.indexOf("-bit, ");
  let b = a >= 0 ? m.indexOf("-bit, ", a + 6) : -1;
  if (b < 0) return "implicit-conversion";
  let srcBits = bitsBefore(m, a);
  let dstBits = bitsBefore(m, b);
  let srcSigned = m.startsWith("signed", a + 6);
  let dstSigned = m.startsWith("signed", b + 6);
  let trunc = srcBits > dstBits;
  let sign = srcSigned != dstSigned;
  // clang's checks (CGExprScalar): a truncation is "signed" when either side is; the combined kind is only the
  // one case the truncation check leaves to the sign-change check, unsigned to a narrower signed type.
  if (trunc && !srcSigned && dstSigned) return "implicit-signed-integer-truncation-or-sign-change";
  if (trunc) return srcSigned || dstSigned ? "implicit-signed-integer-truncation" : "implicit-unsigned-integer-truncation";
  if (sign) return "implicit-integer-sign-change";
  return "implicit-conversion";
}

function bitsBefore(m: string, at: i32): i32 {
  let i = at;
  while (i > 0 && isDigit(m.charCodeAt(i - 1))) i--;
  return i < at ? I32.parseInt(m.substring(i, at)) : 0;
}
