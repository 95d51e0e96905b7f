// The text a crash state takes from an assertion or CHECK report: the condition without the values it
// printed, and a source file without its directory or line. Shared by the parsers that name a state's head
// themselves (Crash.stateHead) and crash-state.ts.
import { Char } from "./util/chars";

/**
 * What failed, without what it printed beside it: `Check failed: ` off the front, the compared values of a
 * CHECK_EQ (`len > 0 (-1 vs. 0)` -> `len > 0`, also Android's `CHECK_EQ(a,b) failed: 25 vs. 1`), a quoted
 * value after ':' or '=' at the end, and trailing dots, spaces, quotes and brackets.
 */
export function checkCondition(msg: string): string {
  let s = msg;
  if (s.startsWith("Check failed: ")) s = s.substring(14);
  let vs = s.indexOf(" vs. ");
  if (vs < 0) vs = s.indexOf(" vs.\t");
  if (vs > 0) {
    let failed = s.lastIndexOf("failed: ", vs);
    let open = s.indexOf(" (");
    if (open > vs) open = -1;
    if (failed >= 0 && (open < 0 || failed > open)) s = s.substring(0, failed + 6);
    else if (open > 0) s = s.substring(0, open);
  }
  s = withoutQuotedTail(s);
  return trimPunct(s);
}

/** `dir/file.cc:12`, `..\\..\\v8\\src\\objects-debug.cc`, `file.cc(243)` -> the file's name alone; "" when none. */
export function sourceBase(where: string): string {
  let s = trimPunct(where);
  let colon = s.indexOf(":");
  // a Windows drive letter ("c:\\src\\x.cc") is not a line number
  if (colon == 1 && s.length > 2 && (s.charCodeAt(2) == Char.BACKSLASH || s.charCodeAt(2) == Char.SLASH)) colon = s.indexOf(":", 2);
  if (colon >= 0) s = s.substring(0, colon);
  let paren = s.indexOf("(");
  if (paren >= 0) s = s.substring(0, paren);
  let i = max(s.lastIndexOf("/"), s.lastIndexOf("\\"));
  return i >= 0 ? s.substring(i + 1) : s;
}

/** s without a final `: 'value'`, `= "value"` (the same quote at both ends). */
function withoutQuotedTail(s: string): string {
  let n = s.length;
  if (n < 2) return s;
  let q = s.charCodeAt(n - 1);
  if (q != Char.APOS && q != Char.QUOTE) return s;
  // the opening quote must follow ':' or '=' (with spaces between)
  for (let i = 0; i < n - 1; i++) {
    if (s.charCodeAt(i) != q) continue;
    let k = i - 1;
    while (k >= 0 && s.charCodeAt(k) == Char.SPACE) k--;
    if (k >= 0 && (s.charCodeAt(k) == Char.COLON || s.charCodeAt(k) == Char.EQ)) {
      let e = k;
      while (e > 0 && s.charCodeAt(e - 1) == Char.SPACE) e--;
      return s.substring(0, e);
    }
  }
  return s;
}

function isPunct(c: i32): bool {
  return c == Char.SPACE || c == Char.DOT || c == Char.APOS || c == Char.QUOTE || c == Char.LBRACKET || c == Char.RBRACKET;
}

/** s without leading and trailing spaces, dots, quotes and brackets. */
export function trimPunct(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && isPunct(s.charCodeAt(a))) a++;
  while (b > a && isPunct(s.charCodeAt(b - 1))) b--;
  return s.substring(a, b);
}
