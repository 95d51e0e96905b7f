// `verdict()`: a recorded log (a file, or a byte stream such as stdin) into the run-result envelope;
// with a state directory, the log is kept there first and the delta to the previous run added; with a
// JUnit XML report, its tests merged in. The library behind `sbx verdict`, usable without the CLI.
import { basename, dirname, resolve } from 'node:path';
import { realpathSync } from 'node:fs';
import { SbxError } from '../contract/index.js';
import type { RunResult, VerdictOptions } from '../engine/index.js';
import { loadEngine } from './load-engine.js';
import { fsError, openLogFile, verdictOfFile, verdictOfStdin } from './log-source.js';
import { openRegularAsync } from '../launcher/index.js';
import { StateDir } from './state/store.js';
import { recordVerdict } from './state/record.js';
import { treeFingerprint } from './state/fingerprint.js';

export interface VerdictRequest extends Omit<VerdictOptions, 'log'> {
  /**
   * The log: a file path, or its bytes as they come (process.stdin for `-`: any Node Readable is one).
   * Standard types only in the public API: a consumer needs no @types/node.
   */
  log: string | AsyncIterable<Uint8Array>;
  /** Keep the log in this state directory and add the delta to its previous run. */
  state?: string;
  /** The work tree whose fingerprint tells an edit from none (default: the parent of a .sbx state dir). */
  work?: string;
  /** A JUnit XML report of the same run: its tests are merged in. */
  junit?: string;
  /**
   * With state: the command that wrote the log, when known (a hook distilling a client's output), so
   * the delta is against that command's previous run; unknown (null) by default.
   */
  cmd?: string | null;
}

export interface VerdictReport {
  env: RunResult;
  /** A note about the state directory (a corrupt last.json set aside), or null. */
  problem: string | null;
}

export async function verdictReport(req: VerdictRequest): Promise<VerdictReport> {
  const engine = await loadEngine();
  const opts: VerdictOptions = { exit: req.exit ?? null, signal: req.signal ?? null, timedOut: req.timedOut ?? false, ...(req.interrupted ? { interrupted: true } : {}) };
  // A log `sbx run` recorded (WORK/.sbx/logs/...) names the work dir at its host path as that run's verdict read it: as /work.
  const alias = workOfLog(req);
  if (alias !== null) opts.workAlias = alias;
  let env: RunResult;
  let problem: string | null = null;
  if (req.state) {
    const state = await new StateDir(req.state).open();
    const work = req.work ?? (basename(state.dir) === '.sbx' ? dirname(state.dir) : undefined);
    const tree = work ? await treeFingerprint(resolve(work)) : null;
    const from = typeof req.log === 'string' ? (await openLogFile(req.log)).createReadStream() : req.log;
    const { id, logPath } = state.newRun();
    await state.saveLog(logPath, from);
    // A recorded log ran outside, so the tree at its end is now's.
    const read = await verdictOfFile(engine, logPath, { ...opts, log: logPath });
    const rec = await recordVerdict(engine, state, { id, logPath, cmd: req.cmd ?? null, tree, treeEnd: tree, env: read });
    problem = rec.problem;
    env = rec.env;
  } else {
    env = typeof req.log === 'string' ? await verdictOfFile(engine, req.log, { ...opts, log: req.log }) : await verdictOfStdin(engine, opts, req.log);
  }
  if (req.junit) {
    const junit = req.junit;
    // A report the sandboxed tests wrote: a regular file, never a FIFO or a link (src/launcher/safe-read.ts).
    const xml = await readJunit(junit);
    if (xml.length === 0) throw new SbxError('E_JUNIT_EMPTY', `${junit} is empty: give the JUnit XML report the test run wrote (e.g. pytest --junitxml=report.xml)`);
    try {
      env = engine.mergeJunit(env, xml);
    } catch (err) {
      // The engine names what is wrong and where; the report's path says which file.
      if (err instanceof SbxError && err.code === 'E_JUNIT_INVALID') throw new SbxError(err.code, `${junit}: ${err.message}`);
      throw err;
    }
  }
  return { env, problem };
}

/** The work dir a log belongs to: --work, the parent of a .sbx state dir, or of the .sbx/logs/ the log is in; its real path. */
function workOfLog(req: VerdictRequest): string | null {
  const log = typeof req.log === 'string' ? resolve(req.log) : null;
  const inState = (dir: string): string | null => (basename(dir) === '.sbx' ? dirname(dir) : null);
  const work = req.work ?? (req.state ? inState(resolve(req.state)) : null) ?? (log && basename(dirname(log)) === 'logs' ? inState(dirname(dirname(log))) : null);
  if (work === null) return null;
  try {
    return realpathSync.native(resolve(work));
  } catch {
    return resolve(work);
  }
}

async function readJunit(path: string): Promise<Uint8Array> {
  const fh = await openRegularAsync(path).catch((err: unknown) => {
    throw fsError(err, path);
  });
  try {
    return await fh.readFile();
  } finally {
    await fh.close();
  }
}
