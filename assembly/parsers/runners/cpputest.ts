// CppUTest's closing line, read by the check-script parser (its failures, in the compiler's format, are read by
// the gcc parser: c-family/gcc.ts cpputest):
//
//   Errors (3 failures, 5 tests, 4 ran, 4 checks, 1 ignored, 0 filtered out, 3 ms)
//   OK (46 tests, 42 ran, 272 checks, 4 ignored, 0 filtered out, 11 ms)
//
// passed = ran - failures, skipped = ignored (a filtered-out test was not asked for); added up over programs.
import { Char } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts } from "../../model";

export class CpputestReport {
  seen: bool = false;
  private passed: i64 = 0;
  private failed: i64 = 0;
  private skipped: i64 = 0;

  /** True when the line is CppUTest's closing line. */
  claim(l: Line, f: Facts): bool {
    let c = l.at(0);
    if (c != Char.O && c != Char.E) return false;
    let p = 0;
    let failures: i64 = 0;
    if (l.startsWith("OK (")) p = 4;
    else if (l.startsWith("Errors (")) {
      failures = l.readInt(8);
      if (failures < 0 || !(l.matchAt(" failures, ", l.end) || l.matchAt(" failure, ", l.end))) return false;
      p = l.indexOf(", ", 8) + 2;
    } else return false;
    if (!l.endsWith(" ms)")) return false;
    let tests = l.readInt(p);
    if (tests < 0 || !(l.matchAt(" tests, ", l.end) || l.matchAt(" test, ", l.end))) return false;
    let r = l.indexOf(", ", l.end) + 2;
    let ran = l.readInt(r);
    if (ran < 0 || !l.matchAt(" ran, ", l.end)) return false;
    let ig = l.indexOf(" ignored, ", l.end);
    if (ig < 0) return false;
    let s = l.lastIndexOf(", ", ig) + 2;
    let ignored = l.readInt(s);
    if (ignored < 0 || l.end != ig) return false;
    this.seen = true;
    this.passed += max<i64>(ran - failures, 0);
    this.failed += failures;
    this.skipped += ignored;
    f.testsFor("cpputest");
    return true;
  }

  finish(f: Facts): void {
    if (!this.seen) return;
    let t = f.testsFor("cpputest");
    if (t.runner != "cpputest") return;
    t.passed = this.passed;
    t.failed = max<i64>(this.failed, <i64>t.failures.length);
    t.skipped = this.skipped;
    t.totals = true;
  }
}
