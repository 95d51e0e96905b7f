// What the diagnostic parsers share within one log: make's directory stack (so that a compiler's relative
// paths under `make -C dir` are given relative to the log's root) and the location reader they all use.
import { Char, isDigit } from "../util/chars";
import { Line } from "../util/line";
import { Diagnostic, Facts, MAX_DIAGNOSTICS } from "../model";
import { normPath } from "../frames";

const MAX_DIRS = 32;
export const MAX_NOTES = 64;

export class DiagContext {
  private dirs: Array<string> = [];
  private builds: Array<bool> = [];
  /** "dir/" while inside `make[N]: Entering directory './dir'`, else "". */
  prefix: string = "";
  /**
   * The directory is a build tree apart from the sources (ninja's, meson's `build/`): the compiler there names
   * its sources `../src/a.c`, and a bare `a.c` (ld's name of an object's source) is not a file of it.
   */
  buildTree: bool = false;

  enter(dir: string, buildTree: bool = false): void {
    // No directory's path is longer than PATH_MAX: a longer one (a fuzzed line) is none the paths after it are under.
    let d = dir.length > MAX_PATH ? "" : normPath(dir);
    if (d == ".") d = "";
    if (this.dirs.length < MAX_DIRS) { this.dirs.push(d); this.builds.push(buildTree); }
    this.setPrefix(d);
    this.buildTree = buildTree;
  }

  leave(): void {
    if (this.dirs.length > 0) { this.dirs.pop(); this.builds.pop(); }
    let n = this.dirs.length;
    this.setPrefix(n > 0 ? this.dirs[n - 1] : "");
    this.buildTree = n > 0 ? this.builds[n - 1] : false;
  }

  private setPrefix(d: string): void {
    this.prefix = d.length > 0 && !d.endsWith("/") ? d + "/" : d;
  }

  /**
   * A path as printed, made relative to the log's root. Only a relative path is joined to make's
   * directory: an absolute one (cmake hands the compiler `/work/src/a.c`) already names its file, so it
   * is only normalised (the work dir stripped) and never prefixed; `<built-in>` stays as it is.
   */
  resolve(p: string): string {
    if (p.length > MAX_PATH) return p;
    let absolute = p.startsWith("/");
    let q = normPath(p);
    // A relative path only: a system header's `/usr/bin/../lib/gcc/...` is left as the compiler printed it.
    if (!q.startsWith("/")) q = inwardDots(q);
    if (absolute || this.prefix.length == 0 || q.length == 0 || q.startsWith("<")) return q;
    // A build tree apart from the sources holds no file the log names relative to it but by climbing out of it
    // (`../src/a.c`): ld's bare `a.c`, or the relative paths of a tool run after ninja from the work dir (mypy's
    // `pkg/x.py`), are not its.
    if (this.buildTree && !q.startsWith("../")) return q;
    if (!q.startsWith("../")) return this.prefix + q;
    // `../../lib/a.h` under make's `/w/proj/src`: the `..` climb make's directory (`/w/lib/a.h`). A climb
    // past the directory's root means it is not the one the compiler ran in: the path stays as printed.
    let base = this.prefix.substring(0, this.prefix.length - 1);
    let abs = base.startsWith("/");
    let parts = (abs ? base.substring(1) : base).split("/");
    let rest = q;
    while (rest.startsWith("../")) {
      let n = parts.length;
      if (n == 0 || parts[n - 1] == ".." || parts[n - 1].length == 0) return q;
      parts.pop();
      rest = rest.substring(3);
    }
    let head = parts.join("/");
    return (abs ? "/" : "") + head + (head.length > 0 ? "/" : "") + rest;
  }
}

/**
 * `test/../jsmn.h` → `jsmn.h`: a `dir/..` inside a path (gcc prints an include's path as written, `"../jsmn.h"`
 * from test/) names the file the shorter path does. A leading `../`, which climbs out of the path, stays.
 */
export function inwardDots(p: string): string {
  if (p.indexOf("/../") < 0) return p;
  let parts = p.split("/");
  let out = new Array<string>(0);
  for (let i = 0; i < parts.length; i++) {
    let s = parts[i];
    let n = out.length;
    if (s == ".." && n > 0 && out[n - 1] != ".." && out[n - 1].length > 0) { out.pop(); continue; }
    out.push(s);
  }
  return out.join("/");
}

/** Linux's PATH_MAX. */
const MAX_PATH = 4096;

/**
 * Reads "path:line[:col]" in bytes [a, b) of l into d (file resolved through ctx). Returns false when
 * there is no line number or no path; d is then untouched.
 */
export function readLoc(l: Line, a: i32, b: i32, d: Diagnostic, ctx: DiagContext): bool {
  let n1: i32 = -1, n2: i32 = -1;
  // clang -fdiagnostics-print-source-range-info: `exprs.c:47:15:{47:8-47:14}{47:17-47:24}`
  if (l.at(b - 1) == Char.RBRACE) {
    while (b > a && l.at(b - 1) == Char.RBRACE) {
      let o = l.lastIndexOfByte(Char.LBRACE, b);
      if (o < a) return false;
      b = o;
    }
    if (l.at(b - 1) != Char.COLON) return false;
    b--;
  }
  let cut = b;
  for (let k = 0; k < 2; k++) {
    let i = cut - 1;
    while (i >= a && isDigit(l.at(i))) i--;
    if (i == cut - 1 || i < a || l.at(i) != Char.COLON) break;
    let v = <i32>l.readInt(i + 1);
    if (k == 0) n1 = v; else n2 = v;
    cut = i;
  }
  // No file's path is longer than Linux's PATH_MAX: a longer "path" is a run of text before a `:N:` (a fuzzed
  // line of a thousand ` at /rustc ` frames before `../../a.h:3:1:` was resolved once per ` at `, 32 MiB).
  if (n1 < 0 || cut <= a || cut - a > MAX_PATH) return false;
  d.file = ctx.resolve(l.str(a, cut));
  if (n2 >= 0) { d.line = n2; d.col = n1; } else { d.line = n1; d.col = -1; }
  return true;
}

/** Appends a diagnostic that is a consequence, not a cause (make's "*** [...] Error 1"): listed, not counted. */
export function listOnly(f: Facts, d: Diagnostic): void {
  if (f.diagnostics.length >= MAX_DIAGNOSTICS) { f.diagnosticsDropped++; return; }
  f.diagnostics.push(d);
}

/** Adds n as a note of owner, or as a top-level note when there is no owner. */
export function addNote(f: Facts, owner: Diagnostic | null, n: Diagnostic): void {
  if (owner === null) { f.addDiagnostic(n); return; }
  if (owner.notes.length < MAX_NOTES) owner.notes.push(n);
}

/** Changes a diagnostic's severity after the fact, keeping the error/warning counts right. */
export function setSeverity(f: Facts, d: Diagnostic, sev: string): void {
  if (d.severity == sev) return;
  if (d.severity == "error") f.errorCount--; else if (d.severity == "warning") f.warningCount--;
  if (sev == "error") f.errorCount++; else if (sev == "warning") f.warningCount++;
  d.severity = sev;
}

/** True when bytes [a, b) of l are a run of digits. */
export function allDigits(l: Line, a: i32, b: i32): bool {
  if (b <= a) return false;
  for (let i = a; i < b; i++) if (!isDigit(l.at(i))) return false;
  return true;
}
