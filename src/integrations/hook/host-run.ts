// `sbx host`: what a pre-hook rewrites a build/test line to when that line must stay on the host (a
// host-table command on it: `git pull && make`). The command runs as the client would have run it: on
// the host, no sandbox, with the caller's environment and cwd, stdin /dev/null (as every agent's shell
// tool gives it). Its output goes to a file as it comes (the raw log is on disk before anything reads
// it); at its end the output is what the post-hook's replacement used to be, but with the exit code
// known: up to distilBytes the raw output itself (stdout to stdout, stderr to stderr, in the order they
// came), above that the verdict of the run recorded in <work>/.sbx (distil.ts). The exit code is the
// command's (128+N when a signal ended it). A signal to sbx (Ctrl-C, or the resident client's caller
// going away) goes to the command (its process group, in the resident sbx); the run is then recorded as
// interrupted.
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { exitForSignal } from '../../contract/index.js';
import { childProcess, nodeOs, type StopSignal } from '../../launcher/index.js';
import { distil } from './distil.js';

export interface HostRun {
  /** argv of the command (the rewrite gives `bash -c LINE`). */
  cmd: string[];
  /** The project: the run is recorded in <work>/.sbx. */
  work: string;
  /** The line as the model wrote it, the run's name in the history. */
  line: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Seconds; past it the command's process group is killed and the verdict says timeout. */
  timeout?: number;
  distilBytes: number;
  stop: StopSignal;
  out: (fd: 1 | 2, bytes: Buffer) => void;
  /**
   * Start the command in a process group of its own, signalled as a whole: for the resident sbx, whose
   * group is not the caller's. A cold `sbx host` leaves it in the caller's group, so that a client which
   * kills the call's group (a timeout, SIGKILL) kills the command too.
   */
  ownGroup?: boolean;
}

/** How long output is still taken after the command line exited, from what it left running. */
const LINGER_MS = 200;

/** Runs the command; resolves to its exit code once the output or verdict is written. */
export async function hostRun(o: HostRun): Promise<number> {
  const dir = mkdtempSync(join(nodeOs().tmpdir(), 'sbx-host-'));
  const logPath = join(dir, 'raw.log');
  const fd = openSync(logPath, 'wx', 0o600);
  try {
    const held: { fd: 1 | 2; bytes: Buffer }[] = [];
    let size = 0;
    const child = childProcess().spawn(o.cmd[0]!, o.cmd.slice(1), { cwd: o.cwd, env: o.env, stdio: ['ignore', 'pipe', 'pipe'], detached: Boolean(o.ownGroup) });
    const take = (to: 1 | 2) => (chunk: Buffer) => {
      writeSync(fd, chunk);
      size += chunk.length;
      // Held while the whole output may still be printed as it is; past distilBytes only the log keeps it.
      if (size <= o.distilBytes) held.push({ fd: to, bytes: chunk });
      else held.length = 0;
    };
    child.stdout!.on('data', take(1));
    child.stderr!.on('data', take(2));
    const group = (sig: NodeJS.Signals): void => {
      try {
        if (!o.ownGroup) child.kill(sig);
        else if (child.pid) process.kill(-child.pid, sig);
      } catch {
        /* gone */
      }
    };
    let timedOut = false;
    const timer = o.timeout ? setTimeout(() => ((timedOut = true), group('SIGKILL')), o.timeout * 1000) : null;
    const onStop = (): void => group((o.stop.reason as NodeJS.Signals | undefined) ?? 'SIGTERM');
    o.stop.addEventListener('abort', onStop);
    const end = await new Promise<{ code: number | null; signal: NodeJS.Signals | null; error?: Error }>((ok) => {
      child.once('error', (error) => ok({ code: 127, signal: null, error }));
      child.once('close', (code, signal) => ok({ code, signal }));
      // A process the line left running in the background (`server & make test`) holds the pipes open:
      // once the line itself has exited, its output is taken for a moment more, then the call ends, the
      // background process going on as it would in the client's shell.
      child.once('exit', (code, signal) =>
        setTimeout(() => {
          child.stdout!.destroy();
          child.stderr!.destroy();
          ok({ code, signal });
        }, LINGER_MS),
      );
    });
    if (timer) clearTimeout(timer);
    o.stop.removeEventListener('abort', onStop);
    if (end.error) {
      const line = Buffer.from(`sbx host: cannot start ${o.cmd[0]}: ${end.error.message}\n`);
      writeSync(fd, line);
      size += line.length;
      if (size <= o.distilBytes) held.push({ fd: 2, bytes: line });
    }
    closeSync(fd);
    const code = end.signal ? exitForSignal(end.signal) : (end.code ?? 1);
    const interrupted = o.stop.aborted;
    const small = size <= o.distilBytes && !timedOut && !interrupted;
    let rendered: string | null = null;
    try {
      rendered = await distil({ log: logPath, exit: end.signal ? null : code, signal: end.signal, timedOut, interrupted, work: o.work, cmd: o.line });
    } catch (err) {
      // The command has run: its output must reach the caller even when the run cannot be recorded.
      o.out(2, Buffer.from(`sbx host: the run could not be recorded in ${join(o.work, '.sbx')} (${(err as Error).message}); the raw output follows\n`));
      o.out(1, readFileSync(logPath));
      return code;
    }
    // Small: recorded too (sbx history shows it), but the model reads the output itself.
    if (small) for (const h of held) o.out(h.fd, h.bytes);
    else o.out(1, Buffer.from(rendered));
    return interrupted ? exitForSignal(String(o.stop.reason)) : code;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
