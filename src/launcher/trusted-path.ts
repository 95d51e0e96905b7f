// Which host paths may be mounted into a sandbox. A work dir or bind source reached through a
// symlink is only as safe as the directory that holds the link: one that a sandbox could have
// written (an earlier work dir, a writable bind, /tmp) may hold a link planted to make the next run
// mount ~/.ssh or /etc read-write. Such a path is refused with its real path named, so the caller
// can pass that instead if it is what they meant.
import { lstatSync, realpathSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

export interface PlantedLink {
  /** The symlink on the way. */
  link: string;
  /** Where the whole path really leads. */
  real: string;
}

/** The first symlink on the way to p that sits in a directory the caller can write, else null. */
export function plantableSymlink(p: string): PlantedLink | null {
  const abs = resolve(p);
  let cur = '/';
  for (const part of abs.split('/').filter(Boolean)) {
    const next = join(cur, part);
    let info;
    try {
      info = lstatSync(next);
    } catch {
      return null;
    } // missing: reported by whoever needs it
    if (info.isSymbolicLink()) {
      if (callerCanWrite(cur)) return { link: next, real: realOr(abs) };
      cur = realOr(next);
    } else {
      cur = next;
    }
  }
  return null;
}

/**
 * Whether the caller could have changed entries of dir: by its mode bits, as if the caller held no
 * capability. Host root owns most of the system, so for root a link in a root-owned directory
 * counts as plantable; the real path is always accepted.
 */
function callerCanWrite(dir: string): boolean {
  let st;
  try {
    st = statSync(dir);
  } catch {
    return true;
  }
  const uid = process.getuid?.() ?? -1;
  const groups = new Set([process.getgid?.() ?? -1, ...(process.getgroups?.() ?? [])]);
  if (st.uid === uid) return (st.mode & 0o200) !== 0;
  if (groups.has(st.gid)) return (st.mode & 0o020) !== 0;
  return (st.mode & 0o002) !== 0;
}

/** The one line that refuses such a path: what it is, the link, and the real path to pass instead. */
export function plantedMessage(what: string, path: string, link: PlantedLink): string {
  return `${what} ${path} crosses the symlink ${link.link} in a directory you can write, where sandboxed code could have planted it; refused: pass the real path (${link.real}) if that is what you mean`;
}

/** The real path of p, or p itself when it cannot be resolved (missing, unreadable). */
export function realOr(p: string): string {
  try {
    return realpathSync.native(p);
  } catch {
    return p;
  }
}
