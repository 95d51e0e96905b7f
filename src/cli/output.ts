// Printing an envelope: the rendered verdict (or, brief, a short output as itself), or the JSON envelope for machines.
import type { Engine, RunResult } from '../engine/index.js';
import { writeOut } from './closed-pipe.js';
import { withNotes, briefOrRendered } from '../host/index.js';

/**
 * notes: lines for the footer of the rendered verdict (e.g. a limit that did not take effect). text: env
 * as the engine already rendered it (runReport's text), else it is rendered here.
 */
export function print(engine: Engine, env: RunResult, json: boolean, notes: readonly string[] = [], text: string | null = null): void {
  if (json) {
    writeOut(`${JSON.stringify(env)}\n`);
    return;
  }
  writeOut(withNotes(text ?? engine.render(env), notes));
}

/** As print(), a short plain output shown as itself under the verdict's status line when that is shorter (host/brief.ts). */
export async function printBrief(engine: Engine, env: RunResult, notes: readonly string[] = [], text: string | null = null): Promise<void> {
  writeOut(withNotes(await briefOrRendered(env, text ?? engine.render(env)), notes));
}
