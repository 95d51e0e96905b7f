// The agent's paths: relative to the task's work dir, and never through a symbolic link. The agent's own
// code runs in the sandbox and can make links in the work dir (to the hidden reference solution, to /);
// the harness's read_file and write_file run outside the sandbox and must not follow them (issue 33).
import { lstatSync } from 'node:fs';
import { isAbsolute, join, normalize } from 'node:path';

export type Resolved = { ok: true; rel: string; abs: string } | { ok: false; why: string };

export function workPath(work: string, p: unknown): Resolved {
  if (typeof p !== 'string' || !p || isAbsolute(p)) return { ok: false, why: 'give a path relative to the task directory' };
  const rel = normalize(p);
  if (rel === '..' || rel.startsWith('../') || rel === '.sbx' || rel.startsWith('.sbx/')) return { ok: false, why: 'give a path relative to the task directory' };
  const parts = rel.split('/').filter((x) => x && x !== '.');
  for (let i = 1; i <= parts.length; i++) {
    const sub = parts.slice(0, i).join('/');
    let st;
    try {
      st = lstatSync(join(work, sub));
    } catch {
      break;
    } // the rest does not exist yet
    if (st.isSymbolicLink()) return { ok: false, why: `${sub} is a symbolic link, not a file of the task` };
    if (i < parts.length && !st.isDirectory()) return { ok: false, why: `${sub} is not a directory` };
  }
  return { ok: true, rel: parts.join('/'), abs: join(work, ...parts) };
}
