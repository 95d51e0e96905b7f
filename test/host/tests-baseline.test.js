// Issue 29: a run that never reached its tests (the build failed, it crashed before any test result) says
// nothing of them. The next run that reaches them compares its tests with the last run that did; status,
// errors and crash with the previous run. Three real runs each (fixtures/pairs), through the three ways a
// delta is made: sbx replay, sbx verdict --state, sbx run (its delta read ahead, then checked under the lock).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../../fixtures/lib/cases.js';

const CLI = join(ROOT, 'dist/cli.js');
const PAIRS = join(ROOT, 'fixtures/pairs');
const sbx = (args, opts = {}) => spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20, ...opts });

/** A step: a pair's log and its exit code (run.json). */
const step = (pair, state) => {
  const dir = join(PAIRS, pair, state);
  return { log: join(dir, 'log.txt'), exit: JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')).exit };
};

// A test fails; then the test binary dies in its first test (ASan) before any result; then the crash is fixed
// and the same test fails again: still failing, not broken.
const CRASH = [step('asan-crash-before-test-results', 'before'), step('asan-crash-before-test-results', 'after'), step('asan-crash-before-test-results', 'before')];
// A go test panics (TestLast failing); then a compile error; then the same panic again: TestLast still failing.
const BUILD = [step('go-panic-to-build-failed', 'before'), step('go-panic-to-build-failed', 'after'), step('go-panic-to-build-failed', 'before')];
// mocha --bail: "ETags mismatch" fails; then the first test fails and mocha stops before it; then the first is
// fixed and "ETags mismatch" fails again: still failing (not broken), the first fixed.
const BAIL = [step('mocha-bail-hides-failing-test', 'before'), step('mocha-bail-hides-failing-test', 'after'), step('mocha-bail-hides-failing-test', 'before')];
const ETAGS = 'fresh(req, res) > when requested with If-None-Match > when ETags mismatch > should be stale';
// cargo test (itoa): test_u64_max fails; a type error (mid/); fixed, an index panic fails both tests: test_u64_max
// still failing (changed), test_zero broken: what the delta from before to after gives (expect.json).
const CARGO = [step('cargo-build-failed-between', 'before'), step('cargo-build-failed-between', 'mid'), step('cargo-build-failed-between', 'after')];
// pytest -q (no list of passes): the failing test_mul deleted (not run: 4 tests before, 3 now), then the same run
// again: no change — a test gone from the run is carried no further, not "not run" on every run after.
const REMOVED = [step('pytest-q-failing-test-removed', 'before'), step('pytest-q-failing-test-removed', 'after'), step('pytest-q-failing-test-removed', 'after')];
// pytest -q: two tests fail; -k deselects one (`1 deselected`); the run without -k fails it again: still failing, not
// broken (a deselected test is carried, not gone).
const DESELECTED = [step('pytest-k-deselected-failure', 'before'), step('pytest-k-deselected-failure', 'after'), step('pytest-k-deselected-failure', 'before')];
// Twice the build failure: it stays "no change", not "not run".
const BUILD_TWICE = [step('go-panic-to-build-failed', 'before'), step('go-panic-to-build-failed', 'after'), step('go-panic-to-build-failed', 'after')];

function checkCrash(d) {
  assert.is(d.status.before, 'crash', d.summary);
  assert.is(d.crash, 'gone', d.summary);
  assert.equal(d.tests.broken, [], d.summary);
  assert.equal(d.tests.still_failing, ['sum adds every value'], d.summary);
}
function checkBuild(d) {
  assert.is(d.status.before, 'build-failed', d.summary);
  assert.is(d.diagnostics.fixed_count, 1, d.summary);
  assert.equal(d.tests.broken, [], d.summary);
  assert.equal(d.tests.still_failing, ['TestLast'], d.summary);
}
function checkBail(ds) {
  assert.equal(ds[1].tests.not_run, [ETAGS], ds[1].summary);
  const d = ds[2];
  assert.equal(d.tests.broken, [], d.summary);
  assert.equal(d.tests.still_failing, [ETAGS], d.summary);
  assert.equal(d.tests.fixed, ['fresh(req, res) > when a non-conditional GET is performed > should be stale'], d.summary);
}
function checkCargo(d) {
  assert.is(d.status.before, 'build-failed', d.summary);
  assert.is(d.diagnostics.fixed_count, 2, d.summary);
  const want = JSON.parse(readFileSync(join(PAIRS, 'cargo-build-failed-between/expect.json'), 'utf8')).tests;
  for (const k of ['fixed', 'broken', 'still_failing', 'changed', 'not_run']) assert.equal(d.tests[k], want[k], `${k}: ${d.summary}`);
}
function checkRemoved(ds) {
  assert.equal(ds[1].tests.not_run, ['test_calc.py::test_mul'], ds[1].summary);
  assert.equal(ds[1].tests.gone, ['test_calc.py::test_mul'], ds[1].summary);
  assert.equal(ds[2].tests.not_run, [], ds[2].summary);
  assert.ok(ds[2].summary.startsWith('no change'), ds[2].summary);
}
function checkDeselected(ds) {
  assert.equal(ds[1].tests.not_run, ['test_sets.py::test_union_disjoint'], ds[1].summary);
  assert.equal(ds[1].tests.gone ?? [], [], ds[1].summary);
  assert.equal(ds[2].tests.broken, [], ds[2].summary);
  assert.equal(ds[2].tests.still_failing, ['test_sets.py::test_union_overlap', 'test_sets.py::test_union_disjoint'], ds[2].summary);
}
function checkTwice(d) {
  assert.equal(d.tests.not_run, [], d.summary);
  assert.ok(d.summary.startsWith('no change'), d.summary);
}

function replayed(steps) {
  const dir = mkdtempSync(join(tmpdir(), 'sbx-tb-'));
  try {
    const file = join(dir, 'session.jsonl');
    writeFileSync(file, steps.map((s) => JSON.stringify(s)).join('\n'));
    const r = sbx(['replay', file, '--json']);
    assert.is(r.status, 0, r.stderr);
    return r.stdout.trim().split('\n').map((l) => JSON.parse(l).delta);
  } finally { rmSync(dir, { recursive: true, force: true }); }
}

function verdicts(steps) {
  const dir = mkdtempSync(join(tmpdir(), 'sbx-tb-'));
  try {
    return steps.map((s) => {
      const r = sbx(['verdict', '--raw', s.log, '--exit', String(s.exit), '--state', join(dir, '.sbx'), '--json'], { cwd: dir });
      assert.is(r.status, 0, r.stderr);
      return JSON.parse(r.stdout).delta;
    });
  } finally { rmSync(dir, { recursive: true, force: true }); }
}

function runs(steps) {
  const dir = mkdtempSync(join(tmpdir(), 'sbx-tb-'));
  const env = { ...process.env, SBX_HOMES: mkdtempSync(join(tmpdir(), 'sbx-tb-h-')), XDG_RUNTIME_DIR: mkdtempSync(join(tmpdir(), 'sbx-tb-x-')) };
  try {
    return steps.map((s) => {
      copyFileSync(s.log, join(dir, 'out.txt'));
      writeFileSync(join(dir, 'code'), String(s.exit));
      const r = sbx(['run', '--json', '--', 'sh', '-c', 'cat out.txt; exit $(cat code)'], { cwd: dir, env });
      assert.ok(r.stdout.length > 0, r.stderr);
      return JSON.parse(r.stdout).delta;
    });
  } finally {
    for (const d of [dir, env.SBX_HOMES, env.XDG_RUNTIME_DIR]) rmSync(d, { recursive: true, force: true });
  }
}

for (const [how, fn] of [['sbx replay', replayed], ['sbx verdict --state', verdicts], ['sbx run', runs]]) {
  test(`${how}: a crash before any test result, then the test fails again: still failing, crash gone`, () => checkCrash(fn(CRASH)[2]));
  test(`${how}: a build failure, then the test fails again: still failing, 1 error fixed`, () => checkBuild(fn(BUILD)[2]));
  test(`${how}: mocha --bail stopped before a failing test, then it fails again: still failing`, () => checkBail(fn(BAIL)));
  test(`${how}: cargo test, a build failure between two test runs: still failing, changed`, () => checkCargo(fn(CARGO)[2]));
  test(`${how}: a build failure twice: no change`, () => checkTwice(fn(BUILD_TWICE)[2]));
  test(`${how}: a failing test deleted (pytest -q), then the same run: no change, not carried`, () => checkRemoved(fn(REMOVED)));
  test(`${how}: a failing test deselected (pytest -k), then run again: still failing`, () => checkDeselected(fn(DESELECTED)));
}

test.run();
