// The one rule for a run's delta, shared by `sbx run`, `sbx verdict --state` and `sbx replay`: compare
// with the previous run of the same command; the tree changed when both runs carry a mark of the tree
// (an edit count, a fingerprint) and the marks differ, unknown otherwise; same_verdict_runs counts
// the runs in a row with this verdict key, this one included (1 on a first run). The state carries
// that count from run to run (store.counters); a replay counts it from the keys (streak).
// An interrupted run (Ctrl-C) is recorded but is no baseline: the next run of the command is compared
// with the last one that was not (isBaseline).
import type { Delta, DeltaOptions, Engine, Verdict } from '../../engine/index.js';

export interface Baseline {
  verdict: Verdict | null;
  /** What the tree was like at the previous run (null: unknown). */
  mark: string | number | null;
  /** Runs in a row with the current verdict's key, the current one included. */
  sameRuns: number;
}

export function deltaAgainst(engine: Engine, prev: Baseline, cur: Verdict, mark: string | number | null): Delta {
  return engine.delta(prev.verdict, cur, deltaOptions(prev, mark));
}

/** What the engine's delta takes besides the two verdicts (engine.delta, engine.conclude). */
export function deltaOptions(prev: Baseline, mark: string | number | null): DeltaOptions {
  const treeChanged = prev.verdict && mark !== null && prev.mark !== null ? mark !== prev.mark : undefined;
  return { treeChanged, sameRuns: prev.verdict ? Math.max(prev.sameRuns, 1) : 1 };
}

/** Whether the next run of the same command is compared with this one: not when it was interrupted. */
export const isBaseline = (vd: Pick<Verdict, 'status'>): boolean => vd.status !== 'interrupted';

/** Runs in a row at the end of keys (the previous runs' verdict keys, oldest first) with this key, plus one. */
export function streak(keys: readonly string[], key: string): number {
  let n = 1;
  for (let i = keys.length - 1; i >= 0 && keys[i] === key; i--) n++;
  return n;
}
