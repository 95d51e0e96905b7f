// Codex CLI hooks (PreToolUse / PostToolUse on its shell tool, which hooks see as "Bash"), as pure
// functions from payload to answer. Shapes as Codex 0.171 sends and reads them (captured payloads in
// test/integrations/payloads/codex-0.171.0/): tool_input is just {command}; tool_response is the output
// as one string, with no exit code; PostToolUse fires for failing commands too, and its answer
// {"decision": "block", "reason": R} makes the model see exactly R in place of the output.
import * as v from 'valibot';
import { classify } from '../hook/rules.js';
import type { HookConfig } from '../hook/config.js';
import { isSbxCommand, rewriteLine, workDirOf, type Self } from '../hook/rewrite.js';
import { codexRefusal } from './codex-rules.js';
import type { PrefixRule } from './starlark.js';

const Base = {
  tool_name: v.string(),
  tool_input: v.looseObject({ command: v.string() }),
  cwd: v.string(),
};
const PreSchema = v.looseObject({ hook_event_name: v.literal('PreToolUse'), ...Base, permission_mode: v.optional(v.string()) });
const PostSchema = v.looseObject({ hook_event_name: v.literal('PostToolUse'), ...Base, tool_response: v.unknown() });

export type CodexPre = v.InferOutput<typeof PreSchema>;
export type CodexPost = v.InferOutput<typeof PostSchema>;

const why = (issues: readonly v.BaseIssue<unknown>[]) => `${v.getDotPath(issues[0]!) ?? 'root'}: ${issues[0]!.message}`;

export function parseCodexPre(json: unknown): CodexPre | string {
  const r = v.safeParse(PreSchema, json);
  return r.success ? r.output : `not a Codex PreToolUse payload (${why(r.issues)})`;
}

export function parseCodexPost(json: unknown): CodexPost | string {
  const r = v.safeParse(PostSchema, json);
  return r.success ? r.output : `not a Codex PostToolUse payload (${why(r.issues)})`;
}

/** Codex has no per-call timeout in the hook payload: sbx's own limit applies (10 minutes). */
const TIMEOUT = 600;

/**
 * PreToolUse: a build/test/run command becomes `sbx run … -- bash -c '<original>'`, allowed (a build/test
 * line kept on the host `sbx host … -- bash -c '<original>'`, under bypassPermissions only); unless one
 * of the user's rules (codex-rules.ts) forbids or prompts for the original or would for the rewrite,
 * in which case there is no answer and Codex applies its rule to the command as written.
 */
export function codexPre(p: CodexPre, cfg: HookConfig, self: Self, rules: PrefixRule[] = []) {
  if (p.tool_name !== 'Bash') return null;
  const s = rewriteLine(p.tool_input.command, p.cwd, undefined, cfg, self, TIMEOUT);
  if (!s || codexRefusal(p.tool_input.command, s.command, rules)) return null;
  // Codex takes a rewrite only with an allow, which would skip its approval of a host command: a host
  // line is wrapped only where Codex asks nothing anyway (approvals and sandbox bypassed).
  if (s.where === 'host' && p.permission_mode !== 'bypassPermissions') return null;
  return { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', permissionDecisionReason: s.reason, updatedInput: { command: s.command } } };
}

/** The output of a host build/test command to distil (null: leave the output as it is). */
export function codexPost(p: CodexPost, cfg: HookConfig, self: Self): { raw: string; work: string } | null {
  if (p.tool_name !== 'Bash' || typeof p.tool_response !== 'string') return null;
  if (isSbxCommand(p.tool_input.command, self)) return null;
  if (classify(p.tool_input.command, { sandbox: cfg.sandbox, host: [] }).action !== 'sandbox') return null;
  if (Buffer.byteLength(p.tool_response) <= cfg.distilBytes) return null;
  return { raw: p.tool_response, work: workDirOf(p.cwd, undefined).work };
}

/** The model sees exactly `reason`, in place of the output and of Codex's "Process exited with code N". */
export function codexPostAnswer(rendered: string) {
  return { decision: 'block', reason: `${rendered}note: Codex gives hooks no exit code, so this verdict reads the output alone\n` };
}
