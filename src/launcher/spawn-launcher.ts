// Spawns sbx-launch with descriptors only, no pipes, and resolves with its exit. In a cold process
// node:child_process (loading it, the first spawn() and its stream objects) costs more than the sandbox
// takes: bench/startup.js's two floors, Node plus one launcher, are 1.05-1.08x `node -e 0` spawned
// through Node's process_wrap binding and 1.12-1.19x through child_process (~6 ms here). So the launcher
// is spawned through that binding when Node lets us, and through child_process otherwise (a Node that
// refuses process.binding, e.g. under --permission).
// Either way the child gets exactly the given fds (fd i = fds[i], -1 for none) and no environment.
import { childProcess } from './on-demand.js';
import { getSystemErrorName } from 'node:util';

export interface Exit {
  code: number | null;
  signal: string | null;
  /** Set when it could not be spawned at all: the errno's name (ENOENT, EACCES, ...). */
  error?: string;
}

export interface Launched {
  exited: Promise<Exit>;
  /**
   * With `done`: settles when the launcher closes the pipe it got as fd `fds.length` (its status is
   * written then; it may still be reaping the sandbox's init), or when it exits.
   */
  done?: Promise<void>;

  /** SIGTERM: the launcher then kills its sandbox and reports it interrupted. */
  kill(): void;
}

interface ProcessWrap {
  spawn(o: object): number;
  onexit: (code: number, signal: string) => void;
  kill(sig: number): number;
  close(): void;
}

type ProcessCtor = new () => ProcessWrap;
let wrap: ProcessCtor | null | undefined;

function processWrap(): ProcessCtor | null {
  if (wrap !== undefined) return wrap;
  const quiet = process.noDeprecation;
  try {
    // DEP0111 is documentation-only in Node 20-24: no warning unless --pending-deprecation, which we
    // silence for this one call; the binding is the one child_process itself is built on.
    process.noDeprecation = true;
    const b = (process as unknown as { binding(name: string): { Process?: ProcessCtor } }).binding('process_wrap');
    wrap = typeof b.Process === 'function' ? b.Process : null;
  } catch {
    wrap = null;
  } finally {
    process.noDeprecation = quiet;
  }
  return wrap;
}

interface PipeWrap {
  onread: () => void;
  readStart(): number;
  readStop(): number;
  close(): void;
}

type PipeCtor = new (type: number) => PipeWrap;
let pipeWrap: { Pipe: PipeCtor; socket: number } | null | undefined;

/** Node's pipe handle (the one child_process's 'pipe' stdio is made of), or null. */
function pipeCtor(): { Pipe: PipeCtor; socket: number } | null {
  if (pipeWrap !== undefined) return pipeWrap;
  const quiet = process.noDeprecation;
  try {
    process.noDeprecation = true;
    const b = (process as unknown as { binding(name: string): { Pipe?: PipeCtor; constants?: { SOCKET?: number } } }).binding('pipe_wrap');
    pipeWrap = typeof b.Pipe === 'function' && typeof b.constants?.SOCKET === 'number' ? { Pipe: b.Pipe, socket: b.constants.SOCKET } : null;
  } catch {
    pipeWrap = null;
  } finally {
    process.noDeprecation = quiet;
  }
  return pipeWrap;
}

/**
 * Spawns `file args` with fd i = fds[i] (-1: nothing open there), and with `done` a pipe as the next fd
 * (`done` settles when the child closes it). A spawn that fails resolves `exited` with its error.
 */
export function spawnLauncher(file: string, args: string[], fds: number[], withDone = false): Launched {
  const P = process.env.SBX_SPAWN === 'child_process' ? null : processWrap();
  const pipes = withDone && P ? pipeCtor() : null;
  if (!P || (withDone && !pipes)) return viaChildProcess(file, args, fds, withDone);
  const p = new P();
  const pipe = pipes ? new pipes.Pipe(pipes.socket) : null;
  let done: (e: Exit) => void = () => {};
  const exited = new Promise<Exit>((r) => (done = r));
  p.onexit = (code, signal) => {
    p.close();
    done(signal ? { code: null, signal } : { code, signal: null });
  };
  const stdio: object[] = fds.map((fd) => (fd < 0 ? { type: 'ignore' } : { type: 'fd', fd }));
  if (pipe) stdio.push({ type: 'pipe', handle: pipe });
  const err = p.spawn({ file, args: [file, ...args], envPairs: [], stdio });
  if (err !== 0) {
    p.close();
    pipe?.close();
    const failed = Promise.resolve({ code: null, signal: null, error: errnoName(err) });
    return { exited: failed, done: pipe ? failed.then(() => {}) : undefined, kill: () => {} };
  }
  tracked(exited);
  let closed: () => void = () => {};
  const doneP = pipe ? new Promise<void>((r) => (closed = r)) : undefined;
  if (pipe) {
    // The launcher writes nothing there: the first read is its end (or an error: the same to us).
    pipe.onread = () => {
      pipe.readStop();
      pipe.close();
      closed();
    };
    pipe.readStart();
    void exited.then(() => closed());
  }
  return { exited, done: doneP, kill: () => void p.kill(15) };
}

function viaChildProcess(file: string, args: string[], fds: number[], done: boolean): Launched {
  const { spawn } = childProcess();
  const stdio: ('ignore' | 'pipe' | number)[] = fds.map((fd) => (fd < 0 ? 'ignore' : fd));
  if (done) stdio.push('pipe');
  const child = spawn(file, args, { stdio, env: {} });
  const exited = new Promise<Exit>((r) => {
    child.once('error', (e: NodeJS.ErrnoException) => r({ code: null, signal: null, error: e.code ?? e.message }));
    child.once('exit', (code, signal) => r({ code, signal }));
  });
  tracked(exited);
  const pipe = done ? child.stdio[fds.length] : null;
  const doneP = done
    ? new Promise<void>((r) => {
        pipe?.once('close', () => r());
        pipe?.once('error', () => r());
        void exited.then(() => r());
        (pipe as { resume?(): void } | null)?.resume?.();
      })
    : undefined;
  return { exited, done: doneP, kill: () => void child.kill('SIGTERM') };
}

/** Launchers not exited yet: their reports may be taken before they have reaped their sandbox's init. */
const live = new Set<Promise<unknown>>();

function tracked(exited: Promise<Exit>): Promise<Exit> {
  live.add(exited);
  void exited.then(() => live.delete(exited));
  return exited;
}

/**
 * Resolves once every launcher spawned here has exited (each reaps its sandbox's init, then exits on its
 * own): awaited by whatever ends the process with process.exit(), so that none is left orphaned.
 */
export function launchersExited(): Promise<void> {
  return live.size === 0 ? Promise.resolve() : Promise.all(live).then(() => launchersExited());
}

function errnoName(err: number): string {
  try {
    return getSystemErrorName(err);
  } catch {
    return `errno ${-err}`;
  }
}
