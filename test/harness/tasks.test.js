// The study's tasks, validated inside sbx through the real CLI: every buggy source fails, every reference
// solution passes, every loop task's obvious fix fails; and the validator itself catches a broken task.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync, readFileSync, readdirSync, mkdirSync, chmodSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { needs } from '../_tools.js';
import { loadTasks, prepareTask, materialize, pristineWithEdits } from '../../dist/harness.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const CLI = join(ROOT, 'dist/cli.js');
const sbx = (...args) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', maxBuffer: 16 << 20 });

const required = ['c-heap-overflow', 'c-use-after-free', 'c-stack-strcpy', 'c-double-free', 'c-null-deref', 'c-ubsan-overflow',
  'c-compile-error', 'cpp-vector-oob', 'rust-index-panic', 'py-exception', 'py-interval', 'py-cli', 'c-haystack',
  'loop-py-rounding', 'loop-c-alloc', 'loop-rust-overflow'];

// The families that force the feedback channel (issue 33): the id, and what the buggy run must be.
const families = {
  'multi-file': { 'mf-c-session-uaf': 'crash', 'mf-c-csv-width': 'crash', 'mf-c-frame-sign': 'crash', 'mf-py-shared-defaults': 'tests-failed', 'mf-py-lexer-end': 'tests-failed', 'mf-rust-header-len': 'crash' },
  'real-bug': { 'real-heartbleed': 'crash', 'real-zlib-gzip-extra': 'crash', 'real-cjson-comma': 'crash', 'real-curl-socks5': 'crash', 'real-py-urlsplit': 'tests-failed', 'real-rust-base64-size': 'crash' },
  'source-insufficient': { 'bin-c-hexdump': 'crash', 'bin-c-queue-owner': 'crash', 'bin-py-wire': 'tests-failed', 'bin-py-grid': 'tests-failed' },
};

// The tasks' toolchains, in the sandbox: g++ (the C++ task), python3, rustc (Debian's, on the sandbox's PATH).
const allTasks = needs('test/harness/tasks: every task', ['g++', 'python3', 'rustc'], test);

allTasks('sbx tasks validate: every task, buggy fails and solution passes in sbx', () => {
  const r = sbx('tasks', 'validate', '--json');
  const rows = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
  for (const row of rows) assert.ok(row.ok, `${row.id}: ${row.problems.join('; ')}`);
  assert.is(r.status, 0, r.stderr);
  for (const id of required) assert.ok(rows.some((x) => x.id === id), `task ${id} missing`);
  const by = Object.fromEntries(rows.map((x) => [x.id, x.statuses]));
  for (const id of ['c-heap-overflow', 'c-use-after-free', 'c-stack-strcpy', 'c-double-free', 'c-null-deref', 'c-ubsan-overflow', 'cpp-vector-oob', 'rust-index-panic', 'c-haystack'])
    assert.is(by[id].buggy, 'crash', id);
  assert.is(by['c-compile-error'].buggy, 'build-failed');
  for (const id of ['py-exception', 'py-interval', 'py-cli']) assert.is(by[id].buggy, 'tests-failed', id);
  for (const id of ['loop-py-rounding', 'loop-c-alloc', 'loop-rust-overflow']) assert.not.equal(by[id].obvious, 'pass', id);
  for (const [family, ids] of Object.entries(families)) {
    for (const [id, status] of Object.entries(ids)) {
      assert.is(by[id]?.buggy, status, `${family} ${id}`);
      const t = JSON.parse(readFileSync(join(ROOT, 'bench/tasks', id, 'task.json'), 'utf8'));
      assert.is(t.family, family, id);
      if (t.obvious) assert.not.equal(by[id].obvious, 'pass', id);
    }
    // Every task of the family in bench/tasks is listed here, so none goes unchecked.
    const listed = rows.filter((r) => JSON.parse(readFileSync(join(ROOT, 'bench/tasks', r.id, 'task.json'), 'utf8')).family === family).map((r) => r.id).sort();
    assert.equal(listed, Object.keys(ids).sort(), family);
  }
});

const pyTasks = needs('test/harness/tasks: the bytecode tasks', ['python3'], test);

pyTasks('source-insufficient: the work dir holds the built product and none of the hidden sources; the run blames the hidden file', async () => {
  const [task] = loadTasks(undefined, ['bin-py-wire']);
  assert.throws(() => materialize(task), /has a setup that has not been built: call prepareTask first/);
  await prepareTask(task);
  const work = materialize(task);
  const root = mkdtempSync(join(tmpdir(), 'sbx-tasks-'));
  try {
    assert.equal(readdirSync(work).sort(), ['journal.py', 'test_journal.py', 'wire.pyc']);
    assert.ok(readFileSync(join(work, 'wire.pyc')).subarray(16).includes(Buffer.from('_gaps')), 'bytecode, names only');
    assert.not.ok(readFileSync(join(work, 'wire.pyc')).includes(Buffer.from('yield s - prev')), 'no source text');
    const r = spawnSync('python3', ['-m', 'unittest'], { cwd: work, encoding: 'utf8' });
    assert.match(r.stderr, /File "wire.py", line 6, in _varint\nValueError: cannot encode -130/);
    // The product is the task's, not the agent's: a changed wire.pyc is tampering, and the judge's copy has the built one.
    writeFileSync(join(work, 'wire.pyc'), 'def encode(e): return b""\n');
    const j = pristineWithEdits(task, work, root);
    assert.equal(j.tampered, [{ path: 'wire.pyc', how: 'changed', when: 'episode' }]);
    assert.ok(readFileSync(join(j.copy, 'wire.pyc')).subarray(16).includes(Buffer.from('_gaps')));
  } finally { rmSync(work, { recursive: true, force: true }); rmSync(root, { recursive: true, force: true }); }
});

allTasks('a setup that fails, or a hidden source copied into src/, fails validation with what went wrong', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sbx-tasks-'));
  try {
    cpSync(join(ROOT, 'bench/tasks/bin-c-hexdump'), join(dir, 'bin-c-hexdump'), { recursive: true });
    writeFileSync(join(dir, 'bin-c-hexdump/lib/hex.c'), 'this is not C\n');
    cpSync(join(ROOT, 'bench/tasks/bin-py-grid'), join(dir, 'bin-py-grid'), { recursive: true });
    cpSync(join(dir, 'bin-py-grid/lib/grid.py'), join(dir, 'bin-py-grid/src/grid.py'));
    const r = sbx('tasks', 'validate', '--dir', dir);
    assert.is(r.status, 1, r.stdout);
    assert.match(r.stdout, /FAIL bin-c-hexdump\s.*\n\s+the setup of task bin-c-hexdump \(sh -c gcc .*ar rcs libhex.a hex.o\) failed: status build-failed/);
    assert.match(r.stdout, /FAIL bin-py-grid .*\n\s+src\/ holds grid.py of the hidden lib\/: the agent could read it/);
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test('the real-bug tasks cite the upstream report and the fix commit', () => {
  for (const id of Object.keys(families['real-bug'])) {
    const t = JSON.parse(readFileSync(join(ROOT, 'bench/tasks', id, 'task.json'), 'utf8'));
    assert.match(t.upstream.commit, /^[0-9a-f]{40}$/, id);
    assert.ok(t.upstream.fix.includes(t.upstream.commit), `${id}: the fix link is the commit`);
    assert.match(t.upstream.report, /^https:\/\//, id);
    assert.ok(t.upstream.shape.length > 80, id);
  }
});

test('the multi-file tasks fail away from the cause: the line the buggy run blames is in another file than the fix', () => {
  for (const id of Object.keys(families['multi-file'])) {
    const t = JSON.parse(readFileSync(join(ROOT, 'bench/tasks', id, 'task.json'), 'utf8'));
    assert.ok(t.crash && t.crash.file !== t.fix.file, `${id}: crash ${JSON.stringify(t.crash)} vs fix ${t.fix.file}`);
    assert.ok(t.editable.includes(t.fix.file) && t.editable.includes(t.crash.file), `${id}: the cause and the crash site are both the agent's to change`);
  }
});

allTasks('sbx tasks validate fails a task whose solution does not pass, or whose protected file hash is wrong', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sbx-tasks-'));
  try {
    cpSync(join(ROOT, 'bench/tasks/py-interval'), join(dir, 'py-interval'), { recursive: true });
    writeFileSync(join(dir, 'py-interval/solution/intervals.py'), readFileSync(join(dir, 'py-interval/src/intervals.py')));
    cpSync(join(ROOT, 'bench/tasks/py-cli'), join(dir, 'py-cli'), { recursive: true });
    const t = JSON.parse(readFileSync(join(dir, 'py-cli/task.json'), 'utf8'));
    t.protected['test_resize.py'] = '0'.repeat(64);
    writeFileSync(join(dir, 'py-cli/task.json'), JSON.stringify(t));
    cpSync(join(ROOT, 'bench/tasks/mf-c-frame-sign'), join(dir, 'mf-c-frame-sign'), { recursive: true });
    const m = JSON.parse(readFileSync(join(dir, 'mf-c-frame-sign/task.json'), 'utf8'));
    m.crash.line = 7;
    writeFileSync(join(dir, 'mf-c-frame-sign/task.json'), JSON.stringify(m));
    const r = sbx('tasks', 'validate', '--dir', dir);
    assert.is(r.status, 1, r.stdout);
    assert.match(r.stdout, /FAIL mf-c-frame-sign .*\n\s+the buggy run fails at payload.c:6, not at the crash line payload.c:7 of task.json/);
    assert.match(r.stdout, /FAIL py-interval .*\n\s+the solution does not pass/);
    assert.match(r.stdout, /FAIL py-cli .*\n\s+protected files differ from their recorded hashes: test_resize.py/);
    assert.match(r.stdout, /0 of 3 tasks valid/);
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

pyTasks('validate: a solution may add an import at the top (counted by the line diff), not code away from the fix locus', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sbx-tasks-'));
  try {
    cpSync(join(ROOT, 'bench/tasks/py-interval'), join(dir, 'py-interval'), { recursive: true });
    const sol = join(dir, 'py-interval/solution/intervals.py');
    writeFileSync(sol, `import sys\n${readFileSync(sol, 'utf8')}`);
    const ok = sbx('tasks', 'validate', '--dir', dir);
    assert.is(ok.status, 0, ok.stdout);
    writeFileSync(sol, `${readFileSync(sol, 'utf8')}\n\ndef unused():\n    return sys.argv\n`);
    const bad = sbx('tasks', 'validate', '--dir', dir);
    assert.is(bad.status, 1, bad.stdout);
    assert.match(bad.stdout, /the solution changes lines \d+, outside the fix locus 8-8 \(±3\)/);
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test('a toolchain the sandbox does not show (only rustup under a home dir) is named, with the fix, not a bare exit 127', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sbx-tasks-'));
  try {
    // A rustup-only machine: rustc is a link to rustup in ~/.cargo/bin, and there is no rustc under /usr.
    // The task calls the toolchain by a name the sandbox's /usr cannot have, so this holds on any machine.
    const bin = join(dir, 'home/.cargo/bin'); mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, 'rustup'), '#!/bin/sh\nexit 1\n'); chmodSync(join(bin, 'rustup'), 0o755);
    symlinkSync('rustup', join(bin, 'rustc-sbxtest'));
    cpSync(join(ROOT, 'bench/tasks/rust-index-panic'), join(dir, 'tasks/rust-index-panic'), { recursive: true });
    const f = join(dir, 'tasks/rust-index-panic/task.json');
    writeFileSync(f, readFileSync(f, 'utf8').replace('rustc -g', 'rustc-sbxtest -g'));
    const r = spawnSync(process.execPath, [CLI, 'tasks', 'validate', '--dir', join(dir, 'tasks')], { encoding: 'utf8', env: { ...process.env, PATH: `${bin}:${process.env.PATH}` } });
    assert.is(r.status, 1, r.stderr);
    assert.match(r.stdout, new RegExp(`the buggy sources cannot run in the sandbox: rustc-sbxtest is not in the sandbox \\(sh: 1: rustc-sbxtest: not found\\): on this host it is ${bin}/rustc-sbxtest, a rustup proxy whose toolchain lives in a home directory, which the sandbox does not show; fix: install a system rustc-sbxtest under /usr`));
    assert.not.match(r.stdout, /the solution does not pass \(status setup-failed, exit 127\)/);
    // The experiment records it per episode and says it once at the end.
    const out = join(dir, 'eps.jsonl');
    const e = spawnSync(process.execPath, [join(ROOT, 'dist/experiment.js'), '--model', 'scripted:oracle', '--conditions', 'raw', '--tasks-dir', join(dir, 'tasks'), '--tasks', 'rust-index-panic', '--out', out],
      { encoding: 'utf8', env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, JOB_COMPLETION_INDEX: '', JOB_COMPLETIONS: '' } });
    assert.is(e.status, 0, e.stderr);
    assert.match(e.stderr, /^experiment: note: 1 episode\(s\) of rust-index-panic: rustc-sbxtest is not in the sandbox .*a rustup proxy/m);
    assert.match(JSON.parse(readFileSync(out, 'utf8')).setup_error, /^rustc-sbxtest is not in the sandbox/);
    // Not on the host at all: said so.
    const q = sbx('tasks', 'validate', '--dir', join(dir, 'tasks'));
    assert.match(q.stdout, /rustc-sbxtest is not installed \(sh: 1: rustc-sbxtest: not found\): install it/);
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test('sbx tasks: an unknown action or task is one line and exit 2', () => {
  const a = sbx('tasks', 'frobnicate');
  assert.is(a.status, 2, a.stderr);
  assert.match(a.stderr, /unknown action "frobnicate" for sbx tasks/);
  assert.is(a.stderr.trim().split('\n').length, 1);
  const b = sbx('tasks', 'validate', '--only', 'nope');
  assert.not.equal(b.status, 0);
  assert.match(b.stderr, /unknown task nope/);
});

test.run();
