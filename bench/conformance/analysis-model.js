// jenkinsci/analysis-model's parser tests as a conformance suite: per (parser, log) the issues their Java test
// asserts. An asserted issue with a file and a line is found when the verdict has a diagnostic (or a note under
// one) at the same file and line; the file matches when one path ends with the other ("./" dropped). A false
// error is an error diagnostic that none of the log's asserted issues explains: at a place where they assert
// only a warning, or, on a log whose every parser test lists all its issues, at a place they do not list.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const norm = (p) => String(p ?? '').replace(/\\/g, '/').replace(/^(\.\/)+/, '');
export const sameFile = (a, b) => {
  const x = norm(a); const y = norm(b);
  return x.length > 0 && y.length > 0 && (x === y || x.endsWith(`/${y}`) || y.endsWith(`/${x}`));
};
const located = (i) => i.file && i.file !== '-' && i.line > 0;

export function analysisModelCases(dir) {
  const rows = readFileSync(join(dir, 'expectations.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  const byLog = new Map();
  for (const r of rows) {
    if (!r.resource) continue;
    const name = r.resource.split('/').pop();
    const e = byLog.get(name) ?? { name, rows: [] };
    e.rows.push(r);
    byLog.set(name, e);
  }
  return [...byLog.values()].map((e) => ({ ...e, log: readFileSync(join(dir, 'resources', e.name)) }));
}

function allDiags(v) {
  const out = [];
  for (const d of v.diagnostics) { out.push(d); for (const n of d.notes ?? []) out.push(n); }
  return out;
}

/** Per log: per parser row the asserted located issues found / missed, and the false errors. */
export function scoreAnalysisModel(engine, c) {
  const v = engine.verdict(c.log, { exit: 1 }).verdict;
  const diags = allDiags(v);
  const rows = [];
  const expected = [];
  for (const r of c.rows) {
    const issues = r.issues.filter(located);
    expected.push(...issues);
    const missed = issues.filter((i) => !diags.some((d) => d.line === i.line && sameFile(d.file, i.file)));
    rows.push({ parser: r.parser, asserted: issues.length, unlocated: r.issues.length - issues.length, missed });
  }
  const complete = c.rows.every((r) => r.size === r.issues.length);
  const falseErrors = v.diagnostics.filter((d) => d.severity === 'error').filter((d) => {
    const here = expected.filter((i) => i.line === d.line && sameFile(d.file, i.file));
    if (here.length === 0) return complete;
    return here.every((i) => i.severity === 'warning');
  });
  return { rows, falseErrors };
}
