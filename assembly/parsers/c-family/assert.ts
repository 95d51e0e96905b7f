// Failed assertions and CHECKs, the messages a program prints just before it aborts:
//   glibc  `prog: main.c:6: int checked_div(int, int): Assertion `b != 0' failed.`
//   musl   `Assertion failed: b != 0 (main.c: checked_div: 6)`
//   glib   `ERROR:main.c:7:count_fields: assertion failed (n == 3): (2 == 3)` (and its `Bail out! ` copy)
//   glog / absl `F1202 02:49:26.759384 26650 main.cc:4] Check failed: den != 0 (0 vs. 0) ...`, then
//          `*** Check failure stack trace: ***` and `    @     0x7f..  google::LogMessage::Fail()` frames;
//          also `F0812 .. logging.cc:89] assert.h assertion failed at path.cc:380 in Foo: cond`
//   Chromium `[1:1:1202/024926.759:FATAL:parser.cc(12)] Check failed: n < 4.` (or `Assert failed: ..`), then
//          base's stack: `#3 0x7f48b4856ef4 ui::LatencyInfo::AddLatency()` (Linux), ` ui::Foo [0x61C2+20]
//          (base\debug\x.cc:215)` after `Backtrace:` (Windows)
//   libc++ `.../include/c++/v1/vector:559: assertion !full() failed: called on an empty vector`, before 15
//          `.../include/c++/v1/vector:1440: _LIBCPP_ASSERT '__n < size()' failed. vector[] index out of bounds`
//   libstdc++ (`-D_GLIBCXX_ASSERTIONS`, on in many distributions' hardened builds) `/usr/include/c++/12/bits/
//          stl_vector.h:1123: std::vector<..>::reference std::vector<..>::operator[](size_type) [with ..]:
//          Assertion '__n < this->size()' failed.` (glibc's shape with plain quotes and no program name)
// and, as a crash only when an abort report follows (Facts.pendingCrash): WebKit's `ASSERTION FAILED: cond`,
// a log line's `...] assert failure: cond` / `...] panic: not reached` (Envoy), glib's
// `func: assertion 'cond' failed` (g_return_if_fail, which only warns unless criticals are fatal).
// The crash is tool "assert", kind "assertion-failed" or "check-failed", the message the assertion's text,
// the frame the assertion's location. abort() follows: when a sanitizer or libFuzzer then reports the
// ABRT with a symbolized stack, that stack replaces this one (Crash.stackless, Facts.lendStack).
import { Char, isDigit } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts, Frame, Crash, MAX_FRAMES } from "../../model";
import { Parser } from "../../parser";
import { ByteSet } from "../../util/byte-set";
import { setLocation, classify, parseSanFrame } from "../../frames";
import { checkCondition, sourceBase, trimPunct } from "../../state-text";
import { demangle } from "../../demangle";
import { LibstdcxxDebugReport } from "./libstdcxx-debug";
import { DiagContext } from "../diag-context";

const GLIBC_TAIL = " failed.";
const GLIBC_MARK = ": Assertion `";
const LIBSTDCXX_MARK = ": Assertion '";
const MUSL_HEAD = "Assertion failed: ";
const GLIB_MARK = "ERROR:";
const BAIL_OUT = "Bail out! ";
const CHECK_MARK = "] Check failed: ";
/** Blink's SECURITY_CHECK / SECURITY_DCHECK: "[..:FATAL:Serialization.cpp(238)] Security CHECK failed: cond." */
const SECURITY_CHECK_MARK = "] Security CHECK failed: ";
const SECURITY_DCHECK_MARK = "] Security DCHECK failed: ";
const GLOG_TRACE = "*** Check failure stack trace: ***";
const GOOGLE_ASSERT = "] assert.h assertion failed at ";
const CHROME_ASSERT = "] Assert failed: ";
const WEBKIT_ASSERT = "ASSERTION FAILED: ";
const LIBCXX_ASSERT = "assertion ";
const LIBCXX_FAILED = " failed: ";
const LIBCXX14_MARK = ": _LIBCPP_ASSERT '";
const LIBCXX14_FAILED = "' failed.";
const GLIB_RETURN = ": assertion '";
const GLIB_ASSERTION = "assertion failed: ";
const DCHECK_MARK = "] DCHECK failed: ";
const NOTREACHED_MARK = "] NOTREACHED hit.";
const V8_ERROR_MARK = "] V8 error: ";
/** Lines of prose a stack may follow its assertion by (a message's second line, `Backtrace:`). */
const TRACE_LEAD = 2;
/** What a sanitizer glues to the end of the last line before its report (`...valueAddressSanitizer:DEADLYSIGNAL`). */
const DEADLYSIGNAL = "Sanitizer:DEADLYSIGNAL";

/**
 * At rest (no stack being read) every shape claim() takes holds a ':' (glog's `] assert.h assertion failed at`
 * needs its `: ` too, googleAssert; the `]`-only early exit lets nothing else through): no key, colonStarts.
 */
const STARTS = new ByteSet();

@final
export class AssertParser extends Parser {
  /** Reading the stack printed after an assertion into this crash (null: the crash is another's). */
  private trace: Crash | null = null;
  /** After an assertion: the lines that may be its stack are claimed. */
  private tracing: bool = false;
  private traceFrames: i32 = 0;
  private traceLead: i32 = 0;
  /** libstdc++'s debug-mode report (-D_GLIBCXX_DEBUG), over several lines. */
  private debug: LibstdcxxDebugReport = new LibstdcxxDebugReport();
  /** make's (and ninja's) directory: glibc's relative `__FILE__` is the compiler's path, relative to it. */
  private ctx: DiagContext | null;

  constructor(ctx: DiagContext | null = null) { super(); this.ctx = ctx; }

  busy(): bool { return this.tracing || this.debug.busy(); }
  atRest(): bool { return !this.tracing && !this.debug.busy(); }
  starts(): ByteSet | null { return STARTS; }
  colonStarts(): bool { return true; }

  finish(f: Facts): void { this.stopTrace(); this.debug.finish(f); }

  claim(l: Line, f: Facts): bool {
    if (this.debug.busy() || (l.at(0) == Char.SLASH && l.at(l.len - 1) == Char.COLON)) {
      if (this.debug.claim(l, f)) return true;
    }
    if (this.tracing) {
      if (this.traceLine(l)) return true;
      if (this.traceFrames > 0 || --this.traceLead < 0) this.stopTrace();
    }
    // Every shape below holds a ':' (a glog/Chromium "] assert.h .." line a ']'): most lines have neither.
    let bracket = l.indexOfByte(Char.RBRACKET) >= 0;
    if (!bracket && l.indexOfByte(Char.COLON) < 0) return false;
    let last = l.at(l.len - 1);
    if (last == Char.DOT && l.endsWith(GLIBC_TAIL)) {
      if (l.indexOf(GLIBC_MARK) > 0) return this.glibc(l, f);
      let a = l.indexOf(LIBSTDCXX_MARK);
      if (a > 0 && l.at(l.len - GLIBC_TAIL.length - 1) == Char.APOS) return this.libstdcxx(l, a, f);
    }
    if (last == Char.RPAREN && l.startsWith(MUSL_HEAD)) return this.musl(l, f);
    let g = l.startsWith(BAIL_OUT) ? BAIL_OUT.length : 0;
    if (l.matchAt(GLIB_MARK, g)) return this.glib(l, g + GLIB_MARK.length, f, g > 0);
    // a log domain in front: "GLib:ERROR:../glib/gvariant-parser.c:709:ast_array_get_pattern: assertion failed: (j < i)"
    let dom = glibDomain(l, g);
    if (dom > 0) return this.glib(l, dom + GLIB_MARK.length, f, g > 0);
    // The glog and Chromium marks all begin with ']'.
    let k = bracket ? l.indexOf(CHECK_MARK) : -1;
    if (k > 0) return this.check(l, k, f, "check-failed");
    k = bracket ? l.indexOf(SECURITY_CHECK_MARK) : -1;
    if (k > 0) return this.check(l, k, f, "security-check-failed");
    k = bracket ? l.indexOf(SECURITY_DCHECK_MARK) : -1;
    if (k > 0) return this.check(l, k, f, "security-dcheck-failed");
    k = bracket ? l.indexOf(GOOGLE_ASSERT) : -1;
    if (k > 0) return this.googleAssert(l, k, f);
    if (l.at(0) == Char.LBRACKET && l.indexOf(":FATAL:") > 0) {
      // Chromium's other fatal log lines: "[..:FATAL:latency_info.cc(299)] DCHECK failed: !terminated_.",
      // "[..:FATAL:url_idna_icu.cc(58)] NOTREACHED hit. msg", "[..:FATAL:v8_initializer.cc(716)] V8 error: msg."
      k = l.indexOf(DCHECK_MARK);
      if (k > 0) return this.chromeFatal(l, k, DCHECK_MARK.length, f, "check-failed", true);
      k = l.indexOf(NOTREACHED_MARK);
      if (k > 0) return this.chromeFatal(l, k, NOTREACHED_MARK.length, f, "check-failed", false);
      k = l.indexOf(V8_ERROR_MARK);
      if (k > 0) return this.chromeFatal(l, k, V8_ERROR_MARK.length, f, "v8-api-error", false);
    }
    if (l.at(0) == Char.F) {
      k = glogFatalEnd(l);
      if (k > 0) return this.googleFatal(l, k, f);
    }
    k = bracket ? l.indexOf(CHROME_ASSERT) : -1;
    if (k > 0 && l.lastIndexOf(":FATAL:", k) >= 0) return this.chromeAssert(l, k, f);
    if (l.startsWith(WEBKIT_ASSERT)) return this.weak(l, WEBKIT_ASSERT.length, l.len, f);
    if (l.at(0) == Char.LBRACKET) {
      k = logKeyword(l);
      if (k > 0) return this.weak(l, k, l.len, f);
    }
    // libc++ before 15: `/usr/lib/llvm-14/bin/../include/c++/v1/vector:1440: _LIBCPP_ASSERT '__n < size()' failed.
    // vector[] index out of bounds` (-D_LIBCPP_DEBUG=0), at the header's absolute path.
    if (l.at(0) == Char.SLASH) {
      k = l.indexOf(LIBCXX14_MARK);
      if (k > 0) {
        let e = l.indexOf(LIBCXX14_FAILED, k + LIBCXX14_MARK.length);
        if (e > 0 && this.libcxx14(l, k, e, f)) return true;
      }
    }
    k = l.indexOf(LIBCXX_ASSERT);
    if (k > 0 && (l.at(k - 1) == Char.COLON || l.matchAt(": ", k - 2))) {
      let e = l.indexOf(LIBCXX_FAILED, k);
      if (e > 0) return this.libcxx(l, k, e, f);
    }
    if (last == Char.d && l.endsWith("' failed")) {
      k = l.indexOf(GLIB_RETURN);
      if (k > 0) return this.weak(l, k + GLIB_RETURN.length, l.len - 8, f);
    }
    return false;
  }

  private stopTrace(): void {
    this.tracing = false;
    this.trace = null;
    this.traceFrames = 0;
  }

  /** After an assertion: its stack, if one follows, goes into crash (null: only claimed). */
  private startTrace(c: Crash | null): void {
    this.tracing = true;
    this.trace = c;
    this.traceFrames = 0;
    this.traceLead = TRACE_LEAD;
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
    // `../../tests/t.c` from a test that make (`Entering directory './_build/tests'`) or ninja (meson's
    // `build/`) ran where its compiler ran: the path of the file under the log's root.
    let cx = this.ctx;
    if (cx !== null && fr.file !== null && !fr.file!.startsWith("/")) fr.file = cx.resolve(fr.file!);
    if (j >= 0) fr.fn = bareName(rest.substring(j + 2));
    this.report(f, "assertion-failed", l.trimmed(at + 2), fr, l.trimmed(0));
    return true;
  }

  /** libstdc++'s `file:line: function: Assertion 'cond' failed.`, the mark at a. */
  private libstdcxx(l: Line, a: i32, f: Facts): bool {
    let sep = l.indexOf(": ");
    if (sep <= 0 || sep >= a) return false;
    let fr = new Frame();
    if (!setLocation(fr, l.str(0, sep))) return false;
    fr.fn = bareName(l.str(sep + 2, a));
    this.report(f, "assertion-failed", l.trimmed(a + 2), fr, l.trimmed(0));
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
    // g_assert(): "assertion failed: (j < i)" says the condition after its colon
    if (l.matchAt(GLIB_ASSERTION, msgAt)) this.head(f, l.trimmed(msgAt + GLIB_ASSERTION.length));
    return true;
  }

  /** glog/absl "... file.cc:4] Check failed: ..." and Chromium "[..:FATAL:file.cc(12)] Check failed: ...". */
  private check(l: Line, k: i32, f: Facts, kind: string): bool {
    let s = k;
    while (s > 0) {
      let c = l.at(s - 1);
      if (c == Char.SPACE || c == Char.LBRACKET || (c == Char.COLON && l.at(k - 1) == Char.RPAREN)) break;
      s--;
    }
    let loc = l.str(s, k);
    // "[0424/050845.358008:FATAL:base/feature_list.cc:467]": the location is what follows FATAL:
    let fatal = loc.lastIndexOf("FATAL:");
    if (fatal >= 0) loc = loc.substring(fatal + 6);
    let fr = new Frame();
    let open = loc.lastIndexOf("(");
    if (open > 0 && loc.endsWith(")")) {
      // Chromium: "parser.cc(12)"
      if (!setLocation(fr, loc.substring(0, open) + ":" + loc.substring(open + 1, loc.length - 1))) return false;
    } else if (!setLocation(fr, loc)) {
      return false;
    }
    this.report(f, kind, l.trimmed(k + 2), fr, l.trimmed(0));
    return true;
  }

  /** glog's "F0812 .. logging.cc:89] assert.h assertion failed at file/path.cc:380 in Foo: cond". */
  private googleAssert(l: Line, k: i32, f: Facts): bool {
    let at = k + GOOGLE_ASSERT.length;
    let inAt = l.indexOf(" in ", at);
    if (inAt < 0) return false;
    let colon = l.indexOf(": ", inAt + 4);
    if (colon < 0) return false;
    let fr = new Frame();
    if (!setLocation(fr, l.str(at, inAt))) return false;
    fr.fn = l.str(inAt + 4, colon);
    this.report(f, "assertion-failed", l.trimmed(colon + 2), fr, l.trimmed(0));
    this.head(f, l.trimmed(colon + 2));
    return true;
  }

  /**
   * Chromium's fatal log line at k ("] DCHECK failed: cond.", "] NOTREACHED hit. msg", "] V8 error: msg."): a crash
   * of kind, its state head the condition (cut at "; ", where Chromium's newer DCHECKs start their message) and
   * the file when `located`, else the message alone.
   */
  private chromeFatal(l: Line, k: i32, mark: i32, f: Facts, kind: string, located: bool): bool {
    if (!this.check(l, k, f, kind)) return false;
    let msg = l.trimmed(k + mark);
    let text = located ? checkCondition(msg) : trimPunct(msg);
    if (located) {
      let semi = text.indexOf("; ");
      if (semi > 0) text = text.substring(0, semi);
    }
    if (text.length == 0) text = trimPunct(l.str(k + 2, k + mark));
    let c = f.crash;
    if (c !== null && c.tool == "assert" && c.stackless && c.stateHead === null && c.summary == l.trimmed(0)) {
      let fr = c.frames.length > 0 ? c.frames[0] : null;
      let file = fr !== null && fr.file !== null ? sourceBase(fr.file!) : "";
      c.stateHead = [located && file.length > 0 ? text + " in " + file : text];
    }
    return true;
  }

  /**
   * glog/absl LOG(FATAL): "F1110 15:37:25.280898 2384071 fuzzer.cc:220] INTERNAL: Found a difference" (a
   * CHECK's line is check()'s); k is where "] " is. A fatal error: its state starts "message in fuzzer.cc"
   * (the file alone when the message is empty).
   */
  private googleFatal(l: Line, k: i32, f: Facts): bool {
    let s = l.lastIndexOfByte(Char.SPACE, k) + 1;
    let fr = new Frame();
    if (!setLocation(fr, l.str(s, k))) return false;
    let msg = l.trimmed(k + 2);
    this.report(f, "fatal-error", msg, fr, l.trimmed(0));
    let c = f.crash;
    if (c !== null && c.tool == "assert" && c.stackless && c.stateHead === null && c.summary == l.trimmed(0)) {
      let text = checkCondition(msg);
      let file = sourceBase(l.str(s, k));
      c.stateHead = [text.length > 0 ? text + " in " + file : file];
    }
    return true;
  }

  /** Chromium's "[..:FATAL:correctness_fuzzer.cc(51)] Assert failed: cond. Message." */
  private chromeAssert(l: Line, k: i32, f: Facts): bool {
    let fr = new Frame();
    let s = l.lastIndexOf(":FATAL:", k) + 7;
    let loc = l.str(s, k);
    let open = loc.lastIndexOf("(");
    if (open > 0 && loc.endsWith(")")) setLocation(fr, loc.substring(0, open) + ":" + loc.substring(open + 1, loc.length - 1));
    else setLocation(fr, loc);
    let msg = l.trimmed(k + CHROME_ASSERT.length);
    this.report(f, "assertion-failed", msg, fr, l.trimmed(0));
    this.head(f, msg);
    return true;
  }

  /** libc++'s "…/include/c++/v1/vector:559: assertion !full() failed: called on an empty vector". */
  private libcxx(l: Line, k: i32, e: i32, f: Facts): bool {
    let locEnd = l.at(k - 1) == Char.COLON ? k - 1 : k - 2;
    // A path holds no `: `: `Error: example.c:51: assertion failed: ..` is a log line's (µnit's test
    // failure, under its `[ ERROR ]` line), not libc++'s `.../vector:559: assertion !full() failed: ..`.
    let colonSpace = l.indexOf(": ");
    if (colonSpace >= 0 && colonSpace < locEnd) return false;
    let fr = new Frame();
    if (!setLocation(fr, l.trimmed(0, locEnd))) return false;
    let msg = withoutDeadlySignal(l.trimmed(e + LIBCXX_FAILED.length));
    this.report(f, "assertion-failed", l.str(k, e + 7) + ": " + msg, fr, l.trimmed(0));
    this.head(f, msg);
    return true;
  }

  /**
   * libc++ 14's "…/include/c++/v1/vector:1440: _LIBCPP_ASSERT '__n < size()' failed. vector[] index out of bounds":
   * read as 15's "assertion __n < size() failed: vector[] index out of bounds", so one check reads the same in both.
   */
  private libcxx14(l: Line, k: i32, e: i32, f: Facts): bool {
    let colonSpace = l.indexOf(": ");
    if (colonSpace < k) return false;
    let fr = new Frame();
    if (!setLocation(fr, l.trimmed(0, k))) return false;
    let cond = l.str(k + LIBCXX14_MARK.length, e);
    let msg = withoutDeadlySignal(l.trimmed(e + LIBCXX14_FAILED.length));
    this.report(f, "assertion-failed", "assertion " + cond + " failed" + (msg.length > 0 ? ": " + msg : ""), fr, l.trimmed(0));
    this.head(f, msg.length > 0 ? msg : cond);
    return true;
  }

  /** An assertion that is a crash only if an abort report follows; its text is [a, b). */
  private weak(l: Line, a: i32, b: i32, f: Facts): bool {
    let msg = withoutDeadlySignal(l.trimmed(a, b));
    if (msg.length == 0) return false;
    let c = new Crash();
    c.tool = "assert";
    c.kind = "assertion-failed";
    c.summary = l.trimmed(0);
    c.message = msg;
    c.stateHead = [msg];
    c.stackless = true;
    if (f.crash === null && f.pendingCrash === null) f.pendingCrash = c;
    this.startTrace(null);
    return true;
  }

  /** The state of the crash just reported starts with text (what the assertion says, not its location). */
  private head(f: Facts, text: string): void {
    let c = f.crash;
    if (c !== null && c.tool == "assert" && c.stackless && c.summary !== null && c.stateHead === null) c.stateHead = [text];
  }

  /**
   * A line of the stack an assertion printed: glog's title and "    @     0x7f08d965d1ed  google::LogMessage::Fail()",
   * base's "#3 0x7f48b4856ef4 ui::LatencyInfo::Add()" (or "<unknown>"), a sanitizer-style "#0 0x.. in f file:3",
   * Windows' "Backtrace:" and "\tui::Foo::Bar [0x61C20814+20] (base\\x.cc:215)".
   */
  private traceLine(l: Line): bool {
    let p = skipUnicodeSpaces(l, l.skipSpaces(0));
    let c0 = l.at(p);
    if (c0 == Char.STAR) return l.startsWith(GLOG_TRACE);
    if (c0 == Char.B && p == 0) return l.startsWith("Backtrace:") && l.len <= 11;
    let fr: Frame | null = null;
    if (c0 == Char.AT && p > 0) {
      let q = l.skipSpaces(p + 1);
      if (!l.matchAt("0x", q)) return false;
      fr = new Frame();
      fr.fn = l.trimmed(l.skipSpaces(l.skipHex(q + 2)));
      classify(fr);
    } else if (c0 == Char.HASH) {
      fr = parseSanFrame(l);
      if (fr === null) return false;
      if (fr.fn !== null && fr.fn! == "<unknown>") { fr.fn = null; classify(fr); }
    } else if (p > 0) {
      fr = windowsFrame(l, p);
      if (fr === null) return false;
    } else if (isDigit(c0)) {
      fr = macFrame(l);
      if (fr === null) return false;
    } else {
      return false;
    }
    this.traceFrames++;
    let t = this.trace;
    if (t !== null && t.frames.length < MAX_FRAMES) {
      fr.index = t.frames.length;
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
    let mine = f.crash === null;
    f.setCrash(c);
    f.lastAssert = c;
    this.startTrace(mine ? c : null);
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

/**
 * The start of an assertion's text in a log line that opens with "[...]" fields and names a source location
 * before it: `[2018-05-17 07:01:35][1][critical][assert] source/x.cc:87] assert failure: cond` (also
 * `panic: `, `ASSERT FAILED: `, `assertion failed: `); -1 when the line is no such thing.
 */
function logKeyword(l: Line): i32 {
  let close = l.lastIndexOf("] ");
  if (close < 0) return -1;
  let p = close + 2;
  let kw = ["assert failure: ", "panic: ", "ASSERT FAILED: ", "assertion failed: ", "ASSERTION FAILED: ", "Assertion failed: "];
  for (let i = 0; i < kw.length; i++) if (l.matchAt(kw[i], p)) return p + kw[i].length;
  return -1;
}

/**
 * A macOS stack line (backtrace_symbols' form, Chromium's base on Mac):
 * "2   Content Shell Framework   0x000000010cbf477a _ZN2ui10FlingCurveC2ERKN3gfx9Vector2dFEN4base9TimeTicksE + 698":
 * index, image (words), address, symbol (demangled when it can be), " + " decimal offset. "0x0 + 4866466759" is no symbol.
 */
function macFrame(l: Line): Frame | null {
  let p = 0;
  while (isDigit(l.at(p))) p++;
  if (l.at(p) != Char.SPACE) return null;
  let a = l.indexOf(" 0x", p);
  let plus = l.lastIndexOf(" + ", l.len);
  if (a < 0 || plus < a) return null;
  for (let i = plus + 3; i < l.len; i++) if (!isDigit(l.at(i))) return null;
  let s = l.skipHex(a + 3);
  if (s == a + 3 || l.at(s) != Char.SPACE) return null;
  let fr = new Frame();
  let sym = l.trimmed(s, plus);
  if (sym.length > 0 && !sym.startsWith("0x")) {
    let d = demangle(sym);
    fr.fn = d !== null ? d : sym;
  }
  let image = l.trimmed(p, a);
  if (image.length > 0 && image != "???") fr.module = image;
  classify(fr);
  return fr;
}

/** A Windows stack line of Chromium's base: "\tui::Foo::Bar [0x61C20814+20] (base\\x.cc:215)", "(No symbol) [0x..]". */
function windowsFrame(l: Line, p: i32): Frame | null {
  let b = l.indexOf(" [0x", p);
  if (b < 0) return null;
  let close = l.indexOfByte(Char.RBRACKET, b);
  if (close < 0) return null;
  let fr = new Frame();
  let name = l.trimmed(p, b);
  if (name != "(No symbol)" && name.length > 0) fr.fn = name;
  let open = l.indexOfByte(Char.LPAREN, close);
  if (open > 0 && l.at(l.len - 1) == Char.RPAREN) setLocation(fr, l.str(open + 1, l.len - 1));
  classify(fr);
  return fr;
}

/**
 * Where "ERROR:" starts after a g_log domain ("GLib:ERROR:", "GLib-GIO:ERROR:"), from p; -1 when the line has no
 * such prefix (a domain is letters, digits, '-' and '_').
 */
function glibDomain(l: Line, p: i32): i32 {
  let e = p;
  while (e < l.len) {
    let c = l.at(e);
    if (!((c >= Char.A && c <= Char.Z) || (c >= Char.a && c <= Char.z) || (c >= Char._0 && c <= Char._9) || c == Char.MINUS || c == Char.UNDERSCORE)) break;
    e++;
  }
  if (e == p || l.at(e) != Char.COLON || !l.matchAt(GLIB_MARK, e + 1)) return -1;
  return e + 1;
}

function withoutDeadlySignal(s: string): string {
  let i = s.indexOf(DEADLYSIGNAL);
  if (i < 0) return s;
  let names = ["HWAddress", "Address", "UndefinedBehavior", "Memory", "Thread", "Leak"];
  for (let k = 0; k < names.length; k++) {
    let n = names[k];
    if (i >= n.length && s.substring(i - n.length, i) == n) return s.substring(0, i - n.length).trimStart().trimEnd();
  }
  return s;
}

/** Past spaces written as UTF-8 (U+2000..U+200A, U+00A0) at p: some logs indent a stack with them. */
function skipUnicodeSpaces(l: Line, p: i32): i32 {
  while (true) {
    if (l.at(p) == 0xE2 && l.at(p + 1) == 0x80 && l.at(p + 2) >= 0x80 && l.at(p + 2) <= 0x8A) p += 3;
    else if (l.at(p) == 0xC2 && l.at(p + 1) == 0xA0) p += 2;
    else if (l.at(p) == Char.SPACE || l.at(p) == Char.TAB) p++;
    else return p;
  }
  return p;
}

/**
 * Where the "] " of a glog FATAL line's prefix is ("F1110 15:37:25.280898 2384071 path/file.cc:220] "), or
 * -1: F, four digits, a time hh:mm:ss.frac, a thread id, then file:line.
 */
function glogFatalEnd(l: Line): i32 {
  let p = 1;
  for (let i = 0; i < 4; i++, p++) if (!isDigit(l.at(p))) return -1;
  if (l.at(p) != Char.SPACE) return -1;
  p = l.skipSpaces(p);
  for (let i = 0; i < 8; i++, p++) {
    let c = l.at(p);
    if ((i == 2 || i == 5) ? c != Char.COLON : !isDigit(c)) return -1;
  }
  if (l.at(p) != Char.DOT || !isDigit(l.at(p + 1))) return -1;
  p++;
  while (isDigit(l.at(p))) p++;
  if (l.at(p) != Char.SPACE) return -1;
  p = l.skipSpaces(p);
  if (!isDigit(l.at(p))) return -1;
  while (isDigit(l.at(p))) p++;
  if (l.at(p) != Char.SPACE) return -1;
  p = l.skipSpaces(p);
  let end = l.indexOf("] ", p);
  let sp = l.indexOfByte(Char.SPACE, p);
  if (end <= p || (sp >= 0 && sp < end)) return -1;
  return end;
}
