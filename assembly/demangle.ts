// C++ names as a log printed them mangled (the Itanium ABI: macOS's backtrace_symbols, `_ZN2ui10FlingCurveC2ERKN3gfx9
// Vector2dFEN4base9TimeTicksE`), read back into the qualified name a symbolizer prints (`ui::FlingCurve::FlingCurve`),
// without the parameter list, which is all a crash state and a frame's function keep. Only plain names are read:
// source names, `std::`, the anonymous namespace, constructors and destructors. A name with template arguments,
// substitutions, operators or ABI tags stays as printed (null): a wrong name would be worse than a mangled one.
import { Char, isDigit } from "./util/chars";
import { join } from "./util/join";

export function demangle(s: string): string | null {
  let p = s.startsWith("__Z") ? 3 : s.startsWith("_Z") ? 2 : -1;
  if (p < 0 || p >= s.length) return null;
  let parts = new Array<string>(0);
  let nested = s.charCodeAt(p) == Char.N;
  if (nested) {
    p++;
    // a member function's cv- and ref-qualifiers
    while (p < s.length && isQualifier(s.charCodeAt(p))) p++;
  }
  if (s.startsWith("St", p)) { parts.push("std"); p += 2; }
  while (p < s.length) {
    let c = s.charCodeAt(p);
    if (isDigit(c)) {
      let n = 0;
      while (p < s.length && isDigit(s.charCodeAt(p))) { n = n * 10 + (s.charCodeAt(p) - Char._0); p++; }
      if (n == 0 || p + n > s.length) return null;
      let id = s.substring(p, p + n);
      parts.push(id.startsWith("_GLOBAL__N") ? "(anonymous namespace)" : id);
      p += n;
    } else if (nested && parts.length > 0 && (c == Char.C || c == Char.D) && p + 1 < s.length) {
      let k = s.charCodeAt(p + 1);
      let last = parts[parts.length - 1];
      if (c == Char.C && k >= Char._1 && k <= Char._0 + 5) parts.push(last);
      else if (c == Char.D && k >= Char._0 && k <= Char._0 + 5) parts.push("~" + last);
      else return null;
      p += 2;
    } else {
      break;
    }
    if (!nested) break;
  }
  if (parts.length == 0) return null;
  if (nested) {
    if (p >= s.length || s.charCodeAt(p) != Char.E) return null;
  } else if (p < s.length && !isParameterStart(s.charCodeAt(p))) {
    return null;
  }
  return join(parts, "::");
}

/** r, V, K (restrict, volatile, const) and R, O (& and && qualifiers) before a nested name's first part. */
function isQualifier(c: i32): bool {
  return c == Char.r || c == Char.V || c == Char.K || c == Char.R || c == Char.O;
}

/** What may follow a plain function's name: its parameter types (a builtin's letter, a name, a pointer). */
function isParameterStart(c: i32): bool {
  return (c >= Char.a && c <= Char.z) || c == Char.N || c == Char.P || c == Char.R || c == Char.K || c == Char.S || isDigit(c);
}
