// Which `sbx run` flags the hook takes from a settings file that a sandboxed command could have
// written: the project's sbx.config.json (or an SBX_CONFIG inside the project). Those may only tighten
// or tune the sandbox, never open it: no --bind/--ro-bind (a host path in the sandbox, read or
// written), --net (egress), --no-seccomp, --inherit-env (the caller's secrets inside), and no flag that
// names a host path sbx writes (--state, --envelope, --sarif) or moves the work dir. A settings file
// outside the project (SBX_CONFIG) is the user's own, and may say anything.
import { realpathSync } from 'node:fs';
import { isAbsolute, relative } from 'node:path';
import { SbxError } from '../../contract/index.js';

/** Flags a project's settings may pass, by name (before any `=`). */
const SAFE = new Set(['--timeout', '--memory', '--pids', '--env', '--aslr', '--no-loopback', '--allow-ptrace', '--max-log']);

/** Throws E_CONFIG naming the first flag a file inside projectDir may not pass. */
export function checkProjectFlags(flags: readonly string[], source: string, projectDir: string): void {
  if (!inside(source, projectDir)) return;
  for (const f of flags) {
    const name = f.split('=', 1)[0]!;
    if (!SAFE.has(name)) {
      throw new SbxError(
        'E_CONFIG',
        `${source}: hook.flags: ${name} is not taken from a file in the project (a sandboxed command could have written it, and ${name} would open the sandbox or write outside it); fix: remove it, or put it in a settings file outside the project named by SBX_CONFIG`,
      );
    }
  }
}

function inside(path: string, dir: string): boolean {
  let p = path;
  let d = dir;
  try {
    d = realpathSync.native(dir);
  } catch {
    /* as given */
  }
  try {
    p = realpathSync.native(path);
  } catch {
    /* as given */
  }
  const r = relative(d, p);
  return r === '' || (!r.startsWith('..') && !isAbsolute(r));
}
