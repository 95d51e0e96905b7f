// `run()`: a command in the sandbox, its raw log kept in <work>/.sbx, its verdict and delta.
// The library API harnesses embed; `sbx run` is a thin shell around it.
import { resolve, join, relative, isAbsolute } from 'node:path';
import { stat } from 'node:fs/promises';
import { launch, type LaunchOptions, type ProfileOptions } from '../launcher/index.js';
import { SbxError } from './errors.js';
import { loadEngine } from './load-engine.js';
import type { RunResult } from './engine.js';
import { StateDir } from './state/store.js';
import { recordVerdict } from './state/record.js';
import { treeFingerprint } from './state/fingerprint.js';
import { signalNumber } from './signals.js';
import { setupExit } from './setup-exit.js';

export interface RunOptions extends ProfileOptions {
  cmd: string[];
  /** The work dir, mounted at /work (default: the current directory). */
  work?: string;
  /** Wall-clock limit in seconds. */
  timeout?: number;
  /** State directory (default: <work>/.sbx). */
  state?: string;
  launcherPath?: string;
  signal?: AbortSignal;
}

export interface RunReport {
  env: RunResult;
  /** The launcher's code when the command never ran (E_CMD_NOT_FOUND, E_NO_USERNS, ...), else null. */
  setupCode: string | null;
  /** A note about the state directory (e.g. a corrupt last.json set aside), or null. */
  problem: string | null;
}

export async function runReport(opts: RunOptions): Promise<RunReport> {
  if (!Array.isArray(opts.cmd) || opts.cmd.length === 0 || opts.cmd.some((a) => typeof a !== 'string')) {
    throw new SbxError('E_USAGE', 'no command given: pass the command and its arguments after --, e.g. sbx run -- make test');
  }
  const work = resolve(opts.work ?? '.');
  const info = await stat(work).catch(() => null);
  if (!info?.isDirectory()) throw new SbxError('E_WORK_MISSING', `work dir ${work} does not exist or is not a directory; create it or pass --work DIR`);
  const engine = await loadEngine();
  const state = await new StateDir(opts.state ?? join(work, '.sbx')).open();
  const tree = treeFingerprint(work);
  const { id, logPath } = state.newRun();
  const { state: _s, work: _w, ...rest } = opts;
  // The command never sees sbx's own state: its logs and last verdict are hidden when under the work dir.
  const rel = relative(work, state.dir);
  const hide = rel && !rel.startsWith('..') && !isAbsolute(rel) ? [`/work/${rel}`] : [];
  const launchOpts: LaunchOptions = { ...rest, work, logPath, hide: [...(rest.hide ?? []), ...hide] };
  const res = await launch(launchOpts);
  const o = res.outcome;
  if (res.setupError) o.exit_code = setupExit(res.setupError.code); // the header shows what sbx exits with
  // Stopped by the caller (`sbx run` aborts with the signal it got, e.g. Ctrl-C): the verdict names that
  // signal, not the SIGKILL the sandbox was torn down with (whose hint blames a timeout or the OOM killer).
  const reason: unknown = opts.signal?.aborted ? opts.signal.reason : null;
  const signal = typeof reason === 'string' && signalNumber(reason) > 0 ? reason : o.signal;
  const rec = await recordVerdict(engine, state, id, logPath, tree, { exit: o.exit_code, signal, timedOut: o.timed_out }, (env) => {
    env.outcome = { ...o, setup_code: res.setupError?.code ?? null };
    if (res.setupError) {
      env.verdict.status = 'setup-failed';
      env.verdict.setup_error = res.setupError.message;
    }
  });
  return { ...rec, setupCode: res.setupError?.code ?? null };
}

/** Runs opts.cmd in the sandbox and resolves to the run-result envelope (outcome, verdict, delta, log). */
export async function run(opts: RunOptions): Promise<RunResult> {
  return (await runReport(opts)).env;
}

/**
 * The exit code that mirrors the command's: its own, 128+signal when killed; when it never ran, 127 for a
 * command not found, 126 for one that cannot be executed, 125 for any other set-up failure (setupExit).
 */
export function mirrorExit(env: RunResult, setupCode: string | null = null): number {
  const o = env.outcome as { exit_code?: number | null; signal?: string | null } | null;
  if (env.verdict.status === 'setup-failed') return setupExit(setupCode ?? '');
  if (o?.exit_code !== null && o?.exit_code !== undefined) return o.exit_code;
  if (o?.signal) return 128 + Math.max(signalNumber(o.signal), 0);
  return env.verdict.status === 'pass' ? 0 : 1;
}

