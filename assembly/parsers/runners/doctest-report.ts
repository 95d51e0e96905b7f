// Python's doctest as a program (`python3 -m doctest README.txt`, `python3 -m doctest mod.py`, a module's own
// `doctest.testmod()`), read by the unittest parser. Silent when every example passes; each failing example is
// one report between 70-star rules:
//
//   **********************************************************************
//   File "README.txt", line 7, in README.txt
//   Failed example:
//       tomli.loads('b = [1, 2]')["b"]
//   Expected:
//       [1, 2, 3]
//   Got:
//       [1, 2]
//   **********************************************************************
//   1 items had failures:
//      2 of   4 in README.txt
//   ***Test Failed*** 2 failures.
//
// (`Exception raised:` and the traceback, indented, in place of `Got:`; `Expected nothing` / `Got nothing`.)
// `-v` adds `Trying:` / `Expecting:` / `ok` per example and the totals `4 tests in 1 items.`, `2 passed and 2
// failed.` (or `Test passed.`). A failing example is a failure named by its item and its source (`README.txt:
// tomli.loads(…)`: a line added above it does not rename it), at its file and line; the run's tests are the
// examples (`2 of 4`: two passed).
import { Char } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts } from "../../model";
import { normPath } from "../../frames";
import { DocOutput, failureNamed } from "./common";

const RULE_LEN = 70;
const TEST_FAILED = "***Test Failed*** ";
const TRACEBACK = "Traceback (most recent call last)";

const enum Part { NONE, HEAD, EXAMPLE, EXPECTED, GOT, RAISED }

export class DoctestReport {
  /** A report began (a rule then `File "…", line N, in item`): the lines up to the next rule are its. */
  open: bool = false;
  seen: bool = false;
  private part: Part = Part.NONE;
  /** A rule was the last line: a report or the summary follows. */
  private ruled: bool = false;
  private item: string = "";
  private file: string | null = null;
  private line: i64 = -1;
  private example: string | null = null;
  private expected: string | null = null;
  private got: string | null = null;
  /** The last line of the traceback under `Exception raised:` at its indent (its exception line). */
  private raised: string | null = null;
  private failed: i64 = 0;
  /** Examples of the items that failed (`2 of   4 in item`), and of those that failed; -v's totals instead when printed. */
  private total: i64 = 0;
  private totalFailed: i64 = 0;
  private vPassed: i64 = -1;
  private vFailed: i64 = -1;
  private failures: i64 = -1;
  /** The section's value is a traceback (`Traceback (most recent call last):`): its exception line is kept. */
  private tb: bool = false;
  /** Either section's value was a traceback: the kept exception lines say how they differ, not the lines. */
  private anyTb: bool = false;
  /** The two sections' lines: the values shown are those of the first line where they differ. */
  private doc: DocOutput = new DocOutput();
  /** -v: `Trying:` was read; its examples, `Expecting:` and `ok` lines are doctest's. */
  private verbose: bool = false;

  /** Whether a line starting with c may be doctest's: a rule, or anything once a rule or report was read. */
  wants(c: i32): bool { return c == Char.STAR || c == Char.T || this.open || this.ruled || this.seen || this.verbose; }

  /** True when the line is doctest's. */
  claim(l: Line, f: Facts): bool {
    let c = l.at(0);
    if (c == Char.STAR) {
      if (isRule(l)) { this.close(f); this.ruled = true; this.part = Part.HEAD; return true; }
      if (this.seen && l.startsWith(TEST_FAILED)) {
        let n = l.readInt(TEST_FAILED.length);
        if (n >= 0) this.failures = n;
        this.ruled = false;
        return true;
      }
      return false;
    }
    if (this.ruled && this.part == Part.HEAD) {
      this.ruled = false;
      if (c == Char.F && l.startsWith("File \"")) return this.head(l);
      // The summary after the last report: `1 items had failures:`, then `   2 of   4 in item` lines.
      if (this.seen && l.indexOf(" items had failures:") > 0) { this.part = Part.NONE; return true; }
      this.part = Part.NONE;
      return false;
    }
    if (c == Char.T && l.len == 7 && l.startsWith("Trying:")) { this.close(f); this.verbose = true; return true; }
    if (this.open) {
      if (this.body(l)) return true;
      // -v: the next example's `Trying:` (above) or another line at column 0 ends the report.
      if (l.at(0) == Char.SPACE || l.isBlank()) return false;
      this.close(f);
    }
    if (this.verbose && (c == Char.SPACE || l.startsWith("Expecting") || (l.len == 2 && l.startsWith("ok")))) return true;
    if (!this.seen && !this.verbose) return false;
    if (l.startsWith("Test passed.")) return true;
    return this.summary(l);
  }

  /** `File "README.txt", line 7, in README.txt`: a report begins. */
  private head(l: Line): bool {
    let q = l.indexOfByte(Char.QUOTE, 6);
    if (q < 0 || !l.matchAt(", line ", q + 1)) return false;
    let n = l.readInt(q + 8);
    if (n < 0 || !l.matchAt(", in ", l.end)) return false;
    this.open = true;
    this.seen = true;
    this.file = normPath(l.str(6, q));
    this.line = n;
    this.item = l.trimmed(l.end + 5);
    this.example = null; this.expected = null; this.got = null; this.raised = null;
    this.part = Part.NONE;
    this.anyTb = false;
    this.doc = new DocOutput();
    return true;
  }

  /** A line of an open report: a section's title, or a value indented under it (its first line kept). */
  private body(l: Line): bool {
    let c = l.at(0);
    if (c != Char.SPACE) {
      this.tb = false;
      if (l.startsWith("Failed example:")) this.part = Part.EXAMPLE;
      else if (l.startsWith("Expected:")) this.part = Part.EXPECTED;
      else if (l.startsWith("Got:")) this.part = Part.GOT;
      else if (l.startsWith("Exception raised:")) this.part = Part.RAISED;
      else if (l.startsWith("Expected nothing")) { this.part = Part.NONE; this.expected = ""; }
      else if (l.startsWith("Got nothing")) { this.part = Part.NONE; this.got = ""; }
      else return l.isBlank();
      return true;
    }
    let p = this.part;
    if (p == Part.EXAMPLE) { if (this.example === null) this.example = l.trimmed(0); }
    // The lines are kept for the first difference only while neither value is a traceback (then they are not used).
    else if (p == Part.EXPECTED) { this.expected = this.value(this.expected, l); if (!this.anyTb) this.doc.add(false, l.trimmed(0)); }
    else if (p == Part.GOT) { this.got = this.value(this.got, l); if (!this.anyTb) this.doc.add(true, l.trimmed(0)); }
    else if (p == Part.RAISED) {
      // The exception line is at the traceback's own indent (4); its frames and source are deeper.
      if (l.indent() == 4 && !l.matchAt(TRACEBACK, 4)) this.raised = l.trimmed(4);
    }
    return true;
  }

  /**
   * The value kept for an Expected: or Got: section: its first line; when that is a traceback's header, its exception
   * line (at the section's indent, 4; the frames and source are deeper).
   */
  private value(cur: string | null, l: Line): string | null {
    if (cur === null) { this.tb = l.matchAt(TRACEBACK, 4); if (this.tb) this.anyTb = true; return l.trimmed(0); }
    if (this.tb && l.indent() == 4) return l.trimmed(4);
    return cur;
  }

  /** The report ends (the next rule): its failure. */
  private close(f: Facts): void {
    if (!this.open) return;
    this.open = false;
    this.failed++;
    let t = f.testsFor("doctest");
    if (t.runner != "doctest") return;
    let ex = this.example !== null ? this.example! : "line " + this.line.toString();
    let tf = failureNamed(t, this.item + ": " + ex);
    if (tf.file !== null) return;
    tf.file = this.file;
    tf.line = this.line;
    if (this.raised !== null) {
      tf.message = this.raised!;
      if (this.expected !== null) tf.expected = this.expected;
    } else {
      tf.message = "doctest output differs";
      tf.expected = this.expected;
      tf.actual = this.got;
      if (!this.anyTb && this.expected !== null && this.got !== null && this.doc.expected.length > 0 && this.doc.got.length > 0) {
        tf.expected = this.doc.firstExpected();
        tf.actual = this.doc.firstGot();
      }
    }
  }

  /** After the reports: `   2 of   4 in item`, and -v's `4 tests in 1 items.` and `2 passed and 2 failed.` */
  private summary(l: Line): bool {
    let c = l.at(0);
    if (c == Char.SPACE) {
      let p = l.skipSpaces(0);
      let k = l.readInt(p);
      if (k < 0 || !l.matchAt(" of ", l.end)) return false;
      let m = l.readInt(l.skipSpaces(l.end + 4));
      if (m < 0 || !l.matchAt(" in ", l.end)) return false;
      this.totalFailed += k;
      this.total += m;
      return true;
    }
    let n = l.readInt(0);
    if (n < 0) return false;
    if (l.matchAt(" passed and ", l.end)) {
      let k = l.readInt(l.end + 12);
      if (k < 0 || !l.matchAt(" failed.", l.end)) return false;
      this.vPassed = n; this.vFailed = k;
      return true;
    }
    return l.matchAt(" tests in ", l.end) || l.matchAt(" items had failures:", l.end)
      || l.matchAt(" items had no tests:", l.end) || l.matchAt(" items passed all tests:", l.end);
  }

  finish(f: Facts): void {
    this.close(f);
    if (!this.seen && this.vPassed < 0) return;
    let t = f.testsFor("doctest");
    if (t.runner != "doctest") return;
    let failed = this.vFailed >= 0 ? this.vFailed : this.failures >= 0 ? this.failures : this.failed;
    t.failed = failed;
    t.passed = this.vPassed >= 0 ? this.vPassed : this.total > 0 ? max<i64>(this.total - this.totalFailed, 0) : 0;
    t.totals = this.vPassed >= 0 || this.total > 0;
  }
}

/** A line of 70 stars. */
function isRule(l: Line): bool {
  return l.len == RULE_LEN && l.isAll(Char.STAR);
}
