// Limits asked for that did not take effect on this machine: said on stderr and in the verdict's footer,
// never dropped in silence. The run still goes ahead (a build should not fail for want of a cgroup).
import type { RunResult } from '../engine/index.js';

interface CgroupInfo {
  path: string | null;
  reason: string | null;
}

export function unappliedLimits(env: RunResult, asked: { memoryMb?: number | undefined }): string[] {
  if (asked.memoryMb === undefined || env.verdict.status === 'setup-failed') return [];
  const applied = (env.outcome as { applied?: { cgroup?: CgroupInfo } } | null)?.applied;
  const cg = applied?.cgroup;
  if (!cg || cg.path !== null) return [];
  return [`--memory ${asked.memoryMb} was not applied: ${cg.reason ?? 'no cgroup'}; the run had no memory limit`];
}
