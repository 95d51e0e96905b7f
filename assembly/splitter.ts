// Cuts a byte stream, fed in chunks of any size, into clean lines: CR and CRLF line ends, carriage-return
// redraws (progress bars keep their last state), ANSI colour and cursor sequences removed. Memory stays
// bounded: a line longer than MAX_LINE is cut there and the rest of it dropped — but for a line that opens a JSON
// object (`{`), which may run to MAX_JSON_LINE (2 MiB: read, such a line takes 21 MB of memory per MB): a test runner's JSON report is one line (jest `--json`, vitest's
// json reporter, RSpec's `--format json`), 78 KB for a suite of 220 RSpec examples.
import { Char } from "./util/chars";
import { Line } from "./util/line";

export const MAX_LINE = 65536;
export const MAX_JSON_LINE = 2 << 20;

export class Splitter {
  private carry: usize = heap.alloc(MAX_LINE);
  private carryCap: i32 = MAX_LINE;
  private carryLen: i32 = 0;
  private carryCut: bool = false;
  private carryDirty: bool = false;
  private clean: usize = heap.alloc(MAX_LINE);
  private cleanCap: i32 = MAX_LINE;
  /** Lines longer than MAX_LINE seen so far. */
  longLines: i32 = 0;
  line: Line = new Line();
  private lineNo: i32 = 0;

  reset(): void {
    this.carryLen = 0; this.carryCut = false; this.carryDirty = false; this.lineNo = 0; this.longLines = 0;
    // A JSON line's room is given back: a resident engine keeps MAX_LINE.
    if (this.carryCap > MAX_LINE) { heap.free(this.carry); this.carry = heap.alloc(MAX_LINE); this.carryCap = MAX_LINE; }
    if (this.cleanCap > MAX_LINE) { heap.free(this.clean); this.clean = heap.alloc(MAX_LINE); this.cleanCap = MAX_LINE; }
  }

  /** Appends bytes that do not end a line to the carry buffer. */
  keep(ptr: usize, n: i32, dirty: bool = true): void {
    this.carryDirty = this.carryDirty || dirty;
    let room = this.carryCap - this.carryLen;
    if (n > room) {
      let first = this.carryLen > 0 ? load<u8>(this.carry) : load<u8>(ptr);
      if (first == Char.LBRACE && this.carryCap < MAX_JSON_LINE) {
        let cap = min(MAX_JSON_LINE, max(this.carryLen + n, this.carryCap << 1));
        this.carry = heap.realloc(this.carry, <usize>cap);
        this.carryCap = cap;
        room = cap - this.carryLen;
      }
      if (n > room) { n = room; this.carryCut = true; }
    }
    if (n > 0) memory.copy(this.carry + <usize>this.carryLen, ptr, <usize>n);
    this.carryLen += n;
  }

  /**
   * Completes the pending line with bytes [ptr, ptr+n) and returns it cleaned. dirty says whether those
   * bytes may hold a CR or ESC (the caller's scan knows); a clean line is returned without a copy.
   */
  take(ptr: usize, n: i32, dirty: bool = true): Line {
    let p = ptr; let len = n;
    if (this.carryLen > 0) {
      this.keep(ptr, n, dirty);
      p = this.carry; len = this.carryLen;
      dirty = this.carryDirty;
      if (this.carryCut) this.longLines++;
      this.carryLen = 0; this.carryCut = false; this.carryDirty = false;
    } else if (n > MAX_LINE) {
      let most = load<u8>(ptr) == Char.LBRACE ? MAX_JSON_LINE : MAX_LINE;
      if (n > most) { len = most; this.longLines++; }
    }
    if (!dirty) {
      let l = this.line;
      l.no = ++this.lineNo;
      l.set(p, len);
      return l;
    }
    return this.cleaned(p, len);
  }

  /** The unterminated last line at end of input, or null. */
  rest(): Line | null {
    if (this.carryLen == 0) return null;
    return this.take(0, 0);
  }

  private cleaned(p: usize, len: i32): Line {
    // Strip a trailing CR (CRLF), then keep only what follows the last bare CR (a redrawn line).
    if (len > 0 && load<u8>(p + <usize>(len - 1)) == Char.CR) len--;
    let needs = false;
    for (let i = 0; i < len; i++) {
      let c = load<u8>(p + <usize>i);
      if (c == Char.ESC || c == Char.CR) { needs = true; break; }
    }
    let l = this.line;
    l.no = ++this.lineNo;
    if (!needs) { l.set(p, len); return l; }
    if (len > this.cleanCap) { heap.free(this.clean); this.clean = heap.alloc(<usize>len); this.cleanCap = len; }
    let o = this.clean;
    let n = 0;
    let i = 0;
    while (i < len) {
      let c = <i32>load<u8>(p + <usize>i);
      if (c == Char.CR) { n = 0; i++; continue; }
      if (c != Char.ESC) { store<u8>(o + <usize>n, <u8>c); n++; i++; continue; }
      i++;
      if (i >= len) break;
      let k = <i32>load<u8>(p + <usize>i);
      if (k == Char.LBRACKET) {
        // CSI: parameters and intermediates, then one final byte in 0x40..0x7E. "Cursor to column 1"
        // (ESC [ G or ESC [ 1 G) redraws the line the way a bare CR does: what follows replaces it.
        i++;
        let params = i;
        while (i < len) {
          let b = <i32>load<u8>(p + <usize>i); i++;
          if (b >= Char.AT && b <= Char.TILDE) {
            if (b == Char.G && (i - 1 == params || (i - 2 == params && load<u8>(p + <usize>params) == Char._1))) n = 0;
            break;
          }
        }
      } else if (k == Char.RBRACKET) {
        // OSC: up to BEL or ESC backslash (terminal hyperlinks and titles).
        i++;
        while (i < len) {
          let b = <i32>load<u8>(p + <usize>i); i++;
          if (b == Char.BEL) break;
          if (b == Char.ESC && i < len && load<u8>(p + <usize>i) == Char.BACKSLASH) { i++; break; }
        }
      } else {
        i++; // two-byte escape
      }
    }
    l.set(o, n);
    return l;
  }
}
