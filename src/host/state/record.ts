// A run's verdict against the state directory: the delta to the previous run, then the record.
import type { Engine, RunResult, VerdictOptions } from '../engine.js';
import { verdictOfFile } from '../log-source.js';
import type { StateDir } from './store.js';

export interface Recorded { env: RunResult; problem: string | null }

/**
 * logPath is already on disk (in state.logs); tree is the work tree's fingerprint taken when the run
 * started (null when unknown).
 */
export async function recordVerdict(engine: Engine, state: StateDir, id: string, logPath: string, tree: string | null,
  opts: VerdictOptions, complete?: (env: RunResult) => void): Promise<Recorded> {
  const env = await verdictOfFile(engine, logPath, { ...opts, log: logPath });
  complete?.(env);
  return state.withLock(async () => {
    const prev = await state.readPrevious();
    const { entries } = await state.history();
    const treeChanged = prev.verdict && tree !== null && prev.tree !== null ? tree !== prev.tree : undefined;
    const sameRuns = prev.verdict ? state.sameRuns(entries, env.verdict) : 1;
    env.delta = engine.delta(prev.verdict, env.verdict, { treeChanged, sameRuns });
    await state.record(id, env, tree, entries);
    return { env, problem: prev.problem };
  });
}
