// Node's report of an uncaught exception or unhandled rejection.
//
//   ./main.js:5                                        <- where it was thrown (file://, node:internal/.. too)
//       throw new Error('API_URL is not set');         <- the source line
//       ^                                              <- a caret under the throw
//                                                      
//   Error: API_URL is not set                          <- Type[ [CODE]]: message (more lines may follow)
//       at loadConfig (./main.js:5:11)                 <- innermost frame first
//       at Object.<anonymous> (./main.js:10:13)
//       at node:internal/main/run_main_module:28:49 {  <- " {" opens the error's own properties ...
//     code: 'E_X'
//   }                                                  <- ... up to a lone "}"
//
//   Node.js v20.20.2
//
// A stack printed without the header (`Error: x` then `    at` lines) counts only when Node's
// `Node.js vN` footer follows it, or when it ends the log of a run that failed: a program may print a
// caught error's stack and carry on, but one whose last words are a stack died of it (mocha 9 prints a
// test file that did not load so and exits 1; jest a module of its own it could not load). Node's
// `Require stack:` list (`- /work/test/a.js`) may stand between the error line and its frames.
import { Char, isAlpha, isDigit } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts, Crash, Frame } from "../../model";
import { Parser } from "../../parser";
import { ByteSet } from "../../util/byte-set";
import { classify, setLocation, normPath, firstUser } from "../../frames";
import { reportIsFatal, pushFrame, renumber } from "../runtime-common";
import { join } from "../../util/join";
import { TscParser } from "../tsc/tsc";
import { DiagContext } from "../diag-context";

const MOCHA_RUN = "Exception during run: ";
/**
 * ts-node's TSError (`TSError: ⨯ Unable to compile TypeScript:`; `Error: ⨯ …` from its ESM loader, as node-tap's
 * TypeScript plugin and `mocha -r ts-node/register` load a test file): the lines under it are tsc's
 * `--pretty false` errors (`test/pop.ts(16,16): error TS1109: Expression expected.`). The file did not compile:
 * those are the run's diagnostics, and the report is no crash. mocha prints the error's message alone, after its
 * ` Exception during run: ` (MOCHA_RUN).
 */
const TS_NODE = " Unable to compile TypeScript:";  // ASCII: Line.indexOf compares bytes

const enum State { IDLE, SOURCE, CARET, PRE, MESSAGE, FRAMES, PROPS, AFTER }

const SOURCE_EXTS: string[] = [".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".jsx", ".tsx"];
const MAX_EXTRA_LINES = 40;
const MAX_PROP_LINES = 400;

/**
 * At rest (idle, no header-less candidate pending): a candidate `TypeError: x` / `TypeError` / Mocha's
 * `Exception during run: ` (an upper-case key), Jazzer.js's `==N== Uncaught Exception: ` ('='), `Node.js v`
 * ('N'), a `path:line` header (holds a colon: colonStarts).
 */
const STARTS = new ByteSet().upper().chars("=");

export class NodeErrorParser extends Parser {
  private state: State = State.IDLE;
  private crash: Crash | null = null;
  /** The header's location, used when the stack shows no user frame (a thrown non-Error value). */
  private where: Frame | null = null;
  /** No header: commit only when the footer is seen. */
  private headless: bool = false;
  private extra: i32 = 0;
  /** After "Emitted 'error' event at:": the emit site's stack, claimed but not the crash's. */
  private emitted: bool = false;
  /** The report cannot become the crash (one is kept already, or the run exited 0): claim, build nothing. */
  private skim: bool = false;
  private msgParts: Array<string> = [];
  /** In the properties: an `at` run was read (the first inner error's, for a stack-less AggregateError). */
  private propFrames: i32 = 0;
  /** In the properties: the `[cause]: Error: ...` being read, whose `at` lines are its frames. */
  private cause: Crash | null = null;
  /** A candidate `TypeError: ...` line seen without a header, waiting for an `    at` line. */
  private pendingSeen: bool = false;
  private pendingKind: string | null = null;
  private pendingMsg: string | null = null;
  private pendingLine: string | null = null;
  /** After the candidate: node's `Require stack:` line was read, its `- /path` lines follow (kept when fatal). */
  private pendingReq: bool = false;
  private pendingParts: Array<string> = [];

  /** The line of a script's `path:line` read after Node's own internal place (pre), -1 before one. */
  private relocated: i32 = -1;

  /** The report is ts-node's compile failure (TS_NODE): its message lines are read by tsc's parser. */
  private tsNode: bool = false;
  private tsc: TscParser = new TscParser(new DiagContext());

  /** Jazzer.js announced an uncaught exception ("==14== Uncaught Exception: Jazzer.js: ..."): the stack after it is the crash. */
  private announced: bool = false;

  busy(): bool { return this.state != State.IDLE; }
  atRest(): bool { return this.state == State.IDLE && !this.pendingSeen; }
  starts(): ByteSet | null { return STARTS; }
  colonStarts(): bool { return true; }

  claim(l: Line, f: Facts): bool {
    switch (this.state) {
      case State.SOURCE: this.state = State.CARET; return true;
      case State.CARET: return this.caret(l, f);
      case State.PRE: return this.pre(l, f);
      case State.MESSAGE: return this.message(l, f);
      case State.FRAMES: return this.frames(l, f);
      case State.PROPS: return this.props(l, f);
      case State.AFTER: return this.after(l, f);
      default: return this.idle(l, f);
    }
  }

  /**
   * The log ended: a header-less report still in its frames (or the blank lines after them) was its last words.
   * Not in its properties: those claim any line up to a lone `}`, so a log that ends there may hold more.
   */
  finish(f: Facts): void {
    let open = this.state == State.FRAMES || this.state == State.AFTER;
    this.close(f, this.headless && open);
  }

  private view: Line = new Line();

  private idle(l: Line, f: Facts): bool {
    // Mocha reports a test file that did not load with its own words before Node's report
    // (` Exception during run: ./test/b.js:3`): the report is Node's from there on.
    let p = l.skipSpaces(0);
    if (p < 4 && l.matchAt(MOCHA_RUN, p)) {
      let k = p + MOCHA_RUN.length;
      let v = this.view;
      v.set(l.ptr + <usize>k, l.len - k);
      v.no = l.no;
      // ts-node's TSError under `mocha -r ts-node/register`: mocha prints its message, tsc's first error
      // (` Exception during run: test/a.spec.ts(1,8): error TS1259: …`); the others follow at column 0.
      if (v.indexOf("): error TS") > 0) { this.tsc.claim(v, f); return true; }
      return this.idle(v, f);
    }
    if (this.pendingSeen) {
      // Node's `Require stack:` and its `- /work/test/a.js` lines between a require()'s error and its frames.
      if (l.startsWith("Require stack:") && l.len == 14 && !this.pendingReq || this.pendingReq && l.startsWith("- ")) {
        this.pendingReq = true;
        if (this.pendingKind !== null && this.pendingParts.length < MAX_EXTRA_LINES) this.pendingParts.push(l.str(0));
        return true;
      }
      this.pendingSeen = false;
      this.pendingReq = false;
      let parts = this.pendingParts;
      if (parts.length > 0) this.pendingParts = [];
      if (l.matchAt("    at ", 0)) {
        let pk = this.pendingKind;
        this.skim = pk === null;
        if (pk !== null) { this.newCrash(pk, this.pendingMsg, this.pendingLine!); if (parts.length > 0) this.msgParts = parts; }
        this.pendingKind = null;
        this.headless = true;
        this.state = State.FRAMES;
        return this.frames(l, f);
      }
    }
    let n = l.len;
    if (n < 3) return false;
    if (l.at(0) == Char.EQ && l.indexOf("== Uncaught Exception: ") > 0) { this.announced = true; return true; }
    let last = l.at(n - 1);
    if (isDigit(last)) return this.header(l, f);
    // A header-less candidate: "TypeError: x" at column 0, remembered but left to the others.
    let c0 = l.at(0);
    if (c0 == Char.N && l.startsWith("Node.js v")) return true;
    if (c0 >= Char.A && c0 <= Char.Z) this.candidate(l, f);
    return false;
  }

  /** `path:line` alone on a line, path a script (or node:internal/...). */
  private header(l: Line, f: Facts): bool {
    let i = l.len - 1;
    while (i > 0 && isDigit(l.at(i))) i--;
    if (i <= 0 || l.at(i) != Char.COLON) return false;
    if (l.indexOfByte(Char.SPACE) >= 0 || l.indexOfByte(Char.TAB) >= 0) return false;
    let pseudo = isPseudoScript(l, i);
    let ok = pseudo || l.startsWith("node:");
    for (let k = 0; !ok && k < SOURCE_EXTS.length; k++) ok = l.matchAt(SOURCE_EXTS[k], i - SOURCE_EXTS[k].length);
    if (!ok) return false;
    this.skim = f.crash !== null || !reportIsFatal(f);
    this.where = null;
    // A pseudo-script has no file the user can open: the crash's user frame comes from its stack only.
    if (!this.skim && !pseudo) {
      let fr = new Frame();
      let loc = l.str(0, l.len);
      if (loc.startsWith("file://")) loc = loc.substring(7);
      if (!setLocation(fr, loc)) return false;
      classify(fr);
      this.where = fr;
    }
    this.headless = false;
    this.crash = null;
    this.relocated = -1;
    this.state = State.SOURCE;
    return true;
  }

  private caret(l: Line, f: Facts): bool {
    let p = l.skipSpaces(0);
    if (l.at(p) == Char.CARET) {
      p++;
      while (l.at(p) == Char.CARET) p++;
      if (l.skipSpaces(p) >= l.len) { this.state = State.PRE; return true; }
    }
    // Not Node's report after all: the header and the line after it stay claimed, this one does not.
    this.reset();
    return this.idle(l, f);
  }

  /** After the caret: blank lines, then the error line. */
  private pre(l: Line, f: Facts): bool {
    if (l.isBlank()) return true;
    // Node's own place first (`node:internal/process/promises:391`, `triggerUncaughtException(err, true /*
    // fromPromise */)`: a rejection rethrown, by a loader such as the esm package), then the error's stack,
    // which opens with the place of its own when it did not parse (`/w/src/index.js:85`, then `SyntaxError: …`):
    // that one is where it was raised.
    let w = this.where;
    if ((w === null || !w.user) && this.relocated < 0 && isDigit(l.at(l.len - 1)) && scriptHeaderColon(l) > 0) {
      if (!this.skim) {
        let fr = new Frame();
        let loc = l.str(0, l.len);
        if (loc.startsWith("file://")) loc = loc.substring(7);
        if (setLocation(fr, loc)) { classify(fr); this.where = fr; }
      }
      this.relocated = l.no;
      return true;
    }
    // Its source line, when the stack shows one (a caret under it follows).
    if (this.relocated >= 0 && this.relocated == l.no - 1 && errorName(l) <= 0) { this.state = State.CARET; return true; }
    this.state = l.endsWith(" {") ? State.PROPS : State.MESSAGE;
    this.extra = 0;
    if (l.indexOf(TS_NODE) > 0 && errorName(l) > 0) { this.tsNode = true; this.skim = true; return true; }
    if (this.skim) {
      if (reportIsFatal(f)) f.crashCount++;
      return true;
    }
    let kind: string | null = null;
    let msg: string | null = null;
    let e = errorName(l);
    if (e > 0) {
      let b = l.at(0) == Char.LBRACKET ? 1 : 0;
      kind = l.str(b, e);
      if (e < l.len) {
        let m = l.trimmed(e + 1);
        if (b == 1 && m.endsWith("] {")) m = m.substring(0, m.length - 3);
        else if (b == 1 && m.endsWith("]")) m = m.substring(0, m.length - 1);
        msg = m;
      }
    } else {
      kind = "Uncaught"; // a thrown value that is not an Error: `throw "oops"`, `throw { code: 1 }`
      msg = l.trimmed(0);
    }
    let c = this.newCrash(kind, msg, l.trimmed(0));
    f.setCrash(c);
    return true;
  }

  /** Lines between the error line and its stack ("Require stack:", "- /path/main.js", an assert diff). */
  private message(l: Line, f: Facts): bool {
    if (l.matchAt("    at ", 0)) { this.state = State.FRAMES; return this.frames(l, f); }
    if (l.startsWith("Node.js v")) { this.close(f, true); return true; }
    if (l.startsWith("(Use `node --trace-")) {
      // `throw "oops"`: the value was printed as if it were an error name.
      let c = this.crash;
      if (c !== null && c.frames.length == 0 && this.msgParts.length == 0 && c.message === null) { c.message = c.kind; c.kind = "Uncaught"; }
      this.state = State.AFTER;
      return true;
    }
    if (++this.extra > MAX_EXTRA_LINES) { this.close(f, false); return this.idle(l, f); }
    if (this.tsNode) { this.tsc.claim(l, f); return true; }
    if (this.crash !== null) this.msgParts.push(l.str(0));
    return true;
  }

  private frames(l: Line, f: Facts): bool {
    let p = l.skipSpaces(0);
    if (p > 0 && l.matchAt("at ", p)) {
      let end = l.len;
      let props = l.endsWith(" {");
      if (props) end -= 2;
      let c = this.crash;
      if (c !== null && !this.emitted) {
        let fr = parseAt(l, p + 3, end);
        if (fr !== null) pushFrame(c.frames, fr);
      }
      if (props) this.state = State.PROPS;
      return true;
    }
    // "[... lines matching original stack trace ...]", "... 5 lines matching cause stack trace ..."
    if (p > 0 && (l.matchAt("[... ", p) || (l.matchAt("... ", p) && l.endsWith(" ...")))) return true;
    if (l.isBlank()) { this.state = State.AFTER; return true; }
    if (l.startsWith("Node.js v")) { this.close(f, true); return true; }
    if (l.startsWith("Emitted 'error' event")) { this.emitted = true; return true; }
    this.close(f, false);
    return this.idle(l, f);
  }

  /**
   * The error's own properties, up to a lone `}`. Two of them are facts: `[cause]: Error: msg` (with its
   * stack) becomes a cause of the crash; `[errors]: [ Error: ..., at ... ]` of an AggregateError, printed
   * without a stack of its own, lends the first inner error's frames to the crash.
   */
  private props(l: Line, f: Facts): bool {
    if (l.at(0) == Char.RBRACE && l.skipSpaces(1) >= l.len) { this.state = State.AFTER; this.cause = null; return true; }
    if (++this.extra > MAX_PROP_LINES) { this.close(f, false); return this.idle(l, f); }
    let c = this.crash;
    if (c === null) return true;
    let p = l.skipSpaces(0);
    if (l.matchAt("at ", p)) {
      let end = l.len;
      while (end > p && (l.at(end - 1) == Char.COMMA || l.at(end - 1) == Char.SPACE || l.at(end - 1) == Char.LBRACE)) end--;
      let fr = parseAt(l, p + 3, end);
      if (fr === null) return true;
      let k = this.cause;
      if (k !== null) pushFrame(k.frames, fr);
      else if (c.frames.length == 0 || this.propFrames == 1) { this.propFrames = 1; pushFrame(c.frames, fr); }
      return true;
    }
    if (this.propFrames == 1) this.propFrames = 2; // the run is over: later inner errors are not the crash's
    if (l.matchAt("[cause]: ", p) && c.causes.length < 4) {
      let q = p + 9;
      let e = errorName(l, q);
      let k = new Crash();
      k.tool = "node";
      k.relation = "cause";
      if (e > q) {
        k.kind = l.str(q, e);
        let m = e < l.len ? l.trimmed(e + 1) : "";
        if (m.endsWith(" {")) m = m.substring(0, m.length - 2);
        k.message = m;
      } else {
        k.kind = "Uncaught";
        k.message = l.trimmed(q);
      }
      c.causes.push(k);
      this.cause = k;
      return true;
    }
    return true;
  }

  private after(l: Line, f: Facts): bool {
    if (l.isBlank()) return true;
    if (l.startsWith("Node.js v")) { this.close(f, true); return true; }
    if (l.startsWith("(Use `node --trace-")) return true;
    if (l.startsWith("Emitted 'error' event")) { this.emitted = true; this.state = State.FRAMES; return true; }
    this.close(f, false);
    return this.idle(l, f);
  }

  private newCrash(kind: string, msg: string | null, line: string): Crash {
    let c = new Crash();
    c.tool = "node";
    c.kind = kind;
    c.message = msg;
    c.summary = line;
    this.crash = c;
    this.extra = 0;
    this.msgParts = [];
    return c;
  }

  /** A column-0 `SomethingError: msg` (or `...Exception`/`...Rejection`) that may start a header-less stack. */
  private candidate(l: Line, f: Facts): void {
    let e = errorName(l);
    if (e <= 0) return;
    let nameEnd = l.indexOf(" [", 0);
    if (nameEnd < 0 || nameEnd > e) nameEnd = e;
    if (!(l.matchAt("Error", nameEnd - 5) || l.matchAt("Exception", nameEnd - 9) || l.matchAt("Rejection", nameEnd - 9))) return;
    this.pendingSeen = true;
    this.pendingKind = null;
    this.pendingReq = false;
    if (this.pendingParts.length > 0) this.pendingParts = [];
    if (f.crash !== null || !reportIsFatal(f)) return; // it could not become the crash: no strings
    this.pendingKind = l.str(0, e);
    this.pendingMsg = e < l.len ? l.trimmed(e + 1) : null;
    this.pendingLine = l.trimmed(0);
  }

  /** Ends the report. A header-less one becomes a crash only when Node's footer closed it, or the log's end (footer). */
  private close(f: Facts, footer: bool): void {
    let c = this.crash;
    if (c !== null) {
      let parts = this.msgParts;
      while (parts.length > 0 && parts[parts.length - 1].trimStart().trimEnd().length == 0) parts.pop();
      if (parts.length > 0 && c.message !== null) c.message = c.message! + "\n" + join(parts, "\n");
      // The header is where the error was raised. Thrown, it is a frame of the stack too (the throw). In no
      // frame, the code there never ran: it did not compile (a SyntaxError in a module, whose stack is the
      // require() that loaded it) or the stack shows no user frame: the header is the first user frame.
      let w = this.where;
      if (w !== null && w.user && !inStack(c.frames, w)) c.frames.unshift(w);
      // Node's resolver (ERR_MODULE_NOT_FOUND, ERR_UNSUPPORTED_DIR_IMPORT, ERR_PACKAGE_PATH_NOT_EXPORTED) throws from
      // node:internal only, and names the module whose import failed at its message's end (`… imported from
      // /work/main.mjs`): that module is the place, when the stack shows none of the project's.
      if (c.message !== null && firstUser(c.frames) === null) {
        let imp = importer(c.message!);
        if (imp !== null) c.frames.unshift(imp);
      }
      renumber(c.frames);
      for (let i = 0; i < c.causes.length; i++) renumber(c.causes[i].frames);
      if (this.headless && (footer || this.announced) && reportIsFatal(f)) f.setCrash(c);
    } else if (this.skim && this.headless && (footer || this.announced) && reportIsFatal(f)) {
      f.crashCount++;
    }
    this.reset();
  }

  private reset(): void {
    this.crash = null;
    this.relocated = -1;
    this.propFrames = 0;
    this.cause = null;
    this.where = null;
    this.headless = false;
    this.announced = false;
    this.msgParts = [];
    this.extra = 0;
    this.emitted = false;
    this.skim = false;
    this.tsNode = false;
    this.state = State.IDLE;
  }
}

/** The module a resolver error names as the importer (`… imported from /work/main.mjs`), as a frame of the project's; else null. */
function importer(msg: string): Frame | null {
  let k = msg.lastIndexOf(" imported from ");
  if (k < 0) return null;
  let e = msg.indexOf("\n", k);
  let path = (e < 0 ? msg.substring(k + 15) : msg.substring(k + 15, e)).trimStart().trimEnd();
  if (path.startsWith("file://")) path = path.substring(7);
  if (path.length == 0 || path.includes(" ")) return null;
  let fr = new Frame();
  fr.file = normPath(path);
  classify(fr);
  return fr.user ? fr : null;
}

/** `path:line` alone on a line, path a script's (`.js`, `.mjs`, … ; not node:internal): its colon, or -1. */
function scriptHeaderColon(l: Line): i32 {
  let i = l.len - 1;
  while (i > 0 && isDigit(l.at(i))) i--;
  if (i <= 0 || i == l.len - 1 || l.at(i) != Char.COLON) return -1;
  if (l.indexOfByte(Char.SPACE) >= 0 || l.indexOfByte(Char.TAB) >= 0) return -1;
  for (let k = 0; k < SOURCE_EXTS.length; k++) if (l.matchAt(SOURCE_EXTS[k], i - SOURCE_EXTS[k].length)) return i;
  return -1;
}

/**
 * True when bytes [0, colon) of a header name one of V8's pseudo-scripts rather than a file: the JSON
 * text a `JSON.parse` failed on (`<anonymous_script>`), other `<...>` sources, and Node's `[eval]` /
 * `[stdin]` / `[eval]-wrapper` inputs (`node -e`, `node -`) and `vm` scripts (`evalmachine.<anonymous>`).
 */
function isPseudoScript(l: Line, colon: i32): bool {
  if (colon < 3) return false;
  let c0 = l.at(0);
  if (c0 == Char.LT) return l.at(colon - 1) == Char.GT;
  if (c0 == Char.LBRACKET) { let r = l.indexOfByte(Char.RBRACKET); return r > 1 && r < colon; }
  return l.startsWith("evalmachine.<");
}

/**
 * End of an error's name at column 0 (after a "[" for `[UnhandledPromiseRejection: ...]`): an identifier,
 * dotted or not, with an optional ` [ERR_CODE]`, followed by ":" or the end of the line. 0 when none.
 */
function errorName(l: Line, from: i32 = 0): i32 {
  let p = l.at(from) == Char.LBRACKET ? from + 1 : from;
  let s = p;
  let c = l.at(p);
  if (!(isAlpha(c) || c == Char.UNDERSCORE || c == Char.DOLLAR)) return 0;
  while (p < l.len) {
    c = l.at(p);
    if (isAlpha(c) || isDigit(c) || c == Char.UNDERSCORE || c == Char.DOLLAR || c == Char.DOT) p++;
    else break;
  }
  if (p == s) return 0;
  if (l.matchAt(" [", p)) {
    let close = l.indexOfByte(Char.RBRACKET, p + 2);
    if (close < 0) return 0;
    p = close + 1;
  }
  if (p == l.len || l.at(p) == Char.COLON) return p;
  return 0;
}

/** One `at` frame, the text after "at " in [p, end): `fn (loc)`, `loc`, `async fn (loc)`, `fn [as x] (loc)`. */
function parseAt(l: Line, p: i32, end: i32): Frame | null {
  let fr = new Frame();
  let loc: string;
  if (l.at(end - 1) == Char.RPAREN) {
    // The location is the last parenthesised group (eval frames nest one inside it).
    let depth = 0;
    let open = -1;
    for (let i = end - 1; i >= p; i--) {
      let c = l.at(i);
      if (c == Char.RPAREN) depth++;
      else if (c == Char.LPAREN) { depth--; if (depth == 0) { open = i; break; } }
    }
    if (open < 0) return null;
    let fn = l.trimmed(p, open);
    if (fn.startsWith("async ")) fn = fn.substring(6);
    let as = fn.indexOf(" [as ");
    if (as > 0) fn = fn.substring(0, as);
    if (fn.length > 0) fr.fn = fn;
    loc = l.str(open + 1, end - 1);
  } else {
    loc = l.trimmed(p, end);
    if (loc.startsWith("async ")) loc = loc.substring(6);
  }
  // eval frames: "eval at run (file.js:3:1), <anonymous>:1:1" -> the eval site
  if (loc.startsWith("eval at ")) {
    let a = loc.indexOf("(");
    let b = loc.indexOf(")", a);
    if (a > 0 && b > a) loc = loc.substring(a + 1, b);
  }
  if (loc.startsWith("file://")) loc = loc.substring(7);
  if (setLocation(fr, loc)) {
    classify(fr);
  } else {
    // "<anonymous>", "native", "index 0": nothing the user can open.
    fr.module = normPath(loc);
    classify(fr);
    fr.user = false;
  }
  return fr;
}

/** True when a frame of fs is at w's file and line. */
function inStack(fs: Array<Frame>, w: Frame): bool {
  for (let i = 0; i < fs.length; i++) if (fs[i].line == w.line && fs[i].fileOr == w.fileOr) return true;
  return false;
}
