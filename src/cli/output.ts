// Printing an envelope: the rendered verdict, or the JSON envelope for machines.
import type { Engine, RunResult } from '../engine/index.js';
import { writeOut } from './closed-pipe.js';
import { withNotes } from '../host/index.js';

/** notes: lines for the footer of the rendered verdict (e.g. a limit that did not take effect). */
export function print(engine: Engine, env: RunResult, json: boolean, notes: readonly string[] = []): void {
  if (json) { writeOut(`${JSON.stringify(env)}\n`); return; }
  writeOut(withNotes(engine.render(env), notes));
}

