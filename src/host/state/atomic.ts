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
import { closeSync, linkSync, openSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { readRegularText } from '../../launcher/index.js';
import { randomId } from './random-id.js';

/**
 * The same bytes to several paths: one file is written and hard-linked to the others' temp names,
 * then each is renamed into place (files here are only ever replaced, never changed in place, so a
 * later write to one path leaves the others alone). Creating a file costs far more than a link.
 */
export function writeFileAtomicSync(path: string | string[], data: string | Uint8Array): void {
  const paths = typeof path === 'string' ? [path] : path;
  const suffix = `.tmp-${process.pid}-${randomId(6)}`;
  const tmps = paths.map((p) => `${p}${suffix}`);
  const made: string[] = [];
  try {
    const fd = openSync(tmps[0]!, 'wx', 0o644); // O_EXCL: never follows a planted symlink
    made.push(tmps[0]!);
    try { writeFileSync(fd, data); } finally { closeSync(fd); }
    for (const t of tmps.slice(1)) { linkSync(tmps[0]!, t); made.push(t); } // link(2) never follows t either
    for (let i = 0; i < paths.length; i++) replaceSync(tmps[i]!, paths[i]!);
  } catch (err) {
    for (const t of made) removeFile(t);
    throw err;
  }
}

function replaceSync(tmp: string, path: string): void {
  const old = `${path}.old`;
  // An <path>.old left by a crash between the renames is replaced by the first one, or removed after
  // the second when <path> was missing: no unlink first (its ENOENT, thrown and caught, cost every
  // write more than a rename; nothing of path's is pending in that rename for auto_da_alloc).
  try { renameSync(path, old); } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  renameSync(tmp, path);
  removeFile(old);
}

/**
 * Removes a file (or symlink) that may not be there. unlink(2) alone: rmSync({ force }) would stat
 * first and, on Node 20, load its rimraf module on a cold start.
 */
export function removeFile(path: string): void {
  try { unlinkSync(path); } catch (err) {
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
    try { return read(`${path}.old`); } catch { throw err; }
  }
}
