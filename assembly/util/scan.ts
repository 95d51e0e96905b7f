// Word-at-a-time byte search for the reject paths that look at every unclaimed line.
import { Line } from "./line";

const ONES: u64 = 0x0101010101010101;
const HIGHS: u64 = 0x8080808080808080;

/** Position of the first byte c in the line at or after from, or -1; eight bytes per step. */
export function findByte(l: Line, c: i32, from: i32 = 0): i32 {
  let ptr = l.ptr;
  let len = l.len;
  let i = max(from, 0);
  let pat = <u64>(c & 0xFF) * ONES;
  while (i + 8 <= len) {
    let x = load<u64>(ptr + <usize>i) ^ pat;
    let t = (x - ONES) & ~x & HIGHS;
    // The lowest flagged byte is always a true match (false positives only sit above one).
    if (t != 0) return i + <i32>(ctz(t) >> 3);
    i += 8;
  }
  while (i < len) {
    if (<i32>load<u8>(ptr + <usize>i) == c) return i;
    i++;
  }
  return -1;
}
