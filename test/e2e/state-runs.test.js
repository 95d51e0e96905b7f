// Issue 8, what a new user hit in the state between runs: the delta must say "nothing changed since
// the last run" when nothing was edited (a build's own output and HOME caches are no edit), compare
// runs of the same command only, show the command in history, survive a state it cannot write, and
// report a missing bind source as such. Real runs of gcc and sh in the sandbox.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, isRoot, workDir, sbxRun, logText } from './_helpers.js';

const crashing = {
  'main.c': '#include <stdio.h>\nint main(void) {\n  int *p = 0;\n  printf("start\\n");\n  return *p;\n}\n',
};
// The build writes ./prog, and the sandbox's HOME (/work) collects a cache: neither is an edit.
const build = ['sh', '-c', 'mkdir -p .cache/tool && date +%N > .cache/tool/stamp && gcc -g -o prog main.c && ./prog'];

test('no edit between two runs: "nothing changed since the last run", not "your edit did not …"', () => {
  const dir = workDir(crashing);
  const a = sbxRun(dir, build);
  assert.is(a.verdict.status, 'crash', a.why());
  const b = sbxRun(dir, build);
  assert.is(b.env.delta.tree_changed, 0, JSON.stringify(b.env.delta));
  assert.is(b.env.delta.no_op_edit, false);
  assert.match(b.env.delta.summary, /^no change — nothing changed since the last run/, b.env.delta.summary);
  // An edit that does not touch the crash reads as such.
  writeFileSync(join(dir, 'main.c'), readFileSync(join(dir, 'main.c'), 'utf8').replace('int main', '/* edited */\nint main'));
  const c = sbxRun(dir, build);
  assert.is(c.env.delta.tree_changed, 1, JSON.stringify(c.env.delta));
  assert.match(c.env.delta.summary, /your edit/, c.env.delta.summary);
});

test('the delta compares a run with the last run of the same command; history shows the command', () => {
  const dir = workDir({ 'ok.sh': 'echo fine\n' });
  const t1 = sbxRun(dir, ['sh', '-c', 'echo boom; exit 3']);
  assert.is(t1.env.delta.first_run, true);
  const other = sbxRun(dir, ['ls']);
  assert.is(other.env.delta.first_run, true, 'ls was compared with another command');
  const t2 = sbxRun(dir, ['sh', '-c', 'echo boom; exit 3']);
  assert.is(t2.env.delta.first_run, false);
  assert.is(t2.env.delta.summary.startsWith('no change'), true, t2.env.delta.summary);
  const h = spawnSync(process.execPath, [CLI, 'history', '--state', join(dir, '.sbx')], { encoding: 'utf8' });
  assert.is(h.status, 0, h.stderr);
  assert.match(h.stdout, "$ sh -c 'echo boom; exit 3'");
  assert.match(h.stdout, '$ ls');
  // --work names the same state as sbx run --work does.
  const w = spawnSync(process.execPath, [CLI, 'history', '--work', dir], { encoding: 'utf8' });
  assert.is(w.status, 0, w.stderr);
  assert.is(w.stdout, h.stdout);
});

test('--bind of a missing source: E_BIND_MISSING in the verdict and in the log, exit 125', () => {
  const dir = workDir({});
  const r = sbxRun(dir, ['true'], { flags: ['--bind', '/nonexistent-sbx-src:/data'] });
  assert.is(r.code, 125, r.why());
  assert.is(r.verdict.status, 'setup-failed');
  assert.match(r.verdict.setup_error, 'bind source /nonexistent-sbx-src does not exist');
  assert.match(logText(r.env), 'E_BIND_MISSING');
});

test('a state it cannot record into costs the record, not the verdict; a read-only last.json is no problem', () => {
  const dir = workDir({});
  sbxRun(dir, ['true']);
  chmodSync(join(dir, '.sbx/last.json'), 0o444);
  const ro = sbxRun(dir, ['echo', 'again']);
  assert.is(ro.code, 0, ro.why());
  assert.is(ro.env.delta.first_run, true);
  assert.match(readFileSync(join(dir, '.sbx/last.json'), 'utf8'), 'again');
  // history.jsonl that cannot be appended to (a directory in its place).
  const bad = workDir({});
  mkdirSync(join(bad, '.sbx/history.jsonl'), { recursive: true });
  const r = sbxRun(bad, ['echo', 'hi']);
  assert.is(r.code, 0, r.why());
  assert.is(r.verdict.status, 'pass');
  assert.match(r.stderr, /this run was not recorded in .*\.sbx/);
  assert.not.match(r.stderr, 'internal error');
});

test('a state dir the caller cannot write: one clear line, exit 73 (EX_CANTCREAT), no internal error', () => {
  if (isRoot) return; // root writes through any mode: covered by the ordinary-user run of this suite
  const dir = workDir({});
  mkdirSync(join(dir, '.sbx'));
  chmodSync(join(dir, '.sbx'), 0o555);
  const r = spawnSync(process.execPath, [CLI, 'run', '--work', dir, '--', 'true'], { encoding: 'utf8' });
  chmodSync(join(dir, '.sbx'), 0o755);
  assert.is(r.status, 73, r.stderr);
  assert.match(r.stderr, /^sbx: cannot use .*\.sbx as the state directory: permission denied/);
  assert.is(r.stderr.trim().split('\n').length, 1, r.stderr);
});

test('inside, the sandbox user is sbx on every host (id -un, whoami, ls -l)', () => {
  const dir = workDir({ 'f.txt': 'x\n' });
  const r = sbxRun(dir, ['sh', '-c', 'id -un; whoami; id -gn; ls -l /work/f.txt | awk \'{print $3, $4}\'']);
  assert.is(logText(r.env), 'sbx\nsbx\nsbx\nsbx sbx\n', r.why());
});

test.run();
