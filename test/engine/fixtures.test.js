// Table-driven: every real fixture's log through the engine must give the facts in its expect.json.
import { test } from 'uvu';
import { createEngine } from '../../dist/engine.js';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { listCases, compare, compareRender } from '../../fixtures/lib/cases.js';

const engine = await createEngine();
const only = process.env.SBX_FIXTURE;

for (const c of listCases()) {
  if (only && !c.id.includes(only)) continue;
  test(`fixture ${c.id}`, () => {
    let env = engine.verdict(c.log, { exit: c.run.exit ?? null, signal: c.run.signal ?? null, timedOut: Boolean(c.run.timed_out) });
    // junit-* cases: expect.json describes the report (as `sbx verdict --junit report.xml` merges it).
    const report = join(c.dir, 'report.xml');
    if (existsSync(report) && c.expect.junit_invalid) {
      // An invalid report is refused with a one-line error, and replaces nothing: the log's tests stand.
      const before = JSON.stringify(env);
      let err = null;
      try { engine.mergeJunit(env, readFileSync(report)); } catch (e) { err = e; }
      if (!err || err.code !== 'E_JUNIT_INVALID' || !err.message.includes(c.expect.junit_invalid) || err.message.includes('\n')) {
        throw new Error(`${c.id}: expected E_JUNIT_INVALID with ${JSON.stringify(c.expect.junit_invalid)}, got ${err ? `${err.code}: ${err.message}` : 'no error'}`);
      }
      if (JSON.stringify(env) !== before) throw new Error(`${c.id}: the refused report changed the envelope`);
    } else if (existsSync(report)) env = engine.mergeJunit(env, readFileSync(report));
    const bad = [...compare(env.verdict, c.expect), ...(c.expect.render || c.expect.render_absent ? compareRender(engine.render(env), c.expect) : [])];
    if (bad.length) throw new Error(`${c.id}:\n  ${bad.join('\n  ')}`);
  });
}

// One error count (issue 8 #15): the header's count, the listed errors, counts.errors and the delta against a
// clean run agree for every fixture; make's own `*** [..] Error N` is never an error of its own.
const clean = engine.verdict(new Uint8Array(0), { exit: 0 }).verdict;
for (const c of listCases()) {
  if (only && !c.id.includes(only)) continue;
  test(`one count ${c.id}`, () => {
    const env = engine.verdict(c.log, { exit: c.run.exit ?? null, signal: c.run.signal ?? null, timedOut: Boolean(c.run.timed_out) });
    const v = env.verdict;
    if (v.counts.diagnostics_dropped > 0) return;
    const listed = (sev) => v.diagnostics.filter((d) => d.severity === sev).length;
    const bad = [];
    if (listed('error') !== v.counts.errors) bad.push(`errors: listed ${listed('error')}, counts ${v.counts.errors}`);
    if (listed('warning') !== v.counts.warnings) bad.push(`warnings: listed ${listed('warning')}, counts ${v.counts.warnings}`);
    const text = engine.render(env);
    const head = /^errors \((\d+)\):$/m.exec(text);
    if ((head ? Number(head[1]) : 0) !== v.counts.errors) bad.push(`rendered header: ${head?.[0]}, counts ${v.counts.errors}`);
    if (head && v.counts.errors <= 25) {
      // the block under the header: its lines indented by two (notes by four)
      const after = text.slice(head.index).split('\n').slice(1);
      const end = after.findIndex((l) => !l.startsWith('  '));
      const block = after.slice(0, end < 0 ? after.length : end).filter((l) => /^  \S/.test(l)).length;
      if (block !== v.counts.errors) bad.push(`rendered list: ${block} errors under the header, counts ${v.counts.errors}`);
    }
    const d = engine.delta(clean, v, { treeChanged: true });
    const newErrors = d.diagnostics.new.filter((x) => x.severity === 'error').length;
    if (d.diagnostics.new_count <= 50 && newErrors !== v.counts.errors) bad.push(`delta: ${newErrors} new errors, counts ${v.counts.errors}`);
    if (d.diagnostics.new.some((x) => x.tool === 'make' && /\] Error \d+/.test(x.message))) bad.push('delta lists make\'s own Error line');
    if (bad.length) throw new Error(`${c.id}:\n  ${bad.join('\n  ')}`);
  });
}

test.run();
