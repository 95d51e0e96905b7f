// minctest, codeplea's one-header C test library (codeplea/tinyexpr's smoke.c, genann), read by the check-script
// parser. `lrun("Combinatorics", fn)` prints the name with no newline, a line per failed check, then the
// group's tally; `lresults()` closes the run:
//
//   	Pow           pass:42   fail: 0      0ms
//   	Combinatorics smoke.c:684 (nan != 1.000000)
//   smoke.c:684 (nan != 3628800.000000)
//   pass:36   fail: 4      0ms
//   SOME TESTS FAILED (4926/4930)
//
// (`ALL TESTS PASSED (4930/4930)` when none failed; `lok` prints `smoke.c:12 error ` for a failed check.)
// A group is a test, named by lrun; it failed when its tally has failures, at its first failed check, whose
// line is the message (up to four of them). The run's counts are the groups'; minctest's own `(p/t)` counts
// checks. The lines of a group are its only once its tally comes: a `file:line (..)` line alone is too common.
import { Char, isDigit } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts } from "../../model";
import { normPath } from "../../frames";
import { failureNamed } from "./common";

/** Failed checks of one group kept for its message. */
const MAX_CHECKS = 4;

export class MinctestReport {
  seen: bool = false;
  private passed: i64 = 0;
  private failed: i64 = 0;
  /** The group whose name was printed and whose tally has not come yet ("" when none). */
  private name: string = "";
  private file: string | null = null;
  private line: i64 = -1;
  private checks: string[] = [];

  /** True when the line is minctest's. */
  claim(l: Line, f: Facts): bool {
    let c = l.at(0);
    if (c == Char.TAB) return this.group(l, f);
    if (c == Char.p) { let r = tallyAt(l, 0); if (r) this.close(f, l, 0); return r; }
    if (c == Char.A && l.startsWith("ALL TESTS PASSED (")) return this.summary(l);
    if (c == Char.S && l.startsWith("SOME TESTS FAILED (")) return this.summary(l);
    // A failed check under the group begun before: `smoke.c:684 (nan != 3628800.000000)`.
    if (this.name.length > 0 && this.check(l, 0)) return true;
    if (!l.isBlank()) this.name = "";
    return false;
  }

  /** `\tName          pass:42   fail: 0      0ms`, or `\tName          smoke.c:684 (..)` (its first failed check). */
  private group(l: Line, f: Facts): bool {
    let p = l.indexOf("pass:", 1);
    if (p > 1 && l.at(p - 1) == Char.SPACE && tallyAt(l, p)) {
      this.reset(l.trimmed(1, p));
      this.close(f, l, p);
      return true;
    }
    // The name is padded to 14 columns: the check's `file:line` is the last word before its ` (` or ` error`.
    let open = l.indexOf(" (", 1);
    let err = l.indexOf(" error", 1);
    let e = open > 0 && (err < 0 || open < err) ? open : err;
    if (e <= 1) return false;
    let w = l.lastIndexOfByte(Char.SPACE, e);
    if (w <= 1) return false;
    let name = l.trimmed(1, w);
    if (name.length == 0) return false;
    let save = this.name;
    this.reset(name);
    if (this.check(l, w + 1)) return true;
    this.name = save;
    return false;
  }

  /** A failed check from p: `smoke.c:684 (nan != 1.000000)` or `smoke.c:12 error `. */
  private check(l: Line, p: i32): bool {
    let colon = l.indexOfByte(Char.COLON, p);
    if (colon <= p) return false;
    let n = l.readInt(colon + 1);
    if (n < 0) return false;
    let e = l.end;
    let dot = l.lastIndexOfByte(Char.DOT, colon);
    let sp = l.indexOfByte(Char.SPACE, p);
    if (dot <= p || (sp >= 0 && sp < colon)) return false;
    let msg = "";
    if (l.matchAt(" (", e) && l.at(l.len - 1) == Char.RPAREN) msg = l.str(e + 2, l.len - 1);
    else if (l.matchAt(" error", e) && l.trimmed(e + 6).length == 0) msg = "error";
    else return false;
    if (this.file === null) { this.file = normPath(l.str(p, colon)); this.line = n; }
    if (this.checks.length < MAX_CHECKS) this.checks.push(msg);
    return true;
  }

  /** The tally at p closes the group: a test, failed when it counts failures. */
  private close(f: Facts, l: Line, p: i32): void {
    if (this.name.length == 0) return;
    this.seen = true;
    let t = f.testsFor("minctest");
    let failed = l.readInt(l.skipSpaces(l.indexOf("fail:", p) + 5));
    if (failed > 0 && t.runner == "minctest") {
      let x = failureNamed(t, this.name);
      if (x.file === null) { x.file = this.file; x.line = this.line; x.message = this.checks.join("\n"); }
      this.failed++;
    } else this.passed++;
    this.name = "";
  }

  /** `ALL TESTS PASSED (n/n)`, `SOME TESTS FAILED (p/t)`: the run's last line. */
  private summary(l: Line): bool {
    if (!this.seen || l.at(l.len - 1) != Char.RPAREN) return false;
    this.name = "";
    return true;
  }

  private reset(name: string): void {
    this.name = name;
    this.file = null;
    this.line = -1;
    this.checks = [];
  }

  finish(f: Facts): void {
    if (!this.seen) return;
    let t = f.testsFor("minctest");
    if (t.runner != "minctest") return;
    t.passed = this.passed; t.failed = this.failed;
  }
}

/** True when `pass:N   fail:M   Tms` is at p and ends the line. */
function tallyAt(l: Line, p: i32): bool {
  if (!l.matchAt("pass:", p)) return false;
  if (l.readInt(l.skipSpaces(p + 5)) < 0) return false;
  let q = l.skipSpaces(l.end);
  if (!l.matchAt("fail:", q)) return false;
  if (l.readInt(l.skipSpaces(q + 5)) < 0) return false;
  q = l.skipSpaces(l.end);
  if (l.readInt(q) < 0) return false;
  return l.matchAt("ms", l.end) && l.end + 2 == l.len;
}
