// junitMerge returns the whole merged verdict, not parts for the host to splice: every field of the verdict
// it was given stays in its place with its value, tests/error_groups come from the report and the status
// is the engine's. Checked on the raw Wasm export, over every fixture with a JUnit report.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createEngine } from '../../dist/engine.js';
import { listCases, ROOT } from '../../fixtures/lib/cases.js';

const engine = await createEngine();
const { instance } = await WebAssembly.instantiate(readFileSync(join(ROOT, 'build/sbx.wasm')), { env: { abort() { throw new Error('abort'); } } });
const x = instance.exports;
const withReport = listCases(join(ROOT, 'fixtures'), { blind: true }).filter((c) => existsSync(join(c.dir, 'report.xml')));

function rawMerge(verdict, xml) {
  const head = new TextEncoder().encode(JSON.stringify(verdict));
  const ptr = x.alloc(head.length + xml.length);
  const mem = new Uint8Array(x.memory.buffer, ptr, head.length + xml.length);
  mem.set(head, 0);
  mem.set(xml, head.length);
  const n = x.junitMerge(head.length, xml.length);
  return { n, text: new TextDecoder().decode(new Uint8Array(x.memory.buffer, x.output(), Math.abs(n))) };
}

test('there are fixtures with a JUnit report', () => assert.ok(withReport.length >= 3));

for (const c of withReport) {
  test(`junitMerge returns the whole verdict: ${c.id}`, () => {
    const xml = readFileSync(join(c.dir, 'report.xml'));
    const env = engine.verdict(c.log, { exit: c.run.exit ?? null, signal: c.run.signal ?? null, timedOut: Boolean(c.run.timed_out) });
    const { n, text } = rawMerge(env.verdict, xml);
    if (n < 0) { assert.match(JSON.parse(text).error, /not a JUnit XML report/); return; }
    const merged = JSON.parse(text);
    assert.equal(Object.keys(merged), Object.keys(env.verdict), 'same keys, same order');
    for (const k of Object.keys(env.verdict)) {
      if (k === 'status' || k === 'tests' || k === 'error_groups') continue;
      assert.equal(merged[k], env.verdict[k], `${k} kept`);
    }
    assert.is(merged.tests.runner, 'junit');
    assert.equal(engine.mergeJunit(env, xml).verdict, merged, 'the host returns what the engine wrote');
  });
}

test.run();
