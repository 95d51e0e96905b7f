// A lock per state directory, so that runs at the same time on one work dir take turns.
// The lock is a hard link, `lock`, to a file of this process's, `lock.<pid>` (which holds the pid):
// link(2) fails when `lock` exists, like O_EXCL, never follows anything, and allocates no inode, so
// taking and dropping it costs ~10 us where a symlink or a new file costs ~110 (ext4, measured in a
// state dir). The process's file is made on its first lock and removed as it exits. A lock whose
// holder is gone, or that was taken longer than STALE_MS ago (link(2) sets its ctime), is broken.
// Where hard links are refused (EPERM, ENOTSUP: some FUSE and FAT mounts) the lock is a symlink to
// the pid, as before; symlink and regular-file locks of an older sbx are read as well.
//
// Takers in one process (the resident sbx runs many runs of one work dir at once) queue here first,
// each handed the lock as the one before lets it go: only the head of the queue tries the file. Found
// taken, a taker polls (5 ms, doubling to 100 ms) with a stat of the lock on the thread pool each time;
// eight runs of one dir finishing together in one process spent those sleeps waiting for each other
// (bench/concurrency.js, issue 32).
import { linkSync, readdirSync, symlinkSync, writeFileSync, promises as fsp } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { removeFile } from './atomic.js';
import { readRegularTextAsync } from '../../launcher/index.js';
import { SbxError } from '../../contract/index.js';

const STALE_MS = 120_000;
const WAIT_MS = 60_000;

export type Unlock = () => Promise<void>;

/** lock.<pid> per lock path, made by this process. */
const mine = new Map<string, string>();
let noLinks = false;

/** Per lock path, the end of this process's queue for it (a promise that only resolves). */
const queues = new Map<string, Promise<void>>();

export async function lock(path: string): Promise<Unlock> {
  const ahead = queues.get(path);
  let handOver!: () => void;
  const turn = new Promise<void>((r) => (handOver = r));
  const tail = ahead ? ahead.then(() => turn) : turn;
  queues.set(path, tail);
  const done = (): void => {
    if (queues.get(path) === tail) queues.delete(path);
    handOver();
  };
  if (ahead) await ahead;
  let unlockFile: Unlock;
  try {
    unlockFile = await lockFile(path);
  } catch (err) {
    done();
    throw err;
  }
  return async () => {
    try {
      await unlockFile();
    } finally {
      done();
    }
  };
}

async function lockFile(path: string): Promise<Unlock> {
  const start = Date.now();
  let delay = 5;
  for (;;) {
    try {
      take(path);
      return async () => {
        removeFile(path);
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    if (await isStale(path)) {
      removeFile(path);
      continue;
    }
    if (Date.now() - start > WAIT_MS) {
      throw new SbxError('E_LOCKED', `the state directory is locked by another sbx (${path}) for over ${WAIT_MS / 1000} s; if no sbx is running, delete that file`);
    }
    await new Promise((r) => setTimeout(r, delay));
    delay = Math.min(delay * 2, 100);
  }
}

/**
 * Makes this process's lock.<pid> beside path now (see ownFile), so that taking the lock later is the
 * link alone: run() calls it while its sandbox runs and the main thread would wait. A failure is left
 * for lock() to meet and report.
 */
export function prepareLock(path: string): void {
  if (noLinks) return;
  try {
    ownFile(path);
  } catch {
    /* lock() says what is wrong */
  }
}

function take(path: string): void {
  if (noLinks) return symlinkSync(`${process.pid}`, path);
  try {
    linkSync(ownFile(path), path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // The state dir removed (and made again) since this process made its file there: made anew.
    if (code === 'ENOENT' && mine.delete(path)) return linkSync(ownFile(path), path);
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw err;
    noLinks = true;
    symlinkSync(`${process.pid}`, path);
  }
}

/** This process's lock.<pid> beside path, made (and the files of dead processes removed) on first use. */
function ownFile(path: string): string {
  const known = mine.get(path);
  if (known) return known;
  const dir = dirname(path);
  const own = `${path}.${process.pid}`;
  // Whether a file is at own's name: when the listing says none, no unlink (its ENOENT is a throw, and a
  // cold process's first costs ~0.1 ms); the O_EXCL create below refuses what came since.
  let there = true;
  try {
    const names = readdirSync(dir);
    there = names.includes(basename(own));
    for (const n of names) {
      const pid = /^lock\.(\d+)$/.exec(n)?.[1];
      if (pid && !alive(Number(pid))) removeFile(join(dir, n));
    }
  } catch {
    /* the lock itself will say what is wrong with dir */
  }
  // Made anew with O_EXCL: never written through a symlink or into a FIFO left at that name.
  if (there) removeFile(own);
  writeFileSync(own, `${process.pid}\n`, { mode: 0o644, flag: 'wx' });
  if (mine.size === 0)
    process.once('exit', () => {
      for (const f of mine.values())
        try {
          removeFile(f);
        } catch {
          /* gone */
        }
    });
  mine.set(path, own);
  return own;
}

function alive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

async function isStale(path: string): Promise<boolean> {
  try {
    const info = await fsp.lstat(path);
    // Only sbx makes a lock (a link, a symlink or an old sbx's file): anything else, a FIFO planted in a
    // state dir the sandbox could write, is no lock at all, and reading it would block.
    if (!info.isSymbolicLink() && !info.isFile()) return true;
    const text = info.isSymbolicLink() ? await fsp.readlink(path) : await readRegularTextAsync(path, { maxBytes: 4096 });
    const since = Math.max(info.ctimeMs, info.mtimeMs);
    if (Date.now() - since > STALE_MS) return true;
    const pid = Number(text.trim());
    if (!Number.isInteger(pid) || pid <= 0) return Date.now() - since > 1000;
    return !alive(pid);
  } catch {
    return false; // vanished between the attempts: just retry
  }
}
