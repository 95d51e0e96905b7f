// Gemini CLI's own policy for its shell tool, honoured before a rewrite (hook/permissions.ts says why:
// Gemini CLI 0.61 runs the BeforeTool hook first and its policy engine on the arguments the hook
// returned, so a deny rule for `make` no longer matches once rewritten). Read as the installed 0.61
// code reads it (packages/core/src/policy/{config,toml-loader,policy-engine}.ts, packages/cli/src/config/
// {policy,settings}.ts):
//   - TOML policy files (`[[rule]]` with toolName, commandPrefix / commandRegex / argsPattern, decision
//     "allow" | "deny" | "ask_user", priority 0-999), every *.toml of: the admin dir /etc/gemini-cli/policies
//     (only when owned by root and not writable by group or others), the `adminPolicyPaths` setting
//     (ignored when the admin dir has a .toml), and the user dir ~/.gemini/policies (or the `policyPaths`
//     setting instead). The workspace tier (<project>/.gemini/policies) is disabled in 0.61;
//   - the settings files' tool lists (system defaults < user < workspace < system; tools.exclude is the
//     union of all, the other lists the last one set): tools.exclude names a tool to deny (an entry
//     with arguments, `run_shell_command(rm)`, denies nothing in 0.61: checked with the real client),
//     tools.allowed allows `run_shell_command(prefix)` and then denies every other shell command,
//     tools.confirmationRequired asks, tools.core allows its entries and denies every other tool.
// Each rule's priority is its tier plus priority/1000 (admin 5, user 4; the settings lists 4.24-4.4).
// For the whole call and for each of its simple commands, the highest-priority rule that matches decides;
// a line is left to Gemini when one of those says deny or ask_user. The built-in (default tier) rules are
// not read: they decide only where the user's own rules are silent.
import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, normalize, resolve } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import * as v from 'valibot';
import { filesIn, readRuleFile, refusal, type Notes, type Refusal } from '../hook/permissions.js';

const SHELL = 'run_shell_command';
const SHELL_NAMES = ['run_shell_command', 'ShellTool'];

export interface GeminiRule {
  toolName: string;
  decision: 'allow' | 'deny' | 'ask_user';
  priority: number;
  argsPattern?: RegExp;
  rule: string;
  source: string;
}

export interface GeminiPlaces {
  home: string;
  cwd: string;
  systemSettings: string;
  systemDefaults: string;
  systemPolicies: string;
}

/** Where Gemini CLI 0.61 looks, from its environment (GEMINI_CLI_HOME, GEMINI_CLI_SYSTEM_*_PATH). */
export function geminiPlaces(cwd: string, env: NodeJS.ProcessEnv = process.env): GeminiPlaces {
  const systemSettings = env.GEMINI_CLI_SYSTEM_SETTINGS_PATH || '/etc/gemini-cli/settings.json';
  return {
    home: env.GEMINI_CLI_HOME || homedir(),
    cwd,
    systemSettings,
    systemDefaults: env.GEMINI_CLI_SYSTEM_DEFAULTS_PATH || join(dirname(systemSettings), 'system-defaults.json'),
    systemPolicies: '/etc/gemini-cli/policies',
  };
}

const Strings = v.optional(v.array(v.string()));
const Settings = v.looseObject({
  tools: v.optional(v.looseObject({ exclude: Strings, allowed: Strings, core: Strings, confirmationRequired: Strings })),
  policyPaths: Strings,
  adminPolicyPaths: Strings,
});
type SettingsShape = v.InferOutput<typeof Settings>;

const OneOrMore = v.union([v.string(), v.array(v.string())]);
const TomlRule = v.looseObject({
  toolName: OneOrMore,
  subagent: v.optional(v.string()),
  mcpName: v.optional(v.string()),
  toolAnnotations: v.optional(v.record(v.string(), v.unknown())),
  argsPattern: v.optional(v.string()),
  commandPrefix: v.optional(OneOrMore),
  commandRegex: v.optional(v.string()),
  decision: v.picklist(['allow', 'deny', 'ask_user']),
  priority: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(999)),
});
const PolicyFile = v.looseObject({ rule: v.optional(v.array(TomlRule)) });

/** The rules Gemini CLI would apply to its shell tool, with a note for whatever cannot be read. */
export function loadGeminiPolicy(places: GeminiPlaces, notes: Notes): GeminiRule[] {
  const s = mergedSettings(places, notes);
  const rules: GeminiRule[] = [];
  const adminDir = secureDir(places.systemPolicies) ? [places.systemPolicies] : [];
  const adminExtra = filesIn(places.systemPolicies, '.toml', []).length ? [] : (s.adminPolicyPaths ?? []).map((p) => resolvePath(p, places.home));
  for (const p of [...adminDir, ...adminExtra]) rules.push(...tomlRules(p, 5, notes));
  const userPaths = s.policyPaths?.length ? s.policyPaths.map((p) => resolvePath(p, places.home)) : [join(places.home, '.gemini', 'policies')];
  for (const p of userPaths) rules.push(...tomlRules(p, 4, notes));
  rules.push(...settingsRules(s));
  // Highest priority first; a stable sort keeps load order among equals, as Gemini's does.
  return rules.sort((a, b) => b.priority - a.priority);
}

/** The rule that keeps this call (or its rewrite) from being rewritten, or null. */
export function geminiRefusal(input: Record<string, unknown>, rewrite: string | null, rules: GeminiRule[]): Refusal | null {
  const command = String(input.command ?? '');
  return refusal(command, rewrite, (part) => {
    // The whole call is judged with all its arguments, each command with its text and dir_path.
    const args = part.words ? { command: part.text, dir_path: input.dir_path } : { ...input, command: part.text };
    const json = stableStringify(args);
    const top = rules.find((r) => (r.toolName === '*' || r.toolName === SHELL) && (!r.argsPattern || r.argsPattern.test(json)));
    if (!top || top.decision === 'allow') return null;
    return { decision: top.decision === 'deny' ? 'deny' : 'ask', rule: top.rule, source: top.source };
  });
}

function tomlRules(path: string, tier: number, notes: Notes): GeminiRule[] {
  const files = path.endsWith('.toml') ? [path] : filesIn(path, '.toml', notes);
  const out: GeminiRule[] = [];
  for (const file of files) {
    const text = readRuleFile(file, notes);
    if (text === null) continue;
    let json: unknown;
    try {
      json = parseToml(text);
    } catch (err) {
      notes.push(`${file} is not TOML (${(err as Error).message.split('\n')[0]}); its rules are not honoured`);
      continue;
    }
    const r = v.safeParse(PolicyFile, json);
    if (!r.success) {
      notes.push(`${file}: ${v.getDotPath(r.issues[0]) ?? 'rule'}: ${r.issues[0].message}; its rules are not honoured`);
      continue;
    }
    for (const [i, rule] of (r.output.rule ?? []).entries()) {
      // Rules for a subagent, an MCP server or tools with given annotations never apply to the main
      // agent's shell tool.
      if (rule.subagent !== undefined || rule.mcpName !== undefined || rule.toolAnnotations !== undefined) continue;
      const text = `[[rule]] #${i + 1} ${JSON.stringify({ toolName: rule.toolName, commandPrefix: rule.commandPrefix, commandRegex: rule.commandRegex, argsPattern: rule.argsPattern, decision: rule.decision })}`;
      for (const pattern of argsPatterns(rule.argsPattern, rule.commandPrefix, rule.commandRegex)) {
        let re: RegExp | undefined;
        if (pattern !== undefined) {
          if (!safePattern(pattern)) {
            notes.push(`${file}: rule #${i + 1}: pattern ${JSON.stringify(pattern)} is not a safe regular expression; skipped`);
            continue;
          }
          re = new RegExp(pattern);
        }
        for (const toolName of [rule.toolName].flat()) {
          out.push({ toolName, decision: rule.decision, priority: tier + rule.priority / 1000, rule: text, source: file, ...(re ? { argsPattern: re } : {}) });
        }
      }
    }
  }
  return out;
}

/** Gemini's buildArgsPatterns: a prefix must be followed by a space or the end of the command. */
function argsPatterns(argsPattern: string | undefined, prefix: string | string[] | undefined, regex: string | undefined): (string | undefined)[] {
  if (prefix !== undefined) {
    return [prefix].flat().map((p) => {
      const open = JSON.stringify(p).slice(0, -1);
      return `${geminiEscape(`"command":${open}`)}(?:[\\s"]|\\\\")`;
    });
  }
  if (regex !== undefined) return [`"command":"${regex}`];
  return [argsPattern];
}

function settingsRules(s: SettingsShape): GeminiRule[] {
  const out: GeminiRule[] = [];
  const source = 'settings.json';
  const add = (toolName: string, decision: GeminiRule['decision'], priority: number, rule: string, argsPattern?: RegExp) =>
    out.push({ toolName, decision, priority, rule, source, ...(argsPattern ? { argsPattern } : {}) });
  for (const t of s.tools?.exclude ?? []) add(t, 'deny', 4.4, `tools.exclude ${JSON.stringify(t)}`);
  for (const t of s.tools?.confirmationRequired ?? []) add(SHELL_NAMES.includes(t) ? SHELL : t, 'ask_user', 4.35, `tools.confirmationRequired ${JSON.stringify(t)}`);
  const lists = [
    ['allowed', 4.3],
    ['core', 4.25],
  ] as const;
  for (const [key, priority] of lists) {
    const list = s.tools?.[key];
    if (!list) continue;
    let narrowed = false;
    for (const t of list) {
      const m = /^([a-zA-Z0-9_-]+)\((.*)\)$/.exec(t);
      const name = m ? (SHELL_NAMES.includes(m[1]!) ? SHELL : m[1]!) : SHELL_NAMES.includes(t) ? SHELL : t;
      if (m && name === SHELL) {
        narrowed = true;
        for (const p of argsPatterns(undefined, m[2]!, undefined)) add(SHELL, 'allow', priority, `tools.${key} ${JSON.stringify(t)}`, new RegExp(p!));
      } else add(name, 'allow', priority, `tools.${key} ${JSON.stringify(t)}`);
    }
    // tools.allowed with a narrowed shell entry denies every other shell command; tools.core denies
    // every tool it does not list.
    if (key === 'allowed' && narrowed) add(SHELL, 'deny', priority - 0.01, 'tools.allowed (only the listed shell commands)');
    if (key === 'core') add('*', 'deny', priority - 0.01, 'tools.core (only the listed tools)');
  }
  return out;
}

function mergedSettings(places: GeminiPlaces, notes: Notes): SettingsShape {
  // Lowest precedence first; the workspace's settings count only in a trusted folder, which the hook
  // cannot tell: they are read (an untrusted folder also runs in Gemini's default approval mode).
  const files = [places.systemDefaults, join(places.home, '.gemini', 'settings.json'), join(resolve(places.cwd), '.gemini', 'settings.json'), places.systemSettings];
  const merged: SettingsShape = {};
  const exclude = new Set<string>();
  for (const f of files) {
    const text = readRuleFile(f, notes);
    if (text === null) continue;
    let json: unknown;
    try {
      json = JSON.parse(stripJsonComments(text));
    } catch (err) {
      notes.push(`${f} is not JSON (${(err as Error).message}); its tool settings are not honoured`);
      continue;
    }
    const r = v.safeParse(Settings, json);
    if (!r.success) {
      notes.push(`${f}: ${v.getDotPath(r.issues[0]) ?? ''}: ${r.issues[0].message}; its tool settings are not honoured`);
      continue;
    }
    const t = r.output.tools;
    for (const x of t?.exclude ?? []) exclude.add(x);
    merged.tools = {
      ...merged.tools,
      ...(t?.allowed ? { allowed: t.allowed } : {}),
      ...(t?.core ? { core: t.core } : {}),
      ...(t?.confirmationRequired ? { confirmationRequired: t.confirmationRequired } : {}),
    };
    if (r.output.policyPaths) merged.policyPaths = r.output.policyPaths;
    if (r.output.adminPolicyPaths) merged.adminPolicyPaths = r.output.adminPolicyPaths;
  }
  merged.tools = { ...merged.tools, exclude: [...exclude] };
  return merged;
}

/** Gemini CLI reads its admin policy dir only when root owns it and only root can write it. */
function secureDir(dir: string): boolean {
  try {
    const st = statSync(dir);
    return st.isDirectory() && st.uid === 0 && (st.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

const resolvePath = (p: string, home: string) => normalize(p === '~' || p.startsWith('~/') ? home + p.slice(1) : p);

/** Gemini's escapeRegex (it also escapes `-`, `,`, `#`, whitespace and `"`). */
const geminiEscape = (s: string) => s.replace(/[-[\]{}()*+?.,\\^$|#\s"]/g, '\\$&');

/** Gemini's isSafeRegExp: compiles, at most 2048 characters, no nested quantifier. */
function safePattern(p: string): boolean {
  try {
    new RegExp(p);
  } catch {
    return false;
  }
  return p.length <= 2048 && !/\([^)]*[*+?{].*\)[*+?{]/.test(p);
}

/** Gemini's stableStringify: sorted keys, undefined dropped, each top-level pair between NULs. */
export function stableStringify(obj: unknown, top = true): string {
  if (obj === undefined || obj === null || typeof obj === 'function' || typeof obj === 'symbol') return 'null';
  if (typeof obj !== 'object') return JSON.stringify(obj);
  if (Array.isArray(obj)) return `[${obj.map((x) => stableStringify(x, false)).join(',')}]`;
  const pairs: string[] = [];
  for (const key of Object.keys(obj).sort()) {
    const value = (obj as Record<string, unknown>)[key];
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol') continue;
    const pair = `${JSON.stringify(key)}:${stableStringify(value, false)}`;
    pairs.push(top ? `\0${pair}\0` : pair);
  }
  return `{${pairs.join(',')}}`;
}

/** JSON with // and /* comments (Gemini CLI's settings files allow them). */
export function stripJsonComments(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      const start = i;
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
      out += text.slice(start, i + 1);
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 1;
    } else out += c;
  }
  return out;
}
