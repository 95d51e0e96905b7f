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
import { PROJECT_CONFIG, readConfigJson } from '../../host/index.js';
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

const DISTIL_BYTES = 4096;

/** Reads the project's settings; a missing file means the defaults, a bad one is an SbxError. */
export function loadHookConfig(projectDir: string, envPath = process.env.SBX_CONFIG): HookConfig {
  const path = envPath || join(projectDir, PROJECT_CONFIG);
  // The project's file when it did not exist means the defaults; SBX_CONFIG, named by the user, must be there.
  const json = readConfigJson(path, { follow: Boolean(envPath), optional: !envPath });
  if (json === undefined) return defaults(null);
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
