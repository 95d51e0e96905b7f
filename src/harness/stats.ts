// Statistics for the study's tables: Wilson score intervals, the exact McNemar test, and a seeded paired
// bootstrap. Pure functions of their inputs (the bootstrap's PRNG is seeded), so tables are reproducible.

/** Wilson 95 % score interval for k successes in n. */
export function wilson(k: number, n: number, z = 1.959963984540054): [number, number] {
  if (n === 0) return [0, 1];
  const p = k / n;
  const z2 = z * z;
  const c = (p + z2 / (2 * n)) / (1 + z2 / n);
  const h = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  return [k === 0 ? 0 : Math.max(0, c - h), k === n ? 1 : Math.min(1, c + h)];
}

/**
 * Exact two-sided McNemar p-value from the discordant counts b (only A succeeded) and c (only B): the
 * two-sided binomial test of min(b, c) in b + c at 1/2, as scipy.stats.binomtest gives it. The largest
 * term of the tail is taken in log space by Loader's saddle-point formula (as R's dbinom and scipy's
 * binom do), the rest as ratios to it, so the p-value stays finite and accurate past n ≈ 1 024, where 2^n
 * and the binomial coefficients overflow a double (issue 33).
 */
export function mcnemarExact(b: number, c: number): number {
  const n = b + c;
  const k = Math.min(b, c);
  if (n === 0 || 2 * k + 1 >= n) return 1; // the smaller count is at the middle: both tails are everything
  let sum = 1;
  let term = 1; // P(X = i) / P(X = k), from i = k down
  for (let i = k; i > 0; i--) {
    term *= i / (n - i + 1);
    sum += term;
    if (term < sum * 1e-17) break;
  }
  return Math.min(1, 2 * Math.exp(logBinomHalf(k, n)) * sum);
}

/** log P(X = k) for X ~ Binomial(n, 1/2), by Loader (2000): accurate to a few ulps at any n. */
function logBinomHalf(k: number, n: number): number {
  if (k === 0 || k === n) return -n * Math.LN2;
  const h = n / 2;
  return stirlerr(n) - stirlerr(k) - stirlerr(n - k) - bd0(k, h) - bd0(n - k, h) + 0.5 * Math.log(n / (2 * Math.PI * k * (n - k)));
}

/** log(k!) - [(k + 1/2) log k - k + log √(2π)]: the error of Stirling's formula. */
function stirlerr(k: number): number {
  if (k <= 15) {
    let f = 1;
    for (let i = 2; i <= k; i++) f *= i; // exact in a double up to 18!
    return Math.log(f) - (k + 0.5) * Math.log(k) + k - 0.5 * Math.log(2 * Math.PI);
  }
  const S0 = 1 / 12;
  const S1 = 1 / 360;
  const S2 = 1 / 1260;
  const S3 = 1 / 1680;
  const S4 = 1 / 1188;
  const kk = k * k;
  if (k > 500) return (S0 - S1 / kk) / k;
  if (k > 80) return (S0 - (S1 - S2 / kk) / kk) / k;
  if (k > 35) return (S0 - (S1 - (S2 - S3 / kk) / kk) / kk) / k;
  return (S0 - (S1 - (S2 - (S3 - S4 / kk) / kk) / kk) / kk) / k;
}

/** x log(x / m) + m - x, without the cancellation near x = m. */
function bd0(x: number, m: number): number {
  if (Math.abs(x - m) < 0.1 * (x + m)) {
    let v = (x - m) / (x + m);
    let s = (x - m) * v;
    let ej = 2 * x * v;
    v *= v;
    for (let j = 1; j < 1000; j++) {
      ej *= v;
      const s1 = s + ej / (2 * j + 1);
      if (s1 === s) return s1;
      s = s1;
    }
    return s;
  }
  return x * Math.log(x / m) + m - x;
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
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
export const mean = (xs: readonly number[]): number => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : NaN);
