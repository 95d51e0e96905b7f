// jstemmer/go-junit-report's testdata as a conformance suite: per `go test` output (text or -json) the golden
// JUnit report it converts to. Checked per report: the test, failure (failures + errors) and skip counts, the
// run's status (failing or not) and each failing test's name among the verdict's failures.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const attr = (tag, name) => { const m = new RegExp(`\\s${name}="([^"]*)"`).exec(tag); return m ? m[1] : null; };
const unescape = (s) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');

/** The golden report's counts and failing test names. */
export function readGolden(xml) {
  let tests = 0; let failed = 0; let skipped = 0;
  const failing = [];
  const re = /<testcase\b([^>]*?)(\/>|>([\s\S]*?)<\/testcase>)/g;
  let m;
  while ((m = re.exec(xml)) !== null) {
    tests++;
    const body = m[3] ?? '';
    if (/<(failure|error)\b/.test(body)) { failed++; failing.push(unescape(attr(m[1], 'name') ?? '')); }
    else if (/<skipped\b/.test(body)) skipped++;
  }
  return { tests, failed, skipped, failing };
}

export function goJunitCases(dir) {
  const td = join(dir, 'testdata');
  const names = readdirSync(td).sort();
  const cases = [];
  for (const n of names) {
    const m = /^(\d{3})-(.*)\.txt$/.exec(n);
    if (!m) continue;
    const report = `${m[1]}-report.xml`;
    if (!names.includes(report)) continue;
    cases.push({ id: n, family: n.endsWith('.gojson.txt') ? 'go test -json' : 'go test',
      log: readFileSync(join(td, n)), golden: readGolden(readFileSync(join(td, report), 'utf8')) });
  }
  return cases;
}

/** A verdict that says the tests (or their build) failed; runtime-error only says the exit code was not 0. */
const FAILING = new Set(['tests-failed', 'build-failed', 'crash', 'timeout']);

const nameMatch = (want, got) => got === want || got.endsWith(`/${want}`) || got.endsWith(`.${want}`) || got.endsWith(` ${want}`);

/** Items right and wrong for one report. */
export function scoreGoJunit(engine, c) {
  const v = engine.verdict(c.log, { exit: c.golden.failed > 0 ? 1 : 0 }).verdict;
  const t = v.tests;
  const g = c.golden;
  const n = (x) => (x == null ? 0 : x);
  const got = t ? { tests: n(t.passed) + n(t.failed) + n(t.errors) + n(t.skipped), failed: n(t.failed) + n(t.errors), skipped: n(t.skipped) }
    : { tests: 0, failed: 0, skipped: 0 };
  const names = (t?.failures ?? []).map((f) => f.name);
  const items = [
    { what: 'tests', ok: got.tests === g.tests, want: g.tests, got: got.tests },
    { what: 'failed', ok: got.failed === g.failed, want: g.failed, got: got.failed },
    { what: 'skipped', ok: got.skipped === g.skipped, want: g.skipped, got: got.skipped },
    { what: 'status', ok: g.failed > 0 ? FAILING.has(v.status) : v.status === 'pass', want: g.failed > 0 ? 'failing' : 'pass', got: v.status },
  ];
  for (const f of g.failing) items.push({ what: `failing ${f}`, ok: names.some((x) => nameMatch(f, x)), want: f, got: names.join(', ') });
  return { items };
}
