// The work dir's one check, a flat list: a directory that exists (E_WORK_MISSING), that the caller can
// enter and list (E_WORK_ACCESS: else it cannot be the sandbox's /work nor hold its state), reached
// through no symlink the sandbox could have planted (E_SYMLINK_PATH). run() throws what it finds;
// launch() called on its own returns it as the set-up failure, and skips it when run() has checked.
import { accessSync, constants, statSync } from 'node:fs';
import { plantableSymlink, plantedMessage } from './trusted-path.js';
import type { SetupError } from './types.js';

export function workProblem(work: string): SetupError | null {
  let info;
  try {
    info = statSync(work);
  } catch {
    info = null;
  } // sync: a thread-pool round trip costs more than the stat
  if (!info?.isDirectory()) return { code: 'E_WORK_MISSING', message: `work dir ${work} does not exist or is not a directory; fix: create it or pass an existing one with --work` };
  try {
    accessSync(work, constants.R_OK | constants.X_OK);
  } catch {
    return {
      code: 'E_WORK_ACCESS',
      message: `work dir ${work} is not readable by you (uid ${process.getuid?.() ?? '?'}; it is owned by uid ${info.uid}, mode ${(info.mode & 0o7777).toString(8)}); pass a directory of yours with --work, or run sbx as its owner`,
    };
  }
  const planted = plantableSymlink(work);
  if (planted) return { code: 'E_SYMLINK_PATH', message: plantedMessage('work dir', work, planted) };
  return null;
}
