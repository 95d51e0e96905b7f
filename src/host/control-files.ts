// Control files: what in the work tree the host obeys later, so what a run must not leave changed.
//
// git runs on the host in the work tree and in every repository nested in it: a `.git` (directory or
// gitfile), a bare-looking directory (HEAD, objects, refs: git takes it for a repository when you cd
// into it), a `.gitmodules`, and the config files a repository's config includes from the tree or
// names as its hooks directory (core.hooksPath, e.g. husky's `.husky`) hold commands it will run as
// the user (core.fsmonitor, hooks, filters). The agent clients read their settings and hooks from
// `.claude/`, `.codex/`, `.gemini/`, `.mcp.json` in every directory from the root to the cwd, and sbx's hook reads
// `sbx.config.json`. A nested project's `.sbx` holds its runs' state.
//
// Before a run the whole tree is walked for these names (any depth, ignored directories included;
// never into a control directory itself; in C, with the fingerprint, by `sbx-launch --walk`:
// src/host/native-walk.ts, and in JavaScript below where that cannot run). Each one found is made read-only inside the sandbox where it
// is (`protect`: a bind of itself over itself), so the run cannot change it in place, delete it or
// rename it. After the run the tree is walked again: a control entry that was not there before (by
// identity, dev and inode: a parent renamed away and a new `.git` made in its place is new) was made
// by the run, and is moved into the state dir's `quarantine/<run id>/`, where no client looks, and
// named in the verdict. Nested `.sbx` directories are protected but never quarantined: sbx itself
// makes them, and their contents are checked when read.
import { makeDirs, childProcess, readRegularText } from '../launcher/index.js';
import { chmodSync, lstatSync, mkdirSync, readdirSync, realpathSync, renameSync, type Dirent } from 'node:fs';
import { childPath, listDir, type ListDir } from './dir-listing.js';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { SbxError } from '../contract/index.js';
import { SAFE_GIT_ARGS, gitEnv } from './state/fingerprint.js';
import { nativeWalk, type Walked } from './native-walk.js';

/** Names the host obeys at any depth, with what each is, for the verdict's line. */
const CONTROL: ReadonlyMap<string, string> = new Map([
  ['.git', 'a git repository'],
  ['.gitmodules', 'git submodule settings'],
  ['.claude', 'Claude Code settings and hooks'],
  ['.codex', 'Codex settings and rules'],
  ['.gemini', 'Gemini CLI settings'],
  ['.mcp.json', 'MCP servers a client starts'],
  ['sbx.config.json', "sbx's hook settings"],
  ['.sbx', "another project's sbx state"],
]);
/** Made by sbx on the host too: protected when present, never quarantined. */
const NOT_QUARANTINED = new Set(['.sbx']);
/** What git takes for a repository when it finds them in one directory (is_git_directory). */
const GIT_DIR_MARKS = ['HEAD', 'objects', 'refs'];
const BARE_WHAT = 'a git repository (HEAD, objects, refs)';
/** The launcher binds at most 1024 paths; the profile's own take fewer than 100. */
export const MAX_PROTECTED = 900;

export interface ControlEntry {
  /** Path relative to the work dir, '/'-separated. */
  rel: string;
  /** dev:ino, as the host sees it. */
  id: string;
  link: boolean;
  what: string;
}

export interface ControlScan {
  entries: ControlEntry[];
  /** Sandbox paths (/work/...) to make read-only for the run. */
  protect: string[];
}

export interface Quarantined {
  /** Where the run left it, relative to the work dir. */
  path: string;
  what: string;
  /** Where it is now (relative to the work dir when inside it), or null when it could not be moved. */
  moved_to: string | null;
  /** Why it could not be moved. */
  error?: string;
}

/** Walks work for control entries (skipping the run's own state dir), unless given them, and what to protect. */
export function scanControl(work: string, stateDir: string, entries = controlEntries(work, stateDir)): ControlScan {
  const protect = new Set<string>();
  let workReal = work;
  try {
    workReal = realpathSync.native(work);
  } catch {
    /* reported elsewhere */
  }
  const inside = (abs: string): string | null => {
    let real: string;
    try {
      real = realpathSync.native(abs);
    } catch {
      return null;
    }
    const rel = relative(workReal, real);
    return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel.split(sep).join('/') : null;
  };
  for (const e of entries) {
    const abs = join(work, e.rel);
    // A symlink cannot be bound over; what it names inside the tree can. (The link itself can still
    // be replaced by the run: the walk after it finds the replacement by its new identity.)
    const rel = e.link ? inside(abs) : e.rel;
    if (rel !== null) protect.add(`/work/${rel}`);
    if (e.rel.endsWith('.git')) for (const p of gitPathsInside(abs, work, inside)) protect.add(`/work/${p}`);
  }
  if (protect.size > MAX_PROTECTED) {
    throw new SbxError(
      'E_TOO_MANY_CONTROL',
      `the work dir ${work} holds ${protect.size} git repositories and agent settings (.git, .claude, sbx.config.json, ...), more than the ${MAX_PROTECTED} sbx can keep read-only in one run; fix: run sbx on a smaller directory (--work) that holds fewer`,
    );
  }
  return { entries, protect: [...protect].sort() };
}

/** The control entries of after that were not in before: made or replaced by the run. */
export function madeByRun(before: readonly ControlEntry[], after: readonly ControlEntry[]): ControlEntry[] {
  const ids = new Set(before.map((e) => e.id));
  return after.filter((e) => !ids.has(e.id) && !NOT_QUARANTINED.has(e.rel.split('/').pop()!));
}

/**
 * Moves each entry into <stateDir>/quarantine/<runId>/<rel>, or, where the state dir is on another
 * file system, renames it in place to `<name>.sbx-quarantined-<runId>` (a name no client reads).
 * Nothing is moved through a symlink: every directory on the way is checked, and the entry must be
 * the one the walk found.
 */
export function quarantine(work: string, stateDir: string, runId: string, made: readonly ControlEntry[]): Quarantined[] {
  const out: Quarantined[] = [];
  // Deepest first: a new repository inside a new repository is moved out before its parent.
  for (const e of [...made].sort((a, b) => b.rel.length - a.rel.length)) {
    const src = join(work, e.rel);
    const q: Quarantined = { path: e.rel, what: e.what, moved_to: null };
    try {
      checkNoLinksOnTheWay(work, e.rel);
      if (identity(src) !== e.id) throw new Error('it changed while sbx looked at it');
      const dest = join(stateDir, 'quarantine', runId, e.rel);
      try {
        makeDirs(dirname(dest), 0o700);
        renameSync(src, dest);
        q.moved_to = relOrAbs(work, dest);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
        const aside = `${src}.sbx-quarantined-${runId}`;
        renameSync(src, aside);
        q.moved_to = relOrAbs(work, aside);
      }
    } catch (err) {
      q.error = (err as Error).message;
    }
    out.push(q);
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** One line per quarantined entry, for the verdict's footer. */
export function quarantineNotes(q: readonly Quarantined[]): string[] {
  return q.map((x) =>
    x.moved_to !== null
      ? `quarantined ${x.path} (${x.what}): the run made it, and git or an agent client would obey it on the host; moved to ${x.moved_to} (move it back only if you made it on purpose)`
      : `the run made ${x.path} (${x.what}), which git or an agent client would obey on the host, and sbx could not move it aside (${x.error ?? 'unknown'}): remove it before running git or an agent in the work dir`,
  );
}

function relOrAbs(work: string, p: string): string {
  const r = relative(work, p);
  return r && !r.startsWith('..') && !isAbsolute(r) ? r : p;
}

function identity(abs: string): string | null {
  const st = lstatSync(abs, { bigint: true, throwIfNoEntry: false });
  return st ? `${st.dev}:${st.ino}` : null;
}

function checkNoLinksOnTheWay(work: string, rel: string): void {
  const parts = rel.split('/');
  let p = work;
  for (const part of parts.slice(0, -1)) {
    p = join(p, part);
    const st = lstatSync(p);
    if (!st.isDirectory() || st.isSymbolicLink()) throw new Error(`${relative(work, p)} is no longer a directory`);
  }
}

/** What `sbx-launch --walk` is told for the control walk. */
export function controlWalkFlags(work: string, stateDir: string): string[] {
  const flags = [...[...CONTROL.keys()].flatMap((n) => ['--control', n]), ...GIT_DIR_MARKS.flatMap((m) => ['--repo-mark', m])];
  const skip = relative(work, resolve(stateDir));
  if (skip && !skip.startsWith('..') && !isAbsolute(skip)) flags.push('--not-into', skip.split(sep).join('/'));
  return flags;
}

/** The control entries of a native walk, sorted by path. */
export function controlEntriesOf(walked: Walked): ControlEntry[] {
  return walked.control
    .map((c) => ({ rel: c.rel, id: c.id, link: c.link, what: c.kind === 'b' ? BARE_WHAT : (CONTROL.get(c.rel.slice(c.rel.lastIndexOf('/') + 1)) ?? 'a control entry') }))
    .sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
}

/** The walk: every control entry under work, not descending into one, nor into the state dir. */
export function controlEntries(work: string, stateDir: string, launcher?: string): ControlEntry[] {
  const walked = nativeWalk(work, controlWalkFlags(work, stateDir), undefined, launcher);
  return walked ? controlEntriesOf(walked) : controlEntriesJs(work, stateDir)!;
}

/**
 * The walk in JavaScript: for a small tree cheaper than starting the walker. With a budget, null as soon
 * as it has listed more entries than that (the caller then walks in C).
 */
export function controlEntriesJs(work: string, stateDir: string, budget = Infinity, list: ListDir = listDir): ControlEntry[] | null {
  const out: ControlEntry[] = [];
  const skip = resolve(stateDir);
  const stack: Array<[string, string]> = [[work, '']];
  let seen = 0;
  while (stack.length) {
    const [dir, rel] = stack.pop()!;
    let entries: Dirent[];
    try {
      entries = list(dir);
    } catch (err) {
      const l = reopened(dir, err);
      if (!l) continue;
      entries = l;
    }
    seen += entries.length;
    if (seen > budget) return null;
    if (rel !== '' && GIT_DIR_MARKS.every((m) => entries.some((d) => d.name === m))) {
      const id = identity(dir);
      if (id) out.push({ rel, id, link: false, what: BARE_WHAT });
      continue;
    }
    for (const d of entries) {
      const name = d.name;
      const abs = childPath(dir, name);
      const r = rel ? `${rel}/${name}` : name;
      const what = CONTROL.get(name);
      if (what !== undefined) {
        if (abs === skip) continue;
        const st = lstatSync(abs, { bigint: true, throwIfNoEntry: false });
        if (st) out.push({ rel: r, id: `${st.dev}:${st.ino}`, link: st.isSymbolicLink(), what });
        continue;
      }
      let isDir = d.isDirectory();
      if (!isDir && !d.isFile() && !d.isSymbolicLink() && !d.isFIFO() && !d.isSocket() && !d.isCharacterDevice() && !d.isBlockDevice()) {
        isDir = lstatSync(abs, { throwIfNoEntry: false })?.isDirectory() ?? false; // DT_UNKNOWN: ask
      }
      if (isDir && abs !== skip) stack.push([abs, r]);
    }
  }
  return out.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
}

/** The text of a regular file (no link, FIFO or device; at most max bytes), or '' when it is none. */
function readOr(path: string, max: number): string {
  try {
    return readRegularText(path, { maxBytes: max });
  } catch {
    return '';
  }
}

/**
 * A directory of the caller's that the run made unreadable (chmod 000) would hide a `.git` in it from
 * the walk, and the caller can open it again later: give the owner back read and search, and list it.
 */
function reopened(dir: string, err: unknown): Dirent[] | null {
  if ((err as NodeJS.ErrnoException).code !== 'EACCES') return null;
  try {
    const st = lstatSync(dir);
    if (!st.isDirectory() || st.uid !== process.getuid?.()) return null;
    chmodSync(dir, (st.mode & 0o7777) | 0o500);
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return null;
  }
}

/**
 * Paths inside the tree that a repository's .git leads git to: a gitfile's gitdir, and for a .git
 * directory the config files its config includes and its core.hooksPath. Read through git itself
 * (with SAFE_GIT_ARGS) only when the config mentions either, which spares a spawn almost always.
 */
function gitPathsInside(gitPath: string, work: string, inside: (abs: string) => string | null): string[] {
  const out: string[] = [];
  const st = lstatSync(gitPath, { throwIfNoEntry: false });
  if (!st) return out;
  const top = dirname(gitPath);
  if (st.isFile()) {
    const text = readOr(gitPath, 4096);
    const m = /^gitdir:\s*(.+?)\s*$/m.exec(text);
    if (m) {
      const p = inside(resolve(top, m[1]!));
      if (p !== null) out.push(p);
    }
    return out;
  }
  if (!st.isDirectory()) return out;
  const config = readOr(join(gitPath, 'config'), 1 << 20);
  if (!/include|hookspath/i.test(config)) return out;
  const { spawnSync } = childProcess();
  const r = spawnSync('git', [...SAFE_GIT_ARGS, 'config', '--local', '--includes', '--show-origin', '-z', '--list'], {
    cwd: top,
    encoding: 'utf8',
    env: gitEnv(),
    stdio: ['ignore', 'pipe', 'ignore'],
    timeout: 10_000,
    maxBuffer: 8 << 20,
  });
  if (r.status !== 0 || r.error) return out; // a config git cannot read, git will not obey either
  const fields = r.stdout.split('\0');
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const origin = fields[i]!;
    const [key, ...rest] = fields[i + 1]!.split('\n');
    if (origin.startsWith('file:')) {
      const p = inside(resolve(top, origin.slice(5)));
      if (p !== null) out.push(p);
    }
    if (key?.toLowerCase() === 'core.hookspath') {
      const p = inside(resolve(top, rest.join('\n')));
      if (p !== null) out.push(p);
    }
  }
  const self = relative(work, gitPath).split(sep).join('/');
  return out.filter((p) => p !== self && !p.startsWith(`${self}/`));
}
