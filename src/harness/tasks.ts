// The study's tasks (bench/tasks/<id>/): task.json, the buggy sources (src/), the hidden reference
// solution (solution/, files that replace src/'s), and for loop-inducing tasks the obvious fix that
// fails (obvious/). Loaded and checked here; `sbx tasks validate` runs them in the sandbox.
import * as v from 'valibot';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, chmodSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SbxError } from '../contract/index.js';
import { readRegular } from '../launcher/index.js';

const LineRef = v.object({ file: v.string(), line: v.pipe(v.number(), v.integer(), v.minValue(1)) });
export const TaskSchema = v.object({
  id: v.pipe(v.string(), v.regex(/^[a-z0-9-]+$/)),
  prompt: v.string(),
  cmd: v.pipe(v.array(v.string()), v.minLength(1)),
  timeout: v.pipe(v.number(), v.minValue(1)),
  fix: v.object({ file: v.string(), lines: v.tuple([v.number(), v.number()]) }),
  decoy: v.nullable(LineRef),
  protected: v.record(v.string(), v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/))),
  obvious: v.boolean(),
  /** The files the agent may change (the answer); the fix file when absent. Everything else is the task's own. */
  editable: v.optional(v.pipe(v.array(v.string()), v.minLength(1))),
  /**
   * Code the agent cannot read: sources in a directory beside src/ (never copied into the work dir), built
   * in sbx by cmd (on src/ with that directory over it) before any episode; only the products (a static
   * library, bytecode) join the task's tree.
   */
  setup: v.optional(
    v.object({ dir: v.pipe(v.string(), v.regex(/^[\w.-]+$/)), cmd: v.pipe(v.array(v.string()), v.minLength(1)), products: v.pipe(v.array(v.pipe(v.string(), v.regex(/^[\w.-]+$/))), v.minLength(1)) }),
  ),
  /** Which family of the study the task belongs to (docs/experiment.md). */
  family: v.optional(v.picklist(['multi-file', 'real-bug', 'source-insufficient'])),
  /** Where the buggy run fails (the line its report names first), when that is away from the fix. */
  crash: v.optional(LineRef),
  /** The path from the cause to the crash, in a sentence. */
  note: v.optional(v.string()),
  /** The historical bug a real-bug task reimplements the shape of: the report and the fix. */
  upstream: v.optional(v.object({ project: v.string(), bug: v.string(), report: v.string(), fix: v.string(), commit: v.pipe(v.string(), v.regex(/^[0-9a-f]{7,40}$/)), shape: v.string() })),
});
export type TaskSpec = v.InferOutput<typeof TaskSchema>;
/** tree: the pristine tree work dirs copy, src/ plus the setup's products once prepareTask built them. */
export interface Task extends TaskSpec {
  dir: string;
  tree?: string;
}

/** bench/tasks of the checkout this code runs from (dist/ or src/harness/ are two levels below it). */
export function defaultTasksDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  for (const up of ['..', '../..']) {
    const d = resolve(here, up, 'bench/tasks');
    if (existsSync(d)) return d;
  }
  return resolve('bench/tasks');
}

export function loadTasks(dir = defaultTasksDir(), only?: readonly string[]): Task[] {
  if (!existsSync(dir)) throw new SbxError('E_NO_TASKS', `no task directory at ${dir}: run from the sbx checkout or pass --dir bench/tasks`);
  const ids = readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(join(dir, e.name, 'task.json')))
    .map((e) => e.name)
    .sort();
  const wanted = only?.length ? only : ids;
  const unknown = wanted.filter((id) => !ids.includes(id));
  if (unknown.length) throw new SbxError('E_NO_TASKS', `unknown task ${unknown.join(', ')} in ${dir}: choose from ${ids.join(', ')}`);
  return wanted.map((id) => loadTask(join(dir, id)));
}

export function loadTask(dir: string): Task {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(join(dir, 'task.json'), 'utf8'));
  } catch (err) {
    throw new SbxError('E_BAD_TASK', `${join(dir, 'task.json')} is not readable JSON (${(err as Error).message}): fix the file`);
  }
  const r = v.safeParse(TaskSchema, raw);
  if (!r.success) throw new SbxError('E_BAD_TASK', `${join(dir, 'task.json')}: ${r.issues.map((i) => `${v.getDotPath(i) ?? '.'}: ${i.message}`).join('; ')}`);
  const t = { ...r.output, dir };
  for (const f of editableFiles(t)) {
    if (Object.hasOwn(t.protected, f)) throw new SbxError('E_BAD_TASK', `${join(dir, 'task.json')}: ${f} is both editable and protected: remove it from one list`);
    if (f.startsWith('/') || f.split('/').includes('..')) throw new SbxError('E_BAD_TASK', `${join(dir, 'task.json')}: editable file ${f} is not a path inside the task: give it relative to src/`);
  }
  for (const p of t.setup?.products ?? [])
    if (editableFiles(t).includes(p)) throw new SbxError('E_BAD_TASK', `${join(dir, 'task.json')}: ${p} is a product of the setup and editable: the agent's answer is in src/`);
  if (!editableFiles(t).includes(t.fix.file)) throw new SbxError('E_BAD_TASK', `${join(dir, 'task.json')}: the fix file ${t.fix.file} is not editable: add it to editable`);
  return t;
}

/** The files whose changes are the agent's answer: task.json's editable, else the fix file. */
export const editableFiles = (task: TaskSpec): string[] => task.editable ?? [task.fix.file];

export type Variant = 'buggy' | 'solution' | 'obvious';

/** The pristine tree of the task, what a work dir starts as: src/, with the setup's products once built. */
export function sourceTree(task: Task): string {
  if (!task.setup) return join(task.dir, 'src');
  if (!task.tree) throw new SbxError('E_INTERNAL', `task ${task.id} has a setup that has not been built: call prepareTask first`);
  return task.tree;
}

/** A fresh work dir (0755, outside any checkout) holding the task's sources, overlaid by a variant. */
export function materialize(task: Task, variant: Variant = 'buggy', parent = tmpdir()): string {
  const tree = sourceTree(task);
  const work = mkdtempSync(join(parent, `sbx-task-${task.id}-`));
  chmodSync(work, 0o755);
  cpSync(tree, work, { recursive: true });
  if (variant !== 'buggy') cpSync(join(task.dir, variant), work, { recursive: true });
  return work;
}

export function removeWork(work: string): void {
  rmSync(work, { recursive: true, force: true });
}

export const sha256 = (b: Uint8Array | string): string => createHash('sha256').update(b).digest('hex');

/** The protected files whose content no longer matches the task's recorded hashes (a link in a file's place counts as changed). */
export function protectedChanged(task: Task, work: string): string[] {
  const bad: string[] = [];
  for (const [rel, hash] of Object.entries(task.protected)) {
    let h = '';
    try {
      h = sha256(readRegular(join(work, rel)));
    } catch {
      /* missing (or a FIFO, a link) counts as changed */
    }
    if (h !== hash) bad.push(rel);
  }
  return bad;
}

export { changedLines } from './linediff.js';
