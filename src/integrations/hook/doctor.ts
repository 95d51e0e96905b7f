// `sbx hook doctor [--project|--user]`: whether sbx's hooks and MCP server are really live in each client,
// checked offline from the files the clients read (docs/integrations.md, "Is it live?"). Each client can go
// on without sbx and say nothing: a hook file it does not load, a hook it does not trust, a command that is
// gone. One line per check; `missing` lines are what keeps sbx out of the client's calls.
import { accessSync, constants, existsSync, realpathSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { readRegularText } from '../../launcher/index.js';
import { EVENTS, settingsPath, type Client } from './install.js';
import { claudeIfs } from './claude-if.js';
import { loadHookConfig, type HookConfig } from './config.js';
import type { Self } from './rewrite.js';
import { geminiTrust, trustFix } from '../gemini/gemini-trust.js';
import { routeOf, SHELL_TOOL } from './mcp-route.js';

export type Level = 'ok' | 'missing' | 'note';
export interface Check {
  level: Level;
  client: Client;
  what: string;
  fix?: string;
}

export interface DoctorPlaces {
  scope: 'project' | 'user';
  project: string;
  home: string;
  codexHome: string;
  env: NodeJS.ProcessEnv;
  self: Self;
}

const CHECKS: Record<Client, (p: DoctorPlaces) => Check[]> = { claude: (p) => claude(p), codex: (p) => codex(p), gemini: (p) => gemini(p) };

/**
 * The checks for the clients named, or (none named) for each client whose hook file holds an sbx hook; a
 * client with none is then one note, not a failure: not every user runs all three.
 */
export function doctor(p: DoctorPlaces, named: Client[] = []): Check[] {
  const out: Check[] = [];
  for (const client of ['claude', 'codex', 'gemini'] as const) {
    if (named.length ? !named.includes(client) : !hasAny(client, p)) {
      if (!named.length)
        out.push({
          level: 'note',
          client,
          what: `no sbx hooks in ${settingsPath(client, p.scope, p.project, p.home, p.codexHome)}`,
          fix: `sbx hook install --${client}${p.scope === 'user' ? ' --user' : ''} to use sbx there`,
        });
      continue;
    }
    out.push(...CHECKS[client](p));
  }
  return out;
}

function hasAny(client: Client, p: DoctorPlaces): boolean {
  const r = readConfig(settingsPath(client, p.scope, p.project, p.home, p.codexHome));
  if (!r.ok) return r.why !== null; // a broken file is worth its lines
  if (client === 'gemini' && routeOf(r.json)) return true;
  return Object.values(obj(r.json.hooks)).some(
    (l) => Array.isArray(l) && l.some((m) => (Array.isArray(obj(m).hooks) ? (obj(m).hooks as unknown[]) : []).some((h) => / hook (claude|codex|gemini)-(pre|post)$/.test(String(obj(h).command)))),
  );
}

type Read = { ok: true; json: Record<string, unknown> } | { ok: false; why: string | null };

/** A JSON or TOML file: its object, or why not (null: there is none). */
function readConfig(path: string, toml = false): Read {
  if (!existsSync(path)) return { ok: false, why: null };
  try {
    const text = readRegularText(path, { follow: true });
    const json = toml ? parseToml(text) : text.trim() ? JSON.parse(text) : {};
    if (!json || typeof json !== 'object' || Array.isArray(json)) return { ok: false, why: 'not an object' };
    return { ok: true, json: json as Record<string, unknown> };
  } catch (err) {
    return { ok: false, why: (err as Error).message.split('\n')[0] ?? 'unreadable' };
  }
}

const obj = (x: unknown): Record<string, unknown> => (x && typeof x === 'object' && !Array.isArray(x) ? (x as Record<string, unknown>) : {});

/** The hook checks every client shares: the file, one sbx entry per event, the command it names. */
function hookChecks(client: Client, p: DoctorPlaces, path: string): { checks: Check[]; live: boolean } {
  const install = `sbx hook install --${client}${p.scope === 'user' ? ' --user' : ''}`;
  const r = readConfig(path);
  if (!r.ok) {
    return {
      live: false,
      checks: [
        r.why === null
          ? { level: 'missing', client, what: `no hook file ${path}`, fix: install }
          : { level: 'missing', client, what: `${path} is not valid JSON (${r.why})`, fix: `fix the file by hand, then ${install}` },
      ],
    };
  }
  const checks: Check[] = [{ level: 'ok', client, what: `hook file ${path} is valid JSON` }];
  let live = true;
  const hooks = obj(r.json.hooks);
  const oursFor = (event: string, name: string): string | undefined => {
    const list = Array.isArray(hooks[event]) ? (hooks[event] as unknown[]) : [];
    const cmds = list.flatMap((m) => (Array.isArray(obj(m).hooks) ? (obj(m).hooks as unknown[]) : []).map((h) => obj(h).command)).filter((c): c is string => typeof c === 'string');
    return cmds.find((c) => c.endsWith(` hook ${name}`));
  };
  // The post-hooks: needed with "rewrite": false (the pre-hook then rewrites nothing, and only they
  // distil), one more hook process per call otherwise.
  const post = Object.entries(EVENTS[client].post).filter(([event, name]) => oursFor(event, name));
  const rewrite = rewriteSetting(p);
  if (rewrite === false && post.length === 0)
    checks.push({
      level: 'missing',
      client,
      what: `"rewrite": false in ${p.env.SBX_CONFIG || join(p.project, 'sbx.config.json')} keeps every command on the host, and only a post-hook distils a build's output: none is installed, so the model gets every build's raw output`,
      fix: `${install} --post`,
    });
  else if (rewrite === true && post.length > 0)
    checks.push({
      level: 'note',
      client,
      what: `post-hooks installed (${post.map(([e]) => e).join(', ')}): one more hook process per call, needed only with "rewrite": false (the pre-hook runs a host build through sbx host)`,
      fix: `${install} (without --post)`,
    });
  for (const [event, name] of [...Object.entries(EVENTS[client].pre), ...post]) {
    const ours = oursFor(event, name);
    const viaMcp = !ours && client === 'claude' && event === 'PreToolUse' ? mcpHookOf(hooks[event]) : null;
    if (viaMcp) {
      const c = mcpHookCheck(p, viaMcp);
      checks.push(c);
      live &&= c.level === 'ok';
      continue;
    }
    if (!ours) {
      checks.push({ level: 'missing', client, what: `${event}: no sbx hook (${name})`, fix: install });
      live = false;
      continue;
    }
    const words = namedProgram(ours, name);
    const gone = words.find((w) => !usable(w));
    if (gone) {
      checks.push({ level: 'missing', client, what: `${event}: the hook runs ${gone}, which is missing or not executable`, fix: `${install} (from where sbx is now)` });
      live = false;
      continue;
    }
    const mine = words.some((w) => same(w, p.self.cli) || (p.self.client !== undefined && same(w, p.self.client)));
    if (!mine) {
      checks.push({ level: 'missing', client, what: `${event}: the hook runs another sbx (${words.join(' ')}), not this one (${p.self.cli})`, fix: `${install} from this sbx` });
      live = false;
      continue;
    }
    if (!/^\[ -x /.test(ours)) checks.push({ level: 'note', client, what: `${event}: installed by an older sbx (no guard: if sbx goes, the call is not blocked)`, fix: install });
    checks.push({ level: 'ok', client, what: `${event}: sbx hook ${name} runs ${words.at(-1)}` });
  }
  return { checks, live };
}

/** The project's "rewrite" setting (sbx.config.json, or SBX_CONFIG), or null when it cannot be read (a pre-hook then blocks every call). */
function rewriteSetting(p: DoctorPlaces): boolean | null {
  try {
    return loadHookConfig(p.project, p.env.SBX_CONFIG).rewrite;
  } catch {
    return null;
  }
}

/**
 * The pre-hook's `if` rules (claude-if.ts) were made from the sandbox table at install: a pattern added
 * since that none of them covers never reaches the hook, so its lines run on the host. Why, or null.
 */
function staleIfs(p: DoctorPlaces, path: string): string | null {
  const r = readConfig(path);
  if (!r.ok) return null;
  const list = obj(r.json.hooks).PreToolUse;
  const entries = (Array.isArray(list) ? list : []).flatMap((m) => (Array.isArray(obj(m).hooks) ? (obj(m).hooks as unknown[]) : []).map(obj));
  const ours = entries.filter((h) => String(h.command).endsWith(' hook claude-pre') || (h.type === 'mcp_tool' && h.server === 'sbx' && h.tool === 'claude_pre'));
  if (!ours.length || ours.some((h) => typeof h.if !== 'string')) return null; // runs for every call
  const installed = ours.map((h) => String(h.if).slice('Bash(*'.length, -'*)'.length));
  let cfg: HookConfig;
  try {
    cfg = loadHookConfig(p.project, p.env.SBX_CONFIG);
  } catch {
    return null; // the pre-hook blocks every call it sees; hookChecks' caller reports the file
  }
  const want = cfg.rewrite ? claudeIfs(cfg.sandbox) : [];
  const uncovered = want === null ? ['(a pattern no `if` rule can cover)'] : want.map((w) => w.slice('Bash(*'.length, -'*)'.length)).filter((w) => !installed.some((k) => w.includes(k)));
  if (!uncovered.length) return null;
  return `PreToolUse: the pre-hook runs only for lines its \`if\` rules match, made from the sandbox table at install; the table now also names ${uncovered.join(', ')}, whose lines never reach it and run on the host`;
}

/** The program words of an installed hook line (after the guard's `exec`): [client] or [node, cli]. */
function namedProgram(line: string, name: string): string[] {
  const run = line.includes('; exec ') ? line.slice(line.lastIndexOf('; exec ') + 7) : line;
  const head = run.slice(0, run.length - ` hook ${name}`.length);
  const words: string[] = [];
  for (const m of head.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)) words.push(m[1] !== undefined ? m[1].replace(/'\\''/g, "'") : m[2]!);
  return words;
}

function usable(path: string): boolean {
  try {
    accessSync(path, path.endsWith('.cjs') || path.endsWith('.js') ? constants.R_OK : constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function same(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return resolve(a) === resolve(b);
  }
}

/** sbx's pre-hook as a call to its MCP server (install --claude --mcp-hook: mcp-hook.ts), when installed. */
function mcpHookOf(list: unknown): Record<string, unknown> | null {
  const entries = (Array.isArray(list) ? list : []).flatMap((m) => (Array.isArray(obj(m).hooks) ? (obj(m).hooks as unknown[]) : []).map(obj));
  return entries.find((h) => h.type === 'mcp_tool' && h.server === 'sbx' && h.tool === 'claude_pre') ?? null;
}

/**
 * The mcp_tool pre-hook is live when it fails closed and the server it calls, `sbx` of the project's
 * .mcp.json, starts this sbx; without the server every Bash call is blocked.
 */
function mcpHookCheck(p: DoctorPlaces, entry: Record<string, unknown>): Check {
  const fix = `sbx hook install --claude --mcp-hook (from where sbx is now)`;
  if (entry.onFailure !== 'block')
    return {
      level: 'missing',
      client: 'claude',
      what: 'PreToolUse: the pre-hook calls sbx\'s MCP server without "onFailure": "block": if the server is down, build commands run on the host unsandboxed',
      fix,
    };
  const servers = p.scope === 'project' ? obj(readOk(readConfig(join(p.project, '.mcp.json'))).mcpServers) : {};
  const s = obj(servers.sbx);
  if (!Object.keys(s).length)
    return { level: 'missing', client: 'claude', what: 'PreToolUse: the pre-hook calls MCP server "sbx", which is not in the project\'s .mcp.json: every Bash call is blocked', fix };
  const words = [s.command, ...(Array.isArray(s.args) ? s.args : [])].filter((w): w is string => typeof w === 'string');
  const gone = words.filter((w) => w.startsWith('/')).find((w) => !usable(w));
  if (gone) return { level: 'missing', client: 'claude', what: `PreToolUse: the pre-hook's MCP server runs ${gone}, which is missing or not executable: every Bash call is blocked`, fix };
  if (!words.some((w) => same(w, p.self.cli)))
    return { level: 'missing', client: 'claude', what: `PreToolUse: the pre-hook's MCP server runs another sbx (${words.join(' ')}), not this one (${p.self.cli})`, fix };
  return { level: 'ok', client: 'claude', what: `PreToolUse: sbx's pre-hook as a call to MCP server "sbx" (${words.join(' ')}); Claude Code asks once to approve a project's .mcp.json servers` };
}

/** An MCP server entry {command, args} that starts sbx (`… mcp`): absent is a note (MCP is optional), a dead one is missing. */
function mcpCheck(client: Client, where: string, servers: Record<string, unknown>, add: string): Check {
  const entry = Object.entries(servers).find(
    ([k, s]) => k === 'sbx' || [obj(s).command, ...(Array.isArray(obj(s).args) ? (obj(s).args as unknown[]) : [])].some((w) => typeof w === 'string' && /(cli\.c?js|sbx-client|\bsbx)$/.test(w)),
  );
  if (!entry) return { level: 'note', client, what: `no sbx MCP server in ${where} (optional)`, fix: add };
  const s = obj(entry[1]);
  const cmd = typeof s.command === 'string' ? s.command : '';
  const args = (Array.isArray(s.args) ? s.args : []).filter((a): a is string => typeof a === 'string');
  const bad = [cmd, ...args.filter((a) => a.startsWith('/'))].find((w) => !w || (w.includes('/') ? !usable(w) : false));
  if (bad !== undefined) return { level: 'missing', client, what: `MCP server "${entry[0]}" in ${where} runs ${bad || '(no command)'}, which is missing or not executable`, fix: add };
  return { level: 'ok', client, what: `MCP server "${entry[0]}" in ${where}: ${[cmd, ...args].join(' ')}` };
}

function claude(p: DoctorPlaces): Check[] {
  const path = settingsPath('claude', p.scope, p.project, p.home);
  const { checks } = hookChecks('claude', p, path);
  const stale = staleIfs(p, path);
  if (stale) checks.push({ level: 'missing', client: 'claude', what: stale, fix: `sbx hook install --claude${p.scope === 'user' ? ' --user' : ''}` });
  const add = `claude mcp add sbx -- ${p.self.node} ${p.self.cli} mcp`;
  const user = readConfig(join(p.home, '.claude.json'));
  const servers: Record<string, unknown> = {};
  if (p.scope === 'project') Object.assign(servers, obj(readOk(readConfig(join(p.project, '.mcp.json'))).mcpServers));
  if (user.ok) Object.assign(servers, obj(user.json.mcpServers), obj(obj(obj(user.json.projects)[p.project]).mcpServers));
  checks.push(mcpCheck('claude', p.scope === 'project' ? '.mcp.json or ~/.claude.json' : '~/.claude.json', servers, add));
  return checks;
}

const readOk = (r: Read): Record<string, unknown> => (r.ok ? r.json : {});

function codex(p: DoctorPlaces): Check[] {
  const hooksFile = settingsPath('codex', p.scope, p.project, p.home, p.codexHome);
  const { checks, live } = hookChecks('codex', p, hooksFile);
  const cfgPath = join(p.codexHome, 'config.toml');
  const cfg = readConfig(cfgPath, true);
  if (!cfg.ok && cfg.why !== null) {
    checks.push({ level: 'missing', client: 'codex', what: `${cfgPath} is not valid TOML (${cfg.why}): Codex will not start`, fix: 'fix the file by hand' });
    return checks;
  }
  const toml = readOk(cfg);
  if (p.scope === 'project') {
    // Codex reads a project's .codex only in a project it trusts ([projects."<dir>"] trust_level).
    const projects = obj(toml.projects);
    const trusted = Object.entries(projects).some(([dir, e]) => obj(e).trust_level === 'trusted' && (p.project === dir || p.project.startsWith(dir.endsWith(sep) ? dir : dir + sep)));
    checks.push(
      trusted
        ? { level: 'ok', client: 'codex', what: `the project is trusted in ${cfgPath}` }
        : {
            level: 'missing',
            client: 'codex',
            what: `the project is not trusted in ${cfgPath}: Codex does not read its .codex/hooks.json`,
            fix: 'run codex in the project and trust it, or sbx hook install --codex --user',
          },
    );
  }
  if (live) {
    // Codex records a trusted hook as [hooks.state."<hook>"] trusted_hash = "…", and skips the others in
    // silence. The hash is Codex's: sbx can only see that one was recorded, not that it still matches.
    const state = obj(obj(toml.hooks).state);
    const n = Object.values(state).filter((e) => typeof obj(e).trusted_hash === 'string').length;
    checks.push(
      n > 0
        ? { level: 'ok', client: 'codex', what: `${n} hook trust record(s) in ${cfgPath} (Codex un-trusts a hook edited since: if /hooks lists sbx's as changed, trust them again)` }
        : {
            level: 'missing',
            client: 'codex',
            what: `no hook is trusted in ${cfgPath}: Codex skips untrusted hooks without a word`,
            fix: 'run codex, open /hooks and trust the sbx hooks (codex exec: --dangerously-bypass-hook-trust, for tests only)',
          },
    );
  }
  checks.push(mcpCheck('codex', cfgPath, obj(toml.mcp_servers), `add [mcp_servers.sbx] command = "${p.self.node}", args = ["${p.self.cli}", "mcp"] to ${cfgPath}`));
  return checks;
}

function gemini(p: DoctorPlaces): Check[] {
  const path = settingsPath('gemini', p.scope, p.project, p.home);
  const settings = readOk(readConfig(path));
  const route = routeOf(settings) !== null;
  const checks = route ? [{ level: 'ok' as const, client: 'gemini' as const, what: `${path} holds the MCP route (install --mcp-only): no hooks` }] : hookChecks('gemini', p, path).checks;
  if (p.scope === 'project') {
    // A headless run (gemini -p) loads a project's .gemini/settings.json only in a trusted workspace
    // (gemini-trust.ts); the environment checked is this one: the agent's must agree.
    const t = geminiTrust(p.project, p.home, p.env);
    checks.push(
      t.trusted
        ? { level: 'ok', client: 'gemini', what: `the project is trusted (${t.why}): runs load its .gemini/settings.json` }
        : {
            level: 'missing',
            client: 'gemini',
            what: `the project is not trusted (${t.why}): Gemini CLI ignores its .gemini/settings.json, hooks and MCP servers, without a word, also headless with --skip-trust`,
            fix: trustFix(p.project),
          },
    );
  }
  if (route) {
    checks.push(...mcpRoute(p, path, settings));
    return [...checks, ...routeLive(checks)];
  }
  checks.push(mcpCheck('gemini', path, obj(settings.mcpServers), `add "mcpServers": {"sbx": {"command": "${p.self.node}", "args": ["${p.self.cli}", "mcp"]}} to ${path}`));
  return checks;
}

/**
 * Gemini CLI's route without hooks (mcp-route.ts): the server starts (its node and CLI are there), the shell
 * tool is excluded (else the model's commands run on the host, unsandboxed), and no sbx hook is left.
 */
function mcpRoute(p: DoctorPlaces, path: string, settings: Record<string, unknown>): Check[] {
  const install = `sbx hook install --gemini --mcp-only${p.scope === 'user' ? ' --user' : ''}`;
  const server = mcpCheck('gemini', path, { sbx: obj(settings.mcpServers).sbx }, `${install} (from where sbx is now)`);
  const exclude = obj(settings.tools).exclude;
  const excluded = Array.isArray(exclude) && exclude.includes(SHELL_TOOL);
  return [
    server.level === 'ok' ? server : { ...server, what: `${server.what}: Gemini CLI cannot start it, so the model has no run tool (nor a shell tool)` },
    excluded
      ? { level: 'ok', client: 'gemini', what: `${SHELL_TOOL} is in tools.exclude: Gemini CLI's own shell tool is not offered` }
      : { level: 'missing', client: 'gemini', what: `${SHELL_TOOL} is not in tools.exclude of ${path}: the model can still run commands on the host, unsandboxed`, fix: install },
  ];
}

/** The one line saying whether the route is live: every check before it ok. */
function routeLive(checks: Check[]): Check[] {
  if (checks.some((c) => c.level === 'missing')) return [];
  return [{ level: 'ok', client: 'gemini', what: `MCP route live: every command the model runs goes through sbx's run tool (mcp_sbx_run), in the sandbox` }];
}

/** The report: one line per check, and whether anything needed is missing. */
export function report(checks: Check[]): { text: string; failed: boolean } {
  const name: Record<Client, string> = { claude: 'Claude Code', codex: 'Codex CLI', gemini: 'Gemini CLI' };
  const lines = checks.map((c) => `${c.level.padEnd(7)} ${name[c.client]}: ${c.what}${c.fix ? `; fix: ${c.fix}` : ''}`);
  return { text: `${lines.join('\n')}\n`, failed: checks.some((c) => c.level === 'missing') };
}
