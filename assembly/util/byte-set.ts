// A set of byte values (256 bits): which first bytes of a line can start something for a parser, as the
// dispatcher's filter reads it (ParserSet). Built once, at start-up, from the characters a parser looks for.

@final
export class ByteSet {
  private w: StaticArray<u64> = new StaticArray<u64>(4);

  @inline has(b: i32): bool { return (unchecked(this.w[(b >> 6) & 3]) >> <u64>(b & 63) & 1) != 0; }

  add(b: i32): ByteSet {
    let i = (b >> 6) & 3;
    unchecked(this.w[i] = unchecked(this.w[i]) | (<u64>1 << <u64>(b & 63)));
    return this;
  }

  /** Bytes a..b, both included. */
  range(a: i32, b: i32): ByteSet {
    for (let c = a; c <= b; c++) this.add(c);
    return this;
  }

  /**
   * Each character of s: an ASCII one as itself, any other as the first byte of its UTF-8 form (`✖` adds
   * 0xE2, so every character from U+2000 to U+2FFF passes: a set only ever lets more lines through).
   */
  chars(s: string): ByteSet {
    for (let i = 0, n = s.length; i < n; i++) {
      let c = <i32>s.charCodeAt(i);
      if (c < 0x80) this.add(c);
      else if (c < 0x800) this.add(0xC0 | (c >> 6));
      else if (c >= 0xD800 && c < 0xDC00) { this.add(0xF0); this.range(0xF1, 0xF4); i++; }
      else this.add(0xE0 | (c >> 12));
    }
    return this;
  }

  @inline digits(): ByteSet { return this.range(0x30, 0x39); }
  @inline upper(): ByteSet { return this.range(0x41, 0x5A); }
  @inline lower(): ByteSet { return this.range(0x61, 0x7A); }
  /** Every byte of a non-ASCII character's first byte (0xC0-0xFF) and of a broken one (0x80-0xBF). */
  @inline nonAscii(): ByteSet { return this.range(0x80, 0xFF); }
  /** Key 0: a line that is empty or holds only spaces and tabs (or whose first other byte is NUL). */
  @inline blank(): ByteSet { return this.add(0); }
  @inline all(): ByteSet { return this.range(0, 255); }
}
