// Mocha's base reporter, under its spec tree (read as `✔ name` marks by check-script.ts) or dot line: the
// summary `  15 passing (19ms)`, `  9 failing`, `  1 pending`, then one block per failure: `  1) suite`,
// the title's further parts indented below it, the last ending in `:`; the error's message lines;
// `+ expected - actual` then `-actual` / `+expected`; `at Context.<anonymous> (test/x.js:19:16)` frames.
import { Char, isDigit } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts, TestFailure } from "../../model";
import { failureNamed, frameOfText } from "./common";

/** Message lines a failure keeps. */
const MESSAGE_LINES = 4;

export class MochaReport {
  seen: bool = false;
  passed: i64 = -1; failed: i64 = -1; pending: i64 = -1;
  /** The failure whose block is being read; its title while it is still coming (parts so far). */
  cur: TestFailure | null = null;
  title: string[] = [];
  titled: bool = false;
  msg: string[] = [];
  /** 1 after `+ expected - actual`: the next `-`/`+` lines are the sides. 2 once the frames began. */
  stage: i32 = 0;
  /** After Node's `+ actual - expected` legend inside the message: only its changed lines are kept. */
  legend: bool = false;

  busy(): bool { return this.cur !== null; }

  /** True when the line is the summary's or a failure block's. */
  claim(l: Line, f: Facts): bool {
    let p = l.skipSpaces(0);
    if (this.cur !== null) {
      if (l.isBlank()) return true;
      // Node's assert prints its message's own lines from column 0 (`'abc' !== 'abd'`, a diff's `+ actual -
      // expected`): before the frames they are the block's; after them, the block is over.
      if (p == 0 && this.stage == 2) { this.end(); return false; }
      if (p == 2 && this.header(l, f)) return true;
      this.body(l, p, f);
      return true;
    }
    if (p != 2 || !isDigit(l.at(2))) return false;
    let n = l.readInt(2);
    let e = l.end;
    if (l.matchAt(" passing (", e) && l.at(l.len - 1) == Char.RPAREN) {
      this.seen = true; this.passed = n;
      let t = f.testsFor("mocha");
      if (t.runner == "check-script") t.runner = "mocha";
      return true;
    }
    if (!this.seen) return false;
    if (e == l.len - 8 && l.matchAt(" failing", e)) { this.failed = n; return true; }
    if (e == l.len - 8 && l.matchAt(" pending", e)) { this.pending = n; return true; }
    return this.header(l, f);
  }

  /** `  3) fresh(reqHeaders, resHeaders)`: a failure's block begins. */
  private header(l: Line, f: Facts): bool {
    if (this.failed <= 0 || !isDigit(l.at(2))) return false;
    l.readInt(2);
    let e = l.end;
    if (!l.matchAt(") ", e)) return false;
    this.end();
    let t = f.testsFor("mocha");
    if (t.runner != "mocha") return false;
    let tf = new TestFailure();
    this.cur = tf;
    this.title = [];
    this.titled = false;
    this.msg = [];
    this.stage = 0;
    this.legend = false;
    this.part(l.trimmed(e + 2), f);
    return true;
  }

  private part(s: string, f: Facts): void {
    if (s.endsWith(":")) {
      this.title.push(s.substring(0, s.length - 1));
      this.titled = true;
      let tf = failureNamed(f.testsFor("mocha"), this.title.join(" > "));
      this.cur = tf;
    } else this.title.push(s);
  }

  private body(l: Line, p: i32, f: Facts): void {
    let tf = this.cur!;
    if (!this.titled) { this.part(l.trimmed(p), f); return; }
    let s = l.trimmed(p);
    if (s.startsWith("at ")) {
      this.stage = 2;
      if (tf.file === null) {
        let fr = frameOfText(s);
        if (fr !== null && fr.user) { tf.file = fr.file; tf.line = fr.line; }
      }
      return;
    }
    if (this.stage == 2) return;
    if (s == "+ expected - actual") { this.stage = 1; return; }
    let c = s.charCodeAt(0);
    if (this.stage == 1) {
      if (c == Char.MINUS && tf.actual === null) tf.actual = s.substring(1).trim();
      else if (c == Char.PLUS && tf.expected === null) tf.expected = s.substring(1).trim();
      return;
    }
    if (s == "+ actual - expected") { this.legend = true; return; }
    if (this.legend && c != Char.MINUS && c != Char.PLUS) return;
    if (this.msg.length < MESSAGE_LINES) this.msg.push(s);
  }

  private end(): void {
    let tf = this.cur;
    if (tf !== null && this.titled) tf.message = this.msg.join("\n");
    this.cur = null;
  }

  finish(f: Facts): void {
    this.end();
    if (!this.seen) return;
    let t = f.testsFor("mocha");
    if (t.runner != "mocha") return;
    t.passed = this.passed;
    t.failed = max<i64>(this.failed, 0);
    t.skipped = max<i64>(this.pending, 0);
  }
}
