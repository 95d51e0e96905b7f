// Claude Code's pre-hook as a call to sbx's MCP server, not a process per call (`sbx hook install --claude
// --mcp-hook`): Claude Code 2.1.x runs an `mcp_tool` hook by calling a tool of an MCP server it already
// has running, with the hook's input put into the call's arguments (`"${tool_input}"`: the Bash call's
// whole input as JSON text; `"${cwd}"`). The tool's answer is the hook's JSON output, as claude-pre prints
// it; `{}` leaves the call alone. The server is the one `sbx mcp` Claude Code starts with the session
// (`.mcp.json`), so a call the hook leaves alone costs one message each way on its stdio, no fork.
// Fail closed: the hook is written with `"onFailure": "block"`, so a server that is missing, did not
// start or answers an error blocks the call (Claude Code says why); a project config sbx cannot read is
// a `deny` with the reason, as claude-pre's exit 2 is. The tool is not listed to the model.
import * as v from 'valibot';
import { Blocked, claudePreAnswer, selfCommand } from './run-hook.js';

/** The MCP tool the hook calls: never in tools/list. */
export const PRE_TOOL = 'claude_pre';

const Args = v.object({ tool_input: v.string(), cwd: v.string() });

/** The hook's answer as the tool's text, or an error text (the call is then blocked: onFailure "block"). */
export function preOverMcp(args: unknown, serverDir: string): { text: string; isError?: true } {
  const a = v.safeParse(Args, args ?? {});
  if (!a.success)
    return {
      text: `sbx: ${PRE_TOOL}: bad arguments (${v.getDotPath(a.issues[0]) ?? 'arguments'}: ${a.issues[0].message}): the hook entry must pass {"tool_input": "\${tool_input}", "cwd": "\${cwd}"}; run sbx hook install --claude --mcp-hook again`,
      isError: true,
    };
  let toolInput: unknown;
  try {
    toolInput = JSON.parse(a.output.tool_input);
  } catch (err) {
    return { text: `sbx: ${PRE_TOOL}: tool_input is not JSON (${(err as Error).message})`, isError: true };
  }
  const payload = { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: toolInput, cwd: a.output.cwd };
  const projectDir = process.env.CLAUDE_PROJECT_DIR || serverDir;
  try {
    const answer = claudePreAnswer(payload, projectDir, selfCommand(), (t) => void process.stderr.write(t));
    return { text: JSON.stringify(answer ?? {}) };
  } catch (err) {
    if (!(err instanceof Blocked)) throw err;
    const deny = { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: `sbx hook: ${err.message}` } };
    return { text: JSON.stringify(deny) };
  }
}
