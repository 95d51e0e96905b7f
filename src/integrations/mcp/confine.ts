// What a tool call may name: the directory `sbx mcp` was started in and below, by real path. A model (or
// a prompt injection in the repository it reads) chooses the arguments; without this, `run` with
// work "/home/me" would let the sandbox append to ~/.bashrc, and verdict would read any file.
// Symlinks are resolved first, so a link inside the dir that points out (one the sandbox planted, say)
// is outside too. The caller then uses the real path returned, not the one it was given.
import { lstatSync, realpathSync } from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { SbxError } from '../../contract/index.js';

/**
 * The real path of p (resolved from root), when it is root's real path or below it; else E_WORK_OUTSIDE.
 * A path that does not exist yet is taken as its nearest existing parent's real path and the rest, so
 * that the tool reports it missing as usual; a dangling symlink on the way is refused (it could point
 * anywhere once its target is made).
 */
export function confined(root: string, p: string, what: string): string {
  const top = realpathSync.native(root);
  const abs = resolve(root, p);
  const real = realOrParent(abs);
  if (typeof real !== 'string' || (real !== top && !real.startsWith(top === sep ? sep : `${top}${sep}`))) {
    const where = typeof real !== 'string' ? ` (${real.why})` : real !== abs ? ` (real path ${real})` : '';
    throw new SbxError(
      'E_WORK_OUTSIDE',
      `${what} ${p}${where} is outside ${top}, the directory sbx mcp was started in; refused: the tools reach only that directory and below, so start sbx mcp in the project you mean`,
    );
  }
  return real;
}

/** realpath(p), or (when p is missing) its nearest existing parent's real path joined with the rest. */
function realOrParent(p: string): string | { why: string } {
  const rest: string[] = [];
  for (let cur = p; ; cur = dirname(cur)) {
    try {
      return join(realpathSync.native(cur), ...rest);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') return { why: `its real path cannot be read: ${code ?? (err as Error).message}` };
      try {
        if (lstatSync(cur).isSymbolicLink()) return { why: `${cur} is a dangling symlink` };
      } catch {
        /* missing: go up */
      }
      if (dirname(cur) === cur) return { why: 'no part of it exists' };
      rest.unshift(basename(cur));
    }
  }
}
