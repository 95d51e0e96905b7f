// The last unclaimed lines of a log, in a fixed ring of byte slots: no allocation per line.
import { Line } from "./util/line";
import { decode } from "./util/utf8";

export const TAIL_LINES = 12;
const SLOT = 512;

export class Tail {
  private slots: usize = heap.alloc(TAIL_LINES * SLOT);
  private lens: StaticArray<i32> = new StaticArray<i32>(TAIL_LINES);
  private cut: StaticArray<bool> = new StaticArray<bool>(TAIL_LINES);
  private count: i32 = 0;
  private next: i32 = 0;

  reset(): void { this.count = 0; this.next = 0; }

  push(l: Line): void {
    if (l.isBlank()) return;
    let n = min(l.len, SLOT);
    memory.copy(this.slots + <usize>(this.next * SLOT), l.ptr, <usize>n);
    this.lens[this.next] = n;
    this.cut[this.next] = l.len > SLOT;
    this.next = (this.next + 1) % TAIL_LINES;
    if (this.count < TAIL_LINES) this.count++;
  }

  /** A line given back as text (a parser's held-back line, see Facts.released). */
  pushText(s: string): void {
    let b = String.UTF8.encode(s);
    let n = min(b.byteLength, SLOT);
    if (n == 0) return;
    memory.copy(this.slots + <usize>(this.next * SLOT), changetype<usize>(b), <usize>n);
    this.lens[this.next] = n;
    this.cut[this.next] = b.byteLength > SLOT;
    this.next = (this.next + 1) % TAIL_LINES;
    if (this.count < TAIL_LINES) this.count++;
  }

  lines(): string[] {
    let out = new Array<string>(0);
    let start = (this.next - this.count + TAIL_LINES) % TAIL_LINES;
    for (let i = 0; i < this.count; i++) {
      let k = (start + i) % TAIL_LINES;
      let s = decode(this.slots + <usize>(k * SLOT), this.lens[k]);
      out.push(this.cut[k] ? s + "…" : s);
    }
    return out;
  }
}
