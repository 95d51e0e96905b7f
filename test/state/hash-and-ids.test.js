// The run path's own SHA-256, random ids and timestamps (src/host/state/sha256.ts, random-id.ts,
// utc-time.ts), which keep node:crypto and the time zone off a cold start: the digest is
// node:crypto's, byte for byte, at every padding boundary, for non-ASCII text and past the size where
// node:crypto takes over; ids are nanoid-shaped; timestamps are toISOString()'s.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../../fixtures/lib/cases.js';

const { build } = await import('esbuild');
const out = join(mkdtempSync(join(tmpdir(), 'sbx-hash-')), 'mod.mjs');
const src = "export { sha256Hex } from './src/host/state/sha256.ts'; export { randomId } from './src/host/state/random-id.ts'; export { utcTime } from './src/host/state/utc-time.ts';";
const bundled = await build({ stdin: { contents: src, resolveDir: ROOT, loader: 'ts' }, bundle: true, platform: 'node', format: 'esm', write: false, logLevel: 'silent' });
writeFileSync(out, bundled.outputFiles[0].text);
const { sha256Hex, randomId, utcTime } = await import(out);

const native = (s) => createHash('sha256').update(s).digest('hex');
const inputs = [
  '', 'abc', 'go test ./...',
  ...Array.from({ length: 140 }, (_, n) => 'x'.repeat(n)), // every length around the 55/56/64-byte padding edges
  'é'.repeat(40), '日本語のテキスト\0with NUL', '🙂'.repeat(33), 'a\u{10ffff}b',
  'p'.repeat(64 * 1024), 'q'.repeat(64 * 1024 + 1), 'r/s\x00100644:12:1700000000000000000\x00'.repeat(5000),
];
for (const [i, s] of inputs.entries()) {
  test(`sha256Hex = node:crypto: input ${i} (${s.length} units)`, () => {
    assert.is(sha256Hex(s), native(s));
  });
}

test('randomId: n characters of the base64url alphabet, different every time', () => {
  const seen = new Set();
  for (let i = 0; i < 2000; i++) {
    const id = randomId(8);
    assert.match(id, /^[A-Za-z0-9_-]{8}$/);
    seen.add(id);
  }
  assert.is(seen.size, 2000);
  assert.is(randomId(6).length, 6);
});

// [ms since the epoch, why it is here]
const times = [
  [0, 'the epoch'], [-1, 'before it'], [951782400000, 'a leap day (2000-02-29)'], [1700000000123, 'a recent one'],
  [1735689599999, 'the last ms of a year'], [1735689600000, 'the first of the next'], [253402300799999, 'the last of year 9999'],
  [253402300800000, 'year 10000 (+YYYYYY)'], [-62167219200001, 'year -1 (-YYYYYY)'], [-62167219200000, 'year 0'],
  ...Array.from({ length: 500 }, (_, i) => [Math.round(Math.sin(i + 1) * 4e12), `spread ${i}`]),
];
test('utcTime = Date.prototype.toISOString, and now by default', () => {
  for (const [ms, why] of times) assert.is(utcTime(ms), new Date(ms).toISOString(), `${why} (${ms})`);
  const before = Date.now(); const now = Date.parse(utcTime()); const after = Date.now();
  assert.ok(now >= before && now <= after, 'the default is now');
});

test.run();
