// The episodes of a run and which of them this shard does: a fixed order (task, condition, model,
// seed), shard i of n takes every n-th from i; episodes already in the output are skipped (resume).
import { existsSync, readFileSync } from 'node:fs';
import { SbxError } from '../contract/index.js';
import { episodeKey } from './episode.js';

export interface Planned {
  task: string;
  condition: string;
  model: string;
  seed: number;
  key: string;
}

export function plan(tasks: readonly string[], conditions: readonly string[], models: readonly string[], seeds: number): Planned[] {
  const out: Planned[] = [];
  for (const task of tasks) for (const condition of conditions) for (const model of models) for (let seed = 0; seed < seeds; seed++) out.push({ task, condition, model, seed, key: '' });
  return out;
}

/**
 * "i/n" (0-based i); else the scheduler's array index: a Kubernetes Indexed Job (JOB_COMPLETION_INDEX of
 * JOB_COMPLETIONS) or a Slurm job array (`sbatch --array=A-B[:S]`: SLURM_ARRAY_TASK_ID counted from
 * SLURM_ARRAY_TASK_MIN in steps of SLURM_ARRAY_TASK_STEP, of SLURM_ARRAY_TASK_COUNT); else 0/1.
 */
export function parseShard(spec: string | undefined, env: NodeJS.ProcessEnv = process.env): { index: number; count: number } {
  const s = spec ?? (env.JOB_COMPLETION_INDEX ? `${env.JOB_COMPLETION_INDEX}/${env.JOB_COMPLETIONS ?? ''}` : (slurmShard(env) ?? '0/1'));
  const m = /^(\d+)\/(\d+)$/.exec(s);
  const index = Number(m?.[1]);
  const count = Number(m?.[2]);
  if (!m || count < 1 || index >= count)
    throw new SbxError('E_USAGE', `bad shard ${JSON.stringify(s)}: give --shard I/N with 0 <= I < N (or set JOB_COMPLETION_INDEX and JOB_COMPLETIONS, or run in a Slurm job array)`);
  return { index, count };
}

/** A Slurm array task's place as "i/n", or null outside a job array (or an array with gaps: say --shard). */
function slurmShard(env: NodeJS.ProcessEnv): string | null {
  if (!env.SLURM_ARRAY_TASK_ID) return null;
  const id = Number(env.SLURM_ARRAY_TASK_ID),
    min = Number(env.SLURM_ARRAY_TASK_MIN ?? 0),
    step = Number(env.SLURM_ARRAY_TASK_STEP || 1);
  const count = env.SLURM_ARRAY_TASK_COUNT ?? '';
  const i = (id - min) / step;
  return Number.isInteger(i) && i >= 0 ? `${i}/${count}` : `${env.SLURM_ARRAY_TASK_ID}/${count}`;
}

export function shardOf<T>(items: readonly T[], index: number, count: number): T[] {
  return items.filter((_, i) => i % count === index);
}

/** Keys of the episodes an output file already holds (a torn last line is ignored). */
export function recordedKeys(file: string): Set<string> {
  const keys = new Set<string>();
  if (!existsSync(file)) return keys;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    try {
      const r = JSON.parse(line) as { key?: string; stop?: string };
      if (r.key && r.stop !== 'error') keys.add(r.key);
    } catch {
      /* torn line */
    }
  }
  return keys;
}

export const withKeys = (ps: Planned[], modelName: (m: string) => string): Planned[] => ps.map((p) => ({ ...p, key: episodeKey(p.task, p.condition, modelName(p.model), p.seed) }));
