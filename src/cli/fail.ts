// How the CLI reports an error: one line on stderr ("sbx: what, why, what to do") and, under --json,
// the same as an `sbx.error/1` object on stdout so that a machine reading stdout never gets nothing.
import { SbxError, exitFor, visible } from '../contract/index.js';
import { writeOut, writeErr } from './closed-pipe.js';

export const USAGE = 2;
export const INTERNAL = 70;

export interface ErrorJson {
  schema: 'sbx.error/1';
  code: string;
  message: string;
}

/** Prints err and returns the exit code of its code (src/contract/error-codes.ts): 2 for bad input, 70 for a bug in sbx, ... */
export function fail(err: unknown, json: boolean): number {
  let code: string;
  let message: string;
  let exit = USAGE;
  const e = err as Error & { code?: unknown };
  if (err instanceof SbxError) {
    code = err.code;
    message = err.message;
    exit = exitFor(code);
  } else {
    code = 'E_INTERNAL';
    message = `internal error: ${e?.message ?? String(err)}; rerun with SBX_DEBUG=1 for the stack and report it`;
    exit = INTERNAL;
  }
  // A message can name a path the sandbox chose (a planted symlink's target): one line, no control codes.
  message = visible(message);
  writeErr(`sbx: ${message}\n`);
  if (exit === INTERNAL && process.env.SBX_DEBUG) writeErr(`${e?.stack}\n`);
  if (json) {
    const out: ErrorJson = { schema: 'sbx.error/1', code, message };
    writeOut(`${JSON.stringify(out)}\n`);
  }
  return exit;
}

/** True when the flags before `--` ask for JSON output. */
export function wantsJson(argv: readonly string[]): boolean {
  const dash = argv.indexOf('--');
  return (dash >= 0 ? argv.slice(0, dash) : argv).some((a) => a === '--json' || a === '--json=true');
}
