// An uncaught C++ exception: libstdc++'s `terminate called after throwing an instance of 'std::runtime_error'`
// with `  what():  boom` on the next line, and libc++'s one-line `libc++abi: terminating with uncaught
// exception of type std::runtime_error: boom` (`terminating due to uncaught ...` since libc++ 17).
// std::terminate() then aborts: a SIGABRT crash whose message names the exception's type and what(), the
// facts the bare signal lacks.
// Also glibc's last words before it aborts the program: its malloc's checks (`free(): double free detected in
// tcache 2`, `double free or corruption (out)`, `malloc(): corrupted top size`, `munmap_chunk(): invalid
// pointer`, `corrupted size vs. prev_size`) and the stack protector's and fortify's `*** stack smashing
// detected ***: terminated`, `*** buffer overflow detected ***: terminated`: the message of that SIGABRT.
// A test program that prints a dot per test and flushes it (greatest, atomicobject/heatshrink's tests) leaves
// the message on its line of dots (`.......free(): double free detected in tcache 2`).
import { Char, isAlpha } from "../../util/chars";
import { Line } from "../../util/line";
import { Crash, Facts, signalCrash } from "../../model";
import { Parser } from "../../parser";
import { ByteSet } from "../../util/byte-set";

const GNU_HEAD = "terminate called after throwing an instance of '";
const GNU_WHAT = "  what():  ";
const GNU_OTHER = "terminate called ";
const LIBCXX = "libc++abi";
const LIBCXX_TYPE = "uncaught exception of type ";

/** glibc's heap checks: `<fn>(): <what went wrong>`, the function one of these. */
const MALLOC_FNS: StaticArray<string> = [
  "free(): ", "malloc(): ", "realloc(): ", "munmap_chunk(): ", "malloc_consolidate(): ",
];
const DOUBLE_FREE = "double free or corruption (";
const CORRUPTED = "corrupted ";
/** The stack protector's and fortify's `*** stack smashing detected ***: terminated`. */
const STARS = "*** ";
const DETECTED = " detected ***";

/** At rest: `terminate called ...`, `libc++abi...`, glibc's messages, at column 0 or after progress dots. */
const STARTS = new ByteSet().chars("tlfmrdc*.");

@final
export class CxxTerminateParser extends Parser {
  /** The crash whose `what():` line may come next. */
  private pending: Crash | null = null;

  busy(): bool { return this.pending !== null; }
  atRest(): bool { return this.pending === null; }
  starts(): ByteSet | null { return STARTS; }

  claim(l: Line, f: Facts): bool {
    let c = this.pending;
    this.pending = null;
    if (c !== null && l.startsWith(GNU_WHAT)) {
      c.message = c.message! + ": " + l.trimmed(GNU_WHAT.length);
      return true;
    }
    // after a test program's progress dots, if any (`.terminate called after ...`)
    let p = 0;
    while (l.at(p) == Char.DOT) p++;
    let first = l.at(p);
    if (first != Char.t && first != Char.l) return this.glibc(l, p, f);
    if (first == Char.t && l.matchAt(GNU_OTHER, p)) {
      let msg: string;
      if (l.matchAt(GNU_HEAD, p) && l.endsWith("'")) msg = "uncaught " + l.str(p + GNU_HEAD.length, l.len - 1);
      else msg = l.trimmed(p); // `terminate called without an active exception`, `... recursively`
      this.pending = this.crash(f, l, p, msg);
      return true;
    }
    if (first == Char.l && l.matchAt(LIBCXX, p)) {
      // `libc++abi: terminating`, `libc++abi.dylib: terminating` (macOS)
      let colon = l.indexOf(": terminating", p + LIBCXX.length);
      if (colon < 0 || colon > p + LIBCXX.length + 6) return false;
      let k = l.indexOf(LIBCXX_TYPE, colon);
      this.crash(f, l, p, k > 0 ? "uncaught " + l.trimmed(k + LIBCXX_TYPE.length) : l.trimmed(colon + 2));
      return true;
    }
    return false;
  }

  /** glibc's message before it aborts, at p (after progress dots, if any): the SIGABRT's message. */
  private glibc(l: Line, p: i32, f: Facts): bool {
    let ch = l.at(p);
    let msg: string | null = null;
    if (ch == Char.STAR) {
      // `*** stack smashing detected ***: terminated` (glibc 2.34; before: `..: ./prog terminated`)
      if (!l.matchAt(STARS, p)) return false;
      let d = l.indexOf(DETECTED, p + STARS.length);
      if (d < 0) return false;
      msg = l.str(p + STARS.length, d + DETECTED.length - 4);
    } else if (ch == Char.d) {
      if (l.matchAt(DOUBLE_FREE, p) && l.at(l.len - 1) == Char.RPAREN) msg = l.trimmed(p);
    } else if (ch == Char.c) {
      if (l.matchAt(CORRUPTED, p) && (l.matchAt("size vs. prev_size", p + CORRUPTED.length) || l.matchAt("double-linked list", p + CORRUPTED.length))) msg = l.trimmed(p);
    } else if (ch == Char.f || ch == Char.m || ch == Char.r) {
      for (let i = 0, n = MALLOC_FNS.length; i < n; i++) {
        let fn = unchecked(MALLOC_FNS[i]);
        if (l.matchAt(fn, p) && isAlpha(l.at(p + fn.length))) {
          // every such check says what it found: `invalid pointer`, `... detected in tcache 2`, `corrupted top
          // size`, `memory corruption`, `mismatching next->prev_size (unsorted)`
          let q = p + fn.length;
          if (l.indexOf("invalid", q) >= 0 || l.indexOf("detected", q) >= 0 || l.indexOf("corrupt", q) >= 0 || l.indexOf("mismatching", q) >= 0) msg = l.trimmed(p);
          break;
        }
      }
    }
    if (msg === null) return false;
    let c = this.crash(f, l, p, msg!);
    if (c !== null) c.summary = msg;
    return true;
  }

  /** The SIGABRT crash with msg (the line from p its summary), or null when the log already has its crash (a sanitizer's, an earlier one). */
  private crash(f: Facts, l: Line, p: i32, msg: string): Crash | null {
    if (f.crash !== null) return null;
    let c = signalCrash("SIGABRT", l.trimmed(p));
    c.message = msg;
    // The abort that follows may be reported with a stack (ASan's ABRT, libFuzzer's deadly signal): this
    // crash's own, lent to it (Facts.lendStack).
    c.stackless = true;
    f.setCrash(c);
    return c;
  }
}
