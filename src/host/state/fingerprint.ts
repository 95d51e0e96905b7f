// A fingerprint of what the user edits, so the delta can tell "your edit changed nothing" from
// "nothing changed since the last run". A run takes it twice: when it starts (compared with the
// previous run's end) and when it ends, so that what the previous run itself wrote (build output,
// caches) never reads as an edit.
//
// The files: in a git work tree, git's tracked and untracked-not-ignored files; elsewhere a bounded
// walk. Either way .sbx, VCS directories and the caches the sandbox's HOME (/work) collects are left
// out. Each file counts by path, size and mtime: a stat, never a read, so a large tree costs
// O(files), not O(bytes). The stats (and the walk) are done in C by `sbx-launch --walk`
// (src/host/native-walk.ts), ~3 us of CPU a file, most of it the kernel's; the code below is the
// same in JavaScript, ~10 us a file, for where the walker cannot run. A walk past its cap gives no
// fingerprint (unknown), never the fingerprint of a part, in which an edit past the cap would read
// "nothing changed".
//
// git runs on the host, in a directory the sandbox writes: its repository config is the sandbox's
// to set. Nothing it says may run: core.fsmonitor (a command git would execute), hooks, a pager and
// the untracked cache are forced off on the command line, which outranks every config file; the
// environment is reduced to what git needs to find the caller's own configuration. Nor may it hang:
// git opens every .gitignore it passes and its own files with a plain open(2), and a FIFO the sandbox
// made there (`.gitignore`, `sub/.gitignore`, `.git/info/exclude` of a repository it made) blocks that
// open for as long as no one writes to it. So git runs with a watchdog: killed as soon as it sleeps on
// a FIFO or pipe (/proc/PID/wchan), or after GIT_LIMIT_MS in any case, and the walk is used instead.
import { sha256Hex } from './sha256.js';
import { childProcess } from '../../launcher/index.js';
import { nativeWalk } from '../native-walk.js';
import { lstatSync, readFileSync, type Dirent } from 'node:fs';
import { childPath, listDir, type ListDir } from '../dir-listing.js';
import { dirname, isAbsolute, join } from 'node:path';

/** Directories never part of the fingerprint: state, VCS, dependencies and build caches. */
const SKIP_DIRS = new Set(['.sbx', '.git', '.hg', '.svn', 'node_modules', 'target', '__pycache__', '.pytest_cache', '.mypy_cache']);
/** Top-level directories the sandbox's HOME (= /work) fills with caches: go, cargo, npm, pip, ... */
const HOME_CACHES = new Set(['.cache', '.npm', '.cargo', '.rustup', 'go', '.local', '.config', '.gradle', '.m2', '.node-gyp', '.pki', '.gnupg', '.yarn', '.pnpm-store', '.ccache']);
/** Past this many files a walk's fingerprint is unknown: in C (~3 s of CPU a pass at this size), in JavaScript. */
export const MAX_FILES = 1_000_000;
const MAX_FILES_JS = 50_000;
/**
 * git is told not to list what the fingerprint drops (an untracked node_modules of 50 000 files cost
 * git's walk 150 ms, to be dropped after): its exclude pathspecs prune those directories unread.
 */
const GIT_EXCLUDES = [...[...SKIP_DIRS].map((d) => `:(exclude,glob)**/${d}/**`), ...[...HOME_CACHES].map((d) => `:(exclude,glob)${d}/**`)];

/** What `sbx-launch --walk` is told for the fingerprint: git's list on stdin, or walk. */
export async function fingerprintWalk(work: string): Promise<{ flags: string[]; input?: Buffer }> {
  const names = [...[...SKIP_DIRS].flatMap((d) => ['--skip-dir', d]), ...[...HOME_CACHES].flatMap((d) => ['--top-skip-dir', d])];
  const list = await gitList(work);
  return list ? { flags: ['--files', 'list', ...names], input: list } : { flags: ['--files', 'walk', '--max', String(MAX_FILES), ...names] };
}
/** The longest git may take to list the tree, stuck or not. */
const GIT_LIMIT_MS = 30_000;
/** How often the watchdog looks at what git waits on. */
const WATCH_MS = 20;
/** Kernel functions a task sleeps in while opening or reading a FIFO or pipe with no one at the other end. */
const PIPE_WAITS = new Set(['wait_for_partner', 'fifo_open', 'pipe_wait', 'pipe_read', 'pipe_wait_readable']);

/** The git flags that keep repository config from running anything on the host. */
export const SAFE_GIT_ARGS = [
  '--no-pager',
  '-c',
  'core.fsmonitor=false',
  '-c',
  'core.untrackedCache=false',
  '-c',
  'core.hooksPath=/dev/null',
  '-c',
  'core.pager=cat',
  '-c',
  'core.askPass=',
  '-c',
  'credential.helper=',
];

export async function treeFingerprint(work: string, launcher?: string): Promise<string | null> {
  const plan = await fingerprintWalk(work);
  const walked = nativeWalk(work, plan.flags, plan.input, launcher);
  if (walked?.fingerprint !== undefined) return walked.fingerprint;
  return fingerprintJs(work, plan) ?? null;
}

/**
 * The fingerprint in JavaScript (the same value as the walker's): for a small tree cheaper than starting
 * the walker. With a budget, undefined when the tree has more files than that (the caller walks in C).
 */
export function fingerprintJs(work: string, plan: { input?: Buffer }, budget = Infinity, list: ListDir = listDir): string | null | undefined {
  const files = plan.input ? plan.input.toString('utf8').split('\0').filter(Boolean) : walk(work, Math.min(budget + 1, MAX_FILES_JS), list);
  if (files === null) return budget < MAX_FILES_JS ? undefined : null;
  if (files.length > budget) return undefined;
  // One string hashed once: a hash update per file costs more than the concatenation.
  const parts: string[] = [];
  for (const rel of files.sort()) {
    if (!included(rel)) continue;
    const info = lstatSync(childPath(work, rel), { bigint: true, throwIfNoEntry: false });
    if (!info || info.isDirectory()) continue; // gone, or a submodule or nested repo git lists as one entry
    parts.push(`${rel}\0${info.mode}:${info.size}:${info.mtimeNs}\0`);
  }
  return sha256Hex(parts.join('')).slice(0, 32);
}

/** A path git or the walk listed that counts: inside the work dir, not state, VCS or a HOME cache. */
function included(rel: string): boolean {
  if (!rel || isAbsolute(rel) || rel.split('/').includes('..')) return false;
  const parts = rel.split('/');
  if (parts.length > 1 && HOME_CACHES.has(parts[0]!)) return false;
  return !parts.slice(0, -1).some((p) => SKIP_DIRS.has(p));
}

/** The environment host-side git runs with: what it needs to find the caller's own configuration. */
export function gitEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C', GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0' };
  if (process.env.HOME) env.HOME = process.env.HOME;
  if (process.env.XDG_CONFIG_HOME) env.XDG_CONFIG_HOME = process.env.XDG_CONFIG_HOME;
  return env;
}

/**
 * git's NUL-separated list of the tracked and untracked-not-ignored files, or null outside git (or when
 * git could not list them). git opens every .gitignore it passes: one a sandbox made a FIFO would stall
 * it, so it runs under a watchdog that kills it as soon as it sleeps on a FIFO or pipe (the fingerprint
 * then falls back to the walk).
 */
function gitList(work: string): Promise<Buffer | null> {
  if (!insideGit(work)) return Promise.resolve(null);
  const { spawn } = childProcess();
  return new Promise((resolve) => {
    const git = spawn('git', [...SAFE_GIT_ARGS, 'ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', ...GIT_EXCLUDES], {
      cwd: work,
      env: gitEnv(),
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const parts: Buffer[] = [];
    let bytes = 0;
    let done = false;
    const finish = (list: Buffer | null): void => {
      if (done) return;
      done = true;
      clearTimeout(limit);
      clearInterval(watch);
      resolve(list);
    };
    const stop = (): void => {
      git.kill('SIGKILL');
      finish(null);
    };
    const limit = setTimeout(stop, GIT_LIMIT_MS);
    const watch = setInterval(() => {
      if (git.pid !== undefined && onPipe(git.pid)) stop();
    }, WATCH_MS);
    git.stdout.on('data', (c: Buffer) => {
      bytes += c.length;
      if (bytes > MAX_GIT_OUTPUT) stop();
      else parts.push(c);
    });
    git.on('error', () => finish(null));
    git.on('close', (code) => finish(code === 0 ? Buffer.concat(parts) : null));
  });
}

const MAX_GIT_OUTPUT = 64 << 20;

/** Whether the process sleeps opening or reading a FIFO or pipe. False when the kernel does not say. */
function onPipe(pid: number): boolean {
  try {
    return PIPE_WAITS.has(readFileSync(`/proc/${pid}/wchan`, 'utf8').trim());
  } catch {
    return false;
  }
}

/** The files of a walk, or null past MAX_FILES_JS (unknown). */
function walk(work: string, max: number, list: ListDir): string[] | null {
  const out: string[] = [];
  let over = false;
  // The entry types come with the listing (d_type): no lstat per entry to tell directories apart.
  const visit = (dir: string, rel: string, top: boolean): void => {
    let entries: Dirent[];
    try {
      entries = list(dir);
    } catch {
      return;
    }
    for (const e of entries) {
      if (out.length >= max) {
        over = true;
        return;
      }
      const n = e.name;
      let isDir = e.isDirectory();
      if (!isDir && !e.isFile() && !e.isSymbolicLink()) {
        // DT_UNKNOWN on some file systems: ask.
        isDir = lstatSync(childPath(dir, n), { throwIfNoEntry: false })?.isDirectory() ?? false;
      }
      const r = rel ? `${rel}/${n}` : n;
      if (isDir) {
        if (!SKIP_DIRS.has(n) && !(top && HOME_CACHES.has(n))) visit(childPath(dir, n), r, false);
      } else out.push(r);
    }
  };
  visit(work, '', true);
  return over ? null : out;
}

/** Whether work is inside a git work tree (a .git entry in it or above): spares a git spawn elsewhere. */
function insideGit(work: string): boolean {
  for (let d = work; ; d = dirname(d)) {
    if (lstatSync(join(d, '.git'), { throwIfNoEntry: false })) return true; // (no exception made per miss)
    if (dirname(d) === d) return false;
  }
}
