// The work tree's two questions around a run, asked in one pass: its fingerprint (what the user
// edited, src/host/state/fingerprint.ts) and its control entries (what the host obeys,
// src/host/control-files.ts). Both used to walk the tree in JavaScript, each before and after the
// run: four passes at ~10 us a file. Now one pass before and one after, in C (native/walk.c); in a
// git work tree git lists the files and the walker stats them while it looks for control entries.
// Where a watcher keeps the tree in view (src/host/tree-watch.ts), a run that finds nothing changed
// since the last pass takes that pass's result instead (scanBefore, scanAfter).
import { controlEntries, controlEntriesJs, controlEntriesOf, controlWalkFlags, type ControlEntry } from './control-files.js';
import { fingerprintJs, fingerprintWalk, treeFingerprint } from './state/fingerprint.js';
import { nativeWalk } from './native-walk.js';
import { onePassListing } from './dir-listing.js';
import { ask, startWatcher, store, watchSocket, type Watcher } from './tree-watch.js';

export interface TreeScan {
  /** The fingerprint, null when unknown. */
  tree: string | null;
  entries: ControlEntry[];
  /** Listed by git or walked in C (more entries than a walk in JavaScript takes): a watcher is worth its cost. */
  big?: boolean;
}

/**
 * Up to this many entries a tree is walked in JavaScript once this process has warmed up: starting the
 * walker costs ~1.5 ms, about what warm JavaScript takes for a thousand or two entries; the values are
 * the same either way. Past it (or git-listed) a tree is worth a watcher.
 */
const SMALL_TREE = 1500;
/**
 * The same for a process's first scans (a cold `sbx run` makes two): there the walk runs in V8's
 * interpreter, ~10 µs an entry a pass (bigint lstats, path joins), so the walker's start is the cheaper
 * from about this many entries (a plain 1 000-file tree: ~20 ms a pass against ~1.5).
 */
const SMALL_TREE_COLD = 150;
const COLD_SCANS = 2;
let scans = 0;

export async function scanTree(work: string, stateDir: string, launcher?: string): Promise<TreeScan> {
  const plan = await fingerprintWalk(work);
  const small = scans++ < COLD_SCANS ? SMALL_TREE_COLD : SMALL_TREE;
  // Both questions in JavaScript read each directory's listing once (dir-listing.ts).
  const list = onePassListing();
  const entries = controlEntriesJs(work, stateDir, small, list);
  if (entries !== null) {
    const tree = fingerprintJs(work, plan, small, list);
    if (tree !== undefined) return { tree, entries, big: plan.input !== undefined };
  }
  const walked = nativeWalk(work, [...plan.flags, ...controlWalkFlags(work, stateDir)], plan.input, launcher);
  if (walked && walked.fingerprint !== undefined) return { tree: walked.fingerprint, entries: controlEntriesOf(walked), big: plan.input !== undefined || walked.files + walked.dirs > SMALL_TREE };
  return { tree: await treeFingerprint(work, launcher), entries: controlEntries(work, stateDir, launcher), big: true };
}

export interface WatchedScan {
  scan: TreeScan;
  watcher: Watcher | null;
}

/**
 * The scan before a run: the one the watcher kept when nothing has changed since it was taken, else a
 * walk (handed to the watcher, or the watcher started for the next runs when the tree is large).
 */
export async function scanBefore(work: string, stateDir: string, launcher?: string): Promise<WatchedScan> {
  const sock = watchSocket(work, stateDir);
  const watcher = await ask(sock);
  const kept = keptScan(watcher);
  if (kept) return { scan: kept, watcher };
  const scan = await scanTree(work, stateDir, launcher);
  if (watcher) await store(watcher, JSON.stringify({ tree: scan.tree, entries: scan.entries }));
  else if (sock && scan.big) startWatcher(work, stateDir, sock, launcher);
  return { scan, watcher };
}

/** The scan after the run: the same as before when the watcher saw no event since, else a walk. */
export async function scanAfter(work: string, stateDir: string, before: WatchedScan, launcher?: string): Promise<TreeScan> {
  // A small tree with no watcher is walked in JavaScript: cheaper than a question to no one.
  const watcher = before.watcher || before.scan.big ? await ask(before.watcher?.sock ?? watchSocket(work, stateDir)) : null;
  const kept = keptScan(watcher);
  if (kept) return kept;
  const scan = await scanTree(work, stateDir, launcher);
  if (watcher) await store(watcher, JSON.stringify({ tree: scan.tree, entries: scan.entries }));
  return scan;
}

/** The scan the watcher kept, checked for shape (anything else: walk). */
function keptScan(w: Watcher | null): TreeScan | null {
  if (!w?.kept) return null;
  try {
    const v = JSON.parse(w.kept) as TreeScan;
    const str = (x: unknown): boolean => typeof x === 'string';
    if ((v.tree !== null && !str(v.tree)) || !Array.isArray(v.entries)) return null;
    if (!v.entries.every((e) => str(e?.rel) && str(e.id) && typeof e.link === 'boolean' && str(e.what))) return null;
    return { tree: v.tree, entries: v.entries, big: true };
  } catch {
    return null;
  }
}
