// The work dir is the one place the sandbox may write, and what it writes there the host may run later:
// a work dir that is (or holds) the caller's home would let sandboxed code append to ~/.bashrc, drop a
// ~/.config/autostart entry or a ~/.ssh/authorized_keys line. `/` is refused for the same reason.
import { realpathSync } from 'node:fs';
import { userInfo } from 'node:os';
import { isAbsolute, sep } from 'node:path';
import { SbxError } from '../contract/index.js';

/**
 * Fails with E_WORK_HOME when the real path of work is `/`, the caller's home directory ($HOME or the
 * password database's, each by its real path) or a directory above it. work must exist.
 */
export function refuseHomeWork(work: string): void {
  const real = realOr(work);
  if (real === '/') throw refusal(work, real, 'the root directory');
  for (const home of homes()) {
    if (home === real || home.startsWith(`${real}${sep}`)) {
      throw refusal(work, real, home === real ? `your home directory` : `a directory above your home directory ${home}`);
    }
  }
}

function refusal(work: string, real: string, what: string): SbxError {
  const shown = real === work ? work : `${work} (real path ${real})`;
  return new SbxError(
    'E_WORK_HOME',
    `work dir ${shown} is ${what}: the sandbox could write your shell's start-up files and other config the host runs later; refused: pass a project directory with --work (or --allow-home-work if you mean it)`,
  );
}

/** The caller's home directories, as real paths: $HOME and the password database's entry. */
function homes(): string[] {
  const out = new Set<string>();
  const env = process.env.HOME;
  if (env && isAbsolute(env)) out.add(realOr(env));
  const pw = passwdHome();
  if (pw && isAbsolute(pw) && pw !== env) out.add(realOr(pw));
  return [...out];
}

/**
 * The password database's home of this process's uid, read once per uid: userInfo() opens and reads
 * /etc/passwd (and nsswitch.conf) on every call, ~25 us of every run of a process that runs many.
 */
let pwHome: { uid: number; home: string | null } | null = null;
function passwdHome(): string | null {
  const uid = process.getuid?.() ?? -1;
  if (pwHome?.uid !== uid) {
    let home: string | null = null;
    try {
      home = userInfo().homedir;
    } catch {
      /* no entry for this uid (a container's arbitrary uid): $HOME alone */
    }
    pwHome = { uid, home };
  }
  return pwHome.home;
}

function realOr(p: string): string {
  try {
    return realpathSync.native(p);
  } catch {
    return p;
  }
}
