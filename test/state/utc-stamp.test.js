// The history's stamp (src/host/state/utc-stamp.ts) is Date#toISOString's text, which a cold run does
// not call (its first call sets up the host's time zone): at the edges of months, leap days, centuries,
// the milliseconds' padding and a spread of times around now.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../../fixtures/lib/cases.js';

const { build } = await import('esbuild');
const out = join(mkdtempSync(join(tmpdir(), 'sbx-stamp-')), 'mod.mjs');
const bundled = await build({ stdin: { contents: "export { utcStamp } from './src/host/state/utc-stamp.ts';", resolveDir: ROOT, loader: 'ts' }, bundle: true, platform: 'node', format: 'esm', write: false, logLevel: 'silent' });
writeFileSync(out, bundled.outputFiles[0].text);
const { utcStamp } = await import(out);

const edges = [
  0, 1, 9, 10, 99, 100, 999, -1, -62167219200000 /* 0000-01-01 */, 253402300799999 /* 9999-12-31T23:59:59.999 */,
  Date.UTC(2000, 1, 29, 23, 59, 59, 999), Date.UTC(2100, 1, 28, 12), Date.UTC(2024, 11, 31, 23, 59, 59, 5), Date.UTC(1970, 0, 1, 0, 0, 0, 50),
  Date.UTC(999, 5, 6, 7, 8, 9, 10), Date.UTC(1900, 2, 1),
];
test('edges: the same text as toISOString', () => {
  for (const ms of edges) assert.is(utcStamp(ms), new Date(ms).toISOString(), String(ms));
});

test('200 000 times from 1900 to 2100: the same text as toISOString', () => {
  let x = 0x2545f491;
  const lo = Date.UTC(1900, 0, 1);
  const span = Date.UTC(2100, 0, 1) - lo;
  for (let i = 0; i < 200_000; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    const ms = lo + Math.floor(((x >>> 0) / 2 ** 32) * span) + (i % 1000);
    if (utcStamp(ms) !== new Date(ms).toISOString()) assert.is(utcStamp(ms), new Date(ms).toISOString(), String(ms));
  }
});

test('no argument: now', () => {
  const before = Date.now();
  const t = Date.parse(utcStamp());
  assert.ok(t >= before && t <= Date.now());
});

test.run();
