// The resident sbx: build/sbx-client hands `sbx run` and the hooks to `sbx daemon` (src/cli/resident/),
// and falls back to the Node CLI with the same output when it cannot. Each test has its own
// XDG_RUNTIME_DIR, so its daemon is its own. SBX_RESIDENT=require makes the client fail (exit 69,
// with the reason) instead of falling back: a call that passes with it was run by the daemon.
// Parts that need another user (root running the test, `sbxtest` existing) are skipped otherwise.
// sbx-test: alone (four runs side by side are timed; scripts/test.js runs it with no other file beside it)
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bin, root } from './_client.js';
import { guarded, payload } from './_hook-helpers.js';

const client = join(root, 'build', 'sbx-client');
const tmp = mkdtempSync(join(tmpdir(), 'sbx-resident-'));
chmodSync(tmp, 0o755);
const started = new Set();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A fresh runtime dir (its daemon is this test's alone) and an environment naming it. */
function runtime(name, extra = {}) {
  const xdg = join(tmp, `xdg-${name}`);
  mkdirSync(xdg, { mode: 0o700 });
  return { xdg, env: { ...process.env, XDG_RUNTIME_DIR: xdg, SBX_DAEMON_IDLE: '60', ...extra } };
}

/** FNV-1a of the install's real path: the socket's name, as native/client.c and src/cli/resident/place.ts make it. */
function hash(path) {
  let h = 0xcbf29ce484222325n;
  for (const b of Buffer.from(path)) h = ((h ^ BigInt(b)) * 0x100000001b3n) & 0xffffffffffffffffn;
  return h.toString(16).padStart(16, '0');
}
const files = (xdg) => { const at = (ext) => join(xdg, 'sbx', `${hash(root)}.${ext}`); return { sock: at('sock'), key: at('key'), log: at('log') }; };
const daemonPid = (xdg) => { try { return Number(readFileSync(files(xdg).key, 'utf8').split('\n')[1]); } catch { return 0; } };
const alive = (pid) => { try { process.kill(pid, 0); return true; } catch { return false; } };

async function until(what, ok, ms = 15_000) {
  const end = Date.now() + ms;
  while (Date.now() < end) { if (await ok()) return; await sleep(50); }
  throw new Error(`timed out waiting for ${what}`);
}

/** Starts `sbx daemon` for rt and waits until it answers. */
async function startDaemon(rt) {
  const p = spawn(process.execPath, [bin, 'daemon'], { env: rt.env, stdio: 'ignore', detached: true });
  p.unref();
  started.add(p.pid);
  await until('the daemon to listen', () => daemonPid(rt.xdg) === p.pid && existsSync(files(rt.xdg).sock));
  return p.pid;
}

function run(argv, { env, cwd, input } = {}) {
  return new Promise((ok) => {
    const p = spawn(argv[0], argv.slice(1), { env, cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = ''; let stderr = '';
    p.stdout.on('data', (d) => { stdout += d; });
    p.stderr.on('data', (d) => { stderr += d; });
    p.on('close', (status, signal) => ok({ status, signal, stdout, stderr, pid: p.pid }));
    p.stdin.on('error', () => {}); // a client that exits before reading it
    p.stdin.end(input ?? '');
  });
}
const viaClient = (args, o) => run([client, ...args], o);
const viaNode = (args, o) => run([process.execPath, bin, ...args], o);

/** What two runs of one command in two copies of a work dir share: paths, times and log names taken out. */
const norm = (text, dir) => text.replace(/"home":"[^"]*"/g, '"home":"HOME"').replaceAll(dir, 'WORK').replace(/ \(\+\d+ ms sbx\)/g, '').replace(/\d+ ms/g, 'N ms').replace(/logs\/[\w-]+\.log/g, 'logs/L.log').replace(/"(\w+_ms|max_rss_kb)":[\d.]+/g, '"$1":N');

function workDir(name) {
  const w = join(tmp, name);
  mkdirSync(w, { recursive: true });
  writeFileSync(join(w, 'Makefile'), 'all:\n\t@echo building\n\t@echo "main.c:3:5: error: expected \';\' before \'}\' token" >&2\n\t@exit 2\n');
  chmodSync(w, 0o777);
  return w;
}

// A process whose command line is `sleep SECONDS` (the sandboxed command of a test, not the client that names it).
const running = (secs) => readdirSync('/proc').filter((d) => /^\d+$/.test(d)).some((d) => {
  try { return readFileSync(`/proc/${d}/cmdline`, 'utf8') === `sleep\0${secs}\0`; } catch { return false; }
});

const test = suite('resident sbx');

test('sbx run through the client: the daemon runs it, with the output and exit code of the Node CLI', async () => {
  const rt = runtime('same');
  await startDaemon(rt);
  const cases = [
    ['run', '--', 'sh', '-c', 'echo out; echo err >&2; exit 3'],
    ['run', '--', 'make'],
    ['run', '--json', '--', 'true'],
    ['run', '--envelope', 'env.json', '--', 'sh', '-c', 'echo hello'],
    ['run', '--no-such-flag', '--', 'true'],
    ['run', '--work', 'missing-dir', '--', 'true'],
  ];
  for (const [i, args] of cases.entries()) {
    const a = workDir(`same-a${i}`); const b = workDir(`same-b${i}`);
    const viaD = await viaClient(args, { env: { ...rt.env, SBX_RESIDENT: 'require' }, cwd: a });
    const viaN = await viaNode(args, { env: rt.env, cwd: b });
    const what = args.join(' ');
    assert.is(viaD.status, viaN.status, `${what}: exit code`);
    assert.is.not(viaD.status, 69, `${what}: ${viaD.stderr}`);
    assert.is(norm(viaD.stdout, a), norm(viaN.stdout, b), `${what}: stdout`);
    assert.is(norm(viaD.stderr, a), norm(viaN.stderr, b), `${what}: stderr`);
    if (args.includes('env.json')) assert.is(JSON.parse(readFileSync(join(a, 'env.json'), 'utf8')).schema, 'sbx.run-result/1', 'a relative --envelope is written in the client\'s cwd');
  }
});

test('SBX_PHASES=1: the run\'s phase marks on the client\'s stderr, as the Node CLI prints them, the server\'s own among them', async () => {
  const rt = runtime('phases', { SBX_PHASES: '1' });
  await startDaemon(rt);
  const w = workDir('phases');
  const viaD = await viaClient(['run', '--', 'true'], { env: { ...rt.env, SBX_RESIDENT: 'require' }, cwd: w });
  assert.is(viaD.status, 0, viaD.stderr);
  const viaN = await viaNode(['run', '--', 'true'], { env: rt.env, cwd: w });
  assert.match(viaN.stderr, /^phases: .*\blaunched=[\d.]+ .*\bprinted=[\d.]+/m, 'the Node CLI prints them');
  const line = /^phases: (.*)$/m.exec(viaD.stderr)?.[1];
  assert.ok(line, `no phases line from the resident sbx: ${JSON.stringify(viaD.stderr)}`);
  const names = line.split(' ').map((m) => m.split('=')[0]);
  for (const n of ['r-header', 'r-start', 'command', 'launched', 'recorded', 'printed', 'r-done']) assert.ok(names.includes(n), `${n} in ${line}`);
});

test('hooks through the client: the same answer as the Node CLI, the rewrite naming the client', async () => {
  const rt = runtime('hooks');
  await startDaemon(rt);
  const proj = workDir('hook-proj');
  const home = join(tmp, 'hook-home');
  mkdirSync(home, { recursive: true });
  const env = { ...rt.env, HOME: home, CLAUDE_PROJECT_DIR: '' };
  for (const f of ['pre-build.json', 'pre-ls.json', 'pre-crash.json']) {
    const input = JSON.stringify(payload(f, proj));
    const d = await viaClient(['hook', 'claude-pre'], { env: { ...env, SBX_RESIDENT: 'require' }, cwd: proj, input });
    const n = await viaNode(['hook', 'claude-pre'], { env, cwd: proj, input });
    assert.is(d.status, 0, d.stderr);
    assert.is(d.stdout, n.stdout, f);
    assert.is(d.stderr, n.stderr, f);
    if (f === 'pre-build.json') assert.ok(JSON.parse(d.stdout).hookSpecificOutput.updatedInput.command.startsWith(`${client} run --work ${proj} `), d.stdout);
    if (f === 'pre-ls.json') assert.is(d.stdout, '', 'a pass-through call gets no answer');
  }
  // A payload that is not JSON: one line, exit 0, no answer, as from Node.
  const bad = await viaClient(['hook', 'codex-pre'], { env: { ...env, SBX_RESIDENT: 'require' }, cwd: proj, input: '{nope' });
  const badN = await viaNode(['hook', 'codex-pre'], { env, cwd: proj, input: '{nope' });
  assert.equal([bad.status, bad.stdout, bad.stderr], [badN.status, badN.stdout, badN.stderr]);
});

test('hook install names the client when it is built; uninstall removes it', async () => {
  const dir = workDir('install');
  const r = spawnSync(process.execPath, [bin, 'hook', 'install', '--claude', '--post', '--dir', dir], { encoding: 'utf8', env: process.env });
  assert.is(r.status, 0, r.stderr);
  const s = JSON.parse(readFileSync(join(dir, '.claude', 'settings.json'), 'utf8'));
  assert.is(guarded(s.hooks.PreToolUse[0].hooks[0].command), `${client} hook claude-pre`);
  assert.is(guarded(s.hooks.PostToolUse[0].hooks[0].command), `${client} hook claude-post`);
  const u = spawnSync(process.execPath, [bin, 'hook', 'uninstall', '--claude', '--dir', dir], { encoding: 'utf8' });
  assert.match(u.stdout, /3 sbx hook\(s\) removed/);
});

test('no daemon: the client runs the Node CLI (same output) and starts one for the next call', async () => {
  const rt = runtime('cold');
  const a = workDir('cold-a'); const b = workDir('cold-b');
  const d = await viaClient(['run', '--', 'make'], { env: rt.env, cwd: a });
  const n = await viaNode(['run', '--', 'make'], { env: rt.env, cwd: b });
  assert.is(d.status, 2);
  assert.is(d.status, n.status);
  assert.is(norm(d.stdout, a), norm(n.stdout, b));
  assert.is(norm(d.stderr, a), norm(n.stderr, b));
  await until('the daemon the client started', () => alive(daemonPid(rt.xdg)));
  started.add(daemonPid(rt.xdg));
  const again = await viaClient(['run', '--', 'true'], { env: { ...rt.env, SBX_RESIDENT: 'require' }, cwd: a });
  assert.is(again.status, 0, again.stderr);
  // Started from a dir it does not keep: it runs in /, so that dir can be removed or unmounted.
  assert.is(spawnSync('readlink', [`/proc/${daemonPid(rt.xdg)}/cwd`], { encoding: 'utf8' }).stdout.trim(), '/');
});

test('a call the daemon cannot take on as the client\'s own Node would is declined: the client runs Node, with the stdin it read', async () => {
  const rt = runtime('decline');
  await startDaemon(rt);
  const proj = workDir('decline-proj');
  const env = { ...rt.env, SBX_KEEP_LOGS: '7', HOME: join(tmp, 'hook-home'), CLAUDE_PROJECT_DIR: '' };
  const input = JSON.stringify(payload('pre-build.json', proj));
  const req = await viaClient(['hook', 'claude-pre'], { env: { ...env, SBX_RESIDENT: 'require' }, cwd: proj, input });
  assert.is(req.status, 69);
  assert.match(req.stderr, /SBX_KEEP_LOGS differs from the server's/);
  const d = await viaClient(['hook', 'claude-pre'], { env, cwd: proj, input });
  const n = await viaNode(['hook', 'claude-pre'], { env, cwd: proj, input });
  assert.is(d.status, 0);
  assert.ok(d.stdout.includes('updatedInput'), d.stdout + d.stderr);
  assert.is(d.stdout, n.stdout);
});

test('the key: a client without it is refused, another protocol is declined', async () => {
  const rt = runtime('key');
  const pid = await startDaemon(rt);
  const ask = (fields) => new Promise((ok) => {
    const c = connect(files(rt.xdg).sock);
    let got = Buffer.alloc(0);
    c.on('data', (d) => { got = Buffer.concat([got, d]); });
    c.on('close', () => ok(got.length >= 5 ? { type: String.fromCharCode(got[4]), text: got.subarray(5, 4 + got.readUInt32LE(0)).toString() } : null));
    c.on('error', () => {});
    const body = Buffer.from(fields.map((f) => `${f}\0`).join(''));
    const head = Buffer.alloc(5); head.writeUInt32LE(body.length + 1, 0); head[4] = 'H'.charCodeAt(0);
    const end = Buffer.from([1, 0, 0, 0, 'E'.charCodeAt(0)]);
    c.write(Buffer.concat([head, body, end]));
  });
  const key = readFileSync(files(rt.xdg).key, 'utf8').split('\n')[0];
  const groups = [process.getegid(), ...process.getgroups()].join(',');
  const umask = process.umask().toString(8);
  const cgroup = readFileSync('/proc/self/cgroup', 'utf8');
  // One protocol string on both sides.
  const proto = (file, re) => re.exec(readFileSync(join(root, file), 'utf8'))?.[1];
  assert.is(proto('native/client.c', /#define PROTO "([^"]+)"/), 'sbx-client/2');
  assert.is(proto('src/cli/resident/protocol.ts', /export const PROTO = '([^']+)'/), 'sbx-client/2');
  assert.equal(await ask(['sbx-client/2', 'f'.repeat(64), '/', umask, groups, cgroup, '2', 'run', '--', 'true']), { type: 'F', text: 'refused: not the key of this server' });
  assert.equal(await ask(['sbx-client/1', key, '/', umask, groups, cgroup, '2', 'run', '--', 'true']), { type: 'F', text: 'protocol sbx-client/1, this server speaks sbx-client/2' });
  assert.equal(await ask(['sbx-client/2', key, '/', umask, groups, cgroup, '1', 'history']), { type: 'F', text: 'not a call the resident sbx runs' });
  assert.equal(await ask(['sbx-client/2', key, '/', umask, groups, '0::/elsewhere\n', '4', 'run', '--memory=64', '--', 'true', ...Object.entries(rt.env).map(([k, v]) => `${k}=${v}`)]), { type: 'F', text: 'a --memory run from another cgroup' });
  assert.ok(alive(pid), 'it goes on serving');
});

test('an install rebuilt under the daemon: it tells the client to start a new one, and exits', async () => {
  // A copy of the install (its own daemon: another path, another socket), whose client this test rebuilds.
  const pkg = join(tmp, 'pkg');
  for (const d of ['dist', 'build', 'package.json']) cpSync(join(root, d), join(pkg, d), { recursive: true });
  const copy = join(pkg, 'build', 'sbx-client');
  const rt = runtime('rebuilt');
  const p = spawn(process.execPath, [join(pkg, 'dist', 'cli.cjs'), 'daemon'], { env: rt.env, stdio: 'ignore', detached: true });
  p.unref();
  started.add(p.pid);
  const pidOf = () => { try { return Number(readFileSync(join(rt.xdg, 'sbx', `${hash(pkg)}.key`), 'utf8').split('\n')[1]); } catch { return 0; } };
  await until('the daemon of the copy', () => pidOf() === p.pid);
  const w = workDir('rebuilt');
  const before = statSync(copy);
  utimesSync(copy, before.atime, new Date(before.mtimeMs + 60_000));
  const r = await run([copy, 'run', '--', 'true'], { env: rt.env, cwd: w });
  assert.is(r.status, 0, r.stderr);
  assert.match(r.stdout, /^sbx: pass/);
  await until('the old daemon to exit', () => !alive(p.pid));
  await until('a new daemon', () => pidOf() > 0 && pidOf() !== p.pid && alive(pidOf()) && existsSync(join(rt.xdg, 'sbx', `${hash(pkg)}.sock`)));
  started.add(pidOf());
  const again = await run([copy, 'run', '--', 'true'], { env: { ...rt.env, SBX_RESIDENT: 'require' }, cwd: w });
  assert.is(again.status, 0, again.stderr);
});

test('idle: the daemon exits and removes its socket and key', async () => {
  const rt = runtime('idle', { SBX_DAEMON_IDLE: '1' });
  const pid = await startDaemon(rt);
  const r = await viaClient(['run', '--', 'true'], { env: { ...rt.env, SBX_RESIDENT: 'require' }, cwd: workDir('idle') });
  assert.is(r.status, 0, r.stderr);
  await until('the idle exit', () => !alive(pid), 10_000);
  assert.not.ok(existsSync(files(rt.xdg).sock));
  assert.not.ok(existsSync(files(rt.xdg).key));
});

test('Ctrl-C on the client stops its sandbox and records the run (exit 130, as the Node CLI); a killed client stops it too', async () => {
  const rt = runtime('sigint');
  const pid = await startDaemon(rt);
  const w = workDir('sigint');
  const p = spawn(client, ['run', '--', 'sleep', '31.25'], { env: { ...rt.env, SBX_RESIDENT: 'require' }, cwd: w, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = ''; let err = '';
  p.stdout.on('data', (d) => { out += d; });
  p.stderr.on('data', (d) => { err += d; });
  await until('the sandboxed sleep', () => running('31.25'));
  const t = Date.now();
  p.kill('SIGINT');
  const code = await new Promise((ok) => p.on('close', (c) => ok(c)));
  assert.is(code, 130, err);
  assert.ok(Date.now() - t < 5000);
  assert.match(err, /interrupted: stopping the sandbox and recording the run/);
  assert.match(err, /interrupted by SIGINT: the sandbox was stopped and the run recorded/);
  assert.match(out, /^sbx: /);
  assert.not.ok(running('31.25'));

  const q = spawn(client, ['run', '--', 'sleep', '32.25'], { env: { ...rt.env, SBX_RESIDENT: 'require' }, cwd: w, stdio: 'ignore' });
  await until('the second sandboxed sleep', () => running('32.25'));
  q.kill('SIGKILL');
  await until('the sandbox of a killed client to be stopped', () => !running('32.25'), 10_000);
  assert.ok(alive(pid), 'the daemon goes on');
  const next = await viaClient(['run', '--', 'true'], { env: { ...rt.env, SBX_RESIDENT: 'require' }, cwd: w });
  assert.is(next.status, 0, next.stderr);
});

test('sbx host through the client (a hook\'s rewrite of a host build line): the Node CLI\'s output and exit code, the caller\'s env and cwd; Ctrl-C and a killed client stop the command', async () => {
  const rt = runtime('host');
  await startDaemon(rt);
  const env = { ...rt.env, SBX_RESIDENT: 'require', MY_VAR: 'from-the-caller' };
  const cases = [
    ['host', '--work', '.', '--', 'bash', '-c', 'echo "$MY_VAR in $(basename "$PWD")"; echo err >&2; exit 3'],
    ['host', '--work', '.', '--distil-bytes', '20', '--', 'bash', '-c', 'seq 1 40; exit 5'],
    ['host', '--', 'no-such-program-here'],
  ];
  for (const [i, args] of cases.entries()) {
    const a = workDir(`host-a${i}`); const b = workDir(`host-b${i}`);
    const viaD = await viaClient(args, { env, cwd: a });
    const viaN = await viaNode(args, { env: { ...rt.env, MY_VAR: 'from-the-caller' }, cwd: b });
    const what = args.join(' ');
    assert.is.not(viaD.status, 69, `${what}: ${viaD.stderr}`);
    assert.is(viaD.status, viaN.status, `${what}: exit code`);
    assert.is(norm(viaD.stdout, a).replace(/host-a\d/, 'W'), norm(viaN.stdout, b).replace(/host-b\d/, 'W'), `${what}: stdout`);
    assert.is(norm(viaD.stderr, a), norm(viaN.stderr, b), `${what}: stderr`);
  }
  const first = await viaClient(cases[0], { env, cwd: workDir('host-c') });
  assert.equal([first.status, first.stdout, first.stderr], [3, 'from-the-caller in host-c\n', 'err\n']);
  const big = await viaClient(cases[1], { env, cwd: workDir('host-d') });
  assert.is(big.status, 5);
  assert.match(big.stdout, /^sbx: runtime-error · exit 5 · [^\n]*40 lines\n[\s\S]*\nlog: \S+host-d\/\.sbx\/logs\/\S+\.log\n$/);

  const w = workDir('host-sigint');
  const p = spawn(client, ['host', '--', 'sleep', '33.25'], { env, cwd: w, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = ''; let err = '';
  p.stdout.on('data', (d) => { out += d; });
  p.stderr.on('data', (d) => { err += d; });
  await until('the host sleep', () => running('33.25'));
  p.kill('SIGINT');
  const code = await new Promise((ok) => p.on('close', (c) => ok(c)));
  assert.is(code, 130, err);
  assert.match(err, /interrupted: stopping the command and recording the run/);
  assert.match(out, /^sbx: interrupted · killed by SIGINT/);
  assert.not.ok(running('33.25'));
  const q = spawn(client, ['host', '--', 'sleep', '34.25'], { env, cwd: w, stdio: 'ignore' });
  await until('the second host sleep', () => running('34.25'));
  q.kill('SIGKILL');
  await until('the command of a killed client to be stopped', () => !running('34.25'), 10_000);
});

test('concurrent clients: each gets its own output; runs in one work dir take turns', async () => {
  const rt = runtime('many');
  await startDaemon(rt);
  const env = { ...rt.env, SBX_RESIDENT: 'require' };
  const t = Date.now();
  const rs = await Promise.all([0, 1, 2, 3].map((i) => viaClient(['run', '--', 'sh', '-c', `sleep 1; echo client-${i}; exit ${i}`], { env, cwd: workDir(`many-${i}`) })));
  const wall = Date.now() - t;
  rs.forEach((r, i) => {
    assert.is(r.status, i, r.stderr);
    assert.match(r.stdout, new RegExp(`\\| client-${i}\\n`));
    for (const j of [0, 1, 2, 3]) if (j !== i) assert.not.match(r.stdout, new RegExp(`client-${j}`));
  });
  assert.ok(wall < 3500, `four 1 s runs took ${wall} ms: not side by side`);
  const same = workDir('many-same');
  const two = await Promise.all([0, 1].map((i) => viaClient(['run', '--', 'sh', '-c', `echo same-${i}`], { env, cwd: same })));
  for (const [i, r] of two.entries()) { assert.is(r.status, 0, r.stderr); assert.match(r.stdout, new RegExp(`\\| same-${i}\\n`)); }
  assert.is(readdirSync(join(same, '.sbx', 'logs')).filter((f) => f.endsWith('.log')).length, 2, 'both runs recorded');
});

// ── another user ────────────────────────────────────────────────────────────────────────────────
const other = spawnSync('id', ['-u', 'sbxtest'], { encoding: 'utf8' });
const otherUid = other.status === 0 ? Number(other.stdout) : -1;
const asRoot = process.getuid() === 0 && otherUid > 0;

test('another user cannot reach the socket, and without the key is refused even when the directory lets it in', async () => {
  if (!asRoot) return console.log('  (skipped: needs root and the user sbxtest)');
  const rt = runtime('other');
  chmodSync(tmp, 0o755);
  chmodSync(rt.xdg, 0o755);
  await startDaemon(rt);
  const probe = (sock) => spawnSync(process.execPath, ['-e', `
    const c = require('node:net').connect(${JSON.stringify(sock)});
    c.on('error', (e) => { console.log(e.code); });
    c.on('connect', () => {
      const body = Buffer.from(['sbx-client/2', 'guess', '/', '22', '${otherUid}', '', '2', 'run', '--', 'true'].map((f) => f + '\\0').join(''));
      const h = Buffer.alloc(5); h.writeUInt32LE(body.length + 1, 0); h[4] = 72;
      c.write(Buffer.concat([h, body, Buffer.from([1, 0, 0, 0, 69])]));
      let got = Buffer.alloc(0);
      c.on('data', (d) => { got = Buffer.concat([got, d]); });
      c.on('close', () => console.log(got.length > 5 ? String.fromCharCode(got[4]) + ' ' + got.subarray(5).toString() : 'closed'));
    });`], { uid: otherUid, gid: otherUid, encoding: 'utf8' });
  const { sock, key } = files(rt.xdg);
  assert.is(probe(sock).stdout.trim(), 'EACCES', 'the 0700 directory keeps others out');
  assert.not.ok(spawnSync('cat', [key], { uid: otherUid, gid: otherUid }).status === 0, 'the key is not readable by others');
  chmodSync(join(rt.xdg, 'sbx'), 0o711);
  chmodSync(sock, 0o777);
  try {
    assert.is(probe(sock).stdout.trim(), 'F refused: not the key of this server');
  } finally {
    chmodSync(join(rt.xdg, 'sbx'), 0o700);
  }
});

test('the client talks only to a server of its own uid (SO_PEERCRED): one of another user gets nothing', async () => {
  if (!asRoot) return console.log('  (skipped: needs root and the user sbxtest)');
  // sbxtest's runtime dir, with a socket in it that root listens on (and a key sbxtest can read).
  const xdg = join(tmp, 'xdg-peer');
  mkdirSync(join(xdg, 'sbx'), { recursive: true, mode: 0o700 });
  for (const d of [xdg, join(xdg, 'sbx')]) { chmodSync(d, 0o700); chownSync(d, otherUid, otherUid); }
  const { sock, key } = files(xdg);
  writeFileSync(key, `${'a'.repeat(64)}\n1\n`, { mode: 0o600 });
  chownSync(key, otherUid, otherUid);
  let received = 0;
  const server = createServer((c) => { c.on('data', (d) => { received += d.length; }); c.on('error', () => {}); });
  await new Promise((ok) => server.listen(sock, ok));
  chmodSync(sock, 0o777);
  try {
    const w = workDir('peer');
    const r = spawnSync(client, ['run', '--', 'true'], { cwd: w, uid: otherUid, gid: otherUid, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: w, XDG_RUNTIME_DIR: xdg, SBX_RESIDENT: 'require', SBX_DAEMON_IDLE: '5' } });
    assert.is(r.status, 69, r.stderr);
    assert.match(r.stderr, /the resident sbx did not run this call/);
    await sleep(300);
    assert.is(received, 0, 'no header, no environment sent to a server of another uid');
  } finally {
    server.close();
  }
});

test.after(() => {
  for (const pid of started) try { process.kill(pid, 'SIGTERM'); } catch { /* gone */ }
  rmSync(tmp, { recursive: true, force: true });
});

test.run();
