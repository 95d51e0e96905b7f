// A full disk, named as such: ENOSPC (no space left) and EDQUOT (over the quota) from a write of sbx's
// own (the state, the launcher's spec and report) become E_DISK_FULL, whose message names the disk
// (its mount point and file system type, from /proc/self/mountinfo) and the path that could not be
// written, and says what to do. Any other error is not a full disk and is left as it is.
import { readFileSync, realpathSync, statfsSync } from 'node:fs';
import { dirname } from 'node:path';
import { SbxError } from '../contract/index.js';

const FULL = new Set(['ENOSPC', 'EDQUOT']);

export function isDiskFull(err: unknown): boolean {
  return FULL.has((err as NodeJS.ErrnoException | null)?.code ?? '');
}

/** Bytes free to an unprivileged writer on the file system holding path (Infinity when unknown). */
export function freeBytes(path: string): number {
  try {
    const s = statfsSync(path);
    return s.bavail * s.bsize;
  } catch {
    return Infinity;
  }
}

/** The mount point and type of the file system holding path (its nearest existing ancestor). */
export function diskOf(path: string): { mount: string; type: string } {
  let p = path;
  for (;;) {
    try {
      p = realpathSync.native(p);
      break;
    } catch {
      if (dirname(p) === p) break;
      p = dirname(p);
    }
  }
  let best = { mount: '/', type: '?' };
  try {
    for (const line of readFileSync('/proc/self/mountinfo', 'utf8').split('\n')) {
      const f = line.split(' ');
      const sep = f.indexOf('-');
      if (f.length < 5 || sep < 0) continue;
      const mount = f[4]!.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)));
      const under = mount === '/' || p === mount || p.startsWith(`${mount}/`);
      // The last of equal mount points is the one on top.
      if (under && mount.length >= best.mount.length) best = { mount, type: f[sep + 1] ?? '?' };
    }
  } catch {
    /* no /proc: the root then */
  }
  return best;
}

/**
 * E_DISK_FULL for err (ENOSPC or EDQUOT) while writing `what` at path. fix: what to do besides freeing
 * space (e.g. "pass --state DIR on another disk").
 */
export function diskFullError(err: unknown, path: string, what: string, fix = 'pass --state DIR on another disk'): SbxError {
  const code = (err as NodeJS.ErrnoException).code ?? 'ENOSPC';
  const { mount, type } = diskOf(path);
  const why = code === 'EDQUOT' ? 'your disk quota there is used up' : 'it is full';
  return new SbxError('E_DISK_FULL', `the disk holding ${path} (${mount}, ${type}) has no space for ${what}: ${why} (${code}); fix: free space on ${mount}, or ${fix}`);
}
