// The state directory (<work>/.sbx): last.json (the previous envelope), history.jsonl (a line per run),
// logs/<id>.log (every run's raw log, written before anything parses it), lock (one writer at a time).
import { appendFile, mkdir, readFile, readdir, rename, rm, stat } from 'node:fs/promises';
import { createWriteStream } from 'node:fs';
import { join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { nanoid } from 'nanoid';
import * as v from 'valibot';
import { RunResultSchema, issueText, type RunResult, type Verdict } from '../schema.js';
import { SbxError } from '../errors.js';
import { writeFileAtomic } from './atomic.js';
import { lock } from './lock.js';
import { parseHistory, streakOf, verdictKey, type HistoryEntry } from './history.js';

/** Log retention: the newest KEEP_LOGS logs and at most KEEP_BYTES in all; the newest is never pruned. */
export const KEEP_LOGS = Number(process.env.SBX_KEEP_LOGS ?? 200);
export const KEEP_BYTES = Number(process.env.SBX_KEEP_LOG_MB ?? 512) * 1024 * 1024;

const LastSchema = v.object({
  ...RunResultSchema.entries,
  state: v.object({ id: v.string(), tree: v.nullable(v.string()) }),
});

export interface Previous {
  verdict: Verdict | null;
  tree: string | null;
  /** Set when last.json was unreadable or foreign and has been set aside. */
  problem: string | null;
}

export class StateDir {
  readonly dir: string;
  readonly logs: string;

  constructor(dir: string) {
    this.dir = resolve(dir);
    this.logs = join(this.dir, 'logs');
  }

  async open(): Promise<this> {
    try {
      await mkdir(this.logs, { recursive: true });
    } catch (err) {
      throw new SbxError('E_STATE', `cannot use ${this.dir} as the state directory: ${(err as Error).message}; give --state a writable directory`);
    }
    return this;
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

  async readPrevious(): Promise<Previous> {
    const path = join(this.dir, 'last.json');
    let text: string;
    try { text = await readFile(path, 'utf8'); } catch { return { verdict: null, tree: null, problem: null }; }
    let why: string;
    try {
      const r = v.safeParse(LastSchema, JSON.parse(text));
      if (r.success) return { verdict: r.output.verdict, tree: r.output.state.tree, problem: null };
      why = `not a sbx state file (${issueText(r.issues)})`;
    } catch (err) {
      why = `not valid JSON (${(err as Error).message})`;
    }
    const aside = `${path}.corrupt-${nanoid(6)}`;
    await rename(path, aside).catch(() => undefined);
    return { verdict: null, tree: null, problem: `${path} was ${why}; set aside as ${aside}, so this run has no previous verdict` };
  }

  async history(): Promise<{ entries: HistoryEntry[]; bad: number }> {
    try { return parseHistory(await readFile(join(this.dir, 'history.jsonl'), 'utf8')); } catch { return { entries: [], bad: 0 }; }
  }

  /** Records a finished run: last.json atomically, a history line, then log pruning. Call under the lock. */
  async record(id: string, env: RunResult, tree: string | null, entries: HistoryEntry[]): Promise<HistoryEntry> {
    const vd = env.verdict;
    const entry: HistoryEntry = {
      id,
      time: new Date().toISOString(),
      status: vd.status,
      identity: vd.crash?.identity ?? null,
      key: verdictKey(vd),
      counts: { errors: vd.counts.errors, warnings: vd.counts.warnings, failed: (vd.tests?.failed ?? 0) + (vd.tests?.errors ?? 0), passed: vd.tests?.passed ?? 0 },
      tree,
      log: `logs/${id}.log`,
      summary: env.delta?.summary ?? null,
    };
    await writeFileAtomic(join(this.dir, 'last.json'), `${JSON.stringify({ ...env, state: { id, tree } })}\n`);
    await appendFile(join(this.dir, 'history.jsonl'), `${JSON.stringify(entry)}\n`);
    await this.prune(id, entries.map((e) => e.id));
    return entry;
  }

  sameRuns(entries: HistoryEntry[], vd: Verdict): number { return streakOf(entries, verdictKey(vd)); }

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
