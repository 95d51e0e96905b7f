// Whether Gemini CLI loads a project's .gemini/settings.json (sbx's hooks and MCP server there), as
// Gemini CLI 0.61 decides it (packages/core utils/trust.ts, checkPathTrust): GEMINI_RESTRICTED_MODE=true
// or GEMINI_CLI_TRUST_WORKSPACE=false, no; GEMINI_CLI_TRUST_WORKSPACE=true, yes; folder trust turned off
// in the user's settings, yes; else the longest rule of ~/.gemini/trustedFolders.json that holds the
// project (TRUST_FOLDER, TRUST_PARENT: its parent, DO_NOT_TRUST), and none is no. `--skip-trust` is no
// help: it sets GEMINI_CLI_TRUST_WORKSPACE only after the settings were read, so a headless run with it
// uses the user's settings alone, without a word.
import { makeDirs, readRegularText } from '../../launcher/index.js';
import { existsSync, mkdirSync, realpathSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { SbxError } from '../../contract/index.js';
import { stripJsonComments } from './gemini-policy.js';

export interface GeminiTrust {
  trusted: boolean;
  why: string;
}

/** Gemini CLI's home (~/.gemini's parent): GEMINI_CLI_HOME, else the user's. */
export const geminiHome = (home: string, env: NodeJS.ProcessEnv): string => env.GEMINI_CLI_HOME || home;

/** The trusted-folders file Gemini CLI reads: GEMINI_CLI_TRUSTED_FOLDERS_PATH, else ~/.gemini/trustedFolders.json. */
export function trustFile(home: string, env: NodeJS.ProcessEnv): string {
  return env.GEMINI_CLI_TRUSTED_FOLDERS_PATH || join(geminiHome(home, env), '.gemini', 'trustedFolders.json');
}

/** Whether a headless Gemini CLI started in `project`, with env, reads the project's settings. */
export function geminiTrust(project: string, home: string, env: NodeJS.ProcessEnv): GeminiTrust {
  if (env.GEMINI_RESTRICTED_MODE === 'true') return { trusted: false, why: 'GEMINI_RESTRICTED_MODE=true' };
  if (env.GEMINI_CLI_TRUST_WORKSPACE === 'false') return { trusted: false, why: 'GEMINI_CLI_TRUST_WORKSPACE=false' };
  if (env.GEMINI_CLI_TRUST_WORKSPACE === 'true') return { trusted: true, why: 'GEMINI_CLI_TRUST_WORKSPACE=true' };
  const user = join(geminiHome(home, env), '.gemini', 'settings.json');
  const security = obj(obj(readJson(user)).security);
  if (obj(security.folderTrust).enabled === false) return { trusted: true, why: `folder trust is off in ${user}` };
  const file = trustFile(home, env);
  const real = realOf(project);
  let best: { rule: string; level: string } | null = null;
  for (const [rule, level] of Object.entries(obj(readJson(file)))) {
    const root = level === 'TRUST_PARENT' ? dirname(rule) : rule;
    if (!['TRUST_FOLDER', 'TRUST_PARENT', 'DO_NOT_TRUST'].includes(String(level)) || !holds(realOf(root), real)) continue;
    if (!best || rule.length > best.rule.length) best = { rule, level: String(level) };
  }
  if (!best) return { trusted: false, why: `no rule in ${file} holds the project` };
  return best.level === 'DO_NOT_TRUST' ? { trusted: false, why: `${file} says DO_NOT_TRUST for ${best.rule}` } : { trusted: true, why: `${file}: ${best.level} ${best.rule}` };
}

/** What to tell a user whose project Gemini CLI does not trust: the ways to make its settings live. */
export function trustFix(project: string, mcpOnly = false): string {
  const install = `sbx hook install --gemini${mcpOnly ? ' --mcp-only' : ''}`;
  return `${install} --trust (records ${project} as TRUST_FOLDER in ~/.gemini/trustedFolders.json), or trust it in an interactive gemini, or run gemini with GEMINI_CLI_TRUST_WORKSPACE=true (--skip-trust is not enough: it trusts the session after the settings were read), or ${install} --user`;
}

/**
 * Records `project` as TRUST_FOLDER in Gemini CLI's trusted-folders file, as Gemini CLI's own trust
 * dialog does (the other rules kept; the file 0600). Returns the file, or null when it already held that.
 */
export function trustFolder(project: string, home: string, env: NodeJS.ProcessEnv): string | null {
  const file = trustFile(home, env);
  const real = realOf(project);
  const cur = existsSync(file) ? readJson(file, true) : {};
  if (!cur || typeof cur !== 'object' || Array.isArray(cur)) throw new SbxError('E_SETTINGS', `${file} is not a JSON object: fix it by hand first; nothing was changed`);
  const rules = cur as Record<string, unknown>;
  if (rules[real] === 'TRUST_FOLDER') return null;
  makeDirs(dirname(file));
  const tmp = `${file}.sbx-tmp`;
  writeFileSync(tmp, `${JSON.stringify({ ...rules, [real]: 'TRUST_FOLDER' }, null, 2)}`, { mode: 0o600 });
  renameSync(tmp, file);
  return file;
}

/** A JSON file (Gemini CLI allows comments in it) as a value; missing or unreadable is {} unless strict. */
function readJson(path: string, strict = false): unknown {
  try {
    return JSON.parse(stripJsonComments(readRegularText(path, { follow: true })) || '{}');
  } catch (err) {
    if (!strict || (err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new SbxError('E_SETTINGS', `${path} is not JSON (${(err as Error).message.split('\n')[0]}): fix it by hand first; nothing was changed`);
  }
}

const obj = (x: unknown): Record<string, unknown> => (x && typeof x === 'object' && !Array.isArray(x) ? (x as Record<string, unknown>) : {});

function realOf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

const holds = (root: string, path: string): boolean => path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
