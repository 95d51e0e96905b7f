// Where a run with no work dir given mounts /work: the git work tree the current directory is in (its
// top, with the command started in the subdirectory, as a terminal in that subdirectory would), or
// the current directory when it is in none. A subdirectory alone would hide the rest of the project
// (a test importing ../common fails) and start a second history beside the project's.
import { lstatSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { refuseHomeWork } from './work-home.js';

export interface WorkPlace {
  /** The host directory mounted at /work. */
  work: string;
  /** Where the command starts, relative to work ('' for /work itself), '/'-separated. */
  sub: string;
}

export function defaultWork(cwd: string): WorkPlace {
  for (let d = cwd; ; d = dirname(d)) {
    if (lstatSync(join(d, '.git'), { throwIfNoEntry: false })) {
      if (d === cwd) break;
      // A repository at or above the home directory (dotfiles kept in ~/.git) is not a project.
      try {
        refuseHomeWork(d);
      } catch {
        break;
      }
      return { work: d, sub: relative(d, cwd).split(sep).join('/') };
    }
    if (dirname(d) === d) break;
  }
  return { work: cwd, sub: '' };
}
