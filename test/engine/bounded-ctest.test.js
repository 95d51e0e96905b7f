// CTest results of failing tests, many (issue 32: memory bounded on any input). Each failing result made a
// parser set for the test's output (every parser) whether or not the test printed any: garbage the
// minimal runtime keeps until its next collection, 64 MiB of Wasm memory from 0.7 MB of log. The set is
// now made at the test's first line of output.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../fixtures/lib/cases.js';

const { createEngine } = await import(join(ROOT, 'dist/engine.js'));
const MIB = 1 << 20;

test('ctest-fail, its failing result line 10 000 times: a verdict, in bounded memory', async () => {
  const all = readFileSync(join(ROOT, 'fixtures/runners/ctest-fail/log.txt'), 'utf8').split('\n');
  const bytes = Buffer.from([...all.slice(0, 3), ...Array(10_000).fill(all[3]), ...all.slice(4)].join('\n'));
  const engine = await createEngine();
  const s = engine.stream({ exit: 1 });
  for (let off = 0; off < bytes.length; off += 65_536) s.push(bytes.subarray(off, off + 65_536));
  const t = s.end().verdict.tests;
  assert.equal(t.failures.map((f) => f.name), ['ring_test', 'smoke']);
  assert.ok(engine.memoryBytes() <= 16 * MIB, `engine memory ${engine.memoryBytes() / MIB} MiB for ${bytes.length} bytes of input`);
});

// A failing result and its one line of output, both put again 1 600 times (as bench:fuzz's repeat made them): each
// failing test's output was read by a parser set made for it, garbage the minimal runtime keeps until the engine
// call ends (64 MiB of Wasm memory from 250 KB of log in one call). Past 64 tests, output is kept as lines.
test('ctest-file-line-output, a failing result and its output line 1 600 times: a verdict, in bounded memory', async () => {
  const all = readFileSync(join(ROOT, 'fixtures/runners/ctest-file-line-output/log.txt'), 'utf8').split('\n');
  const at = all.findIndex((l) => l.includes('***Failed'));
  const bytes = Buffer.from([...all.slice(0, at), ...Array(1_600).fill(all.slice(at, at + 2)).flat(), ...all.slice(at + 2)].join('\n'));
  const engine = await createEngine();
  const v = engine.verdict(bytes, { exit: 8 }).verdict;
  assert.ok(v.tests.failures.length >= 1, JSON.stringify(v.tests));
  assert.ok(engine.memoryBytes() <= 16 * MIB, `engine memory ${engine.memoryBytes() / MIB} MiB for ${bytes.length} bytes of input`);
});

test.run();
