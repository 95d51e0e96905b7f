// --allow-host patterns from the config files (issue 35): the user's ($XDG_CONFIG_HOME/sbx/config.json,
// else ~/.config/sbx/config.json) and the project's (sbx.config.json at the top of the work dir, or the
// file SBX_CONFIG names, as the hook reads it), key "allowHosts": ["registry.example.com", "*.example.org:443"].
// None is built in. A bad file is one E_CONFIG line, never a run with a half-read list.
import { lstatSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { SbxError } from '../contract/index.js';
import { parseAllowHost, readRegularText } from '../launcher/index.js';

export const PROJECT_CONFIG = 'sbx.config.json';
const MAX_CONFIG_BYTES = 1 << 20;

export interface ConfigHosts {
  /** The patterns of both files, the user's first, each once. */
  hosts: string[];
  /** The project's file and the patterns it alone added (named in a note: a cloned repository can bring it). */
  project: { path: string; hosts: string[] } | null;
}

/** The user's config file: where XDG says, else under the home. */
export function userConfigPath(env: Record<string, string | undefined> = process.env): string {
  const base = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config');
  return join(base, 'sbx', 'config.json');
}

/**
 * A config file's JSON, or undefined when it is absent (a `missing` errno) and `optional`. Read as a
 * regular file alone (never a FIFO, which would hang, nor a huge file), through a symlink only when
 * `follow` (a file the user named): the project's file is the sandbox's to plant. Any problem is one
 * E_CONFIG line. The hooks' settings (src/integrations/hook/config.ts) and the allowed hosts read it so.
 */
export function readConfigJson(path: string, o: { follow: boolean; optional: boolean; missing?: readonly string[] }): unknown {
  let text: string;
  // Absent (the usual case: every run looks for two): told by a stat, not by the open's throw (a cold
  // process's first costs ~0.1 ms). Nothing at the name: the open, following or not, finds ENOENT too.
  if (o.optional && (o.missing ?? ['ENOENT']).includes('ENOENT') && nothingAt(path)) return undefined;
  try {
    text = readRegularText(path, { follow: o.follow, maxBytes: MAX_CONFIG_BYTES });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (o.optional && (o.missing ?? ['ENOENT']).includes(code ?? '')) return undefined;
    if (err instanceof SbxError) throw new SbxError('E_CONFIG', err.message);
    if (code === 'ELOOP')
      throw new SbxError(
        'E_CONFIG',
        `${path} is a symlink: sbx reads the project's config only from a regular file (a sandboxed command could have made the link); replace it with the file itself, or name it in SBX_CONFIG`,
      );
    throw new SbxError('E_CONFIG', `cannot read ${path}: ${(err as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new SbxError('E_CONFIG', `${path} is not JSON (${(err as Error).message}); fix it or remove it`);
  }
}

/** Whether no entry is at path (ENOENT); false on any other answer, which the read that follows reports. */
function nothingAt(path: string): boolean {
  try {
    return lstatSync(path, { throwIfNoEntry: false }) === undefined;
  } catch {
    return false;
  }
}

/** The allowHosts of one file; [] when it is absent. `follow`: the user's own file may be a link. */
function hostsOf(path: string, follow: boolean): string[] {
  const json = readConfigJson(path, { follow, optional: true, missing: ['ENOENT', 'ENOTDIR'] });
  if (json === undefined) return [];
  const list = json !== null && typeof json === 'object' && !Array.isArray(json) ? (json as { allowHosts?: unknown }).allowHosts : undefined;
  if (list === undefined) return [];
  if (!Array.isArray(list) || !list.every((h) => typeof h === 'string'))
    throw new SbxError('E_CONFIG', `${path}: allowHosts must be an array of host patterns, e.g. ["registry.example.com", "*.example.org:443"]`);
  for (const h of list) {
    try {
      parseAllowHost(h);
    } catch (err) {
      throw new SbxError('E_CONFIG', `${path}: allowHosts: ${(err as Error).message}`);
    }
  }
  return list;
}

/** The patterns the config files allow for a run in `work`. */
export function configHosts(work: string, env: Record<string, string | undefined> = process.env): ConfigHosts {
  const user = hostsOf(userConfigPath(env), true);
  const projectPath = env.SBX_CONFIG || join(work, PROJECT_CONFIG);
  const project = hostsOf(projectPath, Boolean(env.SBX_CONFIG));
  const added = project.filter((h) => !user.includes(h));
  return { hosts: [...new Set([...user, ...project])], project: added.length ? { path: projectPath, hosts: added } : null };
}
