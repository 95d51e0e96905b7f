// A crash as gdb reports it (a debugger session, a device's remote stub, a core file): `Program received signal
// SIGTRAP, Trace/breakpoint trap.` (`Thread 1 "app" received signal SIGSEGV, Segmentation fault.`, a core's
// `Program terminated with signal SIGABRT, Aborted.`), the stopped pc (`0x00000ac8 in __aeabi_memcpy ()`) and
// the `bt` stack: `#2  0x0000cdc0 in parse (buf=0x20, n=<optimized out>) at src/parse.c:362`, `#0  main () at
// a.c:5`, `#1  0x7ffff7a2 in raise () from /lib/libc.so.6`.
// Where it stopped may come without a pc (`fn (a=1) at a.c:11` when the pc is at the start of a line), and gdb
// prints that source line under it (`11\t    int r = 1024 / d;`, `gdb -batch -ex run -ex bt`): both are the
// report's; the stop is the first frame when no `bt` follows.
// The crash is tool `gdb`, kind the signal's name, message gdb's words for it, address the stopped pc.
import { Char, isAlpha, isDigit } from "../../util/chars";
import { Line } from "../../util/line";
import { Crash, Facts, Frame, MAX_FRAMES, lendStack } from "../../model";
import { Parser } from "../../parser";
import { ByteSet } from "../../util/byte-set";
import { classify, setLocation, normPath } from "../../frames";

const PROGRAM = "Program ";
const RECEIVED = "received signal ";
const TERMINATED = "terminated with signal ";

/** At rest: `Program received signal` / `Thread N received signal` at column 0. */
const STARTS = new ByteSet().chars("PT");

@final
export class GdbParser extends Parser {
  private crash: Crash | null = null;
  /** What the next line may be: Next.STOP right after the signal, Next.SOURCE after where it stopped. */
  private next: i32 = Next.FRAMES;
  /** The stop was taken as the first frame (no `bt` yet): a `#0` frame replaces it. */
  private stopFrame: bool = false;

  busy(): bool { return this.crash !== null; }
  atRest(): bool { return this.crash === null; }
  starts(): ByteSet | null { return STARTS; }

  finish(f: Facts): void { this.done(f); }

  claim(l: Line, f: Facts): bool {
    let c = this.crash;
    if (c !== null) {
      if (this.body(c, l)) return true;
      this.done(f);
    }
    let ch = l.at(0);
    if (ch != Char.P && ch != Char.T) return false;
    let p = -1;
    if (l.startsWith(PROGRAM)) {
      if (l.matchAt(RECEIVED, PROGRAM.length)) p = PROGRAM.length + RECEIVED.length;
      else if (l.matchAt(TERMINATED, PROGRAM.length)) p = PROGRAM.length + TERMINATED.length;
    } else if (l.startsWith("Thread ")) {
      let r = l.indexOf(" " + RECEIVED, 7);
      if (r > 0) p = r + 1 + RECEIVED.length;
    }
    if (p < 0 || !l.matchAt("SIG", p)) return false;
    let comma = l.indexOfByte(Char.COMMA, p);
    if (comma < 0) return false;
    let cr = new Crash();
    cr.tool = "gdb";
    cr.kind = l.str(p, comma);
    let e = l.len;
    if (l.at(e - 1) == Char.DOT) e--;
    cr.message = l.trimmed(comma + 1, e);
    f.setCrash(cr);
    this.crash = cr;
    this.next = Next.STOP;
    this.stopFrame = false;
    return true;
  }

  /** A line after the signal: the stopped pc, a frame of the stack, a blank; false at anything else. */
  private body(c: Crash, l: Line): bool {
    let p = l.skipSpaces(0);
    if (p >= l.len) return true;
    // `[Switching to Thread 0x7ffff7a1d6c0 (LWP 9476)]`: the thread that stopped, before where it stopped;
    // `warning: Unexpected size of section ...` (a core file's): gdb's remarks between the lines of its report
    if (p == 0 && (l.matchAt("[Switching to ", 0) || l.matchAt("warning: ", 0))) return true;
    let next = this.next;
    this.next = Next.FRAMES;
    if (p == 0 && l.matchAt("0x", 0)) {
      // `0x0000000000000ac8 in __aeabi_memcpy ()`: where it stopped
      let e = l.skipHex(2);
      if (!l.matchAt(" in ", e)) return false;
      if (c.address === null) c.address = l.str(0, e);
      if (next == Next.STOP) this.stop(c, l, e + 4);
      return true;
    }
    if (l.at(p) != Char.HASH || !isDigit(l.at(p + 1))) {
      if (p != 0) return false;
      // `encoder_alloc (w=8 '\b') at main.c:11`: where it stopped, the pc at the start of that line
      if (next == Next.STOP) {
        let b = l.at(0);
        if (!isAlpha(b) && b != Char.UNDERSCORE && b != Char.LPAREN) return false;
        return l.indexOf(" (") > 0 && (l.indexOf(") at ") > 0 || l.indexOf(") from ") > 0) && this.stop(c, l, 0);
      }
      // `11\t    int r = 1024 / d;`: the source line it stopped at
      if (next != Next.SOURCE || !isDigit(l.at(0))) return false;
      let e = 1;
      while (isDigit(l.at(e))) e++;
      return l.at(e) == Char.TAB;
    }
    let idx = l.readInt(p + 1);
    let q = l.skipSpaces(l.end);
    if (l.matchAt("0x", q)) {
      q = l.skipHex(q + 2);
      if (!l.matchAt(" in ", q)) return false;
      q += 4;
    }
    if (this.stopFrame && idx == 0) { c.frames.length = 0; this.stopFrame = false; }
    if (c.frames.length >= MAX_FRAMES) return true;
    c.frames.push(frameAt(l, q, <i32>idx));
    // A core file's `Program terminated with signal ..` is followed by its frame `#0  0x.. in f () at a.c:3`
    // as where it stopped, with the source line under it; a `bt` then prints #0 again.
    if (next == Next.STOP && idx == 0) { this.stopFrame = true; this.next = Next.SOURCE; }
    return true;
  }

  /**
   * The report ends. A crash the program announced before it stopped (libstdc++'s `terminate called after
   * throwing ...`, an assertion) has no stack of its own: gdb's is lent to it (lendStack).
   */
  private done(f: Facts): void {
    let c = this.crash;
    this.crash = null;
    if (c === null || c.frames.length == 0) return;
    let first = f.crash;
    if (first !== null && first !== c && first.stackless) lendStack(first, c.frames);
  }

  /** Where it stopped (the function at q): the first frame until a `bt` gives the stack. */
  private stop(c: Crash, l: Line, q: i32): bool {
    this.next = Next.SOURCE;
    if (c.frames.length == 0) { c.frames.push(frameAt(l, q, 0)); this.stopFrame = true; }
    return true;
  }
}

const enum Next { FRAMES = 0, STOP = 1, SOURCE = 2 }

/**
 * The ` (` of the argument list that ends the frame's function before e: the name itself may hold `()`
 * (`invoker<void (*)(), int>::invoke (fn=0x..)`, a function without debug info named by its signature
 * `run_guarded(std::function<void ()> const&) ()`); -1 when the text before e does not end in `)`.
 */
function argsOpen(l: Line, q: i32, e: i32): i32 {
  let k = e - 1;
  while (k > q && l.at(k) == Char.SPACE) k--;
  if (k <= q || l.at(k) != Char.RPAREN) return -1;
  let depth = 0;
  for (let i = k; i > q; i--) {
    let c = l.at(i);
    if (c == Char.RPAREN) depth++;
    else if (c == Char.LPAREN && --depth == 0) return l.at(i - 1) == Char.SPACE ? i - 1 : -1;
  }
  return -1;
}

/** A frame whose function starts at q: `parse (buf=0x20, n=<optimized out>) at src/parse.c:362`, `raise () from /lib/libc.so.6`. */
function frameAt(l: Line, q: i32, idx: i32): Frame {
  let fr = new Frame();
  fr.index = idx;
  // the function ends at its argument list (` (a=1, b=<optimized out>)`), or at ` at ` / ` from `
  let at = l.lastIndexOf(" at ");
  let from = l.lastIndexOf(" from ");
  // At the line's end only gdb's empty list of a frame without debug info is taken so (a sanitizer's frame read
  // here, `malloc (/lib/x.so+0x10) (BuildId: ab12)`, keeps its first ` (`).
  let bounded = (at > q && at > from) || from > q;
  let open = argsOpen(l, q, bounded ? (at > q && at > from ? at : from) : l.len);
  if (open > 0 && !bounded) {
    let z = open + 3;
    while (z < l.len && l.at(z) == Char.SPACE) z++;
    if (l.at(open + 2) != Char.RPAREN || z != l.len) open = -1;
  }
  if (open < 0) open = l.indexOf(" (", q);
  let end = open > 0 ? open : (at > q ? at : (from > q ? from : l.len));
  fr.fn = l.trimmed(q, end);
  if (at > q && at > from) setLocation(fr, l.trimmed(at + 4));
  else if (from > q) fr.module = normPath(l.trimmed(from + 6));
  if (fr.fn !== null && (fr.fn! == "??" || fr.fn!.length == 0)) fr.fn = null;
  classify(fr);
  return fr;
}
