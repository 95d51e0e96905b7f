// sbx.delta/1: what changed between the previous verdict and this one. Pure and deterministic: both
// verdicts come in as JSON, the delta goes out as JSON with a one-line summary the renderer prints.
import { Char, isDigit } from "./util/chars";
import { VerdictView, DiagView, FrameView, readVerdict, readError } from "./verdict-reader";
import { JsonWriter, Sink } from "./util/sink";
import { join } from "./util/join";

/** Diagnostics within this many lines of each other, same in all else, are the same diagnostic. */
const LINE_SLACK: i64 = 3;
const MAX_LISTED = 50;

function normMessage(s: string): string {
  // Numbers (counts, sizes, columns inside messages) and runs of spaces do not make a new diagnostic.
  let buf = new Array<i32>(0);
  let space = false;
  for (let i = 0, n = s.length; i < n; i++) {
    let c = s.charCodeAt(i);
    let digit = isDigit(c);
    let blank = c == Char.SPACE || c == Char.TAB;
    if (digit) { if (buf.length == 0 || buf[buf.length - 1] != Char.HASH) buf.push(Char.HASH); }
    else if (blank) { if (!space) buf.push(Char.SPACE); }
    else buf.push(c);
    space = blank;
  }
  return String.fromCharCodes(buf);
}

function diagKey(d: DiagView): string {
  // The label is part of what the diagnostic says: two E0308s "mismatched types" with different labels
  // (expected `i32`, found `usize` / expected `String`, found `&str`) are two diagnostics.
  let label = d.label;
  return d.tool + "\u0001" + d.severity + "\u0001" + d.fileOr + "\u0001" +
    normMessage(d.message) + "\u0001" + normMessage(label !== null ? label : "");
}

function absDiff(a: i64, b: i64): i64 { return a > b ? a - b : b - a; }

class DiagMatch {
  fixed: Array<DiagView> = [];
  added: Array<DiagView> = [];
  unchanged: i32 = 0;
}

/** Errors and warnings only; notes ride with their error. */
function mainDiags(v: VerdictView): Array<DiagView> {
  let out = new Array<DiagView>(0);
  let ds = v.diagnostics;
  for (let i = 0; i < ds.length; i++) {
    let d = ds[i];
    if (d.severity != "note") out.push(d);
  }
  return out;
}

function matchDiagnostics(before: VerdictView, after: VerdictView): DiagMatch {
  let a = mainDiags(before);
  let b = mainDiags(after);
  let ka = new Array<string>(a.length);
  let kb = new Array<string>(b.length);
  for (let i = 0; i < a.length; i++) ka[i] = diagKey(a[i]);
  for (let i = 0; i < b.length; i++) kb[i] = diagKey(b[i]);
  let usedA = new Array<bool>(a.length);
  let usedB = new Array<bool>(b.length);
  let m = new DiagMatch();
  // Pass 1: same key, nearest line within LINE_SLACK.
  for (let j = 0; j < b.length; j++) {
    let best = -1; let bestD: i64 = LINE_SLACK + 1;
    let lb = b[j].line;
    for (let i = 0; i < a.length; i++) {
      if (usedA[i] || ka[i] != kb[j]) continue;
      let d = absDiff(a[i].line, lb);
      if (d < bestD) { bestD = d; best = i; }
    }
    if (best >= 0) { usedA[best] = true; usedB[j] = true; m.unchanged++; }
  }
  // Pass 2: what is left with the same key pairs up in order: the code above it grew or shrank
  // (lines inserted above shift every later diagnostic of the file by the same amount).
  for (let j = 0; j < b.length; j++) {
    if (usedB[j]) continue;
    for (let i = 0; i < a.length; i++) {
      if (usedA[i] || ka[i] != kb[j]) continue;
      usedA[i] = true; usedB[j] = true; m.unchanged++;
      break;
    }
  }
  for (let i = 0; i < a.length; i++) if (!usedA[i]) m.fixed.push(a[i]);
  for (let j = 0; j < b.length; j++) if (!usedB[j]) m.added.push(b[j]);
  return m;
}

function failureNames(v: VerdictView): Array<string> {
  let out = new Array<string>(0);
  let t = v.tests;
  if (t === null) return out;
  let fs = t.failures;
  for (let i = 0; i < fs.length; i++) out.push(fs[i].name);
  return out;
}

function contains(xs: Array<string>, s: string): bool {
  for (let i = 0; i < xs.length; i++) if (xs[i] == s) return true;
  return false;
}

function sameFrame(a: FrameView | null, b: FrameView | null): bool {
  if (a === null || b === null) return a === b;
  if (a.fileOr != b.fileOr) return false;
  if (fnOf(a) != fnOf(b)) return false;
  return absDiff(a.line, b.line) <= LINE_SLACK;
}

function fnOf(f: FrameView): string { let s = f.fn; return s !== null ? s : ""; }

function crashChange(before: VerdictView, after: VerdictView): string {
  let a = before.crash; let b = after.crash;
  if (a === null && b === null) return "none";
  if (b === null) return "gone";
  if (a === null) return "new";
  if (a.tool != b.tool || a.kind != b.kind) return "new";
  // The crash state names the bug by its message and top frames (crash-state.ts): another state is another
  // place. The same state is the same crash only when its first user frame stayed within LINE_SLACK lines too
  // (the state has no line numbers). A verdict written before the state existed is compared by the frame alone.
  let sa = a.state; let sb = b.state;
  if (sa !== null && sb !== null && !sameState(sa, sb)) return "moved";
  return sameFrame(a.firstUserFrame, b.firstUserFrame) ? "same" : "moved";
}

function sameState(a: Array<string>, b: Array<string>): bool {
  if (a.length != b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] != b[i]) return false;
  return true;
}

/** `fn file:line`; what is unknown is left out (never `?`). */
function frameShort(f: FrameView | null): string {
  if (f === null) return "no user frame";
  let file = f.fileOr;
  let m = f.module;
  let s = file.length > 0 ? file : (m !== null ? m : "");
  let line = f.line;
  if (line >= 0 && s.length > 0) s += ":" + line.toString();
  let fn = fnOf(f);
  if (fn == "??") fn = "";
  if (fn.length == 0) return s.length > 0 ? s : "an unknown frame";
  return s.length > 0 ? fn + " " + s : fn;
}

function plural(n: i32, one: string, many: string): string { return n.toString() + " " + (n == 1 ? one : many); }

function writeFrameRaw(w: JsonWriter, f: FrameView | null): void {
  // Frames are re-emitted with the keys the contract names.
  let g = f !== null ? f : new FrameView();
  w.beginObject();
  w.intOrNull("index", g.index);
  w.str("function", g.fn);
  w.str("file", g.file);
  w.intOrNull("line", g.line);
  w.intOrNull("col", g.col);
  w.str("module", g.module);
  w.bool("user", g.user);
  w.endObject();
}

function writeDiagRaw(w: JsonWriter, d: DiagView): void {
  w.beginObject();
  w.str("tool", d.tool);
  w.str("severity", d.severity);
  w.str("file", d.file);
  w.intOrNull("line", d.line);
  w.intOrNull("col", d.col);
  w.str("code", d.code);
  w.str("message", d.message);
  let label = d.label;
  if (label !== null) w.str("label", label);
  w.endObject();
}

function writeNames(w: JsonWriter, key: string, xs: Array<string>): void {
  w.field(key);
  w.beginArray();
  for (let i = 0; i < xs.length && i < MAX_LISTED; i++) w.strItem(xs[i]);
  w.endArray();
}

/**
 * prev/cur: verdict JSON (prev may be empty: first run). treeChanged: 1 changed, 0 unchanged, -1 unknown.
 * sameRuns: how many runs in a row, this one included, had this verdict (the host counts from history).
 */
export function writeDelta(out: Sink, prevPtr: usize, prevLen: i32, curPtr: usize, curLen: i32, treeChanged: i32, sameRuns: i32): bool {
  let cur = readVerdict(curPtr, curLen);
  if (cur === null) { out.str("{\"error\":"); out.jstr("current verdict: " + readError); out.str("}"); return false; }
  let prev: VerdictView | null = null;
  if (prevLen > 0) {
    prev = readVerdict(prevPtr, prevLen);
    if (prev === null) { out.str("{\"error\":"); out.jstr("previous verdict: " + readError); out.str("}"); return false; }
  }
  let w = new JsonWriter(out);
  w.beginObject();
  w.str("schema", "sbx.delta/1");
  let first = prev === null;
  w.bool("first_run", first);
  let before = first ? new VerdictView() : prev!;
  w.field("status");
  w.beginObject();
  w.str("before", first ? null : before.statusOr);
  w.str("after", cur.statusOr);
  w.endObject();

  let dm = matchDiagnostics(before, cur);
  w.field("diagnostics");
  w.beginObject();
  w.field("fixed"); w.beginArray();
  for (let i = 0; i < dm.fixed.length && i < MAX_LISTED; i++) { w.item(); writeDiagRaw(w, dm.fixed[i]); }
  w.endArray();
  w.field("new"); w.beginArray();
  for (let i = 0; i < dm.added.length && i < MAX_LISTED; i++) { w.item(); writeDiagRaw(w, dm.added[i]); }
  w.endArray();
  w.int("unchanged", dm.unchanged);
  w.int("fixed_count", dm.fixed.length);
  w.int("new_count", dm.added.length);
  w.endObject();

  let fa = failureNames(before); let fb = failureNames(cur);
  let ranNow = cur.tests !== null;
  let fixedT = new Array<string>(0); let brokenT = new Array<string>(0); let stillT = new Array<string>(0);
  for (let i = 0; i < fa.length; i++) {
    if (contains(fb, fa[i])) stillT.push(fa[i]);
    else if (ranNow) fixedT.push(fa[i]);
  }
  for (let i = 0; i < fb.length; i++) if (!contains(fa, fb[i])) brokenT.push(fb[i]);
  if (first) { brokenT = []; stillT = []; }
  w.field("tests");
  w.beginObject();
  writeNames(w, "fixed", fixedT);
  writeNames(w, "broken", brokenT);
  writeNames(w, "still_failing", stillT);
  w.endObject();

  let crash = first ? (cur.crash !== null ? "new" : "none") : crashChange(before, cur);
  w.str("crash", crash);
  w.field("crash_moved");
  if (crash == "moved") {
    w.beginObject();
    w.field("from"); writeFrameRaw(w, before.crash!.firstUserFrame);
    w.field("to"); writeFrameRaw(w, cur.crash!.firstUserFrame);
    w.endObject();
  } else w.value("null");

  let statusSame = !first && before.statusOr == cur.statusOr;
  let nothing = statusSame && (crash == "same" || crash == "none") && dm.fixed.length == 0 && dm.added.length == 0
    && fixedT.length == 0 && brokenT.length == 0;
  let noOp = !first && nothing && treeChanged == 1;
  w.bool("no_op_edit", noOp);
  w.intOrNull("tree_changed", treeChanged < 0 ? -1 : treeChanged);
  w.field("repeat");
  w.beginObject();
  w.int("same_verdict_runs", max(sameRuns, 1));
  w.endObject();
  w.str("summary", summarize(first, before, cur, crash, dm, fixedT, brokenT, stillT, noOp, nothing, nothing && treeChanged == 0, treeChanged == 0, sameRuns));
  w.endObject();
  return true;
}

function summarize(first: bool, before: VerdictView, cur: VerdictView, crash: string, dm: DiagMatch, fixedT: Array<string>,
  brokenT: Array<string>, stillT: Array<string>, noOp: bool, nothing: bool, idle: bool, idleTree: bool, sameRuns: i32): string {
  if (first) return "first run";
  let c = cur.crash;
  let kind = c !== null ? c.kind : "";
  let where = frameShort(c !== null ? c.firstUserFrame : null);
  if (noOp) {
    if (crash == "same") return "no change — your edit did not affect the crash (" + kind + " at " + where + ")" + streak(sameRuns);
    return "no change — your edit did not change the result (" + cur.statusOr + ")" + streak(sameRuns);
  }
  // Nothing edited since the last run and the same verdict: say so, so that nobody reads it as
  // "your edit did not help".
  if (idle) {
    if (crash == "same") return "no change — nothing changed since the last run (" + kind + " at " + where + ")" + streak(sameRuns);
    return "no change — nothing changed since the last run (" + cur.statusOr + ")" + streak(sameRuns);
  }
  let parts = new Array<string>(0);
  let sb = before.statusOr; let sa = cur.statusOr;
  if (sb != sa) parts.push("status " + sb + " → " + sa);
  if (crash == "same") parts.push("crash SAME (" + kind + " at " + where + ")");
  else if (crash == "moved") parts.push("crash MOVED " + frameShort(before.crash!.firstUserFrame) + " → " + where);
  else if (crash == "gone") parts.push("crash GONE (" + before.crash!.kind + ")");
  else if (crash == "new") parts.push("crash NEW (" + kind + " at " + where + ")");
  let ef = 0; let en = 0; let wf = 0; let wn = 0;
  for (let i = 0; i < dm.fixed.length; i++) { if (dm.fixed[i].severity == "error") ef++; else wf++; }
  for (let i = 0; i < dm.added.length; i++) { if (dm.added[i].severity == "error") en++; else wn++; }
  if (ef > 0 || en > 0) {
    let s = new Array<string>(0);
    if (ef > 0) s.push(plural(ef, "error", "errors") + (idleTree ? " not printed this time (nothing was edited)" : " fixed"));
    if (en > 0) s.push((ef > 0 ? en.toString() : plural(en, "error", "errors")) + " new");
    parts.push(join(s, ", "));
  }
  if (wf > 0 || wn > 0) {
    let s = new Array<string>(0);
    // Nothing was edited: a warning that is gone was not fixed, it was not printed (an incremental
    // build skips what it compiled before).
    if (wf > 0) s.push(plural(wf, "warning", "warnings") + (idleTree ? " not printed this time (nothing was edited)" : " fixed"));
    if (wn > 0) s.push((wf > 0 ? wn.toString() : plural(wn, "warning", "warnings")) + " new");
    parts.push(join(s, ", "));
  }
  if (fixedT.length > 0 || brokenT.length > 0 || stillT.length > 0) {
    let s = new Array<string>(0);
    if (fixedT.length > 0) s.push(fixedT.length.toString() + " fixed");
    if (brokenT.length > 0) s.push(brokenT.length.toString() + " broken");
    if (stillT.length > 0) s.push(stillT.length.toString() + " still failing");
    parts.push("tests: " + join(s, ", "));
  }
  if (parts.length == 0) return (nothing ? "no change (" + sa + ")" : "no change") + streak(sameRuns);
  return join(parts, " · ") + streak(sameRuns);
}

function streak(n: i32): string {
  return n >= 2 ? " · same verdict " + n.toString() + " runs in a row" : "";
}
