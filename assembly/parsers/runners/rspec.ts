// RSpec (rspec-core 3, progress or documentation format): the run's own lines, after the marks (`.F*` or the
// documentation tree, left to others) — `Pending: (Failures listed here are expected ...)` then `  1) full
// description` blocks (pending: not failures, their names kept in the skipped set); `Failures:` then `  1) full description` blocks, each with
// `Failure/Error: <the failing line>`, the message (`expected: "a"` / `     got: "b"`, or the exception's class
// alone on its line, `ArgumentError:`, and its message under it), and the backtrace as `# ./lib/x.rb:3:in
// 'fn'` lines; `Finished in 0.04 seconds (files took ...)`; the totals, `9 examples, 5 failures, 2 pending`
// (`, 1 error occurred outside of examples`); `Failed examples:` then `rspec ./spec/x_spec.rb:5 # name` lines.
// A spec file that did not load: `An error occurred while loading ./spec/x_spec.rb.` with the error under it
// (then RSpec runs no example): a failure named by that path, counted in errors; a file `.rspec` requires
// (`--require spec_helper`) is named as RSpec names it (`An error occurred while loading spec_helper. - Did you
// mean?`, its `rspec ./spec/spec_helper.rb` hint under it, not the message). An `:aggregate_failures` example's
// failures are numbered by its place in the list (`10.1) Failure/Error: …`): neither number nor code is the message.
// `--format failures` (RSpec's failure list): a line a failing example, `./spec/x_spec.rb:12:is expected to eq 2`
// (its location, then its own description, not the groups'), nothing else, no counts: each a failure named by that
// description at that place (the location's file must be a `_spec.rb`: a grep -n of Ruby files prints the same shape).
// A failure's header gains ` FIXED` when a `pending` example passed (`Expected pending '…' to fail.`): not its name.
// Jasmine's console reporter (modelled on RSpec's: runner `jasmine`): `Failures:` then each failure at column 0,
// `1) <suite names and the spec's, joined by blanks>`, with `  Message:` (its lines four in) and `  Stack:` (the
// frames, `at <Jasmine>` between the user's: the first user frame is the place); `Suite error: <suite>` (an
// `afterAll` that threw: a failure named by the suite, counted in errors; under `Suite error: top suite`, each
// `Error loading <path>: <message>` is a spec file that did not load, named by its path); `Pending:` then `1)
// name` (skipped); the totals `6 specs, 4 failures, 1 pending spec`, whose failures count the suite errors too.
import { isDigit } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts, TestFailure, Frame, Tests, MAX_FAILURES } from "../../model";
import { Parser } from "../../parser";
import { ByteSet } from "../../util/byte-set";
import { setLocation, normPath } from "../../frames";
import { failureNamed, joinLines, isUserFile, hasFailure, fileFailureOf, countedParts, frameOfText, rubyReceiverCut } from "./common";
import { withName, withSkipped } from "../../util/name-hash";
import { JValue } from "../../util/json";

const LOADING = "An error occurred while loading ";
const DID_YOU_MEAN = " - Did you mean?";
const PENDING_HEAD = "Pending: (Failures listed here are expected";
const FAILURES_HEAD = "Failures:";
const FAILED_HEAD = "Failed examples:";
const FINISHED = "Finished in ";
const JS_PENDING = "Pending:";
const SUITE_ERROR = "Suite error: ";
const JS_LOADING = "Error loading ";

/** At rest, RSpec starts on `An error …`, `Pending: …`, `Failures:`, `Failed examples:`, `Finished in`, or its totals (Jasmine on `Suite error: …` too). */
const STARTS = new ByteSet().add(0x41).add(0x50).add(0x46).add(0x53).range(0x30, 0x39).add(0x2E);
const SPEC_RB = "_spec.rb:";
const FIXED = " FIXED";

const enum Sec { NONE, PENDING, FAILURES, FAILED_LIST, LOAD, SUITE }

/** A column-0 line RSpec may open a section with: its heads, or its totals (`N example(s), M failure(s)`). */
function mayOpen(l: Line): bool {
  let c = l.at(0);
  if (isDigit(c)) return l.indexOf(" example") > 0 || l.indexOf(" spec") > 0;
  if (c == 0x2E) return l.at(1) == 0x2F && l.indexOf(SPEC_RB) > 2;
  return l.startsWith(LOADING) || l.startsWith(PENDING_HEAD) || l.startsWith(FAILURES_HEAD)
    || l.startsWith(FAILED_HEAD) || l.startsWith(FINISHED) || l.startsWith(SUITE_ERROR) || l.startsWith(JS_PENDING);
}

export class RspecParser extends Parser {
  seen: bool = false;
  sec: Sec = Sec.NONE;
  cur: TestFailure | null = null;
  /** The current block's message, as its lines come. */
  m: RspecMessage = new RspecMessage();
  /** After `Failure/Error:`: the failing code's lines, up to the first blank (several when it spans lines). */
  code: bool = false;
  examples: i64 = -1; failures: i64 = 0; pending: i64 = 0; outside: i64 = 0;
  fileFailures: i64 = 0;
  /** Jasmine's report (its column-0 `1) name`, `Suite error:`, its `N specs` totals), not RSpec's. */
  js: bool = false;
  /** Jasmine: in a block's `Stack:` (frames), not its `Message:`; the suite of a `Suite error:` block. */
  stack: bool = false;
  suite: string = "";
  suiteErrors: i64 = 0;
  /** The load error's head ended `- Did you mean?`: its hint line is next. */
  hint: bool = false;

  private tests(f: Facts): Tests { return f.testsFor(this.js ? "jasmine" : "rspec"); }

  busy(): bool { return this.sec != Sec.NONE; }
  atRest(): bool { return !this.seen && this.sec == Sec.NONE; }
  starts(): ByteSet | null { return STARTS; }

  claim(l: Line, f: Facts): bool {
    let p = l.skipSpaces(0);
    if (p == 0 && !l.isBlank()) {
      // At rest, on the bytes first: only a line that may open a section is made a string.
      if (this.sec == Sec.NONE && !mayOpen(l)) return false;
      if (this.sec == Sec.NONE && l.at(0) == 0x2E) return this.listed(l, f);
      let s = l.trimmed(0);
      if (s.startsWith(LOADING)) {
        let unit = loadedUnit(s);
        if (unit === null) return false;
        this.end(); this.begin(f);
        this.open(this.fileFailure(f, unit!));
        this.sec = Sec.LOAD;
        this.hint = s.endsWith(DID_YOU_MEAN);
        return true;
      }
      if (s.startsWith(PENDING_HEAD)) { this.end(); this.begin(f); this.sec = Sec.PENDING; return true; }
      if (s == JS_PENDING) { this.end(); this.js = true; this.begin(f); this.sec = Sec.PENDING; return true; }
      if (s.startsWith(SUITE_ERROR) && s.length > SUITE_ERROR.length) {
        this.end(); this.js = true; this.begin(f);
        this.sec = Sec.SUITE; this.suite = s.substring(SUITE_ERROR.length); this.stack = false;
        return true;
      }
      // Jasmine's `1) name` at column 0 (RSpec's is two in): a failure, or a pending spec.
      if ((this.sec == Sec.FAILURES || this.sec == Sec.PENDING) && isDigit(s.charCodeAt(0))) {
        let was = this.js;
        this.js = true;
        if (this.numbered(s, f)) return true;
        this.js = was;
      }
      // Its tests are made by the first block (Jasmine's `Failures:` is the same line: the block says which).
      if (s == FAILURES_HEAD) { this.end(); this.seen = true; this.sec = Sec.FAILURES; return true; }
      if (s == FAILED_HEAD && this.seen) { this.end(); this.sec = Sec.FAILED_LIST; return true; }
      if (s.startsWith(FINISHED) && s.includes(" second")) {
        this.end(); this.sec = Sec.NONE;
        if (!this.seen) return false;
        return true;
      }
      if (isDigit(s.charCodeAt(0)) && this.totals(s, f)) { this.end(); this.sec = Sec.NONE; return true; }
      if (this.sec == Sec.FAILED_LIST && s.startsWith("rspec ") && s.includes(" # ")) return true;
      // The error of a spec file that did not load is printed at column 0 (`Failure/Error: __send__(method, file)`,
      // `SyntaxError:`, `# /usr/.../configuration.rb:2117:in 'load'`), its message indented.
      if (this.sec == Sec.LOAD && (s.startsWith("Failure/Error:") || s.startsWith("#") || isClassLine(s))) { this.body(l); return true; }
      // Any other line at column 0 ends RSpec's section.
      if (this.sec != Sec.NONE) { this.end(); this.sec = Sec.NONE; }
      return false;
    }
    if (this.sec == Sec.NONE) return false;
    if (this.sec == Sec.FAILED_LIST) { if (l.isBlank()) return true; this.sec = Sec.NONE; return false; }
    if (this.sec == Sec.LOAD) {
      // `rspec ./spec/spec_helper.rb` under `- Did you mean?`: RSpec's hint, not the error.
      if (this.hint && l.matchAt("rspec ", p)) { this.hint = false; return true; }
      this.body(l);
      return true;
    }
    // `  1) full description`: a block opens (a failure in `Failures:`, nothing in `Pending:`).
    if (p == 2 && !this.js && isDigit(l.at(p)) && this.numbered(l.trimmed(p), f)) return true;
    if (this.js) { this.jsBody(l, p, f); return true; }
    if (this.cur !== null) this.body(l);
    return true;
  }

  /** `1) full description`: a block opens (a failure in `Failures:`, a skipped name in `Pending:`). */
  private numbered(s: string, f: Facts): bool {
    let k = 0;
    while (k < s.length && isDigit(s.charCodeAt(k))) k++;
    if (k == 0 || k >= s.length - 2 || s.charCodeAt(k) != 0x29 || s.charCodeAt(k + 1) != 0x20) return false;
    this.end();
    this.stack = false;
    let name = s.substring(k + 2);
    if (this.sec == Sec.FAILURES && !this.js && name.endsWith(FIXED)) name = name.substring(0, name.length - FIXED.length);
    if (this.sec == Sec.FAILURES) this.open(failureNamed(this.tests(f), name));
    else if (this.sec == Sec.PENDING) { let t = this.tests(f); t.skippedSet = withSkipped(t.skippedSet, name); }
    return true;
  }

  /** `--format failures`: `./spec/x_spec.rb:12:description`, a failing example at its place. */
  private listed(l: Line, f: Facts): bool {
    let k = l.indexOf(SPEC_RB);
    let sp = l.indexOfByte(0x20);
    if (k < 2 || sp >= 0 && sp < k) return false;
    let i = k + SPEC_RB.length;
    let j = i;
    while (j < l.len && isDigit(l.at(j))) j++;
    // The description follows at once (a Ruby warning's `: warning:` or a frame's `:in '…'` does not).
    if (j == i || l.at(j) != 0x3A || j + 1 >= l.len || l.at(j + 1) == 0x20 || l.matchAt("in `", j + 1) || l.matchAt("in '", j + 1)) return false;
    this.begin(f);
    let t = failureNamed(this.tests(f), l.trimmed(j + 1));
    t.file = normPath(l.str(0, k + SPEC_RB.length - 1));
    t.line = <i32>l.readInt(i);
    return true;
  }

  /** An indented line of a Jasmine block: `Message:` and `Stack:` heads, the message's lines, the frames. */
  private jsBody(l: Line, p: i32, f: Facts): void {
    if (l.isBlank()) return;
    let s = l.trimmed(p);
    if (p == 2 && s == "Message:") {
      this.stack = false;
      // A suite error may hold several (each spec file that did not load): each its own failure.
      if (this.sec == Sec.SUITE) this.end();
      return;
    }
    if (p == 2 && s == "Stack:") { this.stack = true; return; }
    if (this.sec == Sec.PENDING) return;
    if (this.stack) {
      let t = this.cur;
      if (t !== null && !this.m.placed && s.startsWith("at ")) this.m.jsFrame(t!, s);
      return;
    }
    if (this.cur === null && this.sec == Sec.SUITE) {
      let t = this.tests(f);
      this.suiteErrors++;
      if (this.suite == "top suite" && s.startsWith(JS_LOADING)) {
        let c = s.indexOf(": ", JS_LOADING.length);
        let path = c > 0 ? s.substring(JS_LOADING.length, c) : "";
        if (path.length > 0 && !path.includes(" ")) {
          path = normPath(path);
          this.open(hasFailure(t, path) ? failureNamed(t, path) : fileFailureOf(t, path));
          this.m.line(this.cur!, s.substring(c + 2));
          return;
        }
      }
      this.open(failureNamed(t, this.suite));
    }
    let t = this.cur;
    if (t !== null) this.m.line(t!, s);
  }

  private begin(f: Facts): void {
    this.seen = true;
    // Jasmine's tests are made by the first block or its totals (its `Failures:` is RSpec's too).
    if (!this.js) f.testsFor("rspec");
  }

  private open(tf: TestFailure): void {
    this.cur = tf;
    this.m = new RspecMessage();
    this.m.placed = tf.file !== null;
    this.code = false;
  }

  private body(l: Line): void {
    let t = this.cur;
    if (t === null) return;
    if (l.isBlank()) { this.code = false; return; }
    let s = l.trimmed(l.skipSpaces(0));
    if (s.startsWith("Failure/Error:")) { this.code = true; return; }
    if (this.code) return;
    // A backtrace line: `# ./lib/slug.rb:3:in `slug'` (its innermost user frame is the failure's place).
    if (s.startsWith("# ")) { this.m.frame(t, s.substring(2)); return; }
    if (s == "#") return;
    this.m.line(t, s);
  }

  private end(): void {
    let t = this.cur;
    if (t !== null) this.m.end(t);
    this.cur = null;
    this.m = new RspecMessage();
  }

  /** The failure of a spec file that did not load, named by its path (its unit too). */
  private fileFailure(f: Facts, path: string): TestFailure {
    let t = this.tests(f);
    if (hasFailure(t, path)) return failureNamed(t, path);
    this.fileFailures++;
    return fileFailureOf(t, path);
  }

  /** `9 examples, 5 failures, 2 pending`, `1 example, 0 failures`, `…, 1 error occurred outside of examples`. */
  private totals(s: string, f: Facts): bool {
    let cs = countedParts(s);
    if (cs === null) return false;
    let ex: i64 = -1, fa: i64 = -1, pe: i64 = 0, out: i64 = 0;
    for (let i = 0; i < cs.length; i++) {
      let n = cs[i].n; let w = cs[i].word;
      if (w == "examples" || w == "example") ex = n;
      else if (w == "specs" || w == "spec") { ex = n; this.js = true; }
      else if (w == "failures" || w == "failure") fa = n;
      else if (w == "pending" || w == "pending specs" || w == "pending spec") pe = n;
      else if (w.startsWith("error") && w.endsWith("occurred outside of examples")) out = n;
      else return false;
    }
    if (ex < 0 || fa < 0) return false;
    this.begin(f);
    this.examples = ex; this.failures = fa; this.pending = pe; this.outside = out;
    return true;
  }

  finish(f: Facts): void {
    this.end();
    this.sec = Sec.NONE;
    if (!this.seen) return;
    let t = this.tests(f);
    if (t.runner != (this.js ? "jasmine" : "rspec")) return;
    if (this.js && this.examples >= 0) {
      // Jasmine's failures count its suite errors (an afterAll's, a spec file's that did not load).
      let failed = max<i64>(0, this.failures - this.suiteErrors);
      t.passed = max<i64>(0, this.examples - failed - this.pending);
      t.failed = failed;
      t.skipped = this.pending;
      t.errors = this.suiteErrors;
      t.totals = true;
    } else if (this.examples >= 0) {
      t.passed = max<i64>(0, this.examples - this.failures - this.pending);
      t.failed = this.failures;
      t.skipped = this.pending;
      t.errors = max<i64>(this.outside, this.fileFailures);
      t.totals = true;
    } else {
      let n: i64 = 0;
      for (let i = 0; i < t.failures.length; i++) if (t.failures[i].pkg === null) n++;
      t.passed = -1;
      t.failed = this.js ? max<i64>(0, n - this.suiteErrors) : n;
      t.errors = this.js ? this.suiteErrors : this.fileFailures;
    }
  }
}

/** A failure's message as RSpec prints it, read line by line (the text formats' and the JSON report's alike). */
class RspecMessage {
  msg: string[] = [];
  errClass: string | null = null;
  expected: string | null = null;
  actual: string | null = null;
  /** The first user frame's place was taken (the innermost: later frames are callers). */
  placed: bool = false;

  /** A backtrace entry, `./lib/slug.rb:3:in `slug'`: the innermost user frame is the failure's place. */
  frame(t: TestFailure, s: string): void {
    if (this.placed) return;
    let fr = rubyFrame(s);
    if (fr !== null && fr.file !== null && isUserFile(fr.file!)) { t.file = fr.file; t.line = fr.line; this.placed = true; }
  }

  /** A JavaScript stack line, `at fn (path:3:36)`: the first user frame is the failure's place. */
  jsFrame(t: TestFailure, s: string): void {
    let fr = frameOfText(s);
    if (fr !== null && fr.user && fr.file !== null && fr.line > 0) { t.file = normPath(fr.file!); t.line = fr.line; this.placed = true; }
  }

  /** A line of the message, trimmed, not blank. */
  line(t: TestFailure, s: string): void {
    if (s.startsWith("(compared using ")) return;
    // An aggregate's failure: `1.2) Failure/Error: expect(…)` (its code: not the message), JSON's `2) expected: …`.
    let k = aggregateNumber(s);
    if (k > 0) { s = s.substring(k); if (s.startsWith("Failure/Error:")) return; }
    if (this.msg.length == 0 && this.errClass !== null) s = rubyReceiverCut(s);
    if (s.startsWith("expected: ") && this.expected === null) { this.expected = s.substring(10); }
    else if (s.startsWith("got: ") && this.actual === null) { this.actual = s.substring(5); }
    // The exception's class alone on its line (`NoMethodError:`, `RSpec::Core::MultipleExceptionError:`).
    if (this.errClass === null && this.msg.length == 0 && isClassLine(s)) { this.errClass = s.substring(0, s.length - 1); return; }
    // A SyntaxError's `./spec/x_spec.rb:6: syntax error, ...`: its place.
    if (this.msg.length == 0 && this.errClass !== null && !this.placed) {
      let c = s.indexOf(": ");
      if (c > 0) {
        let fr = new Frame();
        if (setLocation(fr, s.substring(0, c)) && fr.file !== null && fr.line > 0) {
          t.file = normPath(fr.file!); t.line = fr.line; this.placed = true;
        }
      }
    }
    if (this.msg.length < 6) this.msg.push(s);
  }

  end(t: TestFailure): void {
    let m = joinLines(this.msg, 6);
    // A SyntaxError's message is its first line (the source and the caret under it follow).
    if (this.errClass == "SyntaxError" && this.msg.length > 1) m = this.msg[0];
    if (this.errClass !== null) m = this.msg.length > 0 ? this.errClass! + ": " + m : this.errClass!;
    if (m.length > 0 || t.message.length == 0) t.message = m;
    if (this.expected !== null) t.expected = this.expected;
    if (this.actual !== null) t.actual = this.actual;
  }
}

/**
 * RSpec's `--format json` report, one line: `{"version":"3.12.0","examples":[…],"summary":{…},"summary_line":…}`.
 * Each example's `full_description` names it (as the text formats' failures), its `status` says how it went
 * (`passed`: the run's list of passes; `pending`: its skipped list; `failed`: a failure, its `exception`'s class,
 * message and backtrace read as the text formats print them; RSpec's own expectation class is not printed
 * there). A spec file that did not load is in `messages` (`An error occurred while loading ./spec/x_spec.rb.`
 * and the error under it): a failure named by its path, as in the text formats.
 */
export function rspecReport(v: JValue, f: Facts): void {
  let t = f.testsFor("rspec");
  let hs: Array<u32> | null = [];
  let ex = v.get("examples");
  for (let i = 0; i < ex.length; i++) {
    let e = ex.at(i);
    let name = e.get("full_description").str();
    let status = e.get("status").str();
    if (status == "passed") { hs = withName(hs, name); continue; }
    if (status == "pending") { t.skippedSet = withSkipped(t.skippedSet, name); continue; }
    if (status != "failed") continue;
    let tf = failureNamed(t, name);
    let x = e.get("exception");
    let m = new RspecMessage();
    let cls = x.get("class").str();
    if (cls.length > 0 && !cls.startsWith("RSpec::Expectations::")) m.errClass = cls;
    readMessage(m, tf, x.get("message").str());
    let bt = x.get("backtrace");
    for (let k = 0; k < bt.length && !m.placed; k++) m.frame(tf, bt.at(k).str());
    m.end(tf);
    if (tf.file === null) { tf.file = normPath(e.get("file_path").str()); tf.line = <i32>e.get("line_number").int(0); }
  }
  let fileFailures: i64 = 0;
  let ms = v.get("messages");
  for (let i = 0; i < ms.length; i++) {
    let text = ms.at(i).str().trimStart().trimEnd();
    if (!text.startsWith(LOADING)) continue;
    let nl = text.indexOf("\n");
    let head = nl > 0 ? text.substring(0, nl) : text;
    let unit = loadedUnit(head);
    if (unit === null) continue;
    let path = unit!;
    if (!hasFailure(t, path)) fileFailures++;
    let tf = hasFailure(t, path) ? failureNamed(t, path) : fileFailureOf(t, path);
    let m = new RspecMessage();
    let lines = text.substring(head.length).split("\n");
    for (let k = 0; k < lines.length; k++) {
      let s = lines[k].trimStart().trimEnd();
      if (s.length == 0 || s.startsWith("Failure/Error:") || s == "#" || (k == 1 && head.endsWith(DID_YOU_MEAN) && s.startsWith("rspec "))) continue;
      if (s.startsWith("# ")) { m.frame(tf, s.substring(2)); continue; }
      m.line(tf, s);
    }
    m.end(tf);
  }
  let sm = v.get("summary");
  let examples = sm.get("example_count").int(-1);
  let failures = sm.get("failure_count").int(0);
  let pending = sm.get("pending_count").int(0);
  if (examples >= 0) {
    t.passed = max<i64>(0, examples - failures - pending);
    t.failed = failures;
    t.skipped = pending;
    t.errors = max<i64>(sm.get("errors_outside_of_examples_count").int(0), fileFailures);
    t.totals = true;
    if (hs !== null && <i64>hs.length == t.passed) t.passedSet = hs;
  }
}

/** An exception's message, its lines as the text formats print them under the class. */
function readMessage(m: RspecMessage, tf: TestFailure, text: string): void {
  let lines = text.split("\n");
  for (let k = 0; k < lines.length; k++) {
    let s = lines[k].trimStart().trimEnd();
    if (s.length == 0) continue;
    // An aggregate's failures carry their places in the message (`./spec/x_spec.rb:11:in `block…'`): frames.
    if (s.charCodeAt(0) == 0x2E && s.startsWith("./") && s.includes(":in ") && rubyFrame(s) !== null) { m.frame(tf, s); continue; }
    m.line(tf, s);
  }
}

/**
 * What `An error occurred while loading X.` names: a spec file's path (`./spec/x_spec.rb`), or a file `.rspec`
 * requires by its feature (`spec_helper`, with ` - Did you mean?` after); null when the line is no such head.
 */
function loadedUnit(s: string): string | null {
  let e = s.endsWith(DID_YOU_MEAN) ? s.length - DID_YOU_MEAN.length : s.length;
  if (e <= LOADING.length + 1 || s.charCodeAt(e - 1) != 0x2E) return null;
  let name = s.substring(LOADING.length, e - 1);
  if (name.includes(" ")) return null;
  return name.endsWith(".rb") ? normPath(name) : name;
}

/** The length of an aggregate failure's number (`12.3) `, `2) `) at s's start, 0 when none. */
function aggregateNumber(s: string): i32 {
  let i = 0;
  while (i < s.length && isDigit(s.charCodeAt(i))) i++;
  if (i == 0) return 0;
  if (i < s.length && s.charCodeAt(i) == 0x2E) {
    let j = i + 1;
    while (j < s.length && isDigit(s.charCodeAt(j))) j++;
    if (j == i + 1) return 0;
    i = j;
  }
  return i + 1 < s.length && s.charCodeAt(i) == 0x29 && s.charCodeAt(i + 1) == 0x20 ? i + 2 : 0;
}

/** `NoMethodError:`, `RSpec::Expectations::ExpectationNotMetError:`: a Ruby class name and a colon, alone. */
function isClassLine(s: string): bool {
  if (s.length < 2 || !s.endsWith(":")) return false;
  let c0 = s.charCodeAt(0);
  if (c0 < 0x41 || c0 > 0x5A) return false;
  for (let i = 1; i < s.length - 1; i++) {
    let c = s.charCodeAt(i);
    if (!(isDigit(c) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x5F || c == 0x3A)) return false;
  }
  return true;
}

/** A Ruby backtrace entry, `./lib/x.rb:3:in `fn'` (3.4: `in 'Klass#fn'`) or `./spec/x_spec.rb:26`: its frame. */
export function rubyFrame(s: string): Frame | null {
  let t = s.trimStart().trimEnd();
  let e = t.indexOf(":in ");
  let loc = e > 0 ? t.substring(0, e) : t;
  if (loc.includes(" ")) return null;
  let fr = new Frame();
  if (!setLocation(fr, loc) || fr.file === null || fr.line <= 0) return null;
  fr.file = normPath(fr.file!);
  if (e > 0) {
    let fn = t.substring(e + 4);
    if (fn.length >= 2) fn = fn.substring(1, fn.length - 1);
    fr.fn = fn;
  }
  return fr;
}
