// The run path's own SHA-256 and random ids (src/host/state/sha256.ts, random-id.ts), which keep
// node:crypto off a cold start (docs/architecture.md): the digest is node:crypto's, byte for byte, at
// every padding boundary, for non-ASCII text and past the size where node:crypto takes over; ids are
// nanoid-shaped.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../../fixtures/lib/cases.js';

const { build } = await import('esbuild');
const out = join(mkdtempSync(join(tmpdir(), 'sbx-hash-')), 'mod.mjs');
const src = "export { sha256Hex } from './src/host/state/sha256.ts'; export { randomId } from './src/host/state/random-id.ts';";
const bundled = await build({ stdin: { contents: src, resolveDir: ROOT, loader: 'ts' }, bundle: true, platform: 'node', format: 'esm', write: false, logLevel: 'silent' });
writeFileSync(out, bundled.outputFiles[0].text);
const { sha256Hex, randomId } = await import(out);

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

test.run();
