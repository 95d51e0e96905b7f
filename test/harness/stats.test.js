// The exact McNemar test is scipy's two-sided binomial test at 1/2 for every number of discordant pairs
// (issue 33: it returned NaN from n ≈ 1 024 on, where 2^n overflowed). The reference values are
// scipy.stats.binomtest(min(b, c), b + c, 0.5).pvalue from scipy 1.17.1, by the script in the comment.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mcnemarExact } from '../../dist/harness.js';

// python3 -c 'from scipy.stats import binomtest; print([(b, c, binomtest(min(b, c), b + c, 0.5).pvalue) for b, c in PAIRS])'
const SCIPY = [[0, 1, 1.0], [1, 1, 1.0], [0, 5, 0.0625], [1, 9, 0.021484375], [6, 0, 0.03125], [24, 0, 1.1920928955078125e-07],
  [3, 7, 0.34375], [10, 10, 1.0], [10, 11, 1.0], [500, 524, 0.4723124457890164], [512, 512, 1.0], [480, 544, 0.04892883645248896],
  [1000, 1100, 0.03072070786424249], [600, 1400, 2.30397455599143e-73], [5000, 5200, 0.04878796312682234],
  [49000, 51000, 2.5887160383468943e-10], [100000, 100500, 0.26510509544159483], [20000, 21000, 8.058578026793151e-07],
  [3, 4000, 0.0], [0, 1100, 0.0]];

test('mcnemarExact equals scipy binomtest, small and large n (relative 1e-12)', () => {
  for (const [b, c, want] of SCIPY) {
    const got = mcnemarExact(b, c);
    assert.ok(Number.isFinite(got), `${b},${c}: ${got}`);
    assert.ok(want === 0 ? got < 1e-300 : Math.abs(got - want) <= 1e-12 * want, `${b},${c}: ${got} vs scipy ${want}`);
    assert.is(mcnemarExact(c, b), got, 'symmetric');
  }
  assert.is(mcnemarExact(0, 0), 1);
});

test('mcnemarExact is a p-value at every n up to 3 000: finite, in [0, 1], growing with the smaller count', () => {
  for (const n of [1, 2, 3, 50, 1023, 1024, 1025, 1100, 2047, 3000]) {
    let prev = -1;
    for (let k = 0; k <= n >> 1; k++) {
      const p = mcnemarExact(k, n - k);
      assert.ok(Number.isFinite(p) && p >= 0 && p <= 1, `${k},${n - k}: ${p}`);
      assert.ok(p >= prev, `${k},${n - k}`);
      prev = p;
    }
    assert.is(prev, 1);
  }
});

test.run();
