// launch(): runs one command in the sandbox. Builds the spec, spawns sbx-launch with an argv
// array (never a shell) and descriptors only: the raw log as its fd 1 and 2 (the launcher relays
// the command's stdout and stderr into it as they arrive, native/relay.c), its report file as fd 3,
// the seccomp program as fd 4, the spec as fd 5. Once it has exited, the report is read and the
// log's tail read back.
import { makeDirs } from './make-dirs.js';
import { closeSync, constants, existsSync, fstatSync, ftruncateSync, mkdirSync, openSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { diagnose } from './diagnose.js';
import { readTail } from './file-tail.js';
import { SbxError } from '../contract/index.js';
import { emptyApplied, toOutcome } from './outcome.js';
import { seccompProgram, seccompSupported } from './seccomp.js';
import { buildSpec, MIN_MAX_LOG, NO_SECCOMP_AS_ROOT, rootMapsAway, SYSTEM_PATHS } from './spec.js';
import { LAUNCHER_PROTO, parseStatus } from './status.js';
import { packageRoot } from './package-root.js';
import { residentFor } from './resident.js';
import { spawnLauncher, type Exit } from './spawn-launcher.js';
import { anonymousFile } from './temp-file.js';
import { parseAllowHost } from './allow-host.js';
import { openEgress } from './egress.js';
import { diskFullError, freeBytes, isDiskFull } from './disk-full.js';
import { plantableSymlink, plantedMessage } from './trusted-path.js';
import { workProblem } from './work-check.js';
import type { LaunchOptions, LaunchResult, Outcome, SetupError } from './types.js';

export const TAIL_BYTES = 64 * 1024;

let defaultLauncher: string | null = null;

/** $SBX_LAUNCHER, else build/sbx-launch of the package this module belongs to. */
export function launcherPath(): string {
  if (process.env.SBX_LAUNCHER) return process.env.SBX_LAUNCHER;
  if (defaultLauncher) return defaultLauncher;
  const root = packageRoot();
  return (defaultLauncher = root ? join(root, 'build', 'sbx-launch') : join(dirname(fileURLToPath(import.meta.url)), '..', 'build', 'sbx-launch'));
}

const bpfFds = new Map<boolean, number>();

/** build/seccomp-<arch>[-ptrace].bpf: the program as the build wrote it (scripts/build-host.js). */
export function prebuiltSeccompPath(allowPtrace: boolean, arch: string = process.arch): string | null {
  const root = packageRoot();
  return root ? join(root, 'build', `seccomp-${arch}${allowPtrace ? '-ptrace' : ''}.bpf`) : null;
}

/**
 * A descriptor of the seccomp program, opened once per process and variant and handed to every
 * launcher as fd 4 (it reads it with pread from offset 0): the file the build wrote beside the
 * launcher (same trust as the launcher itself; a cold start then builds no program), else a nameless
 * temp file with the program built here (in $TMPDIR, else in `dir`). Null when neither can be had.
 */
function seccompFd(allowPtrace: boolean, dir: string): number | null {
  const known = bpfFds.get(allowPtrace);
  if (known !== undefined) return known;
  const pre = prebuiltSeccompPath(allowPtrace);
  if (pre) {
    try {
      const fd = openSync(pre, constants.O_RDONLY | constants.O_NOFOLLOW);
      bpfFds.set(allowPtrace, fd);
      return fd;
    } catch {
      /* not built: make one */
    }
  }
  for (const where of [tmpdir(), dir]) {
    try {
      const fd = anonymousFile(where);
      const prog = seccompProgram(allowPtrace);
      writeSync(fd, prog, 0, prog.length, 0);
      bpfFds.set(allowPtrace, fd);
      return fd;
    } catch {
      /* try the next */
    }
  }
  return null;
}

/**
 * How to build the launcher, in sbx's own checkout (by absolute path): the message reaches a model or a
 * user working in some other project, where \`npm run build:native\` would run that project's scripts.
 */
function buildNative(bin: string): string {
  const root = packageRoot() ?? dirname(dirname(bin));
  return `run \`cd ${shellWord(root)} && npm run build:native\` (in sbx's checkout, not your project)`;
}

const shellWord = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replaceAll("'", "'\\''")}'`);

/** Room the launcher's report and spec need where they are made (it reserves 64 KiB for its report). */
const HAND_OVER_ROOM = 256 * 1024;

/**
 * The spec (written) and the report file the launcher is handed, nameless, in /dev/shm (memory), else
 * in `dir` (the state's logs/), else where there is room: a disk too full for them there would cost
 * the run its report (seen as a launcher to rebuild) or the spec's write (an internal error). $TMPDIR
 * is tried last; with room nowhere, E_DISK_FULL names the state's disk. Memory first: on a disk the
 * last close of a nameless file frees it through the file system's journal (ext4: off its orphan list,
 * and the report's reserved blocks, native/launch.c open_output), a wait of 0.25-4.8 ms (median 0.56,
 * strace -T of 12 cold `sbx run`s) between the sandbox's exit and the verdict; on tmpfs ~0.01 ms.
 */
function handOver(dir: string, spec: Buffer): { spec: number; status: number } | { fail: SbxError } {
  let last: unknown = { code: 'ENOSPC' };
  const places = [...new Set(['/dev/shm', dir, tmpdir()])];
  for (const where of places) {
    if (freeBytes(where) < HAND_OVER_ROOM) continue;
    const fds: number[] = [];
    try {
      fds.push(anonymousFile(where), anonymousFile(where));
      writeSync(fds[0]!, spec, 0, spec.length, 0);
      return { spec: fds[0]!, status: fds[1]! };
    } catch (err) {
      for (const fd of fds) closeSync(fd);
      last = err;
      if (where === dir && !isDiskFull(err)) break;
    }
  }
  if (isDiskFull(last)) return { fail: diskFullError(last, dir, "the sandbox launcher's spec and report") };
  const why = (last as NodeJS.ErrnoException).code ?? (last as Error).message;
  return { fail: new SbxError('E_SETUP', `cannot make a temporary file in ${dir} (${why}); fix: free space there or pass another --state`) };
}

/** 'ENOSPC' when the file system holding fd has no room left (the report could not be written), else ''. */
function fullAt(fd: number): string {
  return freeBytes(`/proc/self/fd/${fd}`) < 4096 ? 'ENOSPC' : '';
}

function failed(code: string, message: string, logPath: string): LaunchResult {
  const outcome: Outcome = {
    exit_code: null,
    signal: null,
    timed_out: false,
    wall_ms: 0,
    setup_ms: 0,
    rusage: { user_ms: 0, sys_ms: 0, max_rss_kb: 0 },
    output_bytes: 0,
    stdout_bytes: 0,
    stderr_bytes: 0,
    log_max_bytes: null,
    log_dropped_bytes: 0,
    log_unwritten_bytes: 0,
    log_error: null,
    applied: emptyApplied(),
  };
  // The command never ran: its log says why, so that whoever reads the log finds the reason there.
  const text = Buffer.from(`sbx: ${code}: ${message}\n`);
  try {
    makeDirs(dirname(logPath));
    const fd = openSync(logPath, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW, 0o644);
    try {
      writeSync(fd, text);
    } finally {
      closeSync(fd);
    }
  } catch {
    // no log then; the setup error itself still reaches the caller
  }
  return { outcome, setupError: { code, message }, tail: new Uint8Array(text), logPath };
}

function checkOptions(opts: LaunchOptions): void {
  if (!Array.isArray(opts.cmd) || opts.cmd.length === 0 || !opts.cmd.every((a) => typeof a === 'string'))
    throw new SbxError('E_BAD_OPTIONS', 'launch: cmd must be a non-empty array of strings; fix: pass e.g. ["make", "test"]');
  if (opts.cmd.some((a) => a.includes('\0'))) throw new SbxError('E_BAD_OPTIONS', 'launch: an argument contains a NUL byte, which execve cannot pass; fix: remove it');
  if (typeof opts.work !== 'string' || typeof opts.logPath !== 'string') throw new SbxError('E_BAD_OPTIONS', 'launch: work and logPath are required paths; fix: pass both');
  if (opts.timeout !== undefined && !(opts.timeout > 0)) throw new SbxError('E_BAD_OPTIONS', `launch: timeout must be a positive number of seconds, got ${opts.timeout}`);
  if (opts.maxLog !== undefined && !(Number.isSafeInteger(opts.maxLog) && opts.maxLog >= MIN_MAX_LOG))
    throw new SbxError('E_BAD_OPTIONS', `launch: maxLog must be a whole number of bytes >= ${MIN_MAX_LOG} (64 KiB), got ${opts.maxLog}`);
  if (opts.pids !== undefined && !(Number.isInteger(opts.pids) && opts.pids >= 8)) throw new SbxError('E_BAD_OPTIONS', `launch: pids must be an integer >= 8, got ${opts.pids}`);
  if (opts.cwd !== undefined && ((opts.cwd !== '/work' && !opts.cwd.startsWith('/work/')) || opts.cwd.split('/').includes('..')))
    throw new SbxError('E_BAD_OPTIONS', `launch: cwd ${opts.cwd} must be /work or a directory below it; fix: e.g. /work/sub`);
  for (const p of [...(opts.hide ?? []), ...(opts.hideEmpty ?? []), ...(opts.protect ?? [])])
    if (!p.startsWith('/') || p === '/' || p.split('/').includes('..')) throw new SbxError('E_BAD_OPTIONS', `launch: hide path ${p} must be an absolute path below /; fix: e.g. /work/.sbx`);
  for (const m of [...(opts.bind ?? []), ...(opts.roBind ?? [])])
    if (!m.dst.startsWith('/') || m.dst === '/' || m.dst.split('/').includes('..'))
      throw new SbxError('E_BAD_MOUNT', `launch: bind destination ${m.dst} must be an absolute path below /; fix: e.g. /opt/tool`);
  if (opts.allowHosts !== undefined && (!Array.isArray(opts.allowHosts) || !opts.allowHosts.every((h) => typeof h === 'string')))
    throw new SbxError('E_BAD_OPTIONS', 'launch: allowHosts must be an array of host patterns; fix: pass e.g. ["registry.example.com"]');
  for (const h of opts.allowHosts ?? []) parseAllowHost(h);
  if (opts.allowHosts?.length && opts.net === true)
    throw new SbxError(
      'E_BAD_OPTIONS',
      "--allow-host and --net do not go together: --net shares the whole host network, --allow-host keeps the sandbox's own and lets named hosts through; fix: drop one",
    );
}

/** Runs opts.cmd in the sandbox. Setup problems come back as `setupError`, never as a throw. */
export async function launch(opts: LaunchOptions): Promise<LaunchResult> {
  checkOptions(opts);
  if (!opts.allowHosts?.length) return launchWith(opts, null);
  // --allow-host: the proxy runs for as long as the sandbox, outside it.
  const egress = await openEgress(opts.allowHosts, opts.launcherPath ?? launcherPath());
  let res: LaunchResult | null = null;
  try {
    res = await launchWith(opts, egress.socket);
  } finally {
    const network = await egress.finish();
    if (res) res.outcome.applied.network = network;
  }
  return res;
}

async function launchWith(opts: LaunchOptions, proxySocket: string | null): Promise<LaunchResult> {
  const logPath = resolve(opts.logPath);
  const work = resolve(opts.work);
  // run() has checked the work dir already (src/host/run.ts); a caller of launch() alone has it checked here.
  const bad = opts.workChecked ? null : workProblem(work);
  if (bad) return failed(bad.code, bad.message, logPath);
  const planted = [...(opts.bind ?? []), ...(opts.roBind ?? [])]
    .map((m) => resolve(m.src))
    .map((p) => ({ p, link: plantableSymlink(p) }))
    .find((x) => x.link !== null);
  if (planted?.link) return failed('E_SYMLINK_PATH', plantedMessage('bind source', planted.p, planted.link), logPath);
  for (const m of [...(opts.bind ?? []), ...(opts.roBind ?? [])]) {
    if (!existsSync(m.src)) return failed('E_BIND_MISSING', `bind source ${m.src} does not exist on the host; fix: create it or drop the --bind/--ro-bind`, logPath);
    // Inside a read-only system bind the mount point must already exist: it cannot be created.
    const under = SYSTEM_PATHS.find((p) => m.dst === p || m.dst.startsWith(`${p}/`));
    if (under && !existsSync(m.dst))
      return failed(
        'E_BAD_MOUNT',
        `bind destination ${m.dst} is inside the read-only ${under} and does not exist there; fix: mount it elsewhere (e.g. /${m.dst.split('/').pop()}) or create ${m.dst} on the host`,
        logPath,
      );
  }
  const seccomp = opts.seccomp !== false;
  if (!seccomp && rootMapsAway()) return failed('E_UNSAFE_AS_ROOT', NO_SECCOMP_AS_ROOT, logPath);
  if (seccomp && !seccompSupported())
    return failed('E_NO_SECCOMP_TABLE', `sbx has no seccomp syscall table for ${process.arch}; fix: pass --no-seccomp (weaker containment) or add the table to src/launcher/seccomp.ts`, logPath);
  const bin = opts.launcherPath ?? launcherPath();
  if (!existsSync(bin)) return failed('E_NO_LAUNCHER', `the sandbox launcher ${bin} is missing: it was not built; fix: ${buildNative(bin)} (needs cc)`, logPath);

  const spec = buildSpec(opts, work, proxySocket);
  const dir = dirname(logPath);
  // A log path inside a tree the sandbox writes must not be a symlink it planted. Its directory is
  // made when the open says it is missing: a run()'s logs/ is there already, and a mkdir first
  // cost every run a syscall.
  // No O_TRUNC: a log may be a file reused empty (src/host/state/spare-logs.ts), and ext4 writes out at
  // close the data of a file truncated to nothing (auto_da_alloc); one with bytes in it is emptied below.
  const logFlags = constants.O_RDWR | constants.O_CREAT | constants.O_NOFOLLOW;
  let log: number;
  try {
    try {
      log = openSync(logPath, logFlags, 0o644);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      makeDirs(dir);
      log = openSync(logPath, logFlags, 0o644);
    }
    try {
      if (fstatSync(log).size > 0) ftruncateSync(log, 0);
    } catch (err) {
      closeSync(log);
      throw err;
    }
  } catch (err) {
    if (!isDiskFull(err)) throw err;
    return failed('E_DISK_FULL', diskFullError(err, logPath, "the run's log").message, logPath);
  }
  const own: number[] = [];
  try {
    const allowPtrace = opts.allowPtrace === true;
    const bpf = seccomp ? seccompFd(allowPtrace, dir) : -1;
    if (bpf === null)
      return failed(
        'E_SETUP',
        `cannot hand the seccomp program to the launcher (no build/seccomp-${process.arch}.bpf and no temporary file in ${tmpdir()} or ${dir}); fix: rebuild with \`npm run build:host\`, or pass --no-seccomp (weaker containment)`,
        logPath,
      );
    // Forked by the resident server (src/launcher/resident.ts), the report coming back in its reply;
    // else spawned from here, the report in a file.
    // A file for stdin goes with a direct launch: the resident server's requests carry no descriptor for it.
    const stdin = fileStdin(opts.stdin);
    const resident = stdin < 0 ? residentFor(bin) : null;
    let statusFd = -1;
    let running: { exited: Promise<Exit & { report?: string }>; kill(): void };
    if (resident) {
      running = resident.run(spec.argv, log, bpf);
    } else {
      // The spec goes in a nameless file (fd 5), not argv: /proc/PID/cmdline is readable by every user
      // of the host, and the spec holds the command's environment (--env values may be secrets).
      const files = handOver(dir, Buffer.from(`${spec.argv.join('\0')}\0`));
      if ('fail' in files) return failed(files.fail.code, files.fail.message, logPath);
      own.push(files.spec, (statusFd = files.status));
      const specFd = files.spec;
      // The launcher gets no environment of ours: the command's is in the spec.
      running = spawnLauncher(bin, ['--spec-fd', '5'], [stdin, log, log, statusFd, bpf, specFd]);
    }
    const onAbort = (): void => running.kill();
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    // The launcher exits once every process of the sandbox is dead and its report is written.
    const exit = await running.exited.finally(() => opts.signal?.removeEventListener('abort', onAbort));
    if (exit.error && resident) return failed('E_LAUNCHER', `${exit.error} while running the command; fix: run it again (a resident launcher is started afresh)`, logPath);
    if (exit.error) return failed('E_NO_LAUNCHER', `cannot run the sandbox launcher ${bin} (${exit.error}); fix: ${buildNative(bin)}`, logPath);
    const reportText = exit.report ?? Buffer.from(readTail(statusFd, fstatSync(statusFd).size, 1 << 20)).toString('utf8');
    const tail = readTail(log, fstatSync(log).size, TAIL_BYTES);
    const parsed = parseStatus(reportText);
    const proto = parsed.ok ? parsed.status.proto : parsed.proto;
    if (proto !== undefined && proto !== LAUNCHER_PROTO)
      return failed('E_LAUNCHER_VERSION', `the sandbox launcher ${bin} speaks protocol ${String(proto)}, this sbx needs ${LAUNCHER_PROTO}; fix: ${buildNative(bin)}`, logPath);
    if (!parsed.ok && statusFd >= 0 && isDiskFull({ code: fullAt(statusFd) })) {
      const err = diskFullError({ code: 'ENOSPC' }, dir, "the sandbox launcher's report");
      return failed('E_DISK_FULL', err.message, logPath);
    }
    if (!parsed.ok) {
      const why = exit.code === 125 ? Buffer.from(tail).toString('utf8').trim().split('\n').pop() : parsed.why;
      return failed('E_LAUNCHER', `the sandbox launcher gave no usable report (${why}, exit ${exit.code ?? exit.signal}); fix: ${buildNative(bin)}`, logPath);
    }
    const status = parsed.status;
    const outcome = toOutcome(status, opts.inheritEnv !== true, spec.landlock, spec.workAlias);
    outcome.applied.ptrace_allowed = outcome.applied.seccomp && allowPtrace;
    if (status.interrupted && outcome.signal === null) outcome.signal = 'SIGKILL';
    const setupError: SetupError | null = diagnose(status, opts.cmd[0] ?? '', spec.env, work, spec.workAlias);
    return { outcome, setupError, tail, logPath };
  } finally {
    for (const fd of own) closeSync(fd);
    closeSync(log);
  }
}

/**
 * fd when it is open on a regular file, else -1 (the command gets /dev/null): never a terminal, whose input
 * a sandboxed process could push to the host's shell (TIOCSTI), nor a pipe a caller may hold open for ever.
 * Read from the file's start, as a `< file` redirect gives it.
 */
function fileStdin(fd: number | undefined): number {
  if (fd === undefined || fd < 0) return -1;
  try {
    if (!fstatSync(fd).isFile()) return -1;
  } catch {
    return -1;
  }
  return fd;
}
