// The resident spawner: `sbx-launch --serve`, started once by a process that runs sandboxes again
// and again (the MCP server, a harness, any second launch() in one process), forks each launcher
// from itself. Forking Node costs it ~1-2 ms per run (its address space is copied), forking the
// small server costs microseconds (bench/startup.js measures launch() and run() either way). A
// cold, one-run process (the CLI, a hook call) never starts it.
//
// Protocol (native/serve.c): length-prefixed frames of NUL-terminated fields. The log and the seccomp
// program are passed as our descriptor numbers; the server reopens them through /proc/<our pid>/fd,
// so it writes exactly the files we hold. The report comes back in the reply.
import type { ChildProcess } from 'node:child_process';
import { writeSync } from 'node:fs';
import { signalName } from '../contract/index.js';
import { childProcess } from './on-demand.js';
import { LAUNCHER_PROTO } from './status.js';
import type { Exit } from './spawn-launcher.js';

export interface ResidentExit extends Exit {
  /** The launcher's JSON report, as it wrote it to its fd 3 ('' when it wrote none). */
  report: string;
}

interface Run {
  exited: Promise<ResidentExit>;
  kill(): void;
}

/** After this many direct launches in one process, the next ones go through a resident server. */
const START_AFTER = 2;

class Resident {
  private readonly child: ChildProcess;
  private readonly waiting = new Map<string, (e: ResidentExit) => void>();
  private buf: Buffer = Buffer.alloc(0);
  private seq = 0;
  /** Set when its hello came, with the protocol this sbx speaks: until then, launches are direct. */
  ready = false;
  dead = false;
  /** Resolves true once ready, false if it died first. */
  readonly started: Promise<boolean>;
  private settle: (ok: boolean) => void = () => {};

  constructor(bin: string) {
    this.started = new Promise((done) => (this.settle = done));
    const { spawn } = childProcess();
    this.child = spawn(bin, ['--serve'], { stdio: ['pipe', 'pipe', 'ignore'], env: {} });
    const gone = (why: string): void => {
      this.dead = true;
      this.settle(false);
      for (const done of this.waiting.values()) done({ code: null, signal: null, report: '', error: why });
      this.waiting.clear();
    };
    this.child.once('error', (e) => gone(`the resident launcher failed: ${e.message}`));
    this.child.once('exit', (code, signal) => gone(`the resident launcher exited (${signal ?? code})`));
    this.child.stdin!.on('error', () => {}); // its death is reported through 'exit'
    this.child.stdout!.on('data', (c: Buffer) => this.read(c));
    // Held until its hello (or death), so that whoever awaits `started` is not left hanging.
    void this.started.then(() => {
      if (this.waiting.size === 0) this.idle();
    });
    // Stopped and reaped before this process exits (when its work is done, not at process.exit()):
    // an orphan would be left to the machine's init to reap, which in some containers never comes.
    process.once('beforeExit', () => this.stop());
  }

  /** Ends the server (EOF on its input) and holds this process until it has exited and been reaped. */
  stop(): void {
    if (this.dead) return;
    this.child.ref();
    this.child.stdin!.end();
  }

  run(spec: string[], log: number, bpf: number): Run {
    const id = String(++this.seq);
    const exited = new Promise<ResidentExit>((done) => this.waiting.set(id, done));
    this.busy();
    this.send(['r', id, String(log), String(bpf), ...spec]);
    return {
      exited: exited.finally(() => {
        if (this.waiting.size === 0) this.idle();
      }),
      kill: () => this.send(['k', id]),
    };
  }

  private send(fields: string[]): void {
    if (this.dead) return;
    const body = Buffer.from(`${fields.join('\0')}\0`);
    const frame = Buffer.allocUnsafe(4 + body.length);
    frame.writeUInt32LE(body.length, 0);
    body.copy(frame, 4);
    // Written to the pipe in place when the stream holds nothing (one syscall, where the stream's
    // write took ~0.15 ms of each warm run: bench/startup.js); what the pipe cannot take now (EAGAIN,
    // a part of a long frame) goes through the stream, after what was written, so frames stay in order.
    const stdin = this.child.stdin!;
    const fd = (stdin as unknown as { _handle?: { fd?: number } })._handle?.fd;
    let sent = 0;
    if (typeof fd === 'number' && fd >= 0 && stdin.writableLength === 0) {
      try {
        sent = writeSync(fd, frame);
      } catch {
        /* EAGAIN, or a server that is gone: the stream says which */
      }
    }
    if (sent < frame.length) stdin.write(sent ? frame.subarray(sent) : frame);
  }

  private read(chunk: Buffer): void {
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    while (this.buf.length >= 4) {
      const len = this.buf.readUInt32LE(0);
      if (this.buf.length < 4 + len) break;
      const [id = '', code = '', sig = '', report = ''] = this.buf
        .subarray(4, 4 + len)
        .toString('utf8')
        .split('\0');
      this.buf = this.buf.subarray(4 + len);
      if (id === 'hello') {
        if (code === String(LAUNCHER_PROTO)) {
          this.ready = true;
          this.settle(true);
        } else this.child.kill('SIGKILL'); // another build's launcher: direct launches report the mismatch
        continue;
      }
      const done = this.waiting.get(id);
      this.waiting.delete(id);
      const n = Number(sig);
      done?.(n > 0 ? { code: null, signal: signalName(n) ?? `SIG${n}`, report } : { code: Number(code), signal: null, report });
    }
  }

  // While a run is out, the server keeps this process alive; idle, it does not (it exits at our EOF).
  private busy(): void {
    this.child.ref();
    (this.child.stdout as unknown as { ref(): void }).ref();
  }

  private idle(): void {
    this.child.unref();
    (this.child.stdout as unknown as { unref(): void }).unref();
    (this.child.stdin as unknown as { unref(): void }).unref();
  }
}

const servers = new Map<string, Resident>();
const launches = new Map<string, number>();
const deaths = new Map<string, number>();
const MAX_RESTARTS = 3;

/**
 * The resident server for `bin` when this process has launched often enough to want one (it is
 * then started, for the next launch), else null. SBX_SPAWN=resident starts it at once, SBX_SPAWN set
 * to anything else never does.
 */
export function residentFor(bin: string): Resident | null {
  const mode = process.env.SBX_SPAWN;
  if (mode && mode !== 'resident') return null;
  const known = servers.get(bin);
  if (known?.ready && !known.dead) return known;
  if (known && !known.dead) return null; // not ready yet
  if (known?.dead) {
    // Killed, or another build's: started again, a few times at most.
    servers.delete(bin);
    const d = (deaths.get(bin) ?? 0) + 1;
    deaths.set(bin, d);
    if (d < MAX_RESTARTS) setImmediate(() => start(bin));
    return null;
  }
  const n = (launches.get(bin) ?? 0) + 1;
  launches.set(bin, n);
  if (mode === 'resident') {
    start(bin);
    return null;
  } // used from the launch after its hello
  if (n === START_AFTER) setImmediate(() => start(bin));
  return null;
}

function start(bin: string): Resident | null {
  const known = servers.get(bin);
  if (known && !known.dead) return known;
  try {
    const r = new Resident(bin);
    servers.set(bin, r);
    return r;
  } catch {
    return null;
  }
}

/**
 * Starts the resident server for `bin` now (a long-lived caller such as the MCP server does, so that
 * even its first runs skip forking Node); resolves whether it is serving.
 */
export function startResident(bin: string): Promise<boolean> {
  if (process.env.SBX_SPAWN && process.env.SBX_SPAWN !== 'resident') return Promise.resolve(false);
  return start(bin)?.started ?? Promise.resolve(false);
}
