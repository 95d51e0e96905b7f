// Decodes one JSON string value out of a log line into a module buffer (UTF-8 bytes, `\n` kept as LF), for
// parsers that read text a tool wrapped in JSON lines (cargo's --message-format=json `rendered`, go test -json's
// `Output`).
import { Char } from "./chars";
import { Line } from "./line";

// One buffer for the module, not one per parser: a parser is made for every verdict, and the minimal runtime
// never frees heap.alloc'd memory on its own (4 KiB per verdict leaked, found by bench/fuzz.js: a resident
// engine reached its 256 MiB maximum after ~32 000 verdicts and trapped).
let buf: usize = 0;
let cap: i32 = 0;

/** The bytes the last decodeJsonString wrote. */
export function jsonBuf(): usize { return buf; }

/**
 * Unescapes the JSON string whose first byte (past its opening quote) is at l[p], up to its closing quote or
 * the line's end, into jsonBuf(); returns its length. ANSI SGR sequences (`\u001b[1m`) are dropped unless
 * dropSgr is false (go test -json's Output keeps the program's bytes).
 */
export function decodeJsonString(l: Line, p: i32, dropSgr: bool = true): i32 {
  if (buf == 0 || l.len > cap) {
    if (buf != 0) heap.free(buf);
    cap = max(l.len, 4096);
    buf = heap.alloc(<usize>cap);
  }
  let n = 0;
  let i = p;
  let esc = false;
  while (i < l.len) {
    let c = l.at(i);
    if (c == Char.QUOTE) break;
    i++;
    if (c == Char.BACKSLASH) {
      let e = l.at(i);
      i++;
      if (e == Char.n) c = Char.LF;
      else if (e == Char.t) c = Char.TAB;
      else if (e == Char.r) continue;
      else if (e == Char.u) {
        let v = 0;
        for (let k = 0; k < 4; k++) {
          let h = l.at(i + k);
          v = v * 16 + (h <= Char._9 ? h - Char._0 : (h | 0x20) - Char.a + 10);
        }
        i += 4;
        if (v == Char.ESC && dropSgr) { esc = true; continue; }
        if (v >= 0x80) {
          if (v < 0x800) store<u8>(buf + <usize>(n++), <u8>(0xC0 | (v >> 6)));
          else { store<u8>(buf + <usize>(n++), <u8>(0xE0 | (v >> 12))); store<u8>(buf + <usize>(n++), <u8>(0x80 | ((v >> 6) & 0x3F))); }
          v = 0x80 | (v & 0x3F);
        }
        c = v;
      } else c = e;
    }
    // An escape sequence's `[1;91m`: up to its final letter.
    if (esc) {
      if ((c | 0x20) >= Char.a && (c | 0x20) <= Char.z) esc = false;
      continue;
    }
    store<u8>(buf + <usize>(n++), <u8>c);
  }
  return n;
}
