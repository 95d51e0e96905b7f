// The per-run state costs O(1): the streak of same verdicts travels in each run's state instead of
// being re-read from history.jsonl, logs/ is pruned every PRUNE_EVERY runs, and last.json is swapped
// through last.json.old. These check that what comes out is what the full history says.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, readdirSync, existsSync, copyFileSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, listCases } from '../../fixtures/lib/cases.js';

const CLI = join(ROOT, 'dist/cli.js');
const cases = listCases();
const asan = cases.find((c) => c.id.includes('asan-heap-overflow-read-clang')) ?? cases[0];
const other = cases.find((c) => c !== asan && c.id.includes('gcc')) ?? cases[1];
const fresh = () => mkdtempSync(join(tmpdir(), 'sbx-counters-'));
const verdict = (dir, log, env = process.env) => {
  const r = spawnSync(process.execPath, [CLI, 'verdict', '--raw', log, '--exit', '1', '--state', '.sbx', '--json'], { cwd: dir, encoding: 'utf8', env });
  assert.is(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
};
const history = (dir) => readFileSync(join(dir, '.sbx/history.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
/** The streak as the whole history has it: runs in a row at its end with the newest run's key. */
const streakFromHistory = (dir) => {
  const h = history(dir);
  let n = 0;
  for (let i = h.length - 1; i >= 0 && h[i].key === h[h.length - 1].key; i--) n++;
  return n;
};

test('the carried streak equals the one history.jsonl gives, across a change of verdict', () => {
  const dir = fresh();
  const a = join(dir, 'a.log'); const b = join(dir, 'b.log');
  copyFileSync(join(asan.dir, 'log.txt'), a);
  copyFileSync(join(other.dir, 'log.txt'), b);
  for (const [log, want] of [[a, 1], [a, 2], [a, 3], [b, 1], [b, 2], [a, 1], [a, 2]]) {
    const env = verdict(dir, log);
    if (want > 1) assert.is(env.delta.repeat.same_verdict_runs, want, JSON.stringify(env.delta));
    assert.is(streakFromHistory(dir), want);
  }
});

test('state from before the streak was carried: the streak comes from history once, then travels', () => {
  const dir = fresh();
  const a = join(dir, 'a.log');
  copyFileSync(join(asan.dir, 'log.txt'), a);
  for (let i = 0; i < 3; i++) verdict(dir, a);
  const last = join(dir, '.sbx/last.json');
  const j = JSON.parse(readFileSync(last, 'utf8'));
  for (const k of ['vkey', 'same_cmd', 'same_all', 'unpruned', 'unpruned_bytes']) delete j.state[k];
  writeFileSync(last, JSON.stringify(j));
  assert.is(verdict(dir, a).delta.repeat.same_verdict_runs, 4);
  assert.is(verdict(dir, a).delta.repeat.same_verdict_runs, 5);
});

test('pruning is amortised: logs/ stays within KEEP_LOGS + PRUNE_EVERY - 1, the newest kept', () => {
  const dir = fresh();
  const a = join(dir, 'a.log');
  copyFileSync(join(asan.dir, 'log.txt'), a);
  const env = { ...process.env, SBX_KEEP_LOGS: '8' }; // PRUNE_EVERY = 2
  let counts = [];
  let newest;
  for (let i = 0; i < 13; i++) {
    newest = verdict(dir, a, env).log;
    counts.push(readdirSync(join(dir, '.sbx/logs')).length);
  }
  assert.ok(Math.max(...counts) <= 9, `logs: ${counts}`);
  assert.ok(counts.slice(8).some((n) => n === 8), `never pruned back to 8: ${counts}`);
  assert.ok(existsSync(newest));
  assert.is(history(dir).length, 13);
});

test('a writer stopped between its two renames: last.json.old is read, and the next write cleans up', () => {
  const dir = fresh();
  const a = join(dir, 'a.log');
  copyFileSync(join(asan.dir, 'log.txt'), a);
  verdict(dir, a);
  renameSync(join(dir, '.sbx/last.json'), join(dir, '.sbx/last.json.old'));
  const env = verdict(dir, a);
  assert.is(env.delta.first_run, false, JSON.stringify(env.delta));
  assert.is(env.delta.repeat.same_verdict_runs, 2);
  assert.ok(existsSync(join(dir, '.sbx/last.json')));
  assert.not.ok(existsSync(join(dir, '.sbx/last.json.old')));
  assert.not.ok(readdirSync(join(dir, '.sbx')).some((n) => n.includes('.tmp-')));
});

test.run();
