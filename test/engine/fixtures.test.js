// Table-driven: every real fixture's log through the engine must give the facts in its expect.json.
import { test } from 'uvu';
import { createEngine } from '../../dist/engine.js';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { listCases, compare, compareRender } from '../helpers/fixtures.js';

const engine = await createEngine();
const only = process.env.SBX_FIXTURE;

for (const c of listCases()) {
  if (only && !c.id.includes(only)) continue;
  test(`fixture ${c.id}`, () => {
    let env = engine.verdict(c.log, { exit: c.run.exit ?? null, signal: c.run.signal ?? null, timedOut: Boolean(c.run.timed_out) });
    // junit-* cases: expect.json describes the report (as `sbx verdict --junit report.xml` merges it).
    const report = join(c.dir, 'report.xml');
    if (existsSync(report)) env = engine.mergeJunit(env, readFileSync(report));
    const bad = [...compare(env.verdict, c.expect), ...(c.expect.render || c.expect.render_absent ? compareRender(engine.render(env), c.expect) : [])];
    if (bad.length) throw new Error(`${c.id}:\n  ${bad.join('\n  ')}`);
  });
}

test.run();
