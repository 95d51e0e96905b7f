// The study's tasks, validated inside sbx through the real CLI: every buggy source fails, every reference
// solution passes, every loop task's obvious fix fails; and the validator itself catches a broken task.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { needs } from '../_tools.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const CLI = join(ROOT, 'dist/cli.js');
const sbx = (...args) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', maxBuffer: 16 << 20 });

const required = ['c-heap-overflow', 'c-use-after-free', 'c-stack-strcpy', 'c-double-free', 'c-null-deref', 'c-ubsan-overflow',
  'c-compile-error', 'cpp-vector-oob', 'rust-index-panic', 'py-exception', 'py-interval', 'py-cli', 'c-haystack',
  'loop-py-rounding', 'loop-c-alloc', 'loop-rust-overflow'];

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
    const r = sbx('tasks', 'validate', '--dir', dir);
    assert.is(r.status, 1, r.stdout);
    assert.match(r.stdout, /FAIL py-interval .*\n\s+the solution does not pass/);
    assert.match(r.stdout, /FAIL py-cli .*\n\s+protected files differ from their recorded hashes: test_resize.py/);
    assert.match(r.stdout, /0 of 2 tasks valid/);
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
