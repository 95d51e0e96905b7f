// A growable byte buffer that output (JSON, rendered text) is written into once, never by string +=.

import { Char } from "./chars";
import { hidden } from "./utf8";
export class Sink {
  buf: usize;
  cap: usize;
  len: usize = 0;

  constructor(cap: usize = 4096) {
    this.buf = heap.alloc(cap);
    this.cap = cap;
  }

  reset(): void { this.len = 0; }

  /** Gives the buffer back: heap.alloc'd memory is not the collector's, so a short-lived Sink must call this. */
  free(): void {
    heap.free(this.buf);
    this.buf = 0;
    this.cap = 0;
    this.len = 0;
  }

  private grow(extra: usize): void {
    let want = this.len + extra;
    if (want <= this.cap) return;
    let cap = this.cap << 1;
    while (cap < want) cap <<= 1;
    this.buf = heap.realloc(this.buf, cap);
    this.cap = cap;
  }

  byte(c: i32): void {
    this.grow(1);
    store<u8>(this.buf + this.len, <u8>c);
    this.len++;
  }

  bytes(ptr: usize, n: usize): void {
    this.grow(n);
    memory.copy(this.buf + this.len, ptr, n);
    this.len += n;
  }

  /** Writes s as UTF-8. */
  str(s: string): void {
    let n = s.length;
    this.grow(<usize>n * 3);
    let p = this.buf + this.len;
    let q = changetype<usize>(s);
    for (let i = 0; i < n; i++) {
      let c = <u32>load<u16>(q + (<usize>i << 1));
      if (c < 0x80) { store<u8>(p++, <u8>c); continue; }
      if (c < 0x800) {
        store<u8>(p++, <u8>(0xC0 | (c >> 6)));
        store<u8>(p++, <u8>(0x80 | (c & 0x3F)));
        continue;
      }
      if ((c & 0xFC00) == 0xD800 && i + 1 < n) {
        let d = <u32>load<u16>(q + (<usize>(i + 1) << 1));
        if ((d & 0xFC00) == 0xDC00) {
          let cp = 0x10000 + (((c & 0x3FF) << 10) | (d & 0x3FF));
          store<u8>(p++, <u8>(0xF0 | (cp >> 18)));
          store<u8>(p++, <u8>(0x80 | ((cp >> 12) & 0x3F)));
          store<u8>(p++, <u8>(0x80 | ((cp >> 6) & 0x3F)));
          store<u8>(p++, <u8>(0x80 | (cp & 0x3F)));
          i++;
          continue;
        }
      }
      if ((c & 0xF800) == 0xD800) c = 0xFFFD;
      store<u8>(p++, <u8>(0xE0 | (c >> 12)));
      store<u8>(p++, <u8>(0x80 | ((c >> 6) & 0x3F)));
      store<u8>(p++, <u8>(0x80 | (c & 0x3F)));
    }
    this.len = p - this.buf;
  }

  int(v: i64): void {
    if (v < 0) { this.byte(Char.MINUS); v = -v; }
    if (v == 0) { this.byte(Char._0); return; }
    let tmp = new StaticArray<u8>(20);
    let n = 0;
    while (v > 0) { tmp[n++] = <u8>(Char._0 + <i32>(v % 10)); v /= 10; }
    while (n > 0) this.byte(tmp[--n]);
  }

  /** Writes s as a JSON string literal. */
  jstr(s: string | null): void {
    if (s === null) { this.str("null"); return; }
    this.byte(Char.QUOTE);
    let n = s.length;
    let cut = n > MAX_STRING;
    if (cut) {
      // No string of the output is longer than a log line was (a JSON line of up to 2 MiB is read whole: its
      // message fields are not written whole); a pair of surrogates is not split.
      n = MAX_STRING;
      let last = s.charCodeAt(n - 1);
      if (last >= 0xD800 && last < 0xDC00) n--;
      s = s.substring(0, n);
    }
    let start = 0;
    for (let i = 0; i < n; i++) {
      let c = s.charCodeAt(i);
      // hidden() code points: decode() replaced every one a log held; one that came another way is written
      // as \uXXXX all the same, so the JSON's bytes never carry one raw.
      if (c >= Char.SPACE && c != Char.QUOTE && c != Char.BACKSLASH && (c < 0x80 || !hidden(c))) continue;
      if (i > start) this.str(s.substring(start, i));
      start = i + 1;
      if (c == Char.QUOTE) this.str("\\\"");
      else if (c == Char.BACKSLASH) this.str("\\\\");
      else if (c == Char.LF) this.str("\\n");
      else if (c == Char.TAB) this.str("\\t");
      else if (c == Char.CR) this.str("\\r");
      else {
        this.str("\\u");
        for (let k = 12; k >= 0; k -= 4) this.byte(HEX.charCodeAt((c >> k) & 15));
      }
    }
    if (start == 0) this.str(s); else if (start < n) this.str(s.substring(start));
    if (cut) this.str("\u2026");
    this.byte(Char.QUOTE);
  }

  toString(): string { return String.UTF8.decodeUnsafe(this.buf, this.len); }
}

/** The longest string written, in UTF-16 code units (a log line's most, splitter.ts MAX_LINE), then `…`. */
const MAX_STRING = 65536;

const HEX = "0123456789abcdef";

/** Writes JSON objects/arrays with commas placed for the caller. */
export class JsonWriter {
  out: Sink;
  private first: bool = true;

  constructor(out: Sink) { this.out = out; }

  private sep(): void {
    if (!this.first) this.out.byte(Char.COMMA);
    this.first = false;
  }
  private key(k: string): void {
    this.sep();
    this.out.jstr(k);
    this.out.byte(Char.COLON);
  }

  beginObject(): void { this.out.byte(Char.LBRACE); this.first = true; }
  endObject(): void { this.out.byte(Char.RBRACE); this.first = false; }
  beginArray(): void { this.out.byte(Char.LBRACKET); this.first = true; }
  endArray(): void { this.out.byte(Char.RBRACKET); this.first = false; }

  /** Starts a nested object or array under key k (call beginObject/beginArray next). */
  field(k: string): void { this.key(k); this.first = true; }
  /** Starts a nested element of an array. */
  item(): void { this.sep(); this.first = true; }

  str(k: string, v: string | null): void { this.key(k); this.out.jstr(v); }
  int(k: string, v: i64): void { this.key(k); this.out.int(v); }
  /** An integer field that is null when v < 0. */
  intOrNull(k: string, v: i64): void { this.key(k); if (v < 0) this.out.str("null"); else this.out.int(v); }
  bool(k: string, v: bool): void { this.key(k); this.out.str(v ? "true" : "false"); }
  nul(k: string): void { this.key(k); this.out.str("null"); }
  /** Writes the n bytes at ptr, already valid JSON, under key k. */
  rawBytes(k: string, ptr: usize, n: usize): void { this.key(k); this.out.bytes(ptr, n); }
  /** Writes v, already valid JSON, under key k. */
  raw(k: string, v: string): void { this.key(k); this.out.str(v); }

  strItem(v: string | null): void { this.sep(); this.out.jstr(v); }
  /** Writes a value that is already JSON after field(k) or item(). */
  value(json: string): void { this.out.str(json); this.first = false; }
}
