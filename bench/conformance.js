// npm run bench:conformance — the verdict engine against three public projects' own parser test suites, read
// as data from ../shared/conformance (relative to the project root; see its README): ClusterFuzz's stack
// analyzer tests (crash type, crash state, its first line, security flag), jenkinsci/analysis-model's parser
// tests (asserted issues found with file and line; false errors) and jstemmer/go-junit-report's golden reports
// (counts, status, failing test names). Prints per suite and per family the share passed, then every failure.
//   node bench/conformance.js            this tree's engine (dist/engine.js)
//   node bench/conformance.js --json     the scores only, as JSON (what test/conformance reads)
//   node bench/conformance.js --quiet    the shares without the list of failures
// A measurement; test/conformance/levels.test.js holds each score at the level reached.
import { existsSync } from 'node:fs';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { resolve, join } from 'node:path';
import { clusterfuzzCases, scoreClusterfuzz, CLUSTERFUZZ_METRICS } from './conformance/clusterfuzz.js';
import { analysisModelCases, scoreAnalysisModel } from './conformance/analysis-model.js';
import { goJunitCases, scoreGoJunit } from './conformance/go-junit-report.js';

export const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
export const CONFORMANCE_DIR = resolve(ROOT, '..', 'shared', 'conformance');

class Tally {
  constructor() { this.all = new Map(); this.families = new Map(); }
  add(family, metric, ok) {
    for (const [m, key] of [[this.all, metric], [this.families, `${family}\u0000${metric}`]]) {
      const e = m.get(key) ?? { passed: 0, total: 0 };
      e.total++; if (ok) e.passed++;
      m.set(key, e);
    }
  }
  json() { return Object.fromEntries([...this.all].map(([k, v]) => [k, v])); }
}

/** Every suite's tallies and failures; null for a suite whose folder is absent. */
export async function runConformance({ dir = CONFORMANCE_DIR, engine: enginePath = join(ROOT, 'dist/engine.js') } = {}) {
  const { createEngine } = await import(pathToFileURL(enginePath).href);
  const engine = await createEngine();
  const out = {};

  const cf = join(dir, 'clusterfuzz');
  if (existsSync(join(cf, 'expectations.jsonl'))) {
    const t = new Tally(); const failures = [];
    for (const c of clusterfuzzCases(cf)) {
      const r = scoreClusterfuzz(engine, c);
      for (const m of CLUSTERFUZZ_METRICS) if (m in r.checks) t.add(c.family, m, r.checks[m]);
      const bad = CLUSTERFUZZ_METRICS.filter((m) => m in r.checks && !r.checks[m]);
      if (bad.length) failures.push({ id: c.id, bad, want: r.want, got: r.got });
    }
    out.clusterfuzz = { tally: t, failures };
  } else out.clusterfuzz = null;

  const am = join(dir, 'analysis-model');
  if (existsSync(join(am, 'expectations.jsonl'))) {
    const t = new Tally(); const failures = [];
    for (const c of analysisModelCases(am)) {
      const r = scoreAnalysisModel(engine, c);
      for (const row of r.rows) {
        for (let i = 0; i < row.asserted; i++) t.add(row.parser, 'issues', i >= row.missed.length);
        for (const i of row.missed) failures.push({ id: `${row.parser}:${c.name}`, bad: ['issue'], want: `${i.file}:${i.line} ${i.severity ?? ''} ${i.message}`.trim() });
      }
      t.add('logs', 'no-false-error', r.falseErrors.length === 0);
      for (const d of r.falseErrors) failures.push({ id: c.name, bad: ['false-error'], got: `${d.file}:${d.line} ${d.tool} ${d.message}` });
    }
    out['analysis-model'] = { tally: t, failures };
  } else out['analysis-model'] = null;

  const gj = join(dir, 'go-junit-report');
  if (existsSync(join(gj, 'testdata'))) {
    const t = new Tally(); const failures = [];
    for (const c of goJunitCases(gj)) {
      const r = scoreGoJunit(engine, c);
      for (const it of r.items) {
        const metric = it.what.startsWith('failing ') ? 'failing-names' : it.what === 'status' ? 'status' : 'counts';
        t.add(c.family, metric, it.ok);
        if (!it.ok) failures.push({ id: c.id, bad: [it.what], want: it.want, got: it.got });
      }
    }
    out['go-junit-report'] = { tally: t, failures };
  } else out['go-junit-report'] = null;
  return out;
}

/** { suite: { metric: { passed, total } } | null }: what levels.json is compared with. */
export function scores(result) {
  return Object.fromEntries(Object.entries(result).map(([s, r]) => [s, r ? r.tally.json() : null]));
}

const pct = (e) => `${((100 * e.passed) / Math.max(1, e.total)).toFixed(1)}%`;

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await runConformance();
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(scores(result), null, 2));
  } else {
    for (const [suite, r] of Object.entries(result)) {
      if (!r) { console.log(`${suite}: skipped (no ${join(CONFORMANCE_DIR, suite)})`); continue; }
      console.log(`\n== ${suite}`);
      for (const [m, e] of r.tally.all) console.log(`  ${m.padEnd(16)} ${String(e.passed).padStart(4)}/${String(e.total).padEnd(4)} ${pct(e)}`);
      const fams = new Map();
      for (const [k, e] of r.tally.families) {
        const [fam, m] = k.split('\u0000');
        const f = fams.get(fam) ?? []; f.push(`${m} ${e.passed}/${e.total}`); fams.set(fam, f);
      }
      for (const [fam, ms] of [...fams].sort(([a], [b]) => a.localeCompare(b))) console.log(`    ${fam.padEnd(22)} ${ms.join('  ')}`);
      if (!process.argv.includes('--quiet')) {
        console.log(`  failures (${r.failures.length}):`);
        const show = (x) => JSON.stringify(x);
        for (const f of r.failures) console.log(`    ${f.id} [${f.bad.join(',')}]${f.want !== undefined ? ` want ${show(f.want)}` : ''}${f.got !== undefined ? ` got ${show(f.got)}` : ''}`);
      }
    }
  }
}
