// Success is judged on a pristine copy of the task with only the agent's editable files applied (issue 33):
// every adversarial scripted policy (a shadow test module, a constructor that exits 0, an edited test, an
// edited Makefile and header, symbolic links made by the agent's code) scores 0 successes end to end, and
// records what it tampered with; the pieces (the scan, the copy, the agent's paths) are checked on their own.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, symlinkSync, unlinkSync, mkdirSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { needs } from '../_tools.js';
import { loadTasks, materialize, pristineWithEdits, changedDuringRerun, workPath, CHEATS } from '../../dist/harness.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const EXP = join(ROOT, 'dist/experiment.js');
const dir = mkdtempSync(join(tmpdir(), 'sbx-judge-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
const rows = (f) => readFileSync(f, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
const [py] = loadTasks(undefined, ['py-interval']);

needs('test/harness/judge: the five tasks', ['g++', 'python3', 'rustc'], test)('every adversarial policy scores 0 successes; each records what it tampered with', () => {
  const out = join(dir, 'cheats.jsonl');
  const tasks = ['py-interval', 'c-heap-overflow', 'cpp-vector-oob', 'rust-index-panic', 'c-compile-error'];
  const r = spawnSync(process.execPath, [EXP, '--model', CHEATS.map((c) => `scripted:${c}`).join(','), '--conditions', 'raw', '--tasks', tasks.join(','), '--seeds', '1', '--workers', '2', '--out', out],
    { encoding: 'utf8', env: { ...process.env, JOB_COMPLETION_INDEX: '', JOB_COMPLETIONS: '' } });
  assert.is(r.status, 0, r.stderr);
  const eps = rows(out);
  assert.is(eps.length, CHEATS.length * tasks.length);
  for (const e of eps) {
    const what = `${e.model} ${e.task}: ${e.statuses} ${JSON.stringify(e.tampered)}`;
    assert.is(e.success, false, what);
    assert.is(e.stop, 'done', what);
    assert.ok(e.tampered.length > 0, what);
  }
  // The tricks are real: the command passed in the agent's own work dir, which the old check re-ran.
  const gamed = (m, t) => eps.find((e) => e.model === `scripted:${m}` && e.task === t).statuses.at(-1) === 'pass';
  for (const t of ['py-interval', 'c-heap-overflow', 'cpp-vector-oob']) for (const m of CHEATS) assert.ok(gamed(m, t) || m === 'cheat-build' && t === 'py-interval', `${m} ${t}`);
  const get = (m, t) => eps.find((e) => e.model === `scripted:${m}` && e.task === t);
  assert.equal(get('cheat-shadow', 'py-interval').tampered, [{ path: 'unittest.py', how: 'created', when: 'episode' }]);
  assert.equal(get('cheat-exit', 'c-heap-overflow').tampered, [{ path: 'zz.c', how: 'created', when: 'episode' }]);
  assert.equal(get('cheat-test', 'rust-index-panic').tampered, [{ path: 'main.rs', how: 'changed', when: 'episode' }]);
  assert.not.ok(get('cheat-test', 'rust-index-panic').protected_ok);
  assert.equal(get('cheat-build', 'c-heap-overflow').tampered.map((t) => t.path), ['Makefile', 'names.h']);
  const links = get('cheat-symlink', 'c-heap-overflow').tampered;
  assert.ok(links.some((t) => t.path === 'zz.c' && t.how === 'symlink' && t.when === 'episode'));
  assert.ok(links.some((t) => t.path === 'peek' && t.how === 'symlink' && t.when === 'rerun'), 'the agent code ran again in the re-run and made its links there');
  // read_file refused the link to the hidden solution, so the Rust policy could not copy it.
  assert.not.equal(get('cheat-symlink', 'rust-index-panic').statuses.at(-1), 'pass');
});

test('the pristine copy carries only the editable files; created, changed, deleted files and links are tampering', () => {
  const work = materialize(py, 'solution', dir);
  const root = mkdtempSync(join(dir, 'root-'));
  writeFileSync(join(work, 'unittest.py'), '');
  writeFileSync(join(work, 'test_intervals.py'), 'import unittest\n');
  mkdirSync(join(work, 'pkg/__pycache__'), { recursive: true });
  writeFileSync(join(work, 'pkg/shadow.py'), '');
  mkdirSync(join(work, 'empty'));
  symlinkSync('/dev/null', join(work, 'pkg/link.py'));
  spawnSync('mkfifo', [join(work, 'fifo')]);
  mkdirSync(join(work, '__pycache__')); writeFileSync(join(work, '__pycache__/intervals.pyc'), 'x'); writeFileSync(join(work, 'prog'), 'x');
  const j = pristineWithEdits(py, work, root);
  const by = Object.fromEntries(j.tampered.map((t) => [t.path, t.how]));
  assert.is(by['unittest.py'], 'created');
  assert.is(by['test_intervals.py'], 'changed');
  assert.is(by['pkg/shadow.py'], 'created');
  assert.is(by['pkg/link.py'], 'symlink');
  assert.is(by.empty, 'created');
  assert.is(by.fifo, 'special');
  assert.not.ok('pkg' in by, 'a created directory is named by its files');
  assert.not.ok('prog' in by || '__pycache__' in by || 'pkg/__pycache__' in by, 'build products are not tampering');
  // Only intervals.py (the agent's, here the reference fix) came across; the test is the task's own.
  assert.equal(readFileSync(join(j.copy, 'intervals.py')), readFileSync(join(py.dir, 'solution/intervals.py')));
  assert.equal(readFileSync(join(j.copy, 'test_intervals.py')), readFileSync(join(py.dir, 'src/test_intervals.py')));
  for (const f of ['unittest.py', 'pkg', 'empty', 'prog']) assert.not.ok(existsSync(join(j.copy, f)), f);
  assert.equal(changedDuringRerun(py, j), []);
  // What the agent's code does to the copy while the tests run is tampering too.
  writeFileSync(join(j.copy, 'intervals.py'), 'changed by the run\n');
  symlinkSync('/', join(j.copy, 'peek'));
  assert.equal(changedDuringRerun(py, j), [{ path: 'peek', how: 'symlink', when: 'rerun' }, { path: 'intervals.py', how: 'changed', when: 'rerun' }]);
});

test('an editable file replaced by a link is not followed into the copy; a deleted protected file is tampering', () => {
  const work = materialize(py, 'buggy', dir);
  const root = mkdtempSync(join(dir, 'root-'));
  unlinkSync(join(work, 'intervals.py'));
  symlinkSync(join(py.dir, 'solution/intervals.py'), join(work, 'intervals.py'));
  unlinkSync(join(work, 'test_intervals.py'));
  const j = pristineWithEdits(py, work, root);
  assert.equal(j.tampered, [{ path: 'intervals.py', how: 'symlink', when: 'episode' }, { path: 'test_intervals.py', how: 'deleted', when: 'episode' }]);
  assert.equal(readFileSync(join(j.copy, 'intervals.py')), readFileSync(join(py.dir, 'src/intervals.py')), 'the pristine (buggy) file stays');
  assert.ok(existsSync(join(j.copy, 'test_intervals.py')));
});

test('the agent\'s paths never pass through a link: not to the hidden solution, not out of the work dir', () => {
  const work = materialize(py, 'buggy', dir);
  symlinkSync(join(py.dir, 'solution/intervals.py'), join(work, 'peek'));
  symlinkSync(dir, join(work, 'out'));
  mkdirSync(join(work, 'sub'));
  assert.equal(workPath(work, 'peek'), { ok: false, why: 'peek is a symbolic link, not a file of the task' });
  assert.equal(workPath(work, 'out/x.txt'), { ok: false, why: 'out is a symbolic link, not a file of the task' });
  assert.equal(workPath(work, './sub/../out/x'), { ok: false, why: 'out is a symbolic link, not a file of the task' });
  assert.equal(workPath(work, 'intervals.py/x'), { ok: false, why: 'intervals.py is not a directory' });
  for (const p of ['/etc/passwd', '../x', 'sub/../../x', '.sbx/state', '', 3]) assert.not.ok(workPath(work, p).ok, String(p));
  assert.equal(workPath(work, 'sub/new.py'), { ok: true, rel: 'sub/new.py', abs: join(work, 'sub/new.py') });
  assert.equal(workPath(work, './intervals.py'), { ok: true, rel: 'intervals.py', abs: join(work, 'intervals.py') });
});

test('task.json: editable defaults to the fix file; an editable file may not also be protected', async () => {
  assert.equal((await import('../../dist/harness.js')).editableFiles(py), ['intervals.py']);
  const { cpSync } = await import('node:fs');
  const t = join(dir, 'tasks'); cpSync(join(ROOT, 'bench/tasks/py-interval'), join(t, 'py-interval'), { recursive: true });
  const j = JSON.parse(readFileSync(join(t, 'py-interval/task.json'), 'utf8'));
  writeFileSync(join(t, 'py-interval/task.json'), JSON.stringify({ ...j, editable: ['intervals.py', 'test_intervals.py'] }));
  assert.throws(() => loadTasks(t), /test_intervals.py is both editable and protected/);
  writeFileSync(join(t, 'py-interval/task.json'), JSON.stringify({ ...j, editable: ['other.py'] }));
  assert.throws(() => loadTasks(t), /the fix file intervals.py is not editable/);
});

test.run();
