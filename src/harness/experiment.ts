// `npm run experiment -- --model M[,M...] --conditions all|A,B --tasks all|ID,ID --seeds N [--out FILE]`:
// every planned episode of this shard not yet in FILE, K at a time, one JSONL line each.
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createEngine } from '../host/index.js';
import { SbxError } from '../contract/index.js';
import { ALL_CONDITIONS, parseCondition } from './conditions.js';
import { createBackend, parseModel } from './backends/index.js';
import { recording, replaying } from './backends/record.js';
import { runEpisode, type EpisodeOptions } from './episode.js';
import { plan, parseShard, recordedKeys, shardOf, withKeys, type Planned } from './plan.js';
import { loadTasks, type Task } from './tasks.js';
import { prepareTasks } from './setup.js';
import type { NetOptions } from './backends/anthropic.js';

export interface ExperimentArgs {
  models: string[];
  conditions: string[];
  tasks: string[] | 'all';
  seeds: number;
  out: string;
  tasksDir?: string | undefined;
  shard?: string | undefined;
  workers: number;
  record?: string | undefined;
  replay?: string | undefined;
  net: NetOptions;
  episode: EpisodeOptions;
  progress: boolean;
}

const fileOf = (dir: string, key: string): string => join(dir, `${key.replace(/[^A-Za-z0-9._-]+/g, '_')}.jsonl`);

export async function experiment(a: ExperimentArgs): Promise<{ ran: number; skipped: number; failed: number; setup: Map<string, number> }> {
  const conditions = a.conditions.length === 1 && a.conditions[0] === 'all' ? [...ALL_CONDITIONS] : a.conditions;
  for (const c of conditions)
    if (!parseCondition(c)) throw new SbxError('E_USAGE', `unknown condition ${JSON.stringify(c)}: use all or some of ${ALL_CONDITIONS.join(', ')} (any base condition may take +maskN)`);
  for (const m of a.models) parseModel(m);
  const tasks = loadTasks(a.tasksDir, a.tasks === 'all' ? undefined : a.tasks);
  await prepareTasks(tasks);
  const byId = new Map<string, Task>(tasks.map((t) => [t.id, t]));
  const all = withKeys(
    plan(
      tasks.map((t) => t.id),
      conditions,
      a.models,
      a.seeds,
    ),
    (m) => m,
  );
  const { index, count } = parseShard(a.shard);
  const mine = shardOf(all, index, count);
  const done = recordedKeys(a.out);
  const todo = mine.filter((p) => !done.has(p.key));
  mkdirSync(dirname(a.out) || '.', { recursive: true });
  sealTornLine(a.out);
  const engine = await createEngine();
  const bar = a.progress && process.stderr.isTTY ? await progressBar(todo.length) : null;
  let failed = 0;
  let next = 0;
  const setup = new Map<string, number>(); // what kept a task's command from running, and in how many episodes
  const one = async (p: Planned): Promise<void> => {
    const task = byId.get(p.task)!;
    let backend = a.replay ? replaying(p.model, fileOf(a.replay, p.key)) : await createBackend(p.model, task, a.net);
    if (a.record) backend = recording(backend, fileOf(a.record, p.key));
    const rec = await runEpisode(task, parseCondition(p.condition)!, backend, p.seed, engine, a.episode);
    if (rec.stop === 'error') failed++;
    if (rec.setup_error) setup.set(`${rec.task}: ${rec.setup_error}`, (setup.get(`${rec.task}: ${rec.setup_error}`) ?? 0) + 1);
    appendFileSync(a.out, `${JSON.stringify(rec)}\n`);
    bar?.increment();
    if (rec.stop === 'error' && /E_NO_KEY|E_MODEL_API|no .* API key|failed \(/.test(rec.error ?? '')) throw new SbxError('E_MODEL_API', rec.error ?? 'model API failed');
  };
  const worker = async (): Promise<void> => {
    while (next < todo.length) await one(todo[next++]!);
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, Math.min(a.workers, todo.length)) }, worker));
  } finally {
    bar?.stop();
  }
  return { ran: todo.length, skipped: mine.length - todo.length, failed, setup };
}

/** A run killed mid-write leaves a line without its newline: end it, so the next record starts clean. */
function sealTornLine(file: string): void {
  if (!existsSync(file)) return;
  const b = readFileSync(file);
  if (b.length && b[b.length - 1] !== 0x0a) appendFileSync(file, '\n');
}

async function progressBar(total: number): Promise<{ increment(): void; stop(): void }> {
  const { default: cp } = await import('cli-progress');
  const bar = new cp.SingleBar({ format: 'episodes {bar} {value}/{total} · {eta_formatted} left', stream: process.stderr }, cp.Presets.shades_classic);
  bar.start(total, 0);
  return { increment: () => bar.increment(), stop: () => bar.stop() };
}
