// Printing an envelope: the rendered verdict (or, brief, a short output as itself), or the JSON envelope for machines.
import type { Engine, RunResult } from '../engine/index.js';
import { writeOut } from './closed-pipe.js';
import { withNotes, briefOrRendered } from '../host/index.js';

/** notes: lines for the footer of the rendered verdict (e.g. a limit that did not take effect). */
export function print(engine: Engine, env: RunResult, json: boolean, notes: readonly string[] = []): void {
  if (json) {
    writeOut(`${JSON.stringify(env)}\n`);
    return;
  }
  writeOut(withNotes(engine.render(env), notes));
}

/** As print(), a short plain output shown as itself under the verdict's status line when that is shorter (host/brief.ts). */
export async function printBrief(engine: Engine, env: RunResult, notes: readonly string[] = []): Promise<void> {
  writeOut(withNotes(await briefOrRendered(env, engine.render(env)), notes));
}
