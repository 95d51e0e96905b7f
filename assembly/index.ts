// The engine's entry points. Bytes in, bytes out: the host writes UTF-8 into the buffer alloc() returns,
// calls an entry point, and reads the result from output() (its length is what the entry point returned). No imports but env.abort.
import { Sink } from "./util/sink";
import { Session } from "./session";
import { setDispatchFilter } from "./parsers";
import { ExitInfo } from "./model";
import { Splitter } from "./splitter";
import { Tail } from "./tail";
import { signalName } from "./signals";
import { renderEnvelope, renderEnv } from "./render";
import { JsonWriter } from "./util/sink";
import { parse, Kind } from "./util/json";
import { parseJunit, mergedStatus } from "./junit";
import { checkXml } from "./xml-check";
import { errorGroupsOf } from "./verdict";
import { writeTests, writeGroups } from "./verdict-writer";
import { writeDelta, writeDeltaOf, readPrevious } from "./delta";
import { Envelope, readVerdict, readOutcomeOf, readError } from "./verdict-reader";
import { writeStreakKey } from "./streak-key";
import { Verdict } from "./model";

let input: usize = heap.alloc(1 << 16);
let inputCap: i32 = 1 << 16;
const out = new Sink(1 << 16);
const splitter = new Splitter();
const tail = new Tail();
let session: Session | null = null;
// The verdict JSON the last finish() wrote, for conclude() to read where it is (not sent back in by the host).
const held = new Sink(1 << 12);
// The minimal runtime collects garbage only when asked, and only at the end of an entry point (it does
// not see references held on the stack). A collection walks every live object: asked at the end of
// every call, it cost a short run more than the call itself, and V8 then optimised the walk in the
// background (4 ms of TurboFan in a cold `sbx run`). Garbage is collected once 256 KiB of input has
// gone through the engine since the last collection, which keeps it bounded by that much input's
// worth: a resident engine that has seen every fixture 40 times stays at 4 MiB of memory. A run that reads
// streams apart (npm scripts, turbo's tasks) holds a parser set per stream, each walked by every collection:
// it collects once per 256 KiB per set it holds, at most MAX_SETS_APART times less often (the 40 MB mixed log
// of every fixture, whose npm banners open 8 sets, reads 1.1 to 1.6 times as fast in 1 MiB and 64 KiB pushes,
// at 8 MB of memory at its peak against 4).
const COLLECT_EVERY = 1 << 18;
const MAX_SETS_APART = 8;
let uncollected = 0;
/**
 * A verdict counts as this much input at finish(): it leaves its parser set, facts and output to collect
 * (~23 KB for a 2-byte log), so a resident engine fed short logs (`/bin/true`'s empty one) collects too;
 * counting input alone, 20 000 of them grew it to 256 MiB. A collection walks every live object (~0.4 ms):
 * at this weight one comes every 64 empty logs, ~1.5 MB of garbage.
 */
const VERDICT_GARBAGE = 4 << 10;

function collectAfter(len: i32, sets: i32 = 1): void {
  uncollected += max(len, 0);
  if (uncollected >= COLLECT_EVERY * min(sets, MAX_SETS_APART)) { __collect(); uncollected = 0; }
}

/** A buffer of at least len bytes for the next call's input (valid until the next alloc). */
export function alloc(len: i32): usize {
  if (len > inputCap) {
    heap.free(input);
    inputCap = max(len, inputCap << 1);
    input = heap.alloc(<usize>inputCap);
  }
  return input;
}

/** How the host stopped the run, as bits of begin()'s `stopped`: its own time limit, or its caller. */
const enum Stopped { TIMED_OUT = 1, INTERRUPTED = 2 }

/**
 * Starts a verdict. exitCode is read only when hasExit; signal is a Linux signal number or 0; stopped holds
 * Stopped bits (1 for a timeout: a host that passes a bool for "timed out" keeps working).
 */
export function begin(exitCode: i32, hasExit: bool, signal: i32, stopped: i32): void {
  let s = new Session(splitter, tail);
  setExit(s.facts.exit, exitCode, hasExit, signal, stopped);
  session = s;
}

function setExit(e: ExitInfo, exitCode: i32, hasExit: bool, signal: i32, stopped: i32): void {
  e.code = exitCode;
  e.known = hasExit;
  e.signal = signalName(signal);
  e.timedOut = (stopped & Stopped.TIMED_OUT) != 0;
  e.interrupted = (stopped & Stopped.INTERRUPTED) != 0;
}

/**
 * The run's exit, for a verdict begun before it was known (a stream fed while the command runs): same
 * arguments as begin(). Returns 1 when every exit fact the lines fed so far were read against (fatal or
 * not, the signal) reads the same under it, so the verdict is the one a begin() with it would give;
 * 0 when one differs: the caller then starts the verdict over with begin().
 */
export function exitKnown(exitCode: i32, hasExit: bool, signal: i32, stopped: i32): i32 {
  let s = session;
  if (s === null) return 0;
  let e = s.facts.exit;
  let fatal = e.isFatal();
  let sig = e.shellSignal();
  setExit(e, exitCode, hasExit, signal, stopped);
  if (e.askedFatal && e.isFatal() != fatal) return 0;
  if (e.askedSignal && e.shellSignal() != sig) return 0;
  return 1;
}

/**
 * The run's set-up failed before the command ran (sbx's own error, e.g. the sandbox could not start):
 * len bytes of the input buffer hold the message. The verdict's status is then setup-failed and its
 * setup_error this message, whatever the log says. Call between begin() and finish().
 */
export function setupFailed(len: i32): void {
  let s = session;
  if (s === null) return;
  s.facts.setupFailure = String.UTF8.decodeUnsafe(input, <usize>max(len, 0));
}

/** Feeds len bytes from the input buffer. */
export function feed(len: i32): void {
  let s = session;
  if (s === null) return;
  s.feed(input, len);
  collectAfter(len, s.parserSets());
}

/** Ends the verdict; returns the length of the verdict JSON at output(). */
export function finish(): i32 {
  let s = session;
  out.reset();
  if (s === null) return 0;
  s.finish(out);
  held.reset();
  held.bytes(out.buf, out.len);
  session = null;
  collectAfter(VERDICT_GARBAGE);
  return <i32>out.len;
}

/** Renders the run-result envelope JSON (len bytes in the input buffer) as text; returns its length. */
export function render(len: i32): i32 {
  out.reset();
  renderEnvelope(input, len, out);
  collectAfter(len);
  return <i32>out.len;
}

/**
 * The delta between two verdicts: the input buffer holds the previous verdict JSON (prevLen bytes, 0 on
 * a first run) followed by the current one (curLen bytes). Returns the delta JSON's length, or its
 * negation when a verdict could not be read (the output then holds {"error": ...}).
 */
export function delta(prevLen: i32, curLen: i32, treeChanged: i32, sameRuns: i32): i32 {
  out.reset();
  let ok = writeDelta(out, input, prevLen, input + <usize>prevLen, curLen, treeChanged, sameRuns);
  collectAfter(prevLen + curLen);
  return ok ? <i32>out.len : -<i32>out.len;
}

/**
 * A run's last step, in one pass over the verdict: its delta and its envelope rendered as text. The input
 * buffer holds the previous verdict JSON (prevLen bytes, 0 on a first run), then the envelope's outcome and
 * log as a JSON object ({"outcome": ..., "log": ...}, metaLen bytes), then the verdict JSON (curLen bytes;
 * 0: the one the last finish() wrote, read where it is). treeChanged and sameRuns as delta(). The output
 * holds the delta's length (u32, little-endian), the delta JSON, then the text of the envelope with that
 * delta (what render() gives for it); returns the output's length, or the negated length of {"error": ...}
 * when a verdict or the outcome could not be read.
 */
export function conclude(prevLen: i32, metaLen: i32, curLen: i32, treeChanged: i32, sameRuns: i32): i32 {
  out.reset();
  let metaPtr = input + <usize>max(prevLen, 0);
  let curPtr = metaPtr + <usize>max(metaLen, 0);
  let cur = curLen > 0 ? readVerdict(curPtr, curLen) : readVerdict(held.buf, <i32>held.len);
  let total = max(prevLen, 0) + max(metaLen, 0) + max(curLen, 0);
  if (cur === null) return concludeError("current verdict: " + readError, total);
  let env = new Envelope();
  env.verdict = cur;
  if (readOutcomeOf(env, metaPtr, metaLen) === null) return concludeError("outcome: " + readError, total);
  let prev = readPrevious(out, input, prevLen);
  if (prev === null && prevLen > 0) { collectAfter(total); return -<i32>out.len; }
  out.byte(0); out.byte(0); out.byte(0); out.byte(0); // the delta's length, set below
  env.hasDelta = true;
  env.firstRun = prev === null;
  env.deltaSummary = writeDeltaOf(out, prev, cur, treeChanged, sameRuns);
  store<u32>(out.buf, <u32>(out.len - 4));
  renderEnv(env, out);
  collectAfter(total);
  return <i32>out.len;
}

/**
 * A run's end in one call on its common path: finish(), the verdict's streak key, the delta against the
 * previous run of the command as read before the verdict was known, and the envelope rendered with it.
 * The input buffer holds the previous verdict JSON (prevLen bytes, 0 on a first run), the envelope's
 * outcome and log ({"outcome": ..., "log": ...}, metaLen bytes) and the previous run's streak key (keyLen
 * bytes). sameRuns is prevRuns + 1 when the keys match, else 1 (1 on a first run); treeChanged as delta().
 * The output holds the verdict JSON (what finish() gives, held for conclude()) and its streak key, each
 * after its length (u32, little-endian), then, unless the previous verdict or the outcome could not be
 * read, the delta JSON after its length and the text. Returns the output's length (0: no verdict begun).
 */
export function finishRun(prevLen: i32, metaLen: i32, keyLen: i32, treeChanged: i32, prevRuns: i32): i32 {
  let s = session;
  out.reset();
  if (s === null) return 0;
  held.reset();
  s.finish(held);
  session = null;
  let metaPtr = input + <usize>max(prevLen, 0);
  let keyPtr = metaPtr + <usize>max(metaLen, 0);
  let total = max(prevLen, 0) + max(metaLen, 0) + max(keyLen, 0);
  part(); out.bytes(held.buf, held.len); endPart();
  let cur = readVerdict(held.buf, <i32>held.len);
  if (cur === null) { collectAfter(total); return <i32>out.len; }
  let key = out.len + 4;
  part(); writeStreakKey(out, cur); endPart();
  let env = new Envelope();
  env.verdict = cur;
  let prev = prevLen > 0 ? readVerdict(input, prevLen) : null;
  if ((prev === null && prevLen > 0) || readOutcomeOf(env, metaPtr, metaLen) === null) { collectAfter(total); return <i32>out.len; }
  let sameRuns = 1;
  if (prev !== null && <i32>(out.len - key) == keyLen && memory.compare(out.buf + key, keyPtr, <usize>keyLen) == 0) sameRuns = max(prevRuns, 0) + 1;
  part();
  env.hasDelta = true;
  env.firstRun = prev === null;
  env.deltaSummary = writeDeltaOf(out, prev, cur, treeChanged, sameRuns);
  endPart();
  renderEnv(env, out);
  collectAfter(total);
  return <i32>out.len;
}

/** Where the output's part being written began (its length goes in the u32 before it). */
let partAt: usize = 0;
function part(): void { partAt = out.len; out.byte(0); out.byte(0); out.byte(0); out.byte(0); }
function endPart(): void { store<u32>(out.buf + partAt, <u32>(out.len - partAt - 4)); }

/**
 * The streak key (streak-key.ts) of the verdict JSON in the input buffer (len bytes; 0: the one the last
 * finish() wrote); returns its length, or the negated length of {"error": ...} when it is not a verdict.
 */
export function streakKey(len: i32): i32 {
  out.reset();
  let v: Verdict | null = len > 0 ? readVerdict(input, len) : readVerdict(held.buf, <i32>held.len);
  if (v === null) return concludeError("verdict: " + readError, max(len, 0));
  writeStreakKey(out, v);
  collectAfter(max(len, 0));
  return <i32>out.len;
}

function concludeError(msg: string, inputLen: i32): i32 {
  out.reset();
  out.str("{\"error\":"); out.jstr(msg); out.str("}");
  collectAfter(inputLen);
  return -<i32>out.len;
}

export function output(): usize { return out.buf; }

/**
 * Parses a JUnit XML report (len bytes in the input buffer); returns the length of its tests JSON
 * (verdict.tests shape), or its negation when the report is not well-formed XML with a <testsuites> or
 * <testsuite> root (the output then holds {"error": ...}).
 */
export function junit(len: i32): i32 {
  out.reset();
  let bad = checkXml(input, len);
  if (bad !== null) return junitError(bad, len);
  let t = parseJunit(input, len);
  writeTests(new JsonWriter(out), t);
  collectAfter(len);
  return <i32>out.len;
}

/**
 * Merges a JUnit report into a verdict: the input buffer holds the verdict JSON (verdictLen bytes) then the
 * XML (xmlLen bytes). Returns the length of the merged verdict JSON: the report's tests and error_groups
 * replace the log's, the status is recomputed with the same precedence, every other field is copied as it
 * came, in its place (keys the verdict lacked come last, as status, tests, error_groups).
 * An invalid report replaces nothing: the return is the negated length of {"error": ...}, and the host
 * keeps the verdict as it was. 0: the verdict JSON could not be read.
 */
export function junitMerge(verdictLen: i32, xmlLen: i32): i32 {
  out.reset();
  let xml = input + <usize>verdictLen;
  let bad = checkXml(xml, xmlLen);
  if (bad !== null) return junitError(bad, verdictLen + xmlLen);
  let v = parse(input, verdictLen);
  if (v === null || v.kind != Kind.OBJ) { collectAfter(verdictLen + xmlLen); return 0; }
  let t = parseJunit(xml, xmlLen);
  let status = mergedStatus(v, t);
  let w = new JsonWriter(out);
  w.beginObject();
  let keys = v.keys;
  for (let i = 0; i < keys.length; i++) {
    let k = keys[i];
    if (k == "status") w.str("status", status);
    else if (k == "tests") { w.field("tests"); writeTests(w, t); }
    else if (k == "error_groups") writeGroups(w, errorGroupsOf(t));
    else { let x = v.items[i]; w.rawBytes(k, x.from, x.to - x.from); }
  }
  if (!v.has("status")) w.str("status", status);
  if (!v.has("tests")) { w.field("tests"); writeTests(w, t); }
  if (!v.has("error_groups")) writeGroups(w, errorGroupsOf(t));
  w.endObject();
  collectAfter(verdictLen + xmlLen);
  return <i32>out.len;
}

function junitError(msg: string, inputLen: i32): i32 {
  out.reset();
  let w = new JsonWriter(out);
  w.beginObject();
  w.str("error", "not a JUnit XML report: " + msg);
  w.endObject();
  collectAfter(inputLen);
  return -<i32>out.len;
}

/**
 * The dispatcher's first-byte filter for the verdicts begun after this call (1: on, the default; 0: every
 * parser is offered every line). For the self-check test only: both must give the same verdicts.
 */
export function dispatchFilter(on: i32): void { setDispatchFilter(on != 0); }
