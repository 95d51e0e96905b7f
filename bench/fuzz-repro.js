#!/usr/bin/env node
// Regenerates inputs that `npm run bench:fuzz` reported ("trap (...) at run 23908, seed 1000"), runs each
// alone through a fresh check, and writes it out (fuzz-<seed>-<run>.bin, and .json with its options,
// chunk sizes and the previous verdict) for a test or the debugger:
//
//   node bench/fuzz-repro.js SEED RUN [RUN...] [--out DIR]
//
// The worker with that seed generated the same inputs in the same order (fast-check, test/helpers/fuzz.js).
import fc from 'fast-check';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const outAt = args.indexOf('--out');
const out = outAt >= 0 ? args.splice(outAt, 2)[1] : '.';
const [seed, ...runs] = args.map(Number);
if (!Number.isInteger(seed) || runs.length === 0 || !runs.every((r) => Number.isInteger(r) && r > 0)) {
  console.error('fuzz-repro: give the seed and run numbers bench:fuzz printed, e.g. node bench/fuzz-repro.js 1000 23908');
  process.exit(2);
}
const { inputArbitrary, checkInput, fuzzContext } = await import(join(root, 'test', 'helpers', 'fuzz.js'));
const { engine, logs, blocks, RunResultSchema } = await fuzzContext(root);
const want = new Set(runs);
const last = Math.max(...runs);
let n = 0;
let prev = null;
let mem = engine.memoryBytes();
fc.check(fc.property(inputArbitrary(logs, blocks), (input) => {
  n++;
  // Every input goes through the engine as in the bench: the verdict each leaves is the next one's prev.
  const r = checkInput(engine, RunResultSchema, input, prev);
  // A bound (memory) fault may be an earlier input's doing: each input that grew the engine's memory is named.
  const m = engine.memoryBytes();
  if (m > mem) { console.log(`run ${n}: engine memory ${mem / 1048576} -> ${m / 1048576} MiB (${input.bytes.length} bytes)`); mem = m; }
  if (r.kind && !want.has(n)) console.log(`run ${n}: ${r.kind} (${r.why})`);
  if (want.has(n)) {
    const base = join(out, `fuzz-${seed}-${n}`);
    writeFileSync(`${base}.bin`, input.bytes);
    writeFileSync(`${base}.json`, `${JSON.stringify({ opts: input.opts, chunks: input.chunks, full: input.full, prev })}\n`);
    console.log(`run ${n}: ${input.bytes.length} bytes, ${r.kind ?? 'ok'}${r.why ? ` (${r.why})` : ''} -> ${base}.bin`);
  }
  if (!r.kind) prev = r.verdict;
  return n < last;
}), { numRuns: last, seed, endOnFailure: true }); // false at the last run only ends it: nothing to shrink
