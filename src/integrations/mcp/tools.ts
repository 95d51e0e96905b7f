// The MCP tools of `sbx mcp`: run, verdict, history, show. Each is a function from checked arguments to
// { text, structured }: the server sends both (Claude Code shows the model the structured JSON, Gemini
// CLI wants both, Codex reads only the structured one), so the rendered verdict is in both; or, for a
// short plain output, the raw output under the verdict's status line (src/host/brief.ts).
import { basename, dirname, join, resolve, sep } from 'node:path';
import type * as v from 'valibot';
import { SbxError, visible } from '../../contract/index.js';
import { loadEngine, verdictOfHandle, openRegular, runReport, StateDir, streaks, streakText, runNotes, withNotes, logNotes, brief, briefOrRendered } from '../../host/index.js';
import { confined } from './confine.js';
import type { RunResult } from '../../engine/index.js';
import type { HistoryArgs, HistoryResult, RunArgs, ShowArgs, VerdictArgs, VerdictResult } from './schemas.js';

export interface ToolOutput<T> {
  text: string;
  structured: T;
}

/** What every tool call gets besides its arguments: the server's dir and how `sbx mcp` was started. */
export interface ToolContext {
  /** The dir the server was started in: relative paths start there, and no path may lead out of it (confine.ts). */
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
  const work = confined(ctx.cwd, a.work ?? '.', 'work dir');
  const cmd = ['bash', '-c', a.command];
  // What steers the host (.git, agent settings, at any depth) every run keeps read-only itself.
  const report = await runReport({ cmd, work, timeout: a.timeout ?? 600 });
  // What the log lacks (a cap, a full disk), always; as sbx run, also its notes for the profile here:
  // no network, seccomp, no ptrace.
  const notes = [...logNotes(report.env), ...(ctx.asSbxRun ? runNotes(report.env, { cmd, net: false, seccomp: true, allowPtrace: false }) : [])];
  // As sbx run, what it prints (its log line and notes included); else a short output as itself.
  return summarise(report.env, notes, ctx.asSbxRun ? undefined : 'log', report.text);
}

export async function verdictTool(a: v.InferOutput<typeof VerdictArgs>, ctx: ToolContext): Promise<ToolOutput<v.InferOutput<typeof VerdictResult>>> {
  if ((a.log === undefined) === (a.text === undefined)) throw new SbxError('E_USAGE', 'give either log (a file path) or text (the raw output), not both and not neither');
  const opts = { exit: a.exit ?? null };
  if (a.text !== undefined) return summarise((await loadEngine()).verdict(Buffer.from(a.text), opts), [], Buffer.from(a.text));
  const log = a.log ?? '';
  const fh = await openRegular(confined(ctx.cwd, log, 'log'), log);
  try {
    return await summarise(await verdictOfHandle(await loadEngine(), fh, { ...opts, log }));
  } finally {
    await fh.close();
  }
}

export async function historyTool(a: v.InferOutput<typeof HistoryArgs>, { cwd }: ToolContext): Promise<ToolOutput<v.InferOutput<typeof HistoryResult>>> {
  const state = new StateDir(join(confined(cwd, a.work ?? '.', 'work dir'), '.sbx'));
  const { entries } = await state.history();
  const runs = entries.slice(-(a.limit ?? 20)).map((e) => ({ time: e.time, status: e.status, identity: e.identity, summary: e.summary, log: join(state.logs, basename(e.log)) }));
  const st = streaks(entries)
    .filter((s) => s.length >= 2)
    .map((s) => `${streakText(s)} (runs ${s.from + 1}-${s.to + 1})`);
  const lines = runs.map((r) => `${r.time}  ${r.status.padEnd(13)} ${r.identity ?? ''}${r.summary ? `  — ${r.summary}` : ''}`);
  const text = entries.length ? [...lines, ...st].join('\n') : `no runs recorded in ${state.dir} yet`;
  return { text, structured: { runs, streaks: st } };
}

/** Progressive disclosure: the parts of a run the rendered verdict summarises, or a slice of its raw log. */
export async function showTool(a: v.InferOutput<typeof ShowArgs>, ctx: ToolContext): Promise<ToolOutput<{ log: string; what: string; text: string }>> {
  const log = sbxLog(a.log, ctx.cwd);
  const fh = await openRegular(log, a.log, () => new SbxError('E_NO_LOG', `${a.log} does not exist (pruned, or a typo): run the command again or use history for the current logs`));
  let text: string;
  try {
    if (a.what === 'raw') {
      const lines = (await fh.readFile('utf8')).split('\n');
      if (lines[lines.length - 1] === '') lines.pop();
      const from = a.from ?? 1;
      const to = Math.min(a.to ?? from + RAW_LINES - 1, from + RAW_LINES - 1, lines.length);
      // The program's bytes as they are, but for what would act on the agent's terminal or reorder the text.
      const slice = lines.slice(from - 1, to).map((l, i) => `${String(from + i).padStart(6)}  ${visible(l.endsWith('\r') ? l.slice(0, -1) : l)}`);
      text = slice.length ? `lines ${from}-${to} of ${lines.length}\n${slice.join('\n')}` : `the log has ${lines.length} lines; ask for from ≤ ${lines.length}`;
    } else {
      const env = await verdictOfHandle(await loadEngine(), fh, { log });
      const vd = env.verdict;
      const part = a.what === 'crash' ? vd.crash : a.what === 'tests' ? vd.tests : { diagnostics: vd.diagnostics, counts: vd.counts, error_groups: vd.error_groups };
      text = part ? JSON.stringify(part, null, 1) : `no ${a.what} in this run`;
    }
  } finally {
    await fh.close();
  }
  return { text, structured: { log, what: a.what, text } };
}

/**
 * Only sbx's own logs: show is a window on runs, not a general file reader. The path must name a file
 * directly in a `.sbx/logs` dir under the server's dir (by real path), with no `..` on the way; the
 * caller opens it without following a link (a sandbox can make a `.sbx/logs` of its own below /work).
 */
function sbxLog(given: string, cwd: string): string {
  const abs = resolve(cwd, given);
  const name = basename(abs);
  const notLog = () => new SbxError('E_NOT_SBX_LOG', `${given} is not an sbx log (<work>${sep}.sbx${sep}logs${sep}ID.log): pass the path from a verdict's log: line`);
  if (given.split('/').includes('..') || !name.endsWith('.log') || name === '.log') throw notLog();
  if (basename(dirname(abs)) !== 'logs' || basename(dirname(dirname(abs))) !== '.sbx') throw notLog();
  const logs = confined(cwd, dirname(abs), 'log');
  // Its real path too: a .sbx or logs that is a link to some other dir is not a state dir's.
  if (basename(logs) !== 'logs' || basename(dirname(logs)) !== '.sbx') throw notLog();
  return join(logs, name);
}

/** raw: the output, shown as itself when short (brief.ts); 'log': the run's log, read for that; none: always the verdict. */
async function summarise(env: RunResult, notes: readonly string[] = [], raw?: Buffer | 'log', made: string | null = null): Promise<ToolOutput<v.InferOutput<typeof VerdictResult>>> {
  const engine = await loadEngine();
  const vd = env.verdict;
  const f = vd.crash?.first_user_frame;
  const where = f ? ` at ${f.function ?? '?'} ${f.file ? basename(f.file) : '?'}${f.line !== null ? `:${f.line}` : ''}` : '';
  const rendered = made ?? engine.render(env); // runReport's, made with the delta
  const shown = raw === 'log' ? await briefOrRendered(env, rendered) : (raw && brief(env, rendered, raw)) || rendered;
  const text = withNotes(shown, notes);
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
