// A verdict's streak key: what makes two verdicts "the same" for the delta's streak (same_verdict_runs, the
// summary's "N runs in a row") and for the state's counters: status, crash identity and message, error set,
// failing tests and how each fails. The host stores it in every state dir (last.json's state.vkey,
// history.jsonl's key) and compares it with keys written by every earlier sbx, so it is kept byte for byte
// as the host first wrote it: JSON.stringify([status, crash, errors, failures]) of JavaScript strings, the
// lists sorted by UTF-16 code units, messages made facts by JavaScript's regular expressions (keyFact).
import { Sink } from "./util/sink";
import { Char, isDigit, isHex } from "./util/chars";
import { Verdict } from "./model";

/** Writes v's streak key (UTF-8) to out. */
export function writeStreakKey(out: Sink, v: Verdict): void {
  let errs = new Array<string>(0);
  let ds = v.diagnostics;
  for (let i = 0; i < ds.length; i++) {
    let d = ds[i];
    if (d.severity != "error") continue;
    // the label is part of what an error says (two E0308 "mismatched types" differ by it)
    errs.push(orNull(d.file) + ":" + orEmpty(d.code) + ":" + d.message + ":" + orEmpty(d.label));
  }
  let fails = new Array<string>(0);
  let t = v.tests;
  if (t !== null) for (let i = 0; i < t.failures.length; i++) fails.push(t.failures[i].name + ":" + keyFact(t.failures[i].message));
  out.byte(Char.LBRACKET);
  jsonString(out, v.status);
  out.byte(Char.COMMA);
  let c = v.crash;
  jsonString(out, c === null ? null : orNull(c.identity) + ":" + keyFact(c.message) + ":" + orEmpty(c.region));
  out.byte(Char.COMMA);
  jsonList(out, errs);
  out.byte(Char.COMMA);
  jsonList(out, fails);
  out.byte(Char.RBRACKET);
}

/** A template literal's `${s}`. */
function orNull(s: string | null): string { return s === null ? "null" : s; }
/** `${s ?? ''}`. */
function orEmpty(s: string | null): string { return s === null ? "" : s; }

/**
 * Array.prototype.sort's default order: by UTF-16 code units (AssemblyScript's string `<`). A merge sort
 * written out: a comparator passed to Array.sort would give the module a function table, which the Python
 * binding's wasm2c runtime does not provide.
 */
function sortByUnits(a: Array<string>): void {
  let n = a.length;
  if (n < 2) return;
  let b = new Array<string>(n);
  for (let w = 1; w < n; w <<= 1) {
    for (let lo = 0; lo < n; lo += w << 1) {
      let mid = min(lo + w, n), hi = min(lo + (w << 1), n);
      let i = lo, j = mid, k = lo;
      while (i < mid && j < hi) b[k++] = a[j] < a[i] ? a[j++] : a[i++];
      while (i < mid) b[k++] = a[i++];
      while (j < hi) b[k++] = a[j++];
    }
    for (let k = 0; k < n; k++) a[k] = b[k];
  }
}

function jsonList(out: Sink, items: Array<string>): void {
  sortByUnits(items);
  out.byte(Char.LBRACKET);
  for (let i = 0; i < items.length; i++) {
    if (i > 0) out.byte(Char.COMMA);
    jsonString(out, items[i]);
  }
  out.byte(Char.RBRACKET);
}

const HEX = "0123456789abcdef";

/** s as JSON.stringify writes it: \b \t \n \f \r, other controls and lone surrogates as \u00xx / \udxxx. */
function jsonString(out: Sink, s: string | null): void {
  if (s === null) { out.str("null"); return; }
  out.byte(Char.QUOTE);
  let n = s.length;
  let start = 0;
  for (let i = 0; i < n; i++) {
    let c = s.charCodeAt(i);
    let lone = (c & 0xF800) == 0xD800; // a surrogate, and not of a pair (a pair is passed over whole)
    if (lone && (c & 0xFC00) == 0xD800 && i + 1 < n && (s.charCodeAt(i + 1) & 0xFC00) == 0xDC00) { i++; continue; }
    if (!lone && c >= Char.SPACE && c != Char.QUOTE && c != Char.BACKSLASH) continue;
    if (i > start) out.str(s.substring(start, i));
    start = i + 1;
    if (c == Char.QUOTE) out.str("\\\"");
    else if (c == Char.BACKSLASH) out.str("\\\\");
    else if (c == Char.BS) out.str("\\b");
    else if (c == Char.TAB) out.str("\\t");
    else if (c == Char.LF) out.str("\\n");
    else if (c == Char.FF) out.str("\\f");
    else if (c == Char.CR) out.str("\\r");
    else {
      out.str("\\u");
      for (let k = 12; k >= 0; k -= 4) out.byte(HEX.charCodeAt((c >> k) & 15));
    }
  }
  if (start == 0) out.str(s); else if (start < n) out.str(s.substring(start));
  out.byte(Char.QUOTE);
}

/**
 * A message as a fact for the key, as the host first computed it with regular expressions, in their order:
 * /0[xX][0-9a-fA-F]+/g → `0x#`, /(^|[ (])T\d+/g → `$1T#`, /pid=\d+/g → `pid=#`, /\s+/g → ` `, then trim().
 * (The delta's own factText, delta-facts.ts, reads the same facts in one pass and is not bound to this.)
 */
export function keyFact(s: string | null): string {
  if (s === null) return "";
  let n = s.length;
  if (!changes(s, n)) return s;
  let a = new Array<i32>(0);
  for (let i = 0; i < n; i++) { // 0[xX][0-9a-fA-F]+
    let c = s.charCodeAt(i);
    if (c == Char._0 && i + 2 < n && (s.charCodeAt(i + 1) | 0x20) == Char.x && isHex(s.charCodeAt(i + 2))) {
      a.push(Char._0); a.push(Char.x); a.push(Char.HASH);
      i += 2;
      while (i + 1 < n && isHex(s.charCodeAt(i + 1))) i++;
    } else a.push(c);
  }
  let b = new Array<i32>(0);
  n = a.length;
  for (let i = 0; i < n; i++) { // (^|[ (])T\d+
    let c = a[i];
    if (c == Char.T && (i == 0 || a[i - 1] == Char.SPACE || a[i - 1] == Char.LPAREN) && i + 1 < n && isDigit(a[i + 1])) {
      b.push(Char.T); b.push(Char.HASH);
      i++;
      while (i + 1 < n && isDigit(a[i + 1])) i++;
    } else b.push(c);
  }
  a.length = 0;
  n = b.length;
  for (let i = 0; i < n; i++) { // pid=\d+
    if (b[i] == Char.p && i + 4 < n && b[i + 1] == Char.i && b[i + 2] == Char.d && b[i + 3] == Char.EQ && isDigit(b[i + 4])) {
      a.push(Char.p); a.push(Char.i); a.push(Char.d); a.push(Char.EQ); a.push(Char.HASH);
      i += 4;
      while (i + 1 < n && isDigit(b[i + 1])) i++;
    } else a.push(b[i]);
  }
  // \s+ as one space, then trim(): a blank run between two other characters is one space, none at the ends.
  let r = new Array<i32>(0);
  n = a.length;
  let blank = false;
  for (let i = 0; i < n; i++) {
    let c = a[i];
    if (jsSpace(c)) { blank = true; continue; }
    if (blank && r.length > 0) r.push(Char.SPACE);
    blank = false;
    r.push(c);
  }
  return String.fromCharCodes(r);
}

/** Whether keyFact changes s: a blank other than one space between two other characters, or a lead of a number it hides. */
function changes(s: string, n: i32): bool {
  for (let i = 0; i < n; i++) {
    let c = s.charCodeAt(i);
    if (c == Char.SPACE) {
      if (i == 0 || i == n - 1 || jsSpace(s.charCodeAt(i + 1))) return true;
    } else if (jsSpace(c)) return true;
    else if (i + 1 < n && ((c == Char._0 && (s.charCodeAt(i + 1) | 0x20) == Char.x) || ((c == Char.T || c == Char.EQ) && isDigit(s.charCodeAt(i + 1))))) return true;
  }
  return false;
}

/** JavaScript's \s (and trim()'s white space and line terminators). */
function jsSpace(c: i32): bool {
  if (c < 0x80) return c == Char.SPACE || (c >= Char.TAB && c <= Char.CR);
  return c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000 || c == 0xFEFF;
}
