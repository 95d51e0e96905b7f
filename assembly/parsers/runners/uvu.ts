// uvu's default reporter (uvu 0.3 to 0.5, off a TTY). The CLI prints each test file's name alone at column 0
// (`slug.js`, relative to the directory it was given), then one line per suite run: ` basic  ✘ • ✘   (1 / 3)`
// (the suite's name between single spaces, a mark per test, `•` passed and `✘` failed, then `(passed / run)`;
// uvu's unnamed `test` suite prints the marks alone, `✘ •   (1 / 2)`). A suite's failures follow its line:
// `   FAIL  basic  "joins words"` (`   FAIL  "title"` unnamed), the error's message alone at indent 4 with the
// assertion's operator (`Expected values to be strictly equal:  (is)`; a thrown error's message has no class),
// for primitives `++a_b_c    (Expected)` / `--a-b-c    (Actual)` at indent 8, then its stack (`    at …`, node's
// internals left out). The totals close the run: `  Total:     8` (the tests run, skipped ones apart), `  Passed:
// 3`, `  Skipped:   1`, `  Duration:  3.48ms`. With `--bail` uvu exits after the first failing suite's failures
// (uvu 0.5: `Exiting early before testing is finished.`), with no totals: the suite lines are the count.
//
// A failure is named `suite › title` (the title alone in the unnamed suite), its unit the test file: two files'
// suites often share a name. The file's line is another reader's at first (ESLint's stylish reader holds a
// column-0 script path as its possible header and gives it back, Facts.released, when no problem follows): the
// suite line after it takes it back from there, so it leaves the tail too.
import { Char, isDigit } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts, TestFailure } from "../../model";
import { Parser } from "../../parser";
import { ByteSet } from "../../util/byte-set";
import { normPath } from "../../frames";
import { utf8, matchBytes, frameOfText, joinLines, failureIn, foreignLine, isScriptPath } from "./common";

const PASS = utf8("\u2022 ");   // •
const FAIL = utf8("\u2718 ");   // ✘
const HEADER = "FAIL  ";
const EXITING = "Exiting early before testing is finished.";
const SEP = " \u203A ";

/** At rest: an unnamed suite's line starts with a mark (0xE2); every suite line ends with `)`. */
const STARTS = new ByteSet().chars("\u2718\u2022");
const ENDS = new ByteSet().add(Char.RPAREN);

export class UvuParser extends Parser {
  seen: bool = false;
  /** The test file whose suites are running (its column-0 line), null before one. */
  file: string | null = null;
  cur: TestFailure | null = null;
  msg: string[] = [];
  expected: string | null = null;
  actual: string | null = null;
  located: bool = false;
  /** From the suite lines: the passes and failures (`(1 / 3)`: 1 passed, 2 failed). */
  nPass: i64 = 0; nFail: i64 = 0;
  /** The totals: -1 until printed. */
  total: i64 = -1; passed: i64 = -1; skipped: i64 = -1;

  busy(): bool { return this.cur !== null; }
  atRest(): bool { return !this.seen; }
  starts(): ByteSet | null { return STARTS; }
  endsStarts(): ByteSet | null { return ENDS; }

  claim(l: Line, f: Facts): bool {
    if (this.cur !== null) {
      if (this.body(l)) return true;
      this.end();
    }
    if (l.at(l.len - 1) == Char.RPAREN && this.suiteLine(l, f)) return true;
    if (!this.seen) return false;
    let p = l.skipSpaces(0);
    if (p == 3 && l.matchAt(HEADER, 3)) return this.failure(l, f);
    if (p == 2) return this.totals(l);
    if (p == 0 && l.len > 0) {
      if (l.startsWith(EXITING)) return true;
      // A later file's line, when no reader held it first.
      let s = l.toString();
      if (isScriptPath("./" + s)) { this.file = s; return true; }
    }
    return false;
  }

  /**
   * ` basic  ✘ • ✘   (1 / 3)`, `✘ •   (1 / 2)`, ` skipped    (0 / 0)`: the counts, and the suite's file. A stack
   * frame's `:26:3)` is turned down at its second byte from the end.
   */
  private suiteLine(l: Line, f: Facts): bool {
    let e = l.len - 2;
    let q = e;
    while (q >= 0 && isDigit(l.at(q))) q--;
    if (q == e || l.at(q) != Char.SPACE || l.at(q - 1) != Char.SLASH || l.at(q - 2) != Char.SPACE) return false;
    let run = l.readInt(q + 1);
    let r = q - 3;
    let d = r;
    while (r >= 0 && isDigit(l.at(r))) r--;
    if (r == d || l.at(r) != Char.LPAREN || l.at(r - 1) != Char.SPACE || l.at(r - 2) != Char.SPACE) return false;
    let ok = l.readInt(r + 1);
    if (ok < 0 || run < ok) return false;
    // Before the counts: the marks (`• `, `✘ `) and spaces, after ` name  ` when the suite has one.
    let stop = r - 2;
    let i = 0;
    if (l.at(0) == Char.SPACE) {
      if (l.at(1) == Char.SPACE) return false;
      let n = l.indexOf("  ", 1);
      if (n < 0 || n > stop) return false;
      i = n;
    }
    let marks: i64 = 0;
    while (i < stop) {
      if (l.at(i) == Char.SPACE) { i++; continue; }
      if (!matchBytes(l, PASS, i) && !matchBytes(l, FAIL, i)) return false;
      marks++;
      i += 4;
    }
    if (marks != run) return false;
    this.seen = true;
    f.testsFor("uvu");
    // The file's line just before, given back by the reader that held it.
    let rel = f.released;
    if (rel.length > 0) {
      let s = rel[rel.length - 1];
      if (isScriptPath("./" + s)) { rel.pop(); this.file = s; }
    }
    this.nPass += ok;
    this.nFail += run - ok;
    return true;
  }

  /** `   FAIL  basic  "joins words"`, `   FAIL  "no suite name"`. */
  private failure(l: Line, f: Facts): bool {
    if (l.at(l.len - 1) != Char.QUOTE) return false;
    let a = 3 + HEADER.length;
    let name: string;
    if (l.at(a) == Char.QUOTE) name = l.str(a + 1, l.len - 1);
    else {
      let q = l.indexOf("  \"", a);
      if (q < 0 || q + 3 > l.len - 1) return false;
      name = l.str(a, q) + SEP + l.str(q + 3, l.len - 1);
    }
    let t = f.testsFor("uvu");
    let file = this.file;
    this.cur = failureIn(t, name, file !== null ? file! : "");
    this.msg = [];
    this.expected = null;
    this.actual = null;
    this.located = false;
    return true;
  }

  /** A line of the open failure: its message, the `++`/`--` sides, its stack; false at its end. */
  private body(l: Line): bool {
    if (l.isBlank()) return true;
    if (foreignLine(l)) return false;
    let p = l.skipSpaces(0);
    if (p < 4) return false;
    if (p == 4 && l.matchAt("at ", 4)) {
      if (!this.located) {
        let fr = frameOfText(l.str(4));
        if (fr !== null && fr.user && fr.file !== null) {
          let t = this.cur!;
          t.file = normPath(fr.file!); t.line = fr.line;
          this.located = true;
        }
      }
      return true;
    }
    if (p >= 8) {
      // Primitives' sides, one line each: `++a_b_c    (Expected)`, `--a-b-c    (Actual)`.
      if (l.matchAt("++", p) && l.endsWith("(Expected)")) this.expected = l.trimmed(p + 2, l.len - 10);
      else if (l.matchAt("--", p) && l.endsWith("(Actual)")) this.actual = l.trimmed(p + 2, l.len - 8);
      return true;
    }
    if (this.msg.length < 6) {
      let s = l.trimmed(p);
      // The assertion's operator uvu appends: `  (is)`, `  (equal)`.
      if (this.msg.length == 0 && s.endsWith(")")) {
        let o = s.lastIndexOf("  (");
        if (o > 0 && s.indexOf(" ", o + 3) < 0) s = s.substring(0, o);
      }
      this.msg.push(s);
    }
    return true;
  }

  private end(): void {
    let t = this.cur;
    if (t !== null) {
      if (this.msg.length > 0) t.message = joinLines(this.msg, 6);
      if (this.expected !== null) t.expected = this.expected;
      if (this.actual !== null) t.actual = this.actual;
    }
    this.cur = null;
    this.msg = [];
  }

  /** `  Total:     8`, `  Passed:    3`, `  Skipped:   1`, `  Duration:  3.48ms`. */
  private totals(l: Line): bool {
    if (l.matchAt("Duration:", 2)) return true;
    let w = l.matchAt("Total:", 2) ? 0 : l.matchAt("Passed:", 2) ? 1 : l.matchAt("Skipped:", 2) ? 2 : -1;
    if (w < 0) return false;
    let p = l.skipSpaces(2 + (w == 0 ? 6 : w == 1 ? 7 : 8));
    let n = l.readInt(p);
    if (n < 0) return false;
    if (w == 0) this.total = n; else if (w == 1) this.passed = n; else this.skipped = n;
    return true;
  }

  finish(f: Facts): void {
    this.end();
    if (!this.seen) return;
    let t = f.testsFor("uvu");
    if (t.runner != "uvu") return;
    if (this.total >= 0 && this.passed >= 0) {
      t.passed = this.passed;
      t.failed = max<i64>(this.total - this.passed, 0);
      t.skipped = max<i64>(this.skipped, 0);
      t.totals = true;
    } else {
      t.passed = this.nPass;
      t.failed = this.nFail;
    }
  }
}
