// Finds a cgroup v2 directory where this process may create a child with memory and pids
// limits (a delegated subtree), or says why there is none. Decided once per process.
import { accessSync, constants, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { splitSpace } from './words.js';

export type CgroupPlace = { parent: string; reason: null } | { parent: null; reason: string };

let cached: CgroupPlace | null = null;

function read(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

function writable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** Mount point of the cgroup2 hierarchy (unified, or the "unified" part of a hybrid setup). */
function cgroup2Mount(): string | null {
  const info = read('/proc/self/mountinfo');
  if (info === null) return null;
  for (const line of info.split('\n')) {
    // id parent maj:min root mountpoint opts... - fstype source superopts
    const sep = line.indexOf(' - ');
    if (sep < 0 || !line.slice(sep + 3).startsWith('cgroup2 ')) continue;
    const mountPoint = line.slice(0, sep).split(' ')[4];
    if (mountPoint) return mountPoint.includes('\\040') ? mountPoint.replace(/\\040/g, ' ') : mountPoint; // no regex compiled for the usual path
  }
  return null;
}

const has = (list: string | null, ...names: string[]): boolean => {
  const words = new Set(splitSpace(list ?? ''));
  return names.every((n) => words.has(n));
};

function probe(): CgroupPlace {
  const mount = cgroup2Mount();
  if (mount === null) return { parent: null, reason: 'no cgroup v2 hierarchy mounted' };
  const self = (read('/proc/self/cgroup') ?? '').split('\n').find((l) => l.startsWith('0::'));
  if (self === undefined) return { parent: null, reason: 'this process is not in a cgroup v2 hierarchy' };
  const own = join(mount, self.slice(3));
  if (!has(read(join(mount, 'cgroup.controllers')), 'memory', 'pids'))
    return {
      parent: null,
      reason: `cgroup v2 at ${mount} has no memory/pids controllers (hybrid setup: they are bound to cgroup v1; fix: boot with systemd.unified_cgroup_hierarchy=1, or do without --memory; --pids still holds through RLIMIT_NPROC)`,
    };
  // A cgroup with processes in it cannot hand controllers to children ("no internal processes"),
  // so the candidate is the first ancestor (or our own, at the root) that delegates both and is
  // ours to write; a child created there is a sibling of the cgroup we run in.
  for (let dir = own, depth = 0; depth < 4 && dir.startsWith(mount); dir = dirname(dir), depth++) {
    if (has(read(join(dir, 'cgroup.subtree_control')), 'memory', 'pids') && writable(dir) && writable(join(dir, 'cgroup.procs'))) return { parent: dir, reason: null };
    if (dir === mount) break;
  }
  return {
    parent: null,
    reason: 'no writable cgroup v2 subtree with memory and pids delegated (fix: run under `systemd-run --user --scope -p Delegate=yes`)',
  };
}

export function cgroupPlace(): CgroupPlace {
  cached ??= probe();
  return cached;
}
