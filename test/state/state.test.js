// The state directory: raw logs kept byte for byte before parsing, atomic and locked writes under 8
// concurrent runs, corrupt or foreign state set aside (never trusted, never a crash), log pruning.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, readdirSync, existsSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, listCases } from '../../fixtures/lib/cases.js';
import { needs } from '../_tools.js';

const CLI = join(ROOT, 'dist/cli.js');
const cases = listCases();
const asan = cases.find((c) => c.id.includes('asan-heap-overflow-read-clang')) ?? cases[0];
const fresh = () => mkdtempSync(join(tmpdir(), 'sbx-state-'));

function sbx(args, opts = {}) {
  return spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', ...opts });
}
function sbxAsync(args, cwd) {
  return new Promise((res) => {
    const p = spawn(process.execPath, [CLI, ...args], { cwd });
    let out = ''; let err = '';
    p.stdout.on('data', (d) => { out += d; });
    p.stderr.on('data', (d) => { err += d; });
    p.on('close', (code) => res({ code, out, err }));
  });
}
const history = (dir) => readFileSync(join(dir, '.sbx/history.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));

needs('test/state/state: a git repository', ['git'], test)('the state dir ignores itself in git: git add -A in the project never commits its logs (issue 31)', () => {
  const dir = fresh();
  spawnSync('git', ['init', '-q', dir]);
  writeFileSync(join(dir, 'a.txt'), 'a\n');
  const r = sbx(['run', '--work', dir, '--', 'true']);
  assert.is(r.status, 0, r.stderr);
  spawnSync('git', ['add', '-A'], { cwd: dir });
  assert.is(spawnSync('git', ['ls-files'], { cwd: dir, encoding: 'utf8' }).stdout, 'a.txt\n');
  writeFileSync(join(dir, '.sbx/.gitignore'), '# mine\n');
  sbx(['run', '--work', dir, '--', 'true']);
  assert.is(readFileSync(join(dir, '.sbx/.gitignore'), 'utf8'), '# mine\n', 'one the user edited stays');
});

test('the raw log is kept byte for byte, from a file and from stdin', () => {
  const dir = fresh();
  const log = join(dir, 'build.log');
  copyFileSync(join(asan.dir, 'log.txt'), log);
  const r = sbx(['verdict', '--raw', log, '--exit', '1', '--state', join(dir, '.sbx'), '--json'], { cwd: dir });
  assert.is(r.status, 0, r.stderr);
  const env = JSON.parse(r.stdout);
  assert.ok(env.log.startsWith(join(dir, '.sbx/logs/')));
  assert.equal(readFileSync(env.log), readFileSync(log));
  const bytes = Buffer.concat([readFileSync(log), Buffer.from([0xff, 0x00, 0x0d, 0x0a])]);
  const s = sbx(['verdict', '--raw', '-', '--state', join(dir, '.sbx'), '--json'], { cwd: dir, input: bytes });
  assert.is(s.status, 0, s.stderr);
  assert.equal(readFileSync(JSON.parse(s.stdout).log), bytes);
  assert.is(history(dir).length, 2);
});

test('8 runs at once on one state dir: every run recorded, state intact', async () => {
  const dir = fresh();
  const log = join(dir, 'a.log');
  copyFileSync(join(asan.dir, 'log.txt'), log);
  const runs = await Promise.all(Array.from({ length: 8 }, () => sbxAsync(['verdict', '--raw', log, '--exit', '1', '--state', '.sbx', '--json'], dir)));
  for (const r of runs) assert.is(r.code, 0, r.err);
  const h = history(dir);
  assert.is(h.length, 8);
  assert.is(new Set(h.map((e) => e.id)).size, 8);
  assert.is(readdirSync(join(dir, '.sbx/logs')).filter((n) => n.endsWith('.log')).length, 8);
  const last = JSON.parse(readFileSync(join(dir, '.sbx/last.json'), 'utf8'));
  assert.is(last.schema, 'sbx.run-result/1');
  // Exactly one run saw no previous verdict; the others each saw one.
  assert.is(runs.filter((r) => JSON.parse(r.out).delta.first_run).length, 1);
  assert.ok(!existsSync(join(dir, '.sbx/lock')));
  assert.equal(readdirSync(join(dir, '.sbx')).filter((n) => n.includes('.tmp-')), []);
});

const header = '"schema": "sbx.run-result/1", "verdict": {"schema": "sbx.verdict/1", "status": "pass"}';
for (const [name, content] of [
  ['corrupt', '{"schema": "sbx.run-res'],
  ['foreign', '{"hello": "world"}\n'],
  ['binary', '\u0000\u0001\u0002'],
  ['array', '[1, 2]'],
  ['foreign-verdict', '{"schema": "sbx.run-result/1", "verdict": {"status": "pass"}, "state": {"id": "a", "tree": null}}'],
  ['unknown-status', '{"schema": "sbx.run-result/1", "verdict": {"schema": "sbx.verdict/1", "status": "fine"}, "state": {"id": "a", "tree": null}}'],
  ['stateless', `{${header}}`],
  ['numeric-id', `{${header}, "state": {"id": 7, "tree": null}}`],
  ['text-count', `{${header}, "state": {"id": "a", "tree": null, "same_cmd": "3"}}`],
  ['infinite-count', `{${header}, "state": {"id": "a", "tree": null, "edits": 1e999}}`],
]) {
  test(`a ${name} last.json is reported and set aside, never trusted`, () => {
    const dir = fresh();
    const log = join(dir, 'a.log');
    copyFileSync(join(asan.dir, 'log.txt'), log);
    sbx(['verdict', '--raw', log, '--exit', '1', '--state', '.sbx'], { cwd: dir });
    writeFileSync(join(dir, '.sbx/last.json'), content);
    const r = sbx(['verdict', '--raw', log, '--exit', '1', '--state', '.sbx', '--json'], { cwd: dir });
    assert.is(r.status, 0, r.stderr);
    assert.match(r.stderr, /last\.json was .*set aside/);
    assert.is(r.stderr.trim().split('\n').length, 1);
    assert.is(JSON.parse(r.stdout).delta.first_run, true);
    assert.ok(readdirSync(join(dir, '.sbx')).some((n) => n.startsWith('last.json.corrupt-')));
    // The next run trusts the new last.json again.
    const again = sbx(['verdict', '--raw', log, '--exit', '1', '--state', '.sbx', '--json'], { cwd: dir });
    assert.is(JSON.parse(again.stdout).delta.first_run, false);
  });
}

test('a last.json of an older sbx (no streak or prune counters) is trusted, its missing fields read as unknown', () => {
  const dir = fresh();
  const log = join(dir, 'a.log');
  copyFileSync(join(asan.dir, 'log.txt'), log);
  sbx(['verdict', '--raw', log, '--exit', '1', '--state', '.sbx'], { cwd: dir });
  const last = JSON.parse(readFileSync(join(dir, '.sbx/last.json'), 'utf8'));
  last.state = { id: last.state.id, tree: last.state.tree };
  for (const f of [join(dir, '.sbx/last.json'), ...readdirSync(join(dir, '.sbx/last')).map((n) => join(dir, '.sbx/last', n))]) writeFileSync(f, JSON.stringify(last));
  const r = sbx(['verdict', '--raw', log, '--exit', '1', '--state', '.sbx', '--json'], { cwd: dir });
  assert.is(r.status, 0, r.stderr);
  assert.is(r.stderr, '');
  const env = JSON.parse(r.stdout);
  assert.is(env.delta.first_run, false);
  assert.is(env.delta.crash, 'same');
});

test('logs are pruned to the policy, never the newest', () => {
  const dir = fresh();
  const log = join(dir, 'a.log');
  copyFileSync(join(asan.dir, 'log.txt'), log);
  const env = { ...process.env, SBX_KEEP_LOGS: '3' };
  let lastLog;
  for (let i = 0; i < 5; i++) lastLog = JSON.parse(sbx(['verdict', '--raw', log, '--state', '.sbx', '--json'], { cwd: dir, env }).stdout).log;
  const logs = readdirSync(join(dir, '.sbx/logs'));
  assert.is(logs.length, 3);
  assert.ok(existsSync(lastLog));
  assert.is(history(dir).length, 5);
  // Keep nothing: the newest still stays.
  sbx(['verdict', '--raw', log, '--state', '.sbx'], { cwd: dir, env: { ...process.env, SBX_KEEP_LOGS: '0' } });
  assert.is(readdirSync(join(dir, '.sbx/logs')).length, 1);
});

test('history shows runs and streaks', () => {
  const dir = fresh();
  const log = join(dir, 'a.log');
  copyFileSync(join(asan.dir, 'log.txt'), log);
  for (let i = 0; i < 4; i++) sbx(['verdict', '--raw', log, '--exit', '1', '--state', '.sbx'], { cwd: dir });
  const r = sbx(['history', '--state', '.sbx'], { cwd: dir });
  assert.is(r.status, 0, r.stderr);
  assert.match(r.stdout, /4 runs in a row/);
  const j = sbx(['history', '--state', '.sbx', '--json'], { cwd: dir });
  assert.is(j.stdout.trim().split('\n').length, 4);
  const none = sbx(['history', '--state', join(dir, 'nope')], { cwd: dir });
  assert.is(none.status, 2);
  assert.is(none.stderr.trim().split('\n').length, 1);
});

test('bad input to verdict is one line and a non-zero exit', () => {
  const dir = fresh();
  for (const args of [['verdict', '--raw', join(dir, 'missing.log')], ['verdict', '--raw', dir], ['verdict', '--raw', 'x', '--exit', 'abc'], ['verdict', '--raw', 'x', '--signal', 'SIGNOPE'], ['replay', join(dir, 'none')], ['nosuchcommand']]) {
    const r = sbx(args, { cwd: dir });
    assert.ok(r.status !== 0, args.join(' '));
    assert.is(r.stderr.trim().split('\n').length, 1, `${args.join(' ')}: ${r.stderr}`);
    assert.not.match(r.stderr, /\n\s+at /);
  }
});

test.run();
