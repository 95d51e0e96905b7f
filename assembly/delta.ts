// sbx.delta/1: what changed between the previous verdict and this one. Pure and deterministic: both
// verdicts come in as JSON, the delta goes out as JSON with a one-line summary the renderer prints.
import { Char, isDigit } from "./util/chars";
import { JValue, Kind, parse, jsonError } from "./util/json";
import { JsonWriter, Sink } from "./util/sink";

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

function diagKey(d: JValue): string {
  // The label is part of what the diagnostic says: two E0308s "mismatched types" with different labels
  // (expected `i32`, found `usize` / expected `String`, found `&str`) are two diagnostics.
  return d.get("tool").str() + "\u0001" + d.get("severity").str() + "\u0001" + d.get("file").str() + "\u0001" +
    normMessage(d.get("message").str()) + "\u0001" + normMessage(d.get("label").str());
}

function absDiff(a: i64, b: i64): i64 { return a > b ? a - b : b - a; }

class DiagMatch {
  fixed: Array<JValue> = [];
  added: Array<JValue> = [];
  unchanged: i32 = 0;
}

/** Errors and warnings only; notes ride with their error. */
function mainDiags(v: JValue): Array<JValue> {
  let out = new Array<JValue>(0);
  let ds = v.get("diagnostics");
  for (let i = 0; i < ds.length; i++) {
    let d = ds.at(i);
    if (d.get("severity").str() != "note") out.push(d);
  }
  return out;
}

function matchDiagnostics(before: JValue, after: JValue): DiagMatch {
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
    let lb = b[j].get("line").int();
    for (let i = 0; i < a.length; i++) {
      if (usedA[i] || ka[i] != kb[j]) continue;
      let d = absDiff(a[i].get("line").int(), lb);
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

function failureNames(v: JValue): Array<string> {
  let out = new Array<string>(0);
  let fs = v.get("tests").get("failures");
  for (let i = 0; i < fs.length; i++) out.push(fs.at(i).get("name").str());
  return out;
}

function contains(xs: Array<string>, s: string): bool {
  for (let i = 0; i < xs.length; i++) if (xs[i] == s) return true;
  return false;
}

function sameFrame(a: JValue, b: JValue): bool {
  if (a.kind != Kind.OBJ || b.kind != Kind.OBJ) return a.kind == b.kind;
  if (a.get("file").str() != b.get("file").str()) return false;
  if (a.get("function").str() != b.get("function").str()) return false;
  return absDiff(a.get("line").int(), b.get("line").int()) <= LINE_SLACK;
}

function crashChange(before: JValue, after: JValue): string {
  let a = before.get("crash"); let b = after.get("crash");
  if (a.kind != Kind.OBJ && b.kind != Kind.OBJ) return "none";
  if (b.kind != Kind.OBJ) return "gone";
  if (a.kind != Kind.OBJ) return "new";
  if (a.get("tool").str() != b.get("tool").str() || a.get("kind").str() != b.get("kind").str()) return "new";
  return sameFrame(a.get("first_user_frame"), b.get("first_user_frame")) ? "same" : "moved";
}

/** `fn file:line`; what is unknown is left out (never `?`). */
function frameShort(f: JValue): string {
  if (f.kind != Kind.OBJ) return "no user frame";
  let file = f.get("file").str();
  let s = file.length > 0 ? file : f.get("module").str();
  let line = f.get("line").int();
  if (line >= 0 && s.length > 0) s += ":" + line.toString();
  let fn = f.get("function").str();
  if (fn == "??") fn = "";
  if (fn.length == 0) return s.length > 0 ? s : "an unknown frame";
  return s.length > 0 ? fn + " " + s : fn;
}

function plural(n: i32, one: string, many: string): string { return n.toString() + " " + (n == 1 ? one : many); }

function writeFrameRaw(w: JsonWriter, f: JValue): void {
  // Frames are re-emitted with the keys the contract names.
  w.beginObject();
  w.intOrNull("index", f.get("index").int());
  w.str("function", f.get("function").strOrNull());
  w.str("file", f.get("file").strOrNull());
  w.intOrNull("line", f.get("line").int());
  w.intOrNull("col", f.get("col").int());
  w.str("module", f.get("module").strOrNull());
  w.bool("user", f.get("user").bool());
  w.endObject();
}

function writeDiagRaw(w: JsonWriter, d: JValue): void {
  w.beginObject();
  w.str("tool", d.get("tool").str());
  w.str("severity", d.get("severity").str());
  w.str("file", d.get("file").strOrNull());
  w.intOrNull("line", d.get("line").int());
  w.intOrNull("col", d.get("col").int());
  w.str("code", d.get("code").strOrNull());
  w.str("message", d.get("message").str());
  let label = d.get("label");
  if (label.kind == Kind.STR) w.str("label", label.s);
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
  let cur = parse(curPtr, curLen);
  if (cur === null) { out.str("{\"error\":"); out.jstr("current verdict: " + jsonError); out.str("}"); return false; }
  let prev: JValue | null = null;
  if (prevLen > 0) {
    prev = parse(prevPtr, prevLen);
    if (prev === null) { out.str("{\"error\":"); out.jstr("previous verdict: " + jsonError); out.str("}"); return false; }
  }
  let w = new JsonWriter(out);
  w.beginObject();
  w.str("schema", "sbx.delta/1");
  let first = prev === null;
  w.bool("first_run", first);
  let before = first ? new JValue() : prev!;
  w.field("status");
  w.beginObject();
  w.str("before", first ? null : before.get("status").str());
  w.str("after", cur.get("status").str());
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
  let ranNow = cur.get("tests").kind == Kind.OBJ;
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

  let crash = first ? (cur.get("crash").kind == Kind.OBJ ? "new" : "none") : crashChange(before, cur);
  w.str("crash", crash);
  w.field("crash_moved");
  if (crash == "moved") {
    w.beginObject();
    w.field("from"); writeFrameRaw(w, before.get("crash").get("first_user_frame"));
    w.field("to"); writeFrameRaw(w, cur.get("crash").get("first_user_frame"));
    w.endObject();
  } else w.value("null");

  let statusSame = !first && before.get("status").str() == cur.get("status").str();
  let nothing = statusSame && (crash == "same" || crash == "none") && dm.fixed.length == 0 && dm.added.length == 0
    && fixedT.length == 0 && brokenT.length == 0;
  let noOp = !first && nothing && treeChanged == 1;
  w.bool("no_op_edit", noOp);
  w.intOrNull("tree_changed", treeChanged < 0 ? -1 : treeChanged);
  w.field("repeat");
  w.beginObject();
  w.int("same_verdict_runs", max(sameRuns, 1));
  w.endObject();
  w.str("summary", summarize(first, before, cur, crash, dm, fixedT, brokenT, stillT, noOp, nothing, nothing && treeChanged == 0, sameRuns));
  w.endObject();
  return true;
}

function summarize(first: bool, before: JValue, cur: JValue, crash: string, dm: DiagMatch, fixedT: Array<string>,
  brokenT: Array<string>, stillT: Array<string>, noOp: bool, nothing: bool, idle: bool, sameRuns: i32): string {
  if (first) return "first run";
  let c = cur.get("crash");
  let where = frameShort(c.get("first_user_frame"));
  if (noOp) {
    if (crash == "same") return "no change — your edit did not affect the crash (" + c.get("kind").str() + " at " + where + ")" + streak(sameRuns);
    return "no change — your edit did not change the result (" + cur.get("status").str() + ")" + streak(sameRuns);
  }
  // Nothing edited since the last run and the same verdict: say so, so that nobody reads it as
  // "your edit did not help".
  if (idle) {
    if (crash == "same") return "no change — nothing changed since the last run (" + c.get("kind").str() + " at " + where + ")" + streak(sameRuns);
    return "no change — nothing changed since the last run (" + cur.get("status").str() + ")" + streak(sameRuns);
  }
  let parts = new Array<string>(0);
  let sb = before.get("status").str(); let sa = cur.get("status").str();
  if (sb != sa) parts.push("status " + sb + " → " + sa);
  if (crash == "same") parts.push("crash SAME (" + c.get("kind").str() + " at " + where + ")");
  else if (crash == "moved") parts.push("crash MOVED " + frameShort(before.get("crash").get("first_user_frame")) + " → " + where);
  else if (crash == "gone") parts.push("crash GONE (" + before.get("crash").get("kind").str() + ")");
  else if (crash == "new") parts.push("crash NEW (" + c.get("kind").str() + " at " + where + ")");
  let ef = 0; let en = 0; let wf = 0; let wn = 0;
  for (let i = 0; i < dm.fixed.length; i++) { if (dm.fixed[i].get("severity").str() == "error") ef++; else wf++; }
  for (let i = 0; i < dm.added.length; i++) { if (dm.added[i].get("severity").str() == "error") en++; else wn++; }
  if (ef > 0 || en > 0) {
    let s = new Array<string>(0);
    if (ef > 0) s.push(plural(ef, "error", "errors") + " fixed");
    if (en > 0) s.push((ef > 0 ? en.toString() : plural(en, "error", "errors")) + " new");
    parts.push(s.join(", "));
  }
  if (wf > 0 || wn > 0) {
    let s = new Array<string>(0);
    if (wf > 0) s.push(plural(wf, "warning", "warnings") + " fixed");
    if (wn > 0) s.push((wf > 0 ? wn.toString() : plural(wn, "warning", "warnings")) + " new");
    parts.push(s.join(", "));
  }
  if (fixedT.length > 0 || brokenT.length > 0 || stillT.length > 0) {
    let s = new Array<string>(0);
    if (fixedT.length > 0) s.push(fixedT.length.toString() + " fixed");
    if (brokenT.length > 0) s.push(brokenT.length.toString() + " broken");
    if (stillT.length > 0) s.push(stillT.length.toString() + " still failing");
    parts.push("tests: " + s.join(", "));
  }
  if (parts.length == 0) return (nothing ? "no change (" + sa + ")" : "no change") + streak(sameRuns);
  return parts.join(" · ") + streak(sameRuns);
}

function streak(n: i32): string {
  return n >= 2 ? " · same verdict " + n.toString() + " runs in a row" : "";
}
