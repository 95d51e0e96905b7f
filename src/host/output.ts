// Printing an envelope: the rendered verdict, or the JSON envelope for machines.
import type { Engine, RunResult } from './engine.js';

export function print(engine: Engine, env: RunResult, json: boolean): void {
  process.stdout.write(json ? `${JSON.stringify(env)}\n` : engine.render(env));
}
