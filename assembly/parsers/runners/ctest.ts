// CTest: `Test project DIR`, `N/M Test #k: name ....   Passed 0.00 sec` / `***Failed` / `***Exception: ...` /
// `***Not Run`, the output a failing test printed (--output-on-failure), `NN% tests passed, K tests failed out
// of M`, and `The following tests FAILED:` list. A failing test's output is also read by a parser set of its own
// (every runner the engine knows: Unity, gtest, pytest...): the failures it names there become that test's
// message, not results of the log's; without any, the output's first lines are the message.
// Every `Passed` test is hashed by its name (Tests.passedSet) when they are as many as the summary's passes.
import { Char, isDigit } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts, TestFailure, Frame, Crash } from "../../model";
import { ParserSet } from "../set";
import { setLocation, isRuntimePath, firstUser } from "../../frames";
import { Parser } from "../../parser";
import { ByteSet } from "../../util/byte-set";
import { failureNamed, joinLines, foreignLine, placedLine, placeFrom, runSignal, hostTimeoutKill, hasFailure } from "./common";
import { withName } from "../../util/name-hash";

/** Failing tests whose output is read by a parser set of its own; the others' output gives their message as lines. */
const MAX_INNER_SETS = 64;

/** Before ctest showed itself: `Test project `, `Internal ctest changing into directory` at column 0. */
const STARTS = new ByteSet().chars("TI");

export class CtestParser extends Parser {
  seen: bool = false;
  cur: TestFailure | null = null;
  out: string[] = [];
  passed: i64 = 0; failed: i64 = 0; skipped: i64 = 0;
  /** Skipped tests the summary's `out of M` leaves out (disabled) and counts among its failed (not run). */
  disabled: i64 = 0; notRunFailed: i64 = 0;
  total: i64 = -1; totFailed: i64 = -1;
  inList: bool = false;
  /** Every `Passed` test's name hashed (Tests.passedSet); null past MAX_PASSED_SET. */
  passHashes: Array<u32> | null = [];
  /** Facts.reports when the failing test's output began: a sanitizer report in it names the failure. */
  reportsAt: i32 = 0;
  /** The failing test's output, read by every parser into facts of its own (made when a test fails). */
  inner: ParserSet | null = null;
  innerFacts: Facts | null = null;
  /** ctest -V: each running test's output lines (`N: text`) by its number, until its result line. */
  verbose: Map<i32, string[]> = new Map<i32, string[]>();
  /** ctest -V showed itself (`test 2` before a test's Start line): `2: ` lines are a test's output. */
  verboseRun: bool = false;
  /** The first line of the failing test's output that a crash's parser reads (crashWords), its message if nothing names one. */
  crashLine: string | null = null;
  /** Tests started (`Start N: name`) whose result line has not come yet (MAX_VERBOSE at most). */
  running: string[] = [];
  private view: Line = new Line();
  /** Parser sets made for tests' output so far (MAX_INNER_SETS at most). */
  private innerSets: i32 = 0;

  /**
   * The parser set reading the current test's output, made at its first line; null once MAX_INNER_SETS were
   * made: each is every parser, garbage the minimal runtime keeps until the engine call ends, and a log of
   * 1 600 failing results with a line of output each (a fuzzed ctest-fail-output) took 64 MiB in one call. The
   * tests after keep their first lines as their message.
   */
  private innerSet(): ParserSet | null {
    if (this.inner === null && this.innerSets < MAX_INNER_SETS) { this.inner = new ParserSet(); this.innerFacts = new Facts(); this.innerSets++; }
    return this.inner;
  }

  busy(): bool { return this.cur !== null; }
  atRest(): bool { return !this.seen && this.cur === null; }
  starts(): ByteSet | null { return STARTS; }

  claim(l: Line, f: Facts): bool {
    let c = l.at(0);
    if (!this.seen) {
      if (l.startsWith("Test project ")) { this.seen = true; f.testsFor("ctest"); return true; }
      if (l.startsWith("Internal ctest changing into directory")) return true;
      return false;
    }
    // ctest -V: `test 2` before a test's `Start` line
    if (c == Char.t && l.startsWith("test ") && isDigit(l.at(5)) && l.readInt(5) >= 0 && l.end == l.len) { this.endOut(f); this.verboseRun = true; return true; }
    let p = l.skipSpaces(0);
    // `    Start 1: x`, and with ten tests or more `      Start  1: x` (numbers padded to one width)
    if (l.matchAt("Start ", p) && isDigit(l.at(l.skipSpaces(p + 6)))) { this.endOut(f); this.started(l, p + 6); return true; }
    // `--repeat until-fail:N` / `until-pass:N` / `after-timeout:N`: an attempt other than the one ctest numbers prints
    // its result with no `N/M ` before it (`    Test #4: x ....***Exception: SegFault  0.03 sec`); a failing
    // attempt that ends the repeats is printed so too.
    if (c == Char.SPACE && l.matchAt("Test #", p) && isDigit(l.at(p + 6))) { this.endOut(f); this.result(l, f, p + 5, true); return true; }
    if (isDigit(l.at(p))) {
      // ctest -V: `2: [ RUN      ] Parse.Digits`, the output of test #2, printed before its result line.
      if (p == 0 && this.verboseRun && this.verboseLine(l)) return true;
      // `1/3 Test #1: x`, ` 1/12 Test  #1: x`
      let slash = l.indexOfByte(Char.SLASH, p);
      let at = l.indexOf(" Test ", p);
      if (slash > 0 && at > slash && at < slash + 12) { this.endOut(f); this.result(l, f, at + 6); return true; }
      let pct = l.indexOf("% tests passed, ");
      if (pct > 0) {
        this.endOut(f);
        let s = l.toString();
        let k = s.indexOf(", ") + 2;
        let e = k;
        while (e < s.length && isDigit(s.charCodeAt(e))) e++;
        if (e > k) this.totFailed = I64.parseInt(s.substring(k, e));
        let o = s.lastIndexOf(" out of ");
        if (o > 0) this.total = I64.parseInt(s.substring(o + 8));
        return true;
      }
    }
    if (l.startsWith("The following tests FAILED:") || l.startsWith("The following tests did not run:")) { this.endOut(f); this.inList = true; return true; }
    if (this.inList && c == Char.TAB) {
      // `\t  1 - ring_test (Failed)`
      let dash = l.indexOf(" - ");
      if (dash > 0) {
        let paren = l.lastIndexOf(" (");
        let name = l.trimmed(dash + 3, paren > dash ? paren : l.len);
        let status = paren > dash ? l.trimmed(paren + 2, l.len - 1) : "";
        if (status != "Not Run" && status != "Disabled" && status != "Skipped") {
          let t = f.testsFor("ctest");
          failureNamed(t, name);
        }
      }
      return true;
    }
    if (l.startsWith("Total Test time") || l.startsWith("Errors while running CTest") || l.startsWith("Output from these tests are in:")
      || l.startsWith("Use \"--rerun-failed") || l.startsWith("Internal ctest changing")) { this.endOut(f); this.inList = false; return true; }
    if (this.cur !== null) {
      if (foreignLine(l)) {
        // The program's last words, read by their own parser (the run's crash): an assertion, UBSan's runtime
        // error, an uncaught exception. The first is the test's message when no runner in it named a failure.
        if (this.crashLine === null && crashWords(l)) this.crashLine = l.trimmed(0);
        return false;
      }
      if (this.out.length < 200) this.out.push(l.toString());
      // Made at the test's first line of output, not at its result: a ParserSet is every parser, and a
      // log of failing results without output (ctest-fail's line 4 repeated) made one each, garbage
      // the minimal runtime holds until its next collection (64 MiB of Wasm memory from 0.7 MB of log).
      let ps = this.innerSet();
      if (ps !== null) ps.claim(l, this.innerFacts!);
      return true;
    }
    return false;
  }

  /**
   * ctest -V (--verbose, --extra-verbose) prints each test's output as it runs, every line behind the test's
   * number (`2: Expected equality of these values:`), before the test's result line: kept by number (tests
   * run with -j interleave), read as the test's output when its result says it failed.
   */
  private verboseLine(l: Line): bool {
    let n = l.readInt(0);
    let e = l.end;
    if (n < 0 || e > 7 || l.at(e) != Char.COLON || (e + 1 < l.len && l.at(e + 1) != Char.SPACE)) return false;
    let no = <i32>n;
    let text = e + 2 <= l.len ? l.str(e + 2, l.len) : "";
    // ctest's own lines about the test, not its output.
    if (text.startsWith("Test command: ") || text.startsWith("Working Directory: ") || text.startsWith("Test timeout computed to be: ") ||
      text.startsWith("Environment variables: ") || text.startsWith("Test timeout computed")) return true;
    let m = this.verbose;
    if (!m.has(no)) {
      if (m.size >= MAX_VERBOSE) return true;
      m.set(no, []);
    }
    let out = m.get(no);
    if (out.length < 200) out.push(text);
    return true;
  }

  private result(l: Line, f: Facts, p: i32, attempt: bool = false): void {
    // `#1: ring_test ........***Failed    0.00 sec`
    let colon = l.indexOf(": ", p);
    if (colon < 0) return;
    let a = colon + 2;
    let dots = l.indexOf(" .", a);
    let stat = -1;
    if (dots < 0) { dots = l.indexOf("***", a); stat = dots; }
    if (dots < 0) return;
    let name = l.trimmed(a, dots);
    let s = dots;
    while (s < l.len && (l.at(s) == Char.DOT || l.at(s) == Char.SPACE)) s++;
    let rest = l.trimmed(s);
    let no = -1;
    let hash = l.indexOfByte(Char.HASH, p - 6);
    if (hash >= 0 && hash < colon) no = <i32>l.readInt(hash + 1);
    let had = no >= 0 && this.verbose.has(no);
    let early: string[] = had ? this.verbose.get(no) : [];
    if (had) this.verbose.delete(no);
    this.ended(name);
    if (rest.startsWith("Passed")) {
      // An unnumbered attempt that passed: under until-fail the numbered line after it counts the test; under
      // until-pass it is the last attempt, and a failing one before it no longer counts.
      if (attempt && !this.failedBefore(f, name)) return;
      this.passed++; this.passHashes = withName(this.passHashes, name); return;
    }
    if (rest.includes("Not Run") || rest.includes("Disabled") || rest.startsWith("Skipped")) {
      this.skipped++;
      // Out of `out of M`: a disabled test; in the `K tests failed` of it: one not run otherwise (its program missing).
      if (rest.includes("Disabled")) this.disabled++;
      else if (rest.includes("Not Run")) this.notRunFailed++;
      return;
    }
    this.failed++;
    let t = failureNamed(f.testsFor("ctest"), name);
    let st = rest.startsWith("***") ? rest.substring(3) : rest;
    let sec = st.lastIndexOf("  ");
    if (sec > 0) st = st.substring(0, sec).trimStart().trimEnd();
    t.message = st;
    this.cur = t;
    this.out = [];
    this.reportsAt = f.reports;
    this.inner = null;
    this.innerFacts = null;
    // Under -V its output came before this line: read now, as --output-on-failure's after it is.
    let v = this.view;
    for (let i = 0; i < early.length; i++) {
      let x = early[i];
      this.out.push(x);
      let ps = this.innerSet();
      if (ps === null) continue;
      let b = String.UTF8.encode(x);
      v.set(changetype<usize>(b), b.byteLength);
      v.no = i + 1;
      ps.claim(v, this.innerFacts!);
    }
  }

  /** A failure of that name read before (an earlier attempt under --repeat until-pass): dropped, it passed at last. */
  private failedBefore(f: Facts, name: string): bool {
    let t = f.tests;
    if (t === null || t.runner != "ctest") return false;
    let fs = t.failures;
    for (let i = 0; i < fs.length; i++) {
      if (unchecked(fs[i]).name != name) continue;
      fs.splice(i, 1);
      if (this.failed > 0) this.failed--;
      return true;
    }
    return false;
  }

  /**
   * The captured output: a sanitizer report in it (claimed by the sanitizer parser) names the failure; else
   * the failures a runner in it named (innerMessage); else its first few lines that are not gtest framing
   * (or a sanitizer's `=====` rule) become the message.
   */
  private endOut(f: Facts): void {
    let t = this.cur;
    let fx = this.innerFacts;
    if (t !== null && this.inner !== null) this.inner!.finish(fx!);
    if (t !== null && f.reports > this.reportsAt && f.lastReport !== null) {
      t.message = f.lastReport!;
      reportLocation(t, f.lastReport!, f.crash);
    } else if (t !== null && fx !== null && fx.reports > 0 && fx.lastReport !== null) {
      // A sanitizer report only the test's own output held (ctest -V puts `2: ` before each of its lines, so
      // it was read there): the run's crash, as the same report under --output-on-failure is.
      t.message = fx.lastReport!;
      let c = fx.crash;
      if (c !== null) f.setCrash(c);
      f.reports++;
      f.lastReport = fx.lastReport;
      reportLocation(t, fx.lastReport!, c);
    } else if (t !== null && this.inner !== null && innerMessage(t, this.inner!, this.innerFacts!)) {
      // named by the runner inside
    } else if (t !== null && this.crashLine !== null) {
      let s = this.crashLine!;
      t.message = s;
      // UBSan's `./slot_test.cpp:14:3: runtime error: ...` places the test; a header of the library's does not.
      let k = s.indexOf(": ");
      if (t.file === null && k > 0 && s.lastIndexOf(" ", k) < 0) {
        let fr = new Frame();
        if (setLocation(fr, s.substring(0, k)) && fr.file !== null && !isRuntimePath(fr.file!)) { t.file = fr.file; t.line = fr.line; }
      }
    } else if (t !== null && this.out.length > 0) {
      let keep = new Array<string>(0);
      for (let i = 0; i < this.out.length && keep.length < 4; i++) {
        let s = this.out[i].trimStart().trimEnd();
        if (s.length == 0 || s.startsWith("[") || s.startsWith("Running main() from") || s.startsWith("=====")) continue;
        keep.push(s);
      }
      if (keep.length > 0) {
        t.message = joinLines(keep, 4);
        if (t.file === null) { let k = placedLine(keep[0]); if (k > 0) placeFrom(t, keep[0], k, null); }
      }
    }
    this.cur = null;
    this.out = [];
    this.inner = null;
    this.innerFacts = null;
    this.crashLine = null;
  }

  /** `    Start 2: queue_hang` (q after `Start `): the test runs until its result line. */
  private started(l: Line, q: i32): void {
    let colon = l.indexOf(": ", q);
    if (colon < 0 || this.running.length >= MAX_VERBOSE) return;
    this.running.push(l.trimmed(colon + 2));
  }

  private ended(name: string): void {
    let r = this.running;
    for (let i = 0; i < r.length; i++) if (r[i] == name) { r.splice(i, 1); return; }
  }

  finish(f: Facts): void {
    this.endOut(f);
    if (!this.seen) return;
    let t = f.testsFor("ctest");
    if (t.runner != "ctest") return;
    // Killed before its summary (the host's timeout, a signal) while tests ran (`Start 2: x`, no result line):
    // each of them failed there. ctest's own timeout prints a result line (`***Timeout`), read above.
    if (this.total < 0 && this.running.length > 0) {
      let sig = runSignal(f);
      if (sig !== null) {
        for (let i = 0; i < this.running.length; i++) {
          let name = this.running[i];
          if (hasFailure(t, name)) continue;
          let tf = failureNamed(t, name);
          tf.message = hostTimeoutKill(f, sig) ? "timed out while running " + name : "the run died (" + sig! + ") while running " + name;
          this.failed++;
        }
      }
    }
    t.failed = this.totFailed >= 0 ? this.totFailed : this.failed;
    t.skipped = this.skipped;
    t.passed = this.total >= 0 ? max<i64>(this.total - t.failed - (this.skipped - this.disabled - this.notRunFailed), 0) : this.passed;
    if (this.total >= 0) t.totals = true;
    // `N% tests passed, K tests failed out of M` and a `Passed` line for each pass: which tests ran is known.
    let hs = this.passHashes;
    if (hs !== null && this.total >= 0 && <i64>hs.length == t.passed) t.passedSet = hs;
  }
}

/**
 * The failures the runner inside a test's output named (Unity's `file:line:test:FAIL: ...`, gtest's
 * `[  FAILED  ]`, pytest's failures...): one becomes `name: message` with its expected/actual sides; several,
 * one line each (`name (file:line): first message line`). The test takes the first one's location.
 */
function innerMessage(t: TestFailure, set: ParserSet, fx: Facts): bool {
  let tt = fx.tests;
  if (tt === null || tt.failures.length == 0) return false;
  let fs = tt.failures;
  let first = unchecked(fs[0]);
  if (first.file !== null) { t.file = first.file; t.line = first.line; }
  if (fs.length == 1) {
    t.message = first.message.length > 0 ? first.name + ": " + first.message : first.name;
    t.expected = first.expected;
    t.actual = first.actual;
    return true;
  }
  let lines = new Array<string>(0);
  for (let i = 0; i < fs.length && i < INNER_MAX; i++) {
    let x = unchecked(fs[i]);
    let s = x.name;
    if (x.file !== null) s += " (" + x.file! + (x.line > 0 ? ":" + x.line.toString() : "") + ")";
    let m = x.message;
    let nl = m.indexOf("\n");
    if (nl >= 0) m = m.substring(0, nl);
    if (m.length > 0) s += ": " + m;
    lines.push(s);
  }
  if (fs.length > INNER_MAX) lines.push("... " + (fs.length - INNER_MAX).toString() + " more");
  t.message = joinLines(lines, INNER_MAX + 1);
  return true;
}

/**
 * A foreign line (common.ts foreignLine) that says why the program died, not a frame, a rule or a report's
 * header (a sanitizer's SUMMARY names the test by Facts.lastReport): UBSan's `f.cpp:85:5: runtime error: ..`,
 * an assertion (glibc's, libc++'s), an uncaught exception's `terminate called ...` / `libc++abi: terminating ...`.
 */
function crashWords(l: Line): bool {
  let c = l.at(0);
  if (c == Char.SPACE || c == Char.TAB || c == Char.HASH || c == Char.EQ) return false;
  return !l.startsWith("SUMMARY: ") && !l.startsWith("WARNING: ") && !l.startsWith("make");
}

/** At most this many tests' -V output is held at once (tests run with -j; a result line frees its test's). */
const MAX_VERBOSE = 16;

/** How many of the inner runner's failures a test's message lists. */
const INNER_MAX = 4;

/** `AddressSanitizer: heap-buffer-overflow main.c:8 in sum`: the report's `file:line`, when it names one. */
function reportLocation(t: TestFailure, report: string, c: Crash | null): void {
  let a = report.indexOf(": ");
  if (a < 0) return;
  let sp = report.indexOf(" ", a + 2);
  if (sp < 0) return;
  let e = report.indexOf(" ", sp + 1);
  let loc = report.substring(sp + 1, e > 0 ? e : report.length);
  if (loc.startsWith("(")) return;
  let fr = new Frame();
  if (!setLocation(fr, loc)) return;
  // The SUMMARY names the top frame, a runtime's interceptor when the access was in strlen or memcpy
  // (`.../sanitizer_common_interceptors.inc:389 in __interceptor_strlen`): the test's place is then the
  // crash's first frame in the user's code.
  if (fr.file !== null && isRuntimePath(fr.file!)) {
    let u = c !== null ? firstUser(c.frames) : null;
    if (u === null || u.file === null) return;
    t.file = u.file; t.line = u.line;
    return;
  }
  t.file = fr.file; t.line = fr.line;
}
