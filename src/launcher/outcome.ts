// The launcher's report -> the self-describing `outcome` of the run result.
import { getSystemErrorName } from 'node:util';
import { signalName } from '../contract/index.js';
import { landlockApplied, noLandlock, type LandlockAsk } from './landlock.js';
import type { Status, StatusStep } from './status.js';
import type { WorkAlias } from './spec.js';
import type { Applied, Outcome, Rlimits } from './types.js';

export const signalString = (n: number): string => signalName(n) ?? `SIG${n}`;

const ms = (ns: number): number => Math.round(ns / 1e3) / 1e3;

function rlimit(steps: Map<string, StatusStep>, name: string): number | null {
  const s = steps.get(name);
  if (!s || !s.ok) return null;
  return s.detail === 'inf' ? Number.POSITIVE_INFINITY : Number(s.detail);
}

export function emptyApplied(reason: string | null = null): Applied {
  return {
    userns: false,
    pidns: false,
    mntns: false,
    netns: false,
    utsns: false,
    ipcns: false,
    cgroupns: false,
    pivot_root: false,
    ro_root: false,
    proc_masked: false,
    loopback: false,
    no_aslr: false,
    no_new_privs: false,
    seccomp: false,
    ptrace_allowed: false,
    env_fixed: false,
    setsid: false,
    rlimits: { cpu: null, nofile: null, fsize: null, nproc: null, core: null, pid_max: null },
    cgroup: { path: null, reason },
    landlock: noLandlock(reason ?? 'not run'),
    work_alias: { path: null, reason: reason ?? 'not run' },
  };
}

export function toApplied(status: Status, envFixed: boolean, landlock: LandlockAsk | null = null, alias: WorkAlias | null = null): Applied {
  const steps = new Map(status.steps.map((s) => [s.step, s]));
  const ok = (name: string): boolean => steps.get(name)?.ok === true;
  const rlimits: Rlimits = {
    cpu: rlimit(steps, 'rlimit_CPU'),
    nofile: rlimit(steps, 'rlimit_NOFILE'),
    fsize: rlimit(steps, 'rlimit_FSIZE'),
    nproc: rlimit(steps, 'rlimit_NPROC'),
    core: rlimit(steps, 'rlimit_CORE'),
    pid_max: rlimit(steps, 'pid_max'),
  };
  // The launcher records the cgroup step twice at most: once from itself (why it was skipped,
  // or that it failed) and once from init (the path it runs in). The path wins.
  const cg = status.steps.filter((s) => s.step === 'cgroup');
  const used = cg.find((s) => s.ok);
  return {
    userns: ok('userns'),
    pidns: ok('pidns'),
    mntns: ok('mntns'),
    netns: ok('netns'),
    utsns: ok('utsns'),
    ipcns: ok('ipcns'),
    cgroupns: ok('cgroupns'),
    pivot_root: ok('pivot_root'),
    ro_root: ok('ro_root'),
    proc_masked: ok('proc_masked'),
    loopback: ok('loopback'),
    no_aslr: ok('no_aslr'),
    no_new_privs: ok('no_new_privs'),
    seccomp: ok('seccomp'),
    ptrace_allowed: false, // set by launch(), which knows the policy it passed
    env_fixed: envFixed && ok('env'),
    setsid: ok('setsid'),
    rlimits,
    cgroup: used ? { path: used.detail, reason: null } : { path: null, reason: cg[0]?.detail ?? 'not requested' },
    landlock: landlockApplied(status.steps, landlock),
    // Each mount of the spec is made or the run fails at it: the new root pivoted to holds the alias.
    work_alias: alias === null ? { path: null, reason: 'not requested' } : ok('pivot_root') ? alias : { path: null, reason: alias.reason ?? 'the sandbox was not set up' },
  };
}

export function toOutcome(status: Status, envFixed: boolean, landlock: LandlockAsk | null = null, alias: WorkAlias | null = null): Outcome {
  return {
    exit_code: status.exit_code,
    signal: status.signal === null ? null : signalString(status.signal),
    timed_out: status.timed_out,
    wall_ms: ms(status.wall_ns),
    setup_ms: ms(status.setup_ns),
    rusage: {
      user_ms: Math.round(status.rusage.user_us / 1e3),
      sys_ms: Math.round(status.rusage.sys_us / 1e3),
      max_rss_kb: status.rusage.max_rss_kb,
    },
    output_bytes: status.output_bytes, // counted by the launcher's relay (native/relay.c)
    stdout_bytes: status.stdout_bytes, // sbx's log: one pipe for both streams, all of it here, stderr_bytes 0
    stderr_bytes: status.stderr_bytes,
    log_max_bytes: status.log_cap > 0 ? status.log_cap : null, // native/log.c
    log_dropped_bytes: status.log_dropped,
    log_unwritten_bytes: status.log_unwritten,
    log_error: status.log_errno > 0 ? errnoName(status.log_errno) : null,
    applied: toApplied(status, envFixed, landlock, alias),
  };
}

function errnoName(errno: number): string {
  try {
    return getSystemErrorName(-errno);
  } catch {
    return `errno ${errno}`;
  }
}
