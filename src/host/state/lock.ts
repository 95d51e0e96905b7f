// A lock per state directory, so that runs at the same time on one work dir take turns.
// The lock is a symlink whose target is the holder's pid (made with symlink(2), which fails when it
// exists, like O_EXCL, and never follows anything): one directory entry, no inode to allocate and
// no data to write, so taking it costs a fraction of creating a file. A lock whose holder is gone,
// or that is older than STALE_MS, is broken. A regular lock file from an older sbx is read as well.
import { symlinkSync, promises as fsp } from 'node:fs';
import { removeFile } from './atomic.js';
import { SbxError } from '../../contract/errors.js';

const STALE_MS = 120_000;
const WAIT_MS = 60_000;

export type Unlock = () => Promise<void>;

export async function lock(path: string): Promise<Unlock> {
  const start = Date.now();
  let delay = 5;
  for (;;) {
    try {
      symlinkSync(`${process.pid}`, path);
      return async () => { removeFile(path); };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    if (await isStale(path)) { await fsp.rm(path, { force: true }); continue; }
    if (Date.now() - start > WAIT_MS) {
      throw new SbxError('E_LOCKED', `the state directory is locked by another sbx (${path}) for over ${WAIT_MS / 1000} s; if no sbx is running, delete that file`);
    }
    await new Promise((r) => setTimeout(r, delay));
    delay = Math.min(delay * 2, 100);
  }
}

async function isStale(path: string): Promise<boolean> {
  try {
    const info = await fsp.lstat(path);
    const text = info.isSymbolicLink() ? await fsp.readlink(path) : await fsp.readFile(path, 'utf8');
    if (Date.now() - info.mtimeMs > STALE_MS) return true;
    const pid = Number(text.trim());
    if (!Number.isInteger(pid) || pid <= 0) return Date.now() - info.mtimeMs > 1000;
    try { process.kill(pid, 0); return false; } catch (e) { return (e as NodeJS.ErrnoException).code === 'ESRCH'; }
  } catch {
    return false; // vanished between the attempts: just retry
  }
}
