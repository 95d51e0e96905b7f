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

/** Spawns `file args` with fd i = fds[i] (-1: nothing open there). A spawn that fails resolves `exited` with its error. */
export function spawnLauncher(file: string, args: string[], fds: number[]): Launched {
  const P = process.env.SBX_SPAWN === 'child_process' ? null : processWrap();
  if (!P) return viaChildProcess(file, args, fds);
  const p = new P();
  let done: (e: Exit) => void = () => {};
  const exited = new Promise<Exit>((r) => (done = r));
  p.onexit = (code, signal) => {
    p.close();
    done(signal ? { code: null, signal } : { code, signal: null });
  };
  const err = p.spawn({
    file,
    args: [file, ...args],
    envPairs: [],
    stdio: fds.map((fd) => (fd < 0 ? { type: 'ignore' } : { type: 'fd', fd })),
  });
  if (err !== 0) {
    p.close();
    return { exited: Promise.resolve({ code: null, signal: null, error: errnoName(err) }), kill: () => {} };
  }
  return { exited, kill: () => void p.kill(15) };
}

function viaChildProcess(file: string, args: string[], fds: number[]): Launched {
  const { spawn } = childProcess();
  const child = spawn(file, args, { stdio: fds.map((fd) => (fd < 0 ? 'ignore' : fd)), env: {} });
  const exited = new Promise<Exit>((r) => {
    child.once('error', (e: NodeJS.ErrnoException) => r({ code: null, signal: null, error: e.code ?? e.message }));
    child.once('exit', (code, signal) => r({ code, signal }));
  });
  return { exited, kill: () => void child.kill('SIGTERM') };
}

function errnoName(err: number): string {
  try {
    return getSystemErrorName(err);
  } catch {
    return `errno ${-err}`;
  }
}
