// One episode: task × condition × model × seed. The model works with the tools until it calls done,
// the tool-call budget runs out, or the API-call cap is hit; then an independent re-run in sbx (on a
// pristine copy of the task with only the agent's editable files applied, with a fresh state), the
// protected files' hashes and the absence of tampering decide success.
import { closeSync, constants, cpSync, existsSync, fstatSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync, unlinkSync, writeFileSync, chmodSync } from 'node:fs';
import { readRegularText } from '../launcher/index.js';
import { changedDuringRerun, pristineWithEdits, type Tamper } from './judge.js';
import { workPath } from './workpath.js';
import { setupReason } from './setup-reason.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run, type Engine, type RunResult } from '../host/index.js';
import { show, type Condition } from './conditions.js';
import { faultOf } from './corrupt.js';
import { protectedChanged, sha256, sourceTree, type Task } from './tasks.js';
import { EditTrack } from './linediff.js';
import { SYSTEM, toolDefs } from './tools.js';
import { costUsd, PRICE_DATE } from './cost.js';
import type { Backend, Block, Message, Usage } from './types.js';
import { zeroUsage } from './types.js';

export interface EpisodeOptions {
  budget: number; // tool calls
  maxApiCalls: number; // hard cap, nudged prose-only replies included
  runBeforeEdit: boolean; // the harness runs once and shows it (in the arm's format) before the first turn
  maxTokens: number;
}

export interface EpisodeRecord {
  schema: 'sbx.episode/1';
  key: string;
  task: string;
  condition: string;
  model: string;
  seed: number;
  options: EpisodeOptions;
  success: boolean;
  rerun_status: string;
  protected_ok: boolean;
  /** Why the task's command could not run in the sandbox (a missing toolchain), from the first run or the re-run that hit it. */
  setup_error: string | null;
  /** What the agent changed besides its editable files (created, changed, deleted, links), in the episode or by its code during the re-run. */
  tampered: Tamper[];
  stop: 'done' | 'budget' | 'api-cap' | 'error';
  error: string | null;
  api_turns: number;
  tool_calls: number;
  run_calls: number;
  nudges: number;
  tokens: Usage;
  cost_usd: number | null;
  price_date: string;
  model_id: string;
  wall_ms: number;
  /** raw_chars and shown_chars count the same unit (UTF-16 code units of the UTF-8-decoded text): shown/raw is their ratio. */
  raw_bytes: number;
  raw_chars: number;
  shown_chars: number;
  statuses: string[];
  first_edit: { file: string; lines: number[] } | null;
  edit_hit: boolean;
  decoy_touched: boolean;
  /** Any edit (not only the first) within ±3 of the fix locus. */
  edit_hit_any: boolean;
  progress: number;
  ran_buggy_first: boolean;
  pre_raw_sha256: string | null;
  /** The same with durations masked ("Ran 3 tests in 0.001s"): what may differ between identical runs. */
  pre_raw_timing_masked_sha256: string | null;
  fault: { file: string; line: number } | null;
  fix: { file: string; lines: [number, number] };
  decoy: { file: string; line: number } | null;
  /** Each edit's lines: those a minimal line diff changes, in the numbering of the file as the agent first found it. */
  edits: { file: string; lines: number[] }[];
  /** Corrupt arms: whether the decoy took on every run that had a line or kind to corrupt (null: none had). */
  corrupt_applied: boolean | null;
}

export const episodeKey = (task: string, condition: string, model: string, seed: number): string => `${task}|${condition}|${model}|${seed}`;

const RANK: Record<string, number> = { 'setup-failed': 0, timeout: 0, interrupted: 0, 'build-failed': 1, crash: 2, 'runtime-error': 2, 'tests-failed': 3, pass: 4 };

export async function runEpisode(task: Task, cond: Condition, backend: Backend, seed: number, engine: Engine, o: EpisodeOptions): Promise<EpisodeRecord> {
  const t0 = Date.now();
  const root = mkdtempSync(join(tmpdir(), `sbx-ep-${task.id}-`));
  chmodSync(root, 0o755);
  const work = join(root, 'work');
  cpSync(sourceTree(task), work, { recursive: true });
  chmodSync(work, 0o755);
  const state = join(root, 'state');
  const rec: EpisodeRecord = {
    schema: 'sbx.episode/1',
    key: episodeKey(task.id, cond.name, backend.name, seed),
    task: task.id,
    condition: cond.name,
    model: backend.name,
    seed,
    options: o,
    success: false,
    rerun_status: '',
    protected_ok: false,
    setup_error: null,
    tampered: [],
    stop: 'budget',
    error: null,
    api_turns: 0,
    tool_calls: 0,
    run_calls: 0,
    nudges: 0,
    tokens: zeroUsage(),
    cost_usd: null,
    price_date: PRICE_DATE,
    model_id: '',
    wall_ms: 0,
    raw_bytes: 0,
    raw_chars: 0,
    shown_chars: 0,
    statuses: [],
    first_edit: null,
    edit_hit: false,
    edit_hit_any: false,
    decoy_touched: false,
    progress: 0,
    ran_buggy_first: false,
    pre_raw_sha256: null,
    pre_raw_timing_masked_sha256: null,
    fault: null,
    fix: task.fix,
    decoy: task.decoy,
    edits: [],
    corrupt_applied: null,
  };
  let edited = false;
  const track = new EditTrack();

  // truncate30k and truncate40k, as Claude Code and Gemini CLI, point the model at a file holding a long output in full: read_file
  // serves it from here, never from the task dir (the sandboxed runs do not see it, nothing is created).
  const saved = new Map<string, string>();
  const doRun = async (): Promise<string> => {
    const env: RunResult = await run({ cmd: task.cmd, work, state, timeout: task.timeout });
    const raw = env.log && existsSync(env.log) ? readFileSync(env.log) : new Uint8Array();
    const o2 = env.outcome as { exit_code?: number | null; signal?: string | null; timed_out?: boolean } | null;
    const savedAs = `.tool-results/run-${rec.run_calls + 1}.txt`;
    saved.set(savedAs, new TextDecoder().decode(raw));
    const shown = show(cond, engine, { raw, env, exit: o2?.exit_code ?? null, signal: o2?.signal ?? null, timedOut: Boolean(o2?.timed_out), savedAs }, task.decoy);
    rec.run_calls++;
    rec.raw_bytes += raw.length;
    rec.raw_chars += new TextDecoder().decode(raw).length;
    rec.shown_chars += shown.text.length;
    rec.statuses.push(env.verdict.status);
    rec.setup_error ??= setupReason(env.verdict);
    if (shown.corruptApplied !== null) rec.corrupt_applied = (rec.corrupt_applied ?? true) && shown.corruptApplied;
    if (!edited) {
      if (rec.pre_raw_sha256 === null) {
        rec.pre_raw_sha256 = sha256(raw);
        rec.pre_raw_timing_masked_sha256 = sha256(maskTimings(new TextDecoder().decode(raw)));
      }
      if (rec.fault === null) rec.fault = faultOf(env.verdict);
    }
    return shown.text;
  };

  const tool = async (b: Extract<Block, { type: 'tool_use' }>): Promise<{ text: string; done: boolean }> => {
    switch (b.name) {
      case 'run': {
        if (!edited) rec.ran_buggy_first = true;
        return { text: await doRun(), done: false };
      }
      case 'read_file': {
        const kept = (cond.base === 'truncate30k' || cond.base === 'truncate40k') && typeof b.input.path === 'string' ? saved.get(b.input.path.replace(/^\.\//, '')) : undefined;
        if (kept !== undefined)
          return {
            text: `file: ${b.input.path}\n${kept
              .split('\n')
              .map((l, i) => `${i + 1}\t${l}`)
              .join('\n')}`,
            done: false,
          };
        const r = workPath(work, b.input.path);
        if (!r.ok) return { text: `error: ${r.why}`, done: false };
        const p = r.rel;
        // The sandboxed runs write the task dir: never a FIFO (it would hang the episode) or a link out of it.
        try {
          return {
            text: `file: ${p}\n${readRegularText(r.abs)
              .split('\n')
              .map((l, i) => `${i + 1}\t${l}`)
              .join('\n')}`,
            done: false,
          };
        } catch {
          return { text: `error: no file ${p} (files: ${listFiles(work).join(', ')})`, done: false };
        }
      }
      case 'write_file': {
        const r = workPath(work, b.input.path);
        if (!r.ok || typeof b.input.content !== 'string') return { text: `error: ${r.ok ? 'give' : `${r.why}: give`} path (relative) and content (the whole new file)`, done: false };
        const p = r.rel;
        let before = '';
        try {
          before = readRegularText(r.abs);
        } catch {
          /* a new file (or a FIFO or link: replaced) */
        }
        try {
          writeOver(r.abs, b.input.content);
        } catch (err) {
          return { text: `error: cannot write ${p} (${(err as NodeJS.ErrnoException).code ?? 'failed'})`, done: false };
        }
        const lines = track.edit(p, before, b.input.content);
        const edit = { file: p, lines };
        rec.edits.push(edit);
        const [lo, hi] = task.fix.lines;
        const hit = p === task.fix.file && lines.some((l) => l >= lo - 3 && l <= hi + 3);
        if (!edited) {
          edited = true;
          rec.first_edit = edit;
          rec.edit_hit = hit;
        }
        if (hit) rec.edit_hit_any = true;
        if (task.decoy && p === task.decoy.file && lines.some((l) => Math.abs(l - task.decoy!.line) <= 1)) rec.decoy_touched = true;
        return { text: `wrote ${p} (${b.input.content.split('\n').length} lines)`, done: false };
      }
      case 'done':
        return { text: 'ok', done: true };
      default:
        return { text: `error: unknown tool ${b.name}: use read_file, write_file, run or done`, done: false };
    }
  };

  try {
    const tools = toolDefs(cond, task.cmd);
    let intro = `${task.prompt}\n\nFiles: ${listFiles(work).join(', ')}\nThe run tool runs: ${task.cmd.join(' ')}${task.editable ? `\nFiles you may change: ${task.editable.join(', ')}` : ''}\nYou have ${o.budget} tool calls.`;
    if (o.runBeforeEdit) intro += `\n\nThe command was run once on the files as they are. Its output:\n${await doRun()}`;
    const messages: Message[] = [{ role: 'user', content: [{ type: 'text', text: intro }] }];
    let finished = false;
    while (!finished) {
      if (rec.api_turns >= o.maxApiCalls) {
        rec.stop = 'api-cap';
        break;
      }
      const reply = await backend.complete({ system: SYSTEM, messages, tools, maxTokens: o.maxTokens, seed });
      rec.api_turns++;
      rec.model_id = reply.model;
      for (const k of ['input', 'output', 'cache_read', 'cache_write'] as const) rec.tokens[k] += reply.usage[k];
      messages.push({ role: 'assistant', content: reply.content.length ? reply.content : [{ type: 'text', text: '(empty reply)' }] });
      const uses = reply.content.filter((b): b is Extract<Block, { type: 'tool_use' }> => b.type === 'tool_use');
      if (!uses.length) {
        rec.nudges++;
        messages.push({ role: 'user', content: [{ type: 'text', text: 'Please continue with a tool call (read_file, write_file, run or done).' }] });
        continue;
      }
      const results: Block[] = [];
      for (const u of uses) {
        if (finished || rec.tool_calls >= o.budget) {
          results.push({ type: 'tool_result', tool_use_id: u.id, content: 'error: the tool-call budget is spent' });
          continue;
        }
        rec.tool_calls++;
        const r = await tool(u);
        results.push({ type: 'tool_result', tool_use_id: u.id, content: r.text });
        if (r.done) {
          finished = true;
          rec.stop = 'done';
        }
      }
      messages.push({ role: 'user', content: results });
      if (cond.mask) maskOlder(messages, cond.mask);
      if (!finished && rec.tool_calls >= o.budget) {
        rec.stop = 'budget';
        break;
      }
    }
  } catch (err) {
    rec.stop = 'error';
    rec.error = (err as Error).message.split('\n')[0] ?? String(err);
  }

  // Success: the task's own command on a pristine copy of the task with only the agent's editable files
  // applied (no state, no build products carried over); anything else the agent changed is tampering.
  const protectedOk = protectedChanged(task, work).length === 0;
  const judged = pristineWithEdits(task, work, root);
  const again = await run({ cmd: task.cmd, work: judged.copy, state: join(root, 'state-rerun'), timeout: task.timeout });
  const ex = (again.outcome as { exit_code?: number | null } | null)?.exit_code;
  rec.tampered = [...judged.tampered, ...changedDuringRerun(task, judged)];
  rec.rerun_status = again.verdict.status;
  rec.setup_error ??= setupReason(again.verdict);
  rec.protected_ok = protectedOk;
  rec.success = again.verdict.status === 'pass' && ex === 0 && protectedOk && rec.tampered.length === 0;
  const first = rec.statuses[0];
  const last = rec.success ? 'pass' : rec.rerun_status;
  rec.progress = first === undefined ? 0 : (RANK[last] ?? 0) - (RANK[first] ?? 0);
  rec.cost_usd = costUsd(rec.model_id, rec.tokens, backend.name);
  rec.wall_ms = Date.now() - t0;
  rmSync(root, { recursive: true, force: true });
  return rec;
}

/** Durations (0.001s, 12 ms, 1.5 sec) replaced by a placeholder. */
export const maskTimings = (s: string): string => s.replace(/\b\d+(?:\.\d+)?\s?(?:s|ms|sec|seconds)\b/g, '<T>');

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isFile() && e.name !== 'prog')
    .map((e) => e.name)
    .sort();
}

/** Only the last n tool results stay verbatim. */
function maskOlder(messages: Message[], n: number): void {
  const where: Extract<Block, { type: 'tool_result' }>[] = [];
  for (const m of messages) for (const b of m.content) if (b.type === 'tool_result') where.push(b);
  for (const b of where.slice(0, Math.max(0, where.length - n))) b.content = '[output of an earlier tool call elided]';
}

/**
 * Writes text over the file at path, keeping its mode; never through a symlink the sandboxed runs planted,
 * nor into a FIFO (whose open would wait for a reader): those are replaced by a new file.
 */
function writeOver(path: string, text: string): void {
  let fd: number | null = null;
  try {
    fd = openSync(path, constants.O_WRONLY | constants.O_TRUNC | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    if (!fstatSync(fd).isFile()) {
      closeSync(fd);
      fd = null;
    }
  } catch {
    fd = null;
  }
  if (fd === null) {
    try {
      unlinkSync(path);
    } catch {
      /* none */
    }
    fd = openSync(path, 'wx', 0o644);
  }
  try {
    writeFileSync(fd, text);
  } finally {
    closeSync(fd);
  }
}
