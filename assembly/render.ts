// The run-result envelope as the text an agent reads. Fixed order: header, delta, crash, diagnostics
// (errors first), tests, tail, footer. Same envelope, same bytes.
import { Char } from "./util/chars";
import { Sink } from "./util/sink";
import { JValue, Kind, parse, jsonError } from "./util/json";
import { renderDeltaLine } from "./delta-line";

const MAX_ERRORS = 25;
const MAX_WARNINGS = 10;
const MAX_NOTES = 4;
const MAX_USER_FRAMES = 8;
const MAX_FAILURES_SHOWN = 20;
const MAX_TAIL_CHARS = 240;

function loc(v: JValue): string {
  let file = v.get("file").str();
  if (file.length == 0) return "";
  let s = file;
  let line = v.get("line").int();
  if (line >= 0) {
    s += ":" + line.toString();
    let col = v.get("col").int();
    if (col >= 0) s += ":" + col.toString();
  }
  return s;
}

/** `fn file:line`; a frame whose function is unknown is shown by where it is alone, never as `??`. */
function frameText(fr: JValue): string {
  let fn = fr.get("function").str();
  if (fn == "??") fn = "";
  let where = loc(fr);
  if (where.length == 0) {
    let m = fr.get("module").str();
    if (m.length > 0) where = "(" + m + ")";
  }
  if (fn.length == 0) return where.length > 0 ? where : "(unknown function)";
  return where.length > 0 ? fn + " " + where : fn;
}

function nl(o: Sink, s: string): void { o.str(s); o.byte(Char.LF); }

function header(o: Sink, env: JValue): void {
  let v = env.get("verdict");
  let ex = v.get("exit");
  let parts = new Array<string>(0);
  parts.push("sbx: " + v.get("status").str("?"));
  let sig = ex.get("signal");
  let code = ex.get("code");
  if (ex.get("timed_out").bool()) parts.push("timed out");
  if (sig.kind == Kind.STR) parts.push("killed by " + sig.s);
  else if (code.kind == Kind.NUM) parts.push("exit " + code.int().toString());
  let out = env.get("outcome");
  if (out.kind == Kind.OBJ) {
    let ms = out.get("wall_ms").int();
    if (ms >= 0) {
      // sbx's own time (set-up, fingerprints, state) beside the command's, when it is worth saying.
      let total = out.get("total_ms");
      let extra = total.kind == Kind.NUM ? total.int() - ms : 0;
      parts.push(extra >= 10 ? ms.toString() + " ms (+" + extra.toString() + " ms sbx)" : ms.toString() + " ms");
    }
  }
  let lines = v.get("lines").int(0);
  parts.push(lines.toString() + (lines == 1 ? " line" : " lines"));
  nl(o, parts.join(" · "));
  let setup = v.get("setup_error");
  if (setup.kind == Kind.STR) nl(o, "setup: " + setup.s);
  if (v.get("binary").bool()) nl(o, "note: the log holds binary data (NUL bytes); undecodable bytes shown as \uFFFD");
}

function isSanitizer(tool: string): bool {
  return tool == "asan" || tool == "lsan" || tool == "tsan" || tool == "msan" || tool == "hwasan";
}

function crashBlock(o: Sink, c: JValue): void {
  if (c.kind != Kind.OBJ) return;
  let line = "crash: " + c.get("tool").str() + " " + c.get("kind").str();
  let access = c.get("access");
  if (access.kind == Kind.STR) {
    line += " · " + access.s;
    let size = c.get("size").int();
    if (size >= 0) line += " of size " + size.toString();
  }
  let thread = c.get("thread");
  if (thread.kind == Kind.STR) line += " · thread " + thread.s;
  nl(o, line);
  // A sanitizer's message line repeats the kind with addresses; a panic's or exception's is the point.
  let msg = c.get("message");
  if (msg.kind == Kind.STR && msg.s.length > 0 && !isSanitizer(c.get("tool").str())) nl(o, "  message: " + msg.s);
  let first = c.get("first_user_frame");
  if (first.kind == Kind.OBJ) nl(o, "  at " + frameText(first));
  else nl(o, "  at (no frame in your code)");
  let region = c.get("region");
  if (region.kind == Kind.STR) nl(o, "  address: " + region.s);
  let causes = c.get("causes");
  for (let i = 0; i < causes.length; i++) {
    let k = causes.at(i);
    let at = k.get("at");
    let msg = k.get("message");
    nl(o, "  " + (k.get("relation").str() == "cause" ? "caused by: " : "while handling: ") + k.get("kind").str() +
      (msg.kind == Kind.STR && msg.s.length > 0 ? ": " + msg.s : "") + (at.kind == Kind.OBJ ? "  at " + frameText(at) : ""));
  }
  let hint = c.get("hint");
  if (hint.kind == Kind.STR) nl(o, "  hint: " + hint.s);
  stack(o, "  stack", c.get("frames"), true);
  stack(o, "  other access", c.get("other_frames"), false);
  site(o, "  allocated at", c.get("alloc_frames"));
  site(o, "  freed at", c.get("free_frames"));
  if (first.kind != Kind.OBJ) {
    let s = c.get("summary");
    if (s.kind == Kind.STR) nl(o, "  summary: " + s.s);
  }
}

/** User frames first (up to a bound), then a count of the runtime frames left out. */
function stack(o: Sink, title: string, frames: JValue, skipFirst: bool): void {
  if (frames.kind != Kind.ARR || frames.length == 0) return;
  let users = new Array<JValue>(0);
  let runtime = 0;
  for (let i = 0; i < frames.length; i++) {
    let f = frames.at(i);
    if (f.get("user").bool()) users.push(f); else runtime++;
  }
  if (skipFirst && users.length <= 1 && runtime == 0) return;
  nl(o, title + " (" + users.length.toString() + " yours, " + runtime.toString() + " runtime):");
  for (let i = 0; i < users.length && i < MAX_USER_FRAMES; i++) {
    let f = users[i];
    nl(o, "    #" + f.get("index").int(i).toString() + " " + frameText(f));
  }
  if (users.length > MAX_USER_FRAMES) nl(o, "    … " + (users.length - MAX_USER_FRAMES).toString() + " more of yours");
  if (users.length == 0) {
    for (let i = 0; i < frames.length && i < 3; i++) nl(o, "    #" + frames.at(i).get("index").int(i).toString() + " " + frameText(frames.at(i)));
  }
}

function site(o: Sink, title: string, frames: JValue): void {
  if (frames.kind != Kind.ARR || frames.length == 0) return;
  let u = -1;
  for (let i = 0; i < frames.length; i++) if (frames.at(i).get("user").bool()) { u = i; break; }
  let via = frames.at(0).get("function").str("");
  let text = frameText(frames.at(max(u, 0)));
  if (u > 0 && via.length > 0 && via != frames.at(u).get("function").str()) text += "  (via " + via + ")";
  nl(o, title + ": " + text);
}

function diagText(d: JValue): string {
  let s = loc(d);
  let msg = d.get("message").str();
  let label = d.get("label");
  if (label.kind == Kind.STR) msg += " — " + label.s;
  // rustc's `help:` lines ride as notes whose message keeps its own word.
  let sev = d.get("severity").str();
  s = (s.length > 0 ? s + ": " : "") + (sev == "note" && msg.startsWith("help: ") ? msg : sev + ": " + msg);
  let code = d.get("code");
  if (code.kind == Kind.STR) s += " [" + code.s + "]";
  return s;
}

function diagnostics(o: Sink, v: JValue): void {
  let ds = v.get("diagnostics");
  if (ds.kind != Kind.ARR || ds.length == 0) return;
  let counts = v.get("counts");
  let nerr = counts.get("errors").int(0);
  let nwarn = counts.get("warnings").int(0);
  let shownE = 0; let shownW = 0;
  if (nerr > 0) {
    nl(o, "errors (" + nerr.toString() + "):");
    for (let i = 0; i < ds.length; i++) {
      let d = ds.at(i);
      if (d.get("severity").str() != "error") continue;
      if (shownE++ >= MAX_ERRORS) continue;
      nl(o, "  " + diagText(d));
      let notes = d.get("notes");
      for (let k = 0; k < notes.length && k < MAX_NOTES; k++) nl(o, "    " + diagText(notes.at(k)));
      if (notes.length > MAX_NOTES) nl(o, "    … " + (notes.length - MAX_NOTES).toString() + " more notes");
    }
    if (nerr > MAX_ERRORS) nl(o, "  … " + (nerr - MAX_ERRORS).toString() + " more errors (--json has them all)");
  }
  if (nwarn > 0) {
    nl(o, "warnings (" + nwarn.toString() + "):");
    for (let i = 0; i < ds.length; i++) {
      let d = ds.at(i);
      if (d.get("severity").str() != "warning") continue;
      if (shownW++ >= MAX_WARNINGS) continue;
      nl(o, "  " + diagText(d));
    }
    if (nwarn > MAX_WARNINGS) nl(o, "  … " + (nwarn - MAX_WARNINGS).toString() + " more warnings");
  }
  let dropped = counts.get("diagnostics_dropped").int(0);
  if (dropped > 0) nl(o, "  (" + dropped.toString() + " diagnostics beyond the first 400 not kept)");
}

function tests(o: Sink, v: JValue): void {
  let t = v.get("tests");
  if (t.kind != Kind.OBJ) return;
  let parts = new Array<string>(0);
  let failed = t.get("failed").int(0);
  let errors = t.get("errors").int(0);
  if (failed > 0) parts.push(failed.toString() + " failed");
  if (errors > 0) parts.push(errors.toString() + (errors == 1 ? " error" : " errors"));
  // A count the log does not give is null: left out, never printed as 0.
  let passed = t.get("passed").int();
  if (passed >= 0) parts.push(passed.toString() + " passed");
  let skipped = t.get("skipped").int(0);
  if (skipped > 0) parts.push(skipped.toString() + " skipped");
  let notRun = t.get("not_run").int(0);
  if (notRun > 0) parts.push(notRun.toString() + " not run");
  if (parts.length == 0) parts.push(t.get("failed").int() < 0 ? "no results (none ran, or none were printed)" : "no failure, counts not printed");
  nl(o, "tests: " + parts.join(", ") + " (" + t.get("runner").str() + ")");
  // Members of a group of identical failures (same message and location) render once, as the group.
  let groups = v.get("error_groups");
  let grouped = new Set<string>();
  for (let g = 0; g < groups.length; g++) grouped.add(failureKey(groups.at(g)));
  let fs = t.get("failures");
  let shown = 0;
  for (let i = 0; i < fs.length; i++) {
    let f = fs.at(i);
    let name = f.get("name").str();
    if (grouped.has(failureKey(f))) continue;
    if (shown++ >= MAX_FAILURES_SHOWN) continue;
    let where = loc(f);
    nl(o, "  FAIL " + name + (where.length > 0 ? "  " + where : ""));
    let msg = f.get("message").str();
    if (msg.length > 0) {
      let lines = msg.split("\n");
      for (let k = 0; k < lines.length && k < 6; k++) nl(o, "       " + lines[k]);
    }
    // Only the side the runner printed: an unknown side is left out, not shown as "?".
    let ex = f.get("expected"); let ac = f.get("actual");
    let sides = new Array<string>(0);
    if (ex.kind == Kind.STR) sides.push("expected: " + ex.s);
    if (ac.kind == Kind.STR) sides.push("actual: " + ac.s);
    if (sides.length > 0) nl(o, "       " + sides.join("  "));
  }
  if (shown > MAX_FAILURES_SHOWN) nl(o, "  … " + (shown - MAX_FAILURES_SHOWN).toString() + " more failures (--json has them all)");
  for (let g = 0; g < groups.length; g++) {
    let gr = groups.at(g);
    let names = gr.get("tests");
    let list = new Array<string>(0);
    for (let k = 0; k < names.length; k++) list.push(names.at(k).str());
    let count = gr.get("count").int(0);
    let more = count > <i64>list.length ? ", …" : "";
    let where = loc(gr);
    nl(o, "  " + count.toString() + "× same failure" + (where.length > 0 ? " at " + where : "") + ": " + gr.get("message").str().split("\n")[0]);
    nl(o, "       " + list.join(", ") + more);
  }
}

/** What makes failures "the same" (verdict.ts groups on it too): message and location. */
function failureKey(f: JValue): string {
  return f.get("message").str() + "\u0000" + f.get("file").str() + ":" + f.get("line").int().toString();
}

function tailBlock(o: Sink, v: JValue): void {
  let t = v.get("tail");
  if (t.kind != Kind.ARR || t.length == 0) return;
  nl(o, "tail:");
  for (let i = 0; i < t.length; i++) {
    let s = t.at(i).str();
    nl(o, "  | " + (s.length > MAX_TAIL_CHARS ? s.substring(0, MAX_TAIL_CHARS) + "…" : s));
  }
}

export function renderEnvelope(ptr: usize, len: i32, o: Sink): void {
  let env = parse(ptr, len);
  if (env === null || env.kind != Kind.OBJ || env.get("verdict").kind != Kind.OBJ) {
    nl(o, "sbx: cannot render: the envelope is not valid run-result JSON (" + (env === null ? jsonError : "no verdict") + ")");
    return;
  }
  let v = env.get("verdict");
  header(o, env);
  let d = env.get("delta");
  if (d.kind == Kind.OBJ) nl(o, renderDeltaLine(d));
  crashBlock(o, v.get("crash"));
  diagnostics(o, v);
  tests(o, v);
  let build = v.get("build_failure");
  if (build.kind == Kind.STR) nl(o, "build: " + build.s);
  tailBlock(o, v);
  let log = env.get("log");
  if (log.kind == Kind.STR) nl(o, "log: " + log.s);
}
