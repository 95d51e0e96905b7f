// Go's race detector (`go test -race`, `go run -race`): ThreadSanitizer inside the Go runtime, printed in
// Go's own layout rather than the C one (no `#0 0x...` frames):
//
//   ==================                                  (claimed by the sanitizer parser: TSan's rule)
//   WARNING: DATA RACE
//   Read at 0x00c0000b2198 by goroutine 10:             the access that raced: the crash's stack
//     example.com/hits.(*Counter).Inc()
//         ./counter.go:5 +0x77
//
//   Previous write at 0x00c0000b2198 by goroutine 9:    the other access
//     ...
//   Goroutine 10 (running) created at:                  context, not kept
//     ...
//   ==================
//
// The crash is tool `tsan`, kind `data race` (the words of C TSan's header); `go test` then fails the
// running test with `testing.go:NNN: race detected during execution of test` (go-test.ts places that
// failure at the crash's user frame). A second report in the same log is only counted.
import { Char } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts, Crash, Frame } from "../../model";
import { Parser } from "../../parser";
import { ByteSet } from "../../util/byte-set";
import { classify, setGoLocation } from "../../frames";
import { pushFrame, renumber } from "../runtime-common";

const RULE_LEN = 18;

const enum Sec { NONE, ACCESS, OTHER, SKIP }

/** At rest: `WARNING: DATA RACE` at column 0. */
const STARTS = new ByteSet().chars("W");

export class GoRaceParser extends Parser {
  private active: bool = false;
  private crash: Crash | null = null;
  private sec: Sec = Sec.NONE;
  private accessSeen: bool = false;
  /** The frame whose location line (`      ./x.go:5 +0x77`) comes next. */
  private pending: Frame | null = null;

  busy(): bool { return this.active; }
  atRest(): bool { return !this.active; }
  starts(): ByteSet | null { return STARTS; }

  finish(f: Facts): void { this.close(); }

  claim(l: Line, f: Facts): bool {
    if (!this.active) {
      if (l.at(0) != Char.W || !l.startsWith("WARNING: DATA RACE")) return false;
      this.open(f);
      return true;
    }
    let p = l.skipSpaces(0);
    if (p >= l.len) { this.pending = null; return true; }
    if (p == 0) {
      if (isRule(l)) { this.close(); return true; }
      return this.header(l);
    }
    this.stackLine(l, p);
    return true;
  }

  private open(f: Facts): void {
    this.active = true;
    this.sec = Sec.NONE;
    this.accessSeen = false;
    this.pending = null;
    if (f.crash !== null) { f.crashCount++; this.crash = null; return; }
    let c = new Crash();
    c.tool = "tsan";
    c.kind = "data race";
    c.message = "data race";
    c.summary = "WARNING: DATA RACE";
    f.setCrash(c);
    this.crash = c;
  }

  /** `Read at 0x.. by goroutine 10:`, `Previous write at ...:`, `Goroutine 9 (finished) created at:`. */
  private header(l: Line): bool {
    this.pending = null;
    let prev = l.startsWith("Previous ");
    let q = prev ? 9 : 0;
    let access: string | null = null;
    if (l.matchAt("Read at ", q) || l.matchAt("read at ", q)) access = "READ";
    else if (l.matchAt("Write at ", q) || l.matchAt("write at ", q)) access = "WRITE";
    if (access !== null) {
      if (!prev && !this.accessSeen) {
        this.accessSeen = true;
        this.sec = Sec.ACCESS;
        let c = this.crash;
        if (c !== null) {
          c.access = access;
          let by = l.indexOf(" by ", q);
          if (by > 0) c.thread = l.trimmed(by + 4, l.at(l.len - 1) == Char.COLON ? l.len - 1 : l.len);
        }
      } else {
        this.sec = this.sec == Sec.ACCESS || this.sec == Sec.NONE ? Sec.OTHER : Sec.SKIP;
      }
      return true;
    }
    if (l.startsWith("Goroutine ") || l.startsWith("Location is ") || l.startsWith("Mutex ")) { this.sec = Sec.SKIP; return true; }
    // Not a line of the report (a truncated one): release it.
    this.close();
    return false;
  }

  /** `  pkg.fn()` then its location `      ./file.go:5 +0x77`. */
  private stackLine(l: Line, p: i32): void {
    let c = this.crash;
    if (c === null || this.sec == Sec.SKIP || this.sec == Sec.NONE) return;
    let fr = this.pending;
    if (fr !== null) {
      this.pending = null;
      let end = l.indexOf(" +0x", p);
      setGoLocation(fr, l.trimmed(p, end > 0 ? end : l.len));
      return;
    }
    if (l.at(l.len - 1) != Char.RPAREN) return;
    let open = l.lastIndexOfByte(Char.LPAREN);
    if (open <= p) return;
    let n = new Frame();
    n.fn = l.str(p, open);
    classify(n);
    n.user = false; // until its location line is read
    pushFrame(this.sec == Sec.ACCESS ? c.frames : c.otherFrames, n);
    this.pending = n;
  }

  private close(): void {
    let c = this.crash;
    if (c !== null) { renumber(c.frames); renumber(c.otherFrames); }
    this.crash = null;
    this.active = false;
    this.pending = null;
  }
}

function isRule(l: Line): bool {
  return l.len == RULE_LEN && l.isAll(Char.EQ);
}
