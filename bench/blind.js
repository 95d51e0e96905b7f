// npm run bench:blind — how well the parsers generalise: the share of fixtures/blind cases (real logs
// written by someone who never saw the parsers, facts read off by hand) whose every expected fact the
// engine gets right, per family, with what it got wrong. A measurement, not a test: cases move to
// fixtures/holdout*/ (asserted by npm test) once the parsers are fixed for them.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createEngine } from '../dist/engine.js';
import { listCases, compare, ROOT } from '../fixtures/lib/cases.js';

const dir = join(ROOT, 'fixtures/blind');
if (!existsSync(dir)) { console.log('no fixtures/blind yet'); process.exit(0); }
const engine = await createEngine();
const fams = new Map();
for (const c of listCases(dir, { blind: true })) {
  let env = engine.verdict(c.log, { exit: c.run.exit ?? null, signal: c.run.signal ?? null, timedOut: Boolean(c.run.timed_out) });
  const report = join(c.dir, 'report.xml');
  if (existsSync(report)) {
    try { env = engine.mergeJunit(env, readFileSync(report)); } catch (e) { if (e.code !== 'E_JUNIT_INVALID') throw e; }
  }
  const bad = compare(env.verdict, c.expect);
  const fam = c.id.split('/').slice(0, 2).join('/');
  const f = fams.get(fam) ?? { ok: 0, all: 0, misses: [] };
  f.all++;
  if (bad.length === 0) f.ok++; else f.misses.push(`${c.id.split('/').pop()}: ${bad[0]}${bad.length > 1 ? ` (+${bad.length - 1})` : ''}`);
  fams.set(fam, f);
}
let ok = 0; let all = 0;
for (const [fam, f] of [...fams].sort()) {
  ok += f.ok; all += f.all;
  console.log(`${fam}: ${f.ok}/${f.all} cases with every fact right (${((100 * f.ok) / f.all).toFixed(0)}%)`);
  for (const m of f.misses) console.log(`  miss ${m}`);
}
console.log(`all: ${ok}/${all} (${all ? ((100 * ok) / all).toFixed(0) : 0}%)`);
