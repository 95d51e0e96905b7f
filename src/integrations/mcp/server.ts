// `sbx mcp`: an MCP server on stdio (the official SDK's low-level Server). Four tools: run, verdict,
// history, show. A command that fails is a normal result (its verdict is the answer); isError is kept for
// calls sbx could not carry out (a bad argument, a missing log), and then the text says what to do.
// Every tool carries _meta "anthropic/alwaysLoad" so that Claude Code does not defer it behind tool search.
// Every path a call names must be the dir the server was started in or below it, by real path (confine.ts);
// one message is at most 8 MiB (stdio-lines.ts).
// One tool more, never listed: claude_pre, Claude Code's pre-hook answered in this process (an `mcp_tool`
// hook: hook/mcp-hook.ts). `sbx mcp --hook-only` is the server for that alone: it lists no tools.
import { realpathSync } from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { toJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { SbxError } from '../../contract/index.js';
import { loadEngine } from '../../host/index.js';
import { launcherPath, startResident } from '../../launcher/index.js';
import { HistoryArgs, HistoryResult, RunArgs, ShowArgs, ShowResult, VerdictArgs, VerdictResult } from './schemas.js';
import { BoundedStdioTransport } from './stdio-lines.js';
import { historyTool, runTool, showTool, verdictTool, type ToolContext, type ToolOutput } from './tools.js';
import { PRE_TOOL, preOverMcp } from '../hook/mcp-hook.js';

type AnySchema = v.GenericSchema;

interface Tool {
  description: string;
  args: AnySchema;
  result: AnySchema;
  call: (args: never, ctx: ToolContext) => Promise<ToolOutput<unknown>>;
}

export const TOOLS: Record<string, Tool> = {
  run: {
    description:
      'Run a build/test/run command in the sbx sandbox (no network, only the project dir writable) and get its typed verdict instead of the raw output: status, compiler errors, sanitizer crash with the first user frame, failing tests, and what changed since the previous run. A failing command is a normal result. The raw log stays on disk (log); read parts of it with show.',
    args: RunArgs,
    result: VerdictResult,
    call: runTool as Tool['call'],
  },
  verdict: {
    description: 'Distil a raw log (a file, or text) into the same typed verdict as run.',
    args: VerdictArgs,
    result: VerdictResult,
    call: verdictTool as Tool['call'],
  },
  history: {
    description: 'The runs recorded in a project (newest last), with streaks such as "same crash 4 runs in a row".',
    args: HistoryArgs,
    result: HistoryResult,
    call: historyTool as Tool['call'],
  },
  show: {
    description:
      "Details a verdict summarises, for a run's log: crash (every frame, alloc/free stacks), diagnostics (all, with notes), tests (every failure), or raw (a range of log lines, at most 400).",
    args: ShowArgs,
    result: ShowResult,
    call: showTool as Tool['call'],
  },
};

export function listTools() {
  return Object.entries(TOOLS).map(([name, t]) => ({
    name,
    description: t.description,
    inputSchema: toJsonSchema(t.args) as { type: 'object' },
    outputSchema: toJsonSchema(t.result) as { type: 'object' },
    annotations: { readOnlyHint: name !== 'run', openWorldHint: false },
    _meta: { 'anthropic/alwaysLoad': true },
  }));
}

export async function callTool(name: string, args: unknown, ctx: ToolContext): Promise<CallToolResult> {
  const tool = Object.hasOwn(TOOLS, name) ? TOOLS[name] : undefined;
  if (!tool) return failure(`unknown tool ${JSON.stringify(name)}: use one of ${Object.keys(TOOLS).join(', ')}`);
  const r = v.safeParse(tool.args, args ?? {});
  if (!r.success) {
    const i = r.issues[0];
    return failure(`bad arguments for ${name}: ${v.getDotPath(i) ?? 'arguments'}: ${i.message}`);
  }
  try {
    const out = await tool.call(r.output as never, ctx);
    return { content: [{ type: 'text', text: out.text }], structuredContent: out.structured as Record<string, unknown> };
  } catch (err) {
    if (err instanceof SbxError) return failure(err.message);
    return failure(`internal error: ${(err as Error)?.message ?? String(err)}; report it to sbx`);
  }
}

function failure(text: string): CallToolResult {
  return { content: [{ type: 'text', text: `sbx: ${text}` }], isError: true };
}

export async function serve(version: string, { cwd = realpathSync.native(process.cwd()), asSbxRun = false, hookOnly = false }: Partial<ToolContext> & { hookOnly?: boolean } = {}): Promise<void> {
  const server = new Server({ name: 'sbx', version }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: hookOnly ? [] : listTools() }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    if (req.params.name === PRE_TOOL) {
      const r = preOverMcp(req.params.arguments, cwd);
      return { content: [{ type: 'text', text: r.text }], ...(r.isError ? { isError: true } : {}) };
    }
    if (hookOnly) return failure(`this server (sbx mcp --hook-only) answers Claude Code's pre-hook (${PRE_TOOL}) alone: for the run tool, start sbx mcp`);
    return callTool(req.params.name, req.params.arguments, { cwd, asSbxRun });
  });
  // A resident server spends its idle start-up on what every run would pay: the engine is compiled,
  // and the resident spawner started, so that even the first `run` forks no Node process. The hook's
  // server runs nothing itself (the rewritten line goes to the resident sbx): it warms nothing.
  if (!hookOnly) {
    void loadEngine().catch(() => undefined);
    void startResident(launcherPath());
  }
  const transport = new BoundedStdioTransport();
  const closed = new Promise<void>((ok) => {
    server.onclose = ok;
  });
  await server.connect(transport);
  process.stdin.on('end', () => {
    void server.close();
  });
  await closed;
}
