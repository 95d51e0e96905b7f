// `sbx run` on the real workloads a new user wraps (issue 5's "Done when"): make test on a C project, pytest,
// cargo test; failing and passing. Asserts the verdict the engine gives from the real run (--json) and that
// the CLI's exit code mirrors the command's.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { workDir, copyFixture, sbxRun, cargoSetup, pytestSetup, skipNote, which } from './_helpers.js';
import { skipping } from '../_tools.js';

const names = (v) => (v.tests?.failures ?? []).map((f) => f.name).sort();

test('make test, a C check-script suite with a failing test: tests-failed, the failure named, make\'s error, exit 2', () => {
  const dir = copyFixture('runners/make-test-fail', workDir());
  const r = sbxRun(dir, ['make', 'test']);
  assert.is(r.code, 2, r.why());
  const v = r.verdict;
  assert.is(v.status, 'tests-failed', r.why());
  assert.equal(v.exit, { code: 2, signal: null, timed_out: false });
  assert.is(r.env.outcome.exit_code, 2);
  assert.is(v.tests.runner, 'check-script');
  assert.is(v.tests.passed, 2);
  assert.is(v.tests.failed, 1);
  const [f] = v.tests.failures;
  assert.equal([f.name, f.file, f.line], ['reverse_odd', 'test_strutil.c', 21]);
  assert.is(f.message, 'expected "cba", got ""');
  // make's own failure (a note: the consequence of the failing test, not an error of its own; one error
  // count everywhere), and the compiler's warning from the build make ran first.
  const make = v.diagnostics.find((d) => d.tool === 'make');
  assert.ok(make, r.why());
  assert.equal([make.severity, make.file, make.line], ['note', 'Makefile', 5]);
  assert.is(v.counts.errors, 0);
  const warn = v.diagnostics.find((d) => d.tool === 'gcc');
  assert.equal([warn?.severity, warn?.file, warn?.line, warn?.code], ['warning', 'strutil.c', 6, '-Wunused-variable'], r.why());
  assert.is(r.env.delta.first_run, true);
});

test('make running a program that dies of SIGFPE: crash naming the signal and the target, not build-failed (issue 8 #2)', () => {
  const dir = copyFixture('cfamily/make-run-fpe', workDir());
  const r = sbxRun(dir, ['make']);
  assert.is(r.code, 2, r.why());
  const v = r.verdict;
  assert.is(v.status, 'crash', r.why());
  assert.is(v.crash.kind, 'SIGFPE');
  assert.match(v.crash.message, "killed by SIGFPE while making 'run' (Makefile:5)");
  assert.is(v.counts.errors, 0);
});

test('make test, the same suite passing: pass, exit 0', () => {
  const dir = copyFixture('runners/make-test-pass', workDir());
  const r = sbxRun(dir, ['make', 'test']);
  assert.is(r.code, 0, r.why());
  assert.is(r.verdict.status, 'pass', r.why());
  assert.is(r.verdict.tests?.runner, 'check-script');
  assert.is(r.verdict.tests.passed, 3);
  assert.is(r.verdict.tests.failed, 0);
  assert.equal(r.verdict.diagnostics.filter((d) => d.severity === 'error'), []);
});

test('make test, fixed in place: the second run says the test is fixed and passes', () => {
  const dir = copyFixture('runners/make-test-fail', workDir());
  assert.is(sbxRun(dir, ['make', 'test']).code, 2);
  copyFixture('runners/make-test-pass', dir);
  const r = sbxRun(dir, ['make', 'test']);
  assert.is(r.code, 0, r.why());
  assert.is(r.verdict.status, 'pass');
  assert.equal(r.env.delta.status, { before: 'tests-failed', after: 'pass' });
  assert.equal(r.env.delta.tests.fixed, ['reverse_odd']);
});

const py = pytestSetup();
const pyTest = py.skip ? skipping(test, 'test/e2e/workloads: pytest', py.skip) : test;
pyTest('pytest, a failing suite: tests-failed, every failure and error by name, exit 1', () => {
  const dir = copyFixture('runners/pytest-fail', workDir());
  const r = sbxRun(dir, py.cmd);
  assert.is(r.code, 1, r.why());
  const v = r.verdict;
  assert.is(v.status, 'tests-failed', r.why());
  assert.is(v.tests.runner, 'pytest');
  assert.equal([v.tests.passed, v.tests.failed, v.tests.errors, v.tests.skipped], [6, 4, 1, 2], r.why());
  assert.equal(names(v), [
    'test_calc.py::test_add_params[1-1-3]',
    'test_calc.py::test_div_by_zero',
    'test_calc.py::test_mean_with_db',
    'test_calc.py::test_sub_big',
    'test_strings.py::test_shout_empty',
  ]);
  const sub = v.tests.failures.find((f) => f.name === 'test_calc.py::test_sub_big');
  assert.equal([sub.file, sub.line, sub.message.split('\n')[0]], ['test_calc.py', 22, 'assert 149 == 150']);
  const div = v.tests.failures.find((f) => f.name === 'test_calc.py::test_div_by_zero');
  assert.equal([div.file, div.line], ['calc.py', 12]);
});

pyTest('pytest, a passing suite: pass, exit 0', () => {
  const dir = copyFixture('runners/pytest-pass', workDir());
  const r = sbxRun(dir, py.cmd);
  assert.is(r.code, 0, r.why());
  assert.is(r.verdict.status, 'pass', r.why());
  assert.equal([r.verdict.tests.runner, r.verdict.tests.passed, r.verdict.tests.failed, r.verdict.tests.skipped], ['pytest', 6, 0, 2]);
});

const cargo = cargoSetup();
const cargoTest = cargo.skip ? skipping(test, 'test/e2e/workloads: cargo test', cargo.skip) : test;
cargoTest('cargo test --no-fail-fast, offline, no dependencies: tests-failed, failures by name from unit and integration tests, exit 101', () => {
  const dir = copyFixture('runners/cargo-fail', workDir());
  const r = sbxRun(dir, ['cargo', 'test', '--offline', '--no-fail-fast'], { flags: cargo.flags });
  assert.is(r.code, 101, `${cargo.why}\n${r.why()}`);
  const v = r.verdict;
  assert.is(v.status, 'tests-failed', r.why());
  assert.is(v.tests.runner, 'cargo-test');
  assert.equal([v.tests.passed, v.tests.failed, v.tests.skipped], [3, 5, 1], r.why());
  assert.equal(names(v), [
    'parse_negative_fails',
    'tests::interest_is_percent',
    'tests::overdraft_rejected',
    'tests::parse_rejects_empty_is_ok',
    'tests::parse_rejects_garbage',
  ]);
  const od = v.tests.failures.find((f) => f.name === 'tests::overdraft_rejected');
  assert.equal([od.file, od.line, od.message], ['src/lib.rs', 51, 'withdrawing 15 from 10 must fail']);
});

cargoTest('cargo test, a passing crate: pass, exit 0', () => {
  const dir = copyFixture('runners/cargo-pass', workDir());
  const r = sbxRun(dir, ['cargo', 'test', '--offline'], { flags: cargo.flags });
  assert.is(r.code, 0, `${cargo.why}\n${r.why()}`);
  assert.is(r.verdict.status, 'pass', r.why());
  assert.is(r.verdict.tests.runner, 'cargo-test');
  assert.is(r.verdict.tests.failed, 0);
  assert.ok(r.verdict.tests.passed > 0);
});

test('a tool that exists only under the caller\'s home, outside its toolchain roots: setup-failed naming the fix, exit 127', () => {
  // e.g. a script in ~/some-dir/bin: not visible in the sandbox without --ro-bind. (rustup's cargo in
  // ~/.cargo/bin was the example here until issue 31 §2: a toolchain root is now shown, see below.)
  const dir = mkdtempSync(join(homedir(), '.sbx-workloads-'));
  try {
    chmodSync(dir, 0o755);
    mkdirSync(join(dir, 'bin'));
    writeFileSync(join(dir, 'bin/hometool'), '#!/bin/sh\necho hometool\n', { mode: 0o755 });
    const r = sbxRun(workDir(), [join(dir, 'bin/hometool')]);
    assert.is(r.code, 127, r.why());
    assert.is(r.verdict.status, 'setup-failed');
    assert.match(r.verdict.setup_error, /not found/);
    assert.match(r.stderr, /note: `\S+hometool` is \S+hometool in your shell, and the sandbox does not show it/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('rustup\'s cargo under the caller\'s home runs by its own path (the toolchain root is shown read-only)', () => {
  const home = which('cargo', [`${process.env.HOME}/.cargo/bin`]);
  if (!home || home.startsWith('/usr/')) return skipNote('home-only tool', 'no cargo outside /usr on this host');
  const r = sbxRun(workDir(), [home, '--version']);
  assert.is(r.code, 0, r.why());
  assert.ok(r.env.outcome.applied.toolchains.some((t) => t.name === 'rustup'), r.why());
});

test.run();
