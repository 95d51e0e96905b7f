// Valgrind's Memcheck: every line behind `==PID== `. An error is a header one space in (`Invalid read of size
// 4`, `Conditional jump or move depends on uninitialised value(s)`, `Use of uninitialised value of size 8`,
// `Invalid free() / delete / delete[] / realloc()`, `Mismatched free() / delete / delete []`, `Syscall param
// write(buf) points to uninitialised byte(s)`, `Source and destination overlap in memcpy(...)`, `4 bytes in 1
// blocks are definitely lost in loss record 1 of 1`), its stack under it (`   at 0x..: f (a.c:6)`, `   by 0x..:
// g (in /lib/x.so)`), then two spaces in: where the address lies (`Address 0x.. is 0 bytes after a block of
// size 4 alloc'd`) and the stack of that block (`Block was alloc'd at`, or the free's stack right after an
// address `free'd`). A blank `==PID== ` line ends it. The program goes on after each error (Memcheck reports,
// it does not stop), so the first error is the crash (tool `valgrind`) and the rest are counted. Kinds are the
// sanitizers' words where Memcheck's say the same (an invalid read past a block is a heap-buffer-overflow, of a
// freed one a heap-use-after-free; uninitialised values, bad and mismatched frees, overlapping copies, leaks).
import { Char, isDigit } from "../../util/chars";
import { Line } from "../../util/line";
import { Crash, Facts, Frame, MAX_FRAMES } from "../../model";
import { Parser } from "../../parser";
import { ByteSet } from "../../util/byte-set";
import { classify, setLocation } from "../../frames";

/**
 * At rest: `==` at column 0, or after a run of progress dots: a test program that prints a dot per test and
 * flushes it (greatest) leaves Memcheck's next report on the line of dots (`.......==PID== Invalid free() ...`).
 */
const STARTS = new ByteSet().chars("=.");

const enum Stack { MAIN = 0, ALLOC = 1, FREE = 2 }

@final
export class ValgrindParser extends Parser {
  private cur: Crash | null = null;
  private stack: i32 = Stack.MAIN;
  /** Valgrind showed itself (its banner, an error's header): its other `==PID== ` lines are claimed too. */
  private seen: bool = false;

  busy(): bool { return this.cur !== null; }
  atRest(): bool { return this.cur === null; }
  starts(): ByteSet | null { return STARTS; }

  finish(f: Facts): void { this.end(); }

  claim(l: Line, f: Facts): bool {
    let b = bodyStart(l);
    if (b < 0) { this.end(); return false; }
    let p = l.skipSpaces(b);
    if (p >= l.len) { this.end(); return this.seen; }
    let ind = p - b;
    if (ind == 1) {
      this.end();
      let c = header(l, p);
      if (c !== null) {
        f.setCrash(c);
        f.lastReport = "Memcheck: " + c.message!;
        f.reports++;
        this.cur = c;
        this.seen = true;
        return true;
      }
      // `==PID== Memcheck, a memory error detector`, `==PID== Using Valgrind-3.19.0 and LibVEX; ...`
      if (l.contains("Memcheck, a memory error detector") || l.matchAt("Using Valgrind-", p)) this.seen = true;
      return this.seen;
    }
    let c = this.cur;
    if (c === null) return this.seen;
    if (l.matchAt("at 0x", p) || l.matchAt("by 0x", p)) {
      let fr = frame(l, p + 3);
      if (fr === null) return true;
      let to = this.stack == Stack.ALLOC ? c.allocFrames : this.stack == Stack.FREE ? c.freeFrames : c.frames;
      if (to.length < MAX_FRAMES) { fr.index = to.length; to.push(fr); }
      return true;
    }
    if (l.matchAt("Address 0x", p)) {
      // `Address 0x4a9d044 is 0 bytes after a block of size 4 alloc'd`: the region; the stack under it is the
      // block's (alloc'd) or its free's (free'd, then `Block was alloc'd at`).
      let is = l.indexOf(" is ", p);
      // `Address 0x0 is not stack'd, malloc'd or (recently) free'd`: in no block Memcheck knows (a NULL or wild
      // pointer); it ends in "free'd" too, but no block was freed and no stack follows.
      let nowhere = is > 0 && l.matchAt(" is not stack'd", is);
      if (is > 0 && c.region === null) {
        c.region = l.trimmed(is + 4);
        // Where the address lies says what the invalid access was, in the sanitizers' words.
        if ((c.kind == "invalid-read" || c.kind == "invalid-write") && !nowhere) {
          if (l.endsWith("free'd")) c.kind = "heap-use-after-free";
          else if (l.endsWith("alloc'd") && (l.contains(" bytes after a block ") || l.contains(" bytes before a block "))) c.kind = "heap-buffer-overflow";
        }
      }
      if (nowhere) {}
      else if (l.endsWith("free'd")) this.stack = Stack.FREE;
      else if (l.endsWith("alloc'd")) this.stack = Stack.ALLOC;
      return true;
    }
    if (l.matchAt("Block was alloc'd at", p)) { this.stack = Stack.ALLOC; return true; }
    // `Uninitialised value was created by a heap allocation` (--track-origins): the origin's stack.
    if (l.matchAt("Uninitialised value was created by a heap allocation", p)) { this.stack = Stack.ALLOC; return true; }
    return true;
  }

  private end(): void {
    this.cur = null;
    this.stack = Stack.MAIN;
  }
}

/** The position after `==PID==` at the start of l (after progress dots: STARTS), or -1. */
function bodyStart(l: Line): i32 {
  let d = 0;
  while (l.at(d) == Char.DOT) d++;
  if (l.at(d) != Char.EQ || l.at(d + 1) != Char.EQ) return -1;
  let i = d + 2;
  while (isDigit(l.at(i))) i++;
  if (i == d + 2 || l.at(i) != Char.EQ || l.at(i + 1) != Char.EQ) return -1;
  // Valgrind's own lines have a space after the second `==` (or nothing: an empty line of the report).
  if (i + 2 < l.len && l.at(i + 2) != Char.SPACE) return -1;
  return i + 2;
}

/** An error's header at p, as a crash with its kind, access and size; null for any other line of Valgrind's. */
function header(l: Line, p: i32): Crash | null {
  let kind = "";
  let access: string | null = null;
  let size: i64 = -1;
  if (l.matchAt("Invalid read of size ", p)) { kind = "invalid-read"; access = "READ"; size = l.readInt(p + 21); }
  else if (l.matchAt("Invalid write of size ", p)) { kind = "invalid-write"; access = "WRITE"; size = l.readInt(p + 22); }
  else if (l.matchAt("Conditional jump or move depends on uninitialised value", p)) kind = "use-of-uninitialized-value";
  else if (l.matchAt("Use of uninitialised value of size ", p)) { kind = "use-of-uninitialized-value"; size = l.readInt(p + 35); }
  else if (l.matchAt("Invalid free()", p)) kind = "bad-free";
  else if (l.matchAt("Mismatched free()", p)) kind = "alloc-dealloc-mismatch";
  else if (l.matchAt("Syscall param ", p) && l.contains(" uninitialised byte")) kind = "uninitialised-syscall-param";
  else if (l.matchAt("Source and destination overlap in ", p)) kind = "memcpy-param-overlap";
  else if (isDigit(l.at(p)) && l.contains(" are definitely lost in loss record ")) kind = "detected memory leaks";
  if (kind.length == 0) return null;
  let c = new Crash();
  c.tool = "valgrind";
  c.kind = kind;
  c.access = access;
  c.size = size;
  c.message = l.trimmed(p);
  return c;
}

/** `0x11522E: args_test_basic_Test::TestBody() (args-test.cc:16)`, `0x4848899: malloc (in /usr/lib/x.so)`. */
function frame(l: Line, p: i32): Frame | null {
  let colon = l.indexOf(": ", p);
  if (colon < 0) return null;
  let fr = new Frame();
  let a = colon + 2;
  let e = l.len;
  let open = l.at(e - 1) == Char.RPAREN ? l.lastIndexOf(" (", e) : -1;
  if (open > a) {
    let inner = l.str(open + 2, e - 1);
    if (inner.startsWith("in ")) fr.module = inner.substring(3);
    else setLocation(fr, inner);
    e = open;
  }
  let fn = l.trimmed(a, e);
  if (fn.length > 0 && fn != "???") fr.fn = fn;
  classify(fr);
  return fr;
}
