// The state directory (<work>/.sbx): last.json (the newest run's envelope), last/<command key>.json
// (the newest run of each command, which the delta compares with), history.jsonl (a line per run),
// logs/<id>.log (every run's raw log, written before anything parses it), lock (one writer at a time).
//
// The directory sits in a tree the sandbox writes. Nothing here follows a symlink: the directory and
// logs/ must be real directories (checked when opened), new files are created with O_EXCL (which
// never follows one), last.json is replaced by rename (which replaces a link, not its target), and
// history.jsonl is appended to with O_NOFOLLOW.
//
// A run's cost here is O(1), whatever the history's length: the streak of same verdicts travels in
// each run's state (so history.jsonl is only read to migrate state written before it did), and logs/
// is listed only every PRUNE_EVERY runs (or PRUNE_BYTES of new logs), the counts since the last prune
// also in the state. Between prunes logs/ may hold up to PRUNE_EVERY - 1 logs over KEEP_LOGS.
import { makeDirs, nodeStream, openRegular, openRegularAsync, diskFullError, isDiskFull } from '../../launcher/index.js';
import {
  accessSync,
  closeSync,
  constants,
  createWriteStream,
  existsSync,
  fstatSync,
  ftruncateSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  statSync,
  writeSync,
  promises as fsp,
  type BigIntStats,
} from 'node:fs';
import { join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { type RunResult, type Verdict, SbxError } from '../../contract/index.js';
import { readStateFile, type RunState, type StateFile } from './state-file.js';
import { readWithFallback, removeFile, writeFileAtomicSync } from './atomic.js';
import { madeBefore } from './known-states.js';
import { lock, prepareLock } from './lock.js';
import { parseHistory, type HistoryEntry } from './history.js';
import { isBaseline, streak } from './delta-rule.js';
import { sha256Hex } from './sha256.js';
import { randomId } from './random-id.js';
import { utcStamp } from './utc-stamp.js';
import { keyLine } from '../command-key.js';
import { makeSpare, takeSpare } from './spare-logs.js';

/** Log retention: the newest KEEP_LOGS logs and at most KEEP_BYTES in all; the newest is never pruned. */
export const KEEP_LOGS = Number(process.env.SBX_KEEP_LOGS ?? 200);
export const KEEP_BYTES = Number(process.env.SBX_KEEP_LOG_MB ?? 512) * 1024 * 1024;
/** Logs at least this big are unlinked in the background when pruned (prune()). */
const BACKGROUND_UNLINK = 8 * 1024 * 1024;
/** logs/ is listed (and pruned) once per this many runs, or once this many bytes of new logs. */
export const PRUNE_EVERY = Math.max(1, Math.floor(KEEP_LOGS / 4));
export const PRUNE_BYTES = Math.max(1, Math.floor(KEEP_BYTES / 4));

export type { RunState } from './state-file.js';

export interface StoredRun {
  verdict: Verdict | null;
  state: RunState | null;
  /** Set when the file was unreadable or foreign and has been set aside. */
  problem: string | null;
}

/**
 * The key runs of one command share: `go test ./...` is compared with `go test ./...`, not `go vet`, and
 * with `bash -c 'go test ./...'` (the MCP run tool's, a hook's): see command-key.ts.
 */
export function commandKey(cmd: string): string {
  let key = commandKeys.get(cmd);
  if (key === undefined) {
    key = sha256Hex(keyLine(cmd)).slice(0, 16);
    if (commandKeys.size >= 256) commandKeys.clear(); // a bound, not a cache policy: keys are cheap
    commandKeys.set(cmd, key);
  }
  return key;
}
const commandKeys = new Map<string, string>();

/**
 * One history line, whole or not at all: a write cut short (a full disk) is taken back to the file's
 * size before it, so that the next line does not follow a half one.
 */
function appendWhole(fd: number, size: number, line: Buffer): void {
  let done = 0;
  try {
    while (done < line.length) done += writeSync(fd, line, done, line.length - done);
  } catch (err) {
    if (done > 0)
      try {
        ftruncateSync(fd, size);
      } catch {
        /* the reader skips a line that does not parse */
      }
    throw err;
  }
}

/** O_NONBLOCK: a FIFO in its place fails (ENXIO) rather than wait for a reader. */
const NOFOLLOW_APPEND = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/**
 * last.json and last/<key>.json as this process last wrote or read them, by path: the text and what it
 * holds. A read that finds the same text takes what it holds without parsing or checking it again. The
 * text is compared, not the file's identity: the state files' inodes are reused (atomic.ts, spare).
 */
const known = new Map<string, { text: string; verdict: Verdict; state: RunState }>();
const KNOWN_MAX = 64;

function remember(path: string, text: string, verdict: Verdict, state: RunState): void {
  known.delete(path);
  if (known.size >= KNOWN_MAX) known.delete(known.keys().next().value!); // the oldest
  known.set(path, { text, verdict, state });
}

/** State directories this process has opened (and so created and checked) already. */
const opened = new Set<string>();

/** A state file read: what it holds, or why it cannot be used. */
function readStored(path: string): StoredRun | { bad: string } {
  let text: string;
  try {
    text = readWithFallback(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { verdict: null, state: null, problem: null };
    return { bad: `unreadable (${(err as NodeJS.ErrnoException).code === 'ELOOP' ? 'a symlink' : (err as Error).message})` };
  }
  // The very text this process wrote or read ahead: no parse or check.
  const mine = known.get(path);
  if (mine?.text === text) return { verdict: mine.verdict, state: mine.state, problem: null };
  const r = readStateFile(text);
  return 'problem' in r ? { bad: r.problem } : { verdict: r.verdict, state: r.state, problem: null };
}

export class StateDir {
  readonly dir: string;
  readonly logs: string;
  /** The directory was missing when opened, and sbx had made it before: deleted since (known-states.ts). */
  vanished = false;
  /** State files prefetch found missing (for peekPrevious). */
  private readonly missing = new Set<string>();

  constructor(dir: string) {
    this.dir = resolve(dir);
    this.logs = join(this.dir, 'logs');
  }

  /** Creates the directory (and logs/, last/) and refuses one that is a symlink or not writable. */
  async open(): Promise<this> {
    // Opened before in this process: what can have changed since is a directory replaced by a link or
    // a file (checked again, synchronously: three lstats), or removed (then the full path below).
    if (opened.has(this.dir) && this.stillThere()) return this;
    // Synchronous calls: a dozen metadata operations on a cold start, each cheaper than a thread-pool
    // round trip. The usual run finds all three directories there: an open that follows no link and
    // takes only a directory tells it for each (no lstat, whose Stats cost more than the call); any
    // other case goes through the checks below, which say what is wrong.
    if (!this.allThere()) this.make();
    // Writable (permissions, a read-only mount: EACCES, EROFS), so that the first write does not fail later.
    try {
      accessSync(this.dir, constants.W_OK | constants.X_OK);
    } catch (err) {
      throw this.unusable(err);
    }
    this.ignoreInGit();
    opened.add(this.dir);
    return this;
  }

  /** Whether the directory, logs/ and last/ are each a directory, reached through no link at the end. */
  private allThere(): boolean {
    for (const d of [this.dir, this.logs, join(this.dir, 'last')]) {
      try {
        closeSync(openSync(d, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW));
      } catch {
        return false;
      }
    }
    return true;
  }

  /** Makes what is missing of the directory, logs/ and last/, refusing a link or a non-directory. */
  private make(): void {
    if (!this.refuseLink(this.dir)) {
      try {
        makeDirs(this.dir);
      } catch (err) {
        throw this.unusable(err);
      }
      this.vanished = madeBefore(this.dir);
    }
    for (const d of [this.dir, this.logs, join(this.dir, 'last')]) {
      const there = d === this.dir || this.refuseLink(d); // (made just above, or checked there)
      try {
        // Made only when missing: a mkdir that fails with EEXIST costs an exception a cold start feels.
        if (!there)
          try {
            mkdirSync(d);
          } catch (e) {
            if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
          }
        closeSync(openSync(d, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW));
      } catch (err) {
        throw this.unusable(err);
      }
    }
  }

  /**
   * A `.gitignore` of `*` in the state dir, as pytest puts in its cache: an agent's `git add -A` would
   * otherwise commit every run's log. Made once (O_EXCL, never through a link); one the user edited stays.
   */
  private ignoreInGit(): void {
    const p = join(this.dir, '.gitignore');
    // access(2), no Stats: a link there (dangling or not) leaves it as an lstat did, as the O_EXCL create below fails.
    if (existsSync(p)) return;
    try {
      const fd = openSync(p, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o644);
      try {
        writeSync(fd, "# made by sbx: its runs' state and logs are not part of the project\n*\n");
      } finally {
        closeSync(fd);
      }
    } catch {
      /* made meanwhile, or not writable: nothing depends on it */
    }
  }

  private stillThere(): boolean {
    for (const d of [this.dir, this.logs, join(this.dir, 'last')]) {
      const info = lstatSync(d, { throwIfNoEntry: false });
      if (!info?.isDirectory()) return false; // a link, a file or gone: refused or re-made by open()
    }
    return true;
  }

  /** Throws for a symlink or a non-directory at p; whether a directory is there. */
  private refuseLink(p: string): boolean {
    let info;
    try {
      info = lstatSync(p, { throwIfNoEntry: false });
    } catch (err) {
      throw this.unusable(err);
    } // EACCES: a parent we cannot search
    if (info?.isSymbolicLink()) {
      throw new SbxError(
        'E_STATE_SYMLINK',
        `the state directory ${p} is a symlink; sbx never writes through one (sandboxed code could have planted it to make sbx write elsewhere): remove it, or pass --state DIR`,
      );
    }
    if (info && !info.isDirectory()) {
      throw new SbxError('E_STATE', `the state directory ${p} exists and is not a directory: remove it, or pass --state DIR`);
    }
    return info !== undefined;
  }

  private unusable(err: unknown): SbxError {
    const e = err as NodeJS.ErrnoException;
    const why = e.code === 'EACCES' || e.code === 'EPERM' ? 'permission denied' : e.code === 'EROFS' ? 'read-only file system' : e.message;
    let owner = '';
    try {
      owner = ` (owned by uid ${statSync(this.dir).uid})`;
    } catch {
      /* unknown */
    }
    return new SbxError('E_STATE', `cannot use ${this.dir} as the state directory: ${why}${owner}; make it writable for you (e.g. chown -R $(id -u) ${this.dir}), or pass --state DIR`);
  }

  /**
   * A new run id and the path its raw log goes to; with spare, that path may already be an empty file
   * (an old log's, spare-logs.ts), which the caller opens without O_EXCL.
   */
  newRun(spare = false): { id: string; logPath: string } {
    const id = `${Date.now().toString(36)}-${randomId(8)}`;
    const logPath = join(this.logs, `${id}.log`);
    if (spare) takeSpare(this.logs, logPath);
    return { id, logPath };
  }

  /** Copies a log (file path or byte source) into logs/<id>.log before anything parses it. */
  async saveLog(logPath: string, source: AsyncIterable<Uint8Array>): Promise<void> {
    // node:stream's callback pipeline, loaded here: `sbx run` never needs node:stream (its cold start
    // would pay milliseconds for it), and stream/promises costs more again.
    const { pipeline } = nodeStream();
    await new Promise<void>((done, fail) => {
      pipeline(source as Readable, createWriteStream(logPath, { flags: 'wx', mode: 0o644 }), (err) => (err ? fail(err) : done()));
    }).catch((err: unknown) => {
      // What was copied stays in the log; the disk is named.
      throw isDiskFull(err) ? diskFullError(err, logPath, 'the log', 'pass --state DIR on another disk (what was copied is in that file)') : err;
    });
  }

  /** last.json, then (for a command) last/<key>.json: the newest run of any command and of this one. */
  private lastPaths(cmd: string | null): string[] {
    const latest = join(this.dir, 'last.json');
    return cmd === null ? [latest] : [latest, join(this.dir, 'last', `${commandKey(cmd)}.json`)];
  }

  /** Holds the lock while fn reads the previous state and records the new run. */
  async withLock<T>(fn: () => Promise<T>): Promise<T> {
    const unlock = await lock(join(this.dir, 'lock'));
    try {
      return await fn();
    } finally {
      await unlock();
    }
  }

  /**
   * Reads last.json and last/<key>.json ahead, while the sandbox runs and the main thread would wait:
   * parsed and checked now, taken by readPrevious (under the lock) only if the file is still that one.
   * Whatever cannot be used is left for readPrevious to find and report. When the same command ran
   * last, both files hold the same text: it is parsed and checked once (the two checks took 0.6-1.1 ms
   * of a cold `sbx run -- /bin/true`), and both paths share the result, as they do after record().
   * The lock's own file (state/lock.ts) is made here too: taking the lock is then the link alone.
   */
  prefetch(cmd: string | null): void {
    prepareLock(join(this.dir, 'lock'));
    let seen: { text: string; out: StateFile } | null = null;
    for (const path of this.lastPaths(cmd)) {
      if (known.has(path)) continue;
      try {
        let fd: number;
        try {
          fd = openRegular(path); // no symlink, no FIFO (a sub dir's .sbx may be the sandbox's)
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code === 'ENOENT') this.missing.add(path);
          throw err;
        }
        try {
          const text = readFileSync(fd, 'utf8');
          let out: StateFile | null = seen?.text === text ? seen.out : null;
          if (!out) {
            const r = readStateFile(text);
            if (!('problem' in r)) seen = { text, out: (out = r) };
          }
          if (out) remember(path, text, out.verdict, out.state);
        } finally {
          closeSync(fd);
        }
      } catch {
        /* left to readPrevious */
      }
    }
  }

  /** The newest run of any command (cmd undefined), or of the command with this key. Call under the lock. */
  async readPrevious(cmd?: string): Promise<StoredRun> {
    const path = this.lastPaths(cmd ?? null).at(-1)!;
    const r = readStored(path);
    return 'bad' in r ? this.setAside(path, r.bad) : r;
  }

  /**
   * readPrevious as far as this process knows without reading again (what it last wrote or read ahead,
   * prefetch), else read now: without the lock, setting nothing aside; null when the file cannot be used
   * (left for readPrevious to find and report). A guess that the run checks under the lock (record.ts
   * readAhead): a file changed since is found there.
   */
  peekPrevious(cmd?: string): StoredRun | null {
    const path = this.lastPaths(cmd ?? null).at(-1)!;
    const mine = known.get(path);
    if (mine) return { verdict: mine.verdict, state: mine.state, problem: null };
    if (this.missing.has(path)) return { verdict: null, state: null, problem: null };
    const r = readStored(path);
    return 'bad' in r ? null : r;
  }

  private async setAside(path: string, why: string): Promise<StoredRun> {
    const aside = `${path}.corrupt-${randomId(6)}`;
    await fsp.rename(path, aside).catch(() => undefined);
    return { verdict: null, state: null, problem: `${path} was ${why}; set aside as ${aside}, so this run has no previous verdict` };
  }

  async history(): Promise<{ entries: HistoryEntry[]; bad: number }> {
    try {
      const fh = await openRegularAsync(join(this.dir, 'history.jsonl'));
      try {
        return parseHistory(await fh.readFile('utf8'));
      } finally {
        await fh.close();
      }
    } catch {
      return { entries: [], bad: 0 };
    }
  }

  /**
   * Records a finished run: last.json and last/<key>.json atomically, a history line, then log
   * pruning when due (run.unpruned === 0). Call under the lock. An interrupted run is only the newest
   * run (last.json): last/<key>.json keeps the run the next one of the command is compared with.
   */
  async record(env: RunResult, run: RunState & { vkey: string }): Promise<HistoryEntry> {
    const vd = env.verdict;
    const entry: HistoryEntry = {
      id: run.id,
      time: utcStamp(),
      status: vd.status,
      identity: vd.crash?.identity ?? null,
      key: run.vkey,
      counts: { errors: vd.counts.errors, warnings: vd.counts.warnings, failed: (vd.tests?.failed ?? 0) + (vd.tests?.errors ?? 0), passed: vd.tests?.passed ?? 0 },
      tree: run.tree,
      log: `logs/${run.id}.log`,
      summary: env.delta?.summary ?? null,
      cmd: run.cmd ?? null,
    };
    const text = `${JSON.stringify({ ...env, state: run })}\n`;
    const paths = this.lastPaths(run.cmd ?? null).slice(0, isBaseline(vd) ? undefined : 1);
    // Into the file that last.json was before the last write, when it is still there (atomic.ts).
    writeFileAtomicSync(paths, text, join(this.dir, 'last.json.spare'));
    // Remembered as written, a copy of its own (env is the caller's to change): the next run's
    // readPrevious takes it from here while the file still holds this text.
    const copy = JSON.parse(text) as { verdict: Verdict; state: RunState };
    for (const p of paths) remember(p, text, copy.verdict, copy.state);
    const history = join(this.dir, 'history.jsonl');
    let fd: number;
    try {
      fd = openSync(history, NOFOLLOW_APPEND, 0o644);
    } catch (err) {
      // ENXIO: a FIFO with no reader (O_NONBLOCK), which a plain open would have waited on.
      if ((err as NodeJS.ErrnoException).code === 'ENXIO') throw new SbxError('E_NOT_REGULAR', `${history} is a FIFO or device, not a regular file; remove it`);
      throw err;
    }
    try {
      const info = fstatSync(fd);
      if (!info.isFile()) throw new SbxError('E_NOT_REGULAR', `${history} is not a regular file; remove it`);
      appendWhole(fd, info.size, Buffer.from(`${JSON.stringify(entry)}\n`));
    } finally {
      closeSync(fd);
    }
    if (run.unpruned === 0) await this.prune(run.id);
    return entry;
  }

  /**
   * The streak and prune counters of a new run (key: its streak key, Engine.streakKey), from the previous run of its
   * command (prev) and the newest run of any (latest). History is read only for state written before
   * runs carried their streak.
   */
  async counters(
    key: string,
    cmd: string | null,
    prev: RunState | null,
    latest: RunState | null,
    logBytes: number,
  ): Promise<Pick<RunState, 'same_cmd' | 'same_all' | 'unpruned' | 'unpruned_bytes'> & { vkey: string }> {
    const carried = (s: RunState | null, n: number | null | undefined): number | null =>
      s === null ? 1 : s.vkey === null || s.vkey === undefined || n === null || n === undefined ? null : s.vkey === key ? n + 1 : 1;
    let sameAll = carried(latest, latest?.same_all);
    let sameCmd = cmd === null ? sameAll : carried(prev, prev?.same_cmd);
    if (sameAll === null || sameCmd === null) {
      const { entries } = await this.history();
      sameAll ??= streak(
        entries.map((e) => e.key),
        key,
      );
      const line = cmd === null ? null : keyLine(cmd);
      sameCmd ??=
        line === null
          ? sameAll
          : streak(
              entries.filter((e) => e.cmd != null && keyLine(e.cmd) === line && e.status !== 'interrupted').map((e) => e.key),
              key,
            );
    }
    const runs = (latest?.unpruned ?? PRUNE_EVERY) + 1;
    const bytes = (latest?.unpruned_bytes ?? PRUNE_BYTES) + logBytes;
    const due = runs >= PRUNE_EVERY || bytes >= PRUNE_BYTES;
    return { vkey: key, same_cmd: sameCmd, same_all: sameAll, unpruned: due ? 0 : runs, unpruned_bytes: due ? 0 : bytes };
  }

  /** Size of a log in logs/ (0 when it cannot be read). */
  logSize(logPath: string): number {
    try {
      return statSync(logPath).size;
    } catch {
      return 0;
    }
  }

  /** Deletes the oldest logs beyond KEEP_LOGS / KEEP_BYTES; never the newest (keep). */
  async prune(keep: string): Promise<number> {
    // Synchronous: a few hundred lstats and unlinks cost ~2 ms here, where as many thread-pool round
    // trips (and fs.promises.rm's rimraf) cost several times that, under the lock, every PRUNE_EVERY runs.
    let names: string[];
    try {
      names = readdirSync(this.logs).filter((n) => n.endsWith('.log'));
    } catch {
      return 0;
    }
    // Oldest first: ids start with a fixed-width base-36 time stamp, so name order is time order.
    names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const sizes = names.map((n) => lstatSync(join(this.logs, n), { throwIfNoEntry: false })?.size ?? 0);
    let total = sizes.reduce((a, b) => a + b, 0);
    let count = names.length;
    let removed = 0;
    const slots = { next: 0 }; // a pruned log is emptied and kept for a next run while spares' names are free (spare-logs.ts)
    for (let i = 0; i < names.length && (count > KEEP_LOGS || total > KEEP_BYTES); i++) {
      if (names[i] === `${keep}.log`) continue;
      const path = join(this.logs, names[i]!);
      // A big log is unlinked on the thread pool, not waited for: the kernel frees its page cache as it
      // goes (~90 ms for 1 GiB here), which the run's verdict would otherwise wait for. One a process
      // exits before removing is pruned again next time (a name another prune removed first: ENOENT).
      // A smaller one is kept empty as a spare for a later run's log (spare-logs.ts).
      if (sizes[i]! >= BACKGROUND_UNLINK) {
        fsp.unlink(path).catch(() => undefined);
        total -= sizes[i]!;
        count--;
        removed++;
        continue;
      }
      if (!makeSpare(this.logs, path, slots))
        try {
          removeFile(path);
        } catch {
          continue;
        } // not ours to remove (EACCES): kept, and counted
      total -= sizes[i]!;
      count--;
      removed++;
    }
    return removed;
  }
}
