// AssemblyScript 0.28's String#trim stops trimming leading blanks once it has trimmed as many as remain
// ("     70".trim() is " 70": its loop tests the offset against a size it shrinks as it goes). The engine calls
// trimStart().trimEnd() instead, which are right; this keeps a call of trim() from coming back. (Found in
// session 14: AVA's and mocha's expected/actual values of a deep diff kept a blank, `" 3,"` for `3,`;
// fixtures runners/ava-fail and runners/mocha-dot-hook assert them.)
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../fixtures/lib/cases.js';

function sources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

test('assembly/ never calls String#trim()', () => {
  const calls = sources(join(ROOT, 'assembly')).flatMap((f) => readFileSync(f, 'utf8').split('\n').map((l, i) => [f, i + 1, l]).filter(([, , l]) => /\.trim\(\)/.test(l)));
  assert.equal(calls.map(([f, n]) => `${f.slice(ROOT.length + 1)}:${n}`), []);
});

test.run();
