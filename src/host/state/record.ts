// A run's verdict, already read and its outcome set by the caller, against the state directory: the
// delta to the previous run of the same command, then the record. What it writes is the envelope as
// given plus the delta; it calls nothing back.
//
// "Did the user edit anything?" is answered by the work tree's fingerprint at this run's start
// against the newest run's (of any command) at its end: what a run writes itself (build output,
// caches) is in its end fingerprint, so it never counts as an edit. Every run stores the number of
// edits seen so far; the delta's tree_changed says whether that number moved since the previous run
// of this command.
import type { Engine, RunResult } from '../../engine/index.js';
import { verdictKey } from './history.js';
import type { RunState, StateDir } from './store.js';
import { deltaOptions } from './delta-rule.js';
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
}

export async function recordVerdict(engine: Engine, state: StateDir, run: RunRecord): Promise<Recorded> {
  const env = run.env;
  const key = verdictKey(env.verdict);
  const logBytes = run.logBytes ?? state.logSize(run.logPath);
  return state.withLock(async () => {
    phase('locked');
    const latest = await state.readPrevious();
    const prev = run.cmd === null ? latest : await state.readPrevious(run.cmd);
    const edits = editsSoFar(latest.state, run.tree);
    phase('read-previous');
    const counters = await state.counters(key, run.cmd, prev.verdict ? prev.state : null, latest.verdict ? latest.state : null, logBytes);
    phase('counters');
    // The delta and the rendered text in one pass of the engine over the verdict it holds.
    const baseline = { verdict: prev.verdict, mark: prev.state?.edits ?? null, sameRuns: counters.same_cmd ?? 1 };
    const { delta, text } = engine.conclude(env, prev.verdict, deltaOptions(baseline, edits));
    env.delta = delta;
    const self: RunState = { id: run.id, tree: run.tree, tree_end: run.treeEnd, edits, cmd: run.cmd, ...counters };
    phase('delta');
    await state.record(env, self);
    phase('written');
    const problems = [latest.problem, prev === latest ? null : prev.problem].filter(Boolean);
    return { env, text, problem: problems.length ? problems.join('; ') : null };
  });
}

/** The edit count as of a run that starts with this tree, after the newest recorded run. */
function editsSoFar(latest: RunState | null, tree: string | null): number | null {
  if (latest === null) return 0;
  // State written before runs kept their end fingerprint: their start one is the best there is.
  const before = latest.tree_end ?? latest.tree;
  if (tree === null || before === null) return null;
  return (latest.edits ?? 0) + (tree === before ? 0 : 1);
}
