// Go panics and fatal runtime errors with their goroutine stacks.
//
//   panic: runtime error: index out of range [5] with length 3      (" [recovered]" when re-panicked,
//   [signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=..]   then a tab-indented "panic: ...")
//
//   goroutine 1 [running]:
//   main.third(...)
//   	./main.go:6
//   main.main()
//   	./main.go:11 +0x1d
//   created by main.main in goroutine 1
//   	./main.go:18 +0x5b
//   exit status 2                                                   (go run)
//
// `fatal error: all goroutines are asleep - deadlock!` has the same stack layout; since gcc and others
// also print "fatal error:", it counts only once a goroutine stack (or Go's [signal ...] line) follows.
// The first goroutine printed is the one that failed: its frames are the crash's, later ones are claimed.
import { Char, isHex } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts, Crash, Frame, MAX_FRAMES } from "../../model";
import { Parser } from "../../parser";
import { ByteSet } from "../../util/byte-set";
import { classify, isGoHang, runsGoTest, goTestRole, GoTestRole, setGoLocation } from "../../frames";
import { reportIsFatal, pushFrame, renumber } from "../runtime-common";
import { join } from "../../util/join";

const enum State { IDLE, HEAD, STACK }

/** At rest: `panic: `, `fatal error: ` at column 0. */
const STARTS = new ByteSet().chars("pf");

export class GoPanicParser extends Parser {
  private state: State = State.IDLE;
  private crash: Crash | null = null;
  /** A "fatal error:" not yet confirmed by a goroutine stack. */
  private pending: bool = false;
  /** Frames go to the crash only from the first goroutine. */
  private capture: bool = false;
  private goroutines: i32 = 0;
  /** The next tab-indented line is the location of the frame just read (false after "created by"). */
  private wantLoc: bool = false;
  /** The report cannot become the crash: lines are claimed, nothing is built. */
  private skim: bool = false;
  /** go test's -timeout alarm: its own goroutine's frames, kept while a later goroutine is read for the test's. */
  private alarm: Array<Frame> | null = null;
  /** The first goroutine after it whose test waits in t.Run for a subtest: the place when none runs a test. */
  private waiting: Array<Frame> | null = null;
  private found: bool = false;
  /**
   * The panic's value printed over several lines (`panic(fmt.Sprintf("bad count %d\nitems: …"))`: go prints it
   * as it is): its further lines, up to the blank line before the first goroutine, are the message's. Closed by
   * the first copy's ` [recovered]` (the lines of its tab-indented re-panic are then only claimed).
   */
  private msgOpen: bool = false;
  private msgAppend: bool = false;
  /**
   * Those lines, left to the other parsers until the report shows they were its own (the goroutine after the
   * blank line, or the first copy's ` [recovered]`): a panic cut off and followed by another tool's lines keeps
   * its first line alone.
   */
  private msgMore: Array<string> = [];
  /**
   * A blank line inside the value (`1 error(s) decoding:`, a blank line, `* 'Age' expected …`: hashicorp's
   * multierror, mapstructure's errors): the message goes on when a line other than a goroutine's follows it.
   */
  private msgBlank: bool = false;
  private blankLines: i32 = 0;
  /**
   * The number of the line last kept aside (an unclaimed line may be offered again). Not its address: a line a
   * stream's chunk cut in two is put together in the splitter's buffer, at the same address as the next such one.
   */
  private msgAt: i64 = -1;

  busy(): bool { return this.state != State.IDLE; }
  atRest(): bool { return this.state == State.IDLE; }
  starts(): ByteSet | null { return STARTS; }

  claim(l: Line, f: Facts): bool {
    switch (this.state) {
      case State.HEAD: return this.head(l, f);
      case State.STACK: return this.stack(l, f);
      default: return this.idle(l, f);
    }
  }

  finish(f: Facts): void { this.close(); }

  private idle(l: Line, f: Facts): bool {
    let c0 = l.at(0);
    let p = 0;
    let fatal = false;
    if (c0 == Char.p && l.startsWith("panic: ")) p = 7;
    else if (c0 == Char.f && l.startsWith("fatal error: ")) { p = 13; fatal = true; }
    else return false;
    this.pending = fatal;
    this.msgOpen = !fatal;
    this.msgAppend = !fatal && !l.contains(" [recovered");
    this.msgMore.length = 0;
    this.msgBlank = false;
    this.blankLines = 0;
    this.msgAt = -1;
    this.capture = false;
    this.goroutines = 0;
    this.wantLoc = false;
    this.state = State.HEAD;
    if (f.crash !== null || !reportIsFatal(f)) {
      // Not the crash: claim the report, build nothing (confirm() still counts it).
      this.crash = null;
      this.skim = true;
      if (!fatal && reportIsFatal(f)) f.crashCount++;
      return true;
    }
    this.skim = false;
    let c = new Crash();
    c.tool = "go-panic";
    c.summary = l.trimmed(0);
    let msg = l.trimmed(p);
    let rec = msg.indexOf(" [recovered");
    if (rec > 0) msg = msg.substring(0, rec);
    c.message = msg;
    c.kind = kindOf(msg);
    c.stateFrames = new Array<Frame>(0);
    this.crash = c;
    this.alarm = null;
    this.waiting = null;
    this.found = false;
    if (!fatal) this.commit(f);
    return true;
  }

  /** Between the panic line and the first goroutine. */
  private head(l: Line, f: Facts): bool {
    if (l.isBlank()) {
      // Within the value's bound (msgMore's 16 lines) a blank line may be the value's own; past it, the end.
      if (this.msgOpen && this.msgMore.length < 16 && this.blankLines++ < 16) this.msgBlank = true;
      else this.msgOpen = false;
      return true;
    }
    let c0 = l.at(0);
    if ((c0 == Char.TAB || c0 == Char.SPACE) && l.matchAt("panic: ", indentEnd(l))) { this.msgAppend = false; return true; } // the re-panic of a [recovered] one
    if (this.msgOpen && !(c0 == Char.g && l.startsWith("goroutine ")) && !(c0 == Char.LBRACKET && l.startsWith("[signal "))) {
      let r = this.messageLine(l);
      if (r >= 0) return r > 0;
    }
    if (c0 == Char.LBRACKET && l.startsWith("[signal ")) {
      this.msgOpen = false;
      this.confirm(f);
      return true;
    }
    if (c0 == Char.g && this.goroutineLine(l)) {
      this.keepMessage();
      this.confirm(f);
      this.state = State.STACK;
      return true;
    }
    if (l.startsWith("runtime stack:")) {
      this.confirm(f);
      this.state = State.STACK;
      // The runtime's own stack comes first; the goroutine printed after it is still the failing one.
      this.goroutines = 0;
      this.capture = true;
      return true;
    }
    if (this.pending) {
      // "fatal error:" without a Go stack: not Go's.
      this.crash = null;
      this.pending = false;
      this.state = State.IDLE;
      return false;
    }
    this.close();
    return this.idle(l, f);
  }

  private stack(l: Line, f: Facts): bool {
    let c0 = l.at(0);
    let sc = this.crash;
    if (sc !== null && sc.stateFrames !== null) stateFrame(l, sc.stateFrames!);
    // A location line is tab-indented; logs that went through a CI system or expand(1) indent it with spaces
    // (or a Unicode space: an em space, pasted from a page); one copied out of a terminal may have lost it.
    if (c0 == Char.TAB || (this.wantLoc && (c0 == Char.SPACE || c0 >= 0x80 || bareLocation(l)))) {
      if (this.wantLoc) {
        this.wantLoc = false;
        let c = this.crash;
        if (c !== null && this.capture && c.frames.length > 0) {
          let fs = c.frames;
          let fr = fs[fs.length - 1];
          let p = indentEnd(l);
          let end = l.indexOf(" +0x", p);
          setGoLocation(fr, l.trimmed(p, end > 0 ? end : l.len));
        }
      }
      return true;
    }
    if (l.isBlank()) return true;
    if (c0 == Char.g && this.goroutineLine(l)) return true;
    if (c0 == Char.e && l.startsWith("exit status ")) { this.close(); return true; }
    if (l.startsWith("created by ")) { this.wantLoc = false; return true; }
    if (c0 == Char.LBRACKET || l.startsWith("...additional frames elided...")) return true;
    if (l.startsWith("runtime stack:")) return true;
    // A call: `pkg.fn(args)`, `main.(*T).M(...)`, `panic({0x518c40, 0xc00001a0c0})`.
    if (c0 > Char.SPACE && l.at(l.len - 1) == Char.RPAREN) {
      let open = l.lastIndexOfByte(Char.LPAREN);
      if (open > 0) {
        if (this.capture && this.crash !== null) {
          let fr = new Frame();
          fr.fn = l.str(0, open);
          classify(fr);
          fr.user = false; // until its location line is read
          let fs = this.crash!.frames;
          // A `panic(...)` frame below other frames: they are a deferred function that recovered the
          // panic and panicked again. The fault is under it, so the frames above it are not the user's.
          if (fr.fn !== null && fr.fn! == "panic") for (let i = 0; i < fs.length; i++) fs[i].user = false;
          pushFrame(fs, fr);
        }
        this.wantLoc = true;
        return true;
      }
    }
    this.close();
    return this.idle(l, f);
  }

  /**
   * A further line of a panic's value (msgOpen): kept aside for the message until ` [recovered]` ends the first
   * copy (then the report's own: claimed, as the re-panic's lines after it); unclaimed before that.
   */
  /** 1: the value's line, claimed; 0: the value's, left to the others until confirmed; -1: not the value's. */
  private messageLine(l: Line): i32 {
    if (!this.msgAppend) {
      // The re-panic's copy of the value: past a blank line, only a line the value holds (else the report was cut).
      if (this.msgBlank) {
        let c = this.crash;
        let m = c !== null ? c.message : null;
        if (m === null || !m.includes(l.toString())) { this.msgOpen = false; this.msgBlank = false; return -1; }
      }
      return 1;
    }
    if (<i64>l.no == this.msgAt) return 0;
    this.msgAt = <i64>l.no;
    if (this.msgBlank) { this.msgBlank = false; if (this.msgMore.length < 16) this.msgMore.push(""); }
    let rec = l.indexOf(" [recovered");
    if (this.msgMore.length < 16) this.msgMore.push(rec >= 0 ? l.str(0, rec) : l.toString());
    if (rec < 0) return 0;
    this.msgAppend = false;
    this.keepMessage();
    return 1;
  }

  /** The value's further lines were the report's: the message's. */
  private keepMessage(): void {
    let m = this.msgMore;
    let c = this.crash;
    if (c !== null && c.message !== null && m.length > 0) c.message = c.message! + "\n" + m.join("\n");
    m.length = 0;
  }

  /** `goroutine 7 [running]:` — the first one printed is the goroutine that failed. */
  private goroutineLine(l: Line): bool {
    if (!l.startsWith("goroutine ")) return false;
    let n = l.readInt(10);
    if (n < 0 || l.at(l.end) != Char.SPACE || l.at(l.len - 1) != Char.COLON) return false;
    this.goroutines++;
    this.capture = this.goroutines == 1;
    this.wantLoc = false;
    // The -timeout alarm (or the deadlock's goroutine 1): the goroutines after it are read until the running test's.
    let c = this.crash;
    if (c !== null && this.goroutines > 1 && !this.found && isGoHang(c.message)) {
      if (this.goroutines == 2) this.alarm = c.frames;
      else {
        let role = goTestRole(c.frames);
        if (role == GoTestRole.RUNS) { this.found = true; return true; }
        if (role == GoTestRole.WAITS && this.waiting === null) this.waiting = c.frames;
      }
      c.frames = new Array<Frame>(0);
      this.capture = true;
    }
    return true;
  }

  private confirm(f: Facts): void {
    if (!this.pending) return;
    this.pending = false;
    if (this.skim) { if (reportIsFatal(f)) f.crashCount++; }
    else this.commit(f);
  }

  private commit(f: Facts): void {
    let c = this.crash;
    if (c !== null && reportIsFatal(f)) f.setCrash(c);
  }

  private close(): void {
    let c = this.crash;
    let a = this.alarm;
    if (c !== null && a !== null && !this.found && !runsGoTest(c.frames)) c.frames = this.waiting !== null ? this.waiting! : a;
    this.alarm = null;
    this.waiting = null;
    if (c !== null && !this.pending) renumber(c.frames);
    this.crash = null;
    this.pending = false;
    this.state = State.IDLE;
  }
}

/** `/src/x/parser.go:154 +0x4b fp=0x.. sp=0x..`: a frame's location line without its indentation. */
function bareLocation(l: Line): bool {
  if (l.at(l.len - 1) == Char.RPAREN) return false;
  let sp = l.indexOfByte(Char.SPACE);
  let head = l.str(0, sp > 0 ? sp : l.len);
  let colon = head.lastIndexOf(":");
  return colon > 0 && (head.substring(0, colon).endsWith(".go") || head.substring(0, colon).endsWith(".s"));
}

/** Where a line's indentation ends: tabs, spaces, and the bytes of a Unicode space. */
function indentEnd(l: Line): i32 {
  let p = 0;
  while (p < l.len && (l.at(p) == Char.TAB || l.at(p) == Char.SPACE || l.at(p) >= 0x80)) p++;
  return p;
}

/**
 * A frame line as ClusterFuzz reads a Go stack, added to the state's frames: the whole line is a function
 * (letters, digits and `._-/\()*`) and an argument list of hex words (`0x1a, 0x2`, `{0x3, 0x4}`, `...`). A
 * frame whose arguments Go marks as inexact (`0xc0001?`) or a generic's (`F[...]`) is not one of them.
 */
function stateFrame(l: Line, out: Array<Frame>): void {
  let n = l.len;
  if (n < 3 || l.at(n - 1) != Char.RPAREN || out.length >= MAX_FRAMES) return;
  let open = l.lastIndexOfByte(Char.LPAREN);
  if (open <= 0) return;
  for (let i = open + 1; i < n - 1; i++) {
    let c = l.at(i);
    if (!((c >= Char._0 && c <= Char._9) || (c >= Char.a && c <= Char.f) || c == Char.x || c == Char.SPACE ||
      c == Char.TAB || c == Char.COMMA || c == Char.DOT || c == Char.LBRACE || c == Char.RBRACE)) return;
  }
  for (let i = 0; i < open; i++) {
    let c = l.at(i);
    if (!((c >= Char._0 && c <= Char._9) || (c >= Char.a && c <= Char.z) || (c >= Char.A && c <= Char.Z) ||
      c == Char.DOT || c == Char.MINUS || c == Char.UNDERSCORE || c == Char.BACKSLASH || c == Char.SLASH ||
      c == Char.LPAREN || c == Char.RPAREN || c == Char.STAR)) return;
  }
  let fr = new Frame();
  fr.fn = l.str(0, open);
  fr.text = fr.fn;
  out.push(fr);
}

/**
 * The class of a panic: a runtime error without its values ("runtime error: index out of range [5] with
 * length 3" is "runtime error: index out of range"); any other message as the program wrote it.
 */
function kindOf(msg: string): string {
  if (msg.startsWith("runtime error: ")) {
    let b = msg.indexOf(" [");
    if (b > 0) return msg.substring(0, b);
    let w = msg.indexOf(" with length ");
    if (w > 0) return msg.substring(0, w);
  }
  // "interface conversion: interface {} is string, not int" and custom messages stay whole, except for
  // pointers (`panic: (*main.E) 0xc000012345`), which move between runs.
  if (msg.length == 0) return "panic";
  return msg.includes("0x") ? maskHex(msg) : msg;
}

/** Replaces every 0x<hex> run with "0x?". */
function maskHex(s: string): string {
  let parts = new Array<string>(0);
  let from = 0;
  let i = s.indexOf("0x");
  while (i >= 0) {
    let j = i + 2;
    while (j < s.length && isHex(s.charCodeAt(j))) j++;
    if (j > i + 2) { parts.push(s.substring(from, i)); parts.push("0x?"); from = j; }
    i = s.indexOf("0x", j);
  }
  parts.push(s.substring(from));
  return join(parts, "");
}
