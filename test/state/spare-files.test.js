// Files reused rather than created and freed per run (src/host/state/spare-logs.ts, atomic.ts): pruned
// logs kept, emptied, as the next runs' logs, and last.json's previous file as the next one. run()
// creates no file for its log once a prune has left spares, each log still holds its own run's output
// alone, nothing found under a spare's name that is not an empty file of its own is ever written, and
// runs of two processes taking turns on one state still compare each with the one before.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { linkSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../../fixtures/lib/cases.js';

const CLI = join(ROOT, 'dist/cli.js');

const fresh = () => mkdtempSync(join(tmpdir(), 'sbx-spare-'));

/** n runs of `echo run i` through run() in one process (the knobs are read as it loads); their logs and inodes. */
function runs(work, n, env = {}) {
  const js = `const { run } = await import(${JSON.stringify(join(ROOT, 'dist/index.js'))});
const { statSync } = await import('node:fs');
const out = [];
for (let i = 0; i < ${n}; i++) {
  const env = await run({ cmd: ['/bin/sh', '-c', 'echo run ' + i], work: ${JSON.stringify(work)} });
  out.push({ i, status: env.verdict.status, log: env.log, ino: statSync(env.log).ino });
}
process.stdout.write(JSON.stringify(out));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', js], { encoding: 'utf8', env: { ...process.env, ...env } });
  assert.is(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

test('once logs are pruned, run() takes its log\'s file from them, each log its own output alone', () => {
  const work = fresh();
  const made = runs(work, 16, { SBX_KEEP_LOGS: '4' });
  assert.ok(made.every((r) => r.status === 'pass'));
  const spareDir = join(work, '.sbx', 'spare');
  const spares = () => { try { return readdirSync(spareDir).map((n) => statSync(join(spareDir, n)).ino); } catch { return []; } };
  const before = spares();
  assert.ok(before.length > 0, 'the pruned logs were deleted, none kept for the next runs');
  const [next] = runs(work, 1, { SBX_KEEP_LOGS: '1000' });
  assert.ok(before.includes(next.ino), 'the next run created its log anew');
  assert.is(spares().length, before.length - 1);
  const kept = [...made, { ...next, i: 0 }].filter((r) => { try { statSync(r.log); return true; } catch { return false; } });
  assert.ok(kept.length >= 5);
  for (const r of kept) assert.is(readFileSync(r.log, 'utf8'), `run ${r.i}\n`, r.log);
  assert.ok(readdirSync(join(work, '.sbx', 'logs')).every((n) => n.endsWith('.log')), 'logs/ holds logs alone');
});

test('a spare that is not an empty file of its own (a hard link, a symlink, one with bytes) is never written', () => {
  const work = fresh();
  const outside = join(fresh(), 'precious');
  writeFileSync(outside, 'precious\n');
  const spare = join(work, '.sbx', 'spare');
  mkdirSync(spare, { recursive: true });
  linkSync(outside, join(spare, '0'));
  symlinkSync(outside, join(spare, '1'));
  writeFileSync(join(spare, '2'), 'old bytes\n');
  const made = runs(work, 3);
  assert.ok(made.every((r) => r.status === 'pass'));
  assert.is(readFileSync(outside, 'utf8'), 'precious\n');
  for (const r of made) assert.is(readFileSync(r.log, 'utf8'), `run ${r.i}\n`, r.log);
  assert.is(statSync(outside).nlink, 1, 'the hard link was removed, not kept as a log');
});

test('last.json is written into the file it replaced the time before (last.json.spare)', () => {
  const work = fresh();
  const sbx = () => assert.is(spawnSync(process.execPath, [CLI, 'run', '--work', work, '--', '/bin/true']).status, 0);
  sbx(); sbx();
  const spare = join(work, '.sbx', 'last.json.spare');
  const before = statSync(spare, { throwIfNoEntry: false });
  assert.ok(before, 'no last.json.spare: each write made a new file');
  sbx();
  assert.is(statSync(join(work, '.sbx', 'last.json')).ino, before.ino);
});

test('two processes taking turns on one command: every run compared with the one just before', () => {
  // One long-lived process (its runs' state remembered in memory) and CLI runs between its own: what
  // it remembers is taken only while last.json still holds that text, though the file is reused.
  const work = fresh();
  const plan = ['A', 'B', 'B', 'A', 'B', 'A', 'A', 'B', 'A'].map((who, i) => ({ who, fail: i % 3 === 1 }));
  const js = `const { run } = await import(${JSON.stringify(join(ROOT, 'dist/index.js'))});
const { spawnSync } = await import('node:child_process');
const { rmSync, writeFileSync } = await import('node:fs');
const plan = ${JSON.stringify(plan)};
const out = [];
for (const p of plan) {
  if (p.fail) writeFileSync(${JSON.stringify(join(work, 'fail'))}, ''); else rmSync(${JSON.stringify(join(work, 'fail'))}, { force: true });
  const cmd = ['/bin/sh', '-c', 'test ! -e fail'];
  let env;
  if (p.who === 'A') env = await run({ cmd, work: ${JSON.stringify(work)} });
  else env = JSON.parse(spawnSync(process.execPath, [${JSON.stringify(CLI)}, 'run', '--json', '--work', ${JSON.stringify(work)}, '--', ...cmd], { encoding: 'utf8' }).stdout);
  out.push({ status: env.verdict.status, before: env.delta.status?.before ?? null });
}
process.stdout.write(JSON.stringify(out));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', js], { encoding: 'utf8' });
  assert.is(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  out.forEach((o, i) => {
    assert.is(o.status === 'pass', !plan[i].fail, `run ${i}: ${o.status}`);
    if (i > 0) assert.is(o.before, out[i - 1].status, `run ${i} (${plan[i].who}) compared with the wrong run`);
  });
});

test.run();
