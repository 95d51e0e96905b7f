// scripts/pack-data.js merges the Wasm module's data segments into one (a faster instantiation):
// the module it makes must be the same program, with the same memory, giving the same bytes.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createEngine } from '../../dist/engine.js';
import { dataSegments, packData } from '../../scripts/pack-data.js';
import { listCases, ROOT } from '../../fixtures/lib/cases.js';

const memoryAfterStart = (wasm) => {
  const inst = new WebAssembly.Instance(new WebAssembly.Module(wasm), { env: { abort() { throw new Error('abort'); } } });
  return new Uint8Array(inst.exports.memory.buffer);
};

// The debug build is left unpacked: its thousands of segments are the input.
const debug = readFileSync(join(ROOT, 'build', 'sbx-debug.wasm'));
const packed = packData(debug);

test('the release module has one data segment; the debug one has many', () => {
  assert.is(dataSegments(readFileSync(join(ROOT, 'build', 'sbx.wasm'))), 1);
  assert.ok(dataSegments(debug) > 100, `debug segments: ${dataSegments(debug)}`);
  assert.ok(packed, 'packData merged nothing');
  assert.is(dataSegments(packed.wasm), 1);
  assert.is(packed.before, dataSegments(debug));
  assert.is(packData(packed.wasm), null, 'a packed module is packed again');
});

test('the packed module starts with the same memory, byte for byte', () => {
  const a = memoryAfterStart(debug);
  const b = memoryAfterStart(packed.wasm);
  assert.is(a.length, b.length);
  assert.ok(Buffer.from(a).equals(Buffer.from(b)), 'memory differs after instantiation');
});

test('the packed module gives the same envelope and rendering for every fixture', async () => {
  const one = await createEngine({ wasm: new WebAssembly.Module(debug) });
  const two = await createEngine({ wasm: new WebAssembly.Module(packed.wasm) });
  const cases = listCases();
  assert.ok(cases.length > 50, `only ${cases.length} fixtures`);
  for (const c of cases) {
    const o = { exit: c.run.exit ?? null, signal: c.run.signal ?? null };
    const x = one.verdict(c.log, o); const y = two.verdict(c.log, o);
    assert.is(JSON.stringify(y), JSON.stringify(x), c.id);
    assert.is(two.render(y), one.render(x), c.id);
  }
});

test.run();
