// Rust panics, as the default panic hook prints them.
//
//   thread 'main' (16585) panicked at src/main.rs:2:5:       <- rustc >= 1.73 (the "(tid)" since 1.88)
//   index out of bounds: the len is 3 but the index is 7      <- the message, one or more lines
//   note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace
//
//   thread 'main' panicked at 'explicit panic', src/main.rs:10:5   <- older rustc: message inline
//
// With RUST_BACKTRACE=1 a `stack backtrace:` follows: `   3: crate::func` lines, each with an
// `             at ./src/main.rs:2:5` line (RUST_BACKTRACE=full adds `0x55d0.. - ` before the name).
// The first panic of the log is the crash (a later one, e.g. main unwrapping the Err of a joined thread,
// is its consequence). Inside a test harness a panic is a test's failure, not a crash: the runner
// parsers report those.
import { Char, isDigit, isHex } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts, Crash, Frame } from "../../model";
import { Parser } from "../../parser";
import { ByteSet } from "../../util/byte-set";
import { classify, setLocation, firstUser, parseSanFrame } from "../../frames";
import { reportIsFatal, pushFrame } from "../runtime-common";
import { join } from "../../util/join";

const enum State { IDLE, MESSAGE, BACKTRACE }

const MAX_MESSAGE_LINES = 24;
const ALLOC_FAILED = "memory allocation of ";

/** At rest: `thread '..' panicked at`, `memory allocation of`, and after a reported overflow the runtime's
 *  `fatal runtime error: stack overflow` line, at column 0. */
const STARTS = new ByteSet().chars("mtf");

export class RustPanicParser extends Parser {
  private state: State = State.IDLE;
  private crash: Crash | null = null;
  /** The panic location, the only frame when there is no backtrace. */
  private where: Frame | null = null;
  private msg: Array<string> = [];
  /** An old-format message ('..') still open: its closing `', file:line:col` is on a later line. */
  private openQuote: bool = false;
  /** An old-format message whose closing quote was read: no later line is part of it. */
  private quoteDone: bool = false;
  /** A stack overflow was reported: the runtime's `fatal runtime error: stack overflow` line after it is its. */
  private overflowSeen: bool = false;

  busy(): bool { return this.state != State.IDLE; }
  atRest(): bool { return this.state == State.IDLE; }
  starts(): ByteSet | null { return STARTS; }

  claim(l: Line, f: Facts): bool {
    switch (this.state) {
      case State.MESSAGE: return this.message(l, f);
      case State.BACKTRACE: return this.backtrace(l, f);
      default: return this.idle(l, f);
    }
  }

  finish(f: Facts): void { this.close(); }

  private idle(l: Line, f: Facts): bool {
    if (l.at(0) == Char.m && l.startsWith(ALLOC_FAILED)) return this.allocFailed(l, f);
    if (l.at(0) == Char.f && l.startsWith("fatal runtime error: stack overflow")) return this.overflowSeen;
    if (l.at(0) != Char.t || !l.startsWith("thread '")) return false;
    if (l.endsWith(" has overflowed its stack")) return this.overflow(l, f);
    let at = l.indexOf(" panicked at ", 8);
    if (at < 0) return false;
    let q = l.lastIndexOfByte(Char.APOS, at);
    if (q < 8) return false;
    // A panic on a test's thread under a test harness is that test's failure.
    let harness = f.tests !== null && !(q == 12 && l.matchAt("main", 8));
    let counts = !harness && reportIsFatal(f);
    if (!counts || f.crash !== null) {
      // Not the crash (a test's failure, a logged panic, or one after the first): claim it, build nothing.
      if (counts) f.crashCount++;
      this.crash = null;
      this.where = null;
      this.state = State.MESSAGE;
      return true;
    }
    let c = new Crash();
    c.tool = "rust-panic";
    // A fleet reads no frame from Rust's own backtrace: only the stack of an abort report that follows it
    // (lendStack) adds to the state after the message.
    c.stateFrames = new Array<Frame>(0);
    c.thread = l.str(8, q); // the name only: the "(12345)" thread id moves between runs
    let p = at + 13;
    let fr: Frame | null = new Frame();
    this.msg = [];
    this.openQuote = false;
    this.quoteDone = false;
    if (l.at(p) == Char.APOS) {
      // Old format: panicked at 'message', file:line:col; a message of several lines ends with the quote
      // and the location on its last line.
      let comma = l.lastIndexOf("', ");
      if (comma > p && setLocation(fr!, l.str(comma + 3))) { this.msg.push(l.str(p + 1, comma)); this.quoteDone = true; }
      else if (comma < 0) { this.msg.push(l.str(p + 1)); this.openQuote = true; fr = null; }
      else return false;
    } else {
      let end = l.len;
      if (l.at(end - 1) == Char.COLON) end--;
      if (!setLocation(fr!, l.str(p, end))) return false;
    }
    if (fr !== null) classify(fr);
    this.where = fr;
    this.crash = c;
    f.setCrash(c);
    this.state = State.MESSAGE;
    this.settle();
    return true;
  }

  /**
   * "memory allocation of 2314885530818453516 bytes failed": Rust's allocation error handler, which then
   * aborts. An out-of-memory crash with no stack of its own (the abort report after it lends one) and no
   * message in its state: the size moves with the input, the frames say where.
   */
  private allocFailed(l: Line, f: Facts): bool {
    let e = l.indexOf(" bytes failed", ALLOC_FAILED.length);
    if (e <= ALLOC_FAILED.length) return false;
    for (let i = ALLOC_FAILED.length; i < e; i++) if (!isDigit(l.at(i))) return false;
    if (f.crash !== null || !reportIsFatal(f)) { if (reportIsFatal(f)) f.crashCount++; return true; }
    let c = new Crash();
    c.tool = "rust-panic";
    c.kind = "memory allocation failed";
    c.message = l.str(0, e + 13);
    c.summary = c.message;
    c.stateHead = new Array<string>(0);
    c.stateFrames = new Array<Frame>(0);
    c.stackless = true;
    f.setCrash(c);
    return true;
  }

  /**
   * `thread 'main' (7) has overflowed its stack`, then `fatal runtime error: stack overflow, aborting`: the
   * runtime aborts the process, under a test harness too (the whole binary dies, not one test). A crash with
   * no stack of its own (an abort report after it lends one); the thread names the test that ran out.
   */
  private overflow(l: Line, f: Facts): bool {
    let q = l.indexOfByte(Char.APOS, 8);
    if (q <= 8) return false;
    this.overflowSeen = true;
    if (f.crash !== null || !reportIsFatal(f)) { if (reportIsFatal(f)) f.crashCount++; return true; }
    let c = new Crash();
    c.tool = "rust-panic";
    c.kind = "stack-overflow";
    c.thread = l.str(8, q);
    c.message = "thread '" + c.thread! + "' has overflowed its stack";
    c.summary = c.message;
    c.stateFrames = new Array<Frame>(0);
    c.stackless = true;
    f.setCrash(c);
    return true;
  }

  private message(l: Line, f: Facts): bool {
    if (this.openQuote) {
      let k = l.lastIndexOf("', ");
      let fr = new Frame();
      if (k >= 0 && setLocation(fr, l.str(k + 3))) {
        classify(fr);
        this.where = fr;
        this.openQuote = false;
        this.quoteDone = true;
        if (this.crash !== null && this.msg.length < MAX_MESSAGE_LINES) { this.msg.push(l.str(0, k)); this.settle(); }
        return true;
      }
      if (this.msg.length < MAX_MESSAGE_LINES) {
        if (this.crash !== null) { this.msg.push(l.str(0)); this.settle(); }
        return true;
      }
      this.openQuote = false;
    }
    if (l.startsWith("note: run with `RUST_BACKTRACE=")) { this.close(); return true; }
    if (l.startsWith("stack backtrace:")) { this.state = State.BACKTRACE; return true; }
    // the old format's message ended at its quote: what follows (a fuzzer's report) is not more of it
    if (this.quoteDone || l.isBlank() || l.startsWith("thread '") || l.startsWith("note: ") || l.startsWith("error: ") || l.startsWith("warning: ")) {
      this.close();
      return this.idle(l, f);
    }
    if (this.crash !== null && this.msg.length < MAX_MESSAGE_LINES) {
      this.msg.push(l.str(0));
      this.settle();
    }
    return true;
  }

  private backtrace(l: Line, f: Facts): bool {
    let p = l.skipSpaces(0);
    let cr = this.crash;
    if (p > 0 && isDigit(l.at(p))) {
      let n = l.readInt(p);
      if (n >= 0 && l.at(l.end) == Char.COLON) {
        if (cr === null) return true;
        let c = cr;
        let s = l.skipSpaces(l.end + 1);
        // RUST_BACKTRACE=full: "0x55d0c2a1b2c3 - name"
        if (l.matchAt("0x", s)) {
          let dash = l.indexOf(" - ", s);
          s = dash > 0 ? dash + 3 : l.len;
        }
        let fr = new Frame();
        fr.index = <i32>n;
        let name = l.trimmed(s);
        if (name.length > 0 && name != "<unknown>") fr.fn = stripHash(name);
        classify(fr);
        fr.user = false; // until an "at file:line" shows it is the user's source
        pushFrame(c.frames, fr);
        return true;
      }
    }
    // Fuchsia's symbolizer prints the backtrace as a sanitizer does ("#9 0x.. in fn file:line <>+0x.."): those
    // frames are a stack a fleet reads, so the state reads them too (Rust's own "9: fn" lines it does not).
    if (l.at(p) == Char.HASH) {
      let fr = parseSanFrame(l);
      if (fr !== null) {
        if (cr !== null) {
          if (fr.fn !== null) fr.fn = stripHash(fr.fn!); // the state reads the text as printed, hash and all
          pushFrame(cr.frames, fr);
          let st = cr.stateFrames;
          if (st !== null) st.push(fr);
        }
        return true;
      }
      // an inlined sub-frame ("#0.3 0x.. in ..."): a fleet reads no frame of it
      if (isDigit(l.at(p + 1))) return true;
    }
    // the symbolizer's module lines before such frames ("[[[ELF module #0x1 "libfdio.so" BuildID=..]]]")
    if (l.matchAt("[[[", p)) return true;
    if (p > 0 && l.matchAt("at ", p)) {
      if (cr === null) return true;
      let fs = cr.frames;
      if (fs.length > 0) {
        let fr = fs[fs.length - 1];
        if (fr.file === null && setLocation(fr, l.trimmed(p + 3))) classify(fr);
      }
      return true;
    }
    if (l.startsWith("note: Some details are omitted")) { this.close(); return true; }
    this.close();
    return this.idle(l, f);
  }

  /** Message-derived facts, refreshed as message lines arrive. */
  private settle(): void {
    let c = this.crash;
    if (c === null) return;
    let m = this.msg;
    c.message = m.length > 0 ? join(m, "\n") : null;
    c.summary = m.length > 0 ? m[0] : null;
    c.kind = m.length > 0 ? kindOf(m[0]) : "panic";
  }

  /** Ends the block: the panic location stands in when the backtrace shows no frame of the user's. */
  private close(): void {
    let c = this.crash;
    if (c !== null) {
      let w = this.where;
      if (w !== null && firstUser(c.frames) === null) {
        if (c.frames.length == 0) { w.index = 0; c.stackless = true; }
        c.frames.unshift(w);
      }
      if (c.frames.length == 0) c.stackless = true;
    }
    this.crash = null;
    this.where = null;
    this.openQuote = false;
    this.quoteDone = false;
    this.state = State.IDLE;
  }
}

/**
 * RUST_BACKTRACE=full symbols carry build hashes that move between builds: the `::h0123456789abcdef`
 * suffix and the `std[e28293b1aa0f68bd]` crate disambiguators. Both are dropped.
 */
function stripHash(name: string): string {
  let i = name.lastIndexOf("::h");
  if (i > 0 && name.length - i == 19) name = name.substring(0, i);
  let b = name.indexOf("[");
  if (b < 0) return name;
  let parts = new Array<string>(0);
  let from = 0;
  while (b >= 0) {
    let e = b + 17;
    if (e < name.length && name.charCodeAt(e) == Char.RBRACKET && allHex(name, b + 1, e)) {
      parts.push(name.substring(from, b));
      from = e + 1;
    }
    b = name.indexOf("[", b + 1);
  }
  parts.push(name.substring(from));
  return join(parts, "");
}

function allHex(s: string, a: i32, b: i32): bool {
  for (let i = a; i < b; i++) if (!isHex(s.charCodeAt(i))) return false;
  return true;
}

/**
 * The class of a panic from its first message line: the text before the first ": " (the values after
 * it move between runs: "index out of bounds: the len is 3 but the index is 7", "called `Result::unwrap()`
 * on an `Err` value: ParseIntError { .. }", "assertion failed: x > 0"), else the whole line.
 */
export function kindOf(first: string): string {
  let i = first.indexOf(": ");
  let k = i > 0 ? first.substring(0, i) : first;
  k = k.trimStart().trimEnd();
  return k.length > 0 ? k : "panic";
}
