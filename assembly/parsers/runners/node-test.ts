// node --test, spec reporter: `✔ name (1.2ms)`, `✖ name (1.2ms)` with the error printed under it (message,
// `at fn (file:line:col)` frames, `{ actual, expected }`), `▶ suite`, `﹣ name # reason` (skip), and the
// `ℹ tests/pass/fail/skipped N` totals. A `✖` that closes a `▶` suite is a parent: counted by node, not listed;
// so is one whose whole error is node's `'1 subtest failed'` (the dot reporter's `Failed tests:` list prints the
// parents so, with no `▶` before them).
// A failure inside suites is named with them: `suite > inner suite > test`. The dot reporter's list names each
// failure by its leaf alone, in the order they ended: a failing parent comes after its failing children, and its
// `'N subtests failed'` counts them (its direct subtests), so the N nearest failures not yet claimed by a parent
// are its own, named under it (`table() > creates a table`; two leaves of one name are two failures).
// Everything after `✖ failing tests:` repeats the failures and is only claimed. Every `✔` test is hashed by
// that name (Tests.passedSet) when they are as many as `ℹ pass N`, or with the passing parents (`✔ t` closing
// `▶ t`) when those make up the count (a passing `describe` closes the same way; node counts it in `ℹ suites`).
import { Char, isDigit } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts, TestFailure, Tests } from "../../model";
import { Parser } from "../../parser";
import { ByteSet } from "../../util/byte-set";
import { utf8, matchBytes, failureNamed, frameOfText, joinLines, foreignLine, isScriptPath, frameNamedIn } from "./common";
import { join } from "../../util/join";
import { withName, MAX_PASSED_SET } from "../../util/name-hash";

const PASS = utf8("\u2714 ");   // ✔
const FAIL = utf8("\u2716 ");   // ✖
const SUITE = utf8("\u25B6 ");  // ▶
const SKIP = utf8("\uFE63 ");   // ﹣
const INFO = utf8("\u2139 ");   // ℹ
/** `▶` suites deeper than this are not tracked: node nests them by indent, and a log that opens more is not
 * node's (a mutated one opened 256, and each failure's name joined them all: 256 MiB of garbage in one call). */
const MAX_SUITES = 32;
/** Failures of the dot reporter's list waiting for their parent: no more are kept (a parent past them is left). */
const MAX_OPEN = 4096;

/** Before node --test showed itself: its marks (after blanks) start with a byte >= 0xE2. */
const STARTS = new ByteSet().range(0xE2, 0xFF);

export class NodeTestParser extends Parser {
  seen: bool = false;
  /** The Tests the failure being read (cur) is listed in. */
  curTests: Tests | null = null;
  repeat: bool = false;
  suites: string[] = [];
  suiteIndent: i32[] = [];
  cur: TestFailure | null = null;
  curIndent: i32 = 0;
  msg: string[] = [];
  framed: bool = false;
  located: bool = false;
  passed: i64 = -1; failed: i64 = -1; skipped: i64 = -1; cancelled: i64 = 0;
  /** In the `failing tests:` recap, the `test at file:line:col` line names where the next one is. */
  recapAt: string | null = null;
  nPass: i64 = 0; nFail: i64 = 0; nSkip: i64 = 0;
  /** Every `✔` test's full name hashed (Tests.passedSet); null past MAX_PASSED_SET. */
  passHashes: Array<u32> | null = [];
  /** The passing `✔` lines that closed a `▶` (a parent test, or a describe) and their names hashed; `ℹ suites N`. */
  closers: i64 = 0;
  closerHashes: Array<u32> | null = [];
  suitesTotal: i64 = -1;
  /**
   * `ℹ Error: Test "t" at x.test.js:2:1 generated asynchronous activity after the test ended…`: the error a
   * test file threw after its test; node then fails the file by its path (`✖ /w/test/x.test.js`) with the
   * bare `'test failed'`, whose message it becomes. Cleared by the next result.
   */
  lateError: string | null = null;
  /** The file's failure that message is for (its block's `'test failed'` is replaced at its end). */
  lateFor: TestFailure | null = null;

  /** Failures no parent has claimed yet, outside any `▶` suite (the dot reporter's), and where each group starts. */
  open: TestFailure[] = [];
  groupStart: i32[] = [];
  /** How many parents deep each group's names are: past MAX_SUITES a parent adopts its group unnamed. */
  groupDepth: i32[] = [];

  busy(): bool { return this.cur !== null || this.repeat; }
  atRest(): bool { return !this.seen && !this.repeat && this.cur === null; }
  starts(): ByteSet | null { return STARTS; }

  claim(l: Line, f: Facts): bool {
    let p = l.skipSpaces(0);
    let c = l.at(p);
    // All the reporter's marks start with a byte >= 0xE2; anything else is only looked at inside a block.
    if (c >= 0xE2) {
      if (matchBytes(l, PASS, p) || matchBytes(l, FAIL, p) || matchBytes(l, SKIP, p)) return this.result(l, f, p);
      if (matchBytes(l, SUITE, p)) { this.end(); this.seen = true; f.testsFor("node-test"); this.openSuite(l.trimmed(p + 4), p); return true; }
      if (matchBytes(l, INFO, p) && this.seen) { this.end(); this.info(l, p + 4); return true; }
    }
    if (!this.seen) return false;
    if (this.repeat) {
      if (l.matchAt("test at ", p)) this.recapAt = l.trimmed(p + 8);
      return true;
    }
    if (this.cur === null) return false;
    if (p <= this.curIndent && !l.isBlank()) { this.end(); return false; }
    if (foreignLine(l)) return false;
    this.body(l, p);
    return true;
  }

  private result(l: Line, f: Facts, p: i32): bool {
    let fail = matchBytes(l, FAIL, p);
    let skip = matchBytes(l, SKIP, p);
    let a = p + (skip ? 4 : 4);
    // One space after the mark: gotestsum's line a package has two (`✖  ./pkg (12ms)`), not node's.
    if (l.at(a) == Char.SPACE) return false;
    let s = l.trimmed(a);
    if (!s.includes("ms)") && !s.endsWith(":") && !(s.startsWith("failing tests"))) return false;
    if (wholeMilliseconds(s)) return false;
    this.end();
    this.seen = true;
    let t = f.testsFor("node-test");
    if (fail && s == "failing tests:") { this.repeat = true; return true; }
    let hash = s.lastIndexOf(" # ");
    let todo = hash > 0 && s.substring(hash + 3).toUpperCase().startsWith("TODO");
    if (hash > 0) s = s.substring(0, hash);
    let paren = s.lastIndexOf(" (");
    let name = paren > 0 ? s.substring(0, paren) : s;
    if (this.repeat) {
      // The recap repeats each failure after `test at file:line:col`: a location its block lacked.
      let at = this.recapAt;
      this.recapAt = null;
      if (fail && at !== null) {
        let fr = frameOfText(at!);
        if (fr !== null && fr.user) {
          for (let i = 0; i < t.failures.length; i++) {
            let x = t.failures[i];
            // the recap prints the leaf name only
            if ((x.name == name || x.name.endsWith(" > " + name)) && x.file === null) { x.file = fr.file; x.line = fr.line; break; }
          }
        }
      }
      return true;
    }
    // A result at a `▶` suite's indent with its name closes the suite; suites indented deeper are over.
    let n = this.suites.length;
    while (n > 0 && this.suiteIndent[n - 1] > p) { this.suites.pop(); this.suiteIndent.pop(); n--; }
    if (n > 0 && this.suiteIndent[n - 1] == p && this.suites[n - 1] == name) {
      // `✔ codes` closing `▶ codes`: a test with subtests that passed (node counts it in `ℹ pass`), or a
      // `describe` (counted apart, `ℹ suites`): which one, only the totals tell (finish).
      if (!fail && !skip) { this.closers++; this.closerHashes = withName(this.closerHashes, this.fullName(name, p)); }
      this.suites.pop(); this.suiteIndent.pop();
      return true;
    }
    let late = this.lateError;
    this.lateError = null;
    if (skip) { this.nSkip++; return true; }
    if (!fail) { this.nPass++; this.passHashes = withName(this.passHashes, this.fullName(name, p)); return true; }
    if (todo) return true;
    this.nFail++;
    this.cur = failureNamed(t, this.fullName(name, p));
    if (n == 0 && this.open.length < MAX_OPEN) { this.groupStart.push(this.open.length); this.groupDepth.push(0); this.open.push(this.cur!); }
    this.curTests = t;
    this.curIndent = p;
    this.msg = []; this.framed = false; this.located = false;
    if (late !== null && n == 0 && isScriptPath(name)) {
      let tf = this.cur!;
      this.lateFor = tf;
      // The test it names: `Test "t" at test/x.test.js:2:1 generated …`.
      let fr = frameNamedIn(late!);
      if (fr !== null) { tf.file = fr.file; tf.line = fr.line; this.located = true; }
      this.lateError = late;
    }
    return true;
  }

  /** A `▶` suite at indent p: it closes every open one at that indent or deeper, which cannot hold it. */
  private openSuite(name: string, p: i32): void {
    let n = this.suites.length;
    while (n > 0 && this.suiteIndent[n - 1] >= p) { this.suites.pop(); this.suiteIndent.pop(); n--; }
    if (n < MAX_SUITES) { this.suites.push(name); this.suiteIndent.push(p); }
  }

  /**
   * The name with the enclosing `describe` / parent tests, as node's own reporters join them (junit's
   * `classname`, the dot reporter): `slug > whitespace > collapses runs`. A leaf name alone is ambiguous.
   */
  private fullName(leaf: string, p: i32): string {
    let parts = new Array<string>(0);
    for (let i = 0; i < this.suites.length; i++) if (this.suiteIndent[i] < p) parts.push(this.suites[i]);
    if (parts.length == 0) return leaf;
    parts.push(leaf);
    return join(parts, " > ");
  }

  private body(l: Line, p: i32): void {
    let t = this.cur!;
    if (l.isBlank()) return;
    if (l.matchAt("at ", p)) {
      this.framed = true;
      if (!this.located) {
        let fr = frameOfText(l.str(p));
        if (fr !== null && fr.user) { t.file = fr.file; t.line = fr.line; this.located = true; }
      }
      return;
    }
    let s = l.trimmed(p);
    if (this.framed) {
      // The error's own properties after the stack: `actual: 'b',` / `expected: 'a',`.
      if (s.startsWith("actual: ")) t.actual = trimComma(s.substring(8));
      else if (s.startsWith("expected: ")) t.expected = trimComma(s.substring(10));
      return;
    }
    if (this.msg.length < 6) this.msg.push(s);
  }

  private end(): void {
    let t = this.cur;
    if (t !== null) t.message = joinLines(this.msg, 6);
    let ts = this.curTests;
    if (t !== null && ts !== null && t.file === null && isRollup(t.message)) {
      let i = ts.failures.lastIndexOf(t);
      if (i >= 0) ts.failures.splice(i, 1);
      this.adopt(t, rollupCount(t.message));
    }
    if (t !== null && t === this.lateFor) {
      t.message = this.lateError!;
      this.lateFor = null;
      this.lateError = null;
    }
    this.cur = null;
    this.msg = [];
  }

  /**
   * A parent whose `'N subtests failed'` closed it (parent, already the last open failure): the N groups before
   * it are its failing subtests, named under it and made one group, its own.
   */
  private adopt(parent: TestFailure, n: i32): void {
    let open = this.open; let gs = this.groupStart; let gd = this.groupDepth;
    let g = gs.length;
    if (g == 0 || open[open.length - 1] !== parent) return;
    open.pop(); gs.pop(); gd.pop(); g--;
    if (n <= 0 || n > g) return;
    let start = gs[g - n];
    let depth = 0;
    for (let i = g - n; i < g; i++) depth = max(depth, gd[i]);
    // As deep as node's `▶` suites are followed and no deeper: a mutated log that nests parents without end
    // would make each name hold them all (a 68 KB one: 32 MiB).
    if (++depth <= MAX_SUITES) for (let i = start; i < open.length; i++) open[i].name = parent.name + " > " + open[i].name;
    gs.length = g - n;
    gd.length = g - n;
    gs.push(start);
    gd.push(depth);
  }

  private info(l: Line, p: i32): void {
    let key = l.str(p, l.indexOfByte(Char.SPACE, p));
    if (key.endsWith("Error:")) { this.lateError = l.trimmed(p); return; }
    let n = l.readInt(l.skipSpaces(p + key.length));
    if (n < 0) return;
    if (key == "pass") this.passed = n;
    else if (key == "fail") this.failed = n;
    else if (key == "skipped") this.skipped = n;
    else if (key == "cancelled") this.cancelled = n;
    else if (key == "suites") this.suitesTotal = n;
  }

  finish(f: Facts): void {
    this.end();
    if (!this.seen) return;
    let t = f.testsFor("node-test");
    if (t.runner != "node-test") return;
    // Without node's `ℹ pass N` totals, passes are known only from `✔` marks: the dot reporter (`..X.X.`)
    // lists its failures alone, so its passed and skipped are unknown (null), not 0.
    let marks = this.nPass + this.nSkip > 0;
    t.passed = this.passed >= 0 ? this.passed : (marks ? this.nPass : -1);
    // A cancelled test (its timeout expired, or its parent failed) did not pass: node exits 1 for it.
    t.failed = this.failed >= 0 ? this.failed + this.cancelled : this.nFail;
    t.skipped = this.skipped >= 0 ? this.skipped : (marks ? this.nSkip : -1);
    if (this.passed >= 0) t.totals = true;
    // A test with subtests (`▶ t` ... `✔ t`) is counted by node and listed by no mark: then the list is short.
    let hs = this.passHashes;
    if (hs !== null && this.passed >= 0 && <i64>hs.length == this.passed) t.passedSet = hs;
    // Short by the passing parents: with the closers the list is whole when the passes beyond the leaves are as
    // many as the closers less some of node's suites (a describe that passed closes the same way, not counted).
    else if (hs !== null && this.passed >= 0 && this.suitesTotal >= 0 && this.closerHashes !== null) {
      let extra = this.passed - <i64>hs.length;
      if (extra > 0 && extra <= this.closers && this.closers - extra <= this.suitesTotal) {
        let ch = this.closerHashes!;
        if (hs.length + ch.length <= MAX_PASSED_SET) {
          for (let i = 0; i < ch.length; i++) hs.push(ch[i]);
          t.passedSet = hs;
        }
      }
    }
  }
}

function trimComma(s: string): string {
  return s.endsWith(",") ? s.substring(0, s.length - 1) : s;
}

/** N of `'N subtests failed'` (isRollup's). */
function rollupCount(m: string): i32 {
  let n = 0;
  for (let i = 1; i < m.length && i < 8; i++) {
    let c = m.charCodeAt(i);
    if (!isDigit(c)) break;
    n = n * 10 + (c - Char._0);
  }
  return n;
}

/** node's error for a test that failed because its subtests did: `'1 subtest failed'`, `'3 subtests failed'`. */
function isRollup(m: string): bool {
  if (m.length < 18 || m.charCodeAt(0) != Char.APOS || !isDigit(m.charCodeAt(1))) return false;
  return m.endsWith(" subtest failed'") || m.endsWith(" subtests failed'");
}

/**
 * The result's duration is whole milliseconds: `✔ name (109ms)` is mocha's mark of a slow test (or AVA's), never
 * node's, whose `duration_ms` is nanoseconds over a million printed as they are (`(0.5123ms)`, `(109.2713ms)`).
 */
function wholeMilliseconds(s: string): bool {
  let hash = s.lastIndexOf(" # ");
  let end = hash > 0 ? hash : s.length;
  if (end < 4 || s.substring(end - 3, end) != "ms)") return false;
  let open = s.lastIndexOf(" (", end);
  if (open < 0 || open + 2 >= end - 3) return false;
  for (let i = open + 2; i < end - 3; i++) if (!isDigit(s.charCodeAt(i))) return false;
  return true;
}
