// The work tree's watcher (`sbx-launch --watch`, native/watch.c): a process per work dir that keeps
// an inotify watch on every directory of it and answers "has anything changed since token T". A run
// asks it before and after the command; where nothing has, it takes the scan (fingerprint and control
// entries) the watcher kept from the last walk instead of walking the tree again. A walk's result is
// handed to the watcher with the token asked for before the walk began, and kept only if no event
// came since: so a kept scan is never older than the tree. Why that is exact, and where it is not
// used: docs/sandbox.md, "How the tree is watched".
//
// The first run in a large work dir (one the walk in JavaScript does not cover) starts the watcher
// in the background and walks; the watcher exits after SBX_WATCH_IDLE seconds without a question
// (default 1800), on any doubt starts over (every token given before then no longer matches), and
// where inotify watches run out leaves <socket>.off, so that no run starts one again for a while.
// SBX_WATCH=0 turns it off.
import { lstatSync, statSync, unlinkSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { childProcess, nodeNet, launcherPath, readRegularText } from '../launcher/index.js';
import { installHash, socketDir } from './private-dir.js';

export interface Watcher {
  sock: string;
  /** The token the watcher gave, null when none answered. */
  token: string | null;
  /** What it kept with that token: the scan of the tree as it still is. */
  kept: string | null;
}

/** How long a question may take; past it the run walks. */
const ASK_MS = 2000;
/** After the watcher gave up (no watches left), no new one is started for this long. */
const OFF_MS = 10 * 60_000;
/**
 * At most this many watchers of a user at once (each holds an inotify instance, of which a user has
 * fs.inotify.max_user_instances, 128 by default, shared with the user's editor and tools).
 */
const MAX_WATCHERS = 16;
/** Directories watched themselves and one level down only (their contents are not the tree's). */
const SHALLOW = ['.git'];

const disabled = (): boolean => process.env.SBX_WATCH === '0' || process.platform !== 'linux';

/** The watcher's socket for this work dir and state dir, or null when there is no private dir for it. */
export function watchSocket(work: string, stateDir: string): string | null {
  if (disabled()) return null;
  const dir = socketDir(process.env, process.getuid?.() ?? 0);
  // w2-: watchers that answer framed questions on a kept connection (a watcher of an older install, one
  // question a connection, has its own name: asked framed it would answer nothing for ASK_MS).
  return dir ? join(dir, `w2-${installHash(`${work}\0${resolve(stateDir)}`)}.sock`) : null;
}

/** An answer: to 'q' the token and the scan kept (head, body); to 's' its line, K or X (head). */
interface Answer {
  head: string;
  body: string;
}

/** A connection kept open to a watcher: questions in turn, answers in the same order. */
interface Conn {
  c: ReturnType<ReturnType<typeof nodeNet>['connect']>;
  buf: Buffer;
  /** What each question waits for: 'q' a token and a scan, 's' K or X. */
  waiting: { kind: 'q' | 's'; done: (v: Answer | null) => void; timer: ReturnType<typeof setTimeout> }[];
}

/**
 * One connection a watcher, kept: a question on it is a write and a read, where a connection of its
 * own cost a socket, a connect, a close and Node's stream set-up, on both sides (~0.25 ms of the
 * resident sbx's CPU and ~0.05 ms of the watcher's, twice a run).
 */
const conns = new Map<string, Conn>();

function connection(sock: string): Conn {
  const had = conns.get(sock);
  if (had) return had;
  const c = nodeNet().connect(sock);
  const conn: Conn = { c, buf: Buffer.alloc(0), waiting: [] };
  conns.set(sock, conn);
  const fail = (): void => {
    if (conns.get(sock) === conn) conns.delete(sock);
    c.destroy();
    for (const w of conn.waiting.splice(0)) {
      clearTimeout(w.timer);
      w.done(null);
    }
  };
  c.on('error', (err: NodeJS.ErrnoException) => {
    // Left by a watcher that was killed: no one listens. Removed, so it no longer counts (MAX_WATCHERS).
    if (err.code === 'ECONNREFUSED') {
      try {
        unlinkSync(sock);
      } catch {
        /* gone */
      }
    }
    fail();
  });
  c.on('close', fail);
  c.on('data', (b: Buffer) => {
    conn.buf = conn.buf.length ? Buffer.concat([conn.buf, b]) : b;
    while (conn.waiting.length) {
      const nl = conn.buf.indexOf(10);
      if (nl < 0) return;
      const w = conn.waiting[0]!;
      let used = nl + 1;
      const v: Answer = { head: conn.buf.toString('latin1', 0, nl), body: '' };
      if (w.kind === 'q') {
        const m = /^T(\S+) (\d+)$/.exec(v.head);
        if (!m) return fail();
        used += Number(m[2]);
        if (conn.buf.length < used) return;
        v.head = m[1]!;
        v.body = conn.buf.toString('utf8', nl + 1, used);
      }
      conn.buf = conn.buf.subarray(used);
      conn.waiting.shift();
      clearTimeout(w.timer);
      // Idle, the kept connection does not hold a CLI's process open.
      if (!conn.waiting.length) c.unref();
      w.done(v);
    }
    if (conn.buf.length) fail(); // an answer no one asked for
  });
  return conn;
}

/**
 * One framed question to the watcher on the kept connection (native/watch.c): 'q' ("q\n"), or 's' (a
 * scan to keep: "s<token> <length>\n<scan>"); its answer, or null when none answers (in time).
 */
function request(sock: string, kind: 'q' | 's', framed: string | Buffer): Promise<Answer | null> {
  return new Promise((done) => {
    const conn = connection(sock);
    // Past ASK_MS the connection is given up (its later answers would be out of turn) and the run walks.
    const timer = setTimeout(() => conn.c.destroy(), ASK_MS);
    timer.unref();
    conn.waiting.push({ kind, done, timer });
    conn.c.ref();
    conn.c.write(framed);
  });
}

/** The watcher's token now, and the scan it kept if nothing changed since that scan was taken. */
export async function ask(sock: string | null): Promise<Watcher | null> {
  // No socket, no watcher: a connect that fails costs ~90 us of CPU and a turn of the event loop (1 ms
  // and more on a loaded machine), where the lstat costs ~2 us; most runs' trees have no watcher.
  if (!sock || !lstatSync(sock, { throwIfNoEntry: false })) return null;
  const a = await request(sock, 'q', 'q\n');
  return a && { sock, token: a.head, kept: a.body || null };
}

/** Hands the watcher a scan taken after its token was given; kept only if no event came since. */
export async function store(w: Watcher, scan: string): Promise<void> {
  if (w.token === null) return;
  const body = Buffer.from(scan, 'utf8');
  await request(w.sock, 's', Buffer.concat([Buffer.from(`s${w.token} ${body.length}\n`, 'latin1'), body]));
}

/** Starts the watcher in the background, unless one gave up here lately. */
export function startWatcher(work: string, stateDir: string, sock: string, launcher?: string): void {
  try {
    if (Date.now() - statSync(`${sock}.off`).mtimeMs < OFF_MS) return;
  } catch {
    /* never gave up */
  }
  const flags = ['--socket', sock, '--max-watchers', String(MAX_WATCHERS), ...SHALLOW.flatMap((n) => ['--shallow', n])];
  const rel = relative(work, resolve(stateDir));
  if (rel && !rel.startsWith('..') && !isAbsolute(rel)) flags.push('--not-into', rel.split(sep).join('/'));
  for (const d of outsideDirs(work)) flags.push('--watch-dir', d);
  if (process.env.SBX_WATCH_IDLE && /^\d+$/.test(process.env.SBX_WATCH_IDLE)) flags.push('--idle', process.env.SBX_WATCH_IDLE);
  try {
    const child = childProcess().spawn(launcher ?? launcherPath(), ['--watch', work, ...flags], { detached: true, stdio: 'ignore' });
    child.on('error', () => {});
    child.unref();
  } catch {
    /* no watcher: the runs walk */
  }
}

/**
 * Directories outside the work dir whose entries change what git lists in it: the repository's git
 * dir (and common dir, and their info/ with exclude) when it is not <work>/.git, and the directories
 * between the work dir and the top of its work tree (their .gitignore files).
 */
function outsideDirs(work: string): string[] {
  const out: string[] = [];
  for (let d = work; ; d = dirname(d)) {
    const dotGit = join(d, '.git');
    const st = lstatSync(dotGit, { throwIfNoEntry: false });
    if (st) {
      let gitDir = dotGit;
      if (st.isFile()) {
        const m = /^gitdir:\s*(.+?)\s*$/m.exec(readOr(dotGit));
        if (!m) break;
        gitDir = resolve(d, m[1]!);
      } else if (d === work) break; // inside the tree: watched there
      out.push(gitDir, join(gitDir, 'info'));
      const common = readOr(join(gitDir, 'commondir')).trim();
      if (common) {
        const c = resolve(gitDir, common);
        out.push(c, join(c, 'info'));
      }
      break;
    }
    if (dirname(d) === d) return [];
    out.push(dirname(d));
  }
  return out;
}

/** A regular file's text (never a FIFO the sandbox left), '' when none. */
function readOr(p: string): string {
  try {
    return readRegularText(p, { maxBytes: 4096 });
  } catch {
    return '';
  }
}
