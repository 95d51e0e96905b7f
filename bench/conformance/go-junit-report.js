// jstemmer/go-junit-report's testdata as a conformance suite: per `go test` output (text or -json) the golden
// JUnit report it converts to. Checked per report: the test, failure (failures + errors) and skip counts, the
// run's status (failing or not) and each failing test's name among the verdict's failures, with the golden
// report read in the verdict's terms for go test (see readGolden).
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const attr = (tag, name) => { const m = new RegExp(`\\s${name}="([^"]*)"`).exec(tag); return m ? m[1] : null; };
const unescape = (s) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');

/**
 * The golden report read in the verdict's terms (fixtures/runners/README.md, holdout2/runners/README.md): go
 * test counts leaf tests, and a parent only when it failed with no failing subtest under it (a parent that
 * failed because a subtest did is that subtest's failure); a benchmark counts when go prints a result line
 * for it (`--- FAIL`, `--- SKIP`), not when it passed (go prints only its measurement). go-junit-report lists
 * every parent and every benchmark as a testcase: those are left out of the counts here, and a failing
 * parent's name is checked as a failing subtest under it. Its `Failure` testcase is its placeholder for a
 * package that failed outside any test (a panic in init or TestMain): the verdict names that failure by the
 * package (the testcase's classname). Its `[build failed]` / `[setup failed]` testcase is a package that did
 * not build: in the verdict that is no test (its tests did not run) but the build's failure, so it is not
 * counted, and it is found when the verdict is build-failed with an error at a place its output names.
 */
export function readGolden(xml, log = '') {
  const cases = [];
  const re = /<testcase\b([^>]*?)(\/>|>([\s\S]*?)<\/testcase>)/g;
  let m;
  while ((m = re.exec(xml)) !== null) {
    const body = m[3] ?? '';
    cases.push({ name: unescape(attr(m[1], 'name') ?? ''), classname: unescape(attr(m[1], 'classname') ?? ''),
      status: /<(failure|error)\b/.test(body) ? 'fail' : /<skipped\b/.test(body) ? 'skip' : 'pass', body: unescape(body) });
  }
  const under = (p, c) => c.classname === p.classname && c.name.startsWith(`${p.name}/`);
  let tests = 0; let failed = 0; let skipped = 0;
  const failing = [];
  for (const c of cases) {
    const isParent = cases.some((x) => under(c, x));
    const failedUnder = cases.some((x) => under(c, x) && x.status === 'fail');
    if (isParent && (c.status !== 'fail' || failedUnder)) {
      if (c.status === 'fail') failing.push({ name: c.name, classname: c.classname, kind: 'parent' });
      continue;
    }
    if (c.status === 'pass' && /^Benchmark/.test(c.name)) continue;
    if (c.status === 'fail' && /^\[(build|setup) failed\]$/.test(c.name)) {
      failing.push({ name: c.name, classname: c.classname, kind: 'build', at: [...c.body.matchAll(/(?:^|[\s[>])(?:\.\/)?([^\s:[\]]+\.go):(\d+)/g)].map((x) => ({ file: x[1], line: Number(x[2]) })) });
      continue;
    }
    tests++;
    if (c.status === 'fail') {
      failed++;
      const placeholder = c.name === 'Failure' && !log.includes('--- FAIL: Failure');
      failing.push({ name: c.name, classname: c.classname, kind: placeholder ? 'package' : 'test' });
    } else if (c.status === 'skip') skipped++;
  }
  return { tests, failed, skipped, failing, broken: failing.filter((f) => f.kind === 'build').length };
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
      log: readFileSync(join(td, n)), golden: readGolden(readFileSync(join(td, report), 'utf8'), readFileSync(join(td, n), 'utf8')) });
  }
  return cases;
}

/** A verdict that says the tests (or their build) failed; runtime-error only says the exit code was not 0. */
const FAILING = new Set(['tests-failed', 'build-failed', 'crash', 'timeout']);

const nameMatch = (want, got) => got === want || got.endsWith(`/${want}`) || got.endsWith(`.${want}`) || got.endsWith(` ${want}`);

/** Items right and wrong for one report. */
export function scoreGoJunit(engine, c) {
  const failing = c.golden.failed > 0 || c.golden.broken > 0;
  const v = engine.verdict(c.log, { exit: failing ? 1 : 0 }).verdict;
  const t = v.tests;
  const g = c.golden;
  const n = (x) => (x == null ? 0 : x);
  const got = t ? { tests: n(t.passed) + n(t.failed) + n(t.errors) + n(t.skipped), failed: n(t.failed) + n(t.errors), skipped: n(t.skipped) }
    : { tests: 0, failed: 0, skipped: 0 };
  const names = (t?.failures ?? []).map((f) => f.name);
  const errorAt = (a) => v.status === 'build-failed' && (v.diagnostics ?? []).some((d) => d.severity === 'error'
    && d.line === a.line && String(d.file ?? '').replace(/^\.\//, '').endsWith(a.file));
  const items = [
    { what: 'tests', ok: got.tests === g.tests, want: g.tests, got: got.tests },
    { what: 'failed', ok: got.failed === g.failed, want: g.failed, got: got.failed },
    { what: 'skipped', ok: got.skipped === g.skipped, want: g.skipped, got: got.skipped },
    { what: 'status', ok: failing ? FAILING.has(v.status) : v.status === 'pass', want: failing ? 'failing' : 'pass', got: v.status },
  ];
  for (const f of g.failing) {
    const ok = f.kind === 'build' ? f.at.length > 0 && f.at.some(errorAt)
      : f.kind === 'parent' ? names.some((x) => x.startsWith(`${f.name}/`) || x.includes(` ${f.name}/`))
      : f.kind === 'package' ? names.some((x) => x === f.classname || x.startsWith(`${f.classname} `))
      : names.some((x) => nameMatch(f.name, x));
    items.push({ what: `failing ${f.name}`, ok, want: f.kind === 'test' ? f.name : `${f.name} (${f.kind === 'parent' ? 'a failing subtest under it' : f.kind === 'build' ? `build-failed, an error at ${f.at.map((a) => `${a.file}:${a.line}`).join(' or ')}` : `package ${f.classname}`})`, got: names.join(', ') });
  }
  return { items };
}
