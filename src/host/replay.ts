// Offline replay of a recorded session: each step's verdict and delta exactly as an agent would have
// seen them, with no state on disk. Deterministic: the same session gives the same bytes.
import { readdir, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import * as v from 'valibot';
import { SbxError, issueText } from '../contract/index.js';
import type { Engine, RunResult, Verdict } from '../engine/index.js';
import { verdictOfFile, fsError } from './log-source.js';
import { readRegularTextAsync } from '../launcher/index.js';
import { baselineFor, carriedAfter, deltaAgainst, isBaseline, streak } from './state/delta-rule.js';
import { verdictKey } from './state/history.js';

const StepSchema = v.object({
  log: v.string(),
  exit: v.optional(v.nullable(v.number())),
  signal: v.optional(v.nullable(v.union([v.string(), v.number()]))),
  timed_out: v.optional(v.boolean()),
  interrupted: v.optional(v.boolean()),
  tree: v.optional(v.nullable(v.string())),
});
export type Step = v.InferOutput<typeof StepSchema>;

export async function loadSession(path: string): Promise<{ base: string; steps: Step[] }> {
  const info = await stat(path).catch((err: unknown) => {
    throw fsError(err, path);
  });
  if (info.isDirectory()) {
    const names = (await readdir(path)).filter((n) => /\.(log|txt)$/.test(n)).sort();
    if (!names.length) throw new SbxError('E_SESSION', `${path} holds no .log or .txt files; a session directory is its logs, replayed in name order`);
    const steps: Step[] = [];
    for (const n of names) {
      const exitFile = join(path, n.replace(/\.(log|txt)$/, '.exit'));
      const exit = await readRegularTextAsync(exitFile, { maxBytes: 4096 }).then(
        (t) => Number(t.trim()),
        () => null,
      );
      steps.push({ log: n, exit: Number.isInteger(exit) ? exit : null });
    }
    return { base: path, steps };
  }
  const text = await readRegularTextAsync(path, { follow: true }).catch((err: unknown) => {
    throw fsError(err, path);
  });
  const steps: Step[] = [];
  text.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      throw new SbxError('E_SESSION', `${path}:${i + 1}: not JSON; a session file has one {"log": "...", "exit": N} object per line`);
    }
    const r = v.safeParse(StepSchema, json);
    if (!r.success)
      throw new SbxError(
        'E_SESSION',
        `${path}:${i + 1}: ${issueText(r.issues)}; each line needs "log" (an absolute path, or one relative to the session file's directory) and may give "exit", "signal", "timed_out", "interrupted", "tree"`,
      );
    steps.push(r.output);
  });
  if (!steps.length) throw new SbxError('E_SESSION', `${path} has no steps`);
  return { base: dirname(path), steps };
}

export async function* replay(engine: Engine, session: { base: string; steps: Step[] }, cwd: string): AsyncGenerator<RunResult> {
  let prev: Verdict | null = null;
  let prevTree: string | null = null;
  // The tests prev carried for the next run (carriedAfter), as sbx run keeps them in its state.
  let carried: Verdict['tests'] = null;
  const keys: string[] = [];
  for (const [i, step] of session.steps.entries()) {
    // An absolute log path stays as it is; a relative one starts from the session file's directory.
    const file = isAbsolute(step.log) ? step.log : resolve(session.base, step.log);
    const opts = { exit: step.exit ?? null, signal: step.signal ?? null, timedOut: step.timed_out ?? false, interrupted: step.interrupted ?? false, log: relative(cwd, file) };
    const env = await verdictOfFile(engine, file, opts).catch((err: unknown) => {
      throw stepError(err, i + 1, step.log, session.base);
    });
    const tree = step.tree ?? null;
    const key = verdictKey(engine, env.verdict);
    const base = baselineFor(prev, carried, env.verdict);
    env.delta = deltaAgainst(engine, { verdict: base, mark: prevTree, sameRuns: streak(keys, key) }, env.verdict, tree);
    // As sbx run records it: an interrupted step is shown, but the next one is compared with the one before it.
    if (isBaseline(env.verdict)) {
      keys.push(key);
      carried = carriedAfter(env.verdict, prev, carried, base, env.delta);
      prev = env.verdict;
      prevTree = tree;
    }
    yield env;
  }
}

/** A log a step names that cannot be read: the path actually tried, and which base a relative one used. */
function stepError(err: unknown, n: number, log: string, base: string): unknown {
  if (!(err instanceof SbxError)) return err;
  const how = isAbsolute(log) ? 'an absolute "log" path, used as given' : `${JSON.stringify(log)} is relative to the session's directory ${resolve(base)}`;
  return new SbxError(err.code, `step ${n} of the session: ${err.message.replace(/; check the path.*$/, '')} (${how}); fix the step's "log" or put the file there`);
}
