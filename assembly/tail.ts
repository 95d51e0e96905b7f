// The last unclaimed lines of a log, in a fixed set of byte slots: no allocation per line.
//
// Which lines stay: the last TAIL_LINES, except that a line saying FAIL or error (in a format no parser
// knows) outlives the lines after it: when the oldest line is such a line, the oldest line saying PASS or
// ok goes instead, or else the oldest other one. Ten `N - desc: PASSED` lines after the one that FAILED
// leave the FAILED one. Such lines keep at most TAIL_LINES - TAIL_RECENT slots: the last lines still show.
import { Char } from "./util/chars";
import { Line } from "./util/line";
import { decode } from "./util/utf8";

export const TAIL_LINES = 12;
/** Slots a FAIL/error line cannot take from the latest lines. */
const TAIL_RECENT = 4;
const SLOT = 512;

const KIND_OTHER: u8 = 0;
const KIND_NOISE: u8 = 1;
const KIND_SALIENT: u8 = 2;

export class Tail {
  private slots: usize = heap.alloc(TAIL_LINES * SLOT);
  private lens: StaticArray<i32> = new StaticArray<i32>(TAIL_LINES);
  private cut: StaticArray<bool> = new StaticArray<bool>(TAIL_LINES);
  private kinds: StaticArray<u8> = new StaticArray<u8>(TAIL_LINES);
  /** Slot numbers in the order their lines came, oldest first; count of them in use. The free slots follow them. */
  private order: StaticArray<i32> = new StaticArray<i32>(TAIL_LINES);
  private count: i32 = 0;
  /** Lines put in since reset() (kept or not): a parser notes it to know whether a line came after a point. */
  pushed: i64 = 0;

  constructor() { for (let i = 0; i < TAIL_LINES; i++) unchecked(this.order[i] = i); }

  reset(): void { this.count = 0; this.pushed = 0; }

  /** The newest line, or null when none. */
  last(): string | null {
    if (this.count == 0) return null;
    let k = this.order[this.count - 1];
    return decode(this.slots + <usize>(k * SLOT), this.lens[k]);
  }

  /** The line put in `back` lines before the newest (0: the newest), or null when it is no longer kept. */
  fromLast(back: i32): string | null {
    if (back < 0 || back >= this.count) return null;
    let k = this.order[this.count - 1 - back];
    return decode(this.slots + <usize>(k * SLOT), this.lens[k]);
  }

  push(l: Line): void {
    if (l.isBlank()) return;
    this.put(l.ptr, l.len);
  }

  /**
   * Takes back the newest line when it is the one put in as line number `pushedAt` (pushed's count then): a parser
   * that let a line go to the tail and then learnt, from the line after it, that the line was its own (rustc's
   * `warning: msg` header outside a cargo log, confirmed by its `-->` location). A line that line pushed out stays out.
   */
  takeBack(pushedAt: i64): void {
    if (this.pushed == pushedAt) this.dropLast();
  }

  /** A line given back as text (a parser's held-back line, see Facts.released). */
  pushText(s: string): void {
    let b = String.UTF8.encode(s);
    if (b.byteLength == 0) return;
    this.put(changetype<usize>(b), b.byteLength);
  }

  private put(ptr: usize, len: i32): void {
    this.pushed++;
    let slot = this.take();
    let n = min(len, SLOT);
    memory.copy(this.slots + <usize>(slot * SLOT), ptr, <usize>n);
    // (slot numbers are always < TAIL_LINES: unchecked, as every access below)
    unchecked(this.lens[slot] = n);
    unchecked(this.cut[slot] = len > SLOT);
    unchecked(this.kinds[slot] = kindOf(ptr, n));
  }

  /** A free slot, placed last in the order: a new one, or the one whose line goes (see the header). */
  private take(): i32 {
    let o = this.order;
    let kinds = this.kinds;
    if (this.count < TAIL_LINES) return unchecked(o[this.count++]);
    let v = 0;
    if (unchecked(kinds[unchecked(o[0])]) == KIND_SALIENT) {
      let salient = 0, noise = -1, other = -1;
      for (let i = 0; i < TAIL_LINES; i++) {
        let k = unchecked(kinds[unchecked(o[i])]);
        if (k == KIND_SALIENT) salient++;
        else if (k == KIND_NOISE) { if (noise < 0) noise = i; }
        else if (other < 0) other = i;
      }
      if (noise >= 0) v = noise;
      else if (salient <= TAIL_LINES - TAIL_RECENT && other >= 0) v = other;
    }
    let s = unchecked(o[v]);
    let base = changetype<usize>(o);
    memory.copy(base + (<usize>v << 2), base + (<usize>(v + 1) << 2), <usize>(TAIL_LINES - 1 - v) << 2);
    unchecked(o[TAIL_LINES - 1] = s);
    return s;
  }

  /**
   * Takes back the newest line: a parser that learns from the line after it that the line was its own
   * (eslint-formatter-pretty's file header). Its slot, last in the order, is the next one take() hands out; a line
   * the newest one pushed out of a full tail stays out.
   */
  dropLast(): void {
    if (this.count == 0) return;
    this.count--;
    this.pushed--;
  }

  lines(): string[] {
    let out = new Array<string>(0);
    for (let i = 0; i < this.count; i++) {
      let k = this.order[i];
      let s = decode(this.slots + <usize>(k * SLOT), this.lens[k]);
      out.push(this.cut[k] ? s + "…" : s);
    }
    return out;
  }
}

/**
 * SALIENT when the line says FAIL/Fail/fail or ERROR/Error/error; NOISE when it says the word PASS/Pass/pass
 * (passed, passes) or ok/OK.
 */
function kindOf(p: usize, n: i32): u8 {
  let noise = false;
  for (let i = 0; i + 2 <= n; i++) {
    let c = <i32>load<u8>(p + <usize>i);
    let lc = c | 0x20;
    if (lc == Char.f && i + 4 <= n && word(p + <usize>i, "ail")) return KIND_SALIENT;
    if (lc == Char.e && i + 5 <= n && word(p + <usize>i, "rror")) return KIND_SALIENT;
    if (noise) continue;
    if (lc == Char.p && i + 4 <= n && word(p + <usize>i, "ass") && passWord(p, i, n)) noise = true;
    else if (lc == Char.o && (<i32>load<u8>(p + <usize>i + 1) | 0x20) == Char.k) {
      // `ok`/`OK` as a word, not inside `look` or `token`
      let before = i == 0 ? Char.SPACE : <i32>load<u8>(p + <usize>i - 1);
      let after = i + 2 < n ? <i32>load<u8>(p + <usize>i + 2) : Char.SPACE;
      if (!isWordByte(before) && !isWordByte(after)) noise = true;
    }
  }
  return noise ? KIND_NOISE : KIND_OTHER;
}

/** The letters after the first, in one case as the first's (`ail` after `F` must be `AIL` or `ail`). */
function word(p: usize, rest: string): bool {
  let upper = <i32>load<u8>(p) < Char.a;
  let allUpper = true, allLower = true;
  for (let k = 0; k < rest.length; k++) {
    let c = <i32>load<u8>(p + <usize>(k + 1));
    let r = rest.charCodeAt(k);
    if (c == r) { allUpper = false; continue; }
    if (c == r - 32) { allLower = false; continue; }
    return false;
  }
  // `FAIL`, `Fail`, `fail`; not `fAIL`
  return upper ? (allUpper || allLower) : allLower;
}

/**
 * `pass` at i is the word a runner writes (`PASS`, `Pass:`, `passed`, `PASSES`), not a part of another
 * (`bypass`, `password`, `by passing --break-system-packages`: pip's advice is no noise).
 */
function passWord(p: usize, i: i32, n: i32): bool {
  if (i > 0 && isWordByte(<i32>load<u8>(p + <usize>i - 1))) return false;
  let e = i + 4;
  if (e + 2 <= n) {
    let a = <i32>load<u8>(p + <usize>e) | 0x20, b = <i32>load<u8>(p + <usize>e + 1) | 0x20;
    if (a == Char.e && (b == Char.d || b == Char.s)) e += 2;
  }
  return e >= n || !isWordByte(<i32>load<u8>(p + <usize>e));
}

function isWordByte(c: i32): bool {
  return (c >= Char._0 && c <= Char._9) || ((c | 0x20) >= Char.a && (c | 0x20) <= Char.z) || c == Char.UNDERSCORE;
}
