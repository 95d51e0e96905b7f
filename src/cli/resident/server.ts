// `sbx daemon`: the resident sbx of one install for one user. It holds the warm engine, the resident
// launcher (sbx-launch --serve) and the loaded CLI, and runs `sbx run` and the agent hooks for
// native/client.c, each request in-process with the client's cwd, environment, stdin and streams
// (context.ts), many at once (sbx run's state lock still makes runs in one work dir take turns).
//
// Who may ask: the socket is in a directory only this user can enter (place.ts), and every request
// carries the key the server wrote at start into a file only this user can read. (Node cannot read
// SO_PEERCRED of a peer; the client checks the server's with it.) Anything the server cannot run as
// the client's own Node would (another protocol, a process-level setting that differs: request.ts)
// is declined, and the client runs the Node CLI itself. It exits when idle (SBX_DAEMON_IDLE seconds,
// default 600), on SIGTERM, and when the install was rebuilt under it (the first client to notice is
// told to start a new one).
import { createServer, connect, type Socket } from 'node:net';
import { closeSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { SbxError } from '../../contract/index.js';
import { createEngine, type Engine } from '../../engine/index.js';
import wasmBytes from '../../../build/sbx.wasm';
import { warmEngine, phase, takePhases } from '../../host/index.js';
import { launcherPath, startResident } from '../../launcher/index.js';
import { runCommandLine, type SubCommands } from '../start.js';
import type { Redirect } from '../io-redirect.js';
import { calls, installCallViews, type Call } from './context.js';
import { frame, FrameReader, type Frame } from './protocol.js';
import { packageRoot, residentPlace, type Place } from './place.js';
import { absolutePaths, keyMatches, mismatch, parseHeader, type Request } from './request.js';
import { hookRunner } from '../../integrations/index.js';

const SUBS: SubCommands = {
  run: () => import('../commands/run.js').then((m) => m.default),
  host: () => import('../commands/host.js').then((m) => m.default),
  hook: () => import('../commands/hook.js').then((m) => m.default),
};
const SIGNALS = new Set(['SIGINT', 'SIGTERM', 'SIGHUP']);

export interface DaemonOptions {
  /** The CLI file this process runs (process.argv[1]): names the install. */
  cli: string;
  /** The spawn lock native/client.c handed over (released once this server listens). */
  lockFd: number | null;
  idleMs: number;
}

const log = (line: string): void => {
  try {
    process.stderr.write(`${new Date().toISOString()} sbx daemon[${process.pid}]: ${line}\n`);
  } catch {
    /* no log */
  }
};

/** The files whose change means this process runs an old sbx. */
function stamp(root: string): string {
  return ['dist/cli-main.cjs', 'build/sbx.wasm', 'build/sbx-launch', 'build/sbx-client']
    .map((f) => {
      try {
        const s = statSync(join(root, f));
        return `${s.ino}:${s.size}:${s.mtimeMs}`;
      } catch {
        return '-';
      }
    })
    .join(' ');
}

/**
 * True when a server answers on sock, or may (EAGAIN: its backlog is full, as under many clients at
 * once): only a socket no one listens on (or none) is taken over, never a busy server's.
 */
const answers = (sock: string): Promise<boolean> =>
  new Promise((ok) => {
    const c = connect(sock);
    c.once('connect', () => {
      c.destroy();
      ok(true);
    });
    c.once('error', (err: NodeJS.ErrnoException) => ok(err.code !== 'ENOENT' && err.code !== 'ECONNREFUSED'));
  });

export async function serveResident(o: DaemonOptions): Promise<number> {
  const root = packageRoot(o.cli);
  const place = residentPlace(root);
  if (!place)
    throw new SbxError(
      'E_NO_RESIDENT_DIR',
      `no private directory for the resident sbx's socket (neither $XDG_RUNTIME_DIR/sbx nor /tmp/sbx-${process.getuid?.()} is a directory of yours that only you can enter); remove or fix the one that is in the way`,
    );
  if (await answers(place.sock)) {
    log(`another resident sbx already serves ${place.sock}`);
    releaseLock(o.lockFd);
    return 0;
  }
  try {
    unlinkSync(place.sock);
  } catch {
    /* none left behind */
  }

  let cgroup = '';
  try {
    cgroup = readFileSync('/proc/self/cgroup', 'utf8');
  } catch {
    /* none: compared as '' */
  }
  const own = { env: { ...process.env }, umask: process.umask(), groups: [process.getegid?.() ?? 0, ...(process.getgroups?.() ?? [])], cgroup };
  const built = stamp(root);
  const key = randomBytes(32).toString('hex');

  // Engines: one per request in flight, reused (the compiled module is shared: a new instance is warm).
  const module = new WebAssembly.Module(wasmBytes);
  const pool: Engine[] = [];
  const first = await createEngine({ wasm: module });
  warmEngine(first);
  pool.push(first);
  installCallViews(() => {
    const e = pool.pop();
    return e ? Promise.resolve(e) : createEngine({ wasm: module });
  });
  void startResident(launcherPath());
  await Promise.all(Object.values(SUBS).map((load) => load()));
  await hookRunner();

  let inflight = 0;
  let connections = 0;
  let closing = false;
  let idle: NodeJS.Timeout | null = null;
  const server = createServer((sock) => onConnection(sock));
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(place.sock, ok);
  });
  chmodSync(place.sock, 0o600);
  const sockIno = statSync(place.sock).ino;
  // The key once this server listens: one that lost the race to listen (a second server started
  // meanwhile) leaves the winner's key, else every client would be refused by the winner until it exits.
  const tmpKey = `${place.key}.${process.pid}`;
  writeFileSync(tmpKey, `${key}\n${process.pid}\n`, { mode: 0o600 });
  renameSync(tmpKey, place.key);
  releaseLock(o.lockFd);
  log(`serving ${place.sock} for ${root} (idle exit after ${o.idleMs / 1000} s)`);

  const arm = (): void => {
    if (idle) clearTimeout(idle);
    idle = null;
    if (closing) {
      // Exiting: once no command is running and the last answer has gone out (a client that keeps
      // its socket open after that is not waited for long).
      if (inflight === 0 && connections === 0) process.exit(0);
      if (inflight === 0) setTimeout(() => process.exit(0), 2000).unref();
      return;
    }
    if (inflight === 0 && connections === 0) idle = setTimeout(() => shutdown('idle'), o.idleMs);
  };
  const shutdown = (why: string): void => {
    if (closing) return;
    closing = true;
    log(`exiting: ${why}`);
    server.close();
    removeOurs(place, sockIno, key);
    arm();
  };
  for (const s of ['SIGTERM', 'SIGINT'] as const) process.on(s, () => shutdown(s));
  process.on('SIGHUP', () => {});
  // A fault in one request's code must not end the others': it is logged, and that request ends.
  process.on('uncaughtException', (err) => log(`uncaught: ${err?.stack ?? err}`));
  process.on('unhandledRejection', (err) => log(`unhandled rejection: ${(err as Error)?.stack ?? err}`));
  arm();

  function onConnection(sock: Socket): void {
    connections++;
    if (idle) clearTimeout(idle);
    const reader = new FrameReader();
    let req: Request | null = null;
    let started = false;
    let finished = false;
    let gone = false;
    const input: Buffer[] = [];
    let pending: NodeJS.Signals | null = null;
    const listeners = new Set<(sig: NodeJS.Signals) => void>();
    let call: Call | null = null;

    const raise = (sig: NodeJS.Signals): void => {
      if (!call || listeners.size === 0) {
        pending = sig;
        return;
      }
      const c = call;
      calls.run(c, () => {
        for (const l of [...listeners]) l(sig);
      });
    };
    const decline = (why: string): void => {
      log(`declined: ${why}`);
      sock.end(frame('F', why));
    };
    sock.on('error', () => {});
    sock.on('close', () => {
      clearTimeout(late);
      gone = true;
      connections--;
      if (started && !finished) raise('SIGHUP'); // the client is gone: stop its run, as a hangup would
      arm();
    });
    // A client sends its whole request at once: one that has not within 10 s is dropped.
    const late = setTimeout(() => {
      if (!started) sock.destroy();
    }, 10_000);
    late.unref();
    sock.on('data', (chunk: Buffer) => {
      for (const f of reader.push(chunk)) onFrame(f);
      if (reader.bad) sock.destroy();
    });

    function onFrame(f: Frame): void {
      if (f.type === 'H' && !req) {
        phase('r-header');
        req = parseHeader(f.payload);
        if (!req) return decline('a header this server cannot read');
        if (!keyMatches(req.key, key)) {
          log('refused a client without the key');
          return decline('refused: not the key of this server');
        }
        if (closing) return decline('restart: this server is exiting');
        if (stamp(root) !== built) {
          decline('restart: sbx was rebuilt since this server started');
          return shutdown('sbx was rebuilt');
        }
        phase('r-stamp');
        const why = mismatch(req, own);
        if (why) {
          req = null;
          return decline(why);
        }
        phase('r-checked');
        return;
      }
      if (!req) return;
      if (f.type === 'I' && !started) {
        input.push(Buffer.from(f.payload));
        return;
      }
      if (f.type === 'E' && !started) {
        void start(req);
        return;
      }
      if (f.type === 'S') {
        const sig = f.payload.toString();
        if (SIGNALS.has(sig)) raise(sig as NodeJS.Signals);
      }
    }

    async function start(r: Request): Promise<void> {
      phase('r-start');
      started = true;
      clearTimeout(late); // it drops only a client that has not started: not to be kept 10 s per run
      inflight++;
      const { argv, env } = absolutePaths(r);
      const stdin = Buffer.concat(input);
      input.length = 0;
      const io: Redirect = {
        write: (fd, bytes) => {
          if (gone) return;
          // Held until this tick's writes are done: the verdict's lines and the exit frame that follows them
          // go out in one write, one wake-up of the client (it was one each: 3 a run of /bin/true, now 2).
          if (!sock.writableCorked) {
            sock.cork();
            process.nextTick(() => sock.uncork());
          }
          // In frames of at most 1 MiB (the client takes up to MAX_FRAME).
          for (let at = 0; at < bytes.length; at += 1 << 20) sock.write(frame(fd === 1 ? 'O' : 'R', bytes.subarray(at, at + (1 << 20))));
        },
        stdin: (async function* () {
          yield stdin;
        })(),
        onSignal: (fn) => {
          listeners.add(fn);
          if (pending) {
            const s = pending;
            pending = null;
            queueMicrotask(() => raise(s));
          }
          return () => {
            listeners.delete(fn);
          };
        },
      };
      const c: Call = { cwd: r.cwd, env, io };
      call = c;
      sock.write(frame('A'));
      let code: number;
      try {
        code = await calls.run(c, () => runCommandLine(SUBS, argv));
        // SBX_PHASES=1 (the client's and this server's alike): the marks on the client's stderr, as the
        // Node CLI prints them (src/cli/start.ts), the server's own (r-…) among them; marks of calls that
        // overlap mix.
        phase('r-done');
        const ph = takePhases();
        if (ph) io.write(2, Buffer.from(ph));
      } catch (err) {
        log(`request failed: ${(err as Error)?.stack ?? err}`);
        io.write(2, Buffer.from(`sbx: internal error in the resident sbx: ${(err as Error)?.message ?? err}; rerun with SBX_RESIDENT=0 and report it\n`));
        code = 70;
      }
      finished = true;
      if (c.engine)
        void c.engine.then(
          (e) => pool.push(e),
          () => {},
        );
      if (!gone) sock.end(frame('X', String(code)));
      inflight--;
      arm();
    }
  }
  return new Promise<number>(() => {}); // ends with process.exit, from arm()
}

function releaseLock(fd: number | null): void {
  if (fd === null) return;
  try {
    closeSync(fd);
  } catch {
    /* not open */
  }
}

/** Removes the socket and key if they are still this server's (a newer server may have replaced them). */
function removeOurs(place: Place, sockIno: number, key: string): void {
  try {
    if (statSync(place.sock).ino === sockIno) unlinkSync(place.sock);
  } catch {
    /* gone */
  }
  try {
    if (readFileSync(place.key, 'utf8').startsWith(`${key}\n`)) unlinkSync(place.key);
  } catch {
    /* gone */
  }
}
