// Verdict -> sbx.verdict/1 JSON, in the contract's fixed key order: one function per object, the only
// place that writes these keys (delta.ts writes its frames and diagnostics with them too).
import { Verdict, Located, Frame, Crash, Diagnostic, Tests, TestFailure, ErrorGroup } from "./model";
import { hashesHex } from "./util/name-hash";
import { JsonWriter } from "./util/sink";

/** file, line and (withCol) col: the reader's locate() reads them back. */
function writePlace(w: JsonWriter, at: Located, withCol: bool): void {
  w.str("file", at.file);
  w.intOrNull("line", at.line);
  if (withCol) w.intOrNull("col", at.col);
}

export function writeFrame(w: JsonWriter, fr: Frame): void {
  w.beginObject();
  w.intOrNull("index", fr.index);
  w.str("function", fr.fn);
  writePlace(w, fr, true);
  w.str("module", fr.module);
  w.bool("user", fr.user);
  w.endObject();
}

/** A frame that may be missing: null. */
function writeFrameOrNull(w: JsonWriter, fr: Frame | null): void {
  if (fr === null) w.value("null"); else writeFrame(w, fr);
}

function writeFrames(w: JsonWriter, key: string, frames: Array<Frame>): void {
  w.field(key);
  w.beginArray();
  for (let i = 0; i < frames.length; i++) { w.item(); writeFrame(w, frames[i]); }
  w.endArray();
}

/** A diagnostic; its notes too when withNotes (the delta lists diagnostics without them). */
export function writeDiagnostic(w: JsonWriter, d: Diagnostic, withNotes: bool): void {
  w.beginObject();
  w.str("tool", d.tool);
  w.str("severity", d.severity);
  writePlace(w, d, true);
  w.str("code", d.code);
  w.str("message", d.message);
  let label = d.label;
  if (label !== null) w.str("label", label);
  if (withNotes && d.notes.length > 0) {
    w.field("notes");
    w.beginArray();
    for (let i = 0; i < d.notes.length; i++) { w.item(); writeDiagnostic(w, d.notes[i], true); }
    w.endArray();
  }
  w.endObject();
}

/** A crash made by verdict.ts's settleCrash (its first user frame, state, identity and hint set). */
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
  w.field("first_user_frame");
  writeFrameOrNull(w, c.firstUserFrame);
  w.field("state");
  w.beginArray();
  let st = c.state;
  if (st !== null) for (let i = 0; i < st.length; i++) w.strItem(st[i]);
  w.endArray();
  w.str("identity", c.identity);
  w.str("hint", c.hint);
  if (c.region !== null) w.str("region", c.region);
  let obj = c.objectName;
  if (obj !== null) {
    w.field("object");
    w.beginObject();
    w.str("name", obj);
    w.intOrNull("line", c.objectLine);
    w.str("access", c.objectAccess);
    w.field("frame");
    writeFrameOrNull(w, c.objectFrame);
    w.endObject();
  }
  if (c.causes.length > 0) {
    w.field("causes");
    w.beginArray();
    for (let i = 0; i < c.causes.length; i++) { w.item(); writeCause(w, c.causes[i]); }
    w.endArray();
  }
  w.endObject();
}

/** A chained exception: how it is chained, its kind and message, and its first user frame. */
function writeCause(w: JsonWriter, k: Crash): void {
  w.beginObject();
  w.str("relation", k.relation);
  w.str("kind", k.kind);
  w.str("message", k.message);
  w.field("at");
  writeFrameOrNull(w, k.firstUserFrame);
  w.endObject();
}

function writeFailure(w: JsonWriter, t: TestFailure): void {
  w.beginObject();
  w.str("name", t.name);
  writePlace(w, t, false);
  w.str("message", t.message);
  w.str("expected", t.expected);
  w.str("actual", t.actual);
  if (t.pkg !== null) w.str("package", t.pkg);
  if (t.subtest !== null) w.str("subtest", t.subtest);
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
  if (t.unfinished.length > 0) {
    w.field("unfinished");
    w.beginArray();
    for (let i = 0; i < t.unfinished.length; i++) w.strItem(t.unfinished[i]);
    w.endArray();
  }
  if (t.unfinishedPassed.length > 0) {
    w.field("unfinished_passed");
    w.beginArray();
    for (let i = 0; i < t.unfinishedPassed.length; i++) w.strItem(t.unfinishedPassed[i]);
    w.endArray();
  }
  let ps = t.passedSet;
  if (ps !== null) w.str("passed_set", hashesHex(ps));
  let ss = t.skippedSet;
  if (ss !== null) w.str("skipped_set", hashesHex(ss));
  let ls = t.loadedSet;
  if (ls !== null) w.str("loaded_set", hashesHex(ls));
  if (t.rerunFailed >= 0) w.intOrNull("rerun_failed", t.rerunFailed);
  if (t.xfailed > 0) w.intOrNull("xfailed", t.xfailed);
  if (t.deselected > 0) w.intOrNull("deselected", t.deselected);
  w.field("failures");
  w.beginArray();
  for (let i = 0; i < t.failures.length; i++) { w.item(); writeFailure(w, t.failures[i]); }
  w.endArray();
  w.endObject();
}

/** The `error_groups` field. */
export function writeGroups(w: JsonWriter, groups: Array<ErrorGroup>): void {
  w.field("error_groups");
  w.beginArray();
  for (let j = 0; j < groups.length; j++) {
    let g = groups[j];
    w.item();
    w.beginObject();
    w.int("count", g.count);
    w.str("message", g.message);
    writePlace(w, g, false);
    w.field("tests");
    w.beginArray();
    for (let i = 0; i < g.tests.length; i++) w.strItem(g.tests[i]);
    w.endArray();
    w.endObject();
  }
  w.endArray();
}

export function writeVerdict(w: JsonWriter, v: Verdict): void {
  w.beginObject();
  w.str("schema", "sbx.verdict/1");
  w.str("status", v.status);
  w.field("exit");
  w.beginObject();
  if (v.exitKnown) w.int("code", v.exitCode); else w.nul("code");
  w.str("signal", v.exitSignal);
  w.bool("timed_out", v.timedOut);
  w.endObject();
  w.field("diagnostics");
  w.beginArray();
  for (let i = 0; i < v.diagnostics.length; i++) { w.item(); writeDiagnostic(w, v.diagnostics[i], true); }
  w.endArray();
  w.field("counts");
  w.beginObject();
  w.int("errors", v.errorCount);
  w.int("warnings", v.warningCount);
  w.int("diagnostics_dropped", v.diagnosticsDropped);
  w.int("crashes", v.crashCount);
  w.endObject();
  w.field("crash");
  let c = v.crash;
  if (c === null) w.value("null"); else writeCrash(w, c);
  w.field("tests");
  let t = v.tests;
  if (t === null) w.value("null"); else writeTests(w, t);
  writeGroups(w, v.errorGroups);
  w.str("setup_error", v.setupError);
  let lib = v.missingLibrary;
  if (lib !== null) w.str("missing_library", lib);
  w.str("build_failure", v.buildFailure);
  if (v.upToDate) w.bool("up_to_date", true);
  let cs = v.compiledSet;
  if (cs !== null) w.str("compiled_set", hashesHex(cs));
  w.field("tail");
  w.beginArray();
  for (let i = 0; i < v.tail.length; i++) w.strItem(v.tail[i]);
  w.endArray();
  w.int("raw_bytes", v.rawBytes);
  w.int("lines", v.lines);
  w.bool("binary", v.binary);
  w.endObject();
}
