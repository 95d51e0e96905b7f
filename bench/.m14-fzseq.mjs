import fc from 'fast-check';
import * as v from 'valibot';
const root = '/work/main';
const enginePath = process.argv[2];
const { inputArbitrary, fuzzContext, checkInput } = await import(root + '/test/helpers/fuzz.js');
const ctx = await fuzzContext(root);
const { createEngine } = await import(enginePath);
const engine = await createEngine();
const upto = Number(process.argv[4]);
let n = 0, prev = null, lastMem = engine.memoryBytes();
fc.check(fc.property(inputArbitrary(ctx.logs, ctx.blocks), (input) => {
  n++;
  const r = checkInput(engine, ctx.RunResultSchema, input, prev);
  const m = engine.memoryBytes();
  if (m > lastMem) { console.log('run', n, 'memory', lastMem / 1048576, '->', m / 1048576, 'input', input.bytes.length, r.kind ?? ''); lastMem = m; }
  if (r.kind) console.log('run', n, r.kind, r.why);
  else prev = r.verdict;
  return true;
}), { numRuns: upto, seed: Number(process.argv[3]) });
