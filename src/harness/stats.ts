// Statistics for the study's tables: Wilson score intervals, the exact McNemar test, and a seeded paired
// bootstrap. Pure functions of their inputs (the bootstrap's PRNG is seeded), so tables are reproducible.

/** Wilson 95 % score interval for k successes in n. */
export function wilson(k: number, n: number, z = 1.959963984540054): [number, number] {
  if (n === 0) return [0, 1];
  const p = k / n; const z2 = z * z;
  const c = (p + z2 / (2 * n)) / (1 + z2 / n);
  const h = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  return [k === 0 ? 0 : Math.max(0, c - h), k === n ? 1 : Math.min(1, c + h)];
}

/** Exact two-sided McNemar p-value from the discordant counts b (only A succeeded) and c (only B). */
export function mcnemarExact(b: number, c: number): number {
  const n = b + c;
  if (n === 0) return 1;
  const k = Math.min(b, c);
  let tail = 0;
  for (let i = 0; i <= k; i++) tail += binom(n, i);
  return Math.min(1, (2 * tail) / 2 ** n);
}

function binom(n: number, k: number): number {
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
  return r;
}

/** mulberry32: a small seeded PRNG. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Mean of the paired differences and its percentile bootstrap 95 % CI (resampling pairs). */
export function pairedBootstrap(diffs: readonly number[], iterations: number, seed: number): { mean: number; lo: number; hi: number } {
  const n = diffs.length;
  if (n === 0) return { mean: NaN, lo: NaN, hi: NaN };
  const mean = diffs.reduce((s, x) => s + x, 0) / n;
  const rand = prng(seed);
  const means: number[] = [];
  for (let it = 0; it < iterations; it++) {
    let s = 0;
    for (let i = 0; i < n; i++) s += diffs[Math.floor(rand() * n)]!;
    means.push(s / n);
  }
  means.sort((x, y) => x - y);
  const q = (p: number): number => means[Math.min(means.length - 1, Math.max(0, Math.floor(p * means.length)))]!;
  return { mean, lo: q(0.025), hi: q(0.975) };
}

export const median = (xs: readonly number[]): number => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
export const mean = (xs: readonly number[]): number => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : NaN);
