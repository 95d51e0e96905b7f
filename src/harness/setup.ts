// A task's hidden code (task.json `setup`): sources beside src/ that no work dir ever holds, built once per
// process in sbx by the task's own command; the products (a static library, a module as bytecode) join a
// pristine tree that every work dir, the judge's copy and the tampering check start from. So the agent
// sees and links the product, and only the run tells what it does.
import { chmodSync, copyFileSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '../host/index.js';
import { SbxError } from '../contract/index.js';
import { setupReason } from './setup-reason.js';
import type { Task } from './tasks.js';

/** Builds the task's setup (once; a no-op for a task without one) and points task.tree at the result. */
export async function prepareTask(task: Task): Promise<void> {
  if (!task.setup || task.tree) return;
  const tree = mkdtempSync(join(tmpdir(), `sbx-tree-${task.id}-`));
  const build = mkdtempSync(join(tmpdir(), `sbx-setup-${task.id}-`));
  process.once('exit', () => rmSync(tree, { recursive: true, force: true }));
  try {
    chmodSync(tree, 0o755);
    chmodSync(build, 0o755);
    cpSync(join(task.dir, 'src'), tree, { recursive: true });
    cpSync(join(task.dir, 'src'), build, { recursive: true }); // the headers the hidden code shares with the agent's
    cpSync(join(task.dir, task.setup.dir), build, { recursive: true });
    const env = await run({ cmd: task.setup.cmd, work: build, timeout: task.timeout });
    const exit = (env.outcome as { exit_code?: number | null } | null)?.exit_code ?? null;
    if (env.verdict.status !== 'pass' || exit !== 0) {
      const last = env.log && existsSync(env.log) ? readFileSync(env.log, 'utf8').trim().split('\n').at(-1)?.slice(0, 200) : '';
      const why = setupReason(env.verdict) ?? `status ${env.verdict.status}, exit ${exit}${last ? ` (${last})` : ''}`;
      throw new SbxError('E_BAD_TASK', `the setup of task ${task.id} (${task.setup.cmd.join(' ')}) failed: ${why}`);
    }
    for (const p of task.setup.products) {
      try {
        copyFileSync(join(build, p), join(tree, p));
      } catch {
        throw new SbxError('E_BAD_TASK', `the setup of task ${task.id} made no ${p}: list in products what its command writes`);
      }
      chmodSync(join(tree, p), 0o444);
    }
    task.tree = tree;
  } catch (err) {
    rmSync(tree, { recursive: true, force: true });
    throw err;
  } finally {
    rmSync(build, { recursive: true, force: true });
  }
}

export async function prepareTasks(tasks: readonly Task[]): Promise<void> {
  for (const t of tasks) await prepareTask(t);
}
