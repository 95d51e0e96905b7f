// The lines an edit really changes: a minimal line diff (Myers' O((N+M)D) shortest edit script), so a
// whole-file rewrite (write_file replaces the file) that adds an #include at the top and edits line 20
// changes lines 1 and 20, not the span 1–20 (issue 33 §2). Line ends are compared without their \r, and a
// missing final newline is no edit.

/** A file's lines for comparison: split on \n, each without a trailing \r, no empty line after a final newline. */
export function linesOf(text: string): string[] {
  const l = text.split('\n');
  if (l.length > 1 && l[l.length - 1] === '') l.pop();
  else if (l.length === 1 && l[0] === '') return [];
  return l.map((x) => (x.endsWith('\r') ? x.slice(0, -1) : x));
}

/** A run of lines of `a` (aLo ≤ i < aHi) replaced by lines of `b` (bLo ≤ j < bHi); either side may be empty. */
export interface Hunk {
  aLo: number;
  aHi: number;
  bLo: number;
  bHi: number;
}

/** Above this many lines (after the common head and tail) the middle counts as replaced whole. */
const MAX_MIDDLE = 20_000;

/** The hunks of a minimal line diff of a → b (0-based indices), in order. */
export function hunks(a: readonly string[], b: readonly string[]): Hunk[] {
  let s = 0;
  while (s < a.length && s < b.length && a[s] === b[s]) s++;
  let ea = a.length;
  let eb = b.length;
  while (ea > s && eb > s && a[ea - 1] === b[eb - 1]) {
    ea--;
    eb--;
  }
  const n = ea - s;
  const m = eb - s;
  if (n === 0 && m === 0) return [];
  if (n === 0 || m === 0 || n + m > MAX_MIDDLE) return [{ aLo: s, aHi: ea, bLo: s, bHi: eb }];
  // Myers: v[k] is the furthest x on diagonal k = x - y; keep each round's v to walk the path back.
  const max = n + m;
  const off = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let found = -1;
  for (let d = 0; d <= max && found < 0; d++) {
    trace.push(v.slice(off - d - 1, off + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[off + k - 1]! < v[off + k + 1]!) ? v[off + k + 1]! : v[off + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[s + x] === b[s + y]) {
        x++;
        y++;
      }
      v[off + k] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
  }
  // Walk back: the matched pairs (diagonal moves) in reverse.
  const pairs: [number, number][] = [];
  let x = n;
  let y = m;
  for (let d = found; d > 0; d--) {
    const pv = trace[d]!;
    const at = (k: number): number => pv[k + d + 1]!; // v as round d found it
    const k = x - y;
    const prevK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const px = at(prevK);
    const py = px - prevK;
    while (x > px && y > py) {
      pairs.push([s + x - 1, s + y - 1]);
      x--;
      y--;
    }
    x = px;
    y = py;
  }
  while (x > 0 && y > 0) {
    pairs.push([s + x - 1, s + y - 1]);
    x--;
    y--;
  }
  pairs.reverse();
  // The gaps between matched pairs are the hunks.
  const out: Hunk[] = [];
  let i = s;
  let j = s;
  for (const [pi, pj] of [...pairs, [ea, eb] as [number, number]]) {
    if (pi > i || pj > j) out.push({ aLo: i, aHi: pi, bLo: j, bHi: pj });
    i = pi + 1;
    j = pj + 1;
  }
  return out;
}

/** Lines of `before` an edit to `after` changes (1-based, before's numbering); an insertion counts at the line it follows (1 at the top). */
export function changedLines(before: string, after: string): number[] {
  const a = linesOf(before);
  return changedIn(
    hunks(a, linesOf(after)),
    a.map((_, i) => i + 1),
  );
}

/** The changed lines of hunks in an origin's numbering (origin[i]: the line that line i+1 stands for). */
function changedIn(hs: readonly Hunk[], origin: readonly number[]): number[] {
  const out = new Set<number>();
  for (const h of hs) {
    if (h.aHi > h.aLo) for (let i = h.aLo; i < h.aHi; i++) out.add(origin[i]!);
    else out.add(origin[h.aLo - 1] ?? 1);
  }
  return [...out].sort((x, y) => x - y);
}

/**
 * A file's successive whole-file writes, each edit's changed lines given in the numbering of the file as
 * the agent first found it: an #include added by one edit does not move the lines a later edit names.
 * A line an edit puts in place of others stands for the line it replaced; an inserted line for the line
 * it follows.
 */
export class EditTrack {
  private origin = new Map<string, number[]>();

  edit(file: string, before: string, after: string): number[] {
    const a = linesOf(before);
    const b = linesOf(after);
    const origin = this.origin.get(file) ?? a.map((_, i) => i + 1);
    const hs = hunks(a, b);
    const lines = changedIn(hs, origin);
    const next: number[] = [];
    let i = 0;
    for (const h of hs) {
      for (; i < h.aLo; i++) next.push(origin[i]!);
      for (let t = 0; t < h.bHi - h.bLo; t++) next.push(h.aHi > h.aLo ? origin[h.aLo + Math.min(t, h.aHi - h.aLo - 1)]! : (origin[h.aLo - 1] ?? 1));
      i = h.aHi;
    }
    for (; i < a.length; i++) next.push(origin[i]!);
    this.origin.set(file, next);
    return lines;
  }
}
