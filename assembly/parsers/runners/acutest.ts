// Acutest, mity's one-header C/C++ test library (md4c, centijson), read by the check-script parser. Each test
// runs in a child process; off a terminal its lines are:
//
//   Test tutorial...                                [ OK ]
//   Test fail...                                    [ FAILED ]
//     c-example.c:27: a + b == 5... failed
//       a: 1
//   Test skip...                                    [ SKIPPED ]
//     c-example.c:48: Decided to skip... skipped
//   Test crash...                                     Test interrupted by SIGSEGV.
//   FAILED: 2 of 4 unit tests have failed.
//
// (`SUCCESS: No unit tests have failed.` when none did.) A failed test is placed at its first failed check,
// whose text and the lines under it (up to four) are its message; a test whose child died (`Test interrupted
// by SIGSEGV.`, `Test ended in an unexpected way [N].`) failed with that line: the harness went on, so it is
// not the run's crash. The test lines are tests only once the summary closes them.
import { Char } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts } from "../../model";
import { normPath } from "../../frames";
import { PendingFailures } from "./pending";

/** Tests remembered before the summary closes them. */

export class AcutestReport {
  seen: bool = false;
  private passed: i64 = 0;
  private failed: i64 = 0;
  private skipped: i64 = 0;
  /** The failed counts of the summaries (the test lines may be cut from a log, the summary not). */
  private summed: i64 = 0;
  /** Whether a test line was read. */
  private lines: bool = false;
  private pend: PendingFailures = new PendingFailures();
  /** Index in pend of the failed test whose check lines follow (-1 when none). */
  private open: i32 = -1;

  /** True when the line is Acutest's. */
  claim(l: Line, f: Facts): bool {
    let c = l.at(0);
    if (c == Char.T && l.startsWith("Test ")) return this.testLine(l);
    if (c == Char.SPACE && this.open >= 0) return this.detail(l);
    this.open = -1;
    if (c == Char.S && l.startsWith("SUCCESS: No unit tests have failed.")) return this.close(f);
    if (c == Char.F && l.startsWith("FAILED: ") && l.endsWith(" failed.")) {
      // `FAILED: 2 of 4 unit tests have failed.` (`1 of 4 unit tests has failed.`)
      let n = l.readInt(8);
      if (n < 0 || !l.matchAt(" of ", l.end) || l.readInt(l.end + 4) < 0 || !l.matchAt(" unit tests ", l.end)) return false;
      this.summed += n;
      return this.close(f);
    }
    return false;
  }

  /** `Test name...<pad>[ OK ]` / `[ FAILED ]` / `[ SKIPPED ]`, or `Test name...<pad>Test interrupted by SIGSEGV.` */
  private testLine(l: Line): bool {
    this.open = -1;
    let dots = l.indexOf("... ", 5);
    if (dots <= 5) return false;
    let name = l.str(5, dots);
    let p = l.skipSpaces(dots + 4);
    if (l.matchAt("[ OK ]", p)) { this.passed++; this.lines = true; return false; }
    if (l.matchAt("[ SKIPPED ]", p)) { this.skipped++; this.lines = true; return false; }
    let died = l.matchAt("Test interrupted by ", p) || l.matchAt("Test ended in an unexpected way", p);
    if (!died && !l.matchAt("[ FAILED ]", p)) return false;
    this.failed++;
    this.lines = true;
    let i = this.pend.add(name, died ? l.trimmed(p) : "");
    if (i < 0) return false;
    this.open = died ? -1 : i;
    // Not claimed until the summary says these are Acutest's: an unclaimed line stays in the tail.
    return false;
  }

  /** `  file.c:27: a + b == 5... failed` (the first places the test) and the more-indented lines under it. */
  private detail(l: Line): bool {
    let i = this.open;
    let p = l.skipSpaces(0);
    let x = this.pend.at(i);
    if (p == 2 && x.file === null) {
      let k = l.indexOf(": ", p);
      let colon = k > p ? l.lastIndexOfByte(Char.COLON, k) : -1;
      if (colon > p) {
        let n = l.readInt(colon + 1);
        if (n >= 0 && l.end == k) {
          x.file = normPath(l.str(p, colon));
          x.line = n;
          let m = l.trimmed(k + 2);
          if (m.endsWith("... failed")) m = m.substring(0, m.length - 10);
          x.message = m;
          return false;
        }
      }
    }
    let s = l.trimmed(p);
    if (s.endsWith("... failed")) s = s.substring(0, s.length - 10);
    this.pend.addLine(i, s);
    return false;
  }

  /** The summary: the tests before it are Acutest's. */
  private close(f: Facts): bool {
    this.seen = true;
    let t = f.testsFor("acutest");
    this.pend.flush(t, t.runner == "acutest");
    this.open = -1;
    return true;
  }

  finish(f: Facts): void {
    if (!this.seen) return;
    let t = f.testsFor("acutest");
    if (t.runner != "acutest") return;
    // The summaries' failed count stands; with no test line read, what passed or was skipped is not known.
    t.failed = this.summed > this.failed ? this.summed : this.failed;
    t.passed = this.lines ? this.passed : -1;
    t.skipped = this.lines ? this.skipped : -1;
  }
}
