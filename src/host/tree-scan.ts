// The work tree's two questions around a run, asked in one pass: its fingerprint (what the user
// edited, src/host/state/fingerprint.ts) and its control entries (what the host obeys,
// src/host/control-files.ts). Both used to walk the tree in JavaScript, each before and after the
// run: four passes at ~10 us a file. Now one pass before and one after, in C (native/walk.c); in a
// git work tree git lists the files and the walker stats them while it looks for control entries.
import { controlEntries, controlEntriesJs, controlEntriesOf, controlWalkFlags, type ControlEntry } from './control-files.js';
import { fingerprintJs, fingerprintWalk, treeFingerprint } from './state/fingerprint.js';
import { nativeWalk } from './native-walk.js';

export interface TreeScan {
  /** The fingerprint, null when unknown. */
  tree: string | null;
  entries: ControlEntry[];
}

/**
 * Up to this many entries a tree is walked in JavaScript: starting the walker costs ~1.5 ms, about what
 * JavaScript takes for a thousand or two entries; the values are the same either way.
 */
const SMALL_TREE = 1500;

export async function scanTree(work: string, stateDir: string, launcher?: string): Promise<TreeScan> {
  const plan = await fingerprintWalk(work);
  const entries = controlEntriesJs(work, stateDir, SMALL_TREE);
  if (entries !== null) {
    const tree = fingerprintJs(work, plan, SMALL_TREE);
    if (tree !== undefined) return { tree, entries };
  }
  const walked = nativeWalk(work, [...plan.flags, ...controlWalkFlags(work, stateDir)], plan.input, launcher);
  if (walked && walked.fingerprint !== undefined) return { tree: walked.fingerprint, entries: controlEntriesOf(walked) };
  return { tree: await treeFingerprint(work, launcher), entries: controlEntries(work, stateDir, launcher) };
}
