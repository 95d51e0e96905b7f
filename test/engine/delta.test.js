// Table-driven over real before/after pairs (fixtures/pairs): the delta the engine computes between the
// two verdicts must be the one a person read off the two logs. Plus the delta's own invariants.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { createEngine } from '../../dist/engine.js';
import { ROOT, listCases } from '../../fixtures/lib/cases.js';

const engine = await createEngine();
const PAIRS = join(ROOT, 'fixtures/pairs');
const pairs = existsSync(PAIRS) ? readdirSync(PAIRS).filter((n) => existsSync(join(PAIRS, n, 'expect.json'))).sort() : [];

function side(dir) {
  const run = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8'));
  return engine.verdict(readFileSync(join(dir, 'log.txt')), { exit: run.exit ?? null, signal: run.signal ?? null, timedOut: Boolean(run.timed_out) }).verdict;
}

test('there are real before/after pairs', () => { assert.ok(pairs.length >= 10, `only ${pairs.length} pairs`); });

for (const name of pairs) {
  test(`pair ${name}`, () => {
    const dir = join(PAIRS, name);
    const want = JSON.parse(readFileSync(join(dir, 'expect.json'), 'utf8'));
    const before = side(join(dir, 'before')); const after = side(join(dir, 'after'));
    const d = engine.delta(before, after, { treeChanged: want.tree_changed ?? true, sameRuns: 2 });
    const bad = [];
    const eq = (k, a, w) => { if (w !== undefined && JSON.stringify(a) !== JSON.stringify(w)) bad.push(`${k}: got ${JSON.stringify(a)}, expected ${JSON.stringify(w)}`); };
    eq('crash', d.crash, want.crash);
    eq('no_op_edit', d.no_op_edit, want.no_op_edit);
    if (want.status) { eq('status.before', d.status.before, want.status.before); eq('status.after', d.status.after, want.status.after); }
    if (want.diagnostics) {
      eq('diagnostics.fixed', d.diagnostics.fixed_count, want.diagnostics.fixed);
      eq('diagnostics.new', d.diagnostics.new_count, want.diagnostics.new);
      eq('diagnostics.unchanged', d.diagnostics.unchanged, want.diagnostics.unchanged);
      eq('diagnostics.not_rebuilt', d.diagnostics.not_rebuilt ?? 0, want.diagnostics.not_rebuilt);
    }
    eq('summary', d.summary, want.summary);
    if (want.tests) for (const k of ['fixed', 'broken', 'still_failing', 'changed', 'not_run', 'gone']) eq(`tests.${k}`, [...(d.tests[k] ?? [])].sort(), want.tests[k] && [...want.tests[k]].sort());
    // The counts' change is written exactly when the pair's expect.json names it (none ran now, the passes changed).
    if (want.tests) eq('tests.counts_changed', d.tests.counts_changed ?? null, want.tests.counts_changed ?? null);
    if (bad.length) throw new Error(`${name} (${d.summary}):\n  ${bad.join('\n  ')}`);
  });
}

test('a verdict against itself: nothing changed, and no_op_edit only when the tree changed', () => {
  for (const c of listCases().slice(0, 80)) {
    const vd = engine.verdict(c.log, { exit: c.run.exit ?? null, signal: c.run.signal ?? null }).verdict;
    const d = engine.delta(vd, vd, { treeChanged: true, sameRuns: 3 });
    assert.is(d.diagnostics.fixed.length + d.diagnostics.new.length, 0, c.id);
    assert.ok(d.crash === 'same' || d.crash === 'none', c.id);
    assert.is(d.no_op_edit, true, c.id);
    assert.is(engine.delta(vd, vd, { treeChanged: false }).no_op_edit, false, c.id);
    assert.match(d.summary, /no change/);
    assert.match(d.summary, /3 runs in a row/);
  }
});

test('two E0308s "mismatched types" a line apart are two errors: the label tells them apart (real cargo log)', () => {
  const c = listCases().find((x) => x.id === 'langs/rs-two-e0308');
  const v = engine.verdict(c.log, { exit: c.run.exit }).verdict;
  const [a, b] = v.diagnostics;
  assert.is(a.message, b.message);
  assert.is.not(a.label, b.label);
  const only = (d) => ({ ...v, diagnostics: [d], counts: { ...v.counts, errors: 1 } });
  const d = engine.delta(only(b), only(a), { treeChanged: true });
  assert.is(d.diagnostics.fixed_count, 1);
  assert.is(d.diagnostics.new_count, 1);
  assert.is(d.diagnostics.new[0].label, 'expected `String`, found `&str`');
  assert.is(d.diagnostics.fixed[0].label, 'expected `i32`, found `usize`');
});

test('first run', () => {
  const c = listCases()[0];
  const vd = engine.verdict(c.log, { exit: c.run.exit ?? null }).verdict;
  const d = engine.delta(null, vd);
  assert.is(d.first_run, true);
  assert.is(d.status.before, null);
  assert.is(d.summary, 'first run');
});

test('the delta renders as one line right after the header', () => {
  const c = listCases().find((x) => x.expect.status === 'crash');
  const env = engine.verdict(c.log, { exit: c.run.exit ?? null, signal: c.run.signal ?? null });
  env.delta = engine.delta(env.verdict, env.verdict, { treeChanged: true });
  const lines = engine.render(env).split('\n');
  assert.match(lines[1], /^delta: no change — your edit did not affect the crash/);
});

test('mocha spec tree: a test listed as passed (✔ under its suites) that failed before is fixed (the pair reversed)', () => {
  const dir = join(PAIRS, 'mocha-bail-hides-failing-test');
  const stopped = side(join(dir, 'after')); const full = side(join(dir, 'before'));
  assert.is(stopped.tests.passed_set, '');
  assert.is(full.tests.passed_set.length, 2 * 8);
  const d = engine.delta(stopped, full, { treeChanged: true });
  assert.equal(d.tests.fixed, ['fresh(req, res) > when a non-conditional GET is performed > should be stale']);
  assert.equal(d.tests.not_run, []);
});

test('mocha spec tree: the passed set is bounded (4096 names, 8 hex digits each); past it, none is kept', () => {
  const tree = (n) => {
    const lines = ['', '  big suite'];
    for (let i = 0; i < n; i++) lines.push(`    \u2714 case ${i}`);
    lines.push('    1) fails', '', '', `  ${n} passing (5s)`, '  1 failing', '', '  1) big suite', '       fails:', '     Error: boom', '      at Context.<anonymous> (test/x.js:3:9)', '');
    return Buffer.from(lines.join('\n'));
  };
  const small = engine.verdict(tree(4096), { exit: 1 }).verdict;
  assert.is(small.tests.passed_set.length, 4096 * 8);
  const big = engine.verdict(tree(5000), { exit: 1 }).verdict;
  assert.is(big.tests.passed, 5000);
  assert.is(big.tests.passed_set, undefined);
  // 'case 0' passed, so a failure of it before is fixed; one in neither list did not run.
  const before = { ...small, tests: { ...small.tests, failures: [{ ...small.tests.failures[0], name: 'big suite > case 0' }] } };
  assert.equal(engine.delta(before, small, { treeChanged: true }).tests.fixed, ['big suite > case 0']);
  const gone = { ...small, tests: { ...small.tests, failures: [{ ...small.tests.failures[0], name: 'big suite > case 9999' }] } };
  assert.equal(engine.delta(gone, small, { treeChanged: true }).tests.not_run, ['big suite > case 9999']);
});

test('cargo test names every test it runs: a failure before that is in neither list now did not run; one listed ok was fixed', () => {
  const dir = join(PAIRS, 'cargo-build-failed-between');
  const before = side(join(dir, 'before')); // test_u64_max FAILED, test_zero ok
  assert.is(before.tests.passed_set.length, 8);
  const was = (name) => ({ ...before, tests: { ...before.tests, failures: [{ ...before.tests.failures[0], name }] } });
  assert.equal(engine.delta(was('test_zero'), before, { treeChanged: true }).tests.fixed, ['test_zero']);
  const d = engine.delta(was('test_removed'), before, { treeChanged: true });
  assert.equal(d.tests.fixed, []);
  assert.equal(d.tests.not_run, ['test_removed']);
});

test('pytest -v names every test it runs by id: a failing id in neither list now did not run; a bare name is not compared', () => {
  const c = listCases().find((x) => x.id === 'runners/pytest-fail-v');
  const v = engine.verdict(c.log, { exit: c.run.exit ?? null }).verdict;
  assert.is(v.tests.passed_set.length, v.tests.passed * 8);
  const was = (name) => ({ ...v, tests: { ...v.tests, failures: [{ ...v.tests.failures[0], name }] } });
  assert.equal(engine.delta(was('test_calc.py::test_add'), v, { treeChanged: true }).tests.fixed, ['test_calc.py::test_add']);
  assert.equal(engine.delta(was('test_calc.py::test_gone'), v, { treeChanged: true }).tests.not_run, ['test_calc.py::test_gone']);
  assert.equal(engine.delta(was('test_gone'), v, { treeChanged: true }).tests.fixed, ['test_gone']);
});

test("SymPy's runner under --verbose names every test it ran: a failure fixed, one skipped now (not run), one still failing", () => {
  const side = (id) => { const c = listCases().find((x) => x.id === id); return engine.verdict(c.log, { exit: c.run.exit ?? null }).verdict; };
  const before = side('runners/sympy-runner-verbose'); const after = side('runners/sympy-runner-verbose-fixed');
  assert.is(after.tests.passed_set.length, after.tests.passed * 8);
  const d = engine.delta(before, after, { treeChanged: true, sameRuns: 2 });
  assert.equal(d.tests.fixed, ['sympy/core/tests/test_sbx_case.py::test_factor_difference']);
  assert.equal(d.tests.not_run, ['sympy/core/tests/test_sbx_case.py::test_lookup_table']);
  assert.equal(d.tests.still_failing, ['sympy/core/tests/test_sbx_case.py::test_sympify_incomplete']);
  assert.ok(d.summary.includes('1 not run (skipped now)'), d.summary);
});

test.run();
