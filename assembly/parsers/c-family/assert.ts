// Failed assertions and CHECKs, the messages a program prints just before it aborts:
//   glibc  `prog: main.c:6: int checked_div(int, int): Assertion `b != 0' failed.`
//   musl   `Assertion failed: b != 0 (main.c: checked_div: 6)`
//   glib   `ERROR:main.c:7:count_fields: assertion failed (n == 3): (2 == 3)` (and its `Bail out! ` copy)
//   glog / absl `F1202 02:49:26.759384 26650 main.cc:4] Check failed: den != 0 (0 vs. 0) ...`, then
//          `*** Check failure stack trace: ***` and `    @     0x7f..  google::LogMessage::Fail()` frames
//   Chromium `[1:1:1202/024926.759:FATAL:parser.cc(12)] Check failed: n < 4.`
// The crash is tool "assert", kind "assertion-failed" or "check-failed", the message the assertion's text,
// the frame the assertion's location. abort() follows: when a sanitizer or libFuzzer then reports the
// ABRT with a symbolized stack, that stack replaces this one (Crash.stackless, Facts.lendStack).
import { Char } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts, Frame, Crash, MAX_FRAMES } from "../../model";
import { Parser } from "../../parser";
import { setLocation, classify } from "../../frames";

const GLIBC_TAIL = "' failed.";
const GLIBC_MARK = ": Assertion `";
const MUSL_HEAD = "Assertion failed: ";
const GLIB_MARK = "ERROR:";
const BAIL_OUT = "Bail out! ";
const CHECK_MARK = "] Check failed: ";
const GLOG_TRACE = "*** Check failure stack trace: ***";

@final
export class AssertParser extends Parser {
  /** Reading glog's "@ 0x.. fn" frames into this crash (null: not in a trace, or the crash is another's). */
  private trace: Crash | null = null;
  private inTrace: bool = false;

  busy(): bool { return this.inTrace; }

  finish(f: Facts): void { this.inTrace = false; this.trace = null; }

  claim(l: Line, f: Facts): bool {
    if (this.inTrace) {
      if (this.traceLine(l)) return true;
      this.inTrace = false;
      this.trace = null;
    }
    let last = l.at(l.len - 1);
    if (last == Char.DOT && l.endsWith(GLIBC_TAIL)) return this.glibc(l, f);
    if (last == Char.RPAREN && l.startsWith(MUSL_HEAD)) return this.musl(l, f);
    let g = l.startsWith(BAIL_OUT) ? BAIL_OUT.length : 0;
    if (l.matchAt(GLIB_MARK, g)) return this.glib(l, g + GLIB_MARK.length, f, g > 0);
    let k = l.indexOf(CHECK_MARK);
    if (k > 0) return this.check(l, k, f);
    return false;
  }

  private glibc(l: Line, f: Facts): bool {
    let at = l.indexOf(GLIBC_MARK);
    if (at < 0) return false;
    // "prog: main.c:6: checked_div" -> program, location, function (the function part may be absent).
    let head = l.str(0, at);
    let i = head.indexOf(": ");
    if (i < 0) return false;
    let rest = head.substring(i + 2);
    let j = rest.indexOf(": ");
    let fr = new Frame();
    if (!setLocation(fr, j >= 0 ? rest.substring(0, j) : rest)) return false;
    if (j >= 0) fr.fn = bareName(rest.substring(j + 2));
    this.report(f, "assertion-failed", l.trimmed(at + 2), fr, l.trimmed(0));
    return true;
  }

  private musl(l: Line, f: Facts): bool {
    let open = l.lastIndexOf(" (");
    if (open < 0) return false;
    // "(main.c: checked_div: 6)"
    let inner = l.str(open + 2, l.len - 1);
    let a = inner.indexOf(": ");
    let b = inner.lastIndexOf(": ");
    if (a < 0 || b <= a) return false;
    let fr = new Frame();
    if (!setLocation(fr, inner.substring(0, a) + ":" + inner.substring(b + 2))) return false;
    fr.fn = inner.substring(a + 2, b);
    this.report(f, "assertion-failed", l.trimmed(0, open), fr, l.trimmed(0));
    return true;
  }

  /** glib's "ERROR:file:line:func: message" from p (after "ERROR:"); a "Bail out! " copy is only claimed. */
  private glib(l: Line, p: i32, f: Facts, copy: bool): bool {
    let sep = l.indexOf(": ", p);
    if (sep < 0) return false;
    let msgAt = sep + 2;
    if (!l.matchAt("assertion failed", msgAt) && !l.matchAt("code should not be reached", msgAt)) return false;
    if (copy) return true;
    let head = l.str(p, sep);
    let c = head.lastIndexOf(":");
    if (c <= 0) return false;
    let fr = new Frame();
    if (!setLocation(fr, head.substring(0, c))) return false;
    fr.fn = head.substring(c + 1);
    this.report(f, "assertion-failed", l.trimmed(msgAt), fr, l.trimmed(0));
    return true;
  }

  /** glog/absl "... file.cc:4] Check failed: ..." and Chromium "[..:FATAL:file.cc(12)] Check failed: ...". */
  private check(l: Line, k: i32, f: Facts): bool {
    let s = k;
    while (s > 0) {
      let c = l.at(s - 1);
      if (c == Char.SPACE || c == Char.LBRACKET || (c == Char.COLON && l.at(k - 1) == Char.RPAREN)) break;
      s--;
    }
    let loc = l.str(s, k);
    let fr = new Frame();
    let open = loc.lastIndexOf("(");
    if (open > 0 && loc.endsWith(")")) {
      // Chromium: "parser.cc(12)"
      if (!setLocation(fr, loc.substring(0, open) + ":" + loc.substring(open + 1, loc.length - 1))) return false;
    } else if (!setLocation(fr, loc)) {
      return false;
    }
    this.report(f, "check-failed", l.trimmed(k + 2), fr, l.trimmed(0));
    if (f.crash !== null && f.crash!.tool == "assert" && f.crash!.kind == "check-failed") this.trace = f.crash;
    this.inTrace = true;
    return true;
  }

  /** glog's trace: its title, then "    @     0x7f08d965d1ed  google::LogMessage::Fail()". */
  private traceLine(l: Line): bool {
    if (l.startsWith(GLOG_TRACE)) return true;
    let p = l.skipSpaces(0);
    if (l.at(p) != Char.AT || p == 0) return false;
    p = l.skipSpaces(p + 1);
    if (!l.matchAt("0x", p)) return false;
    let t = this.trace;
    if (t !== null && t.frames.length < MAX_FRAMES) {
      let fr = new Frame();
      fr.fn = l.trimmed(l.skipSpaces(l.skipHex(p + 2)));
      fr.index = t.frames.length;
      classify(fr);
      // Only the name is known: no file, no line. Mark it user by name alone (classify wants a file).
      t.frames.push(fr);
    }
    return true;
  }

  private report(f: Facts, kind: string, msg: string, frame: Frame, summary: string): void {
    frame.index = 0;
    classify(frame);
    let c = new Crash();
    c.tool = "assert";
    c.kind = kind;
    c.summary = summary;
    c.message = msg;
    c.stackless = true;
    c.frames.push(frame);
    f.setCrash(c);
  }
}

/**
 * The function's name from a pretty signature (`int parse_header(const char *, size_t)` -> `parse_header`,
 * `void ns::Foo<int>::bar() const` -> `ns::Foo<int>::bar`); a bare name is returned as it is.
 */
export function bareName(sig: string): string {
  let open = -1;
  let depth = 0;
  for (let i = 0; i < sig.length; i++) {
    let c = sig.charCodeAt(i);
    if (c == Char.LT) depth++;
    else if (c == Char.GT) depth--;
    else if (c == Char.LPAREN && depth == 0) {
      // "operator()(int)": the name's own parentheses come first
      if (i > 8 && sig.substring(i - 8, i) == "operator" && i + 1 < sig.length && sig.charCodeAt(i + 1) == Char.RPAREN) { i++; continue; }
      open = i; break;
    }
  }
  let name = open > 0 ? sig.substring(0, open) : sig;
  // Drop the return type: the last space outside template brackets.
  depth = 0;
  let cut = -1;
  for (let i = name.length - 1; i >= 0; i--) {
    let c = name.charCodeAt(i);
    if (c == Char.GT) depth++;
    else if (c == Char.LT) depth--;
    else if (c == Char.SPACE && depth == 0) { cut = i; break; }
  }
  name = cut >= 0 ? name.substring(cut + 1) : name;
  while (name.startsWith("*") || name.startsWith("&")) name = name.substring(1);
  return name.length > 0 ? name : sig;
}
