// `sbx selftest`: runs the default profile on this machine and says, step by step, what holds.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch, launcherPath } from './launch.js';
import { childProcess } from './on-demand.js';
import { LAUNCHER_PROTO } from './status.js';
import type { Applied } from './types.js';

export interface Check {
  check: string;
  ok: boolean;
  detail: string;
}

const WHAT: Record<keyof Omit<Applied, 'rlimits' | 'cgroup' | 'ptrace_allowed' | 'toolchains' | 'home' | 'network' | 'landlock' | 'work_alias'>, string> = {
  userns: 'user namespace with a single-uid map',
  pidns: 'pid namespace',
  mntns: 'mount namespace',
  netns: 'network namespace (no egress)',
  utsns: 'uts namespace (fixed hostname)',
  ipcns: 'ipc namespace',
  cgroupns: 'cgroup namespace',
  pivot_root: 'pivot_root, host root detached',
  ro_root: 'read-only root',
  proc_masked: '/proc/sys and friends read-only or hidden',
  loopback: 'loopback up',
  no_aslr: 'ASLR off (deterministic addresses)',
  no_new_privs: 'no_new_privs',
  seccomp: 'seccomp denylist',
  env_fixed: 'fixed environment',
  setsid: 'new session (no TIOCSTI into the terminal)',
};

export async function selftest(opts: { launcherPath?: string } = {}): Promise<Check[]> {
  const bin = opts.launcherPath ?? launcherPath();
  const checks: Check[] = [];
  const { spawnSync } = childProcess();
  const v = spawnSync(bin, ['--version'], { encoding: 'utf8' });
  const proto = /proto (\d+)/.exec(v.stdout ?? '')?.[1];
  checks.push({
    check: 'launcher',
    ok: v.status === 0 && proto === String(LAUNCHER_PROTO),
    detail: v.error ? `${bin}: ${v.error.message} (fix: npm run build:native)` : `${bin}: ${(v.stdout ?? '').trim()}`,
  });
  if (!checks[0]?.ok) return checks;

  const work = mkdtempSync(join(tmpdir(), 'sbx-selftest-'));
  try {
    const script = 'grep -E "^(CapEff|NoNewPrivs|Seccomp):" /proc/self/status; hostname; ls /proc | grep -c "^[0-9]"';
    const r = await launch({ cmd: ['/bin/sh', '-c', script], work, logPath: join(work, '.log'), timeout: 20, launcherPath: bin });
    if (r.setupError) {
      checks.push({ check: 'sandbox', ok: false, detail: r.setupError.message });
      return checks;
    }
    const a = r.outcome.applied;
    for (const [k, what] of Object.entries(WHAT)) {
      checks.push({ check: k, ok: a[k as keyof typeof WHAT] === true, detail: what });
    }
    const rl = Object.entries(a.rlimits)
      .map(([k, n]) => `${k}=${n ?? 'off'}`)
      .join(' ');
    checks.push({ check: 'rlimits', ok: a.rlimits.nproc !== null && a.rlimits.core === 0, detail: rl });
    checks.push({
      check: 'cgroup',
      ok: a.cgroup.path !== null,
      detail: a.cgroup.path ?? `not applied: ${a.cgroup.reason} (memory is then not limited; pids are capped by RLIMIT_NPROC/pid_max)`,
    });
    const ll = a.landlock;
    checks.push({
      check: 'landlock',
      ok: ll.enforced,
      detail: ll.enforced ? `ABI ${ll.abi}: writes only beneath ${ll.write.join(', ')}${ll.reason ? ` (${ll.reason})` : ''}` : `not applied: ${ll.reason} (the mounts hold alone)`,
    });
    const out = Buffer.from(r.tail).toString('utf8');
    checks.push({ check: 'caps', ok: /CapEff:\s+0+\n/.test(out), detail: 'no effective capabilities inside' });
    checks.push({ check: 'seccomp_mode', ok: /Seccomp:\s+2/.test(out), detail: 'filter mode in /proc/self/status' });
    checks.push({ check: 'setup_ms', ok: true, detail: `${r.outcome.setup_ms} ms to set up the sandbox` });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return checks;
}
