// The directory of this user's sockets (the resident sbx's, the tree watchers'), computed alike here
// and in native/client.c: $XDG_RUNTIME_DIR/sbx, else /tmp/sbx-<uid>; refused if it is a link,
// another user's, or open to others. Names in it are FNV-1a hashes (64 bits) of what they serve.
import { lstatSync, mkdirSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';

export function installHash(root: string): string {
  let h = 0xcbf29ce484222325n;
  for (const b of Buffer.from(root)) h = ((h ^ BigInt(b)) * 0x100000001b3n) & 0xffffffffffffffffn;
  return h.toString(16).padStart(16, '0');
}

function privateDir(dir: string, uid: number): boolean {
  try {
    // Made by an earlier run (every run but the first): no mkdir, whose EEXIST is a throw.
    let st = lstatSync(dir, { throwIfNoEntry: false });
    if (!st) {
      try {
        mkdirSync(dir, { mode: 0o700 });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return false;
      }
      st = lstatSync(dir);
    }
    return st.isDirectory() && st.uid === uid && (st.mode & 0o077) === 0;
  } catch {
    return false;
  }
}

export function socketDir(env: NodeJS.ProcessEnv, uid: number): string | null {
  const xdg = env.XDG_RUNTIME_DIR;
  if (xdg && isAbsolute(xdg)) {
    try {
      const st = statSync(xdg);
      if (st.isDirectory() && st.uid === uid && privateDir(join(xdg, 'sbx'), uid)) return join(xdg, 'sbx');
    } catch {
      /* the /tmp one, then */
    }
  }
  const tmp = `/tmp/sbx-${uid}`;
  return privateDir(tmp, uid) ? tmp : null;
}
