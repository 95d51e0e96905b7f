// Landlock, the second layer under the mounts (issue 35 part 2): which writes and connections the
// spec asks the launcher to keep (native/landlock.c applies them to the command), and what held.
import type { StatusStep } from './status.js';
import type { LandlockApplied } from './types.js';

/** What the spec asks of Landlock: the policy, decided here; the launcher applies it. */
export interface LandlockAsk {
  write: string[];
  write_file: string[];
  /** TCP ports connect(2) may reach; empty: connect is not restricted. */
  connect: number[];
}

/**
 * Writes beneath the work dir, /tmp, /dev/shm, the sandbox HOME and the caller's writable binds; existing
 * files written (not created) under /dev (/dev/null, /dev/tty) and /proc (/proc/self/oom_score_adj);
 * with --allow-host, TCP connect to the forwarder's port alone. Reads and execution: as the mounts allow.
 */
export function landlockAsk(writable: string[], forwardPort: number | null): LandlockAsk {
  return {
    write: [...new Set(['/work', '/tmp', '/dev/shm', ...writable])],
    write_file: ['/dev', '/proc'],
    connect: forwardPort === null ? [] : [forwardPort],
  };
}

export function landlockArgs(ask: LandlockAsk): string[] {
  const a = ['--landlock', '--landlock-scope'];
  for (const p of ask.write) a.push('--landlock-write', p);
  for (const p of ask.write_file) a.push('--landlock-write-file', p);
  for (const p of ask.connect) a.push('--landlock-connect', String(p));
  return a;
}

export const noLandlock = (reason: string): LandlockApplied => ({ abi: 0, enforced: false, reason, write: [], write_file: [], connect_tcp: null, scoped: [] });

/** The launcher's `landlock` step ("abi=N fs=write connect=3128 scoped=...") and its failed rules, with what was asked. */
export function landlockApplied(steps: StatusStep[], ask: LandlockAsk | null): LandlockApplied {
  const step = steps.find((s) => s.step === 'landlock');
  if (!ask || !step) return noLandlock('not requested');
  const word = (k: string): string => new RegExp(`(?:^| )${k}=(\\S*)`).exec(step.detail)?.[1] ?? '';
  const abi = Number(word('abi')) || 0;
  if (!step.ok) return { ...noLandlock(step.detail.replace(/^abi=\d+ /, '')), abi };
  const failed = new Set(steps.filter((s) => s.step === 'landlock_rule' && !s.ok).map((s) => s.detail.split(':')[0]));
  const connect = word('connect');
  const scoped = word('scoped');
  const held = ask.connect.length > 0 && /^[\d,]+$/.test(connect);
  return {
    abi,
    enforced: true,
    reason: failed.size > 0 ? `rules not added: ${[...failed].join(', ')}` : !held && ask.connect.length > 0 ? "TCP connect not restricted: the kernel's Landlock is older than ABI 4" : null,
    write: ask.write.filter((p) => !failed.has(`write ${p}`)),
    write_file: ask.write_file.filter((p) => !failed.has(`write_file ${p}`)),
    connect_tcp: held ? connect.split(',').map(Number) : null,
    scoped: /^[a-z_,]+$/.test(scoped) && scoped !== 'none' ? scoped.split(',') : [],
  };
}
