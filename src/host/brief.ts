// The raw output in place of the rendered verdict when the raw is the shorter and there is nothing in it
// to structure: an `echo` of 8 bytes should not come back to a model as a 169-byte verdict. The rule:
// no crash, no diagnostics, no tests, no error groups, no setup or build failure, no timeout, not binary,
// and the whole log in hand (not capped); and the verdict's first line (status · exit · time · lines),
// the delta line when it says something (not "first run", not "no change"), and the raw lines are
// shorter, in bytes, than the rendered verdict — or the verdict's tail left lines out (it keeps the last 12)
// and the raw is at most FULL_MAX bytes: a 20-line report whose first lines the tail cut would cost a model a
// turn to read from the log. The log path goes: the output is all there.
// Shared by the MCP run tool and `sbx run --brief` (what the agent hooks' rewrite prints to the model).
import { visible } from '../contract/index.js';
import type { RunResult } from '../engine/index.js';
import { readRegular } from '../launcher/index.js';

/** Above this many raw bytes the log is not read: a verdict is a few hundred bytes at most when brief() could apply. */
const BRIEF_MAX = 4096;

/** A plain output up to this many bytes comes back whole when the verdict's tail would show only its end. */
const FULL_MAX = 2048;

/** What to show for a run: brief() of its raw log when it applies, else the rendered verdict. */
export async function briefOrRendered(env: RunResult, rendered: string): Promise<string> {
  const raw = await smallLog(env);
  return (raw && brief(env, rendered, raw)) || rendered;
}

/**
 * The run's raw log when it is small enough for brief(), else undefined (also when it cannot be read).
 * Read synchronously, as the launcher's safe read does it (a regular file, no symlink, no FIFO wait): at
 * most 4 KiB, where the promised reads' five trips through the thread pool cost a sandboxed call in the
 * resident sbx more than the read.
 */
async function smallLog(env: RunResult): Promise<Buffer | undefined> {
  if (!env.log || env.verdict.raw_bytes > BRIEF_MAX) return undefined;
  try {
    return Buffer.from(readRegular(env.log, { maxBytes: BRIEF_MAX }));
  } catch {
    return undefined;
  }
}

export function brief(env: RunResult, rendered: string, raw: Buffer): string | null {
  const vd = env.verdict;
  if (vd.crash || vd.tests || vd.diagnostics.length || vd.counts.errors || vd.counts.warnings || vd.counts.crashes) return null;
  if (vd.error_groups.length || vd.setup_error || vd.build_failure || vd.exit.timed_out || vd.binary) return null;
  const whole = raw.length <= FULL_MAX && vd.lines > vd.tail.length;
  if (raw.length !== vd.raw_bytes || (raw.length >= Buffer.byteLength(rendered) && !whole)) return null;
  const nl = rendered.indexOf('\n');
  const head = nl < 0 ? rendered : rendered.slice(0, nl);
  const delta = env.delta?.summary;
  const lines = [head];
  if (delta && delta !== 'first run' && !delta.startsWith('no change')) lines.push(`delta: ${delta}`);
  const text = raw.toString('utf8');
  if (text) {
    const out = (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n').map((l) => visible(l.endsWith('\r') ? l.slice(0, -1) : l));
    lines.push(...out);
  }
  const b = `${lines.join('\n')}\n`;
  return whole || Buffer.byteLength(b) < Buffer.byteLength(rendered) ? b : null;
}
