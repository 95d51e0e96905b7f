// Messages between the viewer page and its engine worker. A source is a Blob (a dropped, opened or
// pasted log) or a same-origin URL (the log `sbx view LOG` serves); nothing is sent anywhere else.
import type { RunResult, VerdictOptions } from '../engine/index.js';

export type Source = Blob | { url: string };

export interface Request {
  id: number;
  log: Source;
  /** A previous run's log: the result carries the delta from it to `log`. */
  prev: Source | null;
  junit: Blob | null;
  opts: Pick<VerdictOptions, 'exit' | 'signal' | 'timedOut'>;
}

export type Reply =
  | { id: number; type: 'progress'; which: 'log' | 'prev'; done: number; total: number | null }
  | { id: number; type: 'result'; env: RunResult; text: string; ms: number }
  | { id: number; type: 'error'; message: string };
