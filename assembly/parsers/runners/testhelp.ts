// Redis' and sds' testhelp.h: `14 - description: PASSED` / `FAILED` per check, then
// `15 tests, 13 passed, 2 failed` and, when any failed, `=== WARNING === We have failed tests here...`.
// A check has no location or message of its own: its description names it.
import { isDigit } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts } from "../../model";
import { Parser } from "../../parser";
import { ByteSet } from "../../util/byte-set";
import { failureNamed, countBefore } from "./common";

/** Its lines begin with a digit (`N - desc: PASSED`, `N tests, ..`) or `=== WARNING ===` at column 0, whatever it saw. */
const STARTS = new ByteSet().digits().chars("=");

export class TesthelpParser extends Parser {
  seen: bool = false;
  passed: i64 = 0; failed: i64 = 0;
  totTests: i64 = -1; totPassed: i64 = -1; totFailed: i64 = -1;

  atRest(): bool { return true; }
  starts(): ByteSet | null { return STARTS; }

  claim(l: Line, f: Facts): bool {
    if (this.seen && l.startsWith("=== WARNING === We have failed tests here")) return true;
    if (!isDigit(l.at(0))) return false;
    let n = l.readInt(0);
    if (n < 0) return false;
    if (l.matchAt(" - ", l.end)) return this.check(l, f, l.end + 3);
    // `10 tests, 7 passed, 3 failed`
    if (!this.seen || !l.matchAt(" tests, ", l.end)) return false;
    let s = l.trimmed(0);
    let p = countBefore(s, "passed");
    let k = countBefore(s, "failed");
    if (p < 0 || k < 0) return false;
    this.totTests = n; this.totPassed = p; this.totFailed = k;
    return true;
  }

  private check(l: Line, f: Facts, a: i32): bool {
    let pass = l.endsWith(": PASSED");
    if (!pass && !l.endsWith(": FAILED")) return false;
    let b = l.len - 8;
    if (b <= a) return false;
    let t = f.testsFor("testhelp");
    this.seen = true;
    if (t.runner != "testhelp") return true;
    if (pass) { this.passed++; return true; }
    this.failed++;
    failureNamed(t, l.trimmed(a, b));
    return true;
  }

  finish(f: Facts): void {
    if (!this.seen) return;
    let t = f.tests;
    if (t === null || t.runner != "testhelp") return;
    if (this.totTests >= 0) { t.passed = this.totPassed; t.failed = this.totFailed; t.totals = true; }
    else { t.passed = this.passed; t.failed = this.failed; }
    t.skipped = 0;
  }
}
