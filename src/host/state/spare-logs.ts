// Logs pruned are kept, emptied, as the next runs' logs: <state>/spare/<0..SPARES-1>. A run renames
// one to its own log's name instead of creating a file, and the prune that would have deleted an old
// log empties it and gives it a spare's name instead. (Not in logs/: what is there is the logs.)
//
// Why: every file created costs ext4 an inode and every one deleted frees one, and where the file
// system keeps no journal (as here), ext4 skips inodes freed in the last seconds when it allocates,
// reading each one's deletion time: with many runs a second (and other processes creating and deleting
// files on the disk), a create cost 40-600 us of system time here, where a rename costs ~10 us
// (/tmp/create-bench in the commit that added this). A run made a log and a state file, each freed
// again later: at eight concurrent runs that was a third of the resident sbx's time (perf: ext4_create).
//
// Only an empty regular file of this user, with no other name, is taken as a log; anything else found
// under a spare's name is removed and the log created as before. A spare is claimed by rename(2),
// which one process alone wins.
import { closeSync, constants, fstatSync, ftruncateSync, linkSync, lstatSync, mkdirSync, openSync, renameSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { removeFile } from './atomic.js';

export const SPARES = 64;
/** After finding no spare, a process tries again only this many runs later (a failed rename throws). */
const RETRY_AFTER = 16;

/** Per logs dir, the spare this process tries next, and the runs left before it tries again. */
const cursors = new Map<string, { next: number; wait: number }>();

const spare = (logs: string, k: number): string => join(dirname(logs), 'spare', String(k));
const uid = (): number => process.geteuid?.() ?? -1;

/** Gives logPath (a new run's log, not there yet) an emptied old log's inode, when there is one. */
export function takeSpare(logs: string, logPath: string): void {
  let c = cursors.get(logs);
  if (!c) cursors.set(logs, (c = { next: 0, wait: 0 }));
  if (c.wait > 0) {
    c.wait--;
    return;
  }
  let taken = false;
  try {
    // None there (no log pruned yet): told by a stat, not by the rename's throw (a cold process's first costs ~0.1 ms).
    if (lstatSync(spare(logs, c.next), { throwIfNoEntry: false })) {
      renameSync(spare(logs, c.next), logPath);
      taken = true;
    }
  } catch {
    /* as none */
  }
  if (!taken) {
    c.next = 0;
    c.wait = RETRY_AFTER;
    return;
  }
  c.next = (c.next + 1) % SPARES;
  const info = lstatSync(logPath, { throwIfNoEntry: false });
  if (info && !(info.isFile() && info.nlink === 1 && info.size === 0 && info.uid === uid())) {
    try {
      removeFile(logPath);
    } catch {
      /* the launcher's open (O_NOFOLLOW) reports what is there */
    }
  }
}

/**
 * Makes the log at path a spare (emptied, and given the first free spare's name from slots.next on),
 * and says whether it did: when not, the caller deletes it.
 */
export function makeSpare(logs: string, path: string, slots: { next: number }): boolean {
  if (slots.next >= SPARES) return false;
  if (slots.next === 0) {
    // The directory, made when missing; a link or anything else there: no spares.
    const dir = dirname(spare(logs, 0));
    try {
      mkdirSync(dir);
    } catch {
      /* there already, or not makeable: checked below */
    }
    if (!lstatSync(dir, { throwIfNoEntry: false })?.isDirectory()) {
      slots.next = SPARES;
      return false;
    }
  }
  let fd: number;
  try {
    fd = openSync(path, constants.O_WRONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return false;
  }
  try {
    const info = fstatSync(fd);
    // Another name for the same file (a hard link) would be emptied too: only a log of its own is.
    if (!info.isFile() || info.nlink !== 1 || info.uid !== uid()) return false;
    ftruncateSync(fd, 0);
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
  for (; slots.next < SPARES; slots.next++) {
    try {
      linkSync(path, spare(logs, slots.next));
    } catch {
      continue;
    } // EEXIST: that spare is there
    slots.next++;
    removeFile(path);
    cursors.delete(logs); // this process looks for spares from the first again
    return true;
  }
  return false;
}
