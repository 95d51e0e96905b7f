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
import { Char } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts } from "../../model";
import { failureNamed } from "./common";

/** Result lines remembered before a summary closes them. */
const MAX_PENDING = 500;
const DRIVER = "test-driver: line ";

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

  /** True when the line is the harness's. */
  claim(l: Line, f: Facts): bool {
    let c = l.at(0);
    if (c == Char.HASH) return this.summaryLine(l, f);
    this.inSummary = false;
    if (c == Char.P || c == Char.F || c == Char.S || c == Char.X || c == Char.E) return this.result(l);
    if (c == Char.T && l.startsWith("Testsuite summary for ")) return true;
    let d = l.indexOf(DRIVER);
    if (d >= 0 && (d == 0 || l.at(d - 1) == Char.SLASH)) return this.driver(l, d + DRIVER.length);
    return false;
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
    if (!this.seen) return;
    let t = f.testsFor("automake");
    if (t.runner != "automake") return;
    t.passed = this.passed; t.failed = this.failed; t.errors = this.errors; t.skipped = this.skipped;
  }
}

