// Facts -> sbx.verdict/1 JSON: the status by precedence, the crash identity, and the fixed key order.
import { Facts, Frame, Crash, Diagnostic, Tests, TestFailure, ExitInfo } from "./model";
import { firstUser, basename } from "./frames";
import { crashState } from "./crash-state";
import { hintFor } from "./hints";
import { JsonWriter } from "./util/sink";
import { join } from "./util/join";

export function statusOf(f: Facts, e: ExitInfo): string {
  if (f.setupFailure !== null) return "setup-failed";
  if (e.timedOut || f.timeoutSeen) return "timeout";
  if (e.interrupted) return "interrupted";
  if (f.crash !== null) return "crash";
  let t = f.tests;
  let testsFailed = t !== null && (t.failed > 0 || t.errors > 0);
  // `make test` stopping because the test program failed is the tests' failure, not the build's.
  if ((f.errorCount > 0 || f.buildFailedLine !== null) && !(testsFailed && onlyMakeErrors(f))) return "build-failed";
  if (testsFailed) return "tests-failed";
  // A build step that failed with nothing more specific to show (make's `*** [...] Error 1` alone).
  if (f.stepFailedLine !== null) return "build-failed";
  if (e.signal !== null || (e.known && e.code != 0)) return "runtime-error";
  return "pass";
}

/** True when every error diagnostic is make's own `*** [...] Error N` (none from a compiler). */
function onlyMakeErrors(f: Facts): bool {
  for (let i = 0; i < f.diagnostics.length; i++) {
    let d = f.diagnostics[i];
    if (d.severity == "error" && d.tool != "make") return false;
  }
  return f.errorCount <= f.diagnostics.length;
}

/** An address-free name for a crash: the same bug gives the same identity across runs and machines. */
export function identityOf(c: Crash): string {
  let parts = new Array<string>(0);
  parts.push(c.tool);
  parts.push(c.kind);
  if (c.access !== null) parts.push(c.access!);
  let u = firstUser(c.frames);
  if (u !== null) {
    parts.push((u.fn !== null ? u.fn! : "?") + "@" + basename(u.file !== null ? u.file : u.module));
  }
  return join(parts, "/");
}

function writeFrame(w: JsonWriter, fr: Frame): void {
  w.beginObject();
  w.intOrNull("index", fr.index);
  w.str("function", fr.fn);
  w.str("file", fr.file);
  w.intOrNull("line", fr.line);
  w.intOrNull("col", fr.col);
  w.str("module", fr.module);
  w.bool("user", fr.user);
  w.endObject();
}

function writeFrames(w: JsonWriter, key: string, frames: Array<Frame>): void {
  w.field(key);
  w.beginArray();
  for (let i = 0; i < frames.length; i++) { w.item(); writeFrame(w, frames[i]); }
  w.endArray();
}

function writeDiag(w: JsonWriter, d: Diagnostic): void {
  w.beginObject();
  w.str("tool", d.tool);
  w.str("severity", d.severity);
  w.str("file", d.file);
  w.intOrNull("line", d.line);
  w.intOrNull("col", d.col);
  w.str("code", d.code);
  w.str("message", d.message);
  if (d.label !== null) w.str("label", d.label);
  if (d.notes.length > 0) {
    w.field("notes");
    w.beginArray();
    for (let i = 0; i < d.notes.length; i++) { w.item(); writeDiag(w, d.notes[i]); }
    w.endArray();
  }
  w.endObject();
}

function writeCrash(w: JsonWriter, c: Crash): void {
  w.beginObject();
  w.str("tool", c.tool);
  w.str("kind", c.kind);
  w.str("access", c.access);
  w.intOrNull("size", c.size);
  w.str("address", c.address);
  w.str("summary", c.summary);
  w.str("message", c.message);
  w.str("thread", c.thread);
  writeFrames(w, "frames", c.frames);
  writeFrames(w, "alloc_frames", c.allocFrames);
  writeFrames(w, "free_frames", c.freeFrames);
  if (c.otherFrames.length > 0) writeFrames(w, "other_frames", c.otherFrames);
  let u = firstUser(c.frames);
  w.field("first_user_frame");
  if (u === null) w.value("null"); else writeFrame(w, u);
  w.field("state");
  w.beginArray();
  let st = crashState(c);
  for (let i = 0; i < st.length; i++) w.strItem(st[i]);
  w.endArray();
  w.str("identity", identityOf(c));
  w.str("hint", hintFor(c.tool, c.kind));
  if (c.region !== null) w.str("region", c.region);
  if (c.causes.length > 0) {
    w.field("causes");
    w.beginArray();
    for (let i = 0; i < c.causes.length; i++) {
      let k = c.causes[i];
      w.item();
      w.beginObject();
      w.str("relation", k.relation);
      w.str("kind", k.kind);
      w.str("message", k.message);
      let u = firstUser(k.frames);
      w.field("at");
      if (u === null) w.value("null"); else writeFrame(w, u);
      w.endObject();
    }
    w.endArray();
  }
  w.endObject();
}

function writeFailure(w: JsonWriter, t: TestFailure): void {
  w.beginObject();
  w.str("name", t.name);
  w.str("file", t.file);
  w.intOrNull("line", t.line);
  w.str("message", t.message);
  w.str("expected", t.expected);
  w.str("actual", t.actual);
  w.endObject();
}

export function writeTests(w: JsonWriter, t: Tests): void {
  w.beginObject();
  w.str("runner", t.runner);
  w.intOrNull("passed", t.passed);
  w.intOrNull("failed", t.failed);
  w.intOrNull("errors", t.errors);
  w.intOrNull("skipped", t.skipped);
  w.intOrNull("not_run", t.notRun);
  w.field("failures");
  w.beginArray();
  for (let i = 0; i < t.failures.length; i++) { w.item(); writeFailure(w, t.failures[i]); }
  w.endArray();
  w.endObject();
}

/**
 * Failures sharing a root cause (same message and location), for groups of two or more. A failure with
 * neither a message nor a location (testhelp.h's `FAILED`) says nothing it could share: never grouped.
 */
export function writeGroups(w: JsonWriter, t: Tests | null): void {
  w.field("error_groups");
  w.beginArray();
  if (t !== null) {
    let seen = new Map<string, i32>();
    let keys = new Array<string>(0);
    let counts = new Array<i32>(0);
    let firsts = new Array<TestFailure>(0);
    let names = new Array<Array<string>>(0);
    for (let i = 0; i < t.failures.length; i++) {
      let f = t.failures[i];
      if (f.message.length == 0 && f.file === null) continue;
      let k = f.message + "\u0000" + (f.file !== null ? f.file! : "") + ":" + f.line.toString();
      if (seen.has(k)) {
        let j = seen.get(k);
        counts[j]++;
        if (names[j].length < 5) names[j].push(f.name);
      } else {
        seen.set(k, keys.length);
        keys.push(k); counts.push(1); firsts.push(f); names.push([f.name]);
      }
    }
    for (let j = 0; j < keys.length; j++) {
      if (counts[j] < 2) continue;
      let f = firsts[j];
      w.item();
      w.beginObject();
      w.int("count", counts[j]);
      w.str("message", f.message);
      w.str("file", f.file);
      w.intOrNull("line", f.line);
      w.field("tests");
      w.beginArray();
      for (let i = 0; i < names[j].length; i++) w.strItem(names[j][i]);
      w.endArray();
      w.endObject();
    }
  }
  w.endArray();
}

export function writeVerdict(w: JsonWriter, f: Facts, e: ExitInfo, tail: string[]): void {
  w.beginObject();
  w.str("schema", "sbx.verdict/1");
  let status = statusOf(f, e);
  w.str("status", status);
  w.field("exit");
  w.beginObject();
  if (e.known) w.int("code", e.code); else w.nul("code");
  w.str("signal", e.signal);
  w.bool("timed_out", e.timedOut || f.timeoutSeen);
  w.endObject();
  w.field("diagnostics");
  w.beginArray();
  for (let i = 0; i < f.diagnostics.length; i++) { w.item(); writeDiag(w, f.diagnostics[i]); }
  w.endArray();
  w.field("counts");
  w.beginObject();
  w.int("errors", f.errorCount);
  w.int("warnings", f.warningCount);
  w.int("diagnostics_dropped", f.diagnosticsDropped);
  w.int("crashes", f.crashCount);
  w.endObject();
  w.field("crash");
  let c = f.crash;
  if (c === null) w.value("null"); else writeCrash(w, c);
  w.field("tests");
  let t = f.tests;
  if (t === null) w.value("null"); else writeTests(w, t);
  writeGroups(w, t);
  w.str("setup_error", f.setupFailure);
  // A failed step is the build failure only when nothing more specific explains it.
  let stepOnly = status == "build-failed" && f.errorCount == 0 ? f.stepFailedLine : null;
  w.str("build_failure", f.buildFailedLine !== null ? f.buildFailedLine : stepOnly);
  w.field("tail");
  w.beginArray();
  for (let i = 0; i < tail.length; i++) w.strItem(tail[i]);
  w.endArray();
  w.int("raw_bytes", f.rawBytes);
  w.int("lines", f.lines);
  w.bool("binary", f.nulBytes > 0);
  w.endObject();
}
