// Automake's parallel test harness (`make check` of an autotools project), read by the check-script parser:
//
//   PASS: test_reverse
//   ../test-driver: line 112: 13211 Aborted                 "$@" >> "$log_file" 2>&1
//   FAIL: test_trim
//   SKIP: skip_me.sh
//   ============================================================================
//   Testsuite summary for strutil 1.0
//   ============================================================================
//   # TOTAL: 4
//   # PASS:  1
//   # SKIP:  1
//   # XFAIL: 0
//   # FAIL:  2
//   # XPASS: 0
//   # ERROR: 0
//
// One result line per test (TAP tests: one per assertion, `PASS: t.tap 1 - name`), then each directory's
// summary. The result lines are tests only once a summary closes them (`FAIL: x` alone is too common a
// shape): till then they are remembered. The summary gives the counts: PASS and XFAIL passed, FAIL and
// XPASS failed, ERROR errors, SKIP skipped; a recursive `make check` prints one per directory, added up.
// The test-driver's own line when a test died of a signal (bash's job report, `... Aborted  "$@" ...`) is
// the next failing test's message, not the run's crash: the harness went on.
//
// `make check VERBOSE=1` then prints tests/test-suite.log: a header (`   strutil 1.0: tests/test-suite.log`
// between `=` rules), the same `# TOTAL:` block (claimed, not counted again), `.. contents:: :depth: 2`, and a
// section per test that did not pass (`FAIL: test_trim` underlined by `=`, the test's output, then
// `FAIL test_trim (exit status: 134)`): a failing test's output is its message (glibc's assertion line places
// it; the line is still the assertion parser's), up to the `Testsuite summary for` that follows the log.
import { Char } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts, TestFailure } from "../../model";
import { failureNamed, assertionOf, joinLines, placedLine, placedMessage, foreignLine } from "./common";
import { DiagContext } from "../diag-context";

/** Result lines remembered before a summary closes them. */
const MAX_PENDING = 500;
const DRIVER = "test-driver: line ";
/** The most lines one section of the printed test-suite.log is read for (its closing line may never come). */
const MAX_SECTION = 5000;

export class AutomakeReport {
  seen: bool = false;
  private passed: i64 = 0;
  private failed: i64 = 0;
  private errors: i64 = 0;
  private skipped: i64 = 0;
  /** Failing results (FAIL, XPASS, ERROR) not yet closed by a summary, and their messages. */
  private pendName: string[] = [];
  private pendMsg: string[] = [];
  /** The signal the test-driver reported for the test whose result line comes next. */
  private died: string = "";
  /** Inside a summary's `# NAME: n` lines. */
  private inSummary: bool = false;
  /** Reading tests/test-suite.log as VERBOSE=1 prints it. */
  private dump: bool = false;
  /** In the dump, the section of this test (`FAIL: name`): its output lines till its `FAIL name (` line. */
  private secName: string = "";
  private secBad: bool = false;
  /** The section's `=` underline is the next line. */
  private secRule: bool = false;
  private secLines: string[] = [];
  /** The section's glibc assertion (its place and text), when its output held one. */
  private secAssert: TestFailure | null = null;
  /** The section's first `file.c:25: message` line (a check's own report among a script's `name... ok` lines). */
  private secPlaced: string = "";
  /** The line after secPlaced when that one ends in `:` (`suite_list.c:54: test FAILED:` then `Failed test: x == 4`). */
  private secAfter: string = "";
  private secWantAfter: bool = false;
  /** Non-blank lines past the first four, and the last two of them. */
  private secMore: i32 = 0;
  private secLast1: string = "";
  private secLast2: string = "";
  private secCount: i32 = 0;
  private ctx: DiagContext | null;

  constructor(ctx: DiagContext | null = null) { this.ctx = ctx; }

  /** Inside a test's section of the printed test-suite.log: its output lines are this reader's first. */
  busy(): bool { return this.secName.length > 0; }

  /** 1 when the line is the harness's; -1 when it is a test's output another parser reads (not claimed); else 0. */
  claim(l: Line, f: Facts): i32 {
    let c = l.at(0);
    if (this.dump) { let r = this.dumpLine(l, f, c); if (r != 0) return r; }
    if (c == Char.HASH) return this.summaryLine(l, f) ? 1 : 0;
    this.inSummary = false;
    if (c == Char.P || c == Char.F || c == Char.S || c == Char.X || c == Char.E) return this.result(l) ? 1 : 0;
    if (c == Char.T && l.startsWith("Testsuite summary for ")) return 1;
    // `   strutil 1.0: tests/test-suite.log`: the log VERBOSE=1 prints, after the results it holds.
    if (c == Char.SPACE && l.endsWith("test-suite.log") && (this.pendName.length > 0 || this.seen) && l.indexOf(": ") > 0) {
      this.dump = true;
      return 1;
    }
    let d = l.indexOf(DRIVER);
    if (d >= 0 && (d == 0 || l.at(d - 1) == Char.SLASH)) return this.driver(l, d + DRIVER.length) ? 1 : 0;
    return 0;
  }

  /** A line of the printed test-suite.log (see claim); 0: read it as any other line. */
  private dumpLine(l: Line, f: Facts, c: i32): i32 {
    if (this.secName.length > 0) {
      if (this.secRule) {
        this.secRule = false;
        if (c == Char.EQ && allEq(l)) return 1;
      }
      // `FAIL test_trim (exit status: 134)` closes the section.
      if (c != Char.SPACE && l.endsWith(")")) {
        let s = l.toString();
        let sp = s.indexOf(" ");
        if (sp > 0 && s.startsWith(" " + this.secName + " (", sp)) { this.endSection(f); return 1; }
      }
      // make's `make[3]: *** [Makefile:608: test-suite.log] Error 1` (a section whose closing line never came) and a
      // sanitizer's lines are their parsers'; a section ends after MAX_SECTION lines whatever it holds.
      if (++this.secCount > MAX_SECTION) { this.endSection(f); return 0; }
      if (c == Char.T && l.startsWith("Testsuite summary for ")) { this.endSection(f); this.dump = false; return 1; }
      let s = l.trimmed(0);
      if (this.secBad && this.secAssert === null) {
        let t = new TestFailure();
        if (assertionOf(s, t, this.ctx)) { this.secAssert = t; return -1; }
      }
      if (foreignLine(l)) return -1;
      if (!this.secBad) return 1;
      if (this.secWantAfter && s.length > 0) { this.secAfter = s; this.secWantAfter = false; }
      if (this.secPlaced.length == 0 && placedLine(s) > 0) { this.secPlaced = s; this.secWantAfter = s.endsWith(":"); }
      // A rule (`=====`, `-----`: a sanitizer's report opens with one, a test's own output frames its message) is
      // no message.
      if (s.length > 0 && !ruleLine(l)) {
        if (this.secLines.length < 4) this.secLines.push(s);
        else { this.secMore++; this.secLast2 = this.secLast1; this.secLast1 = s; }
      }
      return 1;
    }
    if (c == Char.HASH) {
      // The log's own `# TOTAL: 4` ... block: the failures before it are closed, the counts not added again.
      if (l.startsWith("# TOTAL: ")) { this.close(f); return 1; }
      return l.at(1) == Char.SPACE && l.indexOfByte(Char.COLON) > 0 ? 1 : 0;
    }
    if (c == Char.DOT && l.startsWith(".. contents::")) return 1;
    if (c == Char.T && l.startsWith("Testsuite summary for ")) { this.dump = false; return 1; }
    if (c == Char.P || c == Char.F || c == Char.S || c == Char.X || c == Char.E) {
      let k = l.indexOfByte(Char.COLON);
      if (k < 4 || k > 5 || l.at(k + 1) != Char.SPACE || k + 2 >= l.len) return 0;
      let w = l.str(0, k);
      this.secBad = w == "FAIL" || w == "XPASS" || w == "ERROR";
      if (!this.secBad && w != "PASS" && w != "SKIP" && w != "XFAIL") return 0;
      this.secName = l.trimmed(k + 2);
      this.secRule = true;
      this.secLines = [];
      this.secAssert = null;
      this.secPlaced = ""; this.secAfter = ""; this.secWantAfter = false;
      this.secMore = 0; this.secLast1 = ""; this.secLast2 = "";
      this.secCount = 0;
      return 1;
    }
    return 0;
  }

  /**
   * The section's first lines, and when it went on past four, its first two and its last two (a script's
   * conclusion comes last: `Formatting errors detected, run ./scripts/clang-format to fix!` after a `Checking x`
   * line per file).
   */
  private sectionText(): string {
    let ls = this.secLines;
    if (this.secMore == 0) return joinLines(ls, 4);
    if (this.secMore == 1) return ls.join("\n") + "\n" + this.secLast1;
    return [ls[0], ls[1], "…", this.secLast2, this.secLast1].join("\n");
  }

  /** The section's output is its failing test's message (its assertion's place and text, when it held one). */
  private endSection(f: Facts): void {
    if (this.secBad) {
      let x = failureNamed(f.testsFor("automake"), this.secName);
      let a = this.secAssert;
      let p = this.secPlaced;
      if (a !== null) { x.file = a.file; x.line = a.line; x.message = a.message; }
      else if (p.length > 0) placedMessage(x, p, this.ctx, this.secAfter);
      else if (this.secLines.length > 0) x.message = this.sectionText();
    }
    this.secName = ""; this.secLines = []; this.secAssert = null; this.secRule = false; this.secPlaced = "";
    this.secAfter = ""; this.secWantAfter = false;
    this.secMore = 0; this.secLast1 = ""; this.secLast2 = "";
  }

  /** `PASS: name` and the other results; false when the line is not one. */
  private result(l: Line): bool {
    let k = l.indexOfByte(Char.COLON);
    if (k < 4 || k > 5 || l.at(k + 1) != Char.SPACE || k + 2 >= l.len) return false;
    let w = l.str(0, k);
    let bad = w == "FAIL" || w == "XPASS" || w == "ERROR";
    if (!bad && w != "PASS" && w != "SKIP" && w != "XFAIL") return false;
    let name = l.trimmed(k + 2);
    if (name.length == 0 || name.includes("  ")) return false;
    if (bad && this.pendName.length < MAX_PENDING) {
      this.pendName.push(name);
      this.pendMsg.push(this.died.length > 0 ? this.died : (w == "FAIL" ? "" : w));
    }
    this.died = "";
    // Not claimed until a summary says these are the harness's: an unclaimed line stays in the tail.
    return false;
  }

  /** `../test-driver: line 112: 13211 Aborted                 "$@" >> "$log_file" 2>&1` from p (after `line `). */
  private driver(l: Line, p: i32): bool {
    if (l.readInt(p) < 0) return false;
    p = l.end;
    if (l.at(p) != Char.COLON) return false;
    p = l.skipSpaces(p + 1);
    if (l.readInt(p) >= 0) p = l.skipSpaces(l.end);
    let e = l.indexOf("  ", p);
    if (e < 0) e = l.indexOf(" \"$@\"", p);
    if (e <= p) return false;
    this.died = "the test died: " + l.trimmed(p, e);
    return true;
  }

  /** `# TOTAL: 4`, `# PASS:  1`, ... `# ERROR: 0`: the counts; the first closes the failing results before it. */
  private summaryLine(l: Line, f: Facts): bool {
    if (l.at(1) != Char.SPACE) return false;
    let k = l.indexOfByte(Char.COLON, 2);
    if (k < 0) return false;
    let n = l.readInt(l.skipSpaces(k + 1));
    if (n < 0 || l.end != l.len) return false;
    let w = l.str(2, k);
    if (w == "TOTAL") { this.close(f); this.inSummary = true; return true; }
    if (!this.inSummary) return false;
    if (w == "PASS" || w == "XFAIL") this.passed += n;
    else if (w == "FAIL" || w == "XPASS") this.failed += n;
    else if (w == "ERROR") this.errors += n;
    else if (w == "SKIP") this.skipped += n;
    else return false;
    return true;
  }

  /** A summary begins: the failing results before it are its tests'. */
  private close(f: Facts): void {
    this.seen = true;
    let t = f.testsFor("automake");
    for (let i = 0; i < this.pendName.length; i++) {
      let x = failureNamed(t, this.pendName[i]);
      if (this.pendMsg[i].length > 0) x.message = this.pendMsg[i];
    }
    this.pendName = []; this.pendMsg = []; this.died = "";
  }

  finish(f: Facts): void {
    if (this.secName.length > 0) this.endSection(f);
    if (!this.seen) return;
    let t = f.testsFor("automake");
    if (t.runner != "automake") return;
    t.passed = this.passed; t.failed = this.failed; t.errors = this.errors; t.skipped = this.skipped;
  }
}


/** A line of `=` only (rST's underline). */
/** A line of one repeated `=` or `-` (four or more). */
function ruleLine(l: Line): bool {
  let n = l.len;
  while (n > 0 && l.at(n - 1) == Char.SPACE) n--;
  let c = l.at(0);
  if (n < 4 || (c != Char.EQ && c != Char.MINUS)) return false;
  for (let i = 1; i < n; i++) if (l.at(i) != c) return false;
  return true;
}

function allEq(l: Line): bool {
  let n = l.len;
  while (n > 0 && l.at(n - 1) == Char.SPACE) n--;
  for (let i = 0; i < n; i++) if (l.at(i) != Char.EQ) return false;
  return n > 0;
}
