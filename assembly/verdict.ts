// Facts -> Verdict: the status by precedence, the crash's identity and state, the error groups
// (verdict-writer.ts writes the Verdict as JSON).
import { Facts, Crash, Tests, ExitInfo, ErrorGroup, Verdict, failureKey } from "./model";
import { firstUser, basename } from "./frames";
import { crashState } from "./crash-state";
import { hintFor } from "./hints";
import { join } from "./util/join";
import { JsonWriter } from "./util/sink";
import { writeVerdict as writeVerdictJson } from "./verdict-writer";

export function statusOf(f: Facts, e: ExitInfo): string {
  if (f.setupFailure !== null) return "setup-failed";
  if (e.timedOut || f.timeoutSeen) return "timeout";
  if (e.interrupted) return "interrupted";
  if (f.crash !== null) return "crash";
  let t = f.tests;
  let testsFailed = t !== null && (t.failed > 0 || t.errors > 0);
  // `make test` stopping because the test program failed is the tests' failure, not the build's; so is a
  // coverage threshold missed, or an obsolete snapshot (jest's), in a run whose tests failed.
  if ((f.errorCount > 0 || f.buildFailedLine !== null) && !(testsFailed && onlyMakeErrors(f))) return "build-failed";
  if (testsFailed) return "tests-failed";
  // A build step that failed with nothing more specific to show (make's `*** [...] Error 1` alone).
  if (f.stepFailedLine !== null) return "build-failed";
  // A linter that fails on its warnings (remark --frail, eslint --max-warnings): with a non-zero exit, the lint's failure.
  if (warningsFailed(f, e) !== null) return "build-failed";
  if (e.signal !== null || (e.known && e.code != 0 && !f.passedByCounts)) return "runtime-error";
  return "pass";
}

/** The linter's line that failed the run on warnings alone (Facts.warningsFailLine) when the exit says it did, or null. */
function warningsFailed(f: Facts, e: ExitInfo): string | null {
  let w = f.warningsFailLine;
  if (w === null || f.warningCount == 0 || f.errorCount > 0 || e.signal !== null || !e.known || e.code == 0) return null;
  return w;
}

/**
 * True when every error diagnostic is make's own `*** [...] Error N`, a coverage threshold or jest's obsolete
 * snapshot (none from a compiler).
 */
function onlyMakeErrors(f: Facts): bool {
  for (let i = 0; i < f.diagnostics.length; i++) {
    let d = f.diagnostics[i];
    if (d.severity == "error" && d.tool != "make" && d.tool != "coverage" && d.tool != "jest") return false;
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

/** Sets what the verdict says of a crash beyond its facts: first user frame (a cause's too), state, identity, hint. */
function settleCrash(c: Crash): void {
  c.firstUserFrame = firstUser(c.frames);
  c.state = crashState(c);
  c.identity = identityOf(c);
  c.hint = hintFor(c.tool, c.kind, c.message);
  for (let i = 0; i < c.causes.length; i++) c.causes[i].firstUserFrame = firstUser(c.causes[i].frames);
}

/**
 * Failures sharing a root cause (same message and location), for groups of two or more. A failure with
 * neither a message nor a location (testhelp.h's `FAILED`) says nothing it could share: never grouped.
 */
export function errorGroupsOf(t: Tests | null): Array<ErrorGroup> {
  let out = new Array<ErrorGroup>(0);
  if (t === null) return out;
  let seen = new Map<string, i32>();
  let groups = new Array<ErrorGroup>(0);
  for (let i = 0; i < t.failures.length; i++) {
    let f = t.failures[i];
    if (f.message.length == 0 && f.file === null) continue;
    let k = failureKey(f.message, f);
    if (seen.has(k)) {
      let g = groups[seen.get(k)];
      g.count++;
      if (g.tests.length < 5) g.tests.push(f.name);
    } else {
      seen.set(k, groups.length);
      let g = new ErrorGroup();
      g.count = 1;
      g.message = f.message;
      g.file = f.file;
      g.line = f.line;
      g.tests.push(f.name);
      groups.push(g);
    }
  }
  for (let j = 0; j < groups.length; j++) if (groups[j].count >= 2) out.push(groups[j]);
  return out;
}

/** The verdict the facts make, once every line is read. */
export function verdictOf(f: Facts, e: ExitInfo, tail: string[]): Verdict {
  let v = new Verdict();
  let status = statusOf(f, e);
  v.status = status;
  v.exitCode = e.code;
  v.exitKnown = e.known;
  v.exitSignal = e.signal;
  v.timedOut = e.timedOut || f.timeoutSeen;
  v.diagnostics = f.diagnostics;
  v.errorCount = f.errorCount;
  v.warningCount = f.warningCount;
  v.diagnosticsDropped = f.diagnosticsDropped;
  v.crashCount = f.crashCount;
  let c = f.crash;
  if (c !== null) settleCrash(c);
  v.crash = c;
  v.tests = f.tests;
  v.errorGroups = errorGroupsOf(f.tests);
  v.setupError = f.setupFailure;
  v.missingLibrary = f.missingLibrary;
  // A failed step is the build failure only when nothing more specific explains it.
  let stepOnly = status == "build-failed" && f.errorCount == 0 ? f.stepFailedLine : null;
  v.buildFailure = f.buildFailedLine !== null ? f.buildFailedLine : (stepOnly !== null ? stepOnly : warningsFailed(f, e));
  v.upToDate = f.upToDate;
  v.compiledSet = f.compiled;
  v.tail = tail;
  v.rawBytes = f.rawBytes;
  v.lines = f.lines;
  v.binary = f.nulBytes > 0;
  return v;
}

/** Writes the verdict the facts make as sbx.verdict/1 JSON. */
export function writeVerdict(w: JsonWriter, f: Facts, e: ExitInfo, tail: string[]): void {
  writeVerdictJson(w, verdictOf(f, e, tail));
}
