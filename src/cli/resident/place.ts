// Where the resident sbx of an install listens, computed alike here and in native/client.c: a
// directory only this user can enter (src/host/private-dir.ts), and in it <hash>.sock, .key, .lock and .log, where <hash>
// (FNV-1a, 64 bits) names the install by its real path: two checkouts never share a server.
import { realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { installHash, socketDir } from '../../host/index.js';

export interface Place {
  dir: string;
  hash: string;
  sock: string;
  key: string;
  lock: string;
  log: string;
}

/** The package root of the CLI file `cli` (<root>/dist/cli.cjs), by real path. */
export const packageRoot = (cli: string): string => dirname(dirname(realpathSync(cli)));

/** The resident sbx's files for the install at root, or null when no private directory can be had. */
export function residentPlace(root: string, env: NodeJS.ProcessEnv = process.env, uid = process.getuid?.() ?? 0): Place | null {
  const dir = socketDir(env, uid);
  if (!dir) return null;
  const hash = installHash(root);
  const at = (ext: string): string => join(dir, `${hash}.${ext}`);
  return { dir, hash, sock: at('sock'), key: at('key'), lock: at('lock'), log: at('log') };
}
