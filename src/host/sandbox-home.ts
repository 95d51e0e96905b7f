// The sandbox's HOME (issue 31 §2): a directory of the project's own outside its work tree, kept between
// runs so that tool caches (~/.cargo/registry, ~/.cache/pip, ~/.npm, ~/.cache/go-build) still help, and
// no longer written into the project (HOME was /work). It is the project's cache, not the caller's home:
// $XDG_CACHE_HOME/sbx/home/<the first 16 hex digits of sha256 of the work dir's real path>, mode 0700
// ($SBX_HOMES/<...> when set: where the test suites keep theirs, removed after them).
import { makeDirs } from '../launcher/index.js';
import { chmodSync, existsSync, lstatSync, mkdirSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, sep } from 'node:path';
import { sha256Hex } from './state/sha256.js';
import { pruneHomes, recordHome } from './prune-homes.js';

/** The host directory for work's sandbox HOME, made if missing; null when none can be had (then HOME is /tmp). */
export function projectHome(work: string, e: NodeJS.ProcessEnv = process.env): string | null {
  let workReal: string;
  let base: string;
  try {
    workReal = realpathSync.native(work);
    const home = e.HOME && isAbsolute(e.HOME) ? e.HOME : homedir();
    base = e.XDG_CACHE_HOME && isAbsolute(e.XDG_CACHE_HOME) ? e.XDG_CACHE_HOME : join(home, '.cache');
  } catch {
    return null;
  }
  const homes = e.SBX_HOMES && isAbsolute(e.SBX_HOMES) ? e.SBX_HOMES : join(base, 'sbx', 'home');
  const dir = join(homes, sha256Hex(workReal).slice(0, 16));
  try {
    // Made by an earlier run (every run but a project's first): no mkdir, which fails with a throw.
    let st = lstatSync(dir, { throwIfNoEntry: false });
    if (!st) {
      makeDirs(homes, 0o700);
      try {
        mkdirSync(dir, { mode: 0o700 });
        // A project's first run: its record, and the HOMEs of projects that are gone.
        recordHome(dir, workReal);
        pruneHomes(homes);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      st = lstatSync(dir);
    }
    if (!st.isDirectory() || st.uid !== process.getuid?.()) return null; // not ours: no HOME kept
    if (!existsSync(`${dir}.work`)) recordHome(dir, workReal); // a HOME made before records were kept
    if ((st.mode & 0o777) !== 0o700) chmodSync(dir, 0o700);
    const real = realpathSync.native(dir);
    // A cache dir inside the work tree would put the caches back in the project (and the project in HOME).
    if (real === workReal || real.startsWith(`${workReal}${sep}`) || workReal.startsWith(`${real}${sep}`)) return null;
    return real;
  } catch {
    return null;
  }
}
