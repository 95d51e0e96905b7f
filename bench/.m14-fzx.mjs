import fc from 'fast-check';
import { writeFileSync } from 'node:fs';
const root = '/work/main';
const { inputArbitrary, fuzzContext } = await import(root + '/test/helpers/fuzz.js');
const { logs, blocks } = await fuzzContext(root);
const want = process.argv.slice(3).map(Number);
let n = 0;
fc.check(fc.property(inputArbitrary(logs, blocks), (input) => {
  n++;
  if (want.includes(n)) { writeFileSync(`/tmp/m14-fz-${n}.bin`, input.bytes); writeFileSync(`/tmp/m14-fz-${n}.json`, JSON.stringify({ opts: input.opts, chunks: input.chunks, full: input.full })); }
  return true;
}), { numRuns: Math.max(...want), seed: Number(process.argv[2]) });
console.log('done', n);
