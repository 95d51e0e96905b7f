// One verdict in the making: bytes arrive in chunks, are cut into lines, offered to the parsers in order;
// what no parser claims goes to the tail. finish() settles exit-derived facts and writes the JSON.
import { Char } from "./util/chars";
import { Line } from "./util/line";
import { Sink, JsonWriter } from "./util/sink";
import { Facts, ExitInfo, signalCrash } from "./model";
import { Splitter } from "./splitter";
import { Tail } from "./tail";
import { ParserSet } from "./parsers";
import { writeVerdict } from "./verdict";
import { unwrapRelay } from "./relay";
import { RelayStreams, RelayStream } from "./relay-streams";

export class Session {
  facts: Facts = new Facts();
  /**
   * Made at the first line: a log with none (`sbx run -- /bin/true`) has nothing to offer and no block to
   * flush, and a fresh process compiles each Wasm function at its first call (the parsers' constructors
   * and their finish() are ~14 of the ~36 KB a cold run's verdict of an empty log compiled).
   */
  parsers: ParserSet | null = null;
  splitter: Splitter;
  tail: Tail;
  /** Programs a task runner relays behind a prefix each (turbo), read apart. */
  relays: RelayStreams = new RelayStreams();

  constructor(splitter: Splitter, tail: Tail) {
    this.splitter = splitter;
    this.tail = tail;
    splitter.reset();
    tail.reset();
    this.facts.tailLines = tail;
  }

  feed(ptr: usize, len: i32): void {
    let f = this.facts;
    f.rawBytes += len;
    let start = ptr;
    let end = ptr + <usize>len;
    let sp = this.splitter;
    let p = ptr;
    let dirty = false;
    while (p < end) {
      // Eight bytes at a time while none of them is a control byte (< 0x20): most log text. The lowest
      // flagged byte of a word is its first control byte (a borrow only flags bytes above a true one).
      while (p + 8 <= end) {
        let w = load<u64>(p);
        let m = (w - 0x2020202020202020) & ~w & 0x8080808080808080;
        if (m != 0) { p += <usize>(ctz(m) >> 3); break; }
        p += 8;
      }
      if (p >= end) break;
      let c = load<u8>(p);
      if (c == Char.LF) {
        this.line(sp.take(start, <i32>(p - start), dirty));
        start = p + 1;
        dirty = false;
      } else if (c == Char.CR || c == Char.ESC) {
        dirty = true;
      } else if (c == 0) {
        f.nulBytes++;
      }
      p++;
    }
    if (start < end) sp.keep(start, <i32>(end - start), dirty);
  }

  private line(l: Line): void {
    let f = this.facts;
    f.lines++;
    let rs = this.relays;
    if (rs.prefixed.length > 0) {
      let ptr = l.ptr; let len = l.len;
      let r = rs.route(l);
      if (r !== null) {
        rs.streamDir(l, r);
        unwrapRelay(l);
        this.offer(l, r.facts, r);
        // The tail shows the line as printed: whose it was is part of it.
        if (!this.claimed) { l.set(ptr, len); this.tail.push(l); }
        return;
      }
      rs.observe(l);
    }
    // An announcement opens a stream and is read as any line (the tail keeps it).
    let seg: RelayStream | null = null;
    if (rs.mayAnnounce(l)) {
      seg = rs.banner(l, f);
      if (seg === null) seg = rs.segment;
      rs.announce(l, seg !== null ? seg.facts : f);
    } else seg = rs.segment;
    unwrapRelay(l);
    if (seg !== null) {
      rs.observeSegment(l);
      this.offer(l, seg.facts, seg);
      if (!this.claimed) this.tail.push(l);
      return;
    }
    // The run's own parsers: most logs' every line.
    let ps = this.parsers;
    if (ps === null) this.parsers = ps = new ParserSet();
    let claimed = ps.claim(l, f);
    if (f.released.length > 0) this.release(f);
    if (!claimed) this.tail.push(l);
  }

  private claimed: bool = false;

  /** The parser sets the run holds: its own and one per stream read apart. */
  parserSets(): i32 { return 1 + this.relays.streams.length; }

  /** Offers l to the parsers of stream r (the run's own when null), whose facts are g. */
  private offer(l: Line, g: Facts, r: RelayStream | null): void {
    let ps = r !== null ? r.parsers : this.parsers;
    if (ps === null) {
      ps = new ParserSet();
      if (r !== null) r.parsers = ps; else this.parsers = ps;
    }
    this.claimed = ps.claim(l, g);
    if (g.released.length > 0) this.release(g);
  }

  /** Lines a parser held back and let go go to the tail, in the order they came. */
  private release(f: Facts): void {
    let r = f.released;
    for (let i = 0; i < r.length; i++) this.tail.pushText(r[i]);
    f.released = [];
  }

  finish(out: Sink): void {
    let last = this.splitter.rest();
    if (last !== null) this.line(last);
    let f = this.facts;
    this.relays.finish(f);
    let ps = this.parsers;
    if (ps !== null) ps.finish(f);
    if (f.released.length > 0) this.release(f);
    let e = f.exit;
    settleExit(f, e);
    out.reset();
    writeVerdict(new JsonWriter(out), f, e, this.tail.lines());
  }
}

/** Signals that end a program on a fault of its own or from outside, when a shell reports them as 128+N. */
const SHELL_EXIT_SIGNALS: string[] = ["SIGSEGV", "SIGABRT", "SIGFPE", "SIGBUS", "SIGILL", "SIGTRAP", "SIGSYS", "SIGKILL", "SIGTERM"];

/**
 * Exit-derived facts, once every line is read:
 * - a shell reports a child killed by signal N as exit 128+N (`bash -c './prog && echo done'` exits 139);
 * - a signal with no report of its own is still a crash (tool "signal"), unless the host says it was its
 *   own timeout kill (timedOut). SIGKILL too: it comes from outside (an OOM kill, a time limit, kill -9),
 *   and only the host knows which, so the log alone never turns it into "timeout"; its hint says so;
 *   nor when the caller stopped the run (interrupted: the signal is the caller's, not a fault);
 * - timeout(1) exits 124; with nothing else in the log that is the whole story.
 */
function settleExit(f: Facts, e: ExitInfo): void {
  let sig = e.signalOrShellExit();
  if (sig !== null && e.signal === null && !SHELL_EXIT_SIGNALS.includes(sig!)) sig = null;
  if (f.crash === null && sig !== null && !e.timedOut && !f.timeoutSeen && !e.interrupted) {
    f.setCrash(signalCrash(sig!, e.signal !== null ? "killed by " + sig! : "exit " + e.code.toString() + " (128+" + sig! + ")"));
  }
  if (e.known && e.code == 124 && f.crash === null && f.errorCount == 0 && f.tests === null) f.timeoutSeen = true;
}
