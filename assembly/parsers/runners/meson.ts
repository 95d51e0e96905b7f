// meson test (meson 1.0; read by the check-script parser):
//
//    1/6 ringbuf:unit / ring       FAIL            0.01s   killed by signal 6 SIGABRT
//   >>> MALLOC_PERTURB_=194 ./build/test_ring
//   ――――――――――――――――――――――――――――――― ✀  ―――――――――――――――――――――――――――――――
//   stderr:
//   test_ring: ../tests/test_ring.c:10: main: Assertion `ring_count(&r) == 4' failed.
//   ――――――――――――――――――――――――――――――――――――――――――――――――――――――――――――――――――
//    4/6 ringbuf:unit / todo       EXPECTEDFAIL    0.01s   exit status 1
//
//   Summary of Failures:
//   (the failed lines again)
//   Ok:                 1
//   Expected Fail:      1
//   Fail:               3
//   Unexpected Pass:    0
//   Skipped:            1
//   Timeout:            0
//
//   Full log written to ./build/meson-logs/testlog.txt
//
// One line per test, named as meson prints it (`project:suite / name`), its status (OK, FAIL, SKIP,
// EXPECTEDFAIL, UNEXPECTEDPASS, TIMEOUT, ERROR, INTERRUPT; -v also prints `RUNNING` as a test starts), its
// time and what ended it (`exit status 1`: the failure's message). --print-errorlogs (and -v, before the
// result line) prints the failing test's output between the `✀` rules: its first lines are the message, glibc's
// assertion line places it (the line itself is the assertion parser's: the run's crash, as under ctest). The
// counts are the summary's: Ok and Expected Fail passed, Fail, Unexpected Pass and Timeout failed.
import { Char, isDigit } from "../../util/chars";
import { Line } from "../../util/line";
import { Crash, Facts, TestFailure } from "../../model";
import { failureNamed, assertionOf, joinLines, foreignLine, placedLine, placedMessage } from "./common";
import { DiagContext } from "../diag-context";

/** U+2015 HORIZONTAL BAR, meson's rule, in UTF-8. */
const BAR0: i32 = 0xE2, BAR1: i32 = 0x80, BAR2: i32 = 0x95;
const MAX_BLOCK_LINES = 4;
const MAX_BLOCK_READ = 5000;

export class MesonReport {
  seen: bool = false;
  private passed: i64 = 0;
  private failed: i64 = 0;
  private skipped: i64 = 0;
  /** The `Ok:` ... block's counts (-1 until read). */
  private sumOk: i64 = -1;
  private sumXfail: i64 = 0;
  private sumFail: i64 = 0;
  private sumXpass: i64 = 0;
  private sumSkip: i64 = 0;
  private sumTimeout: i64 = 0;
  /** -q: an `Ok:` line's count, till the next line says whether it is meson's (-1: none). */
  private quietOk: i64 = -1;
  /** After `Summary of Failures:`: its lines repeat failures already read. */
  private repeat: bool = false;
  /** The test named by the latest result (or RUNNING) line: the output block after it is its. */
  private last: string = "";
  /** The latest failure read, which a block after its line explains. */
  private cur: TestFailure | null = null;
  /** Between the `✀` rules. */
  private inBlock: bool = false;
  private blockName: string = "";
  private blockLines: string[] = [];
  private blockAssert: TestFailure | null = null;
  /** The block's first `file.c:25: message` line (see placedMessage). */
  private blockPlaced: string = "";
  private blockCount: i32 = 0;
  /** Facts.lastAssert when the block opened: a later one was read inside it. */
  private assertAtOpen: Crash | null = null;
  /** The last block read (-v prints it before the result line that says the test failed). */
  private doneName: string = "";
  private doneMsg: string = "";
  private doneAssert: TestFailure | null = null;
  private donePlaced: string = "";
  private ctx: DiagContext | null;

  constructor(ctx: DiagContext | null = null) { this.ctx = ctx; }

  busy(): bool { return this.inBlock; }

  /** 1 when the line is meson's; -1 when it is a test's output another parser reads (not claimed); else 0. */
  claim(l: Line, f: Facts): i32 {
    let c = l.at(0);
    if (this.inBlock) return this.blockLine(l, f, c);
    if (isDigit(c) || c == Char.SPACE) return this.result(l, f) ? 1 : 0;
    if (!this.seen) return this.quietStart(l, f, c);
    if (c == BAR0) {
      // The opening rule has the scissors (`✀`) in its middle; the closing one is bars only.
      if (l.at(1) == BAR1 && l.at(2) == BAR2 && l.indexOfByte(Char.SPACE) > 0 && !allBars(l)) {
        this.inBlock = true;
        this.blockName = this.last;
        this.blockLines = [];
        this.blockAssert = null;
        this.blockPlaced = "";
        this.blockCount = 0;
        this.assertAtOpen = f.lastAssert;
        return 1;
      }
      return 0;
    }
    if (c == Char.GT && l.matchAt(">>> ", 0)) return 1;
    if (c == Char.S && l.startsWith("Summary of Failures:")) { this.repeat = true; return 1; }
    if (c == Char.F && l.startsWith("Full log written to ")) return 1;
    return this.summaryLine(l) ? 1 : 0;
  }

  /**
   * -q with every test passing prints no test line: the closing block alone (`Ok:` padded to column 20, then
   * `Expected Fail:`) says meson ran them. The `Ok:` line is taken only when `Expected Fail:` follows it.
   */
  private quietStart(l: Line, f: Facts, c: i32): i32 {
    if (c == Char.O && l.matchAt("Ok:   ", 0)) {
      let n = l.readInt(l.skipSpaces(3));
      this.quietOk = n >= 0 && l.skipSpaces(l.end) == l.len ? n : -1;
      return 0;
    }
    let ok = this.quietOk;
    this.quietOk = -1;
    if (ok >= 0 && c == Char.E && l.matchAt("Expected Fail:   ", 0) && this.summaryLine(l)) {
      this.seen = true;
      f.testsFor("meson");
      this.sumOk = ok;
      return 1;
    }
    return 0;
  }

  /** `Ok:                 1   ` and the rest of the closing block. */
  private summaryLine(l: Line): bool {
    let k = l.indexOfByte(Char.COLON);
    if (k < 2 || k > 16) return false;
    let p = l.skipSpaces(k + 1);
    let n = l.readInt(p);
    if (n < 0 || l.skipSpaces(l.end) != l.len) return false;
    let w = l.str(0, k);
    if (w == "Ok") this.sumOk = n;
    else if (w == "Expected Fail") this.sumXfail = n;
    else if (w == "Fail") this.sumFail = n;
    else if (w == "Unexpected Pass") this.sumXpass = n;
    else if (w == "Skipped") this.sumSkip = n;
    else if (w == "Timeout") this.sumTimeout = n;
    else return false;
    return true;
  }

  /** ` 1/6 ringbuf:unit / ring   FAIL   0.01s   killed by signal 6 SIGABRT`; false when the line is not one. */
  private result(l: Line, f: Facts): bool {
    let p = l.skipSpaces(0);
    if (p > 6 || !isDigit(l.at(p))) return false;
    let q = p;
    while (isDigit(l.at(q))) q++;
    if (l.at(q) != Char.SLASH || !isDigit(l.at(q + 1))) return false;
    q++;
    while (isDigit(l.at(q))) q++;
    if (l.at(q) != Char.SPACE || l.at(q + 1) == Char.SPACE) return false;
    let a = q + 1;
    // The status: the word followed by the time (`0.01s`), or RUNNING at the end.
    let i = a;
    let n = l.len;
    while (i < n) {
      while (i < n && l.at(i) != Char.SPACE) i++;
      let ws = l.skipSpaces(i);
      if (ws >= n) return false;
      let we = ws;
      while (we < n && l.at(we) != Char.SPACE) we++;
      let st = statusAt(l, ws, we);
      if (st.length > 0) {
        let after = l.skipSpaces(we);
        if (st == "RUNNING" && after >= n) { this.started(f, l.trimmed(a, i)); return true; }
        let te = timeEnd(l, after);
        if (te > 0) { this.read(l, f, l.trimmed(a, i), st, l.skipSpaces(te) < n ? l.trimmed(te) : ""); return true; }
      }
      i = we;
    }
    return false;
  }

  /** -v's `1/6 ringbuf:unit / ring   RUNNING`: the output block after it is this test's. */
  private started(f: Facts, name: string): void {
    this.seen = true;
    f.testsFor("meson");
    this.last = name;
  }

  private read(l: Line, f: Facts, name: string, st: string, detail: string): void {
    this.seen = true;
    let t = f.testsFor("meson");
    this.last = name;
    if (this.repeat) return;
    if (st == "OK" || st == "EXPECTEDFAIL") { this.passed++; return; }
    if (st == "SKIP") { this.skipped++; return; }
    this.failed++;
    let x = failureNamed(t, name);
    // `exit status 1` is a FAIL's own message; any other status says what it was (`TIMEOUT: killed by signal 15
    // SIGTERM`, `UNEXPECTEDPASS`).
    x.message = st == "FAIL" && detail.length > 0 ? detail : detail.length > 0 ? st + ": " + detail : st;
    this.cur = x;
    // -v: the output came first.
    if (this.doneName == name) this.explain(x, this.doneMsg, this.doneAssert, this.donePlaced);
  }

  private blockLine(l: Line, f: Facts, c: i32): i32 {
    if (c == BAR0 && l.at(1) == BAR1 && l.at(2) == BAR2 && allBars(l)) {
      this.inBlock = false;
      // The assertion went to its parser before this reader saw it (a valgrind report before it took meson's
      // first offer of the block's lines): the one read since the block opened is this test's.
      let la = f.lastAssert;
      if (this.blockAssert === null && la !== null && la !== this.assertAtOpen) this.blockAssert = assertFailure(la);
      let msg = joinLines(this.blockLines, MAX_BLOCK_LINES);
      let x = this.cur;
      if (x !== null && x.name == this.blockName) this.explain(x, msg, this.blockAssert, this.blockPlaced);
      this.doneName = this.blockName; this.doneMsg = msg; this.doneAssert = this.blockAssert; this.donePlaced = this.blockPlaced;
      this.blockLines = []; this.blockAssert = null; this.blockPlaced = "";
      return 1;
    }
    // The closing rule may never come (a log cut short): the block ends after MAX_BLOCK_READ lines.
    if (++this.blockCount > MAX_BLOCK_READ) { this.inBlock = false; return 0; }
    if (l.len == 7 && (l.startsWith("stdout:") || l.startsWith("stderr:"))) return 1;
    let s = l.trimmed(0);
    if (this.blockAssert === null) {
      let t = new TestFailure();
      if (assertionOf(s, t, this.ctx)) { this.blockAssert = t; return -1; }
    }
    if (foreignLine(l)) return -1;
    if (this.blockPlaced.length == 0 && placedLine(s) > 0) this.blockPlaced = s;
    if (s.length > 0 && this.blockLines.length < MAX_BLOCK_LINES) this.blockLines.push(s);
    return 1;
  }

  /** The test's output explains its failure: its assertion (place and text), a `file.c:25: message` line, else its first lines. */
  private explain(x: TestFailure, msg: string, a: TestFailure | null, placed: string): void {
    if (a !== null) { x.file = a.file; x.line = a.line; x.message = a.message; }
    else if (placed.length > 0) placedMessage(x, placed, this.ctx);
    else if (msg.length > 0) x.message = msg;
  }

  finish(f: Facts): void {
    if (!this.seen) return;
    let t = f.testsFor("meson");
    if (t.runner != "meson") return;
    if (this.sumOk >= 0) {
      t.passed = this.sumOk + this.sumXfail;
      t.failed = this.sumFail + this.sumXpass + this.sumTimeout;
      t.skipped = this.sumSkip;
      t.totals = true;
    } else {
      t.passed = this.passed; t.failed = this.failed; t.skipped = this.skipped;
    }
  }
}

const STATUSES: string[] = ["OK", "FAIL", "SKIP", "EXPECTEDFAIL", "UNEXPECTEDPASS", "TIMEOUT", "ERROR", "INTERRUPT", "RUNNING"];

/** The status word in bytes [a, b) of l, or "". */
function statusAt(l: Line, a: i32, b: i32): string {
  let n = b - a;
  if (n < 2 || n > 14) return "";
  let c = l.at(a);
  if (c < Char.A || c > Char.Z) return "";
  for (let i = 0; i < STATUSES.length; i++) {
    let s = unchecked(STATUSES[i]);
    if (s.length == n && l.matchAt(s, a)) return s;
  }
  return "";
}

/** The end of a `0.01s` time at p (digits, a dot, digits, `s`, then a space or the end), or -1. */
function timeEnd(l: Line, p: i32): i32 {
  let i = p;
  while (isDigit(l.at(i))) i++;
  if (i == p || l.at(i) != Char.DOT) return -1;
  let j = i + 1;
  while (isDigit(l.at(j))) j++;
  if (j == i + 1 || l.at(j) != Char.s) return -1;
  j++;
  if (j < l.len && l.at(j) != Char.SPACE) return -1;
  return j;
}

/** A line of meson's closing rule only (U+2015, spaces at the end). */
function allBars(l: Line): bool {
  let n = l.len;
  while (n > 0 && l.at(n - 1) == Char.SPACE) n--;
  if (n == 0 || n % 3 != 0) return false;
  for (let i = 0; i < n; i += 3) if (l.at(i) != BAR0 || l.at(i + 1) != BAR1 || l.at(i + 2) != BAR2) return false;
  return true;
}

/** A failure that says what an assertion said and where (its frame's place, the assertion's own location). */
function assertFailure(c: Crash): TestFailure {
  let t = new TestFailure();
  let m = c.message;
  if (m !== null) t.message = m;
  if (c.frames.length > 0) {
    let fr = c.frames[0];
    t.file = fr.file;
    t.line = fr.line;
  }
  return t;
}
