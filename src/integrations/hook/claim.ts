// One answer per tool call. Claude Code starts every post-hook handler whose `if` matches (claude-post-if.ts),
// and all of them for a line it cannot judge: the handlers of one call race here, and the first to
// claim the call (its session, tool_use_id, event and cwd) distils it; the others answer nothing (two answers would record the
// output twice in .sbx and show the model the verdict twice). The claims are empty files in the user's
// private directory (the resident sbx's, src/host/private-dir.ts), swept after ten minutes.
import { closeSync, mkdirSync, openSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { socketDir } from '../../host/index.js';

const KEEP_MS = 10 * 60_000;

/** What names one call: a payload without its tool_use_id is never claimed (each such hook answers). */
export interface CallKey {
  session_id?: unknown;
  tool_use_id?: unknown;
  hook_event_name: string;
  cwd: string;
}

/** True for the first caller for this call (and whenever it cannot be told apart or there is no private directory to claim it in). */
export function firstClaim(call: CallKey, env: NodeJS.ProcessEnv = process.env, uid = process.getuid?.() ?? 0): boolean {
  if (typeof call.tool_use_id !== 'string' || !call.tool_use_id) return true;
  const base = socketDir(env, uid);
  if (!base) return true;
  const dir = join(base, 'post-claims');
  const name = createHash('sha256')
    .update(JSON.stringify([call.session_id ?? null, call.tool_use_id, call.hook_event_name, call.cwd]))
    .digest('hex')
    .slice(0, 32);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    closeSync(openSync(join(dir, name), 'wx', 0o600));
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'EEXIST';
  }
  sweep(dir, Date.now());
  return true;
}

function sweep(dir: string, now: number): void {
  for (const f of readdirSync(dir)) {
    try {
      if (now - statSync(join(dir, f)).mtimeMs > KEEP_MS) rmSync(join(dir, f), { force: true });
    } catch {
      /* another hook swept it */
    }
  }
}
