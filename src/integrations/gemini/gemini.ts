// Gemini CLI hooks (BeforeTool / AfterTool on run_shell_command), as pure functions from payload to
// answer. Shapes as Gemini CLI 0.61 sends and reads them (captured payloads in
// test/integrations/payloads/gemini-cli-0.61.0/): BeforeTool's `hookSpecificOutput.tool_input` replaces
// all the tool's arguments (so every other argument is sent back as it came); AfterTool's tool_response
// is {llmContent, returnDisplay}, llmContent carrying "Exit Code: N" when the command failed; the answer
// {"decision": "block", "reason": R} gives the model {"error": R} in place of the output.
import { resolve } from 'node:path';
import * as v from 'valibot';
import { classify } from '../hook/rules.js';
import type { HookConfig } from '../hook/config.js';
import { isSbxCommand, rewriteLine, workDirOf, type Self } from '../hook/rewrite.js';
import { geminiRefusal, type GeminiRule } from './gemini-policy.js';

const SHELL = 'run_shell_command';
const Input = v.looseObject({ command: v.string(), dir_path: v.optional(v.string()) });
const Base = { tool_name: v.string(), tool_input: v.looseObject({}), cwd: v.string() };
const PreSchema = v.looseObject({ hook_event_name: v.literal('BeforeTool'), ...Base });
const PostSchema = v.looseObject({ hook_event_name: v.literal('AfterTool'), ...Base, tool_response: v.unknown() });
const Response = v.looseObject({ llmContent: v.string() });

export type GeminiPre = v.InferOutput<typeof PreSchema>;
export type GeminiPost = v.InferOutput<typeof PostSchema>;

const why = (issues: readonly v.BaseIssue<unknown>[]) => `${v.getDotPath(issues[0]!) ?? 'root'}: ${issues[0]!.message}`;

export function parseGeminiPre(json: unknown): GeminiPre | string {
  const r = v.safeParse(PreSchema, json);
  return r.success ? r.output : `not a Gemini CLI BeforeTool payload (${why(r.issues)})`;
}

export function parseGeminiPost(json: unknown): GeminiPost | string {
  const r = v.safeParse(PostSchema, json);
  return r.success ? r.output : `not a Gemini CLI AfterTool payload (${why(r.issues)})`;
}

/** Gemini CLI's shell tool has no per-call timeout in its arguments: sbx's own limit applies. */
const TIMEOUT = 600;

/**
 * BeforeTool: a build/test/run command becomes `sbx run … -- bash -c '<original>'` (a build/test line
 * kept on the host `sbx host … -- bash -c '<original>'`, run where the tool would run it: dir_path); unless the user's
 * policy (gemini-policy.ts) denies or asks about the original or would about the rewrite, in which
 * case there is no answer and Gemini CLI's policy judges the command as written.
 */
export function geminiPre(p: GeminiPre, cfg: HookConfig, self: Self, rules: GeminiRule[] = []) {
  if (p.tool_name !== SHELL) return null;
  const input = v.safeParse(Input, p.tool_input);
  if (!input.success) return null;
  // The tool runs the command in dir_path (relative to the project) when the model gives one.
  const cwd = input.output.dir_path ? resolve(p.cwd, input.output.dir_path) : p.cwd;
  const s = rewriteLine(input.output.command, cwd, p.cwd, cfg, self, TIMEOUT);
  if (!s || geminiRefusal(p.tool_input, s.command, rules)) return null;
  return { hookSpecificOutput: { hookEventName: 'BeforeTool', tool_input: { ...p.tool_input, command: s.command } } };
}

/** The output of a host build/test command to distil (null: leave it as it is). */
export function geminiPost(p: GeminiPost, cfg: HookConfig, self: Self): { raw: string; exit: number; work: string } | null {
  if (p.tool_name !== SHELL) return null;
  const input = v.safeParse(Input, p.tool_input);
  const out = v.safeParse(Response, p.tool_response);
  if (!input.success || !out.success || isSbxCommand(input.output.command, self)) return null;
  if (classify(input.output.command, { sandbox: cfg.sandbox, host: [] }).action !== 'sandbox') return null;
  // llmContent: "<untrusted_context>\nOutput: ...\nExit Code: N\nProcess Group PGID: P\n</untrusted_context>"
  let text = out.output.llmContent.replace(/^<untrusted_context>\n/, '').replace(/\n<\/untrusted_context>$/, '');
  text = text.replace(/\nProcess Group PGID: \d+$/, '');
  const m = /\nExit Code: (\d+)$/.exec(text);
  if (m) text = text.slice(0, m.index);
  text = text.replace(/^Output: /, '');
  if (Buffer.byteLength(text) <= cfg.distilBytes) return null;
  return { raw: text, exit: m ? Number(m[1]) : 0, work: workDirOf(p.cwd, undefined).work };
}

export function geminiPostAnswer(rendered: string) {
  return { decision: 'block', reason: rendered };
}
