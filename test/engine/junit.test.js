// Table-driven: every junit-* fixture's report.xml through the engine's JUnit reader must give the tests in
// its expect.json, alone (engine.junit) and merged into the log's verdict (engine.mergeJunit, status recomputed).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createEngine } from '../../dist/engine.js';
import { listCases, compare } from '../helpers/fixtures.js';

const engine = await createEngine();
const cases = listCases().filter((c) => !c.id.startsWith('holdout/') && existsSync(join(c.dir, 'report.xml')));

test('there are junit fixtures', () => { assert.ok(cases.length >= 4); });

for (const c of cases) {
  const xml = readFileSync(join(c.dir, 'report.xml'));
  test(`junit ${c.id}: report alone`, () => {
    const tests = engine.junit(xml);
    const bad = compare({ tests }, { tests: c.expect.tests });
    if (bad.length) throw new Error(`${c.id}:\n  ${bad.join('\n  ')}`);
  });
  test(`junit ${c.id}: merged into the verdict`, () => {
    const env = engine.verdict(c.log, { exit: c.run.exit ?? null, signal: c.run.signal ?? null });
    const merged = engine.mergeJunit(env, xml);
    const bad = compare(merged.verdict, c.expect);
    if (bad.length) throw new Error(`${c.id}:\n  ${bad.join('\n  ')}`);
  });
}

test('a failing report never reads as pass, even with exit 0', () => {
  const c = cases.find((x) => x.id.endsWith('junit-pytest-fail'));
  const env = engine.verdict(new TextEncoder().encode('ok\n'), { exit: 0 });
  assert.is(env.verdict.status, 'pass');
  const merged = engine.mergeJunit(env, readFileSync(join(c.dir, 'report.xml')));
  assert.is(merged.verdict.status, 'tests-failed');
});

test('same report, same bytes', () => {
  const xml = readFileSync(join(cases[0].dir, 'report.xml'));
  assert.is(JSON.stringify(engine.junit(xml)), JSON.stringify(engine.junit(xml)));
});

test.run();
