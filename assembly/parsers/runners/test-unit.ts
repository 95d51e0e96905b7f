// Ruby's test-unit (3.x, bundled with Ruby: `ruby test/test_x.rb`, `rake test` of ruby/* gems): `Loaded suite
// NAME`, `Started`, the marks (`.F.E.OP`; under -v a line per test under its class, `  test_add:\t\t.: (0.0001)`),
// each fault between two rules of `=` (an error's message on the lines under its header when it has more than one):
//   Failure: test_x(TestCalc)                 Error: test_y(TestCalc): ZeroDivisionError: divided by 0
//   test/test_calc.rb:10:in `test_x'          ./lib/calc.rb:7:in `mean'           (the backtrace: the innermost
//        9:   def test_x                      test/test_calc.rb:14:in `test_y'     user frame is the place)
//     => 10:     assert_equal(2, ...)           => 14: ...                         (the source excerpt)
//   <2> expected but was                                                         (an assertion's message, a
//   <1>                                                                           custom one above it, `diff:`)
// (`Failure: test: truthy(TestMsg::nested): <nil> is not true.`: a named test of a sub_test_case, the message after
// the class; `Pending: …` and `Omission: …` blocks are no failures), `Finished in 0.01 seconds.`, the totals
// `8 tests, 5 assertions, 4 failures, 1 errors, 1 pendings, 1 omissions, 0 notifications`, `20% passed`.
import { Char, isDigit } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts, TestFailure } from "../../model";
import { Parser } from "../../parser";
import { ByteSet } from "../../util/byte-set";
import { failureNamed, joinLines, isUserFile, countedParts, rubyReceiverCut } from "./common";
import { rubyFrame } from "./rspec";
import { withSkipped } from "../../util/name-hash";

const LOADED = "Loaded suite ";
const RULE_MIN: i32 = 40;
const MAX_MSG: i32 = 6;

/** At rest, test-unit starts on `Loaded suite ...`. */
const STARTS = new ByteSet().add(0x4C);

const enum Blk { NONE, HEAD, FAULT, OTHER }

@final
export class TestUnitParser extends Parser {
  private seen: bool = false;
  private blk: Blk = Blk.NONE;
  private cur: TestFailure | null = null;
  private msg: string[] = [];
  private placed: bool = false;
  /** After `<X> expected but was`: the next `<Y>` is the actual value. */
  private wantActual: bool = false;
  /** The block is an `Error:` (an exception's message, whose receiver Ruby may inspect). */
  private err: bool = false;
  /** The message's receiver inspect was cut: the lines up to the backtrace are the rest of that inspect. */
  private inspectCut: bool = false;
  /** The failure is assert_nothing_raised's (`Exception raised:`, then `Class(<message>)` and its backtrace). */
  private raised: bool = false;
  /** The faults are numbered after the marks (`1) Failure: …`), not between rules. */
  private numbered: bool = false;
  /** The tests named in `Pending:` and `Omission:` blocks (skippedSet). */
  private skipNames: Array<u32> | null = null;
  private tests: i64 = -1; private failures: i64 = 0; private errors: i64 = 0; private skips: i64 = 0;

  busy(): bool { return this.blk != Blk.NONE; }
  atRest(): bool { return !this.seen; }
  starts(): ByteSet | null { return STARTS; }

  claim(l: Line, f: Facts): bool {
    if (l.startsWith(LOADED)) { this.end(); this.seen = true; f.testsFor("test-unit"); return true; }
    if (!this.seen) return false;
    if (isRule(l, 0x3D)) {
      if (this.blk == Blk.NONE) this.blk = Blk.HEAD; else this.end();
      return true;
    }
    if (this.blk == Blk.HEAD) return this.head(l, f, 0);
    // --no-show-detail-immediately: the faults after the marks, each `N) Failure: name(Class)` with no rules, up to
    // the next, a section's heading (`Omissions:`) or `Finished in`.
    if (this.numbered && (this.blk != Blk.NONE || isHeading(l))) {
      let k = numberedHead(l);
      if (k > 0) { this.end(); return this.head(l, f, k); }
      if (isHeading(l)) { this.end(); return true; }
      if (!l.startsWith("Finished in ")) { this.body(l); return true; }
      this.end();
      this.numbered = false;
    }
    if (this.blk != Blk.NONE) { this.body(l); return true; }
    if (isDigit(l.at(0))) {
      let k = numberedHead(l);
      if (k > 0) { this.numbered = true; return this.head(l, f, k); }
    }
    if (l.startsWith("Started") && l.len <= 8) return true;
    if (l.startsWith("Finished in ") && l.contains(" seconds")) return true;
    if (isRule(l, 0x2D)) return true;
    if (isDigit(l.at(0))) {
      if (l.contains(" tests, ") || l.contains(" test, ")) return this.totals(l.trimmed(0));
      if (l.contains("% passed") || l.contains(" tests/s, ")) return true;
    }
    return this.progress(l);
  }

  /** `Failure: name(Class)[: message]`, `Error: name(Class): Class: message`; other kinds are no failures. */
  private head(l: Line, f: Facts, from: i32): bool {
    let s = l.trimmed(from);
    let err = s.startsWith("Error: ");
    if (!err && !s.startsWith("Failure: ")) { this.skipped(s); this.blk = Blk.OTHER; return true; }
    s = s.substring(err ? 7 : 9);
    let e = nameEnd(s);
    if (e < 0) { this.blk = Blk.OTHER; return true; }
    this.blk = Blk.FAULT;
    let t = failureNamed(f.testsFor("test-unit"), s.substring(0, e));
    this.cur = t;
    this.msg = [];
    this.placed = false;
    this.wantActual = false;
    this.err = err;
    this.inspectCut = false;
    this.raised = false;
    if (e + 2 < s.length) this.msg.push(err ? rubyReceiverCut(s.substring(e + 2)) : s.substring(e + 2));
    return true;
  }

  /**
   * `Pending: test_x(TestCalc): msg`, `Omission: msg [test_y(TestCalc)]`: the test is named among the skipped ones (a
   * test that failed before and is omitted now was not fixed).
   */
  private skipped(s: string): void {
    let name: string | null = null;
    if (s.startsWith("Pending: ")) {
      let r = s.substring(9);
      let e = nameEnd(r);
      if (e > 0) name = r.substring(0, e);
    } else if (s.startsWith("Omission: ") && s.endsWith(")]")) {
      let o = s.lastIndexOf(" [");
      if (o > 0) name = s.substring(o + 2, s.length - 1);
    }
    if (name !== null) this.skipNames = withSkipped(this.skipNames, name!);
  }

  private body(l: Line): void {
    let t = this.cur;
    if (this.blk != Blk.FAULT || t === null || l.isBlank()) return;
    let p = l.skipSpaces(0);
    // The source excerpt: `     9:   def x`, `  => 10:     assert...`.
    if (p > 0 && (isDigit(l.at(p)) || l.matchAt("=> ", p))) return;
    let frameCol = p == 0 || this.raised && p == 2;
    // Once placed, the backtrace's further frames (test-unit's own, forty of them) are not decoded.
    if (frameCol && this.placed) {
      let fi = l.indexOf(":in ");
      if (fi > 0 && (l.at(fi + 4) == Char.BACKTICK || l.at(fi + 4) == Char.APOS)) return;
    }
    // The rest of a cut inspect (long lines, many of them): only a backtrace line is decoded.
    if (this.inspectCut && !(frameCol && l.indexOf(":in ") > 0)) return;
    // The exception's own line: an error's first, or the one under assert_nothing_raised's `Exception raised:` (a
    // custom message may be above it), `NameError(<msg>)`.
    let n = this.msg.length;
    let first = (this.err && n == 0) || (this.raised && n > 0 && this.msg[n - 1] == "Exception raised:");
    // Ruby 3.1's NoMethodError inspects its receiver (`for #<TestOptionParser:0x… @method_name=…, @_result=…>`: a test
    // case holds the run's result and every fault so far, over many lines of 1 600 columns): cut to its class, the
    // line decoded only up to it.
    let k = first ? l.indexOf(" for #<") : -1;
    let c = k > 0 ? l.indexOf(":0x", k + 7) : -1;
    let pre = c > 0 && (l.indexOfByte(Char.SPACE, k + 7) < 0 || l.indexOfByte(Char.SPACE, k + 7) > c);
    let s = pre ? l.str(p, c) + ">" : l.trimmed(0);
    // The backtrace, at column 0: `test/test_calc.rb:10:in `test_x'`; its innermost user frame is the place. After
    // assert_nothing_raised's `Exception raised:` the exception's own backtrace comes first, two columns in: the
    // exception's place is the failure's (the assertion's frames at column 0 follow).
    if (!pre && frameCol && s.includes(":in ")) {
      let fr = rubyFrame(s);
      if (fr !== null) {
        if (!this.placed && fr.file !== null && isUserFile(fr.file!)) { t.file = fr.file; t.line = fr.line; this.placed = true; }
        return;
      }
    }
    if (!this.err && !this.raised && n < MAX_MSG && s == "Exception raised:") { this.raised = true; this.msg.push(s); return; }
    if (first) {
      let cut = pre ? s : rubyReceiverCut(s);
      // The rest of the inspect, up to the backtrace, is no message.
      this.inspectCut = pre || cut.length < s.length && cut.endsWith(">");
      // The two are one line, as an error's `NameError: msg`.
      if (this.raised) { this.msg[n - 1] = "Exception raised: " + cut; return; }
      s = cut;
    } else if (this.inspectCut) return;
    if (this.wantActual) {
      this.wantActual = false;
      if (s.startsWith("<") && s.endsWith(">")) { t.actual = s.substring(1, s.length - 1); }
    } else if (s.startsWith("<") && s.endsWith("> expected but was") && t.expected === null) {
      t.expected = s.substring(1, s.length - 18);
      this.wantActual = true;
    }
    if (this.msg.length < MAX_MSG) this.msg.push(s);
  }

  private end(): void {
    let t = this.cur;
    if (t !== null && this.msg.length > 0) t.message = joinLines(this.msg, MAX_MSG);
    this.cur = null;
    this.msg = [];
    this.blk = Blk.NONE;
  }

  /** A line of marks (`.F.E`), or -v's `TestCalc: `, `  test_x:\t\t.: (0.0001)`, `: (0.0029)` lines. */
  private progress(l: Line): bool {
    let n = l.len;
    while (n > 0 && l.at(n - 1) == 0x20) n--;
    if (n == 0) return false;
    let marks = true;
    for (let i = 0; i < n && marks; i++) {
      let c = l.at(i);
      marks = c == 0x2E || c == 0x46 || c == 0x45 || c == 0x4F || c == 0x50 || c == 0x4E;
    }
    if (marks) return true;
    if (l.at(n - 1) == 0x29 && l.contains(": (")) return true;
    if (l.at(n - 1) == 0x3A && l.len > n) return true;
    return l.indexOfByte(0x09, 0) > 0 && l.at(0) == 0x20;
  }

  /** `8 tests, 5 assertions, 4 failures, 1 errors, 1 pendings, 1 omissions, 0 notifications`. */
  private totals(s: string): bool {
    let cs = countedParts(s);
    if (cs === null) return false;
    let tests: i64 = -1, fa: i64 = -1, er: i64 = 0, sk: i64 = 0;
    for (let i = 0; i < cs.length; i++) {
      let n = cs[i].n; let w = cs[i].word;
      if (w == "tests" || w == "test") tests = n;
      else if (w == "failures" || w == "failure") fa = n;
      else if (w == "errors" || w == "error") er = n;
      else if (w == "pendings" || w == "pending" || w == "omissions" || w == "omission") sk += n;
      else if (w != "assertions" && w != "assertion" && w != "notifications" && w != "notification") return false;
    }
    if (tests < 0 || fa < 0) return false;
    this.tests = max<i64>(this.tests, 0) + tests;
    this.failures += fa; this.errors += er; this.skips += sk;
    return true;
  }

  finish(f: Facts): void {
    this.end();
    if (!this.seen) return;
    let t = f.testsFor("test-unit");
    if (t.runner != "test-unit") return;
    if (this.tests >= 0) {
      t.passed = max<i64>(0, this.tests - this.failures - this.errors - this.skips);
      t.failed = this.failures;
      t.errors = this.errors;
      t.skipped = this.skips;
      t.totals = true;
      if (this.skipNames !== null) t.skippedSet = this.skipNames;
    } else {
      t.passed = -1;
      t.failed = t.failures.length;
    }
  }
}

/** `3) Pending: test_x(TestCalc): …`: where its kind starts (past `N) `), else 0. */
function numberedHead(l: Line): i32 {
  let i = 0;
  while (isDigit(l.at(i))) i++;
  if (i == 0 || l.at(i) != Char.RPAREN || l.at(i + 1) != Char.SPACE) return 0;
  let k = i + 2;
  let c = l.at(k);
  if (c == Char.F && l.matchAt("Failure: ", k) || c == Char.E && l.matchAt("Error: ", k) || c == Char.P && l.matchAt("Pending: ", k) ||
      c == Char.O && l.matchAt("Omission: ", k) || c == Char.N && l.matchAt("Notification: ", k)) return k;
  return 0;
}

/** A section of the numbered faults: `Omissions:`, `Pendings:`, `Notifications:`. */
function isHeading(l: Line): bool {
  let c = l.at(0);
  if (c != Char.O && c != Char.P && c != Char.N && c != Char.F && c != Char.E || l.at(l.len - 1) != Char.COLON) return false;
  return l.startsWith("Omissions:") || l.startsWith("Pendings:") || l.startsWith("Notifications:") ||
    l.startsWith("Failures:") || l.startsWith("Errors:");
}

/** A rule of one byte c (`=====`, `-----`), at least RULE_MIN long. */
function isRule(l: Line, c: i32): bool {
  return l.len >= RULE_MIN && l.isAll(c);
}

/**
 * The end of a fault's test name: past the `(Class::Name)` that closes it, at the end or before `: `
 * (`test: truthy(TestMsg::nested): <nil> is not true.`); -1 when there is none.
 */
function nameEnd(s: string): i32 {
  let from = 0;
  while (true) {
    let o = s.indexOf("(", from);
    if (o <= 0) return -1;
    let c = s.indexOf(")", o);
    if (c < 0) return -1;
    let ok = c > o + 1 && s.charCodeAt(o + 1) >= 0x41 && s.charCodeAt(o + 1) <= 0x5A;
    for (let i = o + 1; i < c && ok; i++) {
      let ch = s.charCodeAt(i);
      ok = isDigit(ch) || (ch >= 0x41 && ch <= 0x5A) || (ch >= 0x61 && ch <= 0x7A) || ch == 0x5F || ch == 0x3A;
    }
    // `Error: test_greet(TestGreeter):` with the message on the lines under it (Ruby 3.1's error_highlight).
    if (ok && (c + 1 == s.length || (s.charCodeAt(c + 1) == 0x3A && (c + 2 == s.length || s.charCodeAt(c + 2) == 0x20)))) return c + 1;
    from = o + 1;
  }
}
