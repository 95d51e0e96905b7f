// CPython's interpreter tracebacks (not a test runner's: pytest's and unittest's own reports are the
// runner parsers', which see every line first).
//
//   Traceback (most recent call last):
//     File "./main.py", line 10, in <module>
//       print(walk(cyclic))
//             ^^^^^^^^^^^^
//     [Previous line repeated 996 more times]
//   RecursionError: maximum recursion depth exceeded
//
// Chained exceptions print one such block per exception, joined by "During handling of the above
// exception, another exception occurred:" or "The above exception was the direct cause of the following
// exception:"; the last block is the exception that killed the program, so it replaces the earlier ones.
// A SyntaxError in the main script has no "Traceback" header: `  File "x.py", line 5`, the source, a caret
// line, then `SyntaxError: ...`. Frames are printed outermost first and stored innermost first.
import { Char, isAlpha, isDigit } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts, Crash, Frame, MAX_FRAMES } from "../../model";
import { Parser } from "../../parser";
import { ByteSet } from "../../util/byte-set";
import { classify, normPath } from "../../frames";
import { reportIsFatal, renumber } from "../runtime-common";

const enum State { IDLE, TRACE, SYNTAX, AFTER }

/** The first byte of a non-ASCII character. */
const NON_ASCII = 0x80;

const MAX_CAUSES = 4;

const HEADER = "Traceback (most recent call last):";
const GROUP_HEADER = "Exception Group Traceback (most recent call last):";
const GROUP_OPEN = "+ Exception Group Traceback (most recent call last):";
const FILE = "  File \"";

const enum Form { NONE, SYNTAX, CALL }

/** Whether `  File "path", line N` (SYNTAX) or `..., in func` (CALL) starts at base, without allocating. */
function frameForm(l: Line, base: i32): Form {
  let q = l.indexOf("\", line ", base + FILE.length);
  if (q < 0) return Form.NONE;
  if (l.readInt(q + 8) < 0) return Form.NONE;
  let e = l.end;
  if (e == l.len) return Form.SYNTAX;
  return l.matchAt(", in ", e) ? Form.CALL : Form.NONE; // not faulthandler's `line 6 in f`
}
const DURING = "During handling of the above exception, another exception occurred:";
const CAUSE = "The above exception was the direct cause of the following exception:";

/** At rest: `Traceback`, `Exception Group Traceback` at column 0; `  File "` and `  + Exception Group` after two blanks. */
const STARTS = new ByteSet().chars("TE").chars("F+");

export class PythonParser extends Parser {
  private state: State = State.IDLE;
  private frames: Array<Frame> = [];
  /** The next exception line ends a block chained to the previous one. */
  private chained: bool = false;
  /** How: "cause" (`The above exception was the direct cause`) or "context" (`During handling`). */
  private relation: string = "context";
  /** The crash this parser last committed (replaced by a chained successor). */
  private mine: Crash | null = null;
  /** Inside an exception group ("  | " prefixed lines): the group's own exception line is the kind. */
  private group: bool = false;
  /** The block cannot become the crash (one is kept already, or it is not fatal): claim, build nothing. */
  private skim: bool = false;

  busy(): bool { return this.state != State.IDLE; }
  atRest(): bool { return this.state == State.IDLE; }
  starts(): ByteSet | null { return STARTS; }

  claim(l: Line, f: Facts): bool {
    switch (this.state) {
      case State.TRACE: return this.inTrace(l, f);
      case State.SYNTAX: return this.inSyntax(l, f);
      case State.AFTER: return this.after(l, f);
      default: return this.idle(l, f);
    }
  }

  finish(f: Facts): void {
    this.state = State.IDLE;
    this.frames = [];
    this.chained = false;
    this.group = false;
  }

  private idle(l: Line, f: Facts): bool {
    let c0 = l.at(0);
    if (c0 == Char.SPACE) {
      if (l.matchAt(FILE, 0)) {
        let form = frameForm(l, 0);
        if (form == Form.NONE) return false;
        this.begin(f);
        if (!this.skim) this.frames.push(this.parseFrame(l, 0));
        // `File "x", line N` with no function is the SyntaxError form; with one, a traceback whose header went elsewhere.
        this.state = form == Form.SYNTAX ? State.SYNTAX : State.TRACE;
        return true;
      }
      // Exception groups (3.11+): "  + Exception Group Traceback (most recent call last):"
      // (Two blanks before it, as Python prints it: the dispatcher's filter keys a line on its first other byte.)
      if (l.at(1) == Char.SPACE && l.at(2) == Char.PLUS && l.matchAt(GROUP_OPEN, 2)) {
        this.begin(f);
        this.group = true;
        this.state = State.TRACE;
        return true;
      }
      return false;
    }
    if (c0 == Char.T || c0 == Char.E) {
      if (l.startsWith(HEADER) || l.startsWith(GROUP_HEADER)) {
        this.begin(f);
        this.group = l.at(0) == Char.E;
        this.state = State.TRACE;
        return true;
      }
    }
    return false;
  }

  private inTrace(l: Line, f: Facts): bool {
    // Exception-group blocks prefix every line with "  | " (nested deeper per level) and separate members
    // with "+---- 1 ----" rules; only the group's own frames and exception line are kept.
    let base = 0;
    if (this.group) {
      let p = l.indent();
      let c = l.at(p);
      if (c == Char.PLUS) return true;
      if (c == Char.PIPE) {
        if (p > 2) return true; // a member exception's lines: claimed, not parsed
        base = p + 2;
      } else if (l.isBlank()) {
        return true;
      } else {
        this.group = false;
        this.state = State.IDLE;
        this.frames = [];
        return this.idle(l, f);
      }
    }
    if (l.matchAt(FILE, base) && frameForm(l, base) != Form.NONE) {
      if (!this.skim) {
        if (this.frames.length >= MAX_FRAMES) this.frames.shift(); // keep the innermost ones
        this.frames.push(this.parseFrame(l, base));
      }
      return true;
    }
    let ind = l.skipSpaces(base) - base;
    if (ind >= 4) return true; // the source line and the ~~~^^^ markers under it
    if (ind > 0 && l.matchAt("[Previous line repeated ", base + ind)) return true;
    if (l.skipSpaces(base) >= l.len) return true;
    if (ind == 0 && (l.matchAt(HEADER, base) || l.matchAt(GROUP_HEADER, base))) {
      this.frames = [];
      return true;
    }
    if (ind == 0 && this.exceptionLine(l, base, f)) return true;
    // Not a traceback after all (or a truncated one): let the other parsers have the line.
    this.state = State.IDLE;
    this.frames = [];
    this.group = false;
    return false;
  }

  private inSyntax(l: Line, f: Facts): bool {
    if (l.indent() >= 4) return true;
    if (this.exceptionLine(l, 0, f)) return true;
    this.state = State.IDLE;
    this.frames = [];
    return false;
  }

  /** After an exception line: blank lines and a chaining sentence keep the chain going. */
  private after(l: Line, f: Facts): bool {
    if (l.isBlank()) return true;
    if (this.group) {
      let c = l.at(l.indent());
      if (l.indent() > 0 && (c == Char.PIPE || c == Char.PLUS)) return true;
      this.group = false;
    }
    let c0 = l.at(0);
    if ((c0 == Char.D && l.startsWith(DURING)) || (c0 == Char.T && l.startsWith(CAUSE))) {
      this.chained = true;
      this.relation = c0 == Char.T ? "cause" : "context";
      return true;
    }
    this.state = State.IDLE;
    let chained = this.chained;
    let claimed = this.idle(l, f);
    this.chained = claimed && chained;
    return claimed;
  }

  /** A block starts: whether it can become the crash decides whether anything is built. */
  private begin(f: Facts): void {
    this.frames = [];
    let m = this.mine;
    this.skim = !(reportIsFatal(f) && f.tests === null && (f.crash === null || (this.chained && m !== null && f.crash === m)));
  }

  /** `  File "path", line N[, in func]` starting at base (frameForm said it is one). */
  private parseFrame(l: Line, base: i32): Frame {
    let p = base + FILE.length;
    let q = l.indexOf("\", line ", p);
    let n = l.readInt(q + 8);
    let e = l.end;
    let fr = new Frame();
    if (l.matchAt(", in ", e)) fr.fn = l.trimmed(e + 5);
    fr.file = normPath(l.str(p, q));
    fr.line = <i32>n;
    classify(fr);
    return fr;
  }

  /**
   * `Type: message` or a bare `Type` (a dotted name) at base: ends the block and commits the crash.
   * Returns false when the line is not an exception line.
   */
  private exceptionLine(l: Line, base: i32, f: Facts): bool {
    let p = base;
    let c = l.at(p);
    if (!(isAlpha(c) || c == Char.UNDERSCORE)) return false;
    while (p < l.len) {
      c = l.at(p);
      if (isAlpha(c) || isDigit(c) || c == Char.UNDERSCORE || c == Char.DOT || c >= NON_ASCII) p++;
      else break;
    }
    if (p < l.len && l.at(p) != Char.COLON) return false;
    this.state = State.AFTER; // an exception group's member blocks follow its own exception line
    if (this.skim) {
      if (reportIsFatal(f) && f.tests === null && !this.chained) f.crashCount++;
      this.chained = false;
      return true;
    }
    let msg: string | null = p < l.len ? l.trimmed(p + 1) : null;
    let cr = new Crash();
    cr.tool = "python";
    cr.kind = l.str(base, p);
    cr.message = msg;
    cr.summary = l.trimmed(base);
    let fs = this.frames;
    fs.reverse();
    renumber(fs);
    cr.frames = fs;
    this.frames = [];
    this.commit(cr, f);
    return true;
  }

  private commit(c: Crash, f: Facts): void {
    // A test runner reports failing tests as tracebacks; those are its failures, not a crash.
    if (f.tests !== null || !reportIsFatal(f)) { this.chained = false; return; }
    let prev = this.mine;
    if (this.chained && prev !== null && f.crash === prev) {
      // The exception that killed the program is the last one of the chain; the ones before it are its
      // causes, nearest first (a chain of three: the middle one, then the first).
      let p = prev!;
      p.relation = this.relation;
      let causes = new Array<Crash>(0);
      causes.push(p);
      for (let i = 0; i < p.causes.length && causes.length < MAX_CAUSES; i++) causes.push(p.causes[i]);
      p.causes = [];
      c.causes = causes;
      f.crash = c;
    } else {
      f.setCrash(c);
    }
    this.mine = c;
    this.chained = false;
  }
}
