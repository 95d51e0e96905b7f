// Helpers the test-runner parsers share: failures by name, frame-text locations, crash-from-exit, and the
// check that lets a busy runner block hand sanitizer/UBSan lines back to the parsers that own them.
import { Char, isDigit } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts, Tests, TestFailure, Frame, MAX_FAILURES, signalCrash } from "../../model";
import { classify, normPath, setLocation } from "../../frames";
import { join } from "../../util/join";
import { DiagContext } from "../diag-context";

/** The failure called name (the latest one), added when there is none yet. */
export function failureNamed(t: Tests, name: string): TestFailure {
  let fs = t.failures;
  for (let i = fs.length - 1; i >= 0; i--) if (unchecked(fs[i]).name == name) return unchecked(fs[i]);
  let f = new TestFailure();
  f.name = name;
  if (fs.length < MAX_FAILURES) fs.push(f);
  return f;
}

/**
 * The failure of test name in unit pkg (go's package, cargo's crate; "": not known), made when there is none:
 * two units' tests of the same name are two failures.
 */
export function failureIn(t: Tests, name: string, pkg: string): TestFailure {
  let fs = t.failures;
  for (let i = fs.length - 1; i >= 0; i--) {
    let f = unchecked(fs[i]);
    if (f.name == name && pkgOr(f) == pkg) return f;
  }
  let f = new TestFailure();
  f.name = name;
  if (pkg.length > 0) f.pkg = pkg;
  if (fs.length < MAX_FAILURES) fs.push(f);
  return f;
}

/** A new failure of a test file that failed outside its tests (did not load, threw), named by its path, its unit too. */
export function fileFailureOf(t: Tests, path: string): TestFailure {
  let f = new TestFailure();
  f.name = path;
  f.pkg = path;
  if (t.failures.length < MAX_FAILURES) t.failures.push(f);
  return f;
}

export function pkgOr(f: TestFailure): string { let p = f.pkg; return p !== null ? p! : ""; }

export function hasFailure(t: Tests, name: string): bool {
  let fs = t.failures;
  for (let i = fs.length - 1; i >= 0; i--) if (unchecked(fs[i]).name == name) return true;
  return false;
}

/** True when a source path belongs to the user (not a runtime, stdlib, node_modules...). */
export function isUserFile(file: string): bool {
  let fr = new Frame();
  fr.file = file;
  classify(fr);
  return fr.user;
}

/**
 * A frame from "fn (file:line:col)", "file:line:col", "fn file:line:col" (vitest) or a Python
 * `File "x.py", line N, in fn`. Returns null when the text names no file and line.
 */
export function frameOfText(s: string): Frame | null {
  let t = s.trimStart().trimEnd();
  if (t.startsWith("at ")) t = t.substring(3).trimStart().trimEnd();
  if (t.startsWith("async ")) t = t.substring(6);
  let fn: string | null = null;
  let loc = t;
  if (t.endsWith(")")) {
    let open = t.lastIndexOf("(");
    if (open < 0) return null;
    loc = t.substring(open + 1, t.length - 1);
    fn = t.substring(0, open).trimStart().trimEnd();
  } else {
    let sp = t.lastIndexOf(" ");
    if (sp > 0) { fn = t.substring(0, sp).trimStart().trimEnd(); loc = t.substring(sp + 1); }
  }
  if (loc.startsWith("file://")) loc = loc.substring(7);
  let f = new Frame();
  if (!setLocation(f, loc) || f.file === null || f.file!.length == 0) return null;
  if (fn !== null && fn!.length > 0) f.fn = fn;
  classify(f);
  return f;
}

/** `File "./x.py", line 6, in fn` (traceback) or `File "./x.py", line 6 in fn` (faulthandler). */
export function pyFrame(l: Line, from: i32 = 0): Frame | null {
  let p = l.skipSpaces(from);
  if (!l.matchAt("File \"", p)) return null;
  let q = l.indexOfByte(Char.QUOTE, p + 6);
  if (q < 0) return null;
  let f = new Frame();
  f.file = normPath(l.str(p + 6, q));
  let at = l.indexOf(", line ", q);
  if (at < 0) return null;
  let n = l.readInt(at + 7);
  if (n < 0) return null;
  f.line = <i32>n;
  let inAt = l.indexOf("in ", l.end);
  if (inAt >= 0) f.fn = l.trimmed(inAt + 3);
  classify(f);
  return f;
}

/**
 * The signal a run died of: the one given, the shell's 128+N exit code, or a signal crash the log reported
 * (make's `[Makefile:2: test] Floating point exception`).
 */
export function runSignal(f: Facts): string | null {
  let s = f.exit.signalOrShellExit();
  if (s !== null) return s;
  let c = f.crash;
  return c !== null && c.tool == "signal" ? c.kind : null;
}

/**
 * The run was killed by the host's timeout: timed out, ended by a kill signal (SIGKILL, SIGTERM: not a fault of
 * its own), and kind (null: the exit's) is that signal.
 */
export function hostTimeoutKill(f: Facts, kind: string | null): bool {
  let e = f.exit;
  let s = e.signal;
  if (!e.timedOut || s === null) return false;
  if (kind !== null && kind! != s!) return false;
  return s! == "SIGKILL" || s! == "SIGTERM";
}

/**
 * Records that the runner died mid-suite: a signal crash unless a report of its own is already there.
 * A signal crash the log already named (make's line) gains what the runner knows: the test that was running.
 */
export function crashMidSuite(f: Facts, kind: string | null, summary: string): void {
  // The host's own timeout killed the run (its signal, nothing the log reports itself): no crash of the
  // program's, as settleExit() decides for a signal with no report; the status says timeout.
  if (hostTimeoutKill(f, kind)) return;
  let c = f.crash;
  if (c !== null) {
    if (c.tool == "signal") c.message = c.message !== null ? summary + " · " + c.message! : summary;
    return;
  }
  let k = kind;
  if (k === null) k = f.exit.signalOrShellExit();
  if (k === null) return;
  f.setCrash(signalCrash(k!, summary));
}

/** A signal named in words by Python's faulthandler or a shell ("Aborted", "Segmentation fault"). */
export function signalOfWords(s: string): string | null {
  if (s.includes("Abort")) return "SIGABRT";
  if (s.includes("Segmentation")) return "SIGSEGV";
  if (s.includes("Floating point")) return "SIGFPE";
  if (s.includes("Bus error")) return "SIGBUS";
  if (s.includes("Illegal instruction")) return "SIGILL";
  return null;
}

/**
 * Lines a busy runner block must not swallow: sanitizer reports (`==123==ERROR`, `#0 0x...` frames,
 * `SUMMARY:`), UBSan `runtime error:` lines, TSan `WARNING:`, make's `make: *** [..]` line. The dispatcher then
 * offers them to everyone.
 */
export function foreignLine(l: Line): bool {
  let p = l.skipSpaces(0);
  let c = l.at(p);
  if (c == Char.EQ) return l.at(p + 1) == Char.EQ && isDigit(l.at(p + 2));
  if (c == Char.HASH) return isDigit(l.at(p + 1)) && l.indexOf(" 0x", p) > 0;
  if (c == Char.S) return l.matchAt("SUMMARY: ", p);
  if (c == Char.W) return l.matchAt("WARNING: ThreadSanitizer", p);
  // make's `make: *** [Makefile:2: test] Floating point exception`: the test binary under it is gone.
  if (c == Char.m && p == 0 && l.matchAt("make", 0)) {
    let k = l.indexOf(": *** ", 4);
    return k > 0 && k < 12;
  }
  // UBSan: `file.c:12:5: runtime error: ...` (a digit before it; Go's `panic: runtime error:` is not one)
  let r = l.indexOf(": runtime error: ");
  if (r > 0 && isDigit(l.at(r - 1))) return true;
  // glibc's assert(): `prog: src/binary.cpp:73: fn: Assertion `cond' failed.`, the program aborting inside the
  // running test (yaml-cpp's suite under gtest and ctest): the assertion is the run's crash, not test output.
  // libstdc++'s (-D_GLIBCXX_ASSERTIONS) the same with plain quotes and the header's path first:
  // `/usr/include/c++/12/bits/stl_vector.h:1123: ...operator[](size_type) [with ..]: Assertion '__n < this->size()' failed.`
  if (l.at(l.len - 1) == Char.DOT && l.endsWith("' failed.") && (l.indexOf(": Assertion `") > 0 || l.indexOf(": Assertion '") > 0)) return true;
  // libc++'s checks, at the header's path: `/usr/lib/llvm-14/include/c++/v1/vector:1440: _LIBCPP_ASSERT '__n <
  // size()' failed. vector[] index out of bounds` (libc++ 14), `...: assertion __n < size() failed: ...` (15+).
  if (c == Char.SLASH && p == 0) return l.indexOf(": _LIBCPP_ASSERT '") > 0 || (l.indexOf(": assertion ") > 0 && l.indexOf(" failed: ") > 0);
  // An uncaught C++ exception: libstdc++'s `terminate called after throwing an instance of 'X'`, libc++abi's
  // `libc++abi: terminating with uncaught exception of type X: what` (rigtorp/MPMCQueue's test under ctest).
  if (p == 0 && c == Char.t) return l.matchAt("terminate called ", 0);
  if (p == 0 && c == Char.l) return l.matchAt("libc++abi: terminating", 0);
  return false;
}

/**
 * Strips the indent the lines share (blank ones aside): a multi-line message keeps its own indentation (a
 * diff's nesting, a caret under its column) without the runner's margin.
 */
export function dedent(lines: string[]): void {
  let min = 1 << 30;
  for (let i = 0; i < lines.length; i++) {
    let s = lines[i];
    let k = 0;
    while (k < s.length && s.charCodeAt(k) == Char.SPACE) k++;
    if (k < s.length && k < min) min = k;
  }
  if (min == 0 || min == 1 << 30) return;
  for (let i = 0; i < lines.length; i++) lines[i] = lines[i].length > min ? lines[i].substring(min) : lines[i].trimStart().trimEnd();
}

/** A line without its trailing spaces, its leading ones kept. */
export function rightTrimmed(l: Line): string {
  let e = l.len;
  while (e > 0 && (l.at(e - 1) == Char.SPACE || l.at(e - 1) == Char.TAB)) e--;
  return l.str(0, e);
}

/** Joins up to max message lines. */
export function joinLines(parts: string[], max: i32): string {
  if (parts.length > max) parts = parts.slice(0, max);
  return join(parts, "\n");
}

/** Reads "N word" pairs ("4 failed, 6 passed", "3 failed | 3 passed"): the count before word, or -1. */
export function countBefore(s: string, word: string): i64 {
  let at = 0;
  while (true) {
    let i = s.indexOf(" " + word, at);
    if (i < 0) return -1;
    let e = i + 1 + word.length;
    let endOk = e >= s.length || !isAlnum(s.charCodeAt(e));
    let j = i;
    while (j > 0 && isDigit(s.charCodeAt(j - 1))) j--;
    if (endOk && j < i && (j == 0 || !isAlnum(s.charCodeAt(j - 1)))) return I64.parseInt(s.substring(j, i));
    at = i + 1;
  }
}

/** One part of a runner's totals line: `3 failures`. */
export class Counted {
  n: i64 = 0;
  word: string = "";
}

/**
 * A totals line of comma-separated counts (`7 runs, 5 assertions, 3 failures, 1 errors, 1 skips`; RSpec's `9
 * examples, 5 failures, 2 pending`): each part's count and the words after it, or null when a part is not digits,
 * a blank and words.
 */
export function countedParts(s: string): Array<Counted> | null {
  let parts = s.split(", ");
  let out = new Array<Counted>(0);
  for (let i = 0; i < parts.length; i++) {
    let q = parts[i];
    let sp = q.indexOf(" ");
    if (sp <= 0) return null;
    for (let k = 0; k < sp; k++) if (!isDigit(q.charCodeAt(k))) return null;
    let c = new Counted();
    c.n = I64.parseInt(q.substring(0, sp));
    c.word = q.substring(sp + 1);
    out.push(c);
  }
  return out;
}

function isAlnum(c: i32): bool {
  return isDigit(c) || <u32>((c | 0x20) - Char.a) < 26;
}

/** The UTF-8 bytes of s, for matching non-ASCII marks (✔ ● ❯) in a Line (matchAt compares ASCII only). */
export function utf8(s: string): ArrayBuffer { return String.UTF8.encode(s); }

/** True when the bytes b occur in l at pos. */
export function matchBytes(l: Line, b: ArrayBuffer, pos: i32): bool {
  let n = b.byteLength;
  if (pos < 0 || pos + n > l.len) return false;
  let q = changetype<usize>(b);
  for (let i = 0; i < n; i++) if (load<u8>(l.ptr + <usize>(pos + i)) != load<u8>(q + <usize>i)) return false;
  return true;
}

/** `/w/test/x.test.js`, `test/y.test.mjs`: a path (no blank, a `/`) ending in a JavaScript or TypeScript file's extension. */
export function isScriptPath(name: string): bool {
  if (name.includes(" ") || !name.includes("/")) return false;
  let dot = name.lastIndexOf(".");
  if (dot < 0 || dot < name.lastIndexOf("/")) return false;
  let ext = name.substring(dot + 1);
  return ext == "js" || ext == "mjs" || ext == "cjs" || ext == "ts" || ext == "mts" || ext == "cts" || ext == "jsx" || ext == "tsx";
}

/** `TypeError: msg`, `SyntaxError: msg`, `AssertionError [ERR_ASSERTION]: msg`: an error's own line. */
export function isErrorLine(s: string): bool {
  let colon = s.indexOf(": ");
  if (colon <= 0) return false;
  let head = s.substring(0, colon);
  let sp = head.indexOf(" ");
  if (sp >= 0) head = head.substring(0, sp);
  return head.endsWith("Error") || head.endsWith("Exception");
}

/** The test an error message names (`Test "t" at test/x.test.js:2:1 generated …`): its frame, or null. */
export function frameNamedIn(msg: string): Frame | null {
  let at = msg.indexOf(" at ");
  if (at < 0) return null;
  let rest = msg.substring(at + 4);
  let sp = rest.indexOf(" ");
  let fr = frameOfText(sp > 0 ? rest.substring(0, sp) : rest);
  return fr !== null && fr.user ? fr : null;
}

/**
 * JUnit's assertEquals message split into [expected, actual]: JUnit 4's `expected:<a> but was:<b>`, JUnit 5's
 * `expected: <a> but was: <b>`; null when the message is neither.
 */
export function junitValues(m: string): string[] | null {
  let e = m.indexOf("expected:<");
  let w = 10;
  let b = e >= 0 ? m.indexOf("> but was:<", e) : -1;
  let bw = 11;
  if (b < 0) {
    e = m.indexOf("expected: <"); w = 11;
    b = e >= 0 ? m.indexOf("> but was: <", e) : -1; bw = 12;
  }
  if (b <= 0 || !m.endsWith(">")) return null;
  return [m.substring(e + w, b), m.substring(b + bw, m.length - 1)];
}

/**
 * A test's captured output line (a harness's log of it: automake's test-suite.log, meson's --print-errorlogs):
 * glibc's `prog: ../tests/t.c:10: main: Assertion `n == 4' failed.` places the failure (the path resolved
 * through make's or ninja's directory, where the compiler ran) and is its message from `Assertion`. False
 * (t untouched) for any other line.
 */
export function assertionOf(s: string, t: TestFailure, ctx: DiagContext | null): bool {
  let at = s.indexOf(": Assertion `");
  if (at < 0 || !s.endsWith(" failed.")) return false;
  let i = s.indexOf(": ");
  if (i < 0 || i >= at) return false;
  let rest = s.substring(i + 2, at);
  let j = rest.indexOf(": ");
  let fr = new Frame();
  if (!setLocation(fr, j >= 0 ? rest.substring(0, j) : rest)) return false;
  let file = fr.file!;
  t.file = ctx !== null && !file.startsWith("/") ? ctx.resolve(file) : file;
  t.line = fr.line;
  t.message = s.substring(at + 2);
  return true;
}

/**
 * `./tests/test_array.c:7: empty array has nonzero size`: a test's output line that a hand-rolled check printed
 * as `__FILE__:__LINE__: message` (jansson's fail()). The position of its `: ` after the line number, or -1:
 * only a path with no space whose last part has a letters-only extension, then `:digits: `.
 */
export function placedLine(s: string): i32 {
  let k = s.indexOf(": ");
  if (k <= 0) return -1;
  let c = s.lastIndexOf(":", k - 1);
  if (c <= 0 || c == k - 1) return -1;
  for (let i = c + 1; i < k; i++) if (!isDigit(s.charCodeAt(i))) return -1;
  let dot = s.lastIndexOf(".", c);
  if (dot <= 0 || dot == c - 1 || dot < s.lastIndexOf("/", c)) return -1;
  for (let i = 0; i < c; i++) if (s.charCodeAt(i) == Char.SPACE) return -1;
  for (let i = dot + 1; i < c; i++) {
    let ch = s.charCodeAt(i);
    if (!((ch >= 0x61 && ch <= 0x7A) || (ch >= 0x41 && ch <= 0x5A))) return -1;
  }
  return k;
}

/** The place of a placedLine (k: its `: `), the path resolved through ctx when one is given. */
export function placeFrom(t: TestFailure, s: string, k: i32, ctx: DiagContext | null): void {
  let c = s.lastIndexOf(":", k - 1);
  let path = normPath(s.substring(0, c));
  t.file = ctx !== null && !path.startsWith("/") ? ctx.resolve(path) : path;
  t.line = I32.parseInt(s.substring(c + 1, k));
}

/**
 * A failing test's output held `file.c:25: message` among other lines (jansson's run-suites: `test_array.c...
 * FAILED`, then the check's own line): that line is its message (with the line after it when it ends in `:`, a
 * heading: libconfuse's `suite_list.c:54: test FAILED:` then `Failed test: ...`); its place only when the path names a
 * directory (a bare `test_array.c` is __FILE__ as some other directory's compiler saw it).
 */
export function placedMessage(t: TestFailure, s: string, ctx: DiagContext | null, next: string = ""): void {
  let k = placedLine(s);
  if (k <= 0) return;
  // A heading (`suite_list.c:54: test FAILED:`): the line after it says what failed (`Failed test: x == 4`).
  t.message = next.length > 0 && s.endsWith(":") ? s + "\n" + next : s;
  if (s.lastIndexOf("/", k) > 0) placeFrom(t, s, k, ctx);
}

/**
 * Where a Java test's failure is (JUnit 4's text runner, Gradle's FULL exception format): the innermost frame of its
 * exception in the test class's package (the code under test; the test's own line for a failed assertion), else,
 * in a cause or when none is, the test method's own frame.
 */
export class JavaPlace {
  /** The test method as its frames name it: `pkg.RatioTest.third(`. */
  private own: string = "";
  /** The test class's package ("" for the default package). */
  private pkg: string = "";
  /** Past the exception's own frames, in a `Caused by:`. */
  inCause: bool = false;
  /** Placed at a frame in the test's package (the test method's frame only places it for now). */
  placed: bool = false;

  /** A failure of method in class cls begins; placed: it is to be placed by no frame. */
  begin(cls: string, method: string, placed: bool): void {
    this.own = cls + "." + method + "(";
    let dot = cls.lastIndexOf(".");
    this.pkg = dot > 0 ? cls.substring(0, dot) : "";
    this.inCause = false;
    this.placed = placed;
  }

  /** `at ex.Ratio.halfUp(Ratio.java:11)`, its method from a (past `at `): may place tf. */
  frame(l: Line, a: i32, tf: TestFailure): void {
    if (this.placed) return;
    let open = l.indexOfByte(Char.LPAREN, a);
    let close = l.lastIndexOfByte(Char.RPAREN);
    if (open < 0 || close <= open) return;
    let inPackage = !this.inCause && this.samePackage(l, a, open);
    if (!inPackage && !(tf.file === null && l.matchAt(this.own, a))) return;
    let fr = new Frame();
    if (!setLocation(fr, l.str(open + 1, close)) || fr.file === null) return;
    tf.file = fr.file;
    tf.line = fr.line;
    if (inPackage) this.placed = true;
  }

  /** Whether the frame's method [a, open) (`pkg.Cls.method`, `pkg.Cls$1.run`) is in a class of the test's package. */
  private samePackage(l: Line, a: i32, open: i32): bool {
    let cls = l.lastIndexOfByte(Char.DOT, open);
    if (cls < a) return false;
    let pkg = this.pkg;
    if (pkg.length == 0) return l.indexOfByte(Char.DOT, a) == cls; // the default package: `Ratio.percent`
    if (!l.matchAt(pkg, a) || l.at(a + pkg.length) != Char.DOT) return false;
    return l.indexOfByte(Char.DOT, a + pkg.length + 1) == cls;
  }
}

/** Lines of a doctest's `Expected:` or `Got:` section kept to find where they differ. */
const MAX_DOC_LINES = 256;

/**
 * A doctest's expected and actual output, line by line (each without the section's indent), or the two sides of
 * its `Differences (unified diff …)` / `(ndiff …)` block: what a failure shows is the first line where they differ
 * (a table whose first rule is the same on both sides differs on a later row), not each side's first line.
 */
export class DocOutput {
  expected: string[] = [];
  got: string[] = [];
  /** A diff block's first `-` (expected) and `+` (actual) lines. */
  diffExpected: string | null = null;
  diffGot: string | null = null;

  add(got: bool, v: string): void {
    let a = got ? this.got : this.expected;
    if (a.length < MAX_DOC_LINES) a.push(v);
  }

  /** A line of a `Differences (…):` block, its indent at p: `-x` / `+x` (unified), `- x` / `+ x` (ndiff). */
  diffLine(l: Line, p: i32): void {
    let c = l.at(p);
    if (c != Char.MINUS && c != Char.PLUS) return;
    let d = l.at(p + 1);
    if (d == c && l.at(p + 2) == c) return; // `--- ` / `+++ ` file headers
    let s = p + 1;
    if (d == Char.SPACE) s++;
    let v = l.str(s, l.len);
    if (c == Char.MINUS) { if (this.diffExpected === null) this.diffExpected = v; }
    else if (this.diffGot === null) this.diffGot = v;
  }

  any(): bool { return this.expected.length > 0 || this.got.length > 0 || this.diffExpected !== null || this.diffGot !== null; }

  /** The expected side at the first line where the two differ (the first line when none does), or null. */
  firstExpected(): string | null {
    if (this.diffExpected !== null || this.diffGot !== null) return this.diffExpected;
    let i = this.differsAt();
    return i < this.expected.length ? this.expected[i] : this.expected.length > 0 ? "" : null;
  }

  firstGot(): string | null {
    if (this.diffExpected !== null || this.diffGot !== null) return this.diffGot;
    let i = this.differsAt();
    return i < this.got.length ? this.got[i] : this.got.length > 0 ? "" : null;
  }

  private differsAt(): i32 {
    let a = this.expected; let b = this.got;
    let n = min(a.length, b.length);
    for (let i = 0; i < n; i++) if (a[i] != b[i]) return i;
    return a.length == b.length ? 0 : n;
  }
}

/**
 * Ruby's NameError / NoMethodError before 3.3 inspects its receiver: `undefined method `x' for #<Greeter:0x00007f…
 * @name="Ada">`. Its address and instance variables differ from object to object, the failure does not: the
 * receiver is cut to its class (`for #<Greeter>`); any other text is kept as it is.
 */
export function rubyReceiverCut(s: string): string {
  let k = s.indexOf(" for #<");
  if (k < 0) return literalReceiverCut(s);
  let a = k + 7;
  let c = s.indexOf(":0x", a);
  if (c <= a) return s;
  let cls = s.substring(a, c);
  if (cls.includes(" ")) return s;
  return s.substring(0, a) + cls + ">";
}

/**
 * Before 3.3 a NoMethodError's receiver that is a value is inspected too, its class after a colon: `undefined method
 * `lastt' for ["A", "B"]:Array` — one test's array is not another's. Cut to the class as Ruby 3.4 words it (`for an
 * instance of Array`); nil, true, false and a class or module receiver (`for Foo:Class`) are kept.
 */
function literalReceiverCut(s: string): string {
  // After its class or not (test-unit's and minitest's `NoMethodError: undefined method …`, RSpec's bare).
  let u = s.startsWith("NoMethodError: ") ? 15 : s.startsWith("NameError: ") ? 11 : 0;
  if (!s.startsWith("undefined method ", u) && !s.startsWith("undefined local variable or method ", u)) return s;
  let k = s.indexOf(" for ");
  if (k < 0) return s;
  let c = s.lastIndexOf(":");
  while (c > k && s.charCodeAt(c - 1) == Char.COLON) c = s.lastIndexOf(":", c - 2);
  if (c <= k + 5) return s;
  let cls = s.substring(c + 1);
  if (!isConstPath(cls) || cls == "Class" || cls == "Module") return s;
  let v = s.substring(k + 5, c);
  if (v == "nil" || v == "true" || v == "false") return s;
  return s.substring(0, k) + " for an instance of " + cls;
}

/** `Array`, `Dry::Inflector`, `JSON::ParserError`: a Ruby constant's path. */
export function isConstPath(s: string): bool {
  if (s.length == 0) return false;
  let c0 = s.charCodeAt(0);
  if (c0 < Char.A || c0 > Char.Z) return false;
  for (let i = 1; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (!(isDigit(c) || (c >= Char.A && c <= Char.Z) || (c >= Char.a && c <= Char.z) || c == Char.UNDERSCORE || c == Char.COLON)) return false;
  }
  return true;
}

/**
 * Python's line between two chained exceptions, as the word the earlier one's line is kept under: "while handling: "
 * (`During handling of the above exception, another exception occurred:`), "caused by: " (`The above exception was
 * the direct cause of the following exception:`); null for any other line. The failure is the chain's last exception.
 */
export function chainWord(l: Line): string | null {
  let c = l.at(0);
  if (c == Char.D && l.startsWith("During handling of the above exception")) return "while handling: ";
  if (c == Char.T && l.startsWith("The above exception was the direct cause")) return "caused by: ";
  return null;
}

/**
 * A traceback's exception as a failure's message: the lines of its first paragraph (msg, up to its first blank),
 * at most 4, the last of them the earlier exception of a chain (chainedFrom) when there is one.
 */
export function exceptionMessage(msg: string[], chainedFrom: string | null): string {
  let parts = new Array<string>(0);
  for (let i = 0; i < msg.length && parts.length < 4; i++) {
    if (msg[i].length == 0) break;
    parts.push(msg[i]);
  }
  if (chainedFrom !== null) {
    if (parts.length > 3) parts = parts.slice(0, 3);
    parts.push(chainedFrom);
  }
  return joinLines(parts, 4);
}

/**
 * bats' place of a failure: `(in test file wc.bats, line 14)`, or ` in test file test/exec.bats, line 20)` closing
 * the helper calls above it. Sets t's file and line; false when s is not that.
 */
export function batsLocation(t: TestFailure, s: string): bool {
  let k = s.startsWith("(in test file ") ? 14 : s.startsWith("in test file ") ? 13 : 0;
  if (k == 0) return false;
  let at = s.lastIndexOf(", line ");
  if (at < k) return false;
  let e = at + 7;
  let n = e;
  while (n < s.length && isDigit(s.charCodeAt(n))) n++;
  if (n == e) return false;
  t.file = normPath(s.substring(k, at));
  t.line = I32.parseInt(s.substring(e, n));
  return true;
}

/** bats' helper call above a failure's test-file line: `(from function `flunk' in file test_helper.bash, line 33,`. */
export function batsFrame(s: string): bool {
  return s.endsWith(",") && (s.startsWith("(from function `") || s.startsWith("from function `"));
}

/** A bats pretty name without -T's time in ms after it (`joins words [77]`). */
export function batsUntimed(name: string): string {
  let n = name.length;
  if (n < 5 || name.charCodeAt(n - 1) != Char.RBRACKET) return name;
  let k = n - 2;
  while (k > 0 && isDigit(name.charCodeAt(k))) k--;
  return k < n - 2 && name.charCodeAt(k) == Char.LBRACKET && name.charCodeAt(k - 1) == Char.SPACE ? name.substring(0, k - 1) : name;
}
