// `sbx hook install --claude|--codex|--gemini`: adds sbx's hooks to the client's hook file (Claude Code:
// .claude/settings.json; Codex: .codex/hooks.json; Gemini CLI: .gemini/settings.json; all three with the
// same {hooks: {Event: [{matcher, hooks}]}} shape),
// merging with what is there (other hooks, permissions, env stay as they were, in the file's indentation
// and key order); the user's file is copied to <file>.sbx.bak first (once: not the hooked version).
// `sbx hook uninstall` removes exactly the entries install added: byte for byte the user's file again
// (from the backup) when nothing else changed since, no file when install created it. The hook command names this sbx by
// absolute path (node and dist/cli.js, resolved now), so it works whatever is on PATH or in npx's cache.
// Gemini CLI's route without hooks (--mcp-only: sbx's MCP server, the shell tool excluded: mcp-route.ts)
// is installed and taken out by the same code: each install takes out what the other kind wrote.
// Claude Code's pre-hook as a call to sbx's MCP server (--mcp-hook: an `mcp_tool` entry, mcp-hook.ts)
// also writes the server into the project's .mcp.json, with the same backup and byte-exact uninstall.
import { makeDirs, readRegularText } from '../../launcher/index.js';
import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { dirname, join } from 'node:path';
import * as v from 'valibot';
import { SbxError } from '../../contract/index.js';
import { shellQuote } from '../../host/index.js';
import type { Self } from './rewrite.js';
import { routeOf, withRoute, withoutRoute } from './mcp-route.js';
import { PRE_TOOL } from './mcp-hook.js';

/** The name of sbx's MCP server in Claude Code's .mcp.json (--mcp-hook). */
const SERVER = 'sbx';

export { claudeIfs } from './claude-if.js';

export type Client = 'claude' | 'codex' | 'gemini';

/**
 * Each client's hook events and the sbx hook each runs. The pre-hook decides everything (rewrite.ts):
 * it is the one installed by default, one hook process per call. The post-hooks distil a host build's
 * output after the fact, which only `"rewrite": false` needs (the pre-hook then rewrites nothing):
 * installed with --post.
 */
export const EVENTS: Record<Client, { pre: Record<string, string>; post: Record<string, string> }> = {
  claude: { pre: { PreToolUse: 'claude-pre' }, post: { PostToolUse: 'claude-post', PostToolUseFailure: 'claude-post' } },
  // Codex fires PostToolUse for failing commands too, and has no PostToolUseFailure.
  codex: { pre: { PreToolUse: 'codex-pre' }, post: { PostToolUse: 'codex-post' } },
  gemini: { pre: { BeforeTool: 'gemini-pre' }, post: { AfterTool: 'gemini-post' } },
};

/** The name each client gives its shell tool in a hook matcher. */
const MATCHER: Record<Client, string> = { claude: 'Bash', codex: 'Bash', gemini: 'run_shell_command' };

/** A minute, in each client's unit: Gemini CLI reads hook timeouts in milliseconds, the others in seconds. */
const TIMEOUT: Record<Client, number> = { claude: 60, codex: 60, gemini: 60_000 };

const HookEntry = v.looseObject({ type: v.optional(v.string()), command: v.optional(v.string()), server: v.optional(v.unknown()), tool: v.optional(v.unknown()) });
const Matcher = v.looseObject({ matcher: v.optional(v.string()), hooks: v.optional(v.array(HookEntry)) });
const Settings = v.looseObject({ hooks: v.optional(v.record(v.string(), v.array(Matcher))) });
type SettingsT = v.InferOutput<typeof Settings>;

export function settingsPath(client: Client, scope: 'project' | 'user', projectDir: string, home: string, codexHome = process.env.CODEX_HOME): string {
  if (client === 'codex') return scope === 'user' ? join(codexHome || join(home, '.codex'), 'hooks.json') : join(projectDir, '.codex', 'hooks.json');
  if (client === 'gemini') return join(scope === 'user' ? home : projectDir, '.gemini', 'settings.json');
  return scope === 'user' ? join(home, '.claude', 'settings.json') : join(projectDir, '.claude', 'settings.json');
}

/**
 * The command line a client runs for hook `name`: a guard, then this sbx by absolute path. The guard is
 * what makes a moved or removed sbx fail closed the same way in every client: without it the shell's
 * 127 ("not found") is a non-blocking error to all three, and Gemini CLI `--yolo` then ran the call on the
 * host without a word. With it a pre-hook exits 2 (every client blocks the call and shows the reason);
 * a post-hook says so and exits 0 (the call has already run: blocking it would only hide its output).
 */
export function hookCommand(self: Self, name: string): string {
  const run = self.client ? `${shellQuote(self.client)} hook ${name}` : `${shellQuote(self.node)} ${shellQuote(self.cli)} hook ${name}`;
  const client = name.split('-')[0]!;
  const pre = name.endsWith('-pre');
  const what = self.client ? `${self.client} (with ${self.cli})` : `${self.node} with ${self.cli}`;
  const msg = `sbx hook: ${what} is missing or not executable (sbx was moved, removed or is being rebuilt); ${pre ? 'this call is blocked' : 'the call went on without sbx'}: run \`sbx hook install --${client}\` from where sbx is now, or \`sbx hook uninstall --${client}\` to go on without sbx`;
  const checks = self.client ? [`-x ${shellQuote(self.client)}`, `-f ${shellQuote(self.cli)}`] : [`-x ${shellQuote(self.node)}`, `-f ${shellQuote(self.cli)}`];
  return `${checks.map((c) => `[ ${c} ]`).join(' && ')} || { echo ${shellQuote(msg)} >&2; exit ${pre ? 2 : 0}; }; exec ${run}`;
}

/**
 * An entry that some sbx install wrote (any path: a moved checkout is still recognised), naming the CLI as
 * dist/cli.js (`node dist/cli.js hook install`), dist/cli.cjs (the bin that npm link and npm install -g run)
 * or build/sbx-client (the resident sbx's client).
 */
const isOursCommand = (cmd: string | undefined) =>
  typeof cmd === 'string' && / hook (claude|codex|gemini)-(pre|post)$/.test(cmd) && /(cli\.c?js|build\/sbx-client)'? hook (claude|codex|gemini)-(pre|post)$/.test(cmd);

/** The `mcp_tool` entry of --mcp-hook: a call of sbx's server's claude_pre. */
const isOursMcp = (h: v.InferOutput<typeof HookEntry>) => h.type === 'mcp_tool' && h.server === SERVER && h.tool === PRE_TOOL;

const isOurs = (h: v.InferOutput<typeof HookEntry>) => isOursCommand(h.command) || isOursMcp(h);

/**
 * post: the post-hooks too (for `"rewrite": false`); without, a post-hook an earlier install added is taken out.
 * ifs: Claude Code's `if` rules for the pre-hook (claude-if.ts): one entry per rule, each the same hook,
 * so a call no rule matches starts no hook process; null or absent: one entry, run for every call.
 */
export function install(
  client: Client,
  path: string,
  self: Self,
  opts: { post?: boolean; ifs?: readonly string[] | null; mcpOnly?: boolean; mcpHook?: boolean } = {},
): { backup: string | null; hooksRemoved: number } {
  const cur = load(path);
  const hooks = { ...(cur.settings.hooks ?? {}) };
  const mcpOnly = client === 'gemini' && opts.mcpOnly === true;
  const events = mcpOnly ? {} : { ...EVENTS[client].pre, ...(opts.post ? EVENTS[client].post : {}) };
  let hooksRemoved = 0;
  for (const event of mcpOnly ? Object.keys(hooks) : Object.keys(EVENTS[client].post)) {
    if (event in events || !hooks[event]) continue;
    const kept = strip(hooks[event]);
    hooksRemoved += hooks[event].length - kept.length;
    if (kept.length) hooks[event] = kept;
    else delete hooks[event];
  }
  for (const [event, name] of Object.entries(events)) {
    const pre = event in EVENTS[client].pre;
    const entry: Record<string, unknown> =
      client === 'claude' && pre && opts.mcpHook
        ? { type: 'mcp_tool', server: SERVER, tool: PRE_TOOL, input: { tool_input: '${tool_input}', cwd: '${cwd}' }, onFailure: 'block', timeout: TIMEOUT[client] }
        : { type: 'command', command: hookCommand(self, name), timeout: TIMEOUT[client] };
    const ifs = client === 'claude' && pre && opts.ifs ? opts.ifs : null;
    hooks[event] = [...strip(hooks[event] ?? []), { matcher: MATCHER[client], hooks: ifs ? ifs.map((rule) => withIf(entry, rule)) : [entry] }];
  }
  // The user's own bytes go to <file>.sbx.bak, once: a second install (the file already holds sbx's hooks)
  // keeps the first backup rather than overwrite it with the hooked version.
  const hooked = withHooks(cur.raw, hooks);
  const out = mcpOnly ? withRoute(hooked, self, path) : withoutRoute(hooked).out; // throws before anything is written
  let backup: string | null = null;
  if (cur.text !== null && !anyOurs(cur.settings) && !routeOf(cur.raw)) {
    backup = `${path}.sbx.bak`;
    copyFileSync(path, backup);
  }
  save(path, out, cur.text);
  return { backup, hooksRemoved };
}

export interface Uninstalled {
  /** sbx's hook entries taken out. */
  removed: number;
  /** Gemini CLI's MCP route (install --mcp-only) taken out: mcpServers.sbx, and run_shell_command from tools.exclude when install put it there. */
  route: boolean;
  /** How the file was left: the user's bytes from <file>.sbx.bak, deleted (install created it), or sbx's entries cut out of a file edited since. */
  how: 'restored' | 'deleted' | 'edited' | 'untouched';
  /** The pre-install copy still kept (the file was edited since install, so it was not restored from it). */
  backup: string | null;
}

export function uninstall(path: string): Uninstalled {
  if (!existsSync(path)) return { removed: 0, route: false, how: 'untouched', backup: null };
  const cur = load(path);
  const hooks: Record<string, v.InferOutput<typeof Matcher>[]> = {};
  let removed = 0;
  for (const [event, list] of Object.entries(cur.settings.hooks ?? {})) {
    const kept = strip(list);
    removed += list.length - kept.length;
    if (kept.length) hooks[event] = kept;
  }
  const cut = withoutRoute(withHooks(cur.raw, hooks));
  const route = cut.removed > 0;
  if (!anyOurs(cur.settings) && !route) return { removed: 0, route, how: 'untouched', backup: null };
  return { removed, route, ...giveBack(path, cur, cut.out) };
}

/**
 * The file without sbx's entries (`after`): the user's bytes from <file>.sbx.bak when that is all install
 * changed, no file when install created it, else `after` in the file's own style.
 */
function giveBack(path: string, cur: ReturnType<typeof load>, after: Record<string, unknown>): Pick<Uninstalled, 'how' | 'backup'> {
  const bak = `${path}.sbx.bak`;
  // A backup that holds sbx's hooks itself is not the user's file (an older sbx's uninstall wrote those).
  const read = existsSync(bak) ? readBackup(bak) : null;
  const orig = read && !hasOurs(read.json) ? read : null;
  // The file is what install made of the user's: give them back their bytes (indentation, key order, final
  // newline), and drop the backup, now the same as the file.
  if (orig && isDeepStrictEqual(after, orig.json)) {
    writeAtomic(path, orig.text);
    rmSync(bak, { force: true });
    return { how: 'restored', backup: null };
  }
  // No backup and nothing left but sbx's entries: install created the file, so there was none.
  if (!orig && Object.keys(after).length === 0) {
    rmSync(path, { force: true });
    return { how: 'deleted', backup: null };
  }
  // Edited since install: cut sbx's entries out, keeping the file's indentation and key order.
  save(path, after, cur.text);
  return { how: 'edited', backup: orig ? bak : null };
}

/** A hook entry with Claude Code's `if` rule, placed before the entry's other keys but its type. */
function withIf(entry: Record<string, unknown>, rule: string): Record<string, unknown> {
  const { type, ...rest } = entry;
  return { type, if: rule, ...rest };
}

/**
 * --mcp-hook: sbx's MCP server in Claude Code's project .mcp.json (`mcpServers.sbx`: this sbx by absolute
 * path, `node dist/cli.cjs mcp --hook-only`), which the pre-hook's `mcp_tool` entry calls. Merged as
 * install merges the settings (the user's file kept once as .mcp.json.sbx.bak); a `mcpServers.sbx` sbx did
 * not write is refused.
 */
export function installServer(path: string, self: Self): { backup: string | null } {
  const cur = load(path);
  const servers = cur.raw.mcpServers;
  const bad = (what: string) => new SbxError('E_SETTINGS', `${path}: ${what}; nothing was changed`);
  if (servers !== undefined && (!servers || typeof servers !== 'object' || Array.isArray(servers))) throw bad('mcpServers is not an object');
  const had = claudeServerOf(cur.raw);
  if (!had && (servers as Record<string, unknown> | undefined)?.[SERVER] !== undefined)
    throw bad(`mcpServers.${SERVER} is an entry sbx hook install did not write (one written by hand?): remove or rename it first, then install again`);
  const out = { ...cur.raw, mcpServers: { ...(servers as Record<string, unknown> | undefined), [SERVER]: { type: 'stdio', command: self.node, args: [self.cli, 'mcp', '--hook-only'] } } };
  let backup: string | null = null;
  if (cur.text !== null && !had) {
    backup = `${path}.sbx.bak`;
    copyFileSync(path, backup);
  }
  save(path, out, cur.text);
  return { backup };
}

/** Takes out the server installServer wrote (`untouched` when there is none), as uninstall does the hooks. */
export function uninstallServer(path: string): Pick<Uninstalled, 'how' | 'backup'> {
  if (!existsSync(path)) return { how: 'untouched', backup: null };
  const cur = load(path);
  if (!claudeServerOf(cur.raw)) return { how: 'untouched', backup: null };
  const servers = { ...(cur.raw.mcpServers as Record<string, unknown>) };
  delete servers[SERVER];
  const after: Record<string, unknown> = {};
  for (const [k, val] of Object.entries(cur.raw)) if (k !== 'mcpServers' || Object.keys(servers).length) after[k] = k === 'mcpServers' ? servers : val;
  return giveBack(path, cur, after);
}

/** Whether `mcpServers.sbx` is the server installServer wrote (any sbx path: a moved checkout's too). */
function claudeServerOf(raw: Record<string, unknown>): boolean {
  const servers = raw.mcpServers;
  const e = servers && typeof servers === 'object' ? (servers as Record<string, unknown>)[SERVER] : undefined;
  if (!e || typeof e !== 'object') return false;
  const args = (e as { args?: unknown }).args;
  return Array.isArray(args) && args.length === 3 && /cli\.c?js$/.test(String(args[0])) && args[1] === 'mcp' && args[2] === '--hook-only';
}

function hasOurs(json: unknown): boolean {
  const r = v.safeParse(Settings, json);
  return !r.success || anyOurs(r.output) || routeOf(json as Record<string, unknown>) !== null || claudeServerOf(json as Record<string, unknown>);
}

function anyOurs(settings: SettingsT): boolean {
  return Object.values(settings.hooks ?? {}).some((list) => list.some((m) => (m.hooks ?? []).some(isOurs)));
}

/** The parsed file with `hooks` replaced in place (its key keeps its position; an empty one is dropped). */
function withHooks(raw: Record<string, unknown>, hooks: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const empty = Object.keys(hooks).length === 0;
  for (const [k, val] of Object.entries(raw)) {
    if (k !== 'hooks') out[k] = val;
    else if (!empty) out[k] = hooks;
  }
  if (!('hooks' in raw) && !empty) out.hooks = hooks;
  return out;
}

function readBackup(path: string): { text: string; json: unknown } | null {
  try {
    const text = readRegularText(path, { follow: false });
    return { text, json: text.trim() ? JSON.parse(text) : {} };
  } catch {
    return null;
  } // not ours to judge: the file is then left edited, not restored
}

/** The matcher groups without sbx's hooks (a group left with no hook is dropped). */
function strip(list: v.InferOutput<typeof Matcher>[]): v.InferOutput<typeof Matcher>[] {
  const out = [];
  for (const m of list) {
    if (!m.hooks) {
      out.push(m);
      continue;
    }
    const hs = m.hooks.filter((h) => !isOurs(h));
    if (hs.length === m.hooks.length) out.push(m);
    else if (hs.length) out.push({ ...m, hooks: hs });
  }
  return out;
}

function load(path: string): { settings: SettingsT; raw: Record<string, unknown>; text: string | null } {
  if (!existsSync(path)) return { settings: {}, raw: {}, text: null };
  const text = readRegularText(path, { follow: true }); // a FIFO there (a project's .claude is the sandbox's to make) must not hang install
  let json: unknown;
  try {
    json = text.trim() ? JSON.parse(text) : {};
  } catch (err) {
    throw new SbxError('E_SETTINGS', `${path} is not JSON (${(err as Error).message}): fix it by hand first; nothing was changed`);
  }
  const r = v.safeParse(Settings, json);
  if (!r.success) throw new SbxError('E_SETTINGS', `${path}: ${v.getDotPath(r.issues[0]) ?? 'root'}: ${r.issues[0].message}; nothing was changed`);
  // The entries as written, not valibot's copies (which put known keys first): key order is the user's.
  const raw = json as Record<string, unknown>;
  return { settings: raw as SettingsT, raw, text };
}

/** Writes the settings in the file's own style: its indentation (2 spaces for a new file), one line if it was one line, its final newline. */
function save(path: string, settings: Record<string, unknown>, was: string | null): void {
  const indent = was === null ? '  ' : (/\n([ \t]+)\S/.exec(was)?.[1] ?? (was.trim().includes('\n') ? '  ' : ''));
  const nl = was === null || was.endsWith('\n') || !was.trim() ? '\n' : '';
  makeDirs(dirname(path));
  writeAtomic(path, `${JSON.stringify(settings, null, indent || undefined)}${nl}`);
}

function writeAtomic(path: string, text: string): void {
  const tmp = `${path}.sbx-tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}
