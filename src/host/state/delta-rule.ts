// The one rule for a run's delta, shared by `sbx run`, `sbx verdict --state` and `sbx replay`: compare
// with the previous run of the same command; the tree changed when both runs carry a mark of the tree
// (an edit count, a fingerprint) and the marks differ, unknown otherwise; same_verdict_runs counts
// the runs in a row before this one with the same verdict key, plus this one.
import type { Delta, Engine, Verdict } from '../../engine/engine.js';
import { verdictKey } from './history.js';

export interface Previous {
  verdict: Verdict | null;
  /** What the tree was like at the previous run (null: unknown). */
  mark: string | number | null;
  /** Verdict keys of the previous runs of this command, oldest first. */
  keys: readonly string[];
}

export function deltaAgainst(engine: Engine, prev: Previous, cur: Verdict, mark: string | number | null): Delta {
  const treeChanged = prev.verdict && mark !== null && prev.mark !== null ? mark !== prev.mark : undefined;
  const key = verdictKey(cur);
  let sameRuns = 1;
  if (prev.verdict) for (let i = prev.keys.length - 1; i >= 0 && prev.keys[i] === key; i--) sameRuns++;
  return engine.delta(prev.verdict, cur, { treeChanged, sameRuns });
}
