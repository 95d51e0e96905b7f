// The host reads the engine's output through Buffer (src/host/utf8-text.ts), not TextDecoder, whose
// first use costs a cold start more: the text must be TextDecoder('utf-8')'s for any bytes — U+FFFD for
// each invalid subpart, a leading BOM dropped (one only), other BOMs kept.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../../fixtures/lib/cases.js';

const { build } = await import('esbuild');
const out = join(mkdtempSync(join(tmpdir(), 'sbx-utf8-')), 'mod.mjs');
const bundled = await build({ stdin: { contents: "export { utf8Text } from './src/host/utf8-text.ts';", resolveDir: ROOT, loader: 'ts' }, bundle: true, platform: 'node', format: 'esm', write: false, logLevel: 'silent' });
writeFileSync(out, bundled.outputFiles[0].text);
const { utf8Text } = await import(out);
const td = new TextDecoder('utf-8');
const hex = (u) => Buffer.from(u).toString('hex');

test('edges: empty, BOMs, truncated and overlong sequences, surrogates, past U+10FFFF', () => {
  const cases = ['', 'efbbbf', 'efbbbfefbbbf', 'efbbbf41', '41efbbbf', 'efbb', 'ef', 'c0af', 'e080af', 'eda080', 'edbfbf', 'f4908080', 'f0908d88', 'ff', 'c3', 'c328', 'e282', 'f09f98', 'f09f9880', '7b22223a22e2809d227d'];
  for (const h of cases) {
    const u = new Uint8Array(Buffer.from(h, 'hex'));
    assert.is(utf8Text(u), td.decode(u), h);
  }
});

test('300 000 random byte strings (mostly ASCII, lead and continuation bytes mixed), and views into a larger buffer', () => {
  let x = 0x9e3779b9;
  const next = () => ((x ^= x << 13), (x ^= x >>> 17), (x ^= x << 5), x >>> 0);
  const big = new Uint8Array(64);
  for (let k = 0; k < 300_000; k++) {
    const n = 1 + (next() % 24);
    const at = next() % (big.length - n);
    for (let i = 0; i < n; i++) {
      const r = next() % 100;
      big[at + i] = r < 50 ? next() % 128 : r < 70 ? 0x80 + (next() % 64) : r < 80 ? 0xc0 + (next() % 32) : r < 90 ? 0xe0 + (next() % 16) : 0xf0 + (next() % 16);
    }
    if (n >= 3 && next() % 20 === 0) big.set([0xef, 0xbb, 0xbf], at);
    const u = big.subarray(at, at + n);
    const a = utf8Text(u);
    if (a !== td.decode(u)) assert.is(a, td.decode(u), hex(u));
  }
});

test.run();
