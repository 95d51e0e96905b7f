// The state directory (<work>/.sbx): last.json (the newest run's envelope), last/<command key>.json
// (the newest run of each command, which the delta compares with), history.jsonl (a line per run),
// logs/<id>.log (every run's raw log, written before anything parses it), lock (one writer at a time).
//
// The directory sits in a tree the sandbox writes. Nothing here follows a symlink: the directory and
// logs/ must be real directories (checked when opened), new files are created with O_EXCL (which
// never follows one), last.json is replaced by rename (which replaces a link, not its target), and
// history.jsonl is appended to with O_NOFOLLOW.
import { mkdir, open, readFile, readdir, rename, rm, stat, lstat } from 'node:fs/promises';
import { constants, createWriteStream, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { nanoid } from 'nanoid';
import * as v from 'valibot';
import { RunResultSchema, issueText, type RunResult, type Verdict } from '../../contract/schema.js';
import { SbxError } from '../../contract/errors.js';
import { writeFileAtomic } from './atomic.js';
import { lock } from './lock.js';
import { parseHistory, verdictKey, type HistoryEntry } from './history.js';

/** Log retention: the newest KEEP_LOGS logs and at most KEEP_BYTES in all; the newest is never pruned. */
export const KEEP_LOGS = Number(process.env.SBX_KEEP_LOGS ?? 200);
export const KEEP_BYTES = Number(process.env.SBX_KEEP_LOG_MB ?? 512) * 1024 * 1024;

/** What a run leaves for the next: its id, the work tree at its start and end, and the edit count. */
const RunStateSchema = v.object({
  id: v.string(),
  tree: v.nullable(v.string()),
  tree_end: v.optional(v.nullable(v.string()), null),
  /** How many times the user changed the tree between runs, as of this run (null: unknown). */
  edits: v.optional(v.nullable(v.number()), null),
  cmd: v.optional(v.nullable(v.string()), null),
});
export type RunState = v.InferOutput<typeof RunStateSchema>;

const LastSchema = v.object({ ...RunResultSchema.entries, state: RunStateSchema });

export interface Previous {
  verdict: Verdict | null;
  state: RunState | null;
  /** Set when the file was unreadable or foreign and has been set aside. */
  problem: string | null;
}

/** The key runs of one command share: `go test ./...` is compared with `go test ./...`, not `go vet`. */
export function commandKey(cmd: string): string {
  return createHash('sha256').update(cmd).digest('hex').slice(0, 16);
}

const NOFOLLOW_APPEND = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW;

export class StateDir {
  readonly dir: string;
  readonly logs: string;

  constructor(dir: string) {
    this.dir = resolve(dir);
    this.logs = join(this.dir, 'logs');
  }

  /** Creates the directory (and logs/, last/) and refuses one that is a symlink or not writable. */
  async open(): Promise<this> {
    await this.refuseLink(this.dir);
    try {
      await mkdir(this.dir, { recursive: true });
    } catch (err) {
      throw this.unusable(err);
    }
    for (const d of [this.dir, this.logs, join(this.dir, 'last')]) {
      await this.refuseLink(d);
      try {
        await mkdir(d).catch((e: NodeJS.ErrnoException) => { if (e.code !== 'EEXIST') throw e; });
        const fh = await open(d, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
        await fh.close();
      } catch (err) {
        throw this.unusable(err);
      }
    }
    // Writable is checked by doing it: the lock file is what every run makes first.
    try {
      const probe = join(this.dir, `.probe-${process.pid}-${nanoid(6)}`);
      await (await open(probe, 'wx', 0o600)).close();
      await rm(probe, { force: true });
    } catch (err) {
      throw this.unusable(err);
    }
    return this;
  }

  private async refuseLink(p: string): Promise<void> {
    const info = await lstat(p).catch(() => null);
    if (info?.isSymbolicLink()) {
      throw new SbxError('E_STATE_SYMLINK', `the state directory ${p} is a symlink; sbx never writes through one (sandboxed code could have planted it to make sbx write elsewhere): remove it, or pass --state DIR`);
    }
    if (info && !info.isDirectory()) {
      throw new SbxError('E_STATE', `the state directory ${p} exists and is not a directory: remove it, or pass --state DIR`);
    }
  }

  private unusable(err: unknown): SbxError {
    const e = err as NodeJS.ErrnoException;
    const why = e.code === 'EACCES' || e.code === 'EPERM' ? 'permission denied' : e.code === 'EROFS' ? 'read-only file system' : e.message;
    let owner = '';
    try { owner = ` (owned by uid ${statSync(this.dir).uid})`; } catch { /* unknown */ }
    return new SbxError('E_STATE', `cannot use ${this.dir} as the state directory: ${why}${owner}; make it writable for you (e.g. chown -R $(id -u) ${this.dir}), or pass --state DIR`);
  }

  /** A new run id and the path its raw log goes to. */
  newRun(): { id: string; logPath: string } {
    const id = `${Date.now().toString(36)}-${nanoid(8)}`;
    return { id, logPath: join(this.logs, `${id}.log`) };
  }

  /** Copies a log (file path or byte source) into logs/<id>.log before anything parses it. */
  async saveLog(logPath: string, source: AsyncIterable<Uint8Array> | NodeJS.ReadableStream): Promise<void> {
    await pipeline(source as Readable, createWriteStream(logPath, { flags: 'wx', mode: 0o644 }));
  }

  /** Holds the lock while fn reads the previous state and records the new run. */
  async withLock<T>(fn: () => Promise<T>): Promise<T> {
    const unlock = await lock(join(this.dir, 'lock'));
    try { return await fn(); } finally { await unlock(); }
  }

  /** The newest run of any command (cmd undefined), or of the command with this key. */
  async readPrevious(cmd?: string): Promise<Previous> {
    const path = cmd === undefined ? join(this.dir, 'last.json') : join(this.dir, 'last', `${commandKey(cmd)}.json`);
    let text: string;
    try {
      const fh = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
      try { text = await fh.readFile('utf8'); } finally { await fh.close(); }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { verdict: null, state: null, problem: null };
      return this.setAside(path, `unreadable (${(err as NodeJS.ErrnoException).code === 'ELOOP' ? 'a symlink' : (err as Error).message})`);
    }
    try {
      const r = v.safeParse(LastSchema, JSON.parse(text));
      if (r.success) return { verdict: r.output.verdict, state: r.output.state, problem: null };
      return this.setAside(path, `not a sbx state file (${issueText(r.issues)})`);
    } catch (err) {
      return this.setAside(path, `not valid JSON (${(err as Error).message})`);
    }
  }

  private async setAside(path: string, why: string): Promise<Previous> {
    const aside = `${path}.corrupt-${nanoid(6)}`;
    await rename(path, aside).catch(() => undefined);
    return { verdict: null, state: null, problem: `${path} was ${why}; set aside as ${aside}, so this run has no previous verdict` };
  }

  async history(): Promise<{ entries: HistoryEntry[]; bad: number }> {
    try {
      const fh = await open(join(this.dir, 'history.jsonl'), constants.O_RDONLY | constants.O_NOFOLLOW);
      try { return parseHistory(await fh.readFile('utf8')); } finally { await fh.close(); }
    } catch { return { entries: [], bad: 0 }; }
  }

  /**
   * Records a finished run: last.json and last/<key>.json atomically, a history line, then log
   * pruning. Call under the lock.
   */
  async record(env: RunResult, run: RunState, entries: HistoryEntry[]): Promise<HistoryEntry> {
    const vd = env.verdict;
    const entry: HistoryEntry = {
      id: run.id,
      time: new Date().toISOString(),
      status: vd.status,
      identity: vd.crash?.identity ?? null,
      key: verdictKey(vd),
      counts: { errors: vd.counts.errors, warnings: vd.counts.warnings, failed: (vd.tests?.failed ?? 0) + (vd.tests?.errors ?? 0), passed: vd.tests?.passed ?? 0 },
      tree: run.tree,
      log: `logs/${run.id}.log`,
      summary: env.delta?.summary ?? null,
      cmd: run.cmd ?? null,
    };
    const text = `${JSON.stringify({ ...env, state: run })}\n`;
    await writeFileAtomic(join(this.dir, 'last.json'), text);
    if (run.cmd !== null && run.cmd !== undefined) await writeFileAtomic(join(this.dir, 'last', `${commandKey(run.cmd)}.json`), text);
    const fh = await open(join(this.dir, 'history.jsonl'), NOFOLLOW_APPEND, 0o644);
    try { await fh.appendFile(`${JSON.stringify(entry)}\n`); } finally { await fh.close(); }
    await this.prune(run.id, entries.map((e) => e.id));
    return entry;
  }

  /** Deletes the oldest logs beyond KEEP_LOGS / KEEP_BYTES; never the newest (keep). */
  async prune(keep: string, order: string[]): Promise<number> {
    let names: string[];
    try { names = (await readdir(this.logs)).filter((n) => n.endsWith('.log')); } catch { return 0; }
    const rank = new Map(order.map((id, i) => [`${id}.log`, i]));
    // Oldest first: history order, then name (ids start with a time stamp).
    names.sort((a, b) => (rank.get(a) ?? -1) - (rank.get(b) ?? -1) || (a < b ? -1 : a > b ? 1 : 0));
    const sizes = await Promise.all(names.map((n) => stat(join(this.logs, n)).then((s) => s.size, () => 0)));
    let total = sizes.reduce((a, b) => a + b, 0);
    let count = names.length;
    let removed = 0;
    for (let i = 0; i < names.length && (count > KEEP_LOGS || total > KEEP_BYTES); i++) {
      if (names[i] === `${keep}.log`) continue;
      await rm(join(this.logs, names[i]!), { force: true });
      total -= sizes[i]!; count--; removed++;
    }
    return removed;
  }
}
