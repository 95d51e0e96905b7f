// `mkdir -p` that ends. Node 20's `mkdirSync(p, { recursive: true })` loops forever where mkdir(2) answers
// ENOENT for a path whose parent exists (under /proc, /sys and other pseudo file systems): SBX_HOMES or
// XDG_CACHE_HOME set below /proc hung every `sbx run`. Here each missing parent is made once, and the
// directory's own mkdir error is thrown as it came (ENOENT, EACCES, ENOTDIR, EROFS…) for the caller's message.
import { mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

export function makeDirs(path: string, mode = 0o777): void {
  try {
    mkdirSync(path, { mode });
    return;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' && statSync(path, { throwIfNoEntry: false })?.isDirectory()) return;
    const parent = dirname(path);
    if (code !== 'ENOENT' || parent === path) throw err;
    makeDirs(parent, mode);
  }
  try {
    mkdirSync(path, { mode });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || !statSync(path, { throwIfNoEntry: false })?.isDirectory()) throw err;
  }
}
