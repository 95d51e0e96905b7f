// The run's log read as the launcher writes it, into an engine stream, so that once the command exits
// only what is left of it is read (a 1 GB log's verdict is then ready as the command ends, not seconds
// after). The stream is begun before the exit is known; the engine says at the end whether the lines
// read so far read the same under the real one (VerdictStream.exitKnown): when not, or on any problem,
// the caller reads the log back as before (verdictOfFile).
//
// The launcher's cap (native/log.c, --max-log CAP): the first CAP/2 bytes of the file are written once,
// in order, and never again; past CAP the rest of the file is a ring, put in order (a marker line, then
// the output's end) only as the launcher exits. The launcher says in the pace file how far it has
// written (the progress word, native/pace.c), so the ring is followed too, byte by byte in the output's
// order, and never wrapped past this reader: the engine reads every byte the command printed, and the
// verdict of a capped run is the verdict of its whole output (the cap bounds the disk, not what the
// verdict sees), ready as the command exits whatever the cap. Should the ring be lost to this reader (it
// stalled PACE_STALL_NS, a write failed) the log is read back: the verdict of what the log kept.
//
// The pace (native/pace.c): how far the log may be written is kept in the file `pace` (8 bytes,
// little-endian): the read position plus what the engine reads in PACE_MS at the rate it has been reading,
// updated after every read. The launcher stops draining the command's output while the log is past it, so a
// command that prints faster than the engine reads waits for it, as it would for a slow terminal, and the
// verdict is ready about PACE_MS of work after the command exits, whatever it printed. All ones in the
// file tell the launcher to wait no more.
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
/** The most the launcher writes past the limit (RELAY_READ, native/pace.h). */
const RELAY_READ = 1 << 16;
/** A ring smaller than this is not followed (the window would be too small): its head only is (RING_MIN, native/log.c). */
const RING_MIN = 256 << 10;
/** The progress word's flags (native/pace.c), and its count of bytes. */
const FINISHING = 1n << 62n;
const FAILED = 1n << 61n;
const NORING = 1n << 60n;
const COUNT = (1n << 60n) - 1n;
/** What the launcher says of the log: how far it is written, and whether the ring can be followed. */
interface Progress {
  written: number;
  finishing: boolean;
  failed: boolean;
  noRing: boolean;
}

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
 * `workAlias`: the work dir's host path, read as /work (VerdictOptions.workAlias).
 */
export function followLog(engineP: Promise<Engine>, logPath: string, cap: number, exited: () => boolean, atLeast: number, pace: string | null = null, workAlias: string | null = null): LogFollower {
  const head = Math.floor(cap / 2);
  const ring = cap - head;
  let fd = -1;
  let paceFd = -1;
  const at = new DataView(new ArrayBuffer(8));
  // The engine's rate as it has been reading (bytes per ms, a moving average of its pushes).
  let rate = 0;
  /** Tells the launcher how far the log may be written, from `read` (-1: no limit any more). */
  const tell = (read: number): void => {
    if (paceFd < 0) return;
    const window = rate > 0 ? Math.min(PACE_MAX, Math.max(PACE_MIN, rate * PACE_MS)) : PACE_MIN;
    // A followed ring is never written more than half of it past its first unread byte: what the
    // launcher writes (up to RELAY_READ past the limit) cannot wrap onto what is not read yet.
    const limit = Math.min(read + window, ring >= RING_MIN ? Math.max(read, head) + ring / 2 : Infinity);
    at.setBigUint64(0, read < 0 ? 0xffffffffffffffffn : BigInt(Math.floor(limit)), true);
    try {
      writeSync(paceFd, new Uint8Array(at.buffer), 0, 8, 0);
    } catch {
      const f = paceFd; // the launcher waits no more than PACE_STALL_NS for a reader that stopped
      paceFd = -1;
      try {
        closeSync(f);
      } catch {
        /* closed */
      }
    }
  };
  /** No longer read while the launcher writes: the file says so (all ones) and stays until the end. */
  const release = (): void => {
    if (pace === null) return;
    if (paceFd < 0 && !made) startPace(); // a launcher at its ring's cap waits for the file
    tell(-1);
    if (paceFd < 0) return;
    const f = paceFd;
    paceFd = -1;
    try {
      closeSync(f);
    } catch {
      /* closed */
    }
  };
  /** At the end: the file is gone. */
  const unpace = (): void => {
    if (paceFd >= 0) {
      try {
        closeSync(paceFd);
      } catch {
        /* closed */
      }
      paceFd = -1;
    }
    if (!made) return;
    try {
      unlinkSync(pace!);
    } catch {
      /* gone */
    }
  };
  /** The pace file, once a stream is begun: the launcher waits for this reader from then on. */
  let made = false;
  const startPace = (): void => {
    if (pace === null) return;
    made = true;
    try {
      paceFd = openSync(pace, constants.O_RDWR | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW, 0o600);
    } catch {
      paceFd = -1;
    }
  };
  const word = new Uint8Array(8);
  const wordView = new DataView(word.buffer);
  /** The launcher's progress word, or null when it has said none (yet). */
  const progress = (): Progress | null => {
    if (paceFd < 0 || readSync(paceFd, word, 0, 8, 8) !== 8) return null;
    const w = wordView.getBigUint64(0, true);
    return { written: Number(w & COUNT), finishing: (w & FINISHING) !== 0n, failed: (w & FAILED) !== 0n, noRing: (w & NORING) !== 0n };
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
  /**
   * Reads the output's bytes [pos, upTo) into the stream, at most `most` bytes; returns how many. `at`: where
   * the output's byte at `pos` is in the file, and how many from there are in one piece (default: in order).
   * `check`: after each read, whether what was read still stands (a ring not yet wrapped onto it).
   */
  const pump = (upTo: number, most: number, at: (q: number) => [number, number] = (q) => [q, Infinity], check: (from: number) => boolean = () => true): number => {
    buf ??= new Uint8Array(1 << 20);
    let got = 0;
    while (pos < upTo && got < most) {
      const [off, span] = at(pos);
      const n = readSync(fd, buf, 0, Math.min(buf.length, upTo - pos, span), off);
      if (n <= 0 || !check(pos)) break;
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
  /** While the launcher writes: the ring's byte q at its place (native/log.c place()). */
  const inRing = (q: number): [number, number] => {
    if (q < cap) return [q, cap - q];
    const off = head + ((q - head) % ring);
    return [off, cap - off];
  };
  /** Read while the launcher writes: stands when the ring was not being put in order nor wrapped onto it. */
  let ordering = false;
  const unwrapped = (from: number): boolean => {
    const p = progress();
    if (p === null || p.failed || p.written + RELAY_READ > from + ring) throw new Error('the ring was wrapped past its reader');
    if (p.finishing) ordering = true;
    return !p.finishing;
  };
  /** Follows the ring while the launcher writes it: false when it cannot be (the head is all that is read). */
  const followRing = (): boolean => {
    if (ring < RING_MIN) return false;
    const p = progress();
    if (p === null) return true; // the launcher has not looked at the pace file yet: it waits for it at the cap
    if (p.failed) throw new Error('a write to the log failed');
    if (p.noRing) return false;
    if (!p.finishing && !ordering) pump(p.written, SLICE, inRing, unwrapped);
    return true;
  };
  /** Once the launcher is gone: the rest of the output, from where the ordered log holds it. */
  const rest = (): void => {
    const p = progress();
    if (p === null || p.noRing) {
      pump(fstatSync(fd).size, Infinity); // read as the log was kept (the head was all that was followed)
      return;
    }
    if (p.failed || (p.written > cap && !p.finishing)) throw new Error('the ring was not put in order');
    if (p.written <= cap) {
      pump(p.written, Infinity);
      return;
    }
    // Ordered: the ring's oldest byte (the output's written - ring) at head, the marker over its first bytes.
    const first = p.written - ring;
    if (pos < first + 512) throw new Error('the ring was wrapped past its reader');
    pump(p.written, Infinity, (q) => [head + (q - first), Infinity]);
  };
  let ringLost = false;
  let wake: (() => void) | null = null;
  let sleep: ReturnType<typeof setTimeout> | null = null;
  const done = (async () => {
    let engine: Engine;
    try {
      engine = await engineP;
    } catch {
      release();
      return;
    }
    try {
      fd = openSync(logPath, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
      if (!fstatSync(fd).isFile()) {
        failed = true;
        release();
        return;
      }
    } catch {
      failed = true;
      release();
      return;
    }
    while (!exited()) {
      let got = 0;
      try {
        const size = fstatSync(fd).size;
        if (stream === null && size > atLeast) {
          stream = engine.stream({ workAlias });
          startPace();
        }
        if (stream) got = pump(Math.min(size, head), SLICE);
        if (stream && pos >= head && paceFd >= 0) {
          const before = pos;
          if (!followRing()) {
            release(); // the rest is read once the launcher has exited
            ringLost = true;
          }
          got += pos - before;
        } else if (pos >= head) release();
      } catch {
        failed = true; // the engine trapped or the file cannot be read: the log is read back after the run
        release();
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
      if (ringLost) pump(fstatSync(fd).size, Infinity);
      else rest();
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
      unpace();
      close();
    }
  };
  return {
    ready,
    async abandon() {
      await settled();
      unpace();
      drop();
      close();
    },
  };
}
