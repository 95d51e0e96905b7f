// Issue 29 item 12: every field of outcome.applied is checked against what holds inside the sandbox on
// the very run that reports it (not only in selftest). A shell probe reads the facts from inside
// (/proc/self/status, uid_map, mounts, limits, the environment) and prints them as key=value lines;
// each is compared with the envelope's claim. The default profile, then the opt-ins that turn some off.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { isRoot, logText, sbxRun, workDir } from './_helpers.js';

// Each line: the applied field, then a shell test that is true when the protection holds inside.
const PROBES = {
  userns: 'grep -qv "^ *0 *0 *4294967295" /proc/self/uid_map',
  pidns: 'test "$(cut -d" " -f4 /proc/self/stat)" -lt 10', // our parent's pid: a fresh pid namespace's numbers are small
  mntns: 'test ! -e /oldroot && test ! -e /newroot',
  netns: 'test "$(ls /sys/class/net)" = lo',
  utsns: 'test "$(cat /proc/sys/kernel/hostname)" = sbx',
  ipcns: 'test "$(cat /proc/sysvipc/shm | wc -l)" = 1',
  cgroupns: 'test "$(cat /proc/self/cgroup | cut -d: -f3 | sort -u)" = /',
  pivot_root: 'test "$(awk \'$2 == "/" {print $3}\' /proc/self/mounts | tail -n 1)" = tmpfs',
  ro_root: '! touch /sbx-probe-root 2>/dev/null',
  proc_masked: '! touch /proc/sys/kernel/hostname 2>/dev/null && ! cat /proc/kcore >/dev/null 2>&1 && ! ls /proc/irq/ >/dev/null 2>&1 | grep -q . && ! ls -A /work/.sbx | grep -q .',
  loopback: 'test $(( $(cat /sys/class/net/lo/flags) & 1 )) = 1', // IFF_UP
  no_aslr: 'test $(( 0x$(cat /proc/self/personality) & 0x0040000 )) != 0', // ADDR_NO_RANDOMIZE
  no_new_privs: 'grep -q "^NoNewPrivs:[[:space:]]*1" /proc/self/status',
  seccomp: 'grep -q "^Seccomp:[[:space:]]*2" /proc/self/status',
  env_fixed: 'test "$HOME" = /home/sbx && test -z "$SBX_APPLIED_PROBE_HOST"',
  setsid: 'test "$(cut -d" " -f6 /proc/$$/stat)" = "$$" && test "$(cut -d" " -f7 /proc/$$/stat)" = 0', // session leader, no tty
};

function probe(flags, env = {}) {
  const dir = workDir();
  const script = Object.entries(PROBES).map(([k, t]) => `if ${t}; then echo "${k}=true"; else echo "${k}=false"; fi`).join('\n');
  const prev = { ...process.env };
  Object.assign(process.env, env);
  try {
    sbxRun(dir, ['true']); // a state dir exists, so /work/.sbx is hidden as in every later run
    const r = sbxRun(dir, ['sh', '-c', script], { flags });
    const seen = Object.fromEntries(logText(r.env).trim().split('\n').filter((l) => l.includes('=')).map((l) => l.split('=')).map(([k, v]) => [k, v === 'true']));
    return { r, seen, applied: r.env.outcome.applied };
  } finally {
    process.env = prev;
  }
}

test('the default profile: every applied field is true, and holds inside', () => {
  const { r, seen, applied } = probe([]);
  for (const k of Object.keys(PROBES)) {
    assert.is(applied[k], true, `applied.${k} claims ${applied[k]}\n${r.why()}`);
    assert.is(seen[k], true, `applied.${k} is true, but inside it does not hold\n${r.why()}`);
  }
});

test('opt-ins: what they turn off is reported false and does not hold inside; the rest still holds', () => {
  const flags = ['--no-loopback', '--aslr', '--inherit-env', ...(isRoot ? [] : ['--no-seccomp'])];
  const { r, seen, applied } = probe(flags, { SBX_APPLIED_PROBE_HOST: 'x' });
  const off = ['loopback', 'no_aslr', 'env_fixed', ...(isRoot ? [] : ['seccomp'])];
  for (const k of Object.keys(PROBES)) {
    assert.is(applied[k], !off.includes(k), `applied.${k} claims ${applied[k]}\n${r.why()}`);
    assert.is(seen[k], applied[k], `applied.${k} is ${applied[k]}, inside it is ${seen[k]}\n${r.why()}`);
  }
});

test.run();
