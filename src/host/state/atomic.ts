// Writes that never leave a half-written file: a temp file beside the target, then rename.
//
// No fsync: rename alone makes the switch atomic (a reader sees a whole old file or a whole new one,
// never a mix), which is all the state needs. A power cut may lose the newest record; a file that
// comes back empty or cut is set aside by the reader (StateDir.readPrevious), never trusted.
//
// The old file is moved to <path>.old before the new one takes its name, and removed after: a
// rename that replaces an existing file makes ext4 (auto_da_alloc) write the new file's data out
// inside the call, 0.1 to 0.6 ms here, where two renames onto free names cost some 20 us. In the
// instant between them <path> is missing and <path>.old is whole: readers fall back to it
// (readWithFallback). The files are small, so the calls are synchronous: no thread-pool round trips.
//
// With a spare path, the old file is not removed but kept there, and the next write goes into it
// (claimed by rename, so one writer alone has it) rather than into a new file: creating a file and
// freeing one per run cost ext4 0.04-0.6 ms of system time each here (src/host/state/spare-logs.ts
// says why). A reader holding the old file open could see it rewritten: the state's readers read
// under the state lock, which every writer holds, and those that read ahead keep the text they read
// and use it only if the file still holds that text (StateDir.readPrevious).
import { closeSync, constants, fstatSync, ftruncateSync, linkSync, lstatSync, openSync, renameSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { readRegularText } from '../../launcher/index.js';
import { randomId } from './random-id.js';

/**
 * The same bytes to several paths: one file is written and hard-linked to the others' temp names,
 * then each is renamed into place (files here are only ever replaced, never changed in place, so a
 * later write to one path leaves the others alone). Creating a file costs far more than a link.
 */
export function writeFileAtomicSync(path: string | string[], data: string | Uint8Array, spare?: string): void {
  const paths = typeof path === 'string' ? [path] : path;
  const suffix = `.tmp-${process.pid}-${randomId(6)}`;
  const tmps = paths.map((p) => `${p}${suffix}`);
  const made: string[] = [];
  try {
    if (!(spare && reuse(spare, tmps[0]!, data))) {
      const fd = openSync(tmps[0]!, 'wx', 0o644); // O_EXCL: never follows a planted symlink
      made.push(tmps[0]!);
      try {
        writeFileSync(fd, data);
      } finally {
        closeSync(fd);
      }
    } else made.push(tmps[0]!);
    for (const t of tmps.slice(1)) {
      linkSync(tmps[0]!, t);
      made.push(t);
    } // link(2) never follows t either
    for (let i = 0; i < paths.length; i++) replaceSync(tmps[i]!, paths[i]!, i === 0 ? undefined : null);
  } catch (err) {
    for (const t of made) removeFile(t);
    throw err;
  }
  // The first path's old file, once no other name holds it, is the next write's.
  if (spare) keepSpare(`${paths[0]!}.old`, spare);
  else removeFile(`${paths[0]!}.old`);
}

/** Writes data into the file at spare (taken to tmp): true when done, false when there was none fit to take. */
function reuse(spare: string, tmp: string, data: string | Uint8Array): boolean {
  try {
    renameSync(spare, tmp);
  } catch {
    return false;
  }
  let fd: number;
  try {
    fd = openSync(tmp, constants.O_WRONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    const info = fstatSync(fd);
    // Only a regular file of this user with no other name (a hard link's other name would change too).
    if (!info.isFile() || info.nlink !== 1 || info.uid !== (process.geteuid?.() ?? -1)) {
      closeSync(fd);
      fd = -1;
    }
  } catch {
    fd = -1; // a link, a directory: no spare
  }
  if (fd < 0) {
    try {
      removeFile(tmp);
    } catch {
      /* a directory: left, never written */
    }
    return false;
  }
  try {
    const bytes = typeof data === 'string' ? Buffer.from(data) : data;
    for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at, bytes.length - at, at);
    // Never truncated to nothing (ext4 would write the data out at close: auto_da_alloc).
    if (fstatSync(fd).size > bytes.length) ftruncateSync(fd, bytes.length);
  } catch (err) {
    closeSync(fd);
    removeFile(tmp);
    throw err; // ENOSPC and the like: the write failed as a new file's would
  }
  closeSync(fd);
  return true;
}

/** The old file at old becomes the spare (when it has no other name and no spare is there), else goes. */
function keepSpare(old: string, spare: string): void {
  try {
    const info = lstatSync(old, { throwIfNoEntry: false });
    if (info?.isFile() && info.nlink === 1) {
      linkSync(old, spare);
    } // EEXIST: a spare is there already
  } catch {
    /* removed below */
  }
  removeFile(old);
}

/** tmp renamed to path; path's old file left at <path>.old when keep is undefined, else removed. */
function replaceSync(tmp: string, path: string, keep?: null): void {
  const old = `${path}.old`;
  // An <path>.old left by a crash between the renames is replaced by the first one, or removed after
  // the second when <path> was missing: no unlink first (its ENOENT, thrown and caught, cost every
  // write more than a rename; nothing of path's is pending in that rename for auto_da_alloc).
  try {
    renameSync(path, old);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  renameSync(tmp, path);
  if (keep === null) removeFile(old);
}

/**
 * Removes a file (or symlink) that may not be there. unlink(2) alone: rmSync({ force }) would stat
 * first and, on Node 20, load its rimraf module on a cold start.
 */
export function removeFile(path: string): void {
  try {
    unlinkSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

/**
 * The text of path, or of path.old while a writer is between its two renames; never through a symlink,
 * only of a regular file (a FIFO planted in a state dir under the work dir would block a plain open).
 */
export function readWithFallback(path: string): string {
  const read = (p: string): string => readRegularText(p);
  try {
    return read(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    try {
      return read(`${path}.old`);
    } catch {
      throw err;
    }
  }
}
