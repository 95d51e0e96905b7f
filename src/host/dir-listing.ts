// A directory's entries as readdir(3) gives them (with their types), read once per pass over the tree:
// the pass before a run (and the one after) asks two questions of a small tree in JavaScript, its
// control entries and its fingerprint (src/host/tree-scan.ts), and each walked the tree itself, every
// directory listed twice (an empty work dir: 10 system calls a run of 20 for the tree). A listing is
// kept for the pass that made it only, never across runs: what the command changed is read anew.
import { readdirSync, type Dirent } from 'node:fs';

/** The entries of dir; throws as readdirSync does. */
export type ListDir = (dir: string) => Dirent[];

export const listDir: ListDir = (dir) => readdirSync(dir, { withFileTypes: true });

/** A ListDir that lists each directory once (a listing that failed is not kept: asked again, it is read again). */
export function onePassListing(): ListDir {
  const lists = new Map<string, Dirent[]>();
  return (dir) => {
    let l = lists.get(dir);
    if (!l) lists.set(dir, (l = listDir(dir)));
    return l;
  };
}

/**
 * dir/name for a dir the walk holds (absolute and normalized, as the work dir is) and a name readdir gave
 * or a relative path git or the walk listed (no `.`, `..` or empty parts): what path.join gives for those,
 * without its normalizing pass over the whole string, which in a cold process (V8's interpreter) cost a
 * small tree's walk more than its system calls did (`node --cpu-prof`: `join` the top function of a cold
 * run in a plain 100-file tree).
 */
export function childPath(dir: string, name: string): string {
  return dir.endsWith('/') ? dir + name : `${dir}/${name}`;
}
