// Containment probes: each row is a real escape attempt from inside the default profile, and each
// must fail. Shell rows print ESCAPED when the attempt worked; probe rows run test/launcher/probe.c
// (compiled here with cc), which prints "blocked: ERRNO" or "ESCAPED ...".
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, chmodSync, chownSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { isRoot, probeBin, run, sh, tempDir } from './_helpers.js';

// A host directory with a secret next to the work dir: /work/.. must not reach it.
const hostDir = tempDir('sbx-host-');
const secret = join(hostDir, 'secret.txt');
writeFileSync(secret, 'TOPSECRET-host\n');
const work = join(hostDir, 'work');
mkdirSync(work, { mode: 0o755 });
symlinkSync(secret, join(work, 'link-to-host-secret'));
const hostTmpMarker = join(tempDir('sbx-marker-'), 'host-tmp-marker');
writeFileSync(hostTmpMarker, 'x');

const notEscaped = (r) => {
  assert.is(r.setupError, null, r.setupError?.message);
  assert.not.match(r.out, 'ESCAPED', r.out);
  assert.not.match(r.out, 'TOPSECRET', r.out);
};
const blocked = (r) => {
  notEscaped(r);
  assert.match(r.out, 'blocked:', r.out);
  assert.is(r.outcome.exit_code, 0, r.out);
};
const blockedWith = (errno) => (r) => {
  blocked(r);
  assert.match(r.out, `blocked: ${errno}`, r.out);
};

/** [name, shell script or probe name, check, options] */
const shellRows = [
  ['read /etc/shadow', 'cat /etc/shadow && echo ESCAPED'],
  ['read /etc/gshadow', 'cat /etc/gshadow && echo ESCAPED'],
  ['list /etc/ssl/private', 'test -d /etc/ssl/private || exit 0; ls -A /etc/ssl/private && echo ESCAPED'],
  ['list /home', 'ls -A /home && echo ESCAPED'],
  ['list /root', 'ls -A /root && echo ESCAPED'],
  ['list /var', 'ls -A /var && echo ESCAPED'],
  ['host path via /proc/1/root', `cat /proc/1/root${secret} && echo ESCAPED`],
  ['host path via /proc/1/cwd', 'cat /proc/1/cwd/../secret.txt /proc/1/cwd/secret.txt && echo ESCAPED'],
  ['host path via /proc/self/root', `cat /proc/self/root${secret} && echo ESCAPED`],
  ['host path via /work/..', 'cat /work/../secret.txt && echo ESCAPED; cat /work/../../secret.txt && echo ESCAPED'],
  ['host symlink in /work', 'cat /work/link-to-host-secret && echo ESCAPED'],
  ['symlink to / made inside', `ln -s / /work/r && cat /work/r${secret} && echo ESCAPED`],
  ['hardlink of /etc/passwd into /work', 'ln /etc/passwd /work/pw && echo ESCAPED'],
  ['hardlink of /proc/1/exe into /work', 'ln /proc/1/exe /work/init && echo ESCAPED'],
  ["host /tmp is not the sandbox's", `ls -A /tmp; test -e ${hostTmpMarker} && echo ESCAPED`],
  ['write /usr', 'touch /usr/sbx-x && echo ESCAPED'],
  ['write /etc', 'echo x >> /etc/passwd && echo ESCAPED'],
  ['write the root', 'touch /sbx-x && echo ESCAPED; mkdir /sbx-d && echo ESCAPED'],
  ['write /sys', 'touch /sys/sbx-x && echo ESCAPED; echo 1 > /sys/kernel/profiling && echo ESCAPED'],
  ['write /proc/sys', 'echo 3 > /proc/sys/vm/drop_caches && echo ESCAPED; echo evil > /proc/sys/kernel/hostname && echo ESCAPED'],
  ['write /proc/sys/kernel/core_pattern', 'echo "|/work/x" > /proc/sys/kernel/core_pattern && echo ESCAPED'],
  ['write /proc/sysrq-trigger', 'echo h > /proc/sysrq-trigger && echo ESCAPED'],
  ['read /proc/kcore', 'head -c 16 /proc/kcore > /tmp/k; test -s /tmp/k && echo ESCAPED'],
  ['mount(8) a tmpfs', 'mount -t tmpfs none /tmp && echo ESCAPED'],
  ['umount(8) /work', 'umount -l /work && echo ESCAPED'],
  ['unshare(1) -r', 'unshare -r -m true && echo ESCAPED'],
  ['nsenter(1) into pid 1', 'nsenter -t 1 -m -U true && echo ESCAPED'],
  ['chroot(8)', 'chroot / /bin/true && echo ESCAPED'],
  ['strace(1) (ptrace)', 'command -v strace >/dev/null || { echo "no strace"; exit 0; }; strace -o /dev/null /bin/true && echo ESCAPED'],
  ['TCP egress with bash /dev/tcp', "bash -c 'exec 3<>/dev/tcp/1.1.1.1/80' && echo ESCAPED"],
  ['TCP egress by hostname', "bash -c 'exec 3<>/dev/tcp/example.com/80' && echo ESCAPED"],
  ['UDP egress with bash /dev/udp', "bash -c 'echo x > /dev/udp/8.8.8.8/53' && echo ESCAPED"],
  ['DNS lookup', 'getent hosts example.com && echo ESCAPED'],
  ['open /dev/sda', 'cat /dev/sda > /dev/null && echo ESCAPED; test -e /dev/sda && echo ESCAPED'],
  ['open /dev/mem', 'head -c1 /dev/mem && echo ESCAPED; test -e /dev/mem && echo ESCAPED'],
  ['open /dev/kmsg', 'head -n1 /dev/kmsg && echo ESCAPED; test -e /dev/kmsg && echo ESCAPED'],
  ['dmesg', 'dmesg | head -n1 | grep -q . && echo ESCAPED'],
  ['open /dev/tty (no controlling terminal)', ': < /dev/tty && echo ESCAPED'],
  ['su to root', 'su -c "id -u" root < /dev/null | grep -qx 0 && echo ESCAPED'],
  ['sudo', 'command -v sudo >/dev/null || { echo "no sudo"; exit 0; }; sudo -n id -u | grep -qx 0 && echo ESCAPED'],
  ['the host root is not mounted', 'grep -E " /(oldroot|newroot)( |/)" /proc/self/mountinfo && echo ESCAPED; true'],
  // Detached by a thread of init while the sandbox goes on (native/mount.c): by the time the command runs
  // it is gone, and so is the directory it was stacked on.
  // init (pid 1) joins the network namespace the command made (native/net.c): it lists lo alone, never the host's devices.
  ['init is in the sandbox network namespace', 'grep -q "^ *lo:" /proc/1/net/dev || echo ESCAPED; grep -vE "^ *(lo:|Inter-|face )" /proc/1/net/dev && echo ESCAPED; true'],
  ['the host root is detached before the command runs', 'test -e /.sbx-old && echo ESCAPED; grep -E " /\\.sbx-old( |/)" /proc/self/mountinfo && echo ESCAPED; true'],
];

for (const [name, script] of shellRows) test(name, async () => notEscaped(await sh(script, { work })));

const probeRows = [
  ['ptrace(PTRACE_ATTACH)', 'ptrace', blockedWith('EPERM')],
  ['ptrace(PTRACE_TRACEME)', 'traceme', blockedWith('EPERM')],
  ['process_vm_writev', 'process_vm_writev', blockedWith('EPERM')],
  ['mount(2)', 'mount', blocked],
  ['umount2(2)', 'umount', blocked],
  ['unshare(2)', 'unshare', blockedWith('EPERM')],
  ['setns(2)', 'setns', blocked],
  ['chroot(2)', 'chroot', blockedWith('EPERM')],
  ['pivot_root(2)', 'pivot_root', blockedWith('EPERM')],
  ['clone(CLONE_NEWUSER)', 'clone_newuser', blockedWith('EPERM')],
  ['clone3 (ENOSYS, so libc falls back to clone)', 'clone3', blockedWith('ENOSYS')],
  ['setuid(0)', 'setuid0', blocked],
  ['mknod a block device', 'mknod', blocked],
  ['io_uring_setup', 'io_uring', blockedWith('EPERM')],
  ['bpf', 'bpf', blockedWith('EPERM')],
  ['perf_event_open', 'perf', blockedWith('EPERM')],
  ['userfaultfd', 'userfaultfd', blockedWith('EPERM')],
  ['keyctl', 'keyctl', blockedWith('EPERM')],
  ['socket(AF_ALG)', 'af_alg', blockedWith('EPERM')],
  ['socket(AF_PACKET)', 'af_packet', blockedWith('EPERM')],
  ['raw socket (AF_INET)', 'raw', blockedWith('EPERM')],
  ['raw socket (AF_INET6)', 'raw6', blockedWith('EPERM')],
  ['TIOCSTI', 'tiocsti', blockedWith('EPERM')],
  ['TIOCSTI with high bits set (CVE-2019-10063)', 'tiocsti_high', blockedWith('EPERM')],
  ['TIOCLINUX', 'tioclinux', blockedWith('EPERM')],
  ['x32 syscall (unshare via bit 0x40000000)', 'x32', blockedWith('EPERM')],
  ['settimeofday', 'settime', blockedWith('EPERM')],
  ['clock_settime', 'clock_settime', blockedWith('EPERM')],
  ['personality (re-enable ASLR)', 'personality', blockedWith('EPERM')],
  ['open_by_handle_at', 'open_by_handle_at', blockedWith('EPERM')],
  ['finit_module', 'finit_module', blockedWith('EPERM')],
  ['reboot', 'reboot', blockedWith('EPERM')],
  ['syslog(READ_ALL)', 'syslog', blockedWith('EPERM')],
];

for (const [name, probe, check] of probeRows)
  test(name, async () => check(await run(['/probe/probe', probe], { work, probe: true })));

// What int 0x80 does on this host outside any sandbox: a kernel with IA32 emulation runs the call
// ("ESCAPED ...", exit 1), one without it (CONFIG_IA32_EMULATION=n or ia32_emulation=0) faults with
// SIGSEGV before seccomp is consulted. Inside, the call must never run: SIGSYS from the filter, or the
// same SIGSEGV where the host has no compat entry point at all.
function int80OnHost() {
  const r = spawnSync(join(probeBin(), 'probe'), ['int80'], { encoding: 'utf8' });
  return r.signal ?? (r.stdout.includes('ESCAPED') ? 'runs' : `exit ${r.status}`);
}

test('i386 syscall through int 0x80 kills the process', async () => {
  const host = int80OnHost();
  const r = await run(['/probe/probe', 'int80'], { work, probe: true });
  notEscaped(r);
  const contained = host === 'SIGSEGV' ? ['SIGSYS', 'SIGSEGV'] : ['SIGSYS'];
  assert.ok(contained.includes(r.outcome.signal), `killed by ${r.outcome.signal}, expected ${contained.join(' or ')} (on the host, outside the sandbox, int 0x80: ${host})`);
});

test('signal a host pid', async () => {
  const r = await run(['/probe/probe', 'kill', String(process.pid)], { work, probe: true });
  blockedWith('ESRCH')(r);
});

test('kill -9 -1 reaches only the sandbox', async () => {
  const sentinel = spawn('sleep', ['30'], { stdio: 'ignore' });
  await new Promise((r) => sentinel.once('spawn', r));
  const r = await sh('sleep 30 & sleep 30 & kill -9 -1; echo after', { work });
  await new Promise((r) => setTimeout(r, 100));
  const alive = sentinel.exitCode === null && sentinel.signalCode === null;
  sentinel.kill('SIGKILL');
  assert.ok(alive, 'a host process of the same user survived');
  assert.is(r.setupError, null);
});

test('TCP to a host service on 127.0.0.1', async () => {
  let connections = 0;
  const server = createServer((s) => {
    connections++;
    s.destroy();
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const port = server.address().port;
  const r = await sh(`bash -c 'exec 3<>/dev/tcp/127.0.0.1/${port}' && echo ESCAPED`, { work });
  server.close();
  notEscaped(r);
  assert.is(connections, 0);
});

test('setuid copies do not raise privileges', async () => {
  const w = tempDir();
  // A set-uid copy made inside: it belongs to the sandbox user.
  const r = await sh('cp /probe/probe /work/p && chmod 4755 /work/p && /work/p euid', { work: w, probe: true });
  notEscaped(r);
  assert.not.match(r.out, 'euid 0');
  if (isRoot) {
    // A set-uid-root copy made by host root and bound in.
    const d = tempDir('sbx-suid-');
    copyFileSync(join(probeBin(), 'probe'), join(d, 'probe'));
    chownSync(join(d, 'probe'), 0, 0);
    chmodSync(join(d, 'probe'), 0o4755);
    const s = await run(['/suid/probe', 'euid'], { work: w, roBind: [{ src: d, dst: '/suid' }] });
    notEscaped(s);
    assert.match(s.out, /euid \d+/);
    assert.not.match(s.out, 'euid 0');
  }
});

test("the host's hostname is not visible", async () => {
  const r = await sh('hostname; uname -n; cat /proc/sys/kernel/hostname', { work });
  assert.is(r.out, 'sbx\nsbx\nsbx\n');
  assert.not.match(r.out, hostname());
});

test('secret-named environment variables do not leak', async () => {
  process.env.SBX_PROBE_SECRET_TOKEN = 'hunter2-sbx';
  process.env.AWS_SECRET_ACCESS_KEY = 'hunter2-aws';
  const r = await sh('env; tr "\\0" "\\n" < /proc/self/environ; tr "\\0" "\\n" < /proc/1/environ', { work });
  delete process.env.SBX_PROBE_SECRET_TOKEN;
  delete process.env.AWS_SECRET_ACCESS_KEY;
  assert.not.match(r.out, 'hunter2');
  assert.not.match(r.out, 'SECRET');
});

test('CapEff is 0 and NoNewPrivs is 1', async () => {
  const r = await sh('grep -E "^(CapInh|CapPrm|CapEff|CapAmb|NoNewPrivs|Seccomp):" /proc/self/status', { work });
  assert.match(r.out, /CapEff:\s+0{16}\n/);
  assert.match(r.out, /CapPrm:\s+0{16}\n/);
  assert.match(r.out, /CapAmb:\s+0{16}\n/);
  assert.match(r.out, /NoNewPrivs:\s+1\n/);
  assert.match(r.out, /Seccomp:\s+2\n/);
});

test('fewer than a handful of pids are visible', async () => {
  const r = await sh('ls /proc | grep -c "^[0-9]"', { work });
  assert.ok(Number(r.out.trim()) < 5, r.out);
});

/** Starts a heartbeat in the sandbox; returns a checker that it stopped once launch() resolved. */
const heartbeat = 'while :; do date +%s%N > /work/beat; sleep 0.05; done';
async function stopped(dir) {
  const a = readFileSync(join(dir, 'beat'), 'utf8');
  await new Promise((r) => setTimeout(r, 400));
  return a === readFileSync(join(dir, 'beat'), 'utf8');
}

test('background processes are killed at exit', async () => {
  const w = tempDir();
  const r = await sh(`(${heartbeat}) > /dev/null 2>&1 & sleep 0.2; echo started`, { work: w });
  assert.is(r.outcome.exit_code, 0);
  assert.ok(await stopped(w), 'the background heartbeat kept running after the command exited');
});

test('timeout kills a double-forked, setsid child', async () => {
  const w = tempDir();
  const t = Date.now();
  const r = await sh(`setsid sh -c '(${heartbeat}) & exit 0' < /dev/null > /dev/null 2>&1; sleep 60`, { work: w, timeout: 1 });
  assert.ok(Date.now() - t < 6000);
  assert.is(r.outcome.timed_out, true);
  assert.ok(await stopped(w), 'the double-forked heartbeat survived the timeout');
});

test('a fork bomb is contained', async () => {
  const pids = 64;
  const t = Date.now();
  const r = await run(['/bin/bash', '-c', 'b() { b | b & }; b; sleep 3'], { work: tempDir(), pids, timeout: 8 });
  assert.ok(Date.now() - t < 15000);
  assert.is(r.setupError, null);
  // How far it gets: RLIMIT_NPROC binds an unprivileged caller; for host root (exempt from
  // NPROC) the pid namespace's pid_max does, which cannot go below 301.
  const c = await run(['/probe/probe', 'forks', '5000'], { work: tempDir(), pids, probe: true, timeout: 20 });
  const n = Number(/forks (\d+)/.exec(c.out)?.[1]);
  assert.ok(n > 0 && n <= (isRoot ? 300 : pids), c.out);
});

test('the default process cap holds a stress test: two thousand tasks at once', async () => {
  // once_cell's get_or_init_stress starts 1 000 threads; each counts against the cap (RLIMIT_NPROC, pid_max, pids.max).
  // Under the old default of 1 024 the 981st did not start and the test hung.
  const c = await run(['/probe/probe', 'forks', '2000'], { work: tempDir(), probe: true, timeout: 30 });
  assert.match(c.out, /forks 2000 /);
});

test.run();
