// UTF-8 bytes -> String, replacing every invalid sequence with U+FFFD (the std decoder trusts its input).
// Control bytes other than TAB become U+FFFD too, so binary garbage can never reach the output raw, and
// so do the code points that act on a terminal or on how text reads (hidden() below): every string the
// engine returns or renders was decoded here, so a program's output cannot carry them to the agent.

const REPLACEMENT: u32 = 0xFFFD;

/**
 * Code points a program must not pass to the agent or the terminal through the verdict: C1 controls
 * (U+0080-U+009F: U+009B is a one-character CSI, U+009D an OSC, U+0085 a line break to some readers), the
 * bidirectional controls (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069: text shown reordered,
 * "Trojan Source") and the line and paragraph separators U+2028/U+2029 (a line break to JavaScript and
 * to some terminals and editors, so a fake verdict line). Zero-width characters and U+FEFF stay: they
 * neither move the cursor nor reorder text, and ZWJ is part of ordinary text in several scripts.
 */
export function hidden(cp: u32): bool {
  if (cp < 0x80) return false;
  if (cp < 0xA0) return true;
  if (cp < 0x061C) return false;
  return cp == 0x061C || cp == 0x200E || cp == 0x200F || (cp >= 0x2028 && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

export function decode(ptr: usize, len: i32): string {
  if (len <= 0) return "";
  let out = changetype<usize>(__new(<usize>len << 1, idof<String>()));
  let o = out;
  let p = ptr;
  let end = ptr + <usize>len;
  while (p < end) {
    let c = <u32>load<u8>(p);
    if (c < 0x80) {
      if (c < 0x20 && c != 0x09 && c != 0x0A) c = REPLACEMENT;  // LF only comes from a JSON "\n" (log lines never hold one)
      store<u16>(o, <u16>c); o += 2; p++;
      continue;
    }
    let need = 0; let cp: u32 = 0; let min: u32 = 0;
    if ((c & 0xE0) == 0xC0) { need = 1; cp = c & 0x1F; min = 0x80; }
    else if ((c & 0xF0) == 0xE0) { need = 2; cp = c & 0x0F; min = 0x800; }
    else if ((c & 0xF8) == 0xF0) { need = 3; cp = c & 0x07; min = 0x10000; }
    else { store<u16>(o, <u16>REPLACEMENT); o += 2; p++; continue; }
    let ok = p + <usize>need < end + 1;
    let q = p + 1;
    for (let i = 0; ok && i < need; i++, q++) {
      if (q >= end) { ok = false; break; }
      let b = <u32>load<u8>(q);
      if ((b & 0xC0) != 0x80) { ok = false; break; }
      cp = (cp << 6) | (b & 0x3F);
    }
    if (!ok || cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
      store<u16>(o, <u16>REPLACEMENT); o += 2; p++;
      continue;
    }
    p = q;
    if (hidden(cp)) cp = REPLACEMENT;  // the whole sequence, as one U+FFFD
    if (cp >= 0x10000) {
      cp -= 0x10000;
      store<u16>(o, <u16>(0xD800 | (cp >> 10))); o += 2;
      store<u16>(o, <u16>(0xDC00 | (cp & 0x3FF))); o += 2;
    } else {
      store<u16>(o, <u16>cp); o += 2;
    }
  }
  // Every input byte yields at most one UTF-16 unit (4-byte sequences yield two), so this never grows.
  return changetype<string>(__renew(out, o - out));
}
