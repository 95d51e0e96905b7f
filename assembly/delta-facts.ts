// What the delta compares beyond names and frames: whether a test that still fails fails the same way, whether
// a crash in the same frame is the same crash, and whether a run got far enough for what it did not show to
// count as fixed. delta.ts uses these; they are apart because they are about facts, not about matching.
import { Char, isDigit, isHex, isIdent } from "./util/chars";
import { Crash, Diagnostic, TestFailure, Tests, Verdict } from "./model";

/** A failure or crash line this many lines away from the earlier one is still at the same place. */
export const LINE_SLACK: i64 = 3;
/** A message quoted in the summary is cut to this many characters. */
const QUOTE_MAX = 72;

/**
 * A message as a fact: what moves between two runs of the same code reads as `#`: addresses (`0x7ffc…` as
 * `0x#`), a sanitizer's thread id (` T29567`), a process id (`pid=4242`); runs of blanks and line breaks read
 * as one space. Other numbers are kept: `index out of range [11] with length 11` and `[10] with length 10`
 * are two facts.
 */
export function factText(s: string | null): string {
  if (s === null) return "";
  let buf = new Array<i32>(0);
  let blank = false;
  let n = s.length;
  for (let i = 0; i < n; i++) {
    let c = s.charCodeAt(i);
    let prev = i > 0 ? s.charCodeAt(i - 1) : Char.SPACE;
    let hex = c == Char._0 && i + 2 < n && (s.charCodeAt(i + 1) | 0x20) == Char.x && isHex(s.charCodeAt(i + 2));
    let tid = c == Char.T && (prev == Char.SPACE || prev == Char.LPAREN) && i + 1 < n && isDigit(s.charCodeAt(i + 1));
    let pid = c == Char.EQ && i >= 3 && s.substring(i - 3, i) == "pid" && i + 1 < n && isDigit(s.charCodeAt(i + 1));
    if (hex || tid || pid) {
      // Keep the lead (`0x`, `T`, `=`), then one `#` for the digits after it.
      if (hex) { buf.push(Char._0); buf.push(Char.x); i += 2; } else { buf.push(c); i += 1; }
      buf.push(Char.HASH);
      while (i + 1 < n && (hex ? isHex(s.charCodeAt(i + 1)) : isDigit(s.charCodeAt(i + 1)))) i++;
      blank = false;
      continue;
    }
    let b = c == Char.SPACE || c == Char.TAB || c == Char.LF || c == Char.CR;
    if (b) { if (!blank && buf.length > 0) buf.push(Char.SPACE); }
    else buf.push(c);
    blank = b;
  }
  if (buf.length > 0 && buf[buf.length - 1] == Char.SPACE) buf.pop();
  return String.fromCharCodes(buf);
}

/** The first line of a message, cut to QUOTE_MAX characters. */
function quote(s: string | null): string {
  if (s === null) return "";
  let lf = s.indexOf("\n");
  let line = (lf >= 0 ? s.substring(0, lf) : s).trimStart().trimEnd();
  return line.length > QUOTE_MAX ? line.substring(0, QUOTE_MAX - 1) + "…" : line;
}

/** `…` and line's text from a little before d (where it first differs from another), cut to QUOTE_MAX. */
function excerpt(line: string, d: i32): string {
  let start = max(0, d - 24);
  let rest = line.substring(start);
  let cut = rest.length > QUOTE_MAX - 2 ? rest.substring(0, QUOTE_MAX - 3) + "…" : rest;
  return "…" + cut;
}

/** The index of the first line, past the first, whose fact text differs between a and b; -1 when none does. */
function firstDifferingLine(a: string, b: string): i32 {
  let la = a.split("\n"); let lb = b.split("\n");
  let n = max(la.length, lb.length);
  for (let i = 1; i < n; i++) {
    let x = i < la.length ? la[i] : ""; let y = i < lb.length ? lb[i] : "";
    if (factText(x) != factText(y)) return i;
  }
  return -1;
}

/** cut is one line ending in `...` (a runner's summary cut to the terminal's width) and full's first line goes on past what it kept. */
function cutOf(full: string, cut: string): bool {
  let n = cut.length;
  if (n < 8 || !cut.endsWith("...") || cut.indexOf("\n") >= 0) return false;
  let kept = cut.substring(0, n - 3);
  let first = lineAt(full, 0).trimStart();
  return first.length > kept.length && first.startsWith(kept);
}

/** `name (file:line): msg` → `name: msg`: a line without the place its head gives itself. */
function unplaced(q: string): string {
  let c = q.indexOf(": ");
  if (c < 2 || q.charCodeAt(c - 1) != Char.RPAREN) return q;
  let o = q.lastIndexOf(" (", c);
  if (o < 0) return q;
  let inner = q.substring(o + 2, c - 1);
  let k = inner.lastIndexOf(":");
  if (k <= 0 || k == inner.length - 1 || inner.indexOf(" ") >= 0) return q;
  for (let i = k + 1; i < inner.length; i++) if (!isDigit(inner.charCodeAt(i))) return q;
  return q.substring(0, o) + q.substring(c);
}

function lineAt(s: string, k: i32): string {
  let ls = s.split("\n");
  return k < ls.length ? ls[k] : "";
}

export function absDiff(a: i64, b: i64): i64 { return a > b ? a - b : b - a; }

function placeOf(f: TestFailure): string {
  let file = f.fileOr;
  if (file.length == 0) return "";
  return f.line >= 0 ? file + ":" + f.line.toString() : file;
}

/**
 * One test's file named from two roots: `diff_test.go` as go test prints it, `cmp/internal/diff/diff_test.go`
 * once a panic's frame in the same log showed where the module's root is (go-cmp: a nil-map panic in another
 * package's test): one path the other's tail after a `/`.
 */
function sameFile(a: string, b: string): bool {
  if (a == b) return true;
  let n = a.length; let m = b.length;
  if (n == 0 || m == 0 || n == m) return false;
  return n < m ? b.endsWith(a) && b.charCodeAt(m - n - 1) == Char.SLASH : a.endsWith(b) && a.charCodeAt(n - m - 1) == Char.SLASH;
}

/**
 * How a test that failed before and fails now changed: `FROM → TO`, or null when it fails the same way (the
 * same message, give or take addresses, in the same file within LINE_SLACK lines).
 */
export function failureChange(a: TestFailure, b: TestFailure): string | null {
  let sameMessage = factText(a.message) == factText(b.message);
  let samePlace = sameFile(a.fileOr, b.fileOr) && (a.line < 0 || b.line < 0 || absDiff(a.line, b.line) <= LINE_SLACK);
  if (sameMessage && samePlace) return null;
  // One run printed only the runner's one-line summary of the failure (pytest --tb=no: `FAILED t.py::x - RecursionError:
  // maximum re...`, no place): the same failure, cut, when the other's first line begins with what it kept.
  if ((a.fileOr.length == 0 || b.fileOr.length == 0 || samePlace) && (cutOf(a.message, b.message) || cutOf(b.message, a.message))) return null;
  let pa = placeOf(a); let pb = placeOf(b);
  let ma = quote(a.message); let mb = quote(b.message);
  // The same first line (jest's `expect(received).toBe(expected)`): the first line that differs says how. A
  // first line that only gained or lost the place of what it names (ctest's message of one inner failure is
  // `name: msg`, of several `name (file:line): msg` each) is the same line.
  let placed = ma != mb;
  if (!sameMessage && (ma == mb || unplaced(lineAt(a.message, 0).trimStart().trimEnd()) == unplaced(lineAt(b.message, 0).trimStart().trimEnd()))) {
    let k = firstDifferingLine(a.message, b.message);
    let qa = k >= 0 ? quote(lineAt(a.message, k)) : ""; let qb = k >= 0 ? quote(lineAt(b.message, k)) : "";
    if (qa.length > 0 && qb.length > 0) {
      ma = qa; mb = qb;
      // The line that differs is one of several failures: the test's place is the first one's, not its.
      if (placed && samePlace) return ma + " → " + mb;
    }
  }
  // Two long first lines that differ only past what a quote shows (pytest -vv's `assert {…} == {…}` of two dicts):
  // each quoted from a little before where they first differ.
  if (!sameMessage && ma == mb && ma.endsWith("…")) {
    let la = lineAt(a.message, 0).trimStart().trimEnd(); let lb = lineAt(b.message, 0).trimStart().trimEnd();
    let d = 0;
    let n = min(la.length, lb.length);
    while (d < n && la.charCodeAt(d) == lb.charCodeAt(d)) d++;
    if (la != lb && d >= QUOTE_MAX - 1) { ma = excerpt(la, d); mb = excerpt(lb, d); }
  }
  if (sameMessage) {
    let lead = "";
    if (ma.length > 0) lead = ma + " at ";
    return lead + pa + " → " + pb;
  }
  let from = pa.length > 0 && pa != pb ? ma + " at " + pa : ma;
  return from + " → " + mb + (pb.length > 0 ? " at " + pb : "");
}

function accessText(c: Crash): string {
  let a = c.access;
  let s = a !== null ? a : "";
  if (c.size >= 0) s += (s.length > 0 ? " " : "") + "of size " + c.size.toString();
  return s;
}

/**
 * How a crash of the same tool and kind in the same frame changed: `FROM → TO` for the first fact that
 * differs (the access and its size, where the address lies, the message), or null when none does.
 */
export function crashFactsChange(a: Crash, b: Crash): string | null {
  let aa = accessText(a); let ab = accessText(b);
  if (aa != ab) return a.kind + " " + (aa.length > 0 ? aa : "(no access)") + " → " + (ab.length > 0 ? ab : "(no access)");
  let ra = a.region; let rb = b.region;
  if (factText(ra) != factText(rb)) return a.kind + ", " + (ra !== null ? ra : "(no region)") + " → " + (rb !== null ? rb : "(no region)");
  if (factText(a.message) != factText(b.message)) {
    let ma = quote(a.message); let mb = quote(b.message);
    if (ma.length == 0) ma = a.kind;
    if (mb.length == 0) mb = b.kind;
    return ma + " → " + mb;
  }
  return null;
}

/**
 * Why a run could not have reached what an earlier run showed (a crash, a failing test), or null when it ran
 * to its end: it never started, the build failed before anything ran, it was stopped (timeout, Ctrl-C).
 * What such a run does not show is not fixed: it was not reached.
 */
export function unreachedBy(v: Verdict): string | null {
  let s = v.statusOr;
  if (s == "setup-failed") return "setup failed";
  if (s == "build-failed" && !testsRanPastChecks(v)) return "build failed";
  if (s == "timeout") return "timed out";
  if (s == "interrupted") return "interrupted";
  let t = v.tests;
  if (t !== null && t.notRun > 0) return "the run stopped early";
  return null;
}

/**
 * A run that failed only on checks made after its tests ran (a coverage threshold missed, jest's obsolete
 * snapshots), or, under jest and vitest, on errors of test files that did not load (ts-jest's type errors in
 * a file's `● Test suite failed to run`: the other files ran): its tests reached their end, a test missing
 * from them is not "not reached (build failed)".
 */
function testsRanPastChecks(v: Verdict): bool {
  let t = v.tests;
  if (t === null || t.passed + t.failed <= 0) return false;
  let d = v.diagnostics;
  if (v.errorCount > <i64>d.length) return false;
  let perFile = t.runner == "jest" || t.runner == "vitest";
  for (let i = 0; i < d.length; i++) {
    let x = unchecked(d[i]);
    if (x.severity == "error" && x.tool != "coverage" && x.tool != "jest" && !(perFile && inUnloadedFile(t, x))) return false;
  }
  return true;
}

/** The error is one a test file that did not load reports: that file's failure (named by its path) holds its place. */
function inUnloadedFile(t: Tests, x: Diagnostic): bool {
  let file = x.file;
  if (file === null || x.line <= 0) return false;
  let at = file! + ":" + x.line.toString() + ":";
  let fs = t.failures;
  for (let i = 0; i < fs.length; i++) {
    let f = unchecked(fs[i]);
    let p = f.pkg;
    if (p !== null && f.name == p! && f.message.includes(at)) return true;
  }
  return false;
}

/**
 * Why a test that failed before and is in no list now may not have run, or null: unreachedBy(), or a unit of
 * the run stopped before all its tests reported (tests.unfinished), or it crashed before any test result, or
 * beside test results of a runner that runs its tests in one program and names no passing test (below).
 */
export function testsUnreachedBy(v: Verdict): string | null {
  let why = unreachedBy(v);
  if (why !== null) return why;
  let t = v.tests;
  // A crash and not one test result (a test binary that died in its first test, before its summary): none
  // of the tests reported. Those that failed before did not run to a result; never fixed.
  if (t === null && v.crash !== null) return "crashed before any test result";
  // JUnitCore that could not load a class its command line names reports that alone
  // (`initializationError(org.junit.runner.JUnitCommandLineParseResult)`) and runs no test class at all.
  if (t !== null && t.runner == "junit4" && junitCommandLineFailed(t)) return "JUnitCore could not load a test class";
  // A package whose test binary a panic ended: the tests after it never ran, and go test without -v names
  // none that passed. A failure whose package the verdict does not name may be any such package's (one
  // whose package it does name and is not among them is judged by its own package: delta.ts otherPackage()).
  // cargo test stopped at a failing target: the targets after it did not run. A Catch2/doctest binary that
  // died in a test case: the test cases after it did not run.
  if (t !== null && t.unfinished.length > 0) {
    let u = t.unfinished;
    if (t.runner == "cargo-test") return "cargo stopped after " + u[0] + " failed";
    // Catch2 and doctest: the binary that died in a test case (they list no passing test and no plan).
    if (t.runner == "catch2" || t.runner == "doctest") {
      let c = v.crash;
      return u[0] + " stopped by " + (c !== null && c.kind.startsWith("SIG") ? c.kind : "a crash");
    }
    // surefire: the forked JVM that died (System.exit, a signal) in the test classes it names.
    if (t.runner == "surefire") return "the test JVM died in " + u[0] + (u.length > 1 ? " and " + (u.length - 1).toString() + " more" : "");
    // go test: a panic, else a binary that exited inside its tests (os.Exit in a test) named no panic.
    if (v.crash === null) {
      if (u.length == 1) return u[0] + " exited before its tests finished";
      return u[0] + " and " + (u.length - 1).toString() + " more exited before their tests finished";
    }
    if (u.length == 1) return u[0] + " stopped by a panic";
    return u[0] + " and " + (u.length - 1).toString() + " more stopped by panics";
  }
  // A crash beside test results of a run that names no passing test: none of the tests after it ran, and
  // none is listed as passed. (A run that lists them says which ran: the delta asks crashStop() why not.)
  // RSpec runs no example when a spec file did not load (`0 examples, 0 failures, 1 error occurred outside of
  // examples`): the failures of before were not run, not fixed.
  if (t !== null && t.runner == "rspec" && t.passed == 0 && t.failed == 0 && t.skipped == 0 && t.errors > 0) return "a spec file did not load: RSpec ran no example";
  if (t !== null && t.passedSet === null) return crashStop(v);
  return null;
}

function junitCommandLineFailed(t: Tests): bool {
  let fs = t.failures;
  for (let i = 0; i < fs.length; i++) if (fs[i].name.endsWith("(org.junit.runner.JUnitCommandLineParseResult)")) return true;
  return false;
}

/**
 * "a crash (KIND) stopped the run" for a crash beside test results, for a runner whose tests run one after
 * another in the program that crashed (Unity's programs under make, gtest, unittest, pytest, cargo test, JUnitCore): the
 * tests after it did not run. Not a report a program goes on after (a data race, UBSan's runtime error) or
 * makes at its exit (a leak); not ctest (a process a test), go test (tests.unfinished), TAP, jest, vitest,
 * mocha (a crash fails a file or a test). null else.
 */
export function crashStop(v: Verdict): string | null {
  let t = v.tests; let c = v.crash;
  if (t === null || c === null || !inProcess(t.runner)) return null;
  let tool = c.tool;
  if (tool != "tsan" && tool != "ubsan" && tool != "lsan" && tool != "valgrind" && !c.kind.endsWith("leak")) return "a crash (" + c.kind + ") stopped the run";
  return null;
}

function inProcess(runner: string): bool {
  // JUnitCore runs every test class in its one JVM: an exception it does not catch (a test class whose static
  // initializer throws, met while JUnitCore reads its arguments: semver4j's RangeTest) ends the run there.
  return runner == "unity" || runner == "gtest" || runner == "unittest" || runner == "pytest" || runner == "cargo-test" ||
    runner == "junit4";
}

/** True for a run cut short before its end: what it did not print, it did not get to print. */
export function cutShort(v: Verdict): bool {
  let s = v.statusOr;
  return s == "setup-failed" || s == "timeout" || s == "interrupted";
}

/**
 * The failure in `now` that stands for a whole file the test `f` is in, and none of whose tests ran: pytest
 * names a file that failed to load (`ERROR collecting test_calc.py`) by the file alone, the test by the file
 * and `::`; jest and vitest name one (`● Test suite failed to run`) by its path, and the test's own failure
 * was placed in that file (`at Object.toBe (test/slug.test.js:5:33)`) or, placed in a module the file imports
 * (`src/paths.ts:7`), it names the file as its unit (TestFailure.pkg). null when none.
 */
export function containerOf(f: TestFailure, now: Array<TestFailure>): string | null {
  let name = f.name;
  let file = f.fileOr;
  for (let i = 0; i < now.length; i++) {
    let c = now[i].name;
    if (c.length > 0 && c.indexOf("::") < 0 && name.length > c.length + 2 && name.startsWith(c) &&
      name.charCodeAt(c.length) == Char.COLON && name.charCodeAt(c.length + 1) == Char.COLON) return c;
    if (isModuleName(c) && name.length > c.length + 1 && name.startsWith(c) && name.charCodeAt(c.length) == Char.DOT) return c;
    if (c != name && isFilePath(c)) {
      if (file.length > 0 && samePath(file, c)) return c;
      // The test's unit is that file (jest's and vitest's test file), wherever its failure was placed.
      let unit = f.pkg;
      if (unit !== null && samePath(unit!, c)) return c;
    }
  }
  return null;
}

/**
 * `tests.test_core`: a dotted module name that failed as a whole (unittest's `_FailedTest`, a class whose
 * set-up failed): the tests named under it (`tests.test_core.CoreTests.test_x`) did not run. Never a path,
 * a pytest id or a subtest (`/`, `::`, blanks, brackets).
 */
function isModuleName(s: string): bool {
  if (s.length == 0) return false;
  for (let i = 0, n = s.length; i < n; i++) {
    let c = s.charCodeAt(i);
    if (!(isIdent(c) || c == Char.DOT)) return false;
  }
  return true;
}

/** `test/slug.test.js`: no blank, and an extension after the last `/`. */
function isFilePath(s: string): bool {
  if (s.indexOf(" ") >= 0 || s.indexOf("\t") >= 0) return false;
  let dot = s.lastIndexOf(".");
  return dot > s.lastIndexOf("/") + 1 && dot < s.length - 1;
}

/** The same file, one path maybe relative to a directory of the other (`src/a.test.ts`, `a.test.ts`). */
function samePath(a: string, b: string): bool {
  return a == b || a.endsWith("/" + b) || b.endsWith("/" + a);
}
