// The crash state: the few lines a fleet groups crash reports by (ClusterFuzz's crash_state), from a crash's
// message and its top frames after the ignore rules of state-rules.ts. An assertion, CHECK or panic with a
// message of its own starts with that message; then come the frames' function names without argument lists,
// up to STATE_LINES lines of at most STATE_LINE_MAX characters. Addresses, lines and paths never enter it, so
// the same bug has the same state across builds and machines; the delta compares crashes by it.
import { Crash, Frame } from "./model";
import { basename, isSanitizerRuntimeFn, isSanitizerObject, matchesFn } from "./frames";
import { STATE_IGNORE_FUNCS, STATE_IGNORE_CONTAINS, STATE_IGNORE_MODULES, STATE_IGNORE_PATHS, FUZZ_ENTRY_FUNCS, STATE_LINE_MAX, STATE_LINES } from "./state-rules";
import { Char } from "./util/chars";
import { checkCondition } from "./state-text";

export function crashState(c: Crash): Array<string> {
  let out = new Array<string>(0);
  let fixed = c.stateHead;
  if (fixed !== null) {
    for (let i = 0; i < fixed.length && out.length < STATE_LINES; i++) {
      out.push(c.stateVerbatim ? fixed[i] : cutNormalized(fixed[i]));
    }
    if (c.stateHeadOnly) return out;
  } else {
    let head = headLine(c);
    if (head !== null && head.length > 0) out.push(cutNormalized(head));
  }
  let symbolized = false;
  let named = false;
  for (let i = 0; i < c.frames.length; i++) {
    let fr = c.frames[i];
    let fn = fr.fn !== null && !isModuleName(fr.fn!) ? fr.fn : null;
    if (fn !== null || fr.file !== null) symbolized = true;
    if (fn !== null) named = true;
  }
  // A crash with a head line ("cond in file.cc", "Bad-cast to B from A") is told apart by it: its own
  // location, a frame without a name, adds nothing.
  let placed = out.length > 0;
  let goNames = c.tool == "go-panic";
  // A stack overflow's frames are a cycle repeated thousands of times: all of them are read, to find it.
  let overflow = c.kind == "stack-overflow";
  let names = new Array<string>(0);
  for (let i = 0; i < c.frames.length && (overflow || out.length + names.length < STATE_LINES); i++) {
    let f = c.frames[i];
    if (f.fn !== null && isFuzzEntry(f.fn!)) {
      // The fuzz target's entry point: its file tells two targets apart; the driver below it is not the bug.
      if (f.file !== null) names.push(cut(fileName(f.file!)));
      break;
    }
    if (ignored(f, symbolized)) continue;
    // A frame known only by its place (an assertion's location, a line without a symbol) is named by its
    // file only when no frame of the stack has a name.
    if (f.fn === null && (named || placed)) continue;
    let name = f.fn !== null ? frameName(f.fn!, goNames) : fileName(f.file !== null ? f.file! : f.module!);
    if (name.length > 0) names.push(cutNormalized(name));
  }
  let from = overflow ? cycleStart(names) : 0;
  let len = overflow && from >= 0 ? cycleLength : names.length;
  if (from < 0) from = 0;
  for (let i = from; i < from + len && i < names.length && out.length < STATE_LINES; i++) out.push(names[i]);
  return out;
}

/** Lengths of the cycles a stack overflow is looked for in, and how often one must repeat. */
const MAX_CYCLE = 10;
const CYCLE_REPEATS = 3;
let cycleLength = 0;

/**
 * Where the first cycle of a recursion starts in a stack's names (the shortest that repeats CYCLE_REPEATS
 * times in a row from there), with its length in cycleLength; -1 when there is none. The frames above it
 * are where the recursion happened to be when the stack ran out, which moves from run to run; the cycle
 * does not.
 */
function cycleStart(names: Array<string>): i32 {
  let n = names.length;
  for (let at = 0; at < n; at++) {
    for (let len = 1; len <= MAX_CYCLE; len++) {
      if (at + CYCLE_REPEATS * len >= n) break;
      let same = true;
      for (let r = 1; r < CYCLE_REPEATS && same; r++) {
        for (let k = 0; k < len; k++) if (names[at + k] != names[at + r * len + k]) { same = false; break; }
      }
      if (same) { cycleLength = len; return at; }
    }
  }
  return -1;
}

/** `libc.so.6`, `linux-gate.so.1`, `libfoo.so`: a shared object's file name, not a function. */
function isModuleName(fn: string): bool {
  let i = fn.indexOf(".so");
  if (i <= 0) return false;
  let e = i + 3;
  if (e < fn.length && fn.charCodeAt(e) != Char.DOT) return false;
  for (let k = 0; k < fn.length; k++) {
    let c = fn.charCodeAt(k);
    if (c == Char.SPACE || c == Char.LPAREN || c == Char.COLON || c == Char.LT) return false;
  }
  return true;
}

function isFuzzEntry(fn: string): bool {
  for (let i = 0; i < FUZZ_ENTRY_FUNCS.length; i++) if (fn == FUZZ_ENTRY_FUNCS[i] || fn.startsWith(FUZZ_ENTRY_FUNCS[i] + "(")) return true;
  return false;
}

function ignored(f: Frame, symbolized: bool): bool {
  // "#0 0x.. in linux-gate.so.1": a module in the function's place is a module-only frame.
  let moduleOnly = f.file === null && (f.fn === null || isModuleName(f.fn!));
  let module = f.module !== null ? f.module : (moduleOnly ? f.fn : null);
  if (module !== null) {
    let m = basename(module);
    for (let i = 0; i < STATE_IGNORE_MODULES.length; i++) if (m.startsWith(STATE_IGNORE_MODULES[i])) return true;
  }
  if (moduleOnly) return symbolized || module === null;
  let where = f.file !== null ? f.file : f.module;
  if (where !== null) {
    let p = where!;
    for (let i = 0; i < STATE_IGNORE_PATHS.length; i++) if (p.includes(STATE_IGNORE_PATHS[i])) return true;
    if (isSanitizerObject(p)) return true;
  }
  if (f.fn !== null) {
    let fn = stripReturnType(removeAnonymous(f.fn!));
    if (isSanitizerRuntimeFn(fn) || matchesFn(fn, STATE_IGNORE_FUNCS)) return true;
    for (let i = 0; i < STATE_IGNORE_CONTAINS.length; i++) if (fn.includes(STATE_IGNORE_CONTAINS[i])) return true;
  }
  return false;
}

/** The message a state starts with: an assertion's or CHECK's condition, a panic's own text; else null. */
function headLine(c: Crash): string | null {
  let m = c.message;
  if (m === null) return null;
  let msg = firstLineOf(m!);
  if (c.tool == "assert") return assertHead(c, msg);
  if (c.tool == "rust-panic") return msg;
  // A Go runtime error or stack overflow is known by its type; any other panic or fatal error by its text.
  if (c.tool == "go-panic") return msg.startsWith("runtime error: ") || msg == "stack overflow" ? null : msg;
  return null;
}

/** `Check failed: cond (1 vs. 2).` -> `cond in file.cc` (the file from the FATAL line); `Assertion `x' failed.` -> x. */
function assertHead(c: Crash, msg: string): string {
  if (msg.startsWith("Assertion `") || msg.startsWith("Assertion '")) {
    // glibc's `Assertion `x' failed.`, also cut short of its closing quote
    let s = msg.substring(11);
    if (s.endsWith(" failed.")) s = s.substring(0, s.length - 8);
    if (s.endsWith("'")) s = s.substring(0, s.length - 1);
    return s;
  }
  let m = msg;
  if (m.startsWith("Security CHECK failed: ")) m = m.substring(23);
  else if (m.startsWith("Security DCHECK failed: ")) m = m.substring(24);
  let s = checkCondition(m);
  let checked = c.kind == "check-failed" || c.kind == "security-check-failed" || c.kind == "security-dcheck-failed";
  let file = checked && c.summary !== null ? fatalFile(c.summary!) : null;
  return file !== null ? s + " in " + file : s;
}

/** The file a CHECK's log line names: `FATAL:dir/file.cc(243)]`, `FATAL:file.cc:143]`, glog's ` file.cc:130]`. */
function fatalFile(summary: string): string | null {
  let end = summary.indexOf("] ");
  if (end < 0) return null;
  let start = summary.lastIndexOf("FATAL:", end);
  if (start >= 0) start += 6;
  else { start = summary.lastIndexOf(" ", end); if (start < 0) return null; start++; }
  let loc = summary.substring(start, end);
  let paren = loc.indexOf("(");
  if (paren > 0) loc = loc.substring(0, paren);
  else {
    let colon = loc.lastIndexOf(":");
    if (colon > 0) loc = loc.substring(0, colon);
  }
  let b = basename(loc);
  return b.length > 0 && b.includes(".") ? b : null;
}

function firstLineOf(s: string): string {
  let nl = s.indexOf("\n");
  return nl >= 0 ? s.substring(0, nl) : s;
}

/**
 * A frame's function as the state names it: C++ without its argument list, qualifiers and anonymous
 * namespaces (`url::(anonymous namespace)::Wrapper::Wrapper()` -> `url::Wrapper::Wrapper`); Go without its
 * package path (`net/http.(*conn).serve.func1` -> `http.(*conn).serve.func1`).
 */
export function frameName(fn: string, go: bool): string {
  if (go) {
    let slash = fn.lastIndexOf("/");
    return slash >= 0 ? fn.substring(slash + 1) : fn;
  }
  let s = removeAnonymous(fn);
  // cut at the first "(" outside template brackets: the argument list, and a `operator()`'s own parentheses
  let depth = 0;
  for (let i = 0; i < s.length; i++) {
    let ch = s.charCodeAt(i);
    if (ch == Char.LT) depth++;
    else if (ch == Char.GT && depth > 0) depth--;
    else if (ch == Char.LPAREN && depth == 0 && i > 0) { s = s.substring(0, i); break; }
  }
  return s.trim();
}

/** `void ns::f<T>(..)` -> `ns::f<T>(..)`: a demangled name's return type is not part of what it names. */
function stripReturnType(fn: string): string {
  let sp = fn.indexOf(" ");
  let lt = fn.indexOf("<");
  let lp = fn.indexOf("(");
  if (sp > 0 && (lt < 0 || sp < lt) && (lp < 0 || sp < lp) && !fn.startsWith("operator")) return fn.substring(sp + 1);
  return fn;
}

function removeAnonymous(fn: string): string {
  return removeAll(removeAll(fn, "(anonymous namespace)::"), "`anonymous namespace'::");
}

/** The last component of a path, '/' or '\\' separated (a Windows build's frames). */
function fileName(p: string): string {
  let i = max(p.lastIndexOf("/"), p.lastIndexOf("\\"));
  return i >= 0 ? p.substring(i + 1) : p;
}

function removeAll(s: string, what: string): string {
  let i = s.indexOf(what);
  while (i >= 0) { s = s.substring(0, i) + s.substring(i + what.length); i = s.indexOf(what); }
  return s;
}

/**
 * s with what changes between builds and runs replaced: an address (`0x` and four or more hex digits) by
 * ADDRESS; a number of four or more digits (or dots) that is not a line number (`file.cc:1234`) nor part of a
 * name or version (`libfoo-1.0.so`), and any number right after `#` or `@` (`node #153`), by NUMBER.
 * A bug's state then reads the same whatever the input made the counters say.
 */
export function normalized(s: string): string {
  let out = "";
  let n = s.length;
  let from = 0;
  let i = 0;
  while (i < n) {
    let c = s.charCodeAt(i);
    if (c < Char.SPACE || c == Char.DEL || c == 0xFFFD) {
      // a control byte, or one that was not text: the same bug prints it differently each time
      out += s.substring(from, i);
      from = ++i;
      continue;
    }
    if (c == Char._0 && i + 1 < n && s.charCodeAt(i + 1) == Char.x) {
      let e = i + 2;
      while (e < n && isHexCode(s.charCodeAt(e))) e++;
      if (e - i - 2 >= 4) {
        while (e < n && s.charCodeAt(e) == Char.U) e++;
        out += s.substring(from, i) + "ADDRESS";
        from = e; i = e;
        continue;
      }
    }
    if (isNumChar(c)) {
      let prev = i > 0 ? s.charCodeAt(i - 1) : -1;
      let e = i;
      while (e < n && isNumChar(s.charCodeAt(e))) e++;
      let next = e < n ? s.charCodeAt(e) : -1;
      let counter = (prev == Char.HASH || prev == Char.AT) && isDigitCode(c);
      if (counter) { e = i; while (e < n && isDigitCode(s.charCodeAt(e))) e++; next = e < n ? s.charCodeAt(e) : -1; }
      let freeStanding = prev != Char.COLON && !isNumChar(prev) && !(isAlnumCode(next) || next == Char.DOT);
      if (freeStanding && (e - i >= 4 || (counter && e > i))) {
        out += s.substring(from, i) + "NUMBER";
        from = e;
      }
      i = e;
      continue;
    }
    i++;
  }
  return from == 0 ? s : out + s.substring(from);
}

function isDigitCode(c: i32): bool { return c >= Char._0 && c <= Char._9; }
function isNumChar(c: i32): bool { return isDigitCode(c) || c == Char.DOT; }
function isHexCode(c: i32): bool { return isDigitCode(c) || (c >= Char.a && c <= Char.f) || (c >= Char.A && c <= Char.F); }
function isAlnumCode(c: i32): bool { return isDigitCode(c) || (c >= Char.a && c <= Char.z) || (c >= Char.A && c <= Char.Z); }

/** A state line: normalized, then cut; only a bounded prefix is normalized (a frame may be megabytes long). */
function cutNormalized(s: string): string {
  return cut(normalized(s.length > 4 * STATE_LINE_MAX ? s.substring(0, 4 * STATE_LINE_MAX) : s));
}

function cut(s: string): string {
  return s.length > STATE_LINE_MAX ? s.substring(0, STATE_LINE_MAX) : s;
}
