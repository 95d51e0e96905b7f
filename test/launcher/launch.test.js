// launch(): outcome, streaming log, tail, setup errors and the recorded opt-ins.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { launch, selftest } from '../../dist/launcher.js';
import { run, sh, tempDir } from './_helpers.js';

test('exit code, byte counts, interleaved log and tail', async () => {
  const r = await sh('echo out1; sleep 0.1; echo err1 >&2; sleep 0.1; echo out2; exit 3');
  assert.is(r.setupError, null);
  assert.is(r.outcome.exit_code, 3);
  assert.is(r.outcome.signal, null);
  assert.is(r.outcome.timed_out, false);
  assert.is(r.outcome.output_bytes, 15);
  // One pipe for both streams: which one a byte came from is not known, it all counts as stdout.
  assert.is(r.outcome.stdout_bytes, 15);
  assert.is(r.outcome.stderr_bytes, 0);
  assert.is(r.log(), 'out1\nerr1\nout2\n');
  assert.is(r.out, 'out1\nerr1\nout2\n');
  assert.ok(r.outcome.wall_ms > 0 && r.outcome.setup_ms > 0);
  assert.ok(r.outcome.rusage.max_rss_kb > 0);
});

test('the command writes into a pipe, not into the log: the sandbox holds no descriptor of the host\'s', async () => {
  const r = await sh('readlink /proc/self/fd/1 /proc/self/fd/2');
  const [one, two] = r.out.split('\n');
  assert.match(one, /^pipe:\[\d+\]$/);
  assert.is(two, one, 'stdout and stderr are one pipe, so that the log keeps the order of their writes');
  assert.is(r.outcome.output_bytes, one.length + two.length + 2);
});

test('nothing is left beside the log: the spec and the report are nameless files', async () => {
  const dir = tempDir('sbx-log-');
  for (const cmd of [['/bin/true'], ['/nonexistent'], ['/bin/sh', '-c', 'exit 7']]) await run(cmd, { logPath: join(dir, 'run.log') });
  assert.equal(readdirSync(dir), ['run.log']);
});

test('without process.binding (SBX_SPAWN=child_process) a run comes out the same', async () => {
  const script = 'echo out; echo err >&2; exit 4';
  const a = await sh(script);
  process.env.SBX_SPAWN = 'child_process';
  try {
    const b = await sh(script);
    const missing = await run(['/bin/true'], { launcherPath: '/nonexistent/sbx-launch' });
    assert.is(missing.setupError?.code, 'E_NO_LAUNCHER');
    for (const r of [a, b]) {
      assert.is(r.outcome.exit_code, 4);
      assert.is(r.outcome.output_bytes, 8);
      assert.is(r.out, 'out\nerr\n');
    }
  } finally {
    delete process.env.SBX_SPAWN;
  }
});

test('a signal is reported by name, not as an exit code', async () => {
  const r = await sh('kill -SEGV $$');
  assert.is(r.outcome.exit_code, null);
  assert.is(r.outcome.signal, 'SIGSEGV');
  assert.is(r.setupError, null);
});

test('the default profile applies every step', async () => {
  const r = await sh('true');
  const a = r.outcome.applied;
  for (const k of ['userns', 'pidns', 'mntns', 'netns', 'utsns', 'ipcns', 'cgroupns', 'pivot_root', 'ro_root',
    'proc_masked', 'loopback', 'no_aslr', 'no_new_privs', 'seccomp', 'env_fixed', 'setsid'])
    assert.is(a[k], true, k);
  assert.is(a.rlimits.core, 0);
  assert.is(a.rlimits.nproc, 4096);
  assert.ok(a.rlimits.nofile > 0 && a.rlimits.cpu > 0 && a.rlimits.fsize > 0);
  assert.ok(a.cgroup.path !== null || (typeof a.cgroup.reason === 'string' && a.cgroup.reason.length > 0));
});

test('opt-ins are recorded as not applied', async () => {
  process.env.SBX_TEST_HOST_VAR = 'from-host';
  // Root may not turn the filter off (issue 28): as root, that opt-in is refused with its own code.
  const asRoot = process.getuid() === 0;
  if (asRoot) assert.is((await sh('true', { seccomp: false })).setupError?.code, 'E_UNSAFE_AS_ROOT');
  const r = await sh('echo "v=$SBX_TEST_HOST_VAR"', { seccomp: asRoot, loopback: false, aslr: true, inheritEnv: true });
  delete process.env.SBX_TEST_HOST_VAR;
  const a = r.outcome.applied;
  assert.is(a.seccomp, asRoot);
  assert.is(a.loopback, false);
  assert.is(a.no_aslr, false);
  assert.is(a.env_fixed, false);
  assert.match(r.out, 'v=from-host');
  const n = await sh('true', { net: true });
  assert.is(n.outcome.applied.netns, false);
  assert.is(n.outcome.applied.loopback, false);
});

test('the fixed environment', async () => {
  const r = await sh('env | sort', { env: { EXTRA: 'yes' } });
  const env = Object.fromEntries(r.out.trim().split('\n').map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
  assert.is(env.HOME, '/work');
  assert.is(env.TZ, 'UTC');
  assert.is(env.LC_ALL, 'C.UTF-8');
  assert.is(env.TERM, 'dumb');
  assert.is(env.PYTHONHASHSEED, '0');
  assert.is(env.PYTHONDONTWRITEBYTECODE, '1'); // no HOME here: Python's bytecode is not written (into the work tree)
  assert.ok(/^\d+$/.test(env.SOURCE_DATE_EPOCH));
  for (const k of ['ASAN_OPTIONS', 'UBSAN_OPTIONS', 'LSAN_OPTIONS', 'TSAN_OPTIONS']) assert.ok(env[k], k);
  assert.is(env.EXTRA, 'yes');
  assert.is(env.PWD, '/work');
});

test('command not found is a setup error, not exit 127', async () => {
  const r = await run(['no-such-command-sbx']);
  assert.is(r.setupError?.code, 'E_CMD_NOT_FOUND');
  assert.match(r.setupError.message, 'no-such-command-sbx');
  assert.match(r.setupError.message, 'fix:');
  assert.not.match(r.setupError.message, '\n');
  const abs = await run(['/work/nothing-here']);
  assert.is(abs.setupError?.code, 'E_CMD_NOT_FOUND');
});

test('a file that is not executable is a setup error', async () => {
  const work = tempDir();
  writeFileSync(join(work, 'script.sh'), 'echo hi\n');
  const r = await run(['./script.sh'], { work });
  assert.is(r.setupError?.code, 'E_CMD_NOT_EXECUTABLE');
});

test('a missing work dir is a setup error', async () => {
  const r = await run(['true'], { work: join(tempDir(), 'missing') });
  assert.is(r.setupError?.code, 'E_WORK_MISSING');
  assert.match(r.setupError.message, 'fix:');
});

test('a missing launcher is a setup error with the fix', async () => {
  const r = await run(['true'], { launcherPath: join(tempDir(), 'sbx-launch') });
  assert.is(r.setupError?.code, 'E_NO_LAUNCHER');
  assert.match(r.setupError.message, 'npm run build:native');
});

test('a missing bind source is a setup error', async () => {
  const r = await run(['true'], { roBind: [{ src: join(tempDir(), 'nope'), dst: '/opt2' }] });
  assert.is(r.setupError?.code, 'E_BIND_MISSING');
});

test('bad options throw SbxError', async () => {
  let err = null;
  try {
    await launch({ cmd: [], work: tempDir(), logPath: join(tempDir(), 'l') });
  } catch (e) {
    err = e;
  }
  assert.is(err?.name, 'SbxError');
  assert.is(err?.code, 'E_BAD_OPTIONS');
});

test('the log is on disk while the command runs', async () => {
  const logPath = join(tempDir(), 'stream.log');
  const p = launch({ cmd: ['/bin/sh', '-c', 'echo first; sleep 1; echo second'], work: tempDir(), logPath, timeout: 10 });
  await new Promise((r) => setTimeout(r, 600));
  assert.ok(existsSync(logPath), 'log created before the command ends');
  assert.is(readFileSync(logPath, 'utf8'), 'first\n');
  const r = await p;
  assert.is(readFileSync(logPath, 'utf8'), 'first\nsecond\n');
  assert.is(r.outcome.exit_code, 0);
});

test('both streams at once, 2 MiB each, through the relay: every byte in the log and counted', async () => {
  // Two writers racing into the one pipe: the launcher must drain it as it fills (a relay that stalled
  // would block both writers and never finish), and lose nothing after the command exits.
  const r = await sh('head -c 2097152 /dev/zero | tr "\\0" o & head -c 2097152 /dev/zero | tr "\\0" e >&2; wait');
  assert.is(r.outcome.exit_code, 0);
  assert.is(r.outcome.output_bytes, 4194304);
  const log = readFileSync(r.logPath, 'latin1');
  assert.is(log.length, 4194304);
  assert.is(log.replace(/e/g, '').length, 2097152);
});

test('the tail keeps the last 64 KiB, the log everything', async () => {
  const r = await sh('i=0; while [ $i -lt 4000 ]; do echo "line $i ................................................."; i=$((i+1)); done');
  assert.is(r.tail.length, 64 * 1024);
  assert.ok(r.out.endsWith('line 3999 .................................................\n'));
  assert.is(r.outcome.stdout_bytes, statSync(r.logPath).size);
  assert.ok(r.outcome.stdout_bytes > 200000);
});

test('parallel launches are independent', async () => {
  const rs = await Promise.all(Array.from({ length: 8 }, (_, i) => sh(`echo run${i}; ls /proc | grep -c "^[0-9]"`)));
  rs.forEach((r, i) => {
    assert.is(r.setupError, null);
    // 3 or 4: the shell may start grep after ls has read /proc
    assert.match(r.out, new RegExp(`^run${i}\n[34]\n$`));
  });
});

test('timeout kills the sandbox and says so', async () => {
  const t = Date.now();
  const r = await sh('sleep 60', { timeout: 0.5 });
  assert.ok(Date.now() - t < 5000);
  assert.is(r.outcome.timed_out, true);
  assert.is(r.outcome.signal, 'SIGKILL');
  assert.is(r.outcome.exit_code, null);
  assert.is(r.setupError, null);
});

test('abort kills the sandbox', async () => {
  const ac = new AbortController();
  setTimeout(() => ac.abort(), 300);
  const t = Date.now();
  const r = await sh('sleep 60', { signal: ac.signal });
  assert.ok(Date.now() - t < 5000);
  assert.is(r.outcome.signal, 'SIGKILL');
});

test('/work is the cwd, writable, and files belong to the caller on the host', async () => {
  const work = tempDir();
  const r = await sh('pwd; echo data > made.txt; mkdir -p d/e', { work });
  assert.is(r.out, '/work\n');
  assert.is(readFileSync(join(work, 'made.txt'), 'utf8'), 'data\n');
  assert.is(statSync(join(work, 'made.txt')).uid, process.getuid());
});

test('bind is writable, ro-bind is not', async () => {
  const rw = tempDir();
  const ro = tempDir();
  writeFileSync(join(ro, 'f'), 'ro\n');
  const r = await sh('echo w > /mnt/rw/x && cat /mnt/ro/f && (echo w > /mnt/ro/x) 2>/dev/null || echo refused', {
    bind: [{ src: rw, dst: '/mnt/rw' }],
    roBind: [{ src: ro, dst: '/mnt/ro' }],
  });
  assert.is(r.out, 'ro\nrefused\n');
  assert.is(readFileSync(join(rw, 'x'), 'utf8'), 'w\n');
  assert.not.ok(existsSync(join(ro, 'x')));
});

test('hide: a path of /work becomes unreadable and unwritable', async () => {
  const work = tempDir();
  mkdirSync(join(work, '.sbx'));
  writeFileSync(join(work, '.sbx', 'last.json'), '{"secret":1}');
  const r = await sh('cat /work/.sbx/last.json; echo x > /work/.sbx/new; ls /work/.sbx; echo done', { work, hide: ['/work/.sbx', '/work/absent'] });
  assert.not.match(r.out, 'secret');
  assert.match(r.out, 'done');
  assert.not.ok(existsSync(join(work, '.sbx', 'new')));
  assert.is(readFileSync(join(work, '.sbx', 'last.json'), 'utf8'), '{"secret":1}');
});

test('loopback works inside the private network', async () => {
  const r = await run(['/bin/bash', '-c', 'exec 3<>/dev/tcp/127.0.0.1/9 2>&1; echo "rc=$?"']);
  // Refused (nothing listens) rather than "network unreachable": lo is up.
  assert.match(r.out, /Connection refused/);
});

test('an ASan build reports a symbolized heap overflow', async () => {
  const work = tempDir();
  writeFileSync(join(work, 'asan.c'), '#include <stdlib.h>\nint main(void){ char *p = malloc(8); p[8] = 1; return p[0]; }\n');
  const cc = spawnSync('cc', ['-g', '-fsanitize=address', '-o', join(work, 'asan'), join(work, 'asan.c')], { encoding: 'utf8' });
  if (cc.status !== 0) {
    console.log('  (skipped: cc cannot build with -fsanitize=address here)');
    return;
  }
  chmodSync(join(work, 'asan'), 0o755);
  const r = await run(['./asan'], { work });
  assert.is(r.setupError, null);
  assert.is.not(r.outcome.exit_code, 0);
  assert.match(r.out, 'AddressSanitizer: heap-buffer-overflow');
  assert.match(r.out, 'asan.c:2');
});

test('the sandbox dies with its caller', async () => {
  const dist = new URL('../../dist/launcher.js', import.meta.url).href;
  const work = tempDir();
  const js = `import(${JSON.stringify(dist)}).then((m) => m.launch({ cmd: ['/bin/sh', '-c', 'while :; do date +%s%N > /work/beat; sleep 0.05; done'], work: ${JSON.stringify(work)}, logPath: ${JSON.stringify(join(work, 'l'))} }))`;
  const caller = spawn(process.execPath, ['-e', js], { stdio: 'ignore' });
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const beat = () => { try { return readFileSync(join(work, 'beat'), 'utf8'); } catch { return null; } };
  // Wait on events, not a fixed timer (a loaded machine may take seconds to start the sandbox): the
  // heart beats twice, so the sandbox runs; after the kill it stops within a generous deadline.
  const first = await until(beat, (b) => b !== null, 30_000);
  assert.ok(first !== null, 'the sandbox never started beating');
  assert.ok((await until(beat, (b) => b !== first, 30_000)) !== first, 'the sandbox beat only once');
  caller.kill('SIGKILL');
  let last = beat();
  let stillSince = Date.now();
  const deadline = Date.now() + 30_000;
  // Dead = the beat has not changed for 1 s (20 beat periods); alive past the deadline fails.
  while (Date.now() - stillSince < 1000 && Date.now() < deadline) {
    await sleep(50);
    const b = beat();
    if (b !== last) { last = b; stillSince = Date.now(); }
  }
  assert.ok(Date.now() - stillSince >= 1000, 'the sandbox kept running after its caller was killed');
});

/** Polls get() every 20 ms until ok(value) or the deadline; returns the last value. */
async function until(get, ok, ms) {
  const end = Date.now() + ms;
  let v = get();
  while (!ok(v) && Date.now() < end) { await new Promise((r) => setTimeout(r, 20)); v = get(); }
  return v;
}

// Setup failures of a real host, reproduced one user namespace down (where the knobs are ours).
const nested = (prepare) => {
  const dist = new URL('../../dist/launcher.js', import.meta.url).href;
  const work = tempDir();
  const js = `import(${JSON.stringify(dist)}).then(async (m) => { const r = await m.launch({ cmd: ['true'], work: ${JSON.stringify(work)}, logPath: ${JSON.stringify(join(work, 'l'))} }); console.log(JSON.stringify(r.setupError)); })`;
  const r = spawnSync('unshare', ['-Urm', '/bin/sh', '-c', `${prepare} && exec "$0" -e "$1"`, process.execPath, js], { encoding: 'utf8' });
  if (r.status !== 0) return { skipped: (r.stderr || r.error?.message || '').trim() };
  return JSON.parse(r.stdout);
};

test('user namespaces disabled: E_NO_USERNS with the knob to turn', () => {
  const e = nested('echo 0 > /proc/sys/user/max_user_namespaces');
  if (e?.skipped !== undefined) return console.log(`  (skipped: ${e.skipped})`);
  assert.is(e.code, 'E_NO_USERNS');
  assert.match(e.message, 'user.max_user_namespaces');
  assert.match(e.message, 'fix:');
});

test('a masked host /proc (as in containers): E_NO_PROC with the fix', () => {
  const e = nested('mount --bind /dev/null /proc/uptime');
  if (e?.skipped !== undefined) return console.log(`  (skipped: ${e.skipped})`);
  assert.is(e.code, 'E_NO_PROC');
  assert.match(e.message, 'systempaths=unconfined');
});

test('the launcher refuses to run init outside its own pid and user namespaces', () => {
  // Its final kill(-1) is only safe as pid 1 of a fresh pid namespace.
  const bin = new URL('../../build/sbx-launch', import.meta.url).pathname;
  for (const flags of [['--unshare-user'], ['--unshare-pid'], []]) {
    const r = spawnSync(bin, ['--status-fd', '1', ...flags, '--', '/bin/true'], { encoding: 'utf8' });
    assert.is(r.status, 125, flags.join(' '));
    assert.match(r.stderr, /--unshare-(pid|user) is required/);
  }
});

test('selftest reports what holds', async () => {
  const checks = await selftest();
  assert.ok(checks.length > 10);
  for (const c of checks) {
    assert.type(c.check, 'string');
    assert.type(c.ok, 'boolean');
    assert.type(c.detail, 'string');
  }
  const failed = checks.filter((c) => !c.ok && c.check !== 'cgroup');
  assert.equal(failed, []);
});

test.run();
