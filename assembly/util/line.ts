// A view of one log line as UTF-8 bytes (no copy). Valid only during the claim call that received it:
// parsers turn just the slices they keep into strings with str().
import { Char, isDigit, isSpace, isHex } from "./chars";
import { decode } from "./utf8";

export class Line {
  ptr: usize = 0;
  len: i32 = 0;
  /** 1-based line number in the log. */
  no: i32 = 0;
  /** End position of the last readInt/readHex call. */
  end: i32 = 0;
  /** headColon()'s answer for this line, or -2 until it is asked. */
  private head: i32 = -2;
  /** firstColon()'s answer for this line, or -2 until it is asked. */
  private colon1: i32 = -2;

  /** Points the view at bytes [ptr, ptr+len): the next line. */
  /** skipSpaces(0)'s answer for this line, or -1 until it is asked. */
  private lead: i32 = -1;

  @inline set(ptr: usize, len: i32): void { this.ptr = ptr; this.len = len; this.head = -2; this.colon1 = -2; this.lead = -1; }

  /**
   * Position of the first ": " (or -1), not looked for on an indented or empty line: where every compiler,
   * linker and build-tool diagnostic puts its location/severity boundary. Found once per line, however
   * many of those parsers ask.
   */
  headColon(): i32 {
    let k = this.head;
    if (k == -2) {
      let c0 = this.at(0);
      if (c0 == Char.SPACE || c0 == Char.TAB || c0 < 0) k = -1;
      else {
        // The first ": " starts at a ':' at or after the first one.
        let c = this.firstColon();
        k = c < 0 ? -1 : this.indexOf(": ", c);
      }
      this.head = k;
    }
    return k;
  }

  /** Position of the line's first ':' (or -1), anywhere, indented or not; found once per line. */
  firstColon(): i32 {
    let k = this.colon1;
    if (k == -2) {
      k = this.indexOfByte(Char.COLON);
      this.colon1 = k;
    }
    return k;
  }

  @inline at(i: i32): i32 {
    if (<u32>i >= <u32>this.len) return -1;
    return <i32>load<u8>(this.ptr + <usize>i);
  }

  /** True when the ASCII string s occurs at byte position pos. */
  @inline matchAt(s: string, pos: i32): bool {
    // The first byte here (most calls end on it), the rest in matchRest.
    let n = s.length;
    if (pos < 0 || pos + n > this.len) return false;
    if (n == 0) return true;
    if (<u32>load<u8>(this.ptr + <usize>pos) != <u32>load<u16>(changetype<usize>(s))) return false;
    return this.matchRest(s, pos);
  }

  /** matchAt past its first byte. */
  private matchRest(s: string, pos: i32): bool {
    let n = s.length;
    let p = this.ptr + <usize>pos;
    let q = changetype<usize>(s);
    for (let i = 1; i < n; i++) {
      if (<u32>load<u8>(p + <usize>i) != <u32>load<u16>(q + (<usize>i << 1))) return false;
    }
    return true;
  }

  @inline startsWith(s: string): bool { return this.matchAt(s, 0); }
  @inline endsWith(s: string): bool { return this.matchAt(s, this.len - s.length); }

  indexOf(s: string, from: i32 = 0): i32 {
    let n = s.length;
    if (n == 0) return from;
    let sp = changetype<usize>(s);
    let first = <i32>load<u16>(sp);
    let last = this.len - n;
    let i = max(from, 0);
    while (i <= last) {
      i = this.indexOfByte(first, i);
      if (i < 0 || i > last) return -1;
      let p = this.ptr + <usize>i;
      let j = 1;
      while (j < n && <u32>load<u8>(p + <usize>j) == <u32>load<u16>(sp + (<usize>j << 1))) j++;
      if (j == n) return i;
      i++;
    }
    return -1;
  }

  lastIndexOf(s: string, before: i32 = 0x7FFFFFFF): i32 {
    let n = s.length;
    let i = min(before, this.len) - n;
    for (; i >= 0; i--) if (this.matchAt(s, i)) return i;
    return -1;
  }

  /** Position of byte c at or after from, or -1; eight bytes at a time. */
  indexOfByte(c: i32, from: i32 = 0): i32 {
    let i = max(from, 0);
    let len = this.len;
    let p = this.ptr;
    let pat: u64 = <u64>(c & 0xFF) * 0x0101010101010101;
    while (i + 8 <= len) {
      let x = load<u64>(p + <usize>i) ^ pat;
      let hit = (x - 0x0101010101010101) & ~x & 0x8080808080808080;
      if (hit != 0) return i + <i32>(ctz(hit) >> 3);
      i += 8;
    }
    for (; i < len; i++) if (<i32>load<u8>(p + <usize>i) == c) return i;
    return -1;
  }

  lastIndexOfByte(c: i32, before: i32 = 0x7FFFFFFF): i32 {
    for (let i = min(before, this.len) - 1; i >= 0; i--) if (<i32>load<u8>(this.ptr + <usize>i) == c) return i;
    return -1;
  }

  contains(s: string): bool { return this.indexOf(s) >= 0; }

  /** Every byte is c, and there is one at least (a rule of `=`, `-`, `*`). */
  isAll(c: i32): bool {
    if (this.len == 0) return false;
    for (let i = 0; i < this.len; i++) if (this.at(i) != c) return false;
    return true;
  }

  /** First position at or after pos that is not a space or tab. */
  @inline skipSpaces(pos: i32): i32 {
    // From the line's start: found once per line, however many parsers ask (most ask first thing).
    if (pos == 0 && this.lead >= 0) return this.lead;
    return this.skipFrom(pos);
  }

  private skipFrom(pos: i32): i32 {
    let i = pos;
    let n = this.len;
    let ptr = this.ptr;
    while (<u32>i < <u32>n) {
      let c = load<u8>(ptr + <usize>i);
      if (c != Char.SPACE && c != Char.TAB) break;
      i++;
    }
    if (pos == 0) this.lead = i;
    return i;
  }

  /** Number of leading spaces and tabs. */
  @inline indent(): i32 { return this.skipSpaces(0); }

  isBlank(): bool { return this.skipSpaces(0) >= this.len; }

  /** Reads a decimal integer at pos; returns -1 when none. The end position is left in this.end. */
  readInt(pos: i32): i64 {
    let v: i64 = 0;
    let i = pos;
    while (i < this.len && isDigit(this.at(i)) && i - pos < 18) { v = v * 10 + <i64>(this.at(i) - Char._0); i++; }
    this.end = i;
    return i == pos ? -1 : v;
  }

  /** Position after a run of hex digits starting at pos (pos itself when none). */
  skipHex(pos: i32): i32 {
    while (pos < this.len && isHex(this.at(pos))) pos++;
    return pos;
  }

  /** The bytes [a, b) as a string; invalid UTF-8 becomes U+FFFD. */
  str(a: i32, b: i32 = 0x7FFFFFFF): string {
    a = max(a, 0); b = min(b, this.len);
    if (b <= a) return "";
    return decode(this.ptr + <usize>a, b - a);
  }

  /** The bytes [a, b) trimmed of surrounding spaces, as a string. */
  trimmed(a: i32, b: i32 = 0x7FFFFFFF): string {
    a = this.skipSpaces(max(a, 0)); b = min(b, this.len);
    while (b > a && isSpace(this.at(b - 1))) b--;
    return this.str(a, b);
  }

  toString(): string { return this.str(0, this.len); }
}
