// The MCP tools of `sbx mcp`: run, verdict, history, show. Each is a function from checked arguments to
// { text, structured }: the server sends both (Claude Code shows the model the structured JSON, Gemini
// CLI wants both, Codex reads only the structured one), so the rendered verdict is in both.
import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { readRegularTextAsync } from '../../launcher/safe-read.js';
import { basename, dirname, join, resolve, sep } from 'node:path';
import type * as v from 'valibot';
import { SbxError } from '../../contract/errors.js';
import { loadEngine } from '../../host/load-engine.js';
import { verdictOfFile } from '../../host/log-source.js';
import { runReport } from '../../host/run.js';
import type { RunResult } from '../../engine/engine.js';
import { StateDir } from '../../host/state/store.js';
import { streaks, streakText } from '../../host/state/history.js';
import { protectedMounts } from '../hook/rewrite.js';
import { runNotes, withNotes } from '../../host/run-notes.js';
import type { HistoryArgs, HistoryResult, RunArgs, ShowArgs, VerdictArgs, VerdictResult } from './schemas.js';

export interface ToolOutput<T> { text: string; structured: T }

/** What every tool call gets besides its arguments: the server's dir and how `sbx mcp` was started. */
export interface ToolContext {
  cwd: string;
  /**
   * `sbx mcp --as-sbx-run`: run does what `sbx run --work W --timeout N -- bash -c COMMAND` does, for a
   * caller that ran one `sbx run` per command before (the mini-SWE-agent environment): no read-only mounts
   * of the project's agent config (.git/config and .git/hooks stay read-only, as in every run), and sbx
   * run's notes under the verdict. The server's owner chooses it when starting it; a model cannot.
   */
  asSbxRun: boolean;
}

const RAW_LINES = 400;

export async function runTool(a: v.InferOutput<typeof RunArgs>, ctx: ToolContext): Promise<ToolOutput<v.InferOutput<typeof VerdictResult>>> {
  const work = resolve(ctx.cwd, a.work ?? '.');
  const cmd = ['bash', '-c', a.command];
  // As with the hooks: the agent's, git's and sbx's own config stay read-only inside the sandbox.
  const roBind = existsSync(work) && !ctx.asSbxRun ? protectedMounts(work) : [];
  const report = await runReport({ cmd, work, timeout: a.timeout ?? 600, roBind });
  // The notes sbx run prints under the verdict, for its profile here: no network, seccomp, no ptrace.
  const notes = ctx.asSbxRun ? runNotes(report.env, { cmd, net: false, seccomp: true, allowPtrace: false }) : [];
  return summarise(report.env, notes);
}

export async function verdictTool(a: v.InferOutput<typeof VerdictArgs>): Promise<ToolOutput<v.InferOutput<typeof VerdictResult>>> {
  if ((a.log === undefined) === (a.text === undefined)) throw new SbxError('E_USAGE', 'give either log (a file path) or text (the raw output), not both and not neither');
  const engine = await loadEngine();
  const opts = { exit: a.exit ?? null };
  const env = a.log !== undefined ? await verdictOfFile(engine, a.log, { ...opts, log: a.log }) : engine.verdict(Buffer.from(a.text ?? ''), opts);
  return summarise(env);
}

export async function historyTool(a: v.InferOutput<typeof HistoryArgs>, { cwd }: ToolContext): Promise<ToolOutput<v.InferOutput<typeof HistoryResult>>> {
  const state = new StateDir(join(resolve(cwd, a.work ?? '.'), '.sbx'));
  const { entries } = await state.history();
  const runs = entries.slice(-(a.limit ?? 20)).map((e) => ({ time: e.time, status: e.status, identity: e.identity, summary: e.summary, log: join(state.logs, basename(e.log)) }));
  const st = streaks(entries).filter((s) => s.length >= 2).map((s) => `${streakText(s)} (runs ${s.from + 1}-${s.to + 1})`);
  const lines = runs.map((r) => `${r.time}  ${r.status.padEnd(13)} ${r.identity ?? ''}${r.summary ? `  — ${r.summary}` : ''}`);
  const text = entries.length ? [...lines, ...st].join('\n') : `no runs recorded in ${state.dir} yet`;
  return { text, structured: { runs, streaks: st } };
}

/** Progressive disclosure: the parts of a run the rendered verdict summarises, or a slice of its raw log. */
export async function showTool(a: v.InferOutput<typeof ShowArgs>): Promise<ToolOutput<{ log: string; what: string; text: string }>> {
  const log = resolve(a.log);
  // Only sbx's own logs: show is a window on runs, not a general file reader.
  if (basename(dirname(log)) !== 'logs' || basename(dirname(dirname(log))) !== '.sbx' || !log.endsWith('.log')) {
    throw new SbxError('E_NOT_SBX_LOG', `${a.log} is not an sbx log (<work>${sep}.sbx${sep}logs${sep}ID.log): pass the path from a verdict's log: line`);
  }
  await stat(log).catch(() => { throw new SbxError('E_NO_LOG', `${a.log} does not exist (pruned, or a typo): run the command again or use history for the current logs`); });
  let text: string;
  if (a.what === 'raw') {
    const lines = (await readRegularTextAsync(log)).split('\n'); // never a FIFO or a link the sandbox planted in a sub dir's .sbx/logs
    if (lines[lines.length - 1] === '') lines.pop();
    const from = a.from ?? 1;
    const to = Math.min(a.to ?? from + RAW_LINES - 1, from + RAW_LINES - 1, lines.length);
    const slice = lines.slice(from - 1, to).map((l, i) => `${String(from + i).padStart(6)}  ${l}`);
    text = slice.length ? `lines ${from}-${to} of ${lines.length}\n${slice.join('\n')}` : `the log has ${lines.length} lines; ask for from ≤ ${lines.length}`;
  } else {
    const env = await verdictOfFile(await loadEngine(), log, { log });
    const vd = env.verdict;
    const part = a.what === 'crash' ? vd.crash : a.what === 'tests' ? vd.tests : { diagnostics: vd.diagnostics, counts: vd.counts, error_groups: vd.error_groups };
    text = part ? JSON.stringify(part, null, 1) : `no ${a.what} in this run`;
  }
  return { text, structured: { log, what: a.what, text } };
}

async function summarise(env: RunResult, notes: readonly string[] = []): Promise<ToolOutput<v.InferOutput<typeof VerdictResult>>> {
  const engine = await loadEngine();
  const vd = env.verdict;
  const f = vd.crash?.first_user_frame;
  const where = f ? ` at ${f.function ?? '?'} ${f.file ? basename(f.file) : '?'}${f.line !== null ? `:${f.line}` : ''}` : '';
  const text = withNotes(engine.render(env), notes);
  return {
    text,
    structured: {
      status: vd.status,
      exit_code: vd.exit.code,
      signal: vd.exit.signal,
      delta: env.delta?.summary ?? null,
      crash: vd.crash ? `${vd.crash.tool} ${vd.crash.kind}${where}` : null,
      errors: vd.counts.errors,
      failed_tests: (vd.tests?.failures ?? []).map((t) => t.name).slice(0, 50),
      log: env.log,
      verdict: text,
    },
  };
}
