// Where the resident sbx of an install listens, computed alike here and in native/client.c: a
// directory only this user can enter ($XDG_RUNTIME_DIR/sbx, else /tmp/sbx-<uid>; refused if it is a
// link, another user's, or open to others), and in it <hash>.sock, .key, .lock and .log, where <hash>
// (FNV-1a, 64 bits) names the install by its real path: two checkouts never share a server.
import { lstatSync, mkdirSync, realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';

export interface Place { dir: string; hash: string; sock: string; key: string; lock: string; log: string }

/** The package root of the CLI file `cli` (<root>/dist/cli.cjs), by real path. */
export const packageRoot = (cli: string): string => dirname(dirname(realpathSync(cli)));

export function installHash(root: string): string {
  let h = 0xcbf29ce484222325n;
  for (const b of Buffer.from(root)) h = ((h ^ BigInt(b)) * 0x100000001b3n) & 0xffffffffffffffffn;
  return h.toString(16).padStart(16, '0');
}

function privateDir(dir: string, uid: number): boolean {
  try { mkdirSync(dir, { mode: 0o700 }); } catch (err) { if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return false; }
  try {
    const st = lstatSync(dir);
    return st.isDirectory() && st.uid === uid && (st.mode & 0o077) === 0;
  } catch { return false; }
}

export function socketDir(env: NodeJS.ProcessEnv, uid: number): string | null {
  const xdg = env.XDG_RUNTIME_DIR;
  if (xdg && isAbsolute(xdg)) {
    try {
      const st = statSync(xdg);
      if (st.isDirectory() && st.uid === uid && privateDir(join(xdg, 'sbx'), uid)) return join(xdg, 'sbx');
    } catch { /* the /tmp one, then */ }
  }
  const tmp = `/tmp/sbx-${uid}`;
  return privateDir(tmp, uid) ? tmp : null;
}

/** The resident sbx's files for the install at root, or null when no private directory can be had. */
export function residentPlace(root: string, env: NodeJS.ProcessEnv = process.env, uid = process.getuid?.() ?? 0): Place | null {
  const dir = socketDir(env, uid);
  if (!dir) return null;
  const hash = installHash(root);
  const at = (ext: string): string => join(dir, `${hash}.${ext}`);
  return { dir, hash, sock: at('sock'), key: at('key'), lock: at('lock'), log: at('log') };
}
