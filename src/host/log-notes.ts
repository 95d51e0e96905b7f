// What the raw log lacks, said under the verdict: the middle its cap dropped (--max-log, native/log.c),
// output a full disk kept out of it. The run itself went on either way; the verdict read what is there.
import type { RunResult } from '../engine/index.js';

interface LogFacts {
  log_max_bytes?: number | null;
  log_dropped_bytes?: number;
  log_unwritten_bytes?: number;
  log_error?: string | null;
}

const WHY: Record<string, string> = { ENOSPC: 'the disk is full', EFBIG: 'past the file size limit', EDQUOT: 'over the disk quota' };

export function logNotes(env: RunResult): string[] {
  const o = env.outcome as LogFacts | null;
  if (!o) return [];
  const notes: string[] = [];
  if (o.log_dropped_bytes && o.log_max_bytes) {
    notes.push(`the log was capped at ${size(o.log_max_bytes)}: ${size(o.log_dropped_bytes)} of output dropped from its middle (its start and end are kept); pass a larger --max-log to keep more`);
  }
  if (o.log_unwritten_bytes) {
    const err = o.log_error ?? 'a write error';
    notes.push(
      `the log is incomplete: ${size(o.log_unwritten_bytes)} of output could not be written to it (${err}${WHY[err] ? `: ${WHY[err]}` : ''}); the command ran on, the verdict read what was written`,
    );
  }
  return notes;
}

/** 1536 -> "1.5 KiB": one decimal, none when whole. */
export function size(bytes: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let n = bytes;
  let u = 0;
  while (n >= 1024 && u < units.length - 1) {
    n /= 1024;
    u++;
  }
  if (u === 0) return `${bytes} bytes`;
  const r = Math.round(n * 10) / 10;
  return `${Number.isInteger(r) ? r : r.toFixed(1)} ${units[u]}`;
}
