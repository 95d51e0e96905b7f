// An uncaught C++ exception: libstdc++'s `terminate called after throwing an instance of 'std::runtime_error'`
// with `  what():  boom` on the next line, and libc++'s one-line `libc++abi: terminating with uncaught
// exception of type std::runtime_error: boom` (`terminating due to uncaught ...` since libc++ 17).
// std::terminate() then aborts: a SIGABRT crash whose message names the exception's type and what(), the
// facts the bare signal lacks.
import { Char } from "../../util/chars";
import { Line } from "../../util/line";
import { Crash, Facts, signalCrash } from "../../model";
import { Parser } from "../../parser";
import { ByteSet } from "../../util/byte-set";

const GNU_HEAD = "terminate called after throwing an instance of '";
const GNU_WHAT = "  what():  ";
const GNU_OTHER = "terminate called ";
const LIBCXX = "libc++abi";
const LIBCXX_TYPE = "uncaught exception of type ";

/** At rest: `terminate called ...` and `libc++abi...` at column 0. */
const STARTS = new ByteSet().chars("tl");

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
    let first = l.at(0);
    if (first == Char.t && l.startsWith(GNU_OTHER)) {
      let msg: string;
      if (l.startsWith(GNU_HEAD) && l.endsWith("'")) msg = "uncaught " + l.str(GNU_HEAD.length, l.len - 1);
      else msg = l.trimmed(0); // `terminate called without an active exception`, `... recursively`
      this.pending = this.crash(f, l, msg);
      return true;
    }
    if (first == Char.l && l.startsWith(LIBCXX)) {
      // `libc++abi: terminating`, `libc++abi.dylib: terminating` (macOS)
      let colon = l.indexOf(": terminating", LIBCXX.length);
      if (colon < 0 || colon > LIBCXX.length + 6) return false;
      let k = l.indexOf(LIBCXX_TYPE, colon);
      this.crash(f, l, k > 0 ? "uncaught " + l.trimmed(k + LIBCXX_TYPE.length) : l.trimmed(colon + 2));
      return true;
    }
    return false;
  }

  /** The SIGABRT crash with msg, or null when the log already has its crash (a sanitizer's, an earlier one). */
  private crash(f: Facts, l: Line, msg: string): Crash | null {
    if (f.crash !== null) return null;
    let c = signalCrash("SIGABRT", l.trimmed(0));
    c.message = msg;
    // The abort that follows may be reported with a stack (ASan's ABRT, libFuzzer's deadly signal): this
    // crash's own, lent to it (Facts.lendStack).
    c.stackless = true;
    f.setCrash(c);
    return c;
  }
}
