// history.jsonl: one line per run. Read back defensively: a line that does not parse is skipped and
// counted, never trusted.
import * as v from 'valibot';
import type { Verdict } from '../../contract/index.js';
import type { Engine } from '../../engine/index.js';

// Built on first use: a run reads history.jsonl only to migrate state older than its streak counters.
const entrySchema = () =>
  v.object({
    id: v.string(),
    time: v.string(),
    status: v.string(),
    identity: v.nullable(v.string()),
    key: v.string(),
    counts: v.object({ errors: v.number(), warnings: v.number(), failed: v.number(), passed: v.number() }),
    tree: v.nullable(v.string()),
    log: v.string(),
    summary: v.nullable(v.string()),
    /** The command as one line (absent in history written before sbx kept it; null for `sbx verdict`). */
    cmd: v.optional(v.nullable(v.string()), null),
  });
let entrySchemaBuilt: ReturnType<typeof entrySchema> | undefined;
export type HistoryEntry = v.InferOutput<ReturnType<typeof entrySchema>>;

/**
 * What makes two verdicts "the same" for streaks: status, crash identity and message, error set, failing tests
 * and how each fails. The engine computes it (assembly/streak-key.ts), byte for byte the key every state dir
 * already holds; a run's own comes with its verdict (VerdictStream.end).
 */
export function verdictKey(engine: Pick<Engine, 'streakKey'>, vd: Verdict): string {
  return engine.streakKey(vd);
}

export function parseHistory(text: string): { entries: HistoryEntry[]; bad: number } {
  const entries: HistoryEntry[] = [];
  let bad = 0;
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      bad++;
      continue;
    }
    const r = v.safeParse((entrySchemaBuilt ??= entrySchema()), json);
    if (r.success) entries.push(r.output);
    else bad++;
  }
  return { entries, bad };
}

export interface Streak {
  from: number;
  to: number;
  length: number;
  entry: HistoryEntry;
}

/** A streak in words: "same crash (IDENTITY) N runs in a row" or "same STATUS verdict N runs in a row". */
export function streakText(s: Streak): string {
  return `${s.entry.identity ? `same crash (${s.entry.identity})` : `same ${s.entry.status} verdict`} ${s.length} runs in a row`;
}

/** Maximal runs of consecutive entries with the same key, oldest first. */
export function streaks(entries: HistoryEntry[]): Streak[] {
  const out: Streak[] = [];
  for (let i = 0; i < entries.length;) {
    let j = i;
    while (j + 1 < entries.length && entries[j + 1]!.key === entries[i]!.key) j++;
    out.push({ from: i, to: j, length: j - i + 1, entry: entries[j]! });
    i = j + 1;
  }
  return out;
}
