// `sbx hook install --claude|--codex|--gemini`: adds sbx's hooks to the client's hook file (Claude Code:
// .claude/settings.json; Codex: .codex/hooks.json; Gemini CLI: .gemini/settings.json; all three with the
// same {hooks: {Event: [{matcher, hooks}]}} shape),
// merging with what is there (other hooks, permissions, env stay as they were); the file is copied to
// <file>.sbx.bak first.
// `sbx hook uninstall` removes exactly the entries install added. The hook command names this sbx by
// absolute path (node and dist/cli.js, resolved now), so it works whatever is on PATH or in npx's cache.
import { copyFileSync, existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { readRegularText } from '../../launcher/index.js';
import { dirname, join } from 'node:path';
import * as v from 'valibot';
import { SbxError } from '../../contract/errors.js';
import { shellQuote } from './quote.js';
import type { Self } from './rewrite.js';

export type Client = 'claude' | 'codex' | 'gemini';

const EVENTS: Record<Client, Record<string, string>> = {
  claude: { PreToolUse: 'claude-pre', PostToolUse: 'claude-post', PostToolUseFailure: 'claude-post' },
  // Codex fires PostToolUse for failing commands too, and has no PostToolUseFailure.
  codex: { PreToolUse: 'codex-pre', PostToolUse: 'codex-post' },
  gemini: { BeforeTool: 'gemini-pre', AfterTool: 'gemini-post' },
};

/** The name each client gives its shell tool in a hook matcher. */
const MATCHER: Record<Client, string> = { claude: 'Bash', codex: 'Bash', gemini: 'run_shell_command' };

/** A minute, in each client's unit: Gemini CLI reads hook timeouts in milliseconds, the others in seconds. */
const TIMEOUT: Record<Client, number> = { claude: 60, codex: 60, gemini: 60_000 };

const HookEntry = v.looseObject({ type: v.optional(v.string()), command: v.optional(v.string()) });
const Matcher = v.looseObject({ matcher: v.optional(v.string()), hooks: v.optional(v.array(HookEntry)) });
const Settings = v.looseObject({ hooks: v.optional(v.record(v.string(), v.array(Matcher))) });
type SettingsT = v.InferOutput<typeof Settings>;

export function settingsPath(client: Client, scope: 'project' | 'user', projectDir: string, home: string, codexHome = process.env.CODEX_HOME): string {
  if (client === 'codex') return scope === 'user' ? join(codexHome || join(home, '.codex'), 'hooks.json') : join(projectDir, '.codex', 'hooks.json');
  if (client === 'gemini') return join(scope === 'user' ? home : projectDir, '.gemini', 'settings.json');
  return scope === 'user' ? join(home, '.claude', 'settings.json') : join(projectDir, '.claude', 'settings.json');
}

export function hookCommand(self: Self, name: string): string {
  return self.client ? `${shellQuote(self.client)} hook ${name}` : `${shellQuote(self.node)} ${shellQuote(self.cli)} hook ${name}`;
}

/**
 * An entry that some sbx install wrote (any path: a moved checkout is still recognised), naming the CLI as
 * dist/cli.js (`node dist/cli.js hook install`), dist/cli.cjs (the bin that npm link and npm install -g run)
 * or build/sbx-client (the resident sbx's client).
 */
const isOurs = (cmd: string | undefined) => typeof cmd === 'string' && / hook (claude|codex|gemini)-(pre|post)$/.test(cmd) && /(cli\.c?js|build\/sbx-client)'? hook /.test(cmd);

export function install(client: Client, path: string, self: Self): { backup: string | null } {
  const { settings, backup } = load(path);
  const hooks = { ...(settings.hooks ?? {}) };
  for (const [event, name] of Object.entries(EVENTS[client])) {
    const kept = strip(hooks[event] ?? []);
    hooks[event] = [...kept, { matcher: MATCHER[client], hooks: [{ type: 'command', command: hookCommand(self, name), timeout: TIMEOUT[client] }] }];
  }
  save(path, { ...settings, hooks });
  return { backup };
}

export function uninstall(path: string): { backup: string | null; removed: number } {
  if (!existsSync(path)) return { backup: null, removed: 0 };
  const { settings, backup } = load(path);
  const hooks: Record<string, v.InferOutput<typeof Matcher>[]> = {};
  let removed = 0;
  for (const [event, list] of Object.entries(settings.hooks ?? {})) {
    const kept = strip(list);
    removed += list.length - kept.length;
    if (kept.length) hooks[event] = kept;
  }
  const { hooks: _old, ...rest } = settings;
  save(path, Object.keys(hooks).length ? { ...rest, hooks } : rest);
  return { backup, removed };
}

/** The matcher groups without sbx's hooks (a group left with no hook is dropped). */
function strip(list: v.InferOutput<typeof Matcher>[]): v.InferOutput<typeof Matcher>[] {
  const out = [];
  for (const m of list) {
    if (!m.hooks) { out.push(m); continue; }
    const hs = m.hooks.filter((h) => !isOurs(h.command));
    if (hs.length === m.hooks.length) out.push(m);
    else if (hs.length) out.push({ ...m, hooks: hs });
  }
  return out;
}

function load(path: string): { settings: SettingsT; backup: string | null } {
  if (!existsSync(path)) return { settings: {}, backup: null };
  const text = readRegularText(path, { follow: true }); // a FIFO there (a project's .claude is the sandbox's to make) must not hang install
  let json: unknown;
  try { json = text.trim() ? JSON.parse(text) : {}; } catch (err) {
    throw new SbxError('E_SETTINGS', `${path} is not JSON (${(err as Error).message}): fix it by hand first; nothing was changed`);
  }
  const r = v.safeParse(Settings, json);
  if (!r.success) throw new SbxError('E_SETTINGS', `${path}: ${v.getDotPath(r.issues[0]) ?? 'root'}: ${r.issues[0].message}; nothing was changed`);
  const backup = `${path}.sbx.bak`;
  copyFileSync(path, backup);
  return { settings: r.output, backup };
}

function save(path: string, settings: SettingsT): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.sbx-tmp`;
  writeFileSync(tmp, `${JSON.stringify(settings, null, 2)}\n`);
  renameSync(tmp, path);
}
