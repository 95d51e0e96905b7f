// The hook's settings: `sbx.config.json` in the project (or the file named by SBX_CONFIG), key "hook".
//   { "hook": { "sandbox": ["bazel test"], "host": ["make deploy"], "builtins": true,
//               "flags": ["--memory=2048"], "distilBytes": 4096, "rewrite": true } }
// sandbox/host add patterns to the built-in tables (rules.ts), or replace them with "builtins": false;
// flags are passed to `sbx run`; distilBytes is the output size above which the post-hook distils a
// build/test command that did not go through sbx; rewrite: false keeps every command on the host and only
// distils its output.
import { join } from 'node:path';
import * as v from 'valibot';
import { SbxError } from '../../contract/index.js';
import { readRegularText } from '../../launcher/index.js';
import { HOST, SANDBOX, type Rules } from './rules.js';
import { checkProjectFlags } from './project-flags.js';

const Pattern = v.pipe(v.string(), v.trim(), v.nonEmpty());
const HookConfigSchema = v.strictObject({
  sandbox: v.optional(v.array(Pattern)),
  host: v.optional(v.array(Pattern)),
  builtins: v.optional(v.boolean()),
  flags: v.optional(v.array(v.pipe(v.string(), v.startsWith('--')))),
  distilBytes: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
  rewrite: v.optional(v.boolean()),
});
const FileSchema = v.looseObject({ hook: v.optional(HookConfigSchema) });

export interface HookConfig extends Rules {
  flags: string[];
  distilBytes: number;
  rewrite: boolean;
  /** Where the settings came from (null: built-in defaults). */
  source: string | null;
}

export const CONFIG_FILE = 'sbx.config.json';
const DISTIL_BYTES = 4096;
const MAX_CONFIG_BYTES = 1 << 20;

/** Reads the project's settings; a missing file means the defaults, a bad one is an SbxError. */
export function loadHookConfig(projectDir: string, envPath = process.env.SBX_CONFIG): HookConfig {
  const path = envPath || join(projectDir, CONFIG_FILE);
  let text: string;
  try {
    // The project's file is the sandbox's to plant when it did not exist: never a FIFO (it would hang
    // every hook call), a link or a huge file. SBX_CONFIG, named by the user, may be a link.
    text = readRegularText(path, { follow: Boolean(envPath), maxBytes: MAX_CONFIG_BYTES });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && !envPath) return defaults(null);
    if (err instanceof SbxError) throw new SbxError('E_CONFIG', err.message);
    if (code === 'ELOOP')
      throw new SbxError(
        'E_CONFIG',
        `${path} is a symlink: sbx reads the project's config only from a regular file (a sandboxed command could have made the link); replace it with the file itself, or name it in SBX_CONFIG`,
      );
    throw new SbxError('E_CONFIG', `cannot read ${path}: ${(err as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new SbxError('E_CONFIG', `${path} is not JSON (${(err as Error).message}); fix it or remove it`);
  }
  const r = v.safeParse(FileSchema, json);
  if (!r.success) {
    const i = r.issues[0];
    throw new SbxError('E_CONFIG', `${path}: ${v.getDotPath(i) ?? 'hook'}: ${i.message}; see docs/integrations.md for the "hook" settings`);
  }
  const c = r.output.hook ?? {};
  checkProjectFlags(c.flags ?? [], path, projectDir);
  const base = c.builtins === false ? { sandbox: [], host: [] } : { sandbox: SANDBOX, host: HOST };
  return {
    sandbox: [...(c.sandbox ?? []), ...base.sandbox],
    host: [...(c.host ?? []), ...base.host],
    flags: c.flags ?? [],
    distilBytes: c.distilBytes ?? DISTIL_BYTES,
    rewrite: c.rewrite ?? true,
    source: path,
  };
}

function defaults(source: string | null): HookConfig {
  return { sandbox: SANDBOX, host: HOST, flags: [], distilBytes: DISTIL_BYTES, rewrite: true, source };
}
