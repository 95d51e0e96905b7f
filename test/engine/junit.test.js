// Table-driven: every junit-* fixture's report.xml through the engine's JUnit reader must give the tests in
// its expect.json, alone (engine.junit) and merged into the log's verdict (engine.mergeJunit, status recomputed).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createEngine } from '../../dist/engine.js';
import { spawnSync } from 'node:child_process';
import { listCases, compare, ROOT } from '../../fixtures/lib/cases.js';

const engine = await createEngine();
const withReport = listCases().filter((c) => existsSync(join(c.dir, 'report.xml')));
const cases = withReport.filter((c) => !c.id.startsWith('holdout/') && !c.expect.junit_invalid);

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

// Invalid XML (issue 8 #18): an error value, never a silent empty report that replaces the log's tests.
const invalid = (bytes) => {
  try { engine.junit(bytes); } catch (e) { return e.code === 'E_JUNIT_INVALID' ? e.message : `wrong error ${e.code}`; }
  return null;
};

test('every real report is well-formed; the same report cut short anywhere is refused', () => {
  const valid = withReport.filter((c) => !c.expect.junit_invalid);
  assert.ok(valid.length >= 5);
  for (const c of valid) {
    const xml = readFileSync(join(c.dir, 'report.xml'));
    assert.is(invalid(xml), null, c.id);
    const close = xml.lastIndexOf('>') + 1;
    for (let k = 0; k < 12; k++) {
      const cut = Math.floor((close * k) / 12) + (k % 3);
      if (cut >= close) continue;
      const msg = invalid(xml.subarray(0, cut));
      assert.ok(msg && !msg.includes('\n'), `${c.id} cut at ${cut}: ${msg}`);
    }
  }
});

test('a report mixed with console output (a real run) is refused by line, and the log keeps its tests', () => {
  const c = withReport.find((x) => x.id.endsWith('junit-pytest-stdout'));
  const xml = readFileSync(join(c.dir, 'report.xml'));
  assert.match(invalid(xml), 'not a JUnit XML report: line 1: text before the root element');
  const env = engine.verdict(c.log, { exit: c.run.exit ?? null });
  assert.throws(() => engine.mergeJunit(env, xml), (e) => e.code === 'E_JUNIT_INVALID');
  assert.is(env.verdict.tests.runner, 'pytest');
  // the engine still works after the refusal
  assert.is(engine.verdict(c.log, { exit: 1 }).verdict.status, 'tests-failed');
});

test('sbx verdict --junit with an invalid report: one line naming the file and the problem, exit 2, nothing on stdout', () => {
  const c = withReport.find((x) => x.id.endsWith('junit-pytest-stdout'));
  const r = spawnSync(process.execPath, [join(ROOT, 'dist/cli.js'), 'verdict', '--raw', join(c.dir, 'log.txt'), '--exit', '1', '--junit', join(c.dir, 'report.xml')], { encoding: 'utf8' });
  assert.is(r.status, 2);
  assert.is(r.stdout, '');
  const lines = r.stderr.trimEnd().split('\n');
  assert.is(lines.length, 1, r.stderr);
  assert.match(lines[0], 'report.xml: not a JUnit XML report: line 1: text before the root element');
});

test('what is not a JUnit report is named', () => {
  const e = (s) => invalid(new TextEncoder().encode(s));
  assert.match(e(''), 'no XML element');
  assert.match(e('<html><body>coverage</body></html>'), 'root element is <html>');
  assert.match(e('<testsuite><testcase name="a"></testsuite>'), 'line 1: <testcase> closed by </testsuite>');
  assert.match(e('<testsuite>\n<testcase name=a/></testsuite>'), 'line 2: an attribute value without quotes');
  assert.match(e('<testsuite><testcase name="a & b"/></testsuite>'), "a bare '&'");
  assert.is(e('\uFEFF<?xml version="1.0"?>\n<!-- c --><testsuites><testsuite name="s"><testcase name="a"><![CDATA[<x>]]></testcase></testsuite></testsuites>\n'), null);
});

test.run();
