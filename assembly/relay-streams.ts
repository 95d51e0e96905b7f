// A task runner that runs several programs at once and prints each one's lines behind a prefix naming it
// (turbo: `web:test: PASS src/a.test.ts`; pnpm -r: `packages/web test: PASS src/a.test.ts`), interleaved as
// they come. Each named program is a stream of its own: its lines, the prefix cut off, go to a parser set and
// facts of their own (two TAP or jest streams interleaved would be one broken report to a single set), and the
// streams' facts join the run's at the end.
// A prefix becomes a stream only when the runner announces it (turbo's `web:test: cache miss, executing
// 0123456789abcdef`, pnpm's `packages/web test$ vitest run`), so no line of anything else is ever cut.
import { Char, isHex, isDigit } from "./util/chars";
import { Line } from "./util/line";
import { Facts, Tests, MAX_DIAGNOSTICS, MAX_FAILURES } from "./model";
import { MAX_PASSED_SET } from "./util/name-hash";
import { ParserSet } from "./parsers";
import { normPath } from "./frames";
import { ByteSet } from "./util/byte-set";

/** Streams kept at most; a runner announcing more leaves the others' lines to the run's own parsers. */
const MAX_STREAMS = 16;
/**
 * npm scripts read apart at most; the lines of those after go on as the last one's. Each holds a parser set until
 * the end, and the more sets a run holds the slower every line is read (the 100 MB mixed log of bench:engine, whose
 * repeated npm fixtures open one per banner: 16 sets 359 MB/s, 4 sets 544).
 */
const MAX_SEGMENTS = 8;
/** turbo's task hash: 16 hex digits, the announcement's last word. */
const HASH_LEN = 16;
const TURBO_CACHE = ": cache ";
/** pnpm's `<dir> <script>$ ` within this many bytes. */
const MAX_PREFIX = 200;
const PNPM_SCOPE = "Scope: ";
const NPM_ERROR_PATH = "npm error path ";
const NPM_ERR_PATH = "npm ERR! path ";
const ERROR_COMMAND = "ERROR  command (";
const TURBO_STATES: string[] = ["miss, executing ", "hit, replaying logs ", "bypass, force executing "];
/** yarn berry's `yarn workspaces foreach -vv` starting a workspace's script: `[@scope/a]: Process started`. */
const YARN_STARTED = "]: Process started";
/** yarn berry's report of a workspace that failed: `The command failed in workspace a@workspace:packages/a with exit code 1`. */
const YARN_FAILED = "The command failed in workspace ";
const YARN_WORKSPACE = "@workspace:";
const YARN_EXIT = " with exit code ";
/** lerna's (Nx's task runner) header before its tasks: ` Lerna (powered by Nx)   Running target test for 4 projects:`. */
const NX_RUNNING = "(powered by Nx)   Running target ";

export class RelayStream {
  /** The prefix its lines start with, `web:test: `. */
  prefix: string;
  bytes: ArrayBuffer;
  /** The prefix's first (up to) eight bytes as a little-endian word, and the mask of those it holds: one compare rejects most lines. */
  private head8: u64 = 0;
  private mask8: u64 = 0;
  /** How turbo names the task in its own lines: `web#test: ` (`web#test:  ERROR  command (DIR) ...`); "" for pnpm. */
  taskHead: string = "";
  /** The package's directory, once turbo names it: the stream's relative paths are relative to it. */
  dir: string | null = null;
  parsers: ParserSet | null = null;
  facts: Facts = new Facts();

  constructor(prefix: string, run: Facts) {
    this.prefix = prefix;
    this.bytes = String.UTF8.encode(prefix);
    let n = min(this.bytes.byteLength, 8);
    let b = changetype<usize>(this.bytes);
    for (let i = 0; i < n; i++) {
      this.head8 |= <u64>load<u8>(b + <usize>i) << (<u64>i * 8);
      this.mask8 |= <u64>0xFF << (<u64>i * 8);
    }
    this.facts.exit = run.exit;
    this.facts.tailLines = run.tailLines;
  }

  /** True when l starts with this stream's prefix (or is the prefix less its trailing space). */
  owns(l: Line): bool {
    let b = changetype<usize>(this.bytes);
    let n = this.bytes.byteLength;
    let len = l.len;
    // turbo prints an empty line of the program as the prefix with its space, or without it.
    if (len < n - 1) return false;
    if (len >= 8 && (load<u64>(l.ptr) & this.mask8) != this.head8) return false;
    let m = len < n ? len : n;
    if (memory.compare(l.ptr, b, <usize>m) != 0) return false;
    return m == n || load<u8>(b + <usize>(n - 1)) == Char.SPACE;
  }
}

export class RelayStreams {
  /** Every stream, in the order they opened. */
  streams: Array<RelayStream> = [];
  /** Those whose lines carry a prefix. */
  prefixed: Array<RelayStream> = [];
  /** The npm script running now, when npm announced one: the lines with no prefix are its. */
  segment: RelayStream | null = null;
  /** The first bytes of the prefixes: a line starting with none of them is no stream's. */
  private heads: ByteSet = new ByteSet();
  /** The npm scripts read apart so far (MAX_SEGMENTS at most: each holds a parser set until the end). */
  private segments: i32 = 0;
  /** pnpm's `Scope: 3 of 4 workspace projects` was seen: its announcements may follow. */
  private pnpmScope: bool = false;
  /** lerna's `Running target test for 4 projects:` was seen: its `> a:test` announcements may follow. */
  private nxRun: bool = false;

  /** The stream l belongs to (l then points past the prefix), or null. */
  route(l: Line): RelayStream | null {
    if (l.len == 0 || !this.heads.has(l.at(0))) return null;
    let s = this.prefixed;
    for (let i = 0, n = s.length; i < n; i++) {
      let r = unchecked(s[i]);
      if (r.owns(l)) {
        let k = r.bytes.byteLength;
        if (k > l.len) k = l.len;
        l.set(l.ptr + <usize>k, l.len - k);
        return r;
      }
    }
    return null;
  }

  /**
   * Reads turbo's report of a task that failed, `web#test:  ERROR  command (/work/apps/web) npm run test
   * exited (1)`: the directory the stream's relative paths (tsc's `src/a.ts(4,3)`) are relative to.
   */
  observe(l: Line): void {
    if (l.len < 24) return;
    if (l.at(0) == Char.T) { this.observeYarn(l); return; }
    if (l.at(l.len - 1) != Char.RPAREN) return;
    let s = this.prefixed;
    for (let i = 0, n = s.length; i < n; i++) {
      let r = unchecked(s[i]);
      let h = r.taskHead;
      if (h.length == 0 || !l.startsWith(h)) continue;
      let p = l.skipSpaces(h.length);
      if (!l.matchAt(ERROR_COMMAND, p)) return;
      p += ERROR_COMMAND.length;
      let e = l.indexOf(") ", p);
      let d = e > p ? packageDir(l.str(p, e)) : null;
      if (d !== null) r.dir = d;
      return;
    }
  }

  /**
   * Reads yarn berry's report of a workspace whose script failed, `The command failed in workspace
   * @scope/a@workspace:packages/a with exit code 1`: the directory of the stream `[@scope/a]: `.
   */
  private observeYarn(l: Line): void {
    if (!l.startsWith(YARN_FAILED)) return;
    let p = YARN_FAILED.length;
    let w = l.indexOf(YARN_WORKSPACE, p + 1);
    if (w < 0) return;
    let e = l.indexOf(YARN_EXIT, w);
    if (e < 0) return;
    let prefix = "[" + l.str(p, w) + "]: ";
    let s = this.prefixed;
    for (let i = 0, n = s.length; i < n; i++) {
      let r = unchecked(s[i]);
      if (r.prefix != prefix) continue;
      let d = packageDir(l.str(w + YARN_WORKSPACE.length, e));
      if (d !== null && r.dir === null) r.dir = d;
      return;
    }
  }

  /**
   * A line of a stream naming its directory, when nothing named it before: its own npm banner (`> @scope/a@1.0.0
   * test /work/packages/a`: pnpm's `run` under lerna) or npm's report of the script that failed there (`npm error
   * path /work/packages/a`): the directory its relative paths are relative to.
   */
  streamDir(l: Line, r: RelayStream): void {
    if (r.dir !== null) return;
    let c0 = l.at(0);
    if (c0 == Char.GT) {
      let d = bannerDir(l);
      if (d > 0) r.dir = packageDir(l.str(d));
    } else if (c0 == Char.n && l.len >= 16) {
      let p = l.startsWith(NPM_ERROR_PATH) ? NPM_ERROR_PATH.length : (l.startsWith(NPM_ERR_PATH) ? NPM_ERR_PATH.length : -1);
      if (p > 0) r.dir = packageDir(l.trimmed(p));
    }
  }

  /**
   * Whether l may be an announcement (npm's banner, turbo's cache line, pnpm's scope or script line): the one
   * check most lines get, a few byte compares.
   */
  @inline mayAnnounce(l: Line): bool {
    let n = l.len;
    if (n < 8) return false;
    let c0 = <i32>load<u8>(l.ptr);
    if (c0 == Char.GT) return true;
    // yarn's `[a]: Process started`; lerna's header, a space first and a colon last.
    let last = <i32>load<u8>(l.ptr + <usize>(n - 1));
    if (c0 == Char.LBRACKET && last == Char.d) return true;
    if (c0 == Char.SPACE && last == Char.COLON && !this.nxRun) return true;
    if (this.pnpmScope ? c0 > Char.SPACE : c0 == Char.S) return true;
    return n >= HASH_LEN + TURBO_CACHE.length + 4 && load<u8>(l.ptr + <usize>(n - HASH_LEN - 1)) == Char.SPACE;
  }

  /** When l announces a stream (turbo's, yarn's, lerna's or pnpm's), opens it. */
  announce(l: Line, run: Facts): void {
    if (!this.turbo(l, run) && !this.yarn(l, run) && !this.lerna(l, run)) this.pnpm(l, run);
  }

  /**
   * yarn berry's `[@scope/a]: Process started` (`yarn workspaces foreach -vv run test`; `-v` prefixes the lines
   * the same but announces nothing, so they are not cut): the stream `[@scope/a]: `.
   */
  private yarn(l: Line, run: Facts): bool {
    if (l.at(0) != Char.LBRACKET || !l.endsWith(YARN_STARTED)) return false;
    let e = l.len - YARN_STARTED.length;
    // A package's name: no space in it.
    if (e < 2 || e > MAX_PREFIX || l.indexOfByte(Char.SPACE) < e) return false;
    if (this.streams.length >= MAX_STREAMS) return false;
    this.open(l.str(0, e + 3), run);
    return true;
  }

  /**
   * lerna's `> @scope/a:test` (Nx's task runner starting a task, after its `Running target test for N projects:`
   * header): under `--stream` the task's lines follow behind `@scope/a: `.
   */
  private lerna(l: Line, run: Facts): bool {
    let c0 = l.at(0);
    if (c0 == Char.SPACE) {
      if (!this.nxRun && l.at(l.len - 1) == Char.COLON && l.contains(NX_RUNNING)) this.nxRun = true;
      return false;
    }
    if (c0 != Char.GT || !this.nxRun || l.at(1) != Char.SPACE) return false;
    // One word, the package's name and the target after its first ':' (a scope's '/' before it).
    let n = l.len;
    if (n < 5 || n > MAX_PREFIX || l.indexOfByte(Char.SPACE, 2) >= 0) return false;
    let slash = l.indexOfByte(Char.SLASH, 2);
    let colon = l.indexOfByte(Char.COLON, slash < 0 ? 2 : slash);
    if (colon <= 2 || colon + 1 >= n) return false;
    if (this.streams.length >= MAX_STREAMS) return false;
    this.open(l.str(2, colon) + ": ", run);
    return true;
  }

  /** turbo's `web:test: cache miss, executing 0123456789abcdef`: the stream `web:test: `. */
  private turbo(l: Line, run: Facts): bool {
    // The hash at the end first: a few byte compares reject every other line.
    let n = l.len;
    if (n < HASH_LEN + TURBO_CACHE.length + 4 || l.at(n - HASH_LEN - 1) != Char.SPACE || !isHex(l.at(n - 1))) return false;
    if (this.streams.length >= MAX_STREAMS) return false;
    let c = l.indexOf(TURBO_CACHE);
    if (c <= 0 || l.indexOfByte(Char.SPACE) < c) return false;
    let p = c + TURBO_CACHE.length;
    let known = false;
    for (let i = 0; i < TURBO_STATES.length; i++) if (l.matchAt(unchecked(TURBO_STATES[i]), p) && p + unchecked(TURBO_STATES[i]).length == n - HASH_LEN) known = true;
    if (!known) return false;
    for (let i = n - HASH_LEN; i < n; i++) if (!isHex(l.at(i))) return false;
    let prefix = l.str(0, c + 2);
    let r = this.open(prefix, run);
    if (r !== null) {
      // `pkg:task: `: the package's name ends at the first ':' after its scope (`@scope/pkg:test: `).
      let slash = prefix.indexOf("/");
      let colon = prefix.indexOf(":", slash < 0 ? 0 : slash);
      r.taskHead = prefix.substring(0, colon) + "#" + prefix.substring(colon + 1);
    }
    return true;
  }

  /**
   * pnpm's `packages/web test$ vitest run` (a recursive or filtered run): the stream `packages/web test: `,
   * whose paths are relative to packages/web.
   */
  private pnpm(l: Line, run: Facts): bool {
    let c0 = l.at(0);
    // A recursive run names its scope first (`Scope: 3 of 4 workspace projects`); its announcements come after.
    if (!this.pnpmScope) {
      if (c0 == Char.S && l.startsWith(PNPM_SCOPE) && l.contains(" workspace project")) this.pnpmScope = true;
      return false;
    }
    if (c0 <= Char.SPACE || c0 == Char.MINUS || c0 == Char.HASH) return false;
    let s1 = l.indexOfByte(Char.SPACE);
    if (s1 <= 0 || s1 > MAX_PREFIX) return false;
    let s2 = l.indexOfByte(Char.SPACE, s1 + 1);
    if (s2 < s1 + 3 || s2 > MAX_PREFIX || l.at(s2 - 1) != Char.DOLLAR || s2 + 1 >= l.len) return false;
    if (this.streams.length >= MAX_STREAMS) return false;
    let prefix = l.str(0, s2 - 1) + ": ";
    let r = this.open(prefix, run);
    if (r !== null) r.dir = packageDir(l.str(0, s1));
    return true;
  }

  /** The new stream of that prefix, or null when it is open already. */
  private open(prefix: string, run: Facts): RelayStream | null {
    for (let i = 0; i < this.prefixed.length; i++) if (unchecked(this.prefixed[i]).prefix == prefix) return null;
    let r = new RelayStream(prefix, run);
    this.streams.push(r);
    this.prefixed.push(r);
    this.heads.add(<i32>load<u8>(changetype<usize>(r.bytes)));
    return r;
  }

  /**
   * npm's banner of a script it starts, `> web@1.2.0 test` (pnpm's and yarn's `npm run` alike, with the
   * package's directory after it: `> web@1.2.0 test /work/apps/web`): the lines after it, to the next banner,
   * are that script's, read by parsers of their own (`npm test --workspaces` runs one runner per workspace, one
   * after the other: each one's totals are its own). Returns the stream the banner opened, or null.
   */
  banner(l: Line, run: Facts): RelayStream | null {
    let d = bannerDir(l);
    if (d < 0) return null;
    let dir: string | null = d > 0 ? packageDir(l.str(d)) : null;
    // A script that has said nothing yet (`npm test` whose script is `npm run lint && …`) goes on as the next's:
    // only a script that gave results needs parsers of its own after it.
    let cur = this.segment;
    if (cur !== null && silent(cur.facts)) {
      if (dir !== null) cur.dir = dir;
      return cur;
    }
    if (this.segments >= MAX_SEGMENTS) return null;
    let r = new RelayStream("", run);
    r.dir = dir;
    this.streams.push(r);
    this.segments++;
    this.segment = r;
    return r;
  }

  /** npm's report of where the failed script ran, `npm error path /work/packages/c` (npm 9: `npm ERR! path`). */
  observeSegment(l: Line): void {
    let r = this.segment;
    if (r === null || l.at(0) != Char.n || l.len < 16) return;
    let p = l.startsWith(NPM_ERROR_PATH) ? NPM_ERROR_PATH.length : (l.startsWith(NPM_ERR_PATH) ? NPM_ERR_PATH.length : -1);
    if (p < 0 || r!.dir !== null) return;
    r!.dir = packageDir(l.trimmed(p));
  }

  /** End of input: each stream's parsers finish, and its facts join the run's, in the order the streams opened. */
  finish(run: Facts): void {
    let s = this.streams;
    for (let i = 0, n = s.length; i < n; i++) {
      let r = unchecked(s[i]);
      let ps = r.parsers;
      if (ps !== null) ps.finish(r.facts);
      if (r.dir !== null) rebase(r.facts, r.dir!);
      join(run, r.facts);
    }
  }
}

/**
 * Reads npm's banner `> name@1.2.0 test` or `> name@1.2.0 test /work/apps/web`: -1 when l is none, 0 when it
 * names no directory, else where its directory starts.
 */
function bannerDir(l: Line): i32 {
  if (l.at(0) != Char.GT || l.at(1) != Char.SPACE || l.len < 8) return -1;
  // The name (`@scope/name` or `name`), '@', a version starting with a digit.
  let at = l.indexOfByte(Char.AT, 3);
  if (at < 3 || !isDigit(l.at(at + 1))) return -1;
  let sp = l.indexOfByte(Char.SPACE, 2);
  if (sp < at || sp + 1 >= l.len) return -1;
  for (let i = 2; i < at; i++) if (l.at(i) <= Char.SPACE) return -1;
  // The script's name, then the end of the line or a directory.
  let end = l.indexOfByte(Char.SPACE, sp + 1);
  if (end == sp + 1) return -1;
  if (end < 0) return 0;
  return l.at(end + 1) == Char.SLASH ? end + 1 : -1;
}

/** A package's directory as the run's reader names it, or null when it is the run's own (`.`, `/work`). */
function packageDir(path: string): string | null {
  let d = normPath(path);
  return d.length == 0 || d == "." || d == "/work" ? null : d;
}

/** Nothing read yet: no test, diagnostic or crash. */
function silent(f: Facts): bool {
  return f.tests === null && f.errorCount == 0 && f.warningCount == 0 && f.crash === null && f.pendingCrash === null;
}

/** A path the program printed relative to its own directory, made one the run's reader can open. */
function rebased(file: string | null, dir: string): string | null {
  if (file === null || file.length == 0 || file.charCodeAt(0) == Char.SLASH) return file;
  let f = normPath(file!);
  // Already from where the run was (a tool printing paths from the repository's root): as it is.
  if (f.startsWith(dir + "/")) return f;
  // `../../shared/x.ts` (tsc's related location outside the package): each `../` takes a directory off.
  let d = dir;
  while (f.startsWith("../")) {
    if (d.length == 0) return file;
    let k = d.lastIndexOf("/");
    d = k < 0 ? "" : d.substring(0, k);
    f = f.substring(3);
  }
  return d.length > 0 ? d + "/" + f : f;
}

function rebase(f: Facts, dir: string): void {
  let d = f.diagnostics;
  for (let i = 0; i < d.length; i++) {
    let x = unchecked(d[i]);
    x.file = rebased(x.file, dir);
    // Its notes' places too (tsc's related location in another file).
    let ns = x.notes;
    for (let j = 0; j < ns.length; j++) { let y = unchecked(ns[j]); y.file = rebased(y.file, dir); }
  }
  let t = f.tests;
  if (t !== null) {
    let fs = t.failures;
    for (let i = 0; i < fs.length; i++) { let x = unchecked(fs[i]); x.file = rebased(x.file, dir); }
  }
}

/** Adds a stream's facts to the run's: lists appended (within their bounds), counts summed, the first of a kind kept. */
function join(f: Facts, s: Facts): void {
  let d = s.diagnostics;
  for (let i = 0; i < d.length; i++) {
    if (f.diagnostics.length < MAX_DIAGNOSTICS) f.diagnostics.push(unchecked(d[i]));
    else f.diagnosticsDropped++;
  }
  f.diagnosticsDropped += s.diagnosticsDropped;
  f.errorCount += s.errorCount;
  f.warningCount += s.warningCount;
  if (f.crash === null) f.crash = s.crash;
  f.crashCount += s.crashCount;
  if (f.pendingCrash === null) f.pendingCrash = s.pendingCrash;
  let t = s.tests;
  if (t !== null) {
    if (f.tests === null) f.tests = t;
    else addTests(f.tests!, t);
  }
  f.cargoCheck = f.cargoCheck || s.cargoCheck;
  f.timeoutSeen = f.timeoutSeen || s.timeoutSeen;
  if (f.setupFailure === null) f.setupFailure = s.setupFailure;
  if (f.missingLibrary === null) f.missingLibrary = s.missingLibrary;
  if (f.buildFailedLine === null) f.buildFailedLine = s.buildFailedLine;
  if (s.upToDate) f.upToDate = true;
  joinCompiled(f, s);
  if (f.stepFailedLine === null) f.stepFailedLine = s.stepFailedLine;
  if (f.warningsFailLine === null) f.warningsFailLine = s.warningsFailLine;
  if (s.lastReport !== null) f.lastReport = s.lastReport;
  f.reports += s.reports;
}

/** A count one side does not know (-1) makes the sum unknown. */
@inline function sum(a: i64, b: i64): i64 { return a < 0 || b < 0 ? -1 : a + b; }

function addTests(t: Tests, u: Tests): void {
  t.passed = sum(t.passed, u.passed);
  t.failed = sum(t.failed, u.failed);
  t.errors = sum(t.errors, u.errors);
  t.skipped = sum(t.skipped, u.skipped);
  t.rerunFailed = sum(t.rerunFailed, u.rerunFailed);
  t.xfailed += u.xfailed;
  t.deselected += u.deselected;
  t.notRun = t.notRun < 0 ? u.notRun : (u.notRun < 0 ? t.notRun : t.notRun + u.notRun);
  for (let i = 0; i < u.unfinished.length; i++) t.unfinished.push(unchecked(u.unfinished[i]));
  for (let i = 0; i < u.unfinishedPassed.length; i++) t.unfinishedPassed.push(unchecked(u.unfinishedPassed[i]));
  // A list of every passing test holds only when each stream had one.
  let a = t.passedSet; let b = u.passedSet;
  if (a !== null && b !== null && a.length + b.length <= MAX_PASSED_SET) { for (let i = 0; i < b.length; i++) a.push(unchecked(b[i])); }
  else t.passedSet = null;
  let sa = t.skippedSet; let sb = u.skippedSet;
  if (sa === null) t.skippedSet = sb;
  else if (sb !== null) { for (let i = 0; i < sb.length && sa.length < MAX_PASSED_SET; i++) sa.push(unchecked(sb[i])); }
  let la = t.loadedSet; let lb = u.loadedSet;
  if (la === null) t.loadedSet = lb;
  else if (lb !== null) { for (let i = 0; i < lb.length && la.length < MAX_PASSED_SET; i++) la.push(unchecked(lb[i])); }
  for (let i = 0; i < u.failures.length && t.failures.length < MAX_FAILURES; i++) t.failures.push(unchecked(u.failures[i]));
  t.totals = t.totals && u.totals;
}

/** The sources both say they compiled (Facts.compiled): unknown when either overflowed. */
function joinCompiled(f: Facts, s: Facts): void {
  if (f.compiledOverflow) return;
  if (s.compiledOverflow) { f.compiledOverflow = true; f.compiled = null; return; }
  let c = s.compiled;
  if (c === null) return;
  let into = f.compiled;
  if (into === null) { f.compiled = c; return; }
  for (let i = 0; i < c.length; i++) if (!into.includes(c[i])) into.push(c[i]);
}
