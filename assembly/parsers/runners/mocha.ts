// Mocha's base reporter, under its spec tree (read as `✔ name` marks by check-script.ts) or dot line: the
// summary `  15 passing (19ms)`, `  9 failing`, `  1 pending`, then one block per failure: `  1) suite`,
// the title's further parts indented below it, the last ending in `:`; the error's message lines;
// `+ expected - actual` then `-actual` / `+expected`; `at Context.<anonymous> (test/x.js:19:16)` frames.
// A test file that did not load under `--parallel` is `Uncaught error outside test suite:`, its message Node's
// report: `Uncaught /work/test/stars.js:17`, the source line, the caret, `SyntaxError: Unexpected token ')'` (at
// column 0), internal frames: the place is that path:line, the message the error's line.
import { Char, isDigit } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts, TestFailure } from "../../model";
import { withName } from "../../util/name-hash";
import { failureNamed, frameOfText, isErrorLine } from "./common";
import { normPath } from "../../frames";

/** Message lines a failure keeps. */
const MESSAGE_LINES = 4;
/** Suites deep the spec tree is followed (indent 2 + 2 per level). */
const MAX_DEPTH = 16;
/**
 * Suite titles read in a row with no test between them (nor a blank line, which ends a top-level suite): past
 * this, the indented lines are not a spec tree (a compiler's context lines) and are not kept.
 */
const MAX_RUN = 32;

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
  /** The spec tree's suite titles so far, one per depth (a title at indent 2 + 2·depth). */
  suites: string[] = [];
  /** The full names (`suite > suite > title`) of the tests the tree marked passed, hashed; null once it cannot say. */
  passHashes: Array<u32> | null = [];
  /** A failing test's `1) title` was in the tree: a spec tree (the dot reporter lists no test before its summary). */
  listedFailure: bool = false;
  /** Suite titles read since the last test or blank line; at MAX_RUN the tree is lost until a blank line. */
  run: i32 = 0;
  /** After a failure's `Uncaught path:line` message: its source and caret lines are skipped to the error's line. */
  uncaught: bool = false;

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

  /**
   * A line of the spec tree before the summary, at indent p, not a mark: a suite's title (`  fresh()`, `    when
   * a non-conditional GET is performed`). A failing test's `  1) title` is no suite.
   */
  treeLine(l: Line, p: i32): void {
    if (this.seen || (p & 1) != 0 || p < 2 || p > 2 * MAX_DEPTH || p >= l.len) return;
    if (isDigit(l.at(p))) { l.readInt(p); if (l.matchAt(") ", l.end)) { this.listedFailure = true; this.run = 0; return; } }
    if (this.run >= MAX_RUN) return;
    let ss = this.suites;
    // Past the bound the tree is lost: no title kept, so a mark under it names nothing (passedMark).
    if (++this.run == MAX_RUN) { ss.length = 0; return; }
    let depth = (p >> 1) - 1;
    if (depth > ss.length) return;
    if (depth < ss.length) ss.length = depth;
    ss.push(l.trimmed(p));
  }

  /** A blank line before the summary: a top-level suite ended (the next title is at depth 0). */
  blank(): void { this.run = 0; if (this.suites.length > 0) this.suites.length = 0; }

  /** `✔ title` at indent p (` (12ms)` after a slow one's title): a passed test, named as a failure of it would be. */
  passedMark(title: string, p: i32): void {
    let hs = this.passHashes;
    if (hs === null || this.seen) return;
    this.run = 0;
    let depth = (p >> 1) - 1;
    if ((p & 1) != 0 || depth < 1 || depth > this.suites.length) { this.passHashes = null; return; }
    let name = "";
    for (let i = 0; i < depth; i++) name += this.suites[i] + " > ";
    this.passHashes = withName(hs, name + withoutDuration(title));
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
    this.uncaught = false;
    this.part(l.trimmed(e + 2), f);
    return true;
  }

  private part(s: string, f: Facts): void {
    if (s.endsWith(":")) {
      this.title.push(s.substring(0, s.length - 1));
      this.titled = true;
      let tf = failureNamed(f.testsFor("mocha"), this.title.join(" > "));
      this.cur = tf;
    } else if (this.title.length < MAX_DEPTH) this.title.push(s);
    // Past MAX_DEPTH parts (a title mocha never prints so deep: a log's lines repeated) the rest is not kept.
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
    if (this.msg.length == 0 && !this.uncaught && s.startsWith("Uncaught ") && tf.file === null) {
      let fr = frameOfText(s.substring(9));
      if (fr !== null && fr.user && fr.line > 0 && s.indexOf(" ", 9) < 0) { tf.file = fr.file; tf.line = fr.line; this.uncaught = true; return; }
    }
    if (this.uncaught) {
      if (!isErrorLine(s)) return;
      this.uncaught = false;
    }
    if (s == "+ expected - actual") { this.stage = 1; return; }
    let c = s.charCodeAt(0);
    if (this.stage == 1) {
      if (c == Char.MINUS && tf.actual === null) tf.actual = s.substring(1).trimStart().trimEnd();
      else if (c == Char.PLUS && tf.expected === null) tf.expected = s.substring(1).trimStart().trimEnd();
      return;
    }
    // `Error: Timeout of 2000ms exceeded. … (/abs/test/x.js)`: mocha names the test's file, no frame of it.
    if (tf.file === null && this.msg.length == 0 && s.startsWith("Error: Timeout of ") && s.endsWith(")")) {
      let o = s.lastIndexOf(" (");
      let path = o > 0 ? normPath(s.substring(o + 2, s.length - 1)) : "";
      if (isTestScript(path)) tf.file = path;
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
    // A spec tree that named every passing test: which tests ran is known (a failing one in neither list did not run).
    let hs = this.passHashes;
    if (hs !== null && (hs.length > 0 || this.listedFailure) && <i64>hs.length == this.passed) t.passedSet = hs;
  }
}

/** `should be fast (45ms)` → `should be fast`: mocha adds a slow test's time to its title. */
function withoutDuration(s: string): string {
  let n = s.length;
  if (n < 6 || !s.endsWith("ms)")) return s;
  let i = n - 4;
  while (i >= 0 && isDigit(s.charCodeAt(i))) i--;
  if (i < 1 || i == n - 4 || s.charCodeAt(i) != Char.LPAREN || s.charCodeAt(i - 1) != Char.SPACE) return s;
  return s.substring(0, i - 1);
}

/** A path mocha names as a test's file: a script, no spaces. */
function isTestScript(p: string): bool {
  if (p.length == 0 || p.indexOf(" ") >= 0) return false;
  return p.endsWith(".js") || p.endsWith(".mjs") || p.endsWith(".cjs") || p.endsWith(".ts") || p.endsWith(".mts") || p.endsWith(".cts") || p.endsWith(".jsx") || p.endsWith(".tsx");
}
