// Unity (ThrowTheSwitch), the C test framework of cJSON and much embedded C: one line per test,
// `test_x.c:51:test_name:PASS`, `test_x.c:27:test_name:FAIL: Expected 12 Was 16`, `...:IGNORE: reason`,
// `...:INFO: text`, then `-----------------------`, `8 Tests 2 Failures 1 Ignored` and `OK` or `FAIL`;
// a run of several test programs prints one summary each. Every PASS test is hashed with its file (the
// program's, `UNITY_BEGIN`'s) as its unit (Tests.passedSet) when they are as many as the summaries' passes.
// A failure's `Expected X Was Y` gives its expected and actual sides (quoted strings kept whole).
import { Char, isDigit, isSpace } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts, TestFailure } from "../../model";
import { Parser } from "../../parser";
import { ByteSet } from "../../util/byte-set";
import { normPath } from "../../frames";
import { failureNamed } from "./common";
import { withName } from "../../util/name-hash";

const BREAKER = "-----------------------";

/** At rest (no verdict line due): the breaker (`-`), the counts (a digit), a result line (`file:line:test:STATUS`: colonStarts). */
const STARTS = new ByteSet().chars("-").digits();

export class UnityParser extends Parser {
  seen: bool = false;
  passed: i64 = 0; failed: i64 = 0; ignored: i64 = 0;
  totTests: i64 = -1; totFailed: i64 = -1; totIgnored: i64 = -1;
  /** After the summary's counts: its `OK` / `FAIL` line is next. */
  verdictNext: bool = false;
  /** Every PASS test hashed with its file (Tests.passedSet); null past MAX_PASSED_SET. */
  passHashes: Array<u32> | null = [];

  atRest(): bool { return !this.verdictNext; }
  starts(): ByteSet | null { return STARTS; }
  colonStarts(): bool { return true; }

  claim(l: Line, f: Facts): bool {
    if (this.verdictNext) {
      this.verdictNext = false;
      if (l.len <= 7 && (l.startsWith("OK") || l.startsWith("FAIL"))) return true;
    }
    let c = l.at(0);
    if (c == Char.MINUS) {
      // The breaker, then the counts: claimed once a result line said this is Unity.
      return this.seen && l.len == BREAKER.length && l.startsWith(BREAKER);
    }
    if (isDigit(c)) return this.summary(l, f);
    if (isSpace(c) || c < 0) return false;
    return this.result(l, f);
  }

  /** `8 Tests 2 Failures 1 Ignored `. */
  private summary(l: Line, f: Facts): bool {
    let n = l.readInt(0);
    if (n < 0 || !l.matchAt(" Tests ", l.end)) return false;
    let k = l.readInt(l.end + 7);
    if (k < 0 || !l.matchAt(" Failures ", l.end)) return false;
    let i = l.readInt(l.end + 10);
    if (i < 0 || !l.matchAt(" Ignored", l.end)) return false;
    this.seen = true;
    // One summary per test program: `make` or a script running several (Unity's own examples run two)
    // prints one after another, and the run's counts are their sum.
    if (this.totTests < 0) { this.totTests = 0; this.totFailed = 0; this.totIgnored = 0; }
    this.totTests += n; this.totFailed += k; this.totIgnored += i;
    this.verdictNext = true;
    f.testsFor("unity");
    return true;
  }

  /** `file:line:test:STATUS[: message]`. */
  private result(l: Line, f: Facts): bool {
    let c1 = l.indexOfByte(Char.COLON);
    if (c1 <= 0) return false;
    for (let i = 0; i < c1; i++) if (isSpace(l.at(i))) return false;
    let line = l.readInt(c1 + 1);
    if (line < 0 || l.at(l.end) != Char.COLON) return false;
    let a = l.end + 1;
    let c3 = l.indexOfByte(Char.COLON, a);
    if (c3 <= a) return false;
    let s = c3 + 1;
    let status = "";
    if (l.matchAt("PASS", s)) status = "PASS";
    else if (l.matchAt("FAIL", s)) status = "FAIL";
    else if (l.matchAt("IGNORE", s)) status = "IGNORE";
    else if (l.matchAt("INFO", s)) status = "INFO";
    else return false;
    let e = s + status.length;
    let after = l.at(e);
    if (after >= 0 && after != Char.COLON && after != Char.SPACE) return false;
    this.seen = true;
    let t = f.testsFor("unity");
    if (t.runner != "unity") return true;
    if (status == "PASS") { this.passed++; this.passHashes = withName(this.passHashes, l.trimmed(a, c3), normPath(l.str(0, c1))); return true; }
    if (status == "IGNORE") { this.ignored++; return true; }
    if (status == "INFO") return true;
    this.failed++;
    let tf = failureNamed(t, l.trimmed(a, c3));
    tf.file = normPath(l.str(0, c1));
    tf.line = <i32>line;
    let msg = after == Char.COLON ? l.trimmed(e + 1) : "";
    tf.message = msg.length > 0 ? msg : "FAIL";
    sides(tf);
    return true;
  }

  finish(f: Facts): void {
    if (!this.seen) return;
    let t = f.tests;
    if (t === null || t.runner != "unity") return;
    if (this.totTests >= 0) {
      t.failed = this.totFailed;
      t.skipped = this.totIgnored;
      t.passed = max<i64>(this.totTests - this.totFailed - this.totIgnored, 0);
      t.totals = true;
      // Each program named every test it passed: which ran is known (a program that died printed no summary).
      let hs = this.passHashes;
      if (hs !== null && <i64>hs.length == t.passed) t.passedSet = hs;
    } else {
      t.failed = this.failed; t.skipped = this.ignored; t.passed = this.passed;
    }
  }
}

/** `Expected 12 Was 16`, `Expected 'a' Was 'b' Character 3 ...`, `Expected "x" Was "y"`: the two sides. */
function sides(tf: TestFailure): void {
  let msg = tf.message;
  let p = msg.indexOf("Expected ");
  if (p < 0) return;
  let ex = token(msg, p + 9);
  if (ex === null) return;
  let q = p + 9 + ex!.length;
  if (!msg.startsWith(" Was ", q)) return;
  let ac = token(msg, q + 5);
  if (ac === null) return;
  tf.expected = ex;
  tf.actual = ac;
}

/** One value at i: a quoted string up to its closing quote, or up to a space or `:`. */
function token(s: string, i: i32): string | null {
  if (i >= s.length) return null;
  let q = s.charCodeAt(i);
  if (q == Char.QUOTE || q == Char.APOS) {
    // The closing quote is the one followed by a space, `:` or the end (the value may hold quotes).
    for (let k = i + 1; k < s.length; k++) {
      if (s.charCodeAt(k) != q) continue;
      let n = k + 1 < s.length ? s.charCodeAt(k + 1) : -1;
      if (n < 0 || n == Char.SPACE || n == Char.COLON) return s.substring(i, k + 1);
    }
    return null;
  }
  let k = i;
  while (k < s.length && s.charCodeAt(k) != Char.SPACE && s.charCodeAt(k) != Char.COLON) k++;
  return k > i ? s.substring(i, k) : null;
}
