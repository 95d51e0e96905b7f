// Criterion (Snaipe/Criterion 2.x), its default and --verbose output, read by gtest's reader (its lines are
// bracket-tagged too, the tag four bytes wide): each test runs in a process of its own, several at once, so a
// `[RUN ]` line says nothing of the lines after it. A failed assertion is `[----] file.c:16: Assertion Failed`,
// its message behind `[----]   `, before its test's `[FAIL] suite::name: (0.00s)`; a test whose process died is
// `[----] file.c:31: Unexpected signal caught below this line!` then `[FAIL] suite::name: CRASH!` (the runner goes
// on: no crash of the run's); `Timed out. (1.00s)` after the name for a timeout. --verbose adds `[----] Criterion
// v2.4.1`, `[====] Running N tests from suite:`, `[RUN ]`, `[PASS] suite::name: (0.00s)` and `[SKIP] suite::name:
// reason`. The closing `[====] Synthesis: Tested: 5 | Passing: 2 | Failing: 3 | Crashing: 1` (crashes are among the
// failing) is all a run that passes prints without --verbose.
import { Char, isDigit } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts } from "../../model";
import { normPath } from "../../frames";
import { failureNamed, joinLines } from "./common";
import { withName } from "../../util/name-hash";

const RUNNER = "criterion";
/** Message lines kept of one failed test (its assertions' lines, one after another). */
const MAX_MSG = 10;
const CRASH_MSG = "Unexpected signal caught below this line!";

@final
export class CriterionReader {
  seen: bool = false;
  passed: i64 = 0; failed: i64 = 0; skipped: i64 = 0;
  totPassed: i64 = -1; totFailed: i64 = -1;
  /** The failed assertions waiting for their `[FAIL]` line: the first one's place, every message line. */
  file: string | null = null;
  line: i32 = 0;
  msg: string[] = [];
  crashed: bool = false;
  /** Every `[PASS]` test's name hashed (Tests.passedSet); null past MAX_PASSED_SET. */
  passHashes: Array<u32> | null = [];

  atRest(): bool { return !this.seen; }

  /** A line `[XXXX] ...` (the caller checked `[` at 0 and `]` at 5). */
  claim(l: Line, f: Facts): bool {
    if (l.at(6) != Char.SPACE) return false;
    let c = l.at(1);
    if (c == Char.MINUS) return l.matchAt("----", 1) && this.note(l);
    if (c == Char.EQ) return l.matchAt("====", 1) && this.banner(l, f);
    if (c == Char.F) return l.matchAt("FAIL", 1) && this.fail(l, f);
    if (c == Char.P) return l.matchAt("PASS", 1) && this.pass(l);
    if (c == Char.S) return l.matchAt("SKIP", 1) && this.skip(l);
    if (c == Char.R) return l.matchAt("RUN ", 1) && this.named(l, 7) > 0 && this.start();
    // `[WARN] ...`, `[ERR ] ...`: the runner's own remarks, once it showed itself.
    if (c == Char.W) return l.matchAt("WARN", 1) && this.seen;
    if (c == Char.E) return l.matchAt("ERR ", 1) && this.seen;
    return false;
  }

  private start(): bool { this.seen = true; return true; }

  /** `[----] file.c:16: Assertion Failed`, `[----]   message`, `[----] Criterion v2.4.1`, `[----] Warning! ...`. */
  private note(l: Line): bool {
    if (l.at(7) == Char.SPACE) {
      if (!this.seen) return false;
      if (this.file !== null && this.msg.length < MAX_MSG && l.skipSpaces(7) < l.len) this.msg.push(l.trimmed(7));
      return true;
    }
    if (l.matchAt("Criterion v", 7)) return this.start();
    let k = l.indexOf(": ", 7);
    let colon = k > 8 ? l.lastIndexOfByte(Char.COLON, k) : -1;
    if (colon > 7 && colon + 1 < k && allDigits(l, colon + 1, k)) {
      let text = l.trimmed(k + 2);
      if (this.file === null) { this.file = normPath(l.str(7, colon)); this.line = <i32>l.readInt(colon + 1); }
      if (text == CRASH_MSG) this.crashed = true;
      else if (text != "Assertion Failed" && this.msg.length < MAX_MSG) this.msg.push(text);
      return this.start();
    }
    return this.seen;
  }

  /** `[====] Running 3 tests from ring:`, `[====] Synthesis: Tested: 5 | Passing: 2 | Failing: 3 | Crashing: 1`. */
  private banner(l: Line, f: Facts): bool {
    if (l.matchAt("Synthesis: Tested: ", 7)) {
      let p = l.indexOf("| Passing: ", 26);
      let q = l.indexOf("| Failing: ", 26);
      if (p < 0 || q < 0) return false;
      this.totPassed = max<i64>(this.totPassed, 0) + max<i64>(l.readInt(p + 11), 0);
      this.totFailed = max<i64>(this.totFailed, 0) + max<i64>(l.readInt(q + 11), 0);
      f.testsFor(RUNNER);
      return this.start();
    }
    if (l.matchAt("Running ", 7) && isDigit(l.at(15)) && l.indexOf(" from ", 16) > 0) return this.start();
    return false;
  }

  /** `[FAIL] suite::name: (0.00s)`, `... CRASH!`, `... Timed out. (1.00s)`. */
  private fail(l: Line, f: Facts): bool {
    let k = this.named(l, 7);
    if (k < 0) return false;
    this.seen = true;
    let t = failureNamed(f.testsFor(RUNNER), l.str(7, k));
    let rest = l.trimmed(k + 2);
    if (t.file === null && this.file !== null) { t.file = this.file; t.line = this.line; }
    let parts = new Array<string>(0);
    if (rest == "CRASH!" || this.crashed) parts.push("CRASH! " + CRASH_MSG);
    else if (rest.startsWith("Timed out.")) parts.push("Timed out.");
    for (let i = 0; i < this.msg.length; i++) parts.push(this.msg[i]);
    t.message = parts.length > 0 ? joinLines(parts, MAX_MSG) : "failed";
    this.failed++;
    this.file = null; this.line = 0; this.msg = []; this.crashed = false;
    return true;
  }

  private pass(l: Line): bool {
    let k = this.named(l, 7);
    if (k < 0) return false;
    this.passHashes = withName(this.passHashes, l.str(7, k));
    this.passed++;
    return this.start();
  }

  private skip(l: Line): bool {
    if (this.named(l, 7) < 0) return false;
    this.skipped++;
    return this.start();
  }

  /**
   * The end of a `suite::name` starting at a (the `: ` after it, or the line's end for `[RUN ]`), or -1 when the
   * words there are not one.
   */
  private named(l: Line, a: i32): i32 {
    let sep = l.indexOf("::", a);
    if (sep <= a) return -1;
    let k = l.indexOf(": ", sep + 2);
    let e = k > 0 ? k : l.len;
    if (e <= sep + 2) return -1;
    let sp = l.indexOfByte(Char.SPACE, a);
    return sp >= 0 && sp < e ? -1 : e;
  }

  finish(f: Facts): void {
    // A lone `[----] file.c:3: ...` line is no run: a result or the synthesis makes one.
    if (!this.seen || this.totPassed < 0 && this.passed + this.failed + this.skipped == 0) return;
    let t = f.testsFor(RUNNER);
    if (t.runner != RUNNER) return;
    t.passed = this.totPassed >= 0 ? this.totPassed : this.passed;
    t.failed = this.totFailed >= 0 ? max(this.totFailed, this.failed) : this.failed;
    t.skipped = this.skipped;
    if (this.totPassed >= 0) t.totals = true;
    let hs = this.passHashes;
    if (hs !== null && this.totPassed >= 0 && <i64>hs.length == this.totPassed) t.passedSet = hs;
  }
}

function allDigits(l: Line, a: i32, b: i32): bool {
  for (let i = a; i < b; i++) if (!isDigit(l.at(i))) return false;
  return true;
}
