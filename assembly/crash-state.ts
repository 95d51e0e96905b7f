// The crash state: the few lines a fleet groups crash reports by (ClusterFuzz's crash_state), from a crash's
// message and its top frames after the ignore rules of state-rules.ts. An assertion, CHECK or panic with a
// message of its own starts with that message; then come the frames' function names without argument lists,
// up to STATE_LINES lines of at most STATE_LINE_MAX characters. Addresses, lines and paths never enter it, so
// the same bug has the same state across builds and machines; the delta compares crashes by it.
import { Crash, Frame } from "./model";
import { basename } from "./frames";
import { STATE_IGNORE, STATE_IGNORE_IF_SYMBOLIZED, FUZZ_ENTRY, STATE_LINE_MAX, STATE_LINES } from "./state-rules";
import { Char, isDigit, isHex } from "./util/chars";
import { checkCondition } from "./state-text";

export function crashState(c: Crash): Array<string> {
  let frames = stateFrames(c);
  let out = new Array<string>(0);
  let fixed = c.stateHead;
  if (fixed !== null) {
    for (let i = 0; i < fixed.length && out.length < STATE_LINES; i++) {
      out.push(c.stateVerbatim ? fixed[i] : stateLine(fixed[i]));
    }
    if (c.stateHeadOnly) return out;
  } else {
    let head = headLine(c);
    if (head !== null && head.length > 0) out.push(stateLine(head));
  }
  // a head the frame count does not include leaves room for STATE_LINES frames after it
  let lines = out.length > 0 && !headCounted(c) ? STATE_LINES + 1 : STATE_LINES;
  let goNames = c.tool == "go-panic";
  // A stack overflow's frames are a cycle repeated thousands of times: all of them are read, to find it.
  let overflow = c.kind == "stack-overflow";
  let names = new Array<string>(0);
  for (let i = 0; i < frames.length && (overflow || out.length + names.length < lines); i++) {
    let fr = frames[i];
    if (!printed(fr)) continue;
    let text = frameText(fr);
    if (ignored(text)) continue;
    let name = goNames ? afterLastSlash(text) : frameName(text);
    names.push(stateLine(name));
  }
  let from = overflow ? cycleStart(names) : 0;
  let len = overflow && from >= 0 ? cycleLength : names.length;
  if (from < 0) from = 0;
  for (let i = from; i < from + len && i < names.length && out.length < lines; i++) out.push(names[i]);
  return out;
}

/**
 * Whether a crash's message head is one of the state's STATE_LINES lines. It is for an assertion, a CHECK or a
 * panic; ClusterFuzz sets a V8 API error's and a Go fatal error's message with its frame count reset, so up to
 * STATE_LINES frames follow those.
 */
function headCounted(c: Crash): bool {
  if (c.kind == "v8-api-error") return false;
  let s = c.summary;
  return !(c.tool == "go-panic" && c.kind != "stack overflow" && s !== null && s.startsWith("fatal error: "));
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

/**
 * The frames a state reads, in the order printed: the parser's own list for it (stateFrames), else the
 * crash's stack, then (a use after free) the stack that freed the memory, as a fleet reading the report
 * line by line reads on into it when the access stack is short.
 */
function stateFrames(c: Crash): Array<Frame> {
  let own = c.stateFrames;
  if (own !== null) return own!;
  if (c.freeFrames.length == 0) return c.frames;
  return c.frames.concat(c.freeFrames);
}

/**
 * A frame the report printed, not one a parser made of a location the report names (an assertion's or a
 * panic's `file:line`): only printed frames are in a state.
 */
function printed(f: Frame): bool {
  return f.text !== null || f.fn !== null;
}

/**
 * A frame's text as the ignore rules read it: as printed (function with file or module), else its name,
 * else its file or module. The fuzz target's entry point with a file is named by the file's name.
 */
function frameText(f: Frame): string {
  let t = f.text;
  let fn = f.fn;
  if (t === null) t = fn !== null ? fn : (f.file !== null ? f.file : (f.module !== null ? f.module : ""));
  let s = t!;
  if (fn !== null && fn!.startsWith(FUZZ_ENTRY) && f.file !== null && s.startsWith(FUZZ_ENTRY)) {
    s = basename(f.file!.replaceAll("\\", "/")) + s.substring(FUZZ_ENTRY.length);
  }
  return s;
}

/**
 * True when a rule of state-rules.ts drops the frame (a text under three characters says nothing either).
 * A report is read as symbolized, as a fleet's bots symbolize every report before they read it.
 */
function ignored(text: string): bool {
  if (text.length < 3) return true;
  let t = text.includes("\\") ? text.replaceAll("\\", "/") : text;
  return matchesRule(t, STATE_IGNORE) || matchesRule(t, STATE_IGNORE_IF_SYMBOLIZED);
}

/** A row of state-rules.ts against a frame's text: "=whole", "^prefix", "*part" or "*part*later". */
function matchesRule(t: string, rules: string[]): bool {
  for (let i = 0; i < rules.length; i++) {
    let r = rules[i];
    let op = r.charCodeAt(0);
    let body = r.substring(1);
    if (op == Char.EQ) { if (t == body) return true; }
    else if (op == Char.CARET) { if (t.startsWith(body)) return true; }
    else {
      let star = body.indexOf("*");
      if (star < 0) { if (t.includes(body)) return true; }
      else {
        let a = t.indexOf(body.substring(0, star));
        if (a >= 0 && t.indexOf(body.substring(star + 1), a + star) >= 0) return true;
      }
    }
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
 * A frame's name in the state, from its text: without a Windows module (`chrome.dll!Foo`), anonymous
 * namespaces and thunk prefixes, cut at the first parenthesis or bracket (the argument list: `Foo::Bar(int)
 * a.cc:3` -> `Foo::Bar`), else at the first space (the file: `main a.c:3` -> `main`). ClusterFuzz cuts so,
 * templates or not (`void f<int>(int)` -> `void f<int>`).
 */
export function frameName(text: string): string {
  let s = removeAll(removeAll(removeAll(text, "non-virtual thunk to "), "(anonymous namespace)::"), "`anonymous namespace'::");
  let bang = s.lastIndexOf("!");
  if (bang >= 0) s = s.substring(bang + 1);
  let cut = false;
  for (let i = 1; i < s.length; i++) {
    let ch = s.charCodeAt(i);
    if (ch == Char.LPAREN || ch == Char.LBRACKET) { s = s.substring(0, i); cut = true; break; }
  }
  s = s.trimStart().trimEnd();
  // A frame printed without a pc puts its location after the name (TSan: `on_alarm ./main.c:7:15 (prog+0x..)`).
  let loc = locationAfterName(s);
  if (loc > 0) return s.substring(0, loc).trimStart().trimEnd();
  if (cut) return s;
  let sp = s.indexOf(" ");
  return sp >= 0 ? s.substring(0, sp) : s;
}

/** Where a `name path/file.c:7:15` text's location starts (a space, then a path or a file:line), or -1. */
function locationAfterName(s: string): i32 {
  let sp = s.indexOf(" ");
  if (sp <= 0) return -1;
  let rest = s.substring(sp + 1);
  if (rest.startsWith("/") || rest.startsWith("./") || rest.startsWith("../")) return sp;
  let colon = rest.indexOf(":");
  return colon > 0 && colon + 1 < rest.length && isDigit(rest.charCodeAt(colon + 1)) && !rest.includes(" ") ? sp : -1;
}

/** A Go frame's name: its function without the package path (`net/http.(*conn).serve` -> `http.(*conn).serve`). */
function afterLastSlash(s: string): string {
  let i = s.lastIndexOf("/");
  return i >= 0 ? s.substring(i + 1) : s;
}

function removeAll(s: string, what: string): string {
  let i = s.indexOf(what);
  while (i >= 0) { s = s.substring(0, i) + s.substring(i + what.length); i = s.indexOf(what); }
  return s;
}

/**
 * s with what changes between builds and runs replaced, as ClusterFuzz normalizes a state: an offset at the end
 * (`Foo+0x1a2b`) dropped; an address (`0x` and four or more hex digits) by ADDRESS; by NUMBER a number of four
 * or more digits (or dots), of two or more digits after a space (`token 13`), or any number right after `#` or
 * `@` (`node #153`), unless it follows `:` (a line: `file.cc:1234`) or runs into a letter, digit or dot (a
 * name or version: `libfoo-1.0.so`). A bug's state then reads the same whatever the input made the counters say.
 */
export function normalized(s: string): string {
  s = withoutEndOffset(s);
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
      while (e < n && isHex(s.charCodeAt(e))) e++;
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
      let counter = (prev == Char.HASH || prev == Char.AT) && isDigit(c);
      let spaced = prev == Char.SPACE && isDigit(c);
      let d = i;
      while (d < n && isDigit(s.charCodeAt(d))) d++;
      let next = e < n ? s.charCodeAt(e) : -1;
      let dnext = d < n ? s.charCodeAt(d) : -1;
      let free = prev != Char.COLON && !isNumChar(prev);
      let end = -1;
      if (free && e - i >= 4 && !isAlnumCode(next)) end = e;
      else if (free && (counter || (spaced && d - i >= 2)) && !isAlnumCode(dnext) && dnext != Char.DOT) end = d;
      if (end > 0) {
        out += s.substring(from, i) + "NUMBER";
        from = end;
      }
      i = e;
      continue;
    }
    i++;
  }
  return from == 0 ? s : out + s.substring(from);
}

/** s without a `+0x1a2b` offset at its end. */
function withoutEndOffset(s: string): string {
  let e = s.length;
  let i = e;
  while (i > 0 && isHex(s.charCodeAt(i - 1))) i--;
  if (i < e && i >= 3 && s.charCodeAt(i - 1) == Char.x && s.charCodeAt(i - 2) == Char._0 && s.charCodeAt(i - 3) == Char.PLUS) return s.substring(0, i - 3);
  return s;
}

function isNumChar(c: i32): bool { return isDigit(c) || c == Char.DOT; }
function isAlnumCode(c: i32): bool { return isDigit(c) || (c >= Char.a && c <= Char.z) || (c >= Char.A && c <= Char.Z); }

/**
 * A state line: normalized, then cut to STATE_LINE_MAX (a `Bad-cast to ..` line stays whole); only a bounded
 * prefix is read (a frame may be megabytes long).
 */
function stateLine(s: string): string {
  let n = normalized(s.length > 4 * STATE_LINE_MAX ? s.substring(0, 4 * STATE_LINE_MAX) : s);
  return n.startsWith("Bad-cast") ? n : cut(n);
}

function cut(s: string): string {
  return s.length > STATE_LINE_MAX ? s.substring(0, STATE_LINE_MAX) : s;
}
