// The run's log read as the launcher writes it, into an engine stream, so that once the command exits
// only what is left of it is read (a 1 GB log's verdict is then ready as the command ends, not seconds
// after). The stream is begun before the exit is known; the engine says at the end whether the lines
// read so far read the same under the real one (VerdictStream.exitKnown): when not, or on any problem,
// the caller reads the log back as before (verdictOfFile), so the verdict is always the one that path gives.
//
// The launcher's cap (native/log.c, --max-log CAP): the first CAP/2 bytes of the file are written once,
// in order, and never again; past CAP the rest of the file is a ring, put in order (a marker line, then
// the output's end) only as the launcher exits. So only the head is read while the command runs; the
// rest of the file is read after it, once it is in order: at most CAP - CAP/2 bytes (32 MiB by default).
//
// The pace (native/pace.c): how far the log may be written is kept in the file `pace` (8 bytes,
// little-endian): the read position plus what the engine reads in PACE_MS at the rate it has been reading,
// updated after every read. The launcher stops draining the command's output while the log is past it, so a
// command that prints faster than the engine reads waits for it, as it would for a slow terminal, and the
// verdict is ready about PACE_MS of work after the command exits, whatever it printed. All ones in the
// file tell the launcher to wait no more (the head is read: the rest is read after the exit).
import { closeSync, constants, fstatSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs';
import type { Engine, VerdictOptions, VerdictStream } from '../engine/index.js';

/** Read and fed per turn of the event loop, so the launcher's exit is seen between slices. */
const SLICE = 4 << 20;
/** How often the log's size is looked at while nothing new is in it. */
const POLL_MS = 5;
/** The engine's work the launcher may be ahead of it by, and that window's bounds in bytes. */
const PACE_MS = 30;
const PACE_MIN = 1 << 20;
const PACE_MAX = 64 << 20;

export interface LogFollower {
  /**
   * Once the launcher has exited: the stream that holds the whole log (what is left of it read now), for
   * the caller to end (VerdictStream.end), or null when there is none to give (nothing was read while the
   * command ran, the stream failed, or the exit makes what was read read differently): the caller reads
   * the log back then.
   */
  ready(opts: VerdictOptions): Promise<VerdictStream | null>;
  /** The stream, if any, is dropped (the verdict comes from elsewhere: a short run's tail, a set-up failure). */
  abandon(): Promise<void>;
}

/**
 * Follows logPath (the launcher's log, with cap `cap`) until exited() is true. A stream is begun only
 * once the log is longer than `atLeast` bytes (a shorter output's verdict reads the launcher's tail).
 * `pace`: the launcher's --pace file (LaunchOptions.pace), made once the stream begins, removed at the end.
 */
export function followLog(engineP: Promise<Engine>, logPath: string, cap: number, exited: () => boolean, atLeast: number, pace: string | null = null): LogFollower {
  const head = Math.floor(cap / 2);
  let fd = -1;
  let paceFd = -1;
  const at = new DataView(new ArrayBuffer(8));
  // The engine's rate as it has been reading (bytes per ms, a moving average of its pushes).
  let rate = 0;
  /** Tells the launcher how far the log may be written, from `read` (-1: no limit any more). */
  const tell = (read: number): void => {
    if (paceFd < 0) return;
    const window = rate > 0 ? Math.min(PACE_MAX, Math.max(PACE_MIN, rate * PACE_MS)) : PACE_MIN;
    at.setBigUint64(0, read < 0 ? 0xffffffffffffffffn : BigInt(Math.floor(read + window)), true);
    try {
      writeSync(paceFd, new Uint8Array(at.buffer), 0, 8, 0);
    } catch {
      unpace();
    }
  };
  const unpace = (): void => {
    if (paceFd < 0) return;
    const f = paceFd;
    paceFd = -1;
    try {
      closeSync(f);
    } catch {
      /* closed */
    }
    try {
      unlinkSync(pace!);
    } catch {
      /* gone */
    }
  };
  /** The pace file, once a stream is begun: the launcher waits for this reader from then on. */
  const startPace = (): void => {
    if (pace === null) return;
    try {
      paceFd = openSync(pace, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW, 0o600);
    } catch {
      paceFd = -1;
    }
  };
  let stream: VerdictStream | null = null;
  let pos = 0;
  let failed = false;
  let buf: Uint8Array | null = null;
  const drop = (): void => {
    if (stream) {
      try {
        stream.end();
      } catch {
        /* a failed stream is already over */
      }
    }
    stream = null;
  };
  /** Reads [pos, upTo) into the stream, at most `most` bytes; returns how many. */
  const pump = (upTo: number, most: number): number => {
    buf ??= new Uint8Array(1 << 20);
    let got = 0;
    while (pos < upTo && got < most) {
      const n = readSync(fd, buf, 0, Math.min(buf.length, upTo - pos), pos);
      if (n <= 0) break;
      const t = process.hrtime.bigint(); // not performance.now(): see run.ts
      stream!.push(n === buf.length ? buf : buf.subarray(0, n));
      const ms = Number(process.hrtime.bigint() - t) / 1e6;
      if (ms > 0) rate = rate > 0 ? 0.8 * rate + 0.2 * (n / ms) : n / ms;
      pos += n;
      got += n;
      tell(pos);
    }
    return got;
  };
  let wake: (() => void) | null = null;
  let sleep: ReturnType<typeof setTimeout> | null = null;
  const done = (async () => {
    let engine: Engine;
    try {
      engine = await engineP;
    } catch {
      return;
    }
    try {
      fd = openSync(logPath, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
      if (!fstatSync(fd).isFile()) {
        failed = true;
        return;
      }
    } catch {
      failed = true;
      return;
    }
    while (!exited()) {
      let got = 0;
      try {
        const size = fstatSync(fd).size;
        if (stream === null && size > atLeast) {
          stream = engine.stream({});
          startPace();
        }
        if (stream) got = pump(Math.min(size, head), SLICE);
        if (pos >= head) {
          tell(-1);
          unpace();
        } // the rest is read once the launcher has exited
      } catch {
        failed = true; // the engine trapped or the file cannot be read: the log is read back after the run
        tell(-1);
        unpace();
        drop();
        return;
      }
      await new Promise<void>((r) => {
        wake = r;
        if (got > 0) setImmediate(r);
        else sleep = setTimeout(r, POLL_MS);
      });
      wake = null;
    }
  })();
  // Once the launcher is done the loop is woken at once, not at its next poll (up to POLL_MS later).
  const settled = async (): Promise<void> => {
    if (sleep) clearTimeout(sleep);
    wake?.();
    await done;
    unpace();
  };
  const close = (): void => {
    if (fd >= 0) {
      closeSync(fd);
      fd = -1;
    }
  };
  const ready = async (opts: VerdictOptions): Promise<VerdictStream | null> => {
    await settled();
    try {
      if (failed || stream === null) return null;
      const s: VerdictStream = stream;
      pump(fstatSync(fd).size, Infinity);
      stream = null;
      if (!s.exitKnown(opts)) {
        try {
          s.end();
        } catch {
          /* over */
        }
        return null;
      }
      return s;
    } catch {
      drop();
      return null;
    } finally {
      close();
    }
  };
  return {
    ready,
    async abandon() {
      await settled();
      drop();
      close();
    },
  };
}
