// go test -json: one JSON event a line. The `Output` text of each event is decoded and fed, line by line,
// through the text parser in go-test.ts (which holds all the state), so both formats give the same facts.
import { Char } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts } from "../../model";
import { Parser } from "../../parser";
import { ByteSet } from "../../util/byte-set";
import { GoTestParser } from "./go-test";

// One decode buffer for the module, not one per parser: a parser is made for every verdict, and the
// minimal runtime never frees heap.alloc'd memory on its own (4 KiB per verdict leaked, found by
// bench/fuzz.js: a resident engine reached its 256 MiB maximum after ~32 000 verdicts and trapped).
let decodeBuf: usize = 0;
let decodeCap: i32 = 0;

/** Stateless (its state is the text parser's, ParserSet refreshes that one): `{"Time":`/`{"Action":` at column 0. */
const STARTS = new ByteSet().chars("{");

export class GoTestJsonParser extends Parser {
  go: GoTestParser;
  view: Line = new Line();

  constructor(go: GoTestParser) { super(); this.go = go; }

  atRest(): bool { return true; }
  starts(): ByteSet | null { return STARTS; }

  claim(l: Line, f: Facts): bool {
    if (l.at(0) != Char.LBRACE || l.at(1) != Char.QUOTE) return false;
    if (!l.matchAt("{\"Time\":", 0) && !l.matchAt("{\"Action\":", 0)) return false;
    if (l.indexOf("\"Action\":") < 0) return false;
    this.go.seen = true;
    f.testsFor("go-test");
    let at = l.indexOf("\"Output\":\"");
    if (at < 0) return true;
    this.decode(l, at + 10, f);
    return true;
  }

  /** Unescapes the JSON string starting at p and feeds each line of it to the text parser. */
  private decode(l: Line, p: i32, f: Facts): void {
    if (decodeBuf == 0 || l.len > decodeCap) {
      if (decodeBuf != 0) heap.free(decodeBuf);
      decodeCap = max(l.len, 4096);
      decodeBuf = heap.alloc(<usize>decodeCap);
    }
    let n = 0;
    let i = p;
    while (i < l.len) {
      let c = l.at(i);
      if (c == Char.QUOTE) break;
      if (c == Char.BACKSLASH) {
        let e = l.at(i + 1);
        i += 2;
        if (e == Char.n) { this.emit(n, f); n = 0; continue; }
        if (e == Char.t) c = Char.TAB;
        else if (e == Char.r) continue;
        else if (e == Char.u) {
          let v = 0;
          for (let k = 0; k < 4; k++) {
            let h = l.at(i + k);
            v = v * 16 + (h <= Char._9 ? h - Char._0 : (h | 0x20) - Char.a + 10);
          }
          i += 4;
          if (v < 0x80) c = v;
          else if (v < 0x800) { store<u8>(decodeBuf + <usize>(n++), <u8>(0xC0 | (v >> 6))); c = 0x80 | (v & 0x3F); }
          else { store<u8>(decodeBuf + <usize>(n++), <u8>(0xE0 | (v >> 12))); store<u8>(decodeBuf + <usize>(n++), <u8>(0x80 | ((v >> 6) & 0x3F))); c = 0x80 | (v & 0x3F); }
        } else c = e;
        store<u8>(decodeBuf + <usize>(n++), <u8>c);
        continue;
      }
      store<u8>(decodeBuf + <usize>(n++), <u8>c);
      i++;
    }
    if (n > 0) this.emit(n, f);
  }

  private emit(n: i32, f: Facts): void {
    let v = this.view;
    v.set(decodeBuf, n); // resets the line's cached head colon too
    this.go.text(v, f);
  }
}
