// The hook entry points: read the payload on stdin, answer on stdout, exit 0. A hook that fails must not
// block the agent: a problem (bad JSON, an unexpected payload, a full disk) is one line on stderr and no
// answer, so the tool call goes on exactly as the agent asked. Except one: a pre-hook that cannot read
// the project's config (sbx.config.json unreadable, not JSON, a FIFO, a link) fails closed, exit 2, the
// reason on stderr (Claude Code, Codex and Gemini CLI all block the call on exit 2 and show the model
// stderr). Without the config it cannot tell which commands belong in the sandbox, and a sandboxed
// command may have written that file precisely so that the next build runs unsandboxed on the host.
import { readSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { loadHookConfig, type HookConfig } from './config.js';
import { claudePost, claudePre, parsePost, parsePre, postAnswer, type PreAnswer } from '../claude/claude.js';
import { residentClient, selfCli, type Self } from './rewrite.js';
import { bashRules, settingsFiles } from '../claude/claude-permissions.js';
import type { Notes } from './permissions.js';
import { bytesOf, distil } from './distil.js';

const MAX_STDIN = 64 << 20;

export type HookName = 'claude-pre' | 'claude-post' | 'codex-pre' | 'codex-post' | 'gemini-pre' | 'gemini-post';

/**
 * Where a hook reads and writes. The CLI passes synchronous writers to fd 1 and 2 and leaves stdin to be
 * read from fd 0 directly: a hook is a cold start per tool call, and building process.stdin/stdout (pipe
 * streams: node:net and node:stream) costs it milliseconds.
 */
export interface HookIO {
  /** The payload; default: fd 0, read to its end. */
  stdin?: AsyncIterable<Uint8Array>;
  out?: (text: string) => void;
  err?: (text: string) => void;
}

let io: Required<Omit<HookIO, 'stdin'>> = { out: (t) => void process.stdout.write(t), err: (t) => void process.stderr.write(t) };

/** The exit code that makes every client block the tool call, stderr its reason. */
export const BLOCK_EXIT = 2;

/** Runs one hook; resolves to its exit code: 0, or BLOCK_EXIT when a pre-hook fails closed. */
export async function runHook(name: HookName, opts: HookIO = {}): Promise<number> {
  io = { out: opts.out ?? io.out, err: opts.err ?? io.err };
  try {
    await hook(name, opts);
    return 0;
  } catch (err) {
    if (err instanceof Blocked) {
      io.err(`sbx hook: ${err.message}\n`);
      return BLOCK_EXIT;
    }
    note(`${(err as Error)?.message ?? String(err)}`);
    return 0;
  }
}

/** A pre-hook's refusal: the call is blocked, with this reason. */
export class Blocked extends Error {}

/**
 * The settings a pre-hook rewrites by; one it cannot read blocks the call (see the top of this file).
 * Only for the client's shell tool: another tool's call is none of sbx's business.
 */
function preConfig(dir: string): HookConfig {
  try {
    return loadHookConfig(dir);
  } catch (err) {
    throw new Blocked(
      `${(err as Error).message}; the command is blocked rather than run on the host unsandboxed, as sbx cannot tell which commands to sandbox without its config: the user must fix or remove that file, then retry`,
    );
  }
}

async function hook(name: HookName, opts: HookIO): Promise<void> {
  const parsed = parseJson(opts.stdin ? await readAll(opts.stdin) : readFd0());
  if (!parsed.ok) return note(parsed.why);
  const json = parsed.value;
  const projectDir = process.env.CLAUDE_PROJECT_DIR || undefined;
  const self = selfCommand();
  if (name === 'codex-pre' || name === 'codex-post') return await codex(name, json, self);
  if (name === 'gemini-pre' || name === 'gemini-post') return await gemini(name, json, self);
  if (name === 'claude-pre') {
    const answer = claudePreAnswer(json, projectDir, self, io.err);
    if (answer) io.out(`${JSON.stringify(answer)}\n`);
    return;
  }
  const p = parsePost(json);
  if (typeof p === 'string') return note(p);
  const d = claudePost(p, loadHookConfig(projectDir ?? p.cwd), self, projectDir);
  if (!d) return;
  io.out(`${JSON.stringify(postAnswer(d, await distil({ log: bytesOf(d.raw), exit: d.exit, work: d.work, cmd: String(p.tool_input.command) })))}\n`);
}

/**
 * Claude Code's pre-hook on one payload: its answer, or null when the call goes on unchanged (what was
 * wrong with the payload, or what of the user's permission rules could not be read, goes to err). Throws
 * Blocked when the project's config cannot be read. The same for a hook process (claude-pre) and for a
 * call to sbx's MCP server (mcp-hook.ts).
 */
export function claudePreAnswer(json: unknown, projectDir: string | undefined, self: Self, err: (text: string) => void): PreAnswer | null {
  const p = parsePre(json);
  if (typeof p === 'string') {
    err(`sbx hook: ${p}; the tool call goes on unchanged\n`);
    return null;
  }
  if (p.tool_name !== 'Bash') return null;
  const cfg = preConfig(projectDir ?? p.cwd);
  const notes: Notes = [];
  const rules = bashRules(settingsFiles(projectDir ?? p.cwd, homedir()), notes);
  for (const n of notes) err(`sbx hook: ${n}\n`);
  return claudePre(p, cfg, self, projectDir, rules);
}

async function codex(name: 'codex-pre' | 'codex-post', json: unknown, self: Self): Promise<void> {
  const { codexPost, codexPostAnswer, codexPre, parseCodexPost, parseCodexPre } = await import('../codex/codex.js');
  if (name === 'codex-pre') {
    const p = parseCodexPre(json);
    if (typeof p === 'string') return note(p);
    if (p.tool_name !== 'Bash') return;
    const cfg = preConfig(p.cwd);
    const { loadCodexRules } = await import('../codex/codex-rules.js');
    const notes: Notes = [];
    const rules = loadCodexRules({ codexHome: process.env.CODEX_HOME || join(homedir(), '.codex'), cwd: p.cwd }, notes);
    noteAll(notes);
    const answer = codexPre(p, cfg, self, rules);
    if (answer) io.out(`${JSON.stringify(answer)}\n`);
    return;
  }
  const p = parseCodexPost(json);
  if (typeof p === 'string') return note(p);
  const d = codexPost(p, loadHookConfig(p.cwd), self);
  if (!d) return;
  // Codex gives no exit code to the hook: the verdict rests on the output alone.
  io.out(`${JSON.stringify(codexPostAnswer(await distil({ log: bytesOf(d.raw), exit: null, work: d.work, cmd: p.tool_input.command })))}\n`);
}

async function gemini(name: 'gemini-pre' | 'gemini-post', json: unknown, self: Self): Promise<void> {
  const { geminiPost, geminiPostAnswer, geminiPre, parseGeminiPost, parseGeminiPre } = await import('../gemini/gemini.js');
  if (name === 'gemini-pre') {
    const p = parseGeminiPre(json);
    if (typeof p === 'string') return note(p);
    if (p.tool_name !== 'run_shell_command') return;
    const cfg = preConfig(p.cwd);
    const { geminiPlaces, loadGeminiPolicy } = await import('../gemini/gemini-policy.js');
    const notes: Notes = [];
    const rules = loadGeminiPolicy(geminiPlaces(p.cwd), notes);
    noteAll(notes);
    const answer = geminiPre(p, cfg, self, rules);
    if (answer) io.out(`${JSON.stringify(answer)}\n`);
    return;
  }
  const p = parseGeminiPost(json);
  if (typeof p === 'string') return note(p);
  const d = geminiPost(p, loadHookConfig(p.cwd), self);
  if (d) io.out(`${JSON.stringify(geminiPostAnswer(await distil({ log: bytesOf(d.raw), exit: d.exit, work: d.work, cmd: String(p.tool_input.command) })))}\n`);
}

export function selfCommand(): Self {
  const cli = selfCli(process.argv[1] ?? '');
  const client = residentClient(cli);
  return { node: process.execPath, cli, ...(client ? { client } : {}) };
}

async function readAll(stdin: AsyncIterable<Uint8Array>): Promise<string> {
  const parts: Uint8Array[] = [];
  let n = 0;
  for await (const c of stdin) {
    n += c.length;
    if (n > MAX_STDIN) throw new Error(`hook payload over ${MAX_STDIN} bytes`);
    parts.push(c);
  }
  return Buffer.concat(parts).toString('utf8');
}

/** Standard input to its end, synchronously (the client writes the payload and closes the pipe). */
function readFd0(): string {
  const parts: Buffer[] = [];
  let n = 0;
  for (;;) {
    const buf = Buffer.allocUnsafe(1 << 16);
    let got: number;
    try {
      got = readSync(0, buf, 0, buf.length, null);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') {
        sleepMs(2);
        continue;
      } // a non-blocking pipe with nothing in it yet
      if (code === 'EOF') break;
      throw err;
    }
    if (got === 0) break;
    n += got;
    if (n > MAX_STDIN) throw new Error(`hook payload over ${MAX_STDIN} bytes`);
    parts.push(buf.subarray(0, got));
  }
  return Buffer.concat(parts).toString('utf8');
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));
const sleepMs = (ms: number): void => {
  Atomics.wait(sleeper, 0, 0, ms);
};

function parseJson(text: string): { ok: true; value: unknown } | { ok: false; why: string } {
  if (!text.trim()) return { ok: false, why: 'empty hook payload on stdin' };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (err) {
    return { ok: false, why: `hook payload is not JSON (${(err as Error).message})` };
  }
}

function note(why: string): void {
  io.err(`sbx hook: ${why}; the tool call goes on unchanged\n`);
}

/** What could not be read of the user's permission rules (the readable ones are still honoured). */
function noteAll(notes: Notes): void {
  for (const n of notes) io.err(`sbx hook: ${n}\n`);
}
