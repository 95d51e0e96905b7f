// A small JSON reader into a tree, for what the engine reads back: envelopes to render, verdicts to diff.
// Errors are values: parse() returns null and sets jsonError; nothing throws.
import { Char, isDigit } from "./chars";
import { decode } from "./utf8";
import { Sink } from "./sink";

export const enum Kind { NULL, BOOL, NUM, STR, ARR, OBJ }

export class JValue {
  kind: Kind = Kind.NULL;
  b: bool = false;
  n: f64 = 0;
  s: string = "";
  items: Array<JValue> = [];
  keys: Array<string> = [];
  /** Where the value's JSON text starts and ends in the input (bytes [from, to)). */
  from: usize = 0;
  to: usize = 0;

  get(key: string): JValue {
    for (let i = 0; i < this.keys.length; i++) if (this.keys[i] == key) return this.items[i];
    return NULL_VALUE;
  }
  has(key: string): bool {
    for (let i = 0; i < this.keys.length; i++) if (this.keys[i] == key) return true;
    return false;
  }
  at(i: i32): JValue { return <u32>i < <u32>this.items.length ? this.items[i] : NULL_VALUE; }
  get isNull(): bool { return this.kind == Kind.NULL; }
  get length(): i32 { return this.items.length; }
  /** The string, or def when this is not a string. */
  str(def: string = ""): string { return this.kind == Kind.STR ? this.s : def; }
  strOrNull(): string | null { return this.kind == Kind.STR ? this.s : null; }
  /** The integer, or def when this is not a number. */
  int(def: i64 = -1): i64 { return this.kind == Kind.NUM ? <i64>this.n : def; }
  bool(): bool { return this.kind == Kind.BOOL && this.b; }
}

export const NULL_VALUE = new JValue();

export let jsonError: string = "";

const MAX_DEPTH = 64;

class Reader {
  p: usize;
  end: usize;
  fail: bool = false;
  constructor(p: usize, end: usize) { this.p = p; this.end = end; }

  @inline peek(): i32 { return this.p < this.end ? <i32>load<u8>(this.p) : -1; }

  ws(): void {
    while (this.p < this.end) {
      let c = load<u8>(this.p);
      if (c == Char.SPACE || c == Char.TAB || c == Char.LF || c == Char.CR) this.p++; else break;
    }
  }

  err(msg: string): JValue {
    if (!this.fail) { this.fail = true; jsonError = msg; }
    return NULL_VALUE;
  }

  lit(s: string): bool {
    let n = s.length;
    if (this.p + <usize>n > this.end) return false;
    for (let i = 0; i < n; i++) if (<i32>load<u8>(this.p + <usize>i) != s.charCodeAt(i)) return false;
    this.p += n;
    return true;
  }

  value(depth: i32): JValue {
    this.ws();
    let from = this.p;
    let v = this.valueAt(depth);
    if (v !== NULL_VALUE) { v.from = from; v.to = this.p; }
    return v;
  }

  private valueAt(depth: i32): JValue {
    if (depth > MAX_DEPTH) return this.err("nested too deep");
    let c = this.peek();
    let v = new JValue();
    if (c == Char.LBRACE) {
      this.p++;
      v.kind = Kind.OBJ;
      this.ws();
      if (this.peek() == Char.RBRACE) { this.p++; return v; }
      while (!this.fail) {
        this.ws();
        if (this.peek() != Char.QUOTE) return this.err("expected a key");
        let k = this.string();
        this.ws();
        if (this.peek() != Char.COLON) return this.err("expected ':'");
        this.p++;
        let item = this.value(depth + 1);
        v.keys.push(k); v.items.push(item);
        this.ws();
        let d = this.peek();
        if (d == Char.COMMA) { this.p++; continue; }
        if (d == Char.RBRACE) { this.p++; return v; }
        return this.err("expected ',' or '}'");
      }
      return NULL_VALUE;
    }
    if (c == Char.LBRACKET) {
      this.p++;
      v.kind = Kind.ARR;
      this.ws();
      if (this.peek() == Char.RBRACKET) { this.p++; return v; }
      while (!this.fail) {
        v.items.push(this.value(depth + 1));
        this.ws();
        let d = this.peek();
        if (d == Char.COMMA) { this.p++; continue; }
        if (d == Char.RBRACKET) { this.p++; return v; }
        return this.err("expected ',' or ']'");
      }
      return NULL_VALUE;
    }
    if (c == Char.QUOTE) { v.kind = Kind.STR; v.s = this.string(); return v; }
    if (this.lit("null")) return v;
    if (this.lit("true")) { v.kind = Kind.BOOL; v.b = true; return v; }
    if (this.lit("false")) { v.kind = Kind.BOOL; return v; }
    if (c == Char.MINUS || isDigit(c)) { v.kind = Kind.NUM; v.n = this.number(); return v; }
    return this.err("unexpected character");
  }

  number(): f64 {
    let neg = false;
    if (this.peek() == Char.MINUS) { neg = true; this.p++; }
    let v: f64 = 0;
    while (isDigit(this.peek())) { v = v * 10 + <f64>(this.peek() - Char._0); this.p++; }
    if (this.peek() == Char.DOT) {
      this.p++;
      let scale: f64 = 0.1;
      while (isDigit(this.peek())) { v += <f64>(this.peek() - Char._0) * scale; scale /= 10; this.p++; }
    }
    let e = this.peek();
    if (e == Char.e || e == Char.E) {
      this.p++;
      let en = false;
      if (this.peek() == Char.MINUS) { en = true; this.p++; } else if (this.peek() == Char.PLUS) this.p++;
      let x = 0;
      while (isDigit(this.peek())) { x = x * 10 + (this.peek() - Char._0); this.p++; if (x > 400) x = 400; }
      v *= Math.pow(10, en ? -x : x);
    }
    return neg ? -v : v;
  }

  string(): string {
    this.p++; // opening quote
    let start = this.p;
    // Fast path: no escapes.
    while (this.p < this.end) {
      let c = load<u8>(this.p);
      if (c == Char.QUOTE) { let s = decode(start, <i32>(this.p - start)); this.p++; return s; }
      if (c == Char.BACKSLASH) break;
      this.p++;
    }
    let sink = new Sink(64);
    sink.bytes(start, this.p - start);
    while (this.p < this.end) {
      let c = <i32>load<u8>(this.p);
      if (c == Char.QUOTE) {
        this.p++;
        let s = decode(sink.buf, <i32>sink.len);
        sink.free();
        return s;
      }
      if (c != Char.BACKSLASH) { sink.byte(c); this.p++; continue; }
      this.p++;
      let e = this.peek();
      this.p++;
      if (e == Char.n) sink.byte(Char.LF);
      else if (e == Char.t) sink.byte(Char.TAB);
      else if (e == Char.r) sink.byte(Char.CR);
      else if (e == Char.b) sink.byte(Char.BS);
      else if (e == Char.f) sink.byte(Char.FF);
      else if (e == Char.u) {
        let cp = this.hex4();
        if (cp >= 0xD800 && cp < 0xDC00 && this.lit("\\u")) {
          let lo = this.hex4();
          if (lo >= 0xDC00 && lo < 0xE000) cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          else cp = 0xFFFD;
        } else if (cp >= 0xD800 && cp < 0xE000) cp = 0xFFFD;
        sink.str(String.fromCodePoint(cp));
      } else if (e >= 0) sink.byte(e);
    }
    sink.free();
    this.err("unterminated string");
    return "";
  }

  hex4(): i32 {
    let v = 0;
    for (let i = 0; i < 4; i++) {
      let c = this.peek();
      let d = isDigit(c) ? c - Char._0 : ((c | 0x20) >= Char.a && (c | 0x20) <= Char.f ? (c | 0x20) - Char.a + 10 : -1);
      if (d < 0) { this.err("bad \\u escape"); return 0xFFFD; }
      v = (v << 4) | d;
      this.p++;
    }
    return v;
  }
}

export function parse(ptr: usize, len: i32): JValue | null {
  jsonError = "";
  let r = new Reader(ptr, ptr + <usize>max(len, 0));
  let v = r.value(0);
  r.ws();
  if (!r.fail && r.p != r.end) r.err("trailing characters");
  return r.fail ? null : v;
}
