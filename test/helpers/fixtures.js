// Loads the fixture cases (fixtures/**/expect.json with log.txt and run.json beside it) and compares
// a verdict with the facts a person read off the log. Shared by the table-driven tests.
import { readdirSync, readFileSync, existsSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

export const ROOT = new URL('../../', import.meta.url).pathname;

/**
 * Every case under dir. fixtures/blind/ is left out unless asked for: it is a measurement set (logs
 * written without sight of the parsers, scored by `npm run bench:blind`), not an assertion.
 */
export function listCases(dir = join(ROOT, 'fixtures'), { blind = false } = {}) {
  const out = [];
  const walk = (d) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (!statSync(p).isDirectory()) continue;
      if (name === 'node_modules' || name === 'target') continue;
      if (!blind && d === join(ROOT, 'fixtures') && name === 'blind') continue;
      if (existsSync(join(p, 'expect.json')) && existsSync(join(p, 'log.txt'))) {
        out.push({
          id: relative(join(ROOT, 'fixtures'), p),
          dir: p,
          log: readFileSync(join(p, 'log.txt')),
          run: existsSync(join(p, 'run.json')) ? JSON.parse(readFileSync(join(p, 'run.json'), 'utf8')) : {},
          expect: JSON.parse(readFileSync(join(p, 'expect.json'), 'utf8')),
        });
      }
      walk(p);
    }
  };
  walk(dir);
  return out;
}

const strip = (f) => (typeof f === 'string' ? f.replace(/^(\.\/)+/, '').replace(/^\/work\//, '') : f);

/** Returns a list of mismatches (strings); empty when the verdict carries every expected fact. */
export function compare(verdict, expect) {
  const bad = [];
  const eq = (what, actual, expected) => {
    if (expected === undefined) return;
    if (JSON.stringify(actual) !== JSON.stringify(expected)) bad.push(`${what}: got ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`);
  };
  eq('status', verdict.status, expect.status);
  if (expect.counts !== undefined) for (const k of Object.keys(expect.counts)) eq(`counts.${k}`, verdict.counts[k], expect.counts[k]);
  if (expect.crash !== undefined) {
    const c = verdict.crash;
    if (expect.crash === null) eq('crash', c, null);
    else if (!c) bad.push(`crash: got null, expected ${expect.crash.tool} ${expect.crash.kind}`);
    else {
      for (const k of ['tool', 'kind', 'access', 'size']) eq(`crash.${k}`, c[k], expect.crash[k]);
      if (expect.crash.message !== undefined && !(c.message ?? '').includes(expect.crash.message)) bad.push(`crash.message: ${JSON.stringify(c.message)} lacks ${JSON.stringify(expect.crash.message)}`);
      frameEq(bad, 'crash.first_user_frame', c.first_user_frame, expect.crash.first_user_frame);
      frameEq(bad, 'crash.alloc_top', c.alloc_frames.find((f) => f.user) ?? null, expect.crash.alloc_top);
      frameEq(bad, 'crash.free_top', c.free_frames.find((f) => f.user) ?? null, expect.crash.free_top);
      eq('crash.region', c.region ?? null, expect.crash.region);
      if (expect.crash.causes !== undefined) {
        const got = c.causes ?? [];
        if (got.length !== expect.crash.causes.length) bad.push(`crash.causes: got ${got.length} (${got.map((k) => k.kind).join(', ')}), expected ${expect.crash.causes.length}`);
        expect.crash.causes.forEach((w, i) => {
          const a = got[i];
          if (!a) return;
          eq(`crash.causes[${i}].relation`, a.relation, w.relation);
          eq(`crash.causes[${i}].kind`, a.kind, w.kind);
          if (w.message !== undefined && !(a.message ?? '').includes(w.message)) bad.push(`crash.causes[${i}].message: ${JSON.stringify(a.message)} lacks ${JSON.stringify(w.message)}`);
          frameEq(bad, `crash.causes[${i}].at`, a.at, w.at);
        });
      }
    }
  }
  if (expect.diagnostics !== undefined) {
    const flat = [];
    for (const d of verdict.diagnostics) { flat.push(d); for (const n of d.notes ?? []) flat.push(n); }
    const main = (ds) => ds.filter((d) => d.severity !== 'note');
    const got = main(flat); const want = main(expect.diagnostics);
    if (got.length !== want.length) bad.push(`diagnostics: got ${got.length} errors+warnings, expected ${want.length}: ${got.map(dstr).join(' | ')}`);
    for (let i = 0; i < Math.min(got.length, want.length); i++) diagEq(bad, `diagnostics[${i}]`, got[i], want[i]);
    const notes = flat.filter((d) => d.severity === 'note');
    for (const n of expect.diagnostics.filter((d) => d.severity === 'note')) {
      const found = notes.some((a) => (n.file === undefined || strip(a.file) === strip(n.file)) && (n.line === undefined || a.line === n.line) &&
        (n.message === undefined || a.message.includes(n.message)));
      if (!found) bad.push(`note ${n.file}:${n.line}${n.message ? ` ${JSON.stringify(n.message)}` : ''} not found`);
    }
  }
  if (expect.tests !== undefined) {
    const t = verdict.tests;
    if (expect.tests === null) eq('tests', t, null);
    else if (!t) bad.push(`tests: got null, expected ${expect.tests.runner}`);
    else {
      for (const k of ['runner', 'passed', 'failed', 'errors', 'skipped', 'not_run']) eq(`tests.${k}`, t[k], expect.tests[k]);
      const want = expect.tests.failures ?? [];
      const names = t.failures.map((f) => f.name);
      if (expect.tests.failures !== undefined && t.failures.length !== want.length) bad.push(`tests.failures: got ${t.failures.length} (${names.join(', ')}), expected ${want.length}`);
      // Failures with the same name (a test's failing subtests) pair up in order.
      const used = new Set();
      for (const w of want) {
        const a = t.failures.find((f) => f.name === w.name && !used.has(f));
        if (a) used.add(a);
        if (!a) { bad.push(`tests.failures: ${w.name} missing (got ${names.join(', ')})`); continue; }
        if (w.file !== undefined) eq(`failure ${w.name} file`, strip(a.file), strip(w.file));
        if (w.line !== undefined) eq(`failure ${w.name} line`, a.line, w.line);
        if (w.message !== undefined && !a.message.includes(w.message)) bad.push(`failure ${w.name} message: ${JSON.stringify(a.message)} lacks ${JSON.stringify(w.message)}`);
      }
    }
  }
  if (expect.error_groups !== undefined) {
    for (const g of expect.error_groups) {
      const a = verdict.error_groups.find((x) => strip(x.file) === strip(g.file) && x.line === g.line);
      if (!a) bad.push(`error_groups: no group at ${g.file}:${g.line} (got ${JSON.stringify(verdict.error_groups.map((x) => `${x.count}× ${x.file}:${x.line}`))})`);
      else if (g.count !== undefined && a.count !== g.count) bad.push(`error_groups ${g.file}:${g.line}: count ${a.count}, expected ${g.count}`);
    }
  }
  return bad;
}

/** Text the rendering must contain (expect.render) or must not (expect.render_absent). */
export function compareRender(text, expect) {
  return [
    ...(expect.render ?? []).filter((s) => !text.includes(s)).map((s) => `render: ${JSON.stringify(s)} not in:\n${text}`),
    ...(expect.render_absent ?? []).filter((s) => text.includes(s)).map((s) => `render: ${JSON.stringify(s)} should not be in:\n${text}`),
  ];
}

function frameEq(bad, what, actual, expected) {
  if (expected === undefined) return;
  if (expected === null) { if (actual !== null) bad.push(`${what}: got ${fstr(actual)}, expected null`); return; }
  if (!actual) { bad.push(`${what}: got null, expected ${fstr(expected)}`); return; }
  if (expected.function !== undefined && actual.function !== expected.function) bad.push(`${what}.function: got ${actual.function}, expected ${expected.function}`);
  if (expected.file !== undefined && strip(actual.file) !== strip(expected.file)) bad.push(`${what}.file: got ${actual.file}, expected ${expected.file}`);
  if (expected.line !== undefined && actual.line !== expected.line) bad.push(`${what}.line: got ${actual.line}, expected ${expected.line}`);
}

function diagEq(bad, what, a, w) {
  for (const k of ['tool', 'severity', 'line', 'col', 'code']) {
    if (w[k] !== undefined && a[k] !== w[k]) bad.push(`${what}.${k}: got ${JSON.stringify(a[k])}, expected ${JSON.stringify(w[k])} (${dstr(a)})`);
  }
  if (w.file !== undefined && strip(a.file) !== strip(w.file)) bad.push(`${what}.file: got ${a.file}, expected ${w.file}`);
  if (w.label !== undefined && (a.label ?? null) !== w.label) bad.push(`${what}.label: got ${JSON.stringify(a.label ?? null)}, expected ${JSON.stringify(w.label)}`);
}

const fstr = (f) => `${f.function} ${f.file}:${f.line}`;
const dstr = (d) => `${d.file}:${d.line}:${d.col} ${d.severity} ${d.code ?? ''}`;
