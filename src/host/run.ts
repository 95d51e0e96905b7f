// `run()`: a command in the sandbox, its raw log kept in <work>/.sbx, its verdict and delta.
// The library API harnesses embed; `sbx run` is a thin shell around it.
import { resolve, join, relative, isAbsolute, sep } from 'node:path';
import { realpathSync } from 'node:fs';
import {
  diskFullError,
  isDiskFull,
  launch,
  MAX_LOG_DEFAULT,
  TAIL_BYTES,
  NO_SECCOMP_AS_ROOT,
  packageRoot,
  rootMapsAway,
  workAliasOf,
  workProblem,
  type LaunchOptions,
  type ProfileOptions,
  type StopSignal,
  SANDBOX_HOME,
} from '../launcher/index.js';
import { SbxError, signalNumber, exitForSignal, setupExit } from '../contract/index.js';
import { loadEngineNow, startEngine } from './load-engine.js';
import { warmEngine } from './warm-engine.js';
import type { Engine, RunEnded, RunResult, VerdictStream } from '../engine/index.js';
import { StateDir } from './state/store.js';
import { readAhead, recordVerdict } from './state/record.js';
import { treeFingerprint } from './state/fingerprint.js';
import { verdictOfFile } from './log-source.js';
import { followLog } from './log-follow.js';
import { commandLine } from './command-line.js';
import { phase } from './phases.js';
import { madeByRun, quarantine, scanControl, type Quarantined } from './control-files.js';
import { scanAfter, scanBefore } from './tree-scan.js';
import { refuseHomeWork } from './work-home.js';
import { defaultWork } from './work-root.js';
import { projectHome } from './sandbox-home.js';
import { planToolchains } from './toolchains.js';
export { defaultWork } from './work-root.js';

export interface RunOptions extends ProfileOptions {
  cmd: string[];
  /**
   * The work dir, mounted at /work (default: the top of the git work tree the current directory is in,
   * with the command started in the current directory; else the current directory).
   */
  work?: string;
  /** Where the command starts, relative to the work dir (default: its top, or see work). */
  cwd?: string;
  /** Wall-clock limit in seconds. */
  timeout?: number;
  /** State directory (default: <work>/.sbx). */
  state?: string;
  launcherPath?: string;
  /** Aborting stops the sandbox; the run is still recorded. An AbortSignal, or see StopSignal. */
  signal?: StopSignal;
  /** A descriptor open on a regular file: the command's stdin (LaunchOptions.stdin). Default /dev/null. */
  stdin?: number;
  /**
   * Allow a work dir that is `/`, the caller's home directory or a directory above it (refused by
   * default with E_WORK_HOME: the sandbox could write ~/.bashrc and the like). Default false.
   */
  allowHomeWork?: boolean;
  /** The engine that reads the verdict (default: sbx's own, compiled once per process). */
  engine?: Engine;
  /** @internal The path sbx was started by (the CLI's argv[1]): refused too when inside the work dir. */
  invokedAs?: string;
}

export interface RunReport {
  env: RunResult;
  /** The launcher's code when the command never ran (E_CMD_NOT_FOUND, E_NO_USERNS, ...), else null. */
  setupCode: string | null;
  /** A note about the state directory (e.g. a corrupt last.json set aside, a record that failed), or null. */
  problem: string | null;
  /**
   * env as sbx prints it (engine.render), made by the engine in the same pass as its delta; null when the
   * run was not recorded. Valid while env is unchanged.
   */
  text: string | null;
}

/** How long the sandbox runs before the engine is warmed beside it (see runReport). */
const WARM_AFTER_MS = 10;

export async function runReport(opts: RunOptions): Promise<RunReport> {
  if (!Array.isArray(opts.cmd) || opts.cmd.length === 0 || opts.cmd.some((a) => typeof a !== 'string')) {
    throw new SbxError('E_USAGE', 'no command given: pass the command and its arguments after --, e.g. sbx run -- make test');
  }
  phase('run');
  if (!opts.engine) startEngine();
  const t0 = process.hrtime.bigint(); // not performance.now(): the perf_hooks module costs a cold start milliseconds
  const place = opts.work === undefined ? defaultWork(process.cwd()) : { work: resolve(opts.work), sub: opts.cwd ?? '' };
  const work = place.work;
  const sub = place.sub
    .split('/')
    .filter((p) => p && p !== '.')
    .join('/');
  if (sub.split('/').includes('..')) throw new SbxError('E_USAGE', `cwd ${opts.cwd} must be a directory inside the work dir; fix: give a path relative to it without ..`);
  // The work dir's one check (src/launcher/work-check.ts), thrown here; launch() trusts it (workChecked).
  const bad = workProblem(work);
  if (bad) throw new SbxError(bad.code, bad.message);
  refuseSbxInside(work, opts.invokedAs);
  if (opts.seccomp === false && rootMapsAway()) throw new SbxError('E_UNSAFE_AS_ROOT', NO_SECCOMP_AS_ROOT);
  if (!opts.allowHomeWork) refuseHomeWork(work);
  const state = await new StateDir(opts.state ?? join(work, '.sbx')).open();
  phase('state-open');
  // The same command in another directory of the project is another command (its own delta).
  const cmd = sub ? `cd ${commandLine([sub])} && ${commandLine(opts.cmd)}` : commandLine(opts.cmd);
  // One pass over the tree: its fingerprint, and what the host obeys in it (.git at any depth, agent
  // settings), which is read-only for the run.
  const watched = await scanBefore(work, state.dir, opts.launcherPath);
  const before = watched.scan;
  const tree = before.tree;
  phase('fingerprint');
  const control = scanControl(work, state.dir, before.entries);
  phase('control');
  const { id, logPath } = state.newRun(true); // the launcher opens the log without O_EXCL
  const { state: _s, work: _w, cwd: _c, allowHomeWork: _h, engine: given, toolchains: useTools, invokedAs: _i, ...rest } = opts;
  // HOME is the project's own directory outside the tree, and the caller's toolchains are shown.
  const home = projectHome(work);
  const sandboxHome = home ? SANDBOX_HOME : '/tmp';
  const fixed = rest.inheritEnv !== true;
  // Where the sandbox shows the work dir at its host path too (spec.ts workAlias), asked once: the toolchain
  // roots bound below never hold the work dir nor lie in it (toolchains.ts), and what else launchOpts adds
  // lies under /work, so neither changes the answer. Paths there read as /work's in the verdict.
  const workAlias = workAliasOf({ ...rest, cmd: opts.cmd, work, logPath, ...(home ? { home } : {}) }, work).path;
  const workShown = workAlias !== null;
  const tools =
    useTools === false ? { toolchains: [], roBind: [], env: {}, notes: [] } : planToolchains({ cmd: opts.cmd, work, sub, sandboxHome, pathGiven: !fixed || rest.env?.PATH !== undefined, workShown });
  phase('toolchains');
  // The command never sees sbx's own state: under the work dir it is an empty, read-only directory.
  const rel = relative(work, state.dir);
  const stateInside = rel && !rel.startsWith('..') && !isAbsolute(rel) ? [`/work/${rel}`] : [];
  const launchOpts: LaunchOptions = {
    ...rest,
    work,
    workChecked: true,
    logPath,
    pace: `${logPath}.pace`,
    ...(sub ? { cwd: `/work/${sub}` } : {}),
    ...(home ? { home } : {}),
    roBind: [...tools.roBind, ...(rest.roBind ?? [])],
    env: { ...(fixed ? { ...(home ? {} : { HOME: sandboxHome }), ...tools.env } : {}), ...(rest.env ?? {}) },
    hideEmpty: [...(rest.hideEmpty ?? []), ...stateInside],
    protect: [...(rest.protect ?? []), ...control.protect],
  };
  const launched = launch(launchOpts); // the launcher is spawned before this returns
  // While it runs, the main thread would only wait: the previous runs' state is read ahead (taken
  // under the lock if still current) and, once the sandbox has run WARM_AFTER_MS, the engine is warmed
  // until it exits (src/host/warm-engine.ts). Not at once: a warm-up beside a short sandbox takes the
  // CPU that the launcher, and the kernel's grace periods for its mounts, need. A cold `sbx run --
  // /bin/true` (2 CPUs, 40 interleaved runs at chrt -f 10): from spawn to exit 7.8 -> 5.9 ms and the
  // whole run 14.4 -> 13.6 ms without the warm-up, though its verdict comes 1.4 ms later cold.
  let exited = false;
  // The engine has compiled since the run began (startEngine): nothing before the verdict needs it.
  const engineP = given ? Promise.resolve(given) : loadEngineNow();
  const warm = setTimeout(
    () =>
      void engineP.then(
        (e) => warmEngine(e, () => exited),
        () => undefined,
      ),
    WARM_AFTER_MS,
  );
  warm.unref();
  const done = (): void => {
    exited = true;
    clearTimeout(warm);
  };
  void launched.then(done, done);
  state.prefetch(cmd);
  // The log is read into the verdict as the command writes it (src/host/log-follow.ts): at its exit only
  // what is left is read. An output the launcher's tail holds whole is read from there instead.
  const follower = followLog(engineP, logPath, launchOpts.maxLog ?? MAX_LOG_DEFAULT, () => exited, TAIL_BYTES, launchOpts.pace ?? null, workAlias);
  const res = await launched;
  phase('launched');
  const o = res.outcome;
  o.applied.toolchains = tools.toolchains;
  o.applied.home = home;
  if (res.setupError) o.exit_code = setupExit(res.setupError.code); // the header shows what sbx exits with
  // What the run made that the host would obey is moved aside before the tree is fingerprinted again.
  let quarantined: Quarantined[] = [];
  let treeEnd = tree;
  if (!res.setupError) {
    const after = await scanAfter(work, state.dir, watched, opts.launcherPath);
    const made = madeByRun(control.entries, after.entries);
    if (made.length) quarantined = quarantine(work, state.dir, id, made);
    phase('control-end');
    // What was moved aside is no longer in the tree: its fingerprint is taken again without it.
    treeEnd = made.length ? await treeFingerprint(work, opts.launcherPath) : after.tree;
  }
  phase('fingerprint-end');
  const engine = await engineP;
  phase('engine');
  // A short run's whole output is still in the tail: the verdict reads it from there, not back from disk.
  const whole = !res.setupError && o.output_bytes === res.tail.length;
  // Stopped by the caller (`sbx run` aborts with the signal it got, e.g. Ctrl-C): the verdict names that
  // signal, not the SIGKILL the sandbox was torn down with (whose hint blames a timeout or the OOM killer).
  // Its status is interrupted (not a crash of the command's), and the next run is not compared with it.
  // A command that had exited on its own before the signal was acted on finished: that run stands.
  const interrupted = opts.signal?.aborted === true && o.exit_code === null;
  const reason: unknown = interrupted ? opts.signal!.reason : null;
  const signal = typeof reason === 'string' && signalNumber(reason) > 0 ? reason : o.signal;
  // A set-up that failed is the engine's to turn into the status (setup-failed) and setup_error.
  // The alias only where the sandbox was set up: a launch that failed before (no launcher) printed only
  // sbx's own words into the log, whose host paths are the host's.
  const opt = { exit: o.exit_code, signal, timedOut: o.timed_out, interrupted, setupError: res.setupError?.message ?? null, workAlias: o.applied.work_alias.path };
  // The outcome the envelope carries, set once its verdict is read and before it is recorded. total_ms:
  // the whole run as the caller waits for it, sbx's own work included (set-up, the tree's fingerprints,
  // the engine); wall_ms is the command's alone.
  const outcome = (): RunResult['outcome'] => ({
    ...o,
    setup_code: res.setupError?.code ?? null,
    total_ms: Math.round(Number(process.hrtime.bigint() - t0) / 1e6),
    quarantined,
    ...(state.vanished ? { state_vanished: true } : {}),
    ...(tools.notes.length ? { tool_notes: tools.notes } : {}),
  });
  const setupCode = res.setupError?.code ?? null;
  // What the verdict reads: the whole log (the tail holds all of a short run's). Should the engine fail on
  // it (E_ENGINE: a bug in sbx), the run still counts: its verdict is read from the log's last 64 KiB (the
  // launcher's tail), else from the exit alone, recorded like any other, and a note names the log.
  const sources: ReadSource[] = whole ? [res.tail, EXIT_ONLY] : [null, res.tail, EXIT_ONLY];
  // What was read as the command ran: the stream that holds the whole log with the rest read now, else
  // (none read, or the exit reads the lines differently) null, and the log is read back from the start.
  let streamed: VerdictStream | null = null;
  if (whole || res.setupError) await follower.abandon();
  else streamed = await follower.ready({ ...opt, log: logPath });
  // The previous runs as they are now, read without the lock (src/host/state/record.ts readAhead): the
  // engine ends the verdict with its streak key, its delta against them and its text in one call, and
  // the record checks under the lock that no other run came in between.
  const ahead = readAhead(state, cmd, tree);
  phase('read-ahead');
  const read = async (bytes: ReadSource): Promise<RunResult> => (bytes ? engine.verdict(bytes, { ...opt, log: logPath }) : verdictOfFile(engine, logPath, { ...opt, log: logPath }));
  /** The verdict of a stream that holds the whole log, with its outcome, in one call with its delta and text when read ahead. */
  const end = (s: VerdictStream): { env: RunResult; ended: RunEnded | null } => {
    if (!ahead) {
      const env = s.end();
      env.outcome = outcome();
      return { env, ended: null };
    }
    const ended = s.end({ ...ahead.end, outcome: outcome() }) as RunEnded | RunResult;
    if ('key' in ended) return { env: ended.env, ended };
    // An engine of the caller's whose end() takes no run (written before it did): its verdict alone.
    ended.outcome = outcome();
    return { env: ended, ended: null };
  };
  let failed: string | null = null;
  for (const bytes of sources) {
    // One straight line: the verdict, its outcome, delta and text in one engine call, then the record
    // (src/host/state/record.ts). The log read back from disk (the rare path) gives its verdict alone.
    let env: RunResult | null = null;
    try {
      let ended: RunEnded | null = null;
      const s = bytes === null ? streamed : engine.stream({ ...opt, log: logPath });
      streamed = null; // used once: a second try reads the log back
      if (s && bytes) s.push(bytes);
      if (s) ({ env, ended } = end(s));
      else {
        env = await read(null);
        env.outcome = outcome();
      }
      phase('verdict');
      const rec = await recordVerdict(engine, state, {
        id,
        logPath,
        cmd,
        tree,
        treeEnd,
        env,
        ...(ended && ahead ? { ended: { ahead, run: ended } } : {}),
        ...(bytes ? { logBytes: bytes.length } : {}),
      });
      return { ...rec, setupCode, problem: joinProblems(failed && partialVerdict(failed, bytes!, logPath), rec.problem) };
    } catch (err) {
      if (isEngineFailure(err)) {
        failed ??= err.message;
        continue;
      }
      // The run happened and its log is on disk: a state that cannot be written costs the delta and
      // the history line, never the verdict.
      const why = err instanceof SbxError ? err.message : (err as Error).message;
      // A full disk is named (E_DISK_FULL: which disk, what to do); what was written stays as it was.
      const full = isDiskFull(err) ? diskFullError(err, state.dir, "this run's record (last.json, history.jsonl)") : null;
      const notRecorded = full
        ? `this run was not recorded: ${full.code}: ${full.message}; its log is ${logPath}, the state as before this run`
        : `this run was not recorded in ${state.dir} (${why}); its log is ${logPath}`;
      for (const b of env ? [bytes] : sources.slice(sources.indexOf(bytes))) {
        try {
          // The verdict already read stands, without the delta the state could not give.
          const got = env ?? (await read(b));
          got.delta = null;
          got.outcome = outcome();
          return { env: got, setupCode, problem: joinProblems(failed && partialVerdict(failed, b!, logPath), notRecorded), text: null };
        } catch (e2) {
          if (!isEngineFailure(e2)) throw e2;
          failed ??= e2.message;
        }
      }
      break;
    }
  }
  throw new SbxError('E_ENGINE', `${failed ?? 'verdict engine failed'}; the run was not recorded; its log is ${logPath}`);
}

/** A log the verdict reads: null for the file on disk, else bytes in hand (EXIT_ONLY: none, the exit alone). */
type ReadSource = Uint8Array | null;
const EXIT_ONLY = new Uint8Array(0);

/** The engine trapped on its input (a bug in sbx), as opposed to a state or a file that cannot be used. */
function isEngineFailure(err: unknown): err is SbxError {
  return err instanceof SbxError && err.code === 'E_ENGINE';
}

/** The note for a verdict read from less than the whole log, because the engine failed on the whole. */
function partialVerdict(failed: string, read: Uint8Array, logPath: string): string {
  const what = read.length === 0 ? 'the exit status alone' : `the log's last ${Math.ceil(read.length / 1024)} KiB alone`;
  return `${failed}; the verdict below reads ${what}; the whole log is ${logPath}`;
}

function joinProblems(...problems: Array<string | null | false>): string | null {
  const p = problems.filter((x): x is string => typeof x === 'string' && x.length > 0);
  return p.length ? p.join('; ') : null;
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
  // A command that ran and then failed to start another (`sh -c 'mkae test'`: the shell's own 127) reads
  // setup-failed too: it exits with its own code, which the header shows; only sbx's set-up maps one.
  if (env.verdict.status === 'setup-failed' && (setupCode !== null || typeof o?.exit_code !== 'number')) return setupExit(setupCode ?? '');
  if (o?.exit_code !== null && o?.exit_code !== undefined) return o.exit_code;
  if (o?.signal) return exitForSignal(o.signal);
  return env.verdict.status === 'pass' ? 0 : 1;
}

/**
 * sbx itself must not live in the work dir: the sandbox could rewrite it, and the next `sbx` the
 * caller starts would run that code on the host.
 */
export function refuseSbxInside(work: string, invokedAs?: string): void {
  const root = packageRoot();
  if (root === null) return;
  let pkg: string;
  let realWork: string;
  try {
    pkg = realpathSync.native(root);
    realWork = realpathSync.native(work);
  } catch {
    return;
  } // a missing work dir is reported by workProblem
  if (pkg === realWork || pkg.startsWith(`${realWork}${sep}`)) {
    throw new SbxError(
      'E_WORK_HAS_SBX',
      `the work dir ${realWork} contains sbx itself (${pkg}): sandboxed code could rewrite it and the next sbx would run that on the host; install sbx outside the project (npm install -g, or npm link from its checkout) and run it from there`,
    );
  }
  // The path sbx was started by (node_modules/.bin/sbx, a link into a global install) counts too:
  // a link inside the work dir can be pointed elsewhere by the sandbox.
  if (invokedAs) {
    const abs = resolve(invokedAs);
    if (abs === work || abs.startsWith(`${work}${sep}`) || abs.startsWith(`${realWork}${sep}`)) {
      throw new SbxError(
        'E_WORK_HAS_SBX',
        `sbx was started as ${abs}, inside the work dir ${realWork}: sandboxed code could replace it and the next sbx would run that on the host; install sbx outside the project (npm install -g, or npm link from its checkout) and run it from there`,
      );
    }
  }
}
