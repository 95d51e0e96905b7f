// Claude Code hooks (PreToolUse, PostToolUse, PostToolUseFailure on the Bash tool), as pure functions
// from the hook's JSON payload to its JSON answer (null: no answer, the call goes on unchanged).
// The payload and answer shapes are those Claude Code 2.1.x sends and reads (docs/integrations.md has
// captured examples); the payload is checked with valibot and anything unexpected passes through.
import { existsSync } from 'node:fs';
import { relative, isAbsolute, join, resolve } from 'node:path';
import * as v from 'valibot';
import { classify } from './rules.js';
import type { HookConfig } from './config.js';
import { shellQuote } from './quote.js';

const BashInput = v.looseObject({
  command: v.string(),
  description: v.optional(v.string()),
  timeout: v.optional(v.number()),
  run_in_background: v.optional(v.boolean()),
});

const PreSchema = v.looseObject({
  hook_event_name: v.literal('PreToolUse'),
  tool_name: v.string(),
  tool_input: v.looseObject({}),
  cwd: v.string(),
});

const PostSchema = v.variant('hook_event_name', [
  v.looseObject({
    hook_event_name: v.literal('PostToolUse'),
    tool_name: v.string(),
    tool_input: v.looseObject({}),
    tool_response: v.unknown(),
    cwd: v.string(),
  }),
  v.looseObject({
    hook_event_name: v.literal('PostToolUseFailure'),
    tool_name: v.string(),
    tool_input: v.looseObject({}),
    error: v.optional(v.string()),
    cwd: v.string(),
  }),
]);

const BashResponse = v.looseObject({ stdout: v.string(), stderr: v.string(), interrupted: v.optional(v.boolean()) });

export type PrePayload = v.InferOutput<typeof PreSchema>;
export type PostPayload = v.InferOutput<typeof PostSchema>;

export function parsePre(json: unknown): PrePayload | string {
  const r = v.safeParse(PreSchema, json);
  return r.success ? r.output : `not a PreToolUse payload (${v.getDotPath(r.issues[0]) ?? 'root'}: ${r.issues[0].message})`;
}

export function parsePost(json: unknown): PostPayload | string {
  const r = v.safeParse(PostSchema, json);
  return r.success ? r.output : `not a PostToolUse payload (${v.getDotPath(r.issues[0]) ?? 'root'}: ${r.issues[0].message})`;
}

/** How to start this very sbx: `'node' '/abs/dist/cli.js'`, resolved when the hook runs. */
export interface Self { node: string; cli: string }

export function sbxPrefix(self: Self): string {
  return `${shellQuote(self.node)} ${shellQuote(self.cli)} run`;
}

/** A command line that already starts sbx (rewritten by the pre-hook, or typed by the model). */
export function isSbxCommand(command: string, self: Self): boolean {
  const c = command.trimStart();
  return c.startsWith(sbxPrefix(self)) || /^(npx\s+)?sbx\s/.test(c);
}

/** The project dir the sandbox mounts at /work: Claude's project dir when cwd is inside it, else cwd. */
export function workDirOf(cwd: string, projectDir: string | undefined): { work: string; sub: string } {
  if (projectDir) {
    const rel = relative(resolve(projectDir), resolve(cwd));
    if (!rel.startsWith('..') && !isAbsolute(rel)) return { work: resolve(projectDir), sub: rel };
  }
  return { work: resolve(cwd), sub: '' };
}

export interface PreAnswer {
  hookSpecificOutput: {
    hookEventName: 'PreToolUse';
    permissionDecision: 'allow';
    permissionDecisionReason: string;
    updatedInput: Record<string, unknown>;
  };
}

/**
 * PreToolUse on Bash: a build/test/run command becomes `sbx run -- bash -c '<original>'` (the original
 * quoted whole, so `a && b` runs both in the sandbox). The answer carries the whole input back
 * (description, timeout, ...) with only `command` changed, and allows the call: the permission rules were
 * written for the original command and no longer match the rewrite, the sandbox is what contains it.
 */
export function claudePre(p: PrePayload, cfg: HookConfig, self: Self, projectDir: string | undefined): PreAnswer | null {
  if (p.tool_name !== 'Bash') return null;
  const input = v.safeParse(BashInput, p.tool_input);
  if (!input.success || input.output.run_in_background) return null;
  // Claude kills the command at its own timeout (2 min unless the call says otherwise): stop a little
  // earlier, so the model gets a timeout verdict instead of nothing.
  const seconds = Math.max(1, Math.floor((input.output.timeout ?? 120_000) / 1000) - 2);
  const s = sandboxed(input.output.command, p.cwd, projectDir, cfg, self, seconds);
  if (!s) return null;
  return {
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'allow',
      permissionDecisionReason: s.reason,
      updatedInput: { ...p.tool_input, command: s.command },
    },
  };
}

/**
 * The sbx command line that runs `command` in the sandbox, or null when the command table (rules.ts)
 * leaves it on the host. Shared by every client's pre-hook.
 */
export function sandboxed(command: string, cwd: string, projectDir: string | undefined, cfg: HookConfig, self: Self, seconds: number): { command: string; reason: string } | null {
  if (!cfg.rewrite || isSbxCommand(command, self)) return null;
  const d = classify(command, cfg);
  if (d.action !== 'sandbox') return null;
  const { work, sub } = workDirOf(cwd, projectDir);
  const script = sub ? `cd ${shellQuote(sub)} || exit 125\n${command}` : command;
  const line = [sbxPrefix(self), '--work', shellQuote(work), '--timeout', String(seconds), ...protect(work), ...cfg.flags.map(shellQuote), '--', 'bash', '-c', shellQuote(script)].join(' ');
  return { command: line, reason: `sbx: \`${d.matched}\` runs in the sbx sandbox (no network, only the project dir writable)` };
}

/**
 * Files in the project that steer the agent or sbx on the host: the client's settings (hooks run on the
 * host), MCP config, sbx's own config (it chooses sandbox flags), git's config and hooks. The sandbox
 * mounts them read-only, so a sandboxed command cannot plant a hook that a later session runs unsandboxed.
 */
export const PROTECTED = ['.claude', '.mcp.json', 'sbx.config.json', '.git', '.codex', '.gemini'] as const;

function protect(work: string): string[] {
  if (work.includes(':')) return []; // --ro-bind SRC:DST cannot name it; docs/integrations.md says so
  return PROTECTED.filter((n) => existsSync(join(work, n))).flatMap((n) => ['--ro-bind', shellQuote(`${join(work, n)}:/work/${n}`)]);
}

/** What the post-hook needs distilled: the raw output of a build/test command that ran on the host. */
export interface ToDistil { raw: string; exit: number; interrupted: boolean; event: 'PostToolUse' | 'PostToolUseFailure'; work: string }

/**
 * PostToolUse / PostToolUseFailure on Bash: a command that went through sbx already printed its verdict
 * (and log path), so there is nothing to do. A build/test command that ran on the host (a host-table
 * command in the same line, `rewrite: false`, a background run) and printed more than distilBytes is
 * distilled; what is returned says which output, and postAnswer() builds the answer from its verdict.
 */
export function claudePost(p: PostPayload, cfg: HookConfig, self: Self, projectDir: string | undefined): ToDistil | null {
  if (p.tool_name !== 'Bash') return null;
  const input = v.safeParse(BashInput, p.tool_input);
  if (!input.success || isSbxCommand(input.output.command, self)) return null;
  if (classify(input.output.command, { sandbox: cfg.sandbox, host: [] }).action !== 'sandbox') return null;
  const { work } = workDirOf(p.cwd, projectDir);
  if (p.hook_event_name === 'PostToolUse') {
    const r = v.safeParse(BashResponse, p.tool_response);
    if (!r.success) return null;
    const raw = r.output.stderr ? `${r.output.stdout}\n${r.output.stderr}` : r.output.stdout;
    if (Buffer.byteLength(raw) <= cfg.distilBytes) return null;
    return { raw, exit: 0, interrupted: r.output.interrupted ?? false, event: 'PostToolUse', work };
  }
  // Claude Code reports a failed Bash call as "Exit code N\n<stdout and stderr>".
  const error = p.error ?? '';
  const m = /^Exit code (\d+)\n?/.exec(error);
  const raw = m ? error.slice(m[0].length) : error;
  if (Buffer.byteLength(raw) <= cfg.distilBytes) return null;
  return { raw, exit: m ? Number(m[1]) : 1, interrupted: false, event: 'PostToolUseFailure', work };
}

export type PostAnswer =
  | { hookSpecificOutput: { hookEventName: 'PostToolUse'; updatedToolOutput: { stdout: string; stderr: string; interrupted: boolean } } }
  | { hookSpecificOutput: { hookEventName: 'PostToolUseFailure'; additionalContext: string } };

/**
 * The rendered verdict (which ends with the raw log's path) replaces the output where Claude allows it
 * (PostToolUse: updatedToolOutput, an object, a string is ignored); a failed call keeps its raw output
 * and gets the verdict beside it (PostToolUseFailure reads only additionalContext).
 */
export function postAnswer(d: ToDistil, rendered: string): PostAnswer {
  if (d.event === 'PostToolUse') {
    return { hookSpecificOutput: { hookEventName: 'PostToolUse', updatedToolOutput: { stdout: rendered, stderr: '', interrupted: d.interrupted } } };
  }
  return { hookSpecificOutput: { hookEventName: 'PostToolUseFailure', additionalContext: `sbx distilled the output above:\n${rendered}` } };
}
