// Validation of the tasks inside sbx: the buggy sources fail, the reference solution passes (and
// differs from the sources only at the fix locus, leaving protected files alone), the obvious fix
// of a loop-inducing task still fails, and the decoy line is a real line away from the fix.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { run } from '../host/index.js';
import { setupReason } from './setup-reason.js';
import { hunks, linesOf } from './linediff.js';
import { editableFiles, materialize, protectedChanged, removeWork, type Task, type Variant } from './tasks.js';
import { prepareTask } from './setup.js';
import { faultOf } from './corrupt.js';

export interface TaskCheck {
  id: string;
  ok: boolean;
  problems: string[];
  statuses: Record<string, string>;
  ms: number;
}

async function status(
  task: Task,
  variant: Variant,
): Promise<{ status: string; exit: number | null; identity: string | null; work: string; setup: string | null; fault: { file: string; line: number } | null }> {
  const work = materialize(task, variant);
  const env = await run({ cmd: task.cmd, work, timeout: task.timeout });
  const o = env.outcome as { exit_code?: number | null } | null;
  return { status: env.verdict.status, exit: o?.exit_code ?? null, identity: env.verdict.crash?.identity ?? null, work, setup: setupReason(env.verdict), fault: faultOf(env.verdict) };
}

export async function validateTask(task: Task): Promise<TaskCheck> {
  const t0 = Date.now();
  const problems: string[] = [];
  const statuses: Record<string, string> = {};
  const variants: Variant[] = task.obvious ? ['buggy', 'solution', 'obvious'] : ['buggy', 'solution'];
  try {
    await prepareTask(task);
  } catch (err) {
    return { id: task.id, ok: false, problems: [(err as Error).message], statuses: {}, ms: Date.now() - t0 };
  }
  // Hidden code stays hidden: no file of the setup's sources is in src/ (the agent's view).
  if (task.setup) {
    const hidden = readdirSync(join(task.dir, task.setup.dir)).filter((f) => existsSync(join(task.dir, 'src', f)));
    if (hidden.length) problems.push(`src/ holds ${hidden.join(', ')} of the hidden ${task.setup.dir}/: the agent could read it`);
  }
  for (const variant of variants) {
    const r = await status(task, variant);
    statuses[variant] = r.status;
    const passed = r.status === 'pass' && r.exit === 0;
    if (r.setup) {
      const p = `the ${variant} sources cannot run in the sandbox: ${r.setup}`;
      if (!problems.some((x) => x.endsWith(r.setup!))) problems.push(p);
      removeWork(r.work);
      continue;
    }
    if (variant === 'solution' && !passed) problems.push(`the solution does not pass (status ${r.status}, exit ${r.exit})`);
    if (variant !== 'solution' && passed) problems.push(`the ${variant} sources pass: the task has no bug to fix`);
    // The crash line a task names (where the run fails, away from the fix) is the line the buggy run's verdict blames.
    const c = task.crash;
    if (variant === 'buggy' && c && (r.fault?.file !== c.file || r.fault.line !== c.line))
      problems.push(`the buggy run fails at ${r.fault ? `${r.fault.file}:${r.fault.line}` : 'no line'}, not at the crash line ${c.file}:${c.line} of task.json`);
    if (variant === 'solution') {
      const bad = protectedChanged(task, r.work);
      if (bad.length) problems.push(`protected files differ from their recorded hashes: ${bad.join(', ')}`);
    }
    removeWork(r.work);
  }
  // The solution touches only editable files, and the fix file only within 3 lines of the fix locus.
  const editable = editableFiles(task);
  for (const name of readdirSync(join(task.dir, 'solution'), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(join(task.dir, 'solution'), join(e.parentPath ?? e.path, e.name)))) {
    if (!editable.includes(name)) {
      problems.push(`the solution changes ${name}, not ${editable.length > 1 ? `one of the editable files ${editable.join(', ')}` : `the fix file ${task.fix.file}`}`);
      continue;
    }
    if (name !== task.fix.file) continue;
    const lines = fixLines(readFileSync(join(task.dir, 'src', name), 'utf8'), readFileSync(join(task.dir, 'solution', name), 'utf8'));
    const [lo, hi] = task.fix.lines;
    const out = lines.filter((l) => l < lo - 3 || l > hi + 3);
    if (!lines.length) problems.push('the solution does not change the fix file');
    if (out.length) problems.push(`the solution changes lines ${out.join(', ')}, outside the fix locus ${lo}-${hi} (±3)`);
  }
  if (task.decoy) {
    const n = readFileSync(join(task.dir, 'src', task.decoy.file), 'utf8').split('\n').length;
    const [lo, hi] = task.fix.lines;
    if (task.decoy.line > n) problems.push(`the decoy line ${task.decoy.line} is past the end of ${task.decoy.file}`);
    if (task.decoy.file === task.fix.file && task.decoy.line >= lo - 3 && task.decoy.line <= hi + 3) problems.push('the decoy line is within 3 lines of the fix locus');
  }
  return { id: task.id, ok: problems.length === 0, problems, statuses, ms: Date.now() - t0 };
}

/** An import the fix needs (Python, C/C++, Rust), or a blank line next to one. */
const IMPORT = /^\s*(?:import\s|from\s+\S+\s+import\s|#\s*include\s|use\s|extern\s+crate\s)|^\s*$/;

/** The lines a solution changes, less the lines it only adds that are imports: those go at the top, wherever the fix is. */
function fixLines(before: string, after: string): number[] {
  const a = linesOf(before);
  const b = linesOf(after);
  const out = new Set<number>();
  for (const h of hunks(a, b)) {
    if (h.aHi > h.aLo) {
      for (let i = h.aLo; i < h.aHi; i++) out.add(i + 1);
      continue;
    }
    if (b.slice(h.bLo, h.bHi).every((l) => IMPORT.test(l))) continue;
    out.add(Math.max(1, h.aLo));
  }
  return [...out].sort((x, y) => x - y);
}
