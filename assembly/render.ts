// The run-result envelope as the text an agent reads. Fixed order: header, delta, crash, diagnostics
// (errors first), tests, tail, footer. Same envelope, same bytes.
import { Char, isIdent } from "./util/chars";
import { Sink } from "./util/sink";
import { Located, Frame, Diagnostic, Crash, Verdict, failureKey, MAX_FAILURES } from "./model";
import { Envelope, readEnvelope, readError } from "./verdict-reader";
import { join } from "./util/join";

const MAX_ERRORS = 25;
const MAX_WARNINGS = 10;
const MAX_NOTES = 4;
const MAX_USER_FRAMES = 8;
const MAX_FAILURES_SHOWN = 20;
const MAX_TAIL_CHARS = 240;

function loc(v: Located): string {
  let file = v.fileOr;
  if (file.length == 0) return "";
  let s = file;
  let line = v.line;
  if (line >= 0) {
    s += ":" + line.toString();
    let col = v.col;
    if (col >= 0) s += ":" + col.toString();
  }
  return s;
}

function orEmpty(s: string | null): string { return s !== null ? s : ""; }

/** `fn file:line`; a frame whose function is unknown is shown by where it is alone, never as `??`. */
function frameText(fr: Frame): string {
  let fn = orEmpty(fr.fn);
  if (fn == "??") fn = "";
  let where = loc(fr);
  if (where.length == 0) {
    let m = orEmpty(fr.module);
    if (m.length > 0) where = "(" + m + ")";
  }
  if (fn.length == 0) return where.length > 0 ? where : "(unknown function)";
  return where.length > 0 ? fn + " " + where : fn;
}

/** The delta's one line (the delta itself is computed in delta.ts). */
function deltaLine(env: Envelope): string {
  if (env.firstRun) return "delta: first run";
  let s = env.deltaSummary;
  return "delta: " + (s !== null ? s : "(no summary)");
}

function nl(o: Sink, s: string): void { o.str(s); o.byte(Char.LF); }

function header(o: Sink, env: Envelope): void {
  let v = env.verdict;
  let parts = new Array<string>(0);
  let status = v.status;
  parts.push("sbx: " + (status !== null ? status : "?"));
  let sig = v.exitSignal;
  if (v.timedOut) parts.push("timed out");
  if (sig !== null) parts.push("killed by " + sig);
  else if (v.exitKnown) parts.push("exit " + v.exitCode.toString());
  if (env.hasOutcome) {
    let ms = env.wallMs;
    if (ms >= 0) {
      // sbx's own time (set-up, fingerprints, state) beside the command's, when it is worth saying.
      let extra = env.totalKnown ? env.totalMs - ms : 0;
      parts.push(extra >= 10 ? ms.toString() + " ms (+" + extra.toString() + " ms sbx)" : ms.toString() + " ms");
    }
  }
  let lines = v.lines;
  parts.push(lines.toString() + (lines == 1 ? " line" : " lines"));
  nl(o, join(parts, " · "));
  let setup = v.setupError;
  if (setup !== null) nl(o, "setup: " + setup);
  let lib = v.missingLibrary;
  if (lib !== null) nl(o, "  missing shared library " + lib + ": build or install it, or put its directory on LD_LIBRARY_PATH");
  if (v.binary) nl(o, "note: the log holds binary data (NUL bytes); undecodable bytes shown as \uFFFD");
}

function isSanitizer(tool: string): bool {
  return tool == "asan" || tool == "lsan" || tool == "tsan" || tool == "msan" || tool == "hwasan";
}

function crashBlock(o: Sink, c: Crash): void {
  let line = "crash: " + c.tool + " " + c.kind;
  let access = c.access;
  if (access !== null) {
    line += " · " + access;
    let size = c.size;
    if (size >= 0) line += " of size " + size.toString();
  }
  let thread = c.thread;
  if (thread !== null) line += " · thread " + thread;
  nl(o, line);
  // A sanitizer's message line repeats the kind with addresses; a panic's or exception's is the point.
  let msg = c.message;
  if (msg !== null && msg.length > 0 && !isSanitizer(c.tool)) nl(o, "  message: " + msg);
  let first = c.firstUserFrame;
  if (first !== null) nl(o, "  at " + frameText(first));
  else nl(o, "  at (no frame in your code)");
  let region = c.region;
  if (region !== null) nl(o, "  address: " + region);
  let obj = c.objectName;
  if (obj !== null) {
    // ASan's stack variable: `variable: 'copy' (line 66) in remember SPSCQueueTest.cpp:68, the access inside it`
    let ofr = c.objectFrame;
    let acc = c.objectAccess;
    nl(o, "  variable: '" + obj + "'" + (c.objectLine >= 0 ? " (line " + c.objectLine.toString() + ")" : "") +
      (ofr !== null ? " in " + frameText(ofr) : "") + (acc !== null ? ", the access " + (acc == "inside" ? "is inside" : acc) + " it" : ""));
  }
  let causes = c.causes;
  for (let i = 0; i < causes.length; i++) {
    let k = causes[i];
    let at = k.firstUserFrame;
    let msg = k.message;
    nl(o, "  " + (k.relation == "cause" ? "caused by: " : "while handling: ") + k.kind +
      (msg !== null && msg.length > 0 ? ": " + msg : "") + (at !== null ? "  at " + frameText(at) : ""));
  }
  let hint = c.hint;
  if (hint !== null) nl(o, "  hint: " + hint);
  stack(o, "  stack", c.frames, true);
  // TSan's lock-order inversion: the other stack took the locks in the opposite order.
  stack(o, c.kind.startsWith("lock-order-inversion") ? "  other lock" : "  other access", c.otherFrames, false);
  site(o, "  allocated at", c.allocFrames);
  site(o, "  freed at", c.freeFrames);
  if (first === null) {
    let s = c.summary;
    if (s !== null) nl(o, "  summary: " + s);
  }
}

/** A frame's index, or its position when the verdict gives none. */
function indexOr(f: Frame, i: i32): i64 { return f.index >= 0 ? f.index : <i64>i; }

/** User frames first (up to a bound), then a count of the runtime frames left out. */
function stack(o: Sink, title: string, frames: Array<Frame>, skipFirst: bool): void {
  if (frames.length == 0) return;
  let users = new Array<Frame>(0);
  let runtime = 0;
  for (let i = 0; i < frames.length; i++) {
    let f = frames[i];
    if (f.user) users.push(f); else runtime++;
  }
  if (skipFirst && users.length <= 1 && runtime == 0) return;
  nl(o, title + " (" + users.length.toString() + " yours, " + runtime.toString() + " runtime):");
  for (let i = 0; i < users.length && i < MAX_USER_FRAMES; i++) {
    let f = users[i];
    nl(o, "    #" + indexOr(f, i).toString() + " " + frameText(f));
  }
  if (users.length > MAX_USER_FRAMES) nl(o, "    … " + (users.length - MAX_USER_FRAMES).toString() + " more of yours");
  if (users.length == 0) {
    for (let i = 0; i < frames.length && i < 3; i++) nl(o, "    #" + indexOr(frames[i], i).toString() + " " + frameText(frames[i]));
  }
}

function site(o: Sink, title: string, frames: Array<Frame>): void {
  if (frames.length == 0) return;
  let u = -1;
  for (let i = 0; i < frames.length; i++) if (frames[i].user) { u = i; break; }
  let via = orEmpty(frames[0].fn);
  let text = frameText(frames[max(u, 0)]);
  if (u > 0 && via.length > 0 && via != orEmpty(frames[u].fn)) text += "  (via " + via + ")";
  nl(o, title + ": " + text);
}

function diagText(d: Diagnostic): string {
  let s = loc(d);
  let msg = d.message;
  let label = d.label;
  if (label !== null) msg += " — " + label;
  // rustc's `help:` lines ride as notes whose message keeps its own word.
  let sev = d.severity;
  s = (s.length > 0 ? s + ": " : "") + (sev == "note" && msg.startsWith("help: ") ? msg : sev + ": " + msg);
  let code = d.code;
  if (code !== null) s += " [" + code + "]";
  return s;
}

function diagnostics(o: Sink, v: Verdict): void {
  let ds = v.diagnostics;
  let nerr = v.errorCount;
  let nwarn = v.warningCount;
  let shownE = 0; let shownW = 0;
  if (nerr > 0) {
    nl(o, "errors (" + nerr.toString() + "):");
    for (let i = 0; i < ds.length; i++) {
      let d = ds[i];
      if (d.severity != "error") continue;
      if (shownE++ >= MAX_ERRORS) continue;
      nl(o, "  " + diagText(d));
      let notes = d.notes;
      for (let k = 0; k < notes.length && k < MAX_NOTES; k++) nl(o, "    " + diagText(notes[k]));
      if (notes.length > MAX_NOTES) nl(o, "    … " + (notes.length - MAX_NOTES).toString() + " more notes");
    }
    if (nerr > MAX_ERRORS) nl(o, "  … " + (nerr - MAX_ERRORS).toString() + " more errors (--json has them all)");
  }
  if (nwarn > 0) {
    nl(o, "warnings (" + nwarn.toString() + "):");
    for (let i = 0; i < ds.length; i++) {
      let d = ds[i];
      if (d.severity != "warning") continue;
      if (shownW++ >= MAX_WARNINGS) continue;
      nl(o, "  " + diagText(d));
    }
    if (nwarn > MAX_WARNINGS) nl(o, "  … " + (nwarn - MAX_WARNINGS).toString() + " more warnings");
  }
  let dropped = v.diagnosticsDropped;
  if (dropped > 0) nl(o, "  (" + dropped.toString() + " diagnostics beyond the first 400 not kept)");
}

function tests(o: Sink, v: Verdict): void {
  let t = v.tests!;
  let parts = new Array<string>(0);
  let failed = t.failed;
  let errors = t.errors;
  if (failed > 0) parts.push(failed.toString() + " failed");
  if (errors > 0) parts.push(errors.toString() + (errors == 1 ? " error" : " errors"));
  // A count the log does not give is null: left out, never printed as 0.
  let passed = t.passed;
  if (passed >= 0) parts.push(passed.toString() + " passed");
  let skipped = t.skipped;
  if (skipped > 0) parts.push(skipped.toString() + " skipped");
  let notRun = t.notRun;
  if (notRun > 0) parts.push(notRun.toString() + " not run");
  // A build that failed ran no test: not "no failure" (go test's `FAIL pkg [build failed]`).
  if (parts.length == 0) parts.push(t.failed < 0 ? "no results (none ran, or none were printed)" :
    v.statusOr == "build-failed" && t.failures.length == 0 ? "not run (the build failed)" : "no failure, counts not printed");
  nl(o, "tests: " + join(parts, ", ") + " (" + t.runner + ")");
  // Members of a group of identical failures (same message and location) render once, as the group.
  let groups = v.errorGroups;
  let grouped = new Set<string>();
  for (let g = 0; g < groups.length; g++) grouped.add(failureKey(groups[g].message, groups[g]));
  let fs = t.failures;
  let shown = 0;
  for (let i = 0; i < fs.length; i++) {
    let f = fs[i];
    let name = f.subtest !== null ? f.name + " " + f.subtest! : f.name;
    if (grouped.has(failureKey(f.message, f))) continue;
    if (shown++ >= MAX_FAILURES_SHOWN) continue;
    let where = loc(f);
    nl(o, "  FAIL " + name + (where.length > 0 ? "  " + where : ""));
    let msg = f.message;
    let shownMsg = "";
    if (msg.length > 0) {
      let lines = msg.split("\n");
      for (let k = 0; k < lines.length && k < 6; k++) { nl(o, "       " + lines[k]); shownMsg += lines[k] + "\n"; }
    }
    // Only the side the runner printed: an unknown side is left out, not shown as "?"; nor a side the
    // message lines above already show (jest's and vitest's `Expected: …` / `Received: …`).
    let ex = f.expected; let ac = f.actual;
    let sides = new Array<string>(0);
    if (ex !== null && !showsValue(shownMsg, ex)) sides.push("expected: " + ex);
    if (ac !== null && !showsValue(shownMsg, ac)) sides.push("actual: " + ac);
    if (sides.length > 0) nl(o, "       " + join(sides, "  "));
  }
  if (shown > MAX_FAILURES_SHOWN) nl(o, "  … " + (shown - MAX_FAILURES_SHOWN).toString() + " more failures (--json has them all)");
  // The run counted more failures than the list keeps (it stopped at MAX_FAILURES): the groups count the listed ones.
  let unlisted = t.failed + max<i64>(t.errors, 0) - <i64>fs.length;
  if (fs.length >= MAX_FAILURES && unlisted > 0) nl(o, "  (" + unlisted.toString() + " more failures not listed: the first " + fs.length.toString() + " are kept)");
  for (let g = 0; g < groups.length; g++) {
    let gr = groups[g];
    let list = gr.tests;
    let count = gr.count;
    let more = count > <i64>list.length ? ", …" : "";
    let where = loc(gr);
    nl(o, "  " + count.toString() + "× same failure" + (where.length > 0 ? " at " + where : "") + ": " + headline(gr.message));
    nl(o, "       " + join(list, ", ") + more);
  }
}

/** A message's first line; with the next when it only announces it (`Transform failed with 1 error:`). */
function headline(message: string): string {
  let lines = message.split("\n");
  let first = lines[0];
  if (lines.length > 1 && first.endsWith(":")) {
    let next = lines[1].trimStart().trimEnd();
    if (next.length > 0) return first + " " + next;
  }
  return first;
}

/** Whether text holds value as a whole (not `1` inside `10`, not `a` inside `a_b`). */
function showsValue(text: string, value: string): bool {
  if (value.length == 0) return true;
  let at = text.indexOf(value);
  while (at >= 0) {
    let end = at + value.length;
    if ((at == 0 || !wordChar(text.charCodeAt(at - 1)) || !wordChar(value.charCodeAt(0))) &&
        (end == text.length || !wordChar(text.charCodeAt(end)) || !wordChar(value.charCodeAt(value.length - 1)))) return true;
    at = text.indexOf(value, at + 1);
  }
  return false;
}

/** A character a value's edge may not run on into: an identifier's, or `.` (`3` is not shown by `3.5`). */
function wordChar(c: i32): bool { return isIdent(c) || c == Char.DOT; }

/**
 * Tail lines shown under a crash: the crash block already says what happened and where, so only what the
 * program printed last before it (often where it was) is shown; the verdict's tail keeps all of them.
 */
const CRASH_TAIL_LINES = 3;

function tailBlock(o: Sink, v: Verdict): void {
  let t = v.tail;
  // A run that never started: its log is the one line "sbx: E_…: <the setup error>", said already above.
  let setup = v.setupError;
  if (setup !== null && t.length == 1 && t[0].startsWith("sbx: E_") && t[0].endsWith(": " + setup)) return;
  let from = v.crash !== null && t.length > CRASH_TAIL_LINES ? t.length - CRASH_TAIL_LINES : 0;
  nl(o, from > 0 ? "tail (last " + CRASH_TAIL_LINES.toString() + " of " + t.length.toString() + " unclaimed lines; all in the log):" : "tail:");
  for (let i = from; i < t.length; i++) {
    let s = t[i];
    nl(o, "  | " + (s.length > MAX_TAIL_CHARS ? s.substring(0, MAX_TAIL_CHARS) + "…" : s));
  }
}

export function renderEnvelope(ptr: usize, len: i32, o: Sink): void {
  let env = readEnvelope(ptr, len);
  if (env === null) {
    nl(o, "sbx: cannot render: the envelope is not valid run-result JSON (" + readError + ")");
    return;
  }
  renderEnv(env, o);
}

/** An envelope already read (renderEnvelope, or the engine's own verdict and delta: index.ts conclude). */
export function renderEnv(env: Envelope, o: Sink): void {
  let v = env.verdict;
  header(o, env);
  if (env.hasDelta) nl(o, deltaLine(env));
  // A block is called only when it has something to show: a fresh process compiles each Wasm function at
  // its first call, and the text of an empty verdict (`sbx run -- /bin/true`) then compiles none of them.
  let c = v.crash;
  if (c !== null) crashBlock(o, c);
  if (v.diagnostics.length > 0) diagnostics(o, v);
  if (v.tests !== null) tests(o, v);
  let build = v.buildFailure;
  if (build !== null) nl(o, "build: " + build);
  if (v.tail.length > 0) tailBlock(o, v);
  let log = env.log;
  if (log !== null) nl(o, "log: " + log);
}
