// A fingerprint of the work tree, so the delta can tell "your edit changed nothing" from "you edited
// nothing". In a git work tree: every tracked or untracked, not ignored file; elsewhere: every file
// under the work dir except .sbx, VCS and dependency/build-cache directories. Contents are hashed.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const SKIP_DIRS = new Set(['.sbx', '.git', '.hg', '.svn', 'node_modules', 'target', '__pycache__', '.cache', '.pytest_cache', '.mypy_cache']);
const MAX_FILES = 20_000;
const MAX_HASHED_BYTES = 8 << 20;

export function treeFingerprint(work: string): string | null {
  const files = gitFiles(work) ?? walk(work);
  if (files === null) return null;
  const h = createHash('sha256');
  for (const rel of files.sort()) {
    if (rel.startsWith('.sbx/')) continue;
    let info;
    try { info = lstatSync(join(work, rel)); } catch { continue; }
    h.update(rel); h.update('\0');
    if (info.isSymbolicLink() || !info.isFile()) { h.update(`special:${info.mode}\0`); continue; }
    if (info.size > MAX_HASHED_BYTES) { h.update(`size:${info.size}:${info.mtimeMs}\0`); continue; }
    try { h.update(readFileSync(join(work, rel))); } catch { h.update('unreadable'); }
    h.update('\0');
  }
  return h.digest('hex').slice(0, 32);
}

function gitFiles(work: string): string[] | null {
  if (!insideGit(work)) return null;
  const r = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: work, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0 || r.error) return null;
  return r.stdout.split('\0').filter(Boolean);
}

function walk(work: string): string[] | null {
  const out: string[] = [];
  const visit = (dir: string): void => {
    let names: string[];
    try { names = readdirSync(dir); } catch { return; }
    for (const n of names) {
      if (out.length >= MAX_FILES) return;
      const p = join(dir, n);
      let info;
      try { info = lstatSync(p); } catch { continue; }
      if (info.isDirectory()) { if (!SKIP_DIRS.has(n)) visit(p); }
      else out.push(relative(work, p));
    }
  };
  visit(work);
  return out;
}

/** Whether work is inside a git work tree (a .git entry in it or above): spares a git spawn elsewhere. */
function insideGit(work: string): boolean {
  for (let d = work; ; d = dirname(d)) {
    if (existsSync(join(d, '.git'))) return true;
    if (dirname(d) === d) return false;
  }
}
