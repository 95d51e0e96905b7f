// A run's verdict, already read and its outcome set by the caller, against the state directory: the
// delta to the previous run of the same command, then the record. What it writes is the envelope as
// given plus the delta; it calls nothing back.
//
// `sbx run` reads the previous runs ahead, without the lock (readAhead), and the engine gives the verdict,
// its delta against them and its text in one call (VerdictStream.end). Under the lock the previous runs are
// read again: when the delta's inputs are still what they were (the same previous run of the command, the
// same tree_changed and same_verdict_runs) that delta stands; when another run recorded in between, the
// delta and the text are made again against the true previous run (engine.conclude).
//
// "Did the user edit anything?" is answered by the work tree's fingerprint at this run's start
// against the newest run's (of any command) at its end: what a run writes itself (build output,
// caches) is in its end fingerprint, so it never counts as an edit. Every run stores the number of
// edits seen so far; the delta's tree_changed says whether that number moved since the previous run
// of this command.
import type { DeltaOptions, Engine, RunEnd, RunEnded, RunResult } from '../../engine/index.js';
import { verdictKey } from './history.js';
import type { RunState, StateDir } from './store.js';
import { baselineFor, carriedAfter, deltaOptions, type Baseline } from './delta-rule.js';
import { phase } from '../phases.js';

export interface Recorded {
  env: RunResult;
  /** The envelope as sbx prints it (engine.render), made in the same pass as its delta; valid while env is unchanged. */
  text: string;
  problem: string | null;
}

export interface RunRecord {
  id: string;
  /** Already on disk, in state.logs. */
  logPath: string;
  /** The log's size in bytes when the caller knows it (it holds the bytes): spares a stat. */
  logBytes?: number;
  /** The run's envelope: its verdict read, its outcome set (null for a recorded log); the delta is set here. */
  env: RunResult;
  /** The command as one line, or null when unknown (a recorded log). */
  cmd: string | null;
  /** The work tree's fingerprint when the run started, and when it ended (null: unknown). */
  tree: string | null;
  treeEnd: string | null;
  /** What the engine gave for env in the verdict's own call (VerdictStream.end), on the baseline read ahead. */
  ended?: { ahead: Ahead; run: RunEnded };
}

/** The previous runs as read ahead of the verdict (readAhead): the run's end as the engine takes it, and whose it is. */
export interface Ahead {
  end: Omit<RunEnd, 'outcome'>;
  /** The previous run of the command's id (null: none). */
  prevId: string | null;
}

/**
 * The previous run of cmd and the newest run of any, read now without the lock (optimistic: recordVerdict
 * checks them under it), as the delta of a run that started with `tree` takes them. null when a file cannot
 * be used (it is left for recordVerdict to set aside) or holds state from before runs carried their streak
 * (which needs history.jsonl): the verdict is then finished alone and its delta made under the lock.
 */
export function readAhead(state: StateDir, cmd: string, tree: string | null): Ahead | null {
  const latest = state.peekPrevious();
  const prev = latest && state.peekPrevious(cmd);
  if (!prev) return null;
  const p = prev.state;
  // A previous run that carries tests for the next (carriedAfter): whether this run is compared with them
  // depends on whether it reaches its own (baselineFor), known only with its verdict.
  if (prev.verdict && p?.tests_base) return null;
  if (prev.verdict && (!p?.id || typeof p.vkey !== 'string' || typeof p.same_cmd !== 'number')) return null;
  const base: Baseline = { verdict: prev.verdict, mark: p?.edits ?? null, sameRuns: 1 };
  const { treeChanged } = deltaOptions(base, editsSoFar(latest.state, tree));
  return { end: { prev: prev.verdict, prevKey: p?.vkey ?? null, prevRuns: p?.same_cmd ?? 0, treeChanged }, prevId: prev.verdict ? p!.id : null };
}

export async function recordVerdict(engine: Engine, state: StateDir, run: RunRecord): Promise<Recorded> {
  const env = run.env;
  const key = run.ended?.run.key ?? verdictKey(engine, env.verdict);
  const logBytes = run.logBytes ?? state.logSize(run.logPath);
  return state.withLock(async () => {
    phase('locked');
    const latest = await state.readPrevious();
    const prev = run.cmd === null ? latest : await state.readPrevious(run.cmd);
    const edits = editsSoFar(latest.state, run.tree);
    phase('read-previous');
    const counters = await state.counters(key, run.cmd, prev.verdict ? prev.state : null, latest.verdict ? latest.state : null, logBytes);
    phase('counters');
    const baseline = { verdict: baselineFor(prev.verdict, prev.state?.tests_base, env.verdict), mark: prev.state?.edits ?? null, sameRuns: counters.same_cmd ?? 1 };
    const opts = deltaOptions(baseline, edits);
    // The delta made with the verdict stands when its inputs are these; else (another run recorded since it
    // was read ahead) the delta and the text are made again, in one pass over the verdict the engine holds.
    const { delta, text } = stillTrue(run.ended, prev.verdict ? (prev.state?.id ?? '') : null, opts) ?? engine.conclude(env, baseline.verdict, opts);
    env.delta = delta;
    const self: RunState & { vkey: string } = { id: run.id, tree: run.tree, tree_end: run.treeEnd, edits, cmd: run.cmd, ...counters };
    // Tests this run carries for the next (a run that reached none, tests it did not run: delta-rule.ts).
    const carried = carriedAfter(env.verdict, prev.verdict, prev.state?.tests_base, baseline.verdict, delta);
    if (carried) self.tests_base = carried;
    phase('delta');
    await state.record(env, self);
    phase('written');
    const problems = [latest.problem, prev === latest ? null : prev.problem].filter(Boolean);
    return { env, text, problem: problems.length ? problems.join('; ') : null };
  });
}

/** The delta and text made with the verdict, when made on the previous run prevId with these options. */
function stillTrue(ended: RunRecord['ended'], prevId: string | null, opts: DeltaOptions): { delta: NonNullable<RunEnded['delta']>; text: string } | null {
  const run = ended?.run;
  if (!run?.delta || run.text === null) return null;
  const ahead = ended!.ahead;
  if (ahead.prevId !== prevId || ahead.end.treeChanged !== opts.treeChanged || run.delta.repeat.same_verdict_runs !== opts.sameRuns) return null;
  return { delta: run.delta, text: run.text };
}

/** The edit count as of a run that starts with this tree, after the newest recorded run. */
function editsSoFar(latest: RunState | null, tree: string | null): number | null {
  if (latest === null) return 0;
  // State written before runs kept their end fingerprint: their start one is the best there is.
  const before = latest.tree_end ?? latest.tree;
  if (tree === null || before === null) return null;
  return (latest.edits ?? 0) + (tree === before ? 0 : 1);
}
