// minitest (5.x: `ruby test/x.rb`, `rake test`, several files loaded into one process): `Run options: --seed N`,
// `# Running:`, the marks (`SF.EF.F`) or under -v a line per test (`TestCalc#test_add = 0.00 s = .`), `Finished in
// 0.0012s, ... runs/s, ...`, then numbered blocks:
//     1) Failure:                                  2) Error:                           3) Skipped: (-v only)
//   TestCalc#test_x [test/test_calc.rb:10]:      TestCalc#test_y:                    TestCalc#test_z [file:18]:
//   Expected: 2                                  ZeroDivisionError: divided by 0     not written yet
//     Actual: 1                                      ./lib/calc.rb:7:in `/'
// (a long or multi-line value: a `--- expected` / `+++ actual` diff instead); a spec's test is `slug#test_0002_x`.
// The totals close the run: `7 runs, 5 assertions, 3 failures, 1 errors, 1 skips` (passed = runs less the rest).
// A Failure is placed at its bracketed place, an Error at its backtrace's innermost user frame (the test's line
// when the exception came from a gem or the standard library).
import { isDigit } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts, TestFailure } from "../../model";
import { Parser } from "../../parser";
import { ByteSet } from "../../util/byte-set";
import { withName } from "../../util/name-hash";
import { failureNamed, joinLines, isUserFile, rightTrimmed, countedParts, rubyReceiverCut } from "./common";
import { rubyFrame } from "./rspec";

const RUN_OPTIONS = "Run options: ";
const RUNNING = "# Running:";
const FINISHED = "Finished in ";
const SKIPPED_HINT = "You have skipped tests. Run with --verbose for details.";
const MAX_MSG: i32 = 6;

/** At rest, minitest starts on `Run options: ...` or `# Running:`. */
const STARTS = new ByteSet().add(0x52).add(0x23);

const enum Blk { NONE, FAILURE, ERROR, SKIPPED }

@final
export class MinitestParser extends Parser {
  private seen: bool = false;
  private blk: Blk = Blk.NONE;
  /** The block's `Klass#test [place]:` line is next. */
  private named: bool = false;
  private cur: TestFailure | null = null;
  private msg: string[] = [];
  private placed: bool = false;
  /** Past a `--- expected` / `+++ actual` header: the message is the diff's lines. */
  private diff: bool = false;
  private runs: i64 = -1; private failures: i64 = 0; private errors: i64 = 0; private skips: i64 = 0;
  /** -v's passing tests, hashed by name (Tests.passedSet); null past its bound. */
  private passes: Array<u32> | null = [];
  private verbose: bool = false;

  busy(): bool { return this.blk != Blk.NONE; }
  atRest(): bool { return !this.seen; }
  starts(): ByteSet | null { return STARTS; }

  claim(l: Line, f: Facts): bool {
    // minitest's options start with a dash (`--seed 7`, `-v --seed 7`); RSpec's `Run options: include {…}` are not its.
    if (l.startsWith(RUN_OPTIONS) && l.at(RUN_OPTIONS.length) == 0x2D) { this.end(); this.begin(f); return true; }
    if (l.startsWith(RUNNING) && l.len == RUNNING.length) { this.end(); this.begin(f); return true; }
    if (!this.seen) return false;
    if (l.len > 0 && l.at(0) != 0x20) {
      if (this.named) return this.nameLine(l, f);
      if (l.startsWith(FINISHED) && l.contains(" runs/s")) { this.end(); return true; }
      if (isDigit(l.at(0)) && l.contains(" runs, ") && this.totals(l.trimmed(0))) { this.end(); return true; }
      if (l.startsWith(SKIPPED_HINT)) return true;
      if (this.blk == Blk.NONE) return this.mark(l);
    } else if (l.len > 0 && this.header(l)) return true;
    if (this.blk == Blk.NONE) return false;
    this.body(l);
    return true;
  }

  private begin(f: Facts): void {
    this.seen = true;
    f.testsFor("minitest");
  }

  /** `  1) Failure:`, `  2) Error:`, `  3) Skipped:`: a block opens. */
  private header(l: Line): bool {
    let p = l.skipSpaces(0);
    if (p == 0 || !isDigit(l.at(p))) return false;
    let k = p;
    while (k < l.len && isDigit(l.at(k))) k++;
    if (!l.matchAt(") ", k)) return false;
    let kind: Blk = l.matchAt("Failure:", k + 2) ? Blk.FAILURE : l.matchAt("Error:", k + 2) ? Blk.ERROR
      : l.matchAt("Skipped:", k + 2) ? Blk.SKIPPED : Blk.NONE;
    if (kind == Blk.NONE) return false;
    this.end();
    this.blk = kind;
    this.named = true;
    return true;
  }

  /** `TestCalc#test_x [./test/test_calc.rb:10]:` or (an Error) `TestCalc#test_y:`. */
  private nameLine(l: Line, f: Facts): bool {
    this.named = false;
    let s = l.trimmed(0);
    if (!s.endsWith(":")) { this.blk = Blk.NONE; return false; }
    s = s.substring(0, s.length - 1);
    let place: string | null = null;
    if (s.endsWith("]")) {
      let b = s.lastIndexOf(" [");
      if (b > 0) { place = s.substring(b + 2, s.length - 1); s = s.substring(0, b); }
    }
    if (this.blk == Blk.SKIPPED) return true;
    let t = failureNamed(f.testsFor("minitest"), s);
    this.cur = t;
    this.msg = [];
    this.placed = false;
    this.diff = false;
    if (place !== null) {
      let fr = rubyFrame(place!);
      if (fr !== null) { t.file = fr.file; t.line = fr.line; this.placed = this.blk == Blk.FAILURE; }
    }
    return true;
  }

  private body(l: Line): void {
    let t = this.cur;
    if (t === null || l.isBlank()) return;
    let s = l.trimmed(0);
    // An Error's backtrace, indented: its innermost user frame is where the failure is.
    if (this.blk == Blk.ERROR && this.msg.length > 0 && l.skipSpaces(0) >= 4) {
      if (!this.placed) {
        let fr = rubyFrame(s);
        if (fr !== null && fr.file !== null && isUserFile(fr.file!)) { t.file = fr.file; t.line = fr.line; this.placed = true; }
      }
      return;
    }
    // A diff's header lines say nothing; its lines keep their first column (` ` same, `-` expected, `+` actual).
    if (s == "--- expected" || s == "+++ actual") { this.diff = true; return; }
    if (this.diff && s.startsWith("@@ ")) return;
    if (s.startsWith("Expected: ") && t.expected === null) t.expected = s.substring(10);
    else if (s.startsWith("Actual: ") && t.actual === null) t.actual = s.substring(8);
    if (this.msg.length == 0 && this.blk == Blk.ERROR) s = rubyReceiverCut(s);
    if (this.msg.length < MAX_MSG) this.msg.push(this.diff ? rightTrimmed(l) : s);
  }

  private end(): void {
    let t = this.cur;
    if (t !== null && this.msg.length > 0) t.message = joinLines(this.msg, MAX_MSG);
    this.cur = null;
    this.msg = [];
    this.blk = Blk.NONE;
    this.named = false;
  }

  /** A mark line (`SF.EF.F`), or -v's `TestCalc#test_add = 0.00 s = .`. */
  private mark(l: Line): bool {
    let n = l.len;
    while (n > 0 && l.at(n - 1) == 0x20) n--;
    if (n >= 8 && l.at(n - 2) == 0x20 && l.at(n - 3) == 0x3D && l.matchAt(" s = ", n - 6)) {
      let e = l.indexOf(" = ");
      if (e <= 0) return false;
      this.verbose = true;
      if (l.at(n - 1) == 0x2E) this.passes = withName(this.passes, l.str(0, e));
      return true;
    }
    for (let i = 0; i < n; i++) {
      let c = l.at(i);
      if (c != 0x2E && c != 0x46 && c != 0x45 && c != 0x53) return false;
    }
    return n > 0;
  }

  /** `7 runs, 5 assertions, 3 failures, 1 errors, 1 skips`. */
  private totals(s: string): bool {
    let cs = countedParts(s);
    if (cs === null) return false;
    let runs: i64 = -1, fa: i64 = -1, er: i64 = 0, sk: i64 = 0;
    for (let i = 0; i < cs.length; i++) {
      let n = cs[i].n; let w = cs[i].word;
      if (w == "runs" || w == "run") runs = n;
      else if (w == "failures" || w == "failure") fa = n;
      else if (w == "errors" || w == "error") er = n;
      else if (w == "skips" || w == "skip") sk = n;
      else if (w != "assertions" && w != "assertion") return false;
    }
    if (runs < 0 || fa < 0) return false;
    // Several runs in one log (`ruby a.rb; ruby b.rb`): summed.
    this.runs = max<i64>(this.runs, 0) + runs;
    this.failures += fa; this.errors += er; this.skips += sk;
    return true;
  }

  finish(f: Facts): void {
    this.end();
    if (!this.seen) return;
    let t = f.testsFor("minitest");
    if (t.runner != "minitest") return;
    if (this.runs >= 0) {
      t.passed = max<i64>(0, this.runs - this.failures - this.errors - this.skips);
      t.failed = this.failures;
      t.errors = this.errors;
      t.skipped = this.skips;
      t.totals = true;
      let ps = this.passes;
      if (this.verbose && ps !== null && <i64>ps.length == t.passed) t.passedSet = ps;
    } else {
      t.passed = -1;
      t.failed = t.failures.length;
    }
  }
}
