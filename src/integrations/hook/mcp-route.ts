// Gemini CLI's route without hooks (`sbx hook install --gemini --mcp-only`): sbx's MCP server in the
// settings file (`mcpServers.sbx`: this sbx by absolute path, `node dist/cli.cjs mcp`) and Gemini's own
// shell tool taken away (`"run_shell_command"` in `tools.exclude`), so every command the model runs goes
// through the sandbox's `run` tool. Gemini CLI spawns each hook from its Node process for every shell
// call (6-26 ms across sessions, even a no-op: docs/integrations.md), where a call to a running MCP server
// costs less than its own shell tool.
// The entry says in its `description` that sbx wrote it and whether it put run_shell_command in
// tools.exclude, so that uninstall takes out exactly that: a run_shell_command the user had excluded
// before stays. No `cwd`: the server starts where Gemini CLI runs, the dir whose .gemini/settings.json
// it reads for a project, and its tools reach only that dir and below (mcp/confine.ts).
import { SbxError } from '../../contract/index.js';
import type { Self } from './rewrite.js';

export const SHELL_TOOL = 'run_shell_command';
const MARK = "sbx: every command in the sandbox, in place of Gemini CLI's shell tool (sbx hook install --gemini --mcp-only)";
const ADDED = `; it put ${SHELL_TOOL} in tools.exclude`;
const KEPT = `; ${SHELL_TOOL} was in tools.exclude before`;

const obj = (x: unknown): Record<string, unknown> | null => (x && typeof x === 'object' && !Array.isArray(x) ? (x as Record<string, unknown>) : null);

/** Whether `mcpServers.sbx` is the entry an install wrote (and whether that install excluded the shell tool). */
export function routeOf(raw: Record<string, unknown>): { added: boolean } | null {
  const d = obj(obj(raw.mcpServers)?.sbx)?.description;
  return typeof d === 'string' && d.startsWith(MARK) ? { added: d.endsWith(ADDED) } : null;
}

/** The settings without the route an install wrote (keys keep their order; a container left empty is dropped). */
export function withoutRoute(raw: Record<string, unknown>): { out: Record<string, unknown>; removed: number } {
  const route = routeOf(raw);
  if (!route) return { out: raw, removed: 0 };
  const out = { ...raw };
  const servers = { ...obj(out.mcpServers) };
  delete servers.sbx;
  if (Object.keys(servers).length) out.mcpServers = servers;
  else delete out.mcpServers;
  const tools = obj(out.tools);
  const exclude = tools?.exclude;
  if (route.added && tools && Array.isArray(exclude) && exclude.includes(SHELL_TOOL)) {
    const i = exclude.lastIndexOf(SHELL_TOOL);
    const left = [...exclude.slice(0, i), ...exclude.slice(i + 1)];
    const t = { ...tools };
    if (left.length) t.exclude = left;
    else delete t.exclude;
    if (Object.keys(t).length) out.tools = t;
    else delete out.tools;
  }
  return { out, removed: 1 };
}

/** The settings with the route: the server last in `mcpServers`, the shell tool last in `tools.exclude` (unless already there). */
export function withRoute(raw: Record<string, unknown>, self: Self, path: string): Record<string, unknown> {
  const base = withoutRoute(raw).out;
  const bad = (what: string) => new SbxError('E_SETTINGS', `${path}: ${what}; nothing was changed`);
  if (base.mcpServers !== undefined && !obj(base.mcpServers)) throw bad('mcpServers is not an object');
  if (obj(base.mcpServers)?.sbx !== undefined) throw bad('mcpServers.sbx is an entry sbx hook install did not write (one written by hand?): remove or rename it first, then install again');
  if (base.tools !== undefined && !obj(base.tools)) throw bad('tools is not an object');
  const tools = { ...obj(base.tools) };
  if (tools.exclude !== undefined && !(Array.isArray(tools.exclude) && tools.exclude.every((t) => typeof t === 'string'))) throw bad('tools.exclude is not a list of tool names');
  const exclude = (tools.exclude as string[] | undefined) ?? [];
  const added = !exclude.includes(SHELL_TOOL);
  if (added) tools.exclude = [...exclude, SHELL_TOOL];
  const server = { command: self.node, args: [self.cli, 'mcp'], description: `${MARK}${added ? ADDED : KEPT}` };
  return { ...base, mcpServers: { ...obj(base.mcpServers), sbx: server }, tools };
}
