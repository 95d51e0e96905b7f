// Claude Code hooks (PreToolUse, PostToolUse, PostToolUseFailure on the Bash tool), as pure functions
// from the hook's JSON payload to its JSON answer (null: no answer, the call goes on unchanged).
// The payload and answer shapes are those Claude Code 2.1.x sends and reads (docs/integrations.md has
// captured examples); the payload is checked with valibot and anything unexpected passes through.
import * as v from 'valibot';
import { classify } from '../hook/rules.js';
import type { HookConfig } from '../hook/config.js';
import { isSbxCommand, rewriteLine, workDirOf, type Self } from '../hook/rewrite.js';
import { claudeRefusal, type ClaudeRule } from './claude-permissions.js';

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

export interface PreAnswer {
  hookSpecificOutput: {
    hookEventName: 'PreToolUse';
    /** Only for a sandboxed line: a host line keeps Claude's own permission check (of the rewrite). */
    permissionDecision?: 'allow';
    permissionDecisionReason: string;
    updatedInput: Record<string, unknown>;
  };
}

/**
 * PreToolUse on Bash: a build/test/run command becomes `sbx run -- bash -c '<original>'` (the original
 * quoted whole, so `a && b` runs both in the sandbox), a build/test line kept on the host `sbx host --
 * bash -c '<original>'` (rewrite.ts). The answer carries the whole input back
 * (description, timeout, ...) with only `command` changed, and allows the call: the permission rules were
 * written for the original command and no longer match the rewrite, the sandbox is what contains it.
 */
export function claudePre(p: PrePayload, cfg: HookConfig, self: Self, projectDir: string | undefined, rules: ClaudeRule[] = []): PreAnswer | null {
  if (p.tool_name !== 'Bash') return null;
  const input = v.safeParse(BashInput, p.tool_input);
  if (!input.success || input.output.run_in_background) return null;
  // A command the user's deny/ask rules name stays as it is, for Claude to deny or ask about.
  if (claudeRefusal(input.output.command, rules)) return null;
  // Claude kills the command at its own timeout (2 min unless the call says otherwise): stop a little
  // earlier, so the model gets a timeout verdict instead of nothing.
  const seconds = Math.max(1, Math.floor((input.output.timeout ?? 120_000) / 1000) - 2);
  // Claude keeps the shell's directory between calls: a host line with a `cd` stays as it is.
  const s = rewriteLine(input.output.command, p.cwd, projectDir, cfg, self, seconds, true);
  if (!s) return null;
  return {
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      // A host line runs unsandboxed: allowing it would take it past the user's prompt, so Claude judges the rewrite.
      ...(s.where === 'sandbox' ? { permissionDecision: 'allow' as const } : {}),
      permissionDecisionReason: s.reason,
      updatedInput: { ...p.tool_input, command: s.command },
    },
  };
}

/** What the post-hook needs distilled: the raw output of a build/test command that ran on the host. */
export interface ToDistil {
  raw: string;
  exit: number;
  interrupted: boolean;
  event: 'PostToolUse' | 'PostToolUseFailure';
  work: string;
}

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
