// A verdict read back (sbx.verdict JSON, alone or inside a run-result envelope) into the model's classes
// (model.ts), once: what delta.ts and render.ts read, so that neither looks up keys on a generic JSON tree.
// Absent or wrongly typed fields read as their "unknown" value: null for a string that may be missing,
// "" for one that is always there, -1 for a number (line, col, index, count) the log did not give.
import { JValue, Kind, parse, jsonError } from "./util/json";
import { hexHashes } from "./util/name-hash";
import { Located, Frame, Diagnostic, Crash, TestFailure, Tests, ErrorGroup, Verdict } from "./model";

/**
 * A run-result envelope as render.ts reads it: the verdict, the delta's summary (when there is a delta), the
 * outcome's times, the log's path.
 */
export class Envelope {
  verdict: Verdict = new Verdict();
  hasDelta: bool = false;
  firstRun: bool = false;
  deltaSummary: string | null = null;
  hasOutcome: bool = false;
  wallMs: i64 = -1;
  totalMs: i64 = -1;
  totalKnown: bool = false;
  log: string | null = null;
}

/** Why the last readVerdict/readEnvelope returned null. */
export let readError: string = "";

/** Reads verdict JSON; null (and readError) when it is not JSON. */
export function readVerdict(ptr: usize, len: i32): Verdict | null {
  let v = parse(ptr, len);
  if (v === null) { readError = jsonError; return null; }
  return verdictOf(v);
}

/** Reads a run-result envelope; null (and readError) when it is not JSON or holds no verdict object. */
export function readEnvelope(ptr: usize, len: i32): Envelope | null {
  let env = parse(ptr, len);
  if (env === null) { readError = jsonError; return null; }
  let v = env.get("verdict");
  if (env.kind != Kind.OBJ || v.kind != Kind.OBJ) { readError = "no verdict"; return null; }
  let e = new Envelope();
  e.verdict = verdictOf(v);
  let d = env.get("delta");
  if (d.kind == Kind.OBJ) {
    e.hasDelta = true;
    e.firstRun = d.get("first_run").bool();
    e.deltaSummary = d.get("summary").strOrNull();
  }
  readOutcome(e, env);
  return e;
}

/**
 * An envelope's outcome (its times) and log path, from the envelope JSON or from a JSON object holding
 * only those keys; null (and readError) when it is not a JSON object.
 */
export function readOutcomeOf(e: Envelope, ptr: usize, len: i32): Envelope | null {
  let env = parse(ptr, len);
  if (env === null) { readError = jsonError; return null; }
  if (env.kind != Kind.OBJ) { readError = "not an object"; return null; }
  readOutcome(e, env);
  return e;
}

function readOutcome(e: Envelope, env: JValue): void {
  let out = env.get("outcome");
  if (out.kind == Kind.OBJ) {
    e.hasOutcome = true;
    e.wallMs = out.get("wall_ms").int();
    let total = out.get("total_ms");
    e.totalKnown = total.kind == Kind.NUM;
    e.totalMs = total.int();
  }
  e.log = env.get("log").strOrNull();
}

function verdictOf(v: JValue): Verdict {
  let r = new Verdict();
  r.status = v.get("status").strOrNull();
  let ex = v.get("exit");
  let code = ex.get("code");
  r.exitKnown = code.kind == Kind.NUM;
  r.exitCode = code.int();
  r.exitSignal = ex.get("signal").strOrNull();
  r.timedOut = ex.get("timed_out").bool();
  r.rawBytes = v.get("raw_bytes").int(0);
  r.lines = v.get("lines").int(0);
  r.setupError = v.get("setup_error").strOrNull();
  r.missingLibrary = v.get("missing_library").strOrNull();
  r.binary = v.get("binary").bool();
  r.buildFailure = v.get("build_failure").strOrNull();
  r.upToDate = v.get("up_to_date").bool();
  let cs = v.get("compiled_set");
  if (cs.kind == Kind.STR) r.compiledSet = hexHashes(cs.str());
  let c = v.get("crash");
  if (c.kind == Kind.OBJ) r.crash = crashOf(c);
  let ds = v.get("diagnostics");
  if (ds.kind == Kind.ARR) for (let i = 0; i < ds.length; i++) r.diagnostics.push(diagOf(ds.at(i)));
  let counts = v.get("counts");
  r.errorCount = counts.get("errors").int(0);
  r.warningCount = counts.get("warnings").int(0);
  r.diagnosticsDropped = counts.get("diagnostics_dropped").int(0);
  r.crashCount = counts.get("crashes").int(0);
  let t = v.get("tests");
  if (t.kind == Kind.OBJ) r.tests = testsOf(t);
  let gs = v.get("error_groups");
  if (gs.kind == Kind.ARR) for (let i = 0; i < gs.length; i++) r.errorGroups.push(groupOf(gs.at(i)));
  let tail = v.get("tail");
  if (tail.kind == Kind.ARR) for (let i = 0; i < tail.length; i++) r.tail.push(tail.at(i).str());
  return r;
}

function locate(to: Located, v: JValue): void {
  to.file = v.get("file").strOrNull();
  to.line = v.get("line").int();
  to.col = v.get("col").int();
}

function frameOf(v: JValue): Frame {
  let f = new Frame();
  locate(f, v);
  f.index = v.get("index").int();
  f.fn = v.get("function").strOrNull();
  f.module = v.get("module").strOrNull();
  f.user = v.get("user").bool();
  return f;
}

function framesOf(v: JValue): Array<Frame> {
  let out = new Array<Frame>(0);
  if (v.kind == Kind.ARR) for (let i = 0; i < v.length; i++) out.push(frameOf(v.at(i)));
  return out;
}

function diagOf(v: JValue): Diagnostic {
  let d = new Diagnostic();
  locate(d, v);
  d.tool = v.get("tool").str();
  d.severity = v.get("severity").str();
  d.code = v.get("code").strOrNull();
  d.message = v.get("message").str();
  d.label = v.get("label").strOrNull();
  let notes = v.get("notes");
  if (notes.kind == Kind.ARR) for (let i = 0; i < notes.length; i++) d.notes.push(diagOf(notes.at(i)));
  return d;
}

function crashOf(v: JValue): Crash {
  let c = new Crash();
  c.tool = v.get("tool").str();
  c.kind = v.get("kind").str();
  c.access = v.get("access").strOrNull();
  c.size = v.get("size").int();
  c.address = v.get("address").strOrNull();
  c.thread = v.get("thread").strOrNull();
  c.message = v.get("message").strOrNull();
  c.summary = v.get("summary").strOrNull();
  c.region = v.get("region").strOrNull();
  let obj = v.get("object");
  if (obj.kind == Kind.OBJ) {
    c.objectName = obj.get("name").strOrNull();
    c.objectLine = obj.get("line").int();
    c.objectAccess = obj.get("access").strOrNull();
    let ofr = obj.get("frame");
    if (ofr.kind == Kind.OBJ) c.objectFrame = frameOf(ofr);
  }
  c.identity = v.get("identity").strOrNull();
  c.hint = v.get("hint").strOrNull();
  let first = v.get("first_user_frame");
  if (first.kind == Kind.OBJ) c.firstUserFrame = frameOf(first);
  let state = v.get("state");
  if (state.kind == Kind.ARR) {
    let st = new Array<string>(0);
    for (let i = 0; i < state.length; i++) st.push(state.at(i).str());
    c.state = st;
  }
  let causes = v.get("causes");
  if (causes.kind == Kind.ARR) {
    for (let i = 0; i < causes.length; i++) {
      let k = causes.at(i);
      let cv = new Crash();
      cv.relation = k.get("relation").str();
      cv.kind = k.get("kind").str();
      cv.message = k.get("message").strOrNull();
      let at = k.get("at");
      if (at.kind == Kind.OBJ) cv.firstUserFrame = frameOf(at);
      c.causes.push(cv);
    }
  }
  c.frames = framesOf(v.get("frames"));
  c.otherFrames = framesOf(v.get("other_frames"));
  c.allocFrames = framesOf(v.get("alloc_frames"));
  c.freeFrames = framesOf(v.get("free_frames"));
  return c;
}

function testsOf(v: JValue): Tests {
  let t = new Tests();
  t.runner = v.get("runner").str();
  t.failed = v.get("failed").int();
  t.errors = v.get("errors").int();
  t.passed = v.get("passed").int();
  t.skipped = v.get("skipped").int();
  t.notRun = v.get("not_run").int();
  let un = v.get("unfinished");
  if (un.kind == Kind.ARR) for (let i = 0; i < un.length; i++) t.unfinished.push(un.at(i).str());
  let up = v.get("unfinished_passed");
  if (up.kind == Kind.ARR) for (let i = 0; i < up.length; i++) t.unfinishedPassed.push(up.at(i).str());
  let ps = v.get("passed_set");
  if (ps.kind == Kind.STR) t.passedSet = hexHashes(ps.str());
  let ss = v.get("skipped_set");
  if (ss.kind == Kind.STR) t.skippedSet = hexHashes(ss.str());
  let ls = v.get("loaded_set");
  if (ls.kind == Kind.STR) t.loadedSet = hexHashes(ls.str());
  t.rerunFailed = v.get("rerun_failed").int();
  t.xfailed = v.get("xfailed").int(0);
  t.deselected = v.get("deselected").int(0);
  let fs = v.get("failures");
  if (fs.kind == Kind.ARR) {
    for (let i = 0; i < fs.length; i++) {
      let f = fs.at(i);
      let fv = new TestFailure();
      locate(fv, f);
      fv.name = f.get("name").str();
      fv.message = f.get("message").str();
      fv.expected = f.get("expected").strOrNull();
      fv.actual = f.get("actual").strOrNull();
      fv.pkg = f.get("package").strOrNull();
      fv.subtest = f.get("subtest").strOrNull();
      t.failures.push(fv);
    }
  }
  return t;
}

function groupOf(v: JValue): ErrorGroup {
  let g = new ErrorGroup();
  locate(g, v);
  g.message = v.get("message").str();
  g.count = v.get("count").int(0);
  let names = v.get("tests");
  if (names.kind == Kind.ARR) for (let i = 0; i < names.length; i++) g.tests.push(names.at(i).str());
  return g;
}
