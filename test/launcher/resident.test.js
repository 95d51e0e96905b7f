// The resident spawner (sbx-launch --serve, src/launcher/resident.ts): runs forked by it come out as
// direct ones do (output, counts, exit, signal, timeout, abort, setup errors), run side by side, and
// a server that is killed costs the runs it had, not the process's later ones.
import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { launcherPath, startResident } from '../../dist/launcher.js';
import { isRoot, run, sh, tempDir } from './_helpers.js';

process.env.SBX_SPAWN = 'resident';
const serving = await startResident(launcherPath());

/** Host pids whose parent is `ppid`. */
const childrenOf = (ppid) => readdirSync('/proc').filter((p) => /^\d+$/.test(p)).filter((p) => {
  try { return readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1].split(' ')[1] === String(ppid); } catch { return false; }
});

test('the server is up and launchers are its children, not ours', async () => {
  assert.ok(serving, 'sbx-launch --serve did not say hello');
  const server = childrenOf(process.pid).find((p) => readFileSync(`/proc/${p}/cmdline`, 'latin1').includes('--serve'));
  assert.ok(server, 'no sbx-launch --serve among our children');
  const p = sh('sleep 0.4');
  await new Promise((r) => setTimeout(r, 200));
  const launchers = childrenOf(server);
  const r = await p;
  assert.is(r.setupError, null);
  assert.is(launchers.length, 1, `the server's children: ${launchers}`);
});

/** A host process's session id (field 6 of /proc/PID/stat). */
const sessionOf = (pid) => readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[3];

test('each launcher leads a session of its own, not the server\'s: with autogroups, a run gets its own share of the CPU', async () => {
  const server = childrenOf(process.pid).find((p) => readFileSync(`/proc/${p}/cmdline`, 'latin1').includes('--serve'));
  const ps = [sh('sleep 0.4'), sh('sleep 0.4')];
  await new Promise((r) => setTimeout(r, 200));
  const launchers = childrenOf(server);
  const sessions = launchers.map(sessionOf);
  await Promise.all(ps);
  assert.is(launchers.length, 2, `the server's children: ${launchers}`);
  assert.equal(sessions, launchers, `the launchers' sessions ${sessions}, the server's ${sessionOf(server)}`);
});

test('run after run, the work dir\'s files are the sandbox user\'s and what it writes the caller\'s; as root one id-mapping namespace, kept by the server, serves them all and reaches no sandbox', async () => {
  const work = tempDir();
  writeFileSync(join(work, 'old.txt'), 'old\n');
  for (let i = 0; i < 3; i++) {
    const r = await sh(`stat -c "%u %U" /work/old.txt; echo x > /work/made${i}.txt; ls -l /proc/self/fd | grep -c "user:" || true`, { work });
    assert.is(r.out, '1000 sbx\n0\n', r.out);
    assert.is(lstatSync(join(work, `made${i}.txt`)).uid, process.getuid());
  }
  const server = childrenOf(process.pid).find((p) => readFileSync(`/proc/${p}/cmdline`, 'latin1').includes('--serve'));
  const userns = readdirSync(`/proc/${server}/fd`).filter((fd) => { try { return readlinkSync(`/proc/${server}/fd/${fd}`).startsWith('user:'); } catch { return false; } });
  assert.is(userns.length, isRoot ? 1 : 0, `the server's user namespace descriptors: ${userns}`);
});

test('output, byte counts, exit code and a signal, as a direct launch gives them', async () => {
  const r = await sh('echo out1; echo err1 >&2; echo out2; exit 3'); // one pipe for both streams: in order
  assert.is(r.outcome.exit_code, 3);
  assert.is(r.outcome.output_bytes, 15);
  assert.is(r.log(), 'out1\nerr1\nout2\n');
  const s = await sh('kill -SEGV $$');
  assert.is(s.outcome.signal, 'SIGSEGV');
  assert.is(s.outcome.exit_code, null);
});

test('the command holds pipes, not the log', async () => {
  const r = await sh('readlink /proc/self/fd/1 /proc/self/fd/2');
  const [one, two] = r.out.split('\n');
  assert.match(one, /^pipe:/);
  assert.match(two, /^pipe:/);
});

test('a timeout, an abort and a command that is not there', async () => {
  const t = await run(['sleep', '5'], { timeout: 0.3 });
  assert.is(t.outcome.timed_out, true);
  const ac = new AbortController();
  const started = Date.now();
  const p = run(['sleep', '5'], { signal: ac.signal });
  setTimeout(() => ac.abort(), 200);
  const a = await p;
  assert.ok(Date.now() - started < 3000, 'the abort did not stop the run');
  assert.ok(a.outcome.signal !== null || a.outcome.exit_code !== 0);
  const n = await run(['/nonexistent/tool']);
  assert.is(n.setupError?.code, 'E_CMD_NOT_FOUND');
});

test('eight runs at once each get their own output and exit', async () => {
  const rs = await Promise.all(Array.from({ length: 8 }, (_, i) => sh(`sleep 0.1; echo run-${i}; exit ${i}`)));
  rs.forEach((r, i) => {
    assert.is(r.outcome.exit_code, i);
    assert.is(r.out, `run-${i}\n`);
  });
});

test('a killed server fails the run it had, and a later run still works', async () => {
  const server = childrenOf(process.pid).find((p) => readFileSync(`/proc/${p}/cmdline`, 'latin1').includes('--serve'));
  const p = sh('sleep 2');
  await new Promise((r) => setTimeout(r, 200));
  process.kill(Number(server), 'SIGKILL');
  const r = await p;
  assert.is(r.setupError?.code, 'E_LAUNCHER');
  let later = null;
  for (let i = 0; i < 3; i++) later = await sh('echo again');
  assert.is(later.setupError, null);
  assert.is(later.out, 'again\n');
});

test('a process that used the server reaps it as it exits: no orphan, no zombie left', () => {
  const js = `
    const { launch, launcherPath, startResident } = await import(${JSON.stringify(new URL('../../dist/launcher.js', import.meta.url).href)});
    const { readdirSync, readFileSync } = await import('node:fs');
    await startResident(launcherPath());
    for (let i = 0; i < 3; i++) await launch({ cmd: ['/bin/true'], work: '/tmp', logPath: '/tmp/sbx-resident-exit-' + process.pid + '.log' });
    const kids = readdirSync('/proc').filter((p) => /^\\d+$/.test(p)).filter((p) => { try { return readFileSync('/proc/' + p + '/stat', 'utf8').split(') ')[1].split(' ')[1] === String(process.pid); } catch { return false; } });
    console.log(kids.join(' '));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', js], { encoding: 'utf8', env: { ...process.env, SBX_SPAWN: '' } });
  assert.is(r.status, 0, r.stderr);
  const kids = r.stdout.trim().split(' ').filter(Boolean);
  assert.is(kids.length, 1, `the child's children: ${r.stdout}`);
  assert.not.ok(existsSync(`/proc/${kids[0]}`), `the server ${kids[0]} outlived its caller`);
});

test('Ctrl-C to the process group: the run comes back interrupted through the server, which stays up', async () => {
  const js = `
    process.on('SIGINT', () => {}); // this caller lives on, as a harness that handles it would
    const { launch, launcherPath, startResident } = await import(${JSON.stringify(new URL('../../dist/launcher.js', import.meta.url).href)});
    await startResident(launcherPath());
    const log = '/tmp/sbx-resident-int-' + process.pid + '.log';
    console.log('ready');
    const r = await launch({ cmd: ['sleep', '5'], work: '/tmp', logPath: log });
    const again = await launch({ cmd: ['/bin/true'], work: '/tmp', logPath: log });
    console.log(JSON.stringify({ setup: r.setupError?.code ?? null, signal: r.outcome.signal, again: again.setupError?.code ?? again.outcome.exit_code }));`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', js], { detached: true, stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, SBX_SPAWN: 'resident' } });
  let out = '';
  child.stdout.on('data', (c) => { out += c; });
  while (!out.includes('ready')) await new Promise((r) => setTimeout(r, 20));
  await new Promise((r) => setTimeout(r, 300));
  const started = Date.now();
  process.kill(-child.pid, 'SIGINT');
  await new Promise((r) => child.once('close', r));
  assert.ok(Date.now() - started < 3000, 'the run was not stopped');
  const res = JSON.parse(out.trim().split('\n').pop());
  assert.equal(res, { setup: null, signal: 'SIGKILL', again: 0 });
});

test.run();
