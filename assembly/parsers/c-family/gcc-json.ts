// gcc's `-fdiagnostics-format=json`: one compile's diagnostics as one array on one line, read in place (no tree):
// `[{"kind": "error", "locations": [{"caret": {"file": "a.cpp", "line": 5, "column": 7, ..}, "finish": {..}}],
// "option": "-Wsign-compare", "message": "...", "children": [{"kind": "note", ..}], ..}, ..]`.
import { Char, isDigit } from "../../util/chars";
import { Line } from "../../util/line";
import { decodeJsonString, jsonBuf } from "../../util/json-string";
import { decode } from "../../util/utf8";

/** One diagnostic of the array: sev "" when its kind is none of error, fatal error, warning, note. */
export class GccJsonDiag {
  sev: string = "";
  file: string | null = null;
  line: i32 = -1;
  col: i32 = -1;
  message: string = "";
  option: string | null = null;
  children: Array<GccJsonDiag> = [];
}

const MAX_DEPTH = 32;

/** The cursor (a byte index into the line); -1 once the line is not well-formed. */
let pos: i32 = 0;

/** The array's diagnostics, or null when l is not one well-formed array of objects. */
export function readGccJson(l: Line): Array<GccJsonDiag> | null {
  pos = 0;
  let out = new Array<GccJsonDiag>();
  if (!readObjects(l, out, 0)) return null;
  ws(l);
  return pos == l.len ? out : null;
}

function ws(l: Line): void {
  let p = pos;
  while (p < l.len) {
    let c = l.at(p);
    if (c != Char.SPACE && c != Char.TAB) break;
    p++;
  }
  pos = p;
}

/** `[{..}, {..}]` at pos: each object read into out. */
function readObjects(l: Line, out: Array<GccJsonDiag>, depth: i32): bool {
  ws(l);
  if (l.at(pos) != Char.LBRACKET) return false;
  pos++;
  ws(l);
  if (l.at(pos) == Char.RBRACKET) { pos++; return true; }
  while (true) {
    let d = new GccJsonDiag();
    if (!readDiag(l, d, depth + 1)) return false;
    out.push(d);
    ws(l);
    let c = l.at(pos);
    pos++;
    if (c == Char.RBRACKET) return true;
    if (c != Char.COMMA) return false;
  }
}

/** One diagnostic's object at pos. */
function readDiag(l: Line, d: GccJsonDiag, depth: i32): bool {
  if (depth > MAX_DEPTH) return false;
  ws(l);
  if (l.at(pos) != Char.LBRACE) return false;
  pos++;
  ws(l);
  if (l.at(pos) == Char.RBRACE) { pos++; return true; }
  while (true) {
    ws(l);
    if (l.at(pos) != Char.QUOTE) return false;
    let k = pos;
    if (!skipString(l)) return false;
    ws(l);
    if (l.at(pos) != Char.COLON) return false;
    pos++;
    ws(l);
    let ok: bool;
    if (l.matchAt("\"kind\"", k)) {
      ok = l.at(pos) == Char.QUOTE;
      if (ok) {
        if (l.matchAt("\"error\"", pos) || l.matchAt("\"fatal error\"", pos)) d.sev = "error";
        else if (l.matchAt("\"warning\"", pos)) d.sev = "warning";
        else if (l.matchAt("\"note\"", pos)) d.sev = "note";
        ok = skipString(l);
      }
    } else if (l.matchAt("\"message\"", k)) {
      ok = l.at(pos) == Char.QUOTE;
      if (ok) { d.message = strAt(l, pos + 1); ok = skipString(l); }
    } else if (l.matchAt("\"option\"", k)) {
      ok = l.at(pos) == Char.QUOTE;
      if (ok) { d.option = strAt(l, pos + 1); ok = skipString(l); }
    } else if (l.matchAt("\"children\"", k)) {
      ok = readObjects(l, d.children, depth + 1);
    } else if (l.matchAt("\"locations\"", k)) {
      ok = readLocations(l, d, depth + 1);
    } else {
      ok = skipValue(l, depth + 1);
    }
    if (!ok) return false;
    ws(l);
    let c = l.at(pos);
    pos++;
    if (c == Char.RBRACE) return true;
    if (c != Char.COMMA) return false;
  }
}

/** `[{"caret": {"file": .., "line": .., "column": ..}, ..}, ..]`: the first location's caret is d's place. */
function readLocations(l: Line, d: GccJsonDiag, depth: i32): bool {
  if (l.at(pos) != Char.LBRACKET) return false;
  let start = pos;
  if (!skipValue(l, depth)) return false;
  let end = pos;
  // The caret of the first location: its object starts after `"caret": `.
  let c = l.indexOf("\"caret\"", start);
  if (c < 0 || c >= end) return true;
  let o = l.indexOfByte(Char.LBRACE, c);
  if (o < 0 || o >= end) return true;
  let close = l.indexOfByte(Char.RBRACE, o);
  if (close < 0 || close >= end) return true;
  let f = l.indexOf("\"file\": \"", o);
  if (f > 0 && f < close) d.file = strAt(l, f + 9);
  d.line = intAfter(l, l.indexOf("\"line\": ", o), 8, close);
  d.col = intAfter(l, l.indexOf("\"column\": ", o), 10, close);
  return true;
}

function intAfter(l: Line, at: i32, skip: i32, limit: i32): i32 {
  if (at < 0 || at >= limit) return -1;
  let p = at + skip;
  if (!isDigit(l.at(p))) return -1;
  let v = 0;
  while (p < limit && isDigit(l.at(p))) { v = v * 10 + (l.at(p) - Char._0); p++; }
  return v;
}

/** A string at pos (its opening quote): pos past its closing quote. */
function skipString(l: Line): bool {
  let p = pos + 1;
  let n = l.len;
  while (p < n) {
    let c = l.at(p);
    if (c == Char.BACKSLASH) { p += 2; continue; }
    p++;
    if (c == Char.QUOTE) { pos = p; return true; }
  }
  return false;
}

/** Any JSON value at pos: pos past it. */
function skipValue(l: Line, depth: i32): bool {
  if (depth > MAX_DEPTH) return false;
  ws(l);
  let c = l.at(pos);
  if (c == Char.QUOTE) return skipString(l);
  if (c == Char.LBRACE || c == Char.LBRACKET) {
    let close = c == Char.LBRACE ? Char.RBRACE : Char.RBRACKET;
    pos++;
    ws(l);
    if (l.at(pos) == close) { pos++; return true; }
    while (true) {
      if (c == Char.LBRACE) {
        ws(l);
        if (l.at(pos) != Char.QUOTE || !skipString(l)) return false;
        ws(l);
        if (l.at(pos) != Char.COLON) return false;
        pos++;
      }
      if (!skipValue(l, depth + 1)) return false;
      ws(l);
      let e = l.at(pos);
      pos++;
      if (e == close) return true;
      if (e != Char.COMMA) return false;
    }
  }
  // A number, true, false, null: up to the next delimiter.
  let p = pos;
  while (p < l.len) {
    let b = l.at(p);
    if (b == Char.COMMA || b == Char.RBRACE || b == Char.RBRACKET || b == Char.SPACE) break;
    p++;
  }
  if (p == pos) return false;
  pos = p;
  return true;
}

function strAt(l: Line, p: i32): string {
  let n = decodeJsonString(l, p);
  return decode(jsonBuf(), n);
}
