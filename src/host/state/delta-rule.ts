// The one rule for a run's delta, shared by `sbx run`, `sbx verdict --state` and `sbx replay`: compare
// with the previous run of the same command; the tree changed when both runs carry a mark of the tree
// (an edit count, a fingerprint) and the marks differ, unknown otherwise; same_verdict_runs counts
// the runs in a row with this verdict key, this one included (1 on a first run). The state carries
// that count from run to run (store.counters); a replay counts it from the keys (streak).
// An interrupted run (Ctrl-C) is recorded but is no baseline: the next run of the command is compared
// with the last one that was not (isBaseline).
// A run that never reached its tests (the build failed, it was stopped, it crashed before any test
// result) says nothing of them: the next run that does reach them compares its tests with the last run
// that did (its tests carried forward in the state, carriedAfter), while status, errors and crash compare with
// the previous run as ever (baselineFor). Two runs in a row that reached no tests compare as they are
// (a repeated build failure is "no change").
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

/**
 * Whether a run reached its tests: not a stop (setup, timeout, Ctrl-C), not a crash before any test result, not
 * a build failure unless its tests still reported (jest's suites that failed to compile beside those that ran).
 */
export function reachedTests(vd: Pick<Verdict, 'status' | 'tests' | 'crash'>): boolean {
  if (vd.status === 'setup-failed' || vd.status === 'timeout' || vd.status === 'interrupted') return false;
  if (vd.status === 'build-failed') return !!vd.tests && (vd.tests.failures.length > 0 || (vd.tests.passed ?? 0) > 0);
  return !(vd.tests === null && vd.crash !== null);
}

/**
 * The verdict cur's delta takes as the previous one: prev, its tests replaced by those prev carried (its
 * state's tests_base, carriedAfter), unless neither prev nor cur reached the tests. Errors, crash and status
 * stay prev's.
 */
export function baselineFor(prev: Verdict | null, carried: Verdict['tests'] | undefined, cur: Pick<Verdict, 'status' | 'tests' | 'crash'>): Verdict | null {
  if (prev === null || carried == null || (!reachedTests(prev) && !reachedTests(cur))) return prev;
  return { ...prev, tests: carried };
}

/**
 * The tests the run after cur is compared with when they are not cur's own (its state's tests_base), or null:
 * those prev carried (or prev's) when cur reached no tests; when it did, its own plus the failures of the
 * tests it was compared with (base) that its delta found not run (mocha --bail stopped first): a test
 * failing two runs ago, not run since, that fails again is still failing. Not those it found gone (delta.tests.gone).
 */
export function carriedAfter(cur: Verdict, prev: Verdict | null, prevCarried: Verdict['tests'] | undefined, base: Verdict | null, delta: Delta): Verdict['tests'] {
  if (!reachedTests(cur)) return prev === null ? null : (prevCarried ?? prev.tests);
  // Those the delta found gone from the run (removed, renamed: the runner's counts say so) are carried no further.
  const gone = new Set(delta.tests.gone ?? []);
  const notRun = new Set((delta.tests.not_run ?? []).filter((n) => !gone.has(n)));
  if (!notRun.size || !cur.tests || !base?.tests) return null;
  const kept = base.tests.failures.filter((f) => notRun.has(f.name) || (f.package != null && notRun.has(`${f.name} (${f.package})`)));
  return kept.length ? { ...cur.tests, failures: [...cur.tests.failures, ...kept] } : null;
}

/** Whether the next run of the same command is compared with this one: not when it was interrupted. */
export const isBaseline = (vd: Pick<Verdict, 'status'>): boolean => vd.status !== 'interrupted';

/** Runs in a row at the end of keys (the previous runs' verdict keys, oldest first) with this key, plus one. */
export function streak(keys: readonly string[], key: string): number {
  let n = 1;
  for (let i = keys.length - 1; i >= 0 && keys[i] === key; i--) n++;
  return n;
}
