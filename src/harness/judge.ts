// Success is judged by the task's own tests on a pristine copy of the task with only the agent's changes
// to the task's editable files applied (issue 33): a file the agent created (a shadow unittest.py, a zz.c
// whose constructor exits 0), a changed test, header or build file, a deleted file, or a symbolic link
// anywhere is not carried into the copy; it is recorded as tampering, and the episode is not a success.
// The copy is scanned again after the re-run: files the agent's code made or changed while the tests
// ran are tampering too.
import { copyFileSync, existsSync, lstatSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { editableFiles, materialize, sourceTree, type Task } from './tasks.js';

export interface Tamper {
  path: string;
  how: 'created' | 'changed' | 'deleted' | 'symlink' | 'special';
  when: 'episode' | 'rerun';
}

/** What a run of the task's command makes by itself: the compiled program, Python's bytecode cache. */
const PRODUCTS = new Set(['prog', '__pycache__', '.sbx']);

interface Entry {
  kind: 'file' | 'dir' | 'link' | 'other';
  abs: string;
}

/** Every entry below dir (relative paths, '/'-separated), never following a link; build products left out. */
function walk(dir: string, rel = '', out = new Map<string, Entry>()): Map<string, Entry> {
  let names: string[];
  try {
    names = readdirSync(join(dir, rel));
  } catch {
    return out;
  }
  for (const name of names.sort()) {
    if (PRODUCTS.has(name)) continue;
    const r = rel ? `${rel}/${name}` : name;
    const abs = join(dir, r);
    const st = lstatSync(abs);
    const kind = st.isSymbolicLink() ? 'link' : st.isDirectory() ? 'dir' : st.isFile() ? 'file' : 'other';
    out.set(r, { kind, abs });
    if (kind === 'dir') walk(dir, r, out);
  }
  return out;
}

const same = (a: string, b: string): boolean => readFileSync(a).equals(readFileSync(b));

/** How `tree` differs from `base` outside the editable files (whose changes are the agent's answer). */
export function tampering(base: string, tree: string, editable: ReadonlySet<string>, when: Tamper['when']): Tamper[] {
  const want = walk(base);
  const got = walk(tree);
  const out: Tamper[] = [];
  for (const [path, e] of got) {
    const b = want.get(path);
    if (e.kind === 'link' || e.kind === 'other') out.push({ path, how: e.kind === 'link' ? 'symlink' : 'special', when });
    else if (!b) {
      if (e.kind === 'file' || ![...got.keys()].some((p) => p.startsWith(`${path}/`))) out.push({ path, how: 'created', when });
    } else if (b.kind !== e.kind) out.push({ path, how: 'changed', when });
    else if (e.kind === 'file' && !editable.has(path) && !same(b.abs, e.abs)) out.push({ path, how: 'changed', when });
  }
  for (const [path, b] of want) if (!got.has(path) && !(b.kind === 'file' && editable.has(path))) out.push({ path, how: 'deleted', when });
  return out;
}

export interface Judged {
  copy: string;
  tampered: Tamper[];
  applied: Map<string, Buffer | null>;
}

/** A pristine copy of the task under root with the agent's editable files from work applied; what else changed. */
export function pristineWithEdits(task: Task, work: string, root: string): Judged {
  const editable = new Set(editableFiles(task));
  const tampered = tampering(sourceTree(task), work, editable, 'episode');
  const copy = materialize(task, 'buggy', root);
  const applied = new Map<string, Buffer | null>();
  for (const f of editable) {
    const from = join(work, f);
    const to = join(copy, f);
    let st;
    try {
      st = lstatSync(from);
    } catch {
      rmSync(to, { force: true });
    } // the agent deleted it
    if (st?.isFile()) copyFileSync(from, to); // a link or anything else is tampering, recorded above; not applied
    applied.set(f, existsSync(to) ? readFileSync(to) : null);
  }
  return { copy, tampered, applied };
}

/** After the re-run: what the agent's code changed in the copy while the tests ran. */
export function changedDuringRerun(task: Task, j: Judged): Tamper[] {
  const now = tampering(sourceTree(task), j.copy, new Set(j.applied.keys()), 'rerun');
  for (const [f, was] of j.applied) {
    const p = join(j.copy, f);
    let is: Buffer | null = null;
    try {
      if (lstatSync(p).isFile()) is = readFileSync(p);
      else continue; /* a link: reported above */
    } catch {
      /* gone */
    }
    if (was === null ? is !== null : is === null || !was.equals(is)) now.push({ path: f, how: is === null ? 'deleted' : 'changed', when: 'rerun' });
  }
  return now.filter((t, i) => now.findIndex((u) => u.path === t.path) === i);
}
