// Sanitizer reports: AddressSanitizer (every report kind), HWAddressSanitizer, LeakSanitizer, ThreadSanitizer,
// MemorySanitizer, and the deadly-signal report UBSan shares with them. One report is one block, from its
// "==PID==ERROR:" / "WARNING: ThreadSanitizer:" / "==PID== ERROR: libFuzzer:" line to its end ("==PID==ABORTING", TSan's closing rule,
// MSan's "Exiting", or LSan's SUMMARY); every line of it is claimed. Stacks go where their header says:
// the faulting stack first (index 0 = innermost), then "allocated by" / "freed by" / the other access.
import { Char, isDigit } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts, Crash, Frame, MAX_FRAMES, lendStack } from "../../model";
import { Parser } from "../../parser";
import { ByteSet } from "../../util/byte-set";
import { parseSanFrame, demoteModuleOnly, setLocation, classify, firstUser } from "../../frames";
import { join } from "../../util/join";

/** Where the frames of the stack being read go. */
const enum Sec { NONE, FAULT, ALLOC, FREE, OTHER, LEAK, SKIP, FRAME }
const enum St { IDLE, BODY, TRAILER }
/** Which leak's stack the LSan report's frames come from: none yet, an indirect one, the first direct one. */
const enum Leak { NONE, INDIRECT, DIRECT }

/** A report that never ends (a truncated log) releases the lines after this many. */
const MAX_BODY_LINES = 20000;

const ASAN_SEPARATOR = 65;
const LIBFUZZER = " ERROR: libFuzzer: ";
const TSAN_SEPARATOR = 18;
const DSO = "dso: id=";
/** Fuchsia's symbolizer markup for the same module map: " [[[ELF module #0x1 "libfdio.so" BuildID=.. 0x..]]]". */
const ELF_MODULE = "[[[ELF module ";

/** At rest: a report begins at column 0 with `==PID==`, `WARNING: `, `ERROR: `, `SUMMARY: ` or a tool name (A H T M L U); a module map after a stack-less report (`dso: id=`, `[[[ELF module`) lends it a stack. */
const STARTS = new ByteSet().chars("=WESAHTMLU").chars("d[");

@final
export class SanitizerParser extends Parser {
  private state: St = St.IDLE;
  private sec: Sec = Sec.NONE;
  private secFrames: i32 = 0;
  private leak: Leak = Leak.NONE;
  /**
   * The kept direct leak's stack while a later direct leak is tried in its place (the kept one has no user
   * frame): restored when the later one names none either (settleLeak).
   */
  private heldFrames: Array<Frame> | null = null;
  private heldAlloc: Array<Frame> | null = null;
  private bodyLines: i32 = 0;
  private crash: Crash = new Crash();
  /** crash.tool of the report being read. */
  private tool: string = "";
  /** False for a report after the first: it is only counted, so its frames and strings are never built. */
  private keep: bool = false;
  private faultSeen: bool = false;
  private accessSeen: bool = false;
  private otherSeen: bool = false;
  /** LeakSanitizer's fatal error was the last line: its HINT lines go to the tail with it. */
  private lsanFatal: bool = false;
  /** Lines of LeakSanitizer's fatal errors let go to the tail so far. */
  private lsanFatalLines: i32 = 0;
  /** HWASan printed its "Cause:" (the bug's kind, which its SUMMARY's "tag-mismatch" must not replace). */
  private causeSeen: bool = false;
  /** The crash of a finished leak report that found only indirect leaks (a later direct leak replaces it). */
  private indirectOnly: Crash | null = null;
  /** A later leak report's crash, which becomes the crash once it shows a direct leak. */
  private pendingLeak: Crash | null = null;
  private facts: Facts | null = null;
  /** The frame read last (a wrapped report's next line may hold its location). */
  private lastFrame: Frame | null = null;
  /** End position of the last toolAt() match. */
  private end: i32 = 0;
  /**
   * A finished report that printed no stack: Fuchsia's symbolizer prints it after the report, behind its
   * module map (`dso: id=.. base=0x.. name=libc.so` lines), and it is this report's.
   */
  private awaitingStack: Crash | null = null;
  /** Reading such a stack: the first line that is neither a module line nor a frame ends it. */
  private inDsoStack: bool = false;

  busy(): bool { return this.state != St.IDLE; }
  atRest(): bool { return this.state == St.IDLE; }
  starts(): ByteSet | null { return STARTS; }

  finish(f: Facts): void {
    this.settleLeak();
    this.lend();
    if (this.inDsoStack) demoteModuleOnly(this.crash.frames);
    this.inDsoStack = false;
    this.state = St.IDLE;
  }

  /** A later direct leak tried in the kept one's place stays only if it names a frame of the user's. */
  private settleLeak(): void {
    let held = this.heldFrames;
    if (held === null) return;
    let c = this.crash;
    if (firstUser(c.frames) === null) { c.frames = held; c.allocFrames = this.heldAlloc!; }
    this.heldFrames = null;
    this.heldAlloc = null;
  }

  /** The crash this report's stack is lent to (an assertion printed just before the abort), or null. */
  private borrower: Crash | null = null;

  private lend(): void {
    let b = this.borrower;
    if (b === null) return;
    this.borrower = null;
    demoteModuleOnly(this.crash.frames);
    lendStack(b, this.crash.frames);
  }

  claim(l: Line, f: Facts): bool {
    if (this.state == St.BODY) {
      if (this.body(l, f)) return true;
      this.state = St.IDLE;
      return false;
    }
    if (this.state == St.TRAILER) {
      if (this.trailer(l)) return true;
      this.state = St.IDLE;
    }
    return this.start(l, f);
  }

  // ---- outside a report: a report's first line, or a stray sanitizer line --------------------------------

  private start(l: Line, f: Facts): bool {
    let c = l.at(0);
    if (this.awaitingStack !== null && isModuleMap(l)) return this.dsoStack();
    switch (c) {
      case Char.EQ: {
        if (isRule(l)) return true;
        let p = afterPid(l);
        if (p < 0) return false;
        // "==18306== WARNING: MemorySanitizer: ...": a space after the pid (Valgrind's own lines, "==PID== Memcheck",
        // never name a sanitizer: header() checks that one does)
        if (l.at(p) == Char.SPACE && (l.matchAt("ERROR: ", p + 1) || l.matchAt("WARNING: ", p + 1)) && !l.matchAt(LIBFUZZER, p)) p++;
        if (l.matchAt("ERROR: ", p)) return this.header(l, p + 7, f);
        if (l.matchAt("WARNING: ", p)) return allocWarning(l, p) || this.header(l, p + 9, f);
        if (l.matchAt(LIBFUZZER, p)) return this.libFuzzerHeader(l, p + LIBFUZZER.length, f);
        // LeakSanitizer's own failure at exit (it cannot stop the world under ptrace: a debugger, strace, a
        // sandbox's seccomp) and the HINT lines after it: no report, the run's only word on why it failed —
        // let go to the tail (Facts.released: claimed here, so no other parser tries it), not hidden
        // (rigtorp/SPSCQueue's test with a user's ASAN_OPTIONS, session 15).
        if (l.matchAt("LeakSanitizer has encountered a fatal error", p) || (this.lsanFatal && l.matchAt("HINT: ", p))) {
          this.lsanFatal = true;
          // One process's failure is a few lines: the first ones said are enough (a log of many is read at claim speed).
          if (this.lsanFatalLines < 8) { this.lsanFatalLines++; f.released.push(l.toString()); }
          return true;
        }
        this.lsanFatal = false;
        // "==PID==ABORTING", "==PID==HINT: ...". (Valgrind writes "==PID== " with a space: not ours.)
        return l.at(p) != Char.SPACE && p < l.len;
      }
      case Char.W: {
        if (l.matchAt("WARNING: ", 0)) return allocWarning(l, 0) || this.header(l, 9, f);
        return false;
      }
      case Char.E: {
        // a report whose "==PID==" prefix a log collector cut off
        if (l.matchAt("ERROR: ", 0)) return this.header(l, 7, f);
        return false;
      }
      case Char.E: { // Fuchsia's reports have no "==PID==": "ERROR: AddressSanitizer: heap-buffer-overflow on ..."
        if (l.matchAt("ERROR: ", 0)) return this.header(l, 7, f);
        return false;
      }
      case Char.S: {
        if (!l.matchAt("SUMMARY: ", 0)) return false;
        return this.toolAt(l, 9) !== null || l.matchAt("libFuzzer: ", 9);
      }
      case Char.A: case Char.H: case Char.T: case Char.M: case Char.L: case Char.U: { // A H T M L U
        // "AddressSanitizer:DEADLYSIGNAL", "ThreadSanitizer: reported 1 warnings", "... can not provide additional info."
        if (this.toolAt(l, 0) === null) return false;
        let e = this.end;
        return l.at(e) == Char.COLON || l.at(e) == Char.SPACE;
      }
    }
    return false;
  }

  /**
   * libFuzzer's own report, "==PID== ERROR: libFuzzer: deadly signal" (also "fuzz target exited", "timeout
   * after N seconds", "out-of-memory (malloc(N))", "out-of-memory (used: ..)"); p is after "libFuzzer: ".
   */
  private libFuzzerHeader(l: Line, p: i32, f: Facts): bool {
    let kind: string;
    if (l.matchAt("deadly signal", p)) kind = "deadly-signal";
    else if (l.matchAt("fuzz target exited", p)) kind = "fuzz-target-exited";
    else if (l.matchAt("timeout", p)) kind = "timeout";
    else if (l.matchAt("out-of-memory", p)) kind = "out-of-memory";
    else if (l.matchAt("fuzz target overwrites its const input", p)) kind = "overwrites-const-input";
    else if (l.matchAt("-max_len", p) || l.matchAt("malloc", p)) kind = "out-of-memory";
    else kind = "libfuzzer";
    this.begin("libfuzzer");
    if (this.borrows(f, kind)) return true;
    this.keep = f.crash === null;
    if (!this.keep) { f.crashCount++; return true; }
    let c = new Crash();
    c.tool = "libfuzzer";
    c.kind = kind;
    c.message = l.trimmed(p);
    f.setCrash(c);
    this.crash = c;
    return true;
  }

  private begin(tool: string): void {
    this.settleLeak();
    this.lend();
    this.awaitingStack = null;
    this.inDsoStack = false;
    this.state = St.BODY;
    this.tool = tool;
    // TSan's reports other than races (mutex misuse, lock-order inversion, thread leak, signal-unsafe call) put
    // their own stack right under the header, or under the first `...:` line; a race's `Write of size` says so too.
    this.sec = tool == "lsan" ? Sec.NONE : Sec.FAULT;
    this.secFrames = 0;
    this.lastFrame = null;
    this.leak = Leak.NONE;
    this.bodyLines = 0;
    this.faultSeen = false;
    this.accessSeen = false;
    this.otherSeen = false;
    this.causeSeen = false;
  }

  /**
   * An abort report (ASan's "ABRT on unknown address", libFuzzer's "deadly signal") right after a crash that
   * has no stack of its own (a failed assertion, a Rust panic) is that crash's stack, not a second crash: its
   * frames are read into a scratch crash and lent when the report ends.
   */
  private borrows(f: Facts, kind: string, address: string | null = null): bool {
    let prev = f.crash;
    let pending = f.pendingCrash;
    if (prev === null && pending !== null) {
      // An assertion message the program may print and survive: this abort report shows it did not.
      if (!isAbortKind(kind) && !isAssertAddress(kind, address)) return false;
      f.pendingCrash = null;
      f.setCrash(pending);
      prev = pending;
    }
    if (prev === null || !prev.stackless) return false;
    // V8's announced sandbox violation takes the report whatever its signal (a wild write is the violation)
    let sandbox = prev.tool == "v8" && prev.kind == "sandbox-violation";
    if (!isAbortKind(kind) && !isAssertAddress(kind, address) && !sandbox) return false;
    this.keep = true;
    this.crash = new Crash();
    this.borrower = prev;
    return true;
  }

  /** The report's first line; p is where the tool name starts. */
  private header(l: Line, p: i32, f: Facts): bool {
    let tool = this.toolAt(l, p);
    if (tool === null) return false;
    // "==1==WARNING: AddressSanitizer failed to allocate 0x.. bytes" (allocator_may_return_null): the program goes
    // on; the "ERROR: ... out of memory" report that may follow is the crash
    if (l.matchAt(" failed to allocate", this.end)) return true;
    this.begin(tool!);
    let supersedes = false;
    if (tool != "lsan" && tool != "tsan") {
      let k0 = this.end;
      if (l.at(k0) == Char.COLON) k0++;
      let k1 = l.skipSpaces(k0);
      let kind = asanKind(l, k1);
      let address = addressIn(l, k1);
      if (this.borrows(f, kind, address)) return true;
      supersedes = f.crash !== null && segvSupersedes(f.crash!, kind, address);
    }
    // A leak report of another process after one that found only indirect leaks: its direct leak is the
    // cause, so it may take the crash's place (below, once a direct leak is read).
    let replaceable = tool == "lsan" && f.crash !== null && f.crash === this.indirectOnly;
    if (supersedes) f.crash = null;
    this.keep = f.crash === null || replaceable;
    if (!this.keep) { f.crashCount++; return true; }
    let k = this.end;
    if (l.at(k) == Char.COLON) k++;
    k = l.skipSpaces(k);
    let c = new Crash();
    c.tool = tool!;
    c.message = l.trimmed(k);
    if (tool == "lsan") {
      c.kind = l.trimmed(k);
    } else if (tool == "tsan") {
      let pid = l.indexOf(" (pid=", k);
      c.kind = l.trimmed(k, pid >= 0 ? pid : l.len);
      c.message = c.kind;
    } else if (tool == "msan") {
      // MSan's allocator reports the same errors as ASan's ("requested allocation size ... exceeds maximum")
      c.kind = isAllocatorError(l, k) ? asanKind(l, k) : l.trimmed(k);
    } else {
      c.kind = asanKind(l, k);
      c.address = addressIn(l, k);
      c.thread = threadIn(l, k);
    }
    if (replaceable) { f.crashCount++; this.pendingLeak = c; this.facts = f; }
    else f.setCrash(c);
    this.crash = c;
    return true;
  }

  // ---- inside a report -------------------------------------------------------------------------------------

  private body(l: Line, f: Facts): bool {
    if (++this.bodyLines > MAX_BODY_LINES) return false;
    let c = this.crash;
    let p = l.skipSpaces(0);
    let ch = l.at(p);
    if (this.inDsoStack) {
      if (ch == Char.HASH && (isInlineFrameNo(l, p + 1) || isDigit(l.at(p + 1)))) {
        if (isInlineFrameNo(l, p + 1)) return true;
        let fr = parseSanFrame(l);
        if (fr !== null) { this.frame(); this.push(fr); return true; }
      }
      if (isModuleMap(l)) return true;
      this.inDsoStack = false;
      demoteModuleOnly(c.frames);
      this.state = St.IDLE;
      this.lend();
      return false;
    }
    if (ch == Char.HASH) {
      // "#1.1  0x.. in Unwind ...": Fuchsia numbers an inlined frame after its caller; the stack goes on
      if (isInlineFrameNo(l, p + 1)) return true;
      if (!this.keep) {
        if (isDigit(l.at(p + 1))) { this.frame(); return true; }
      } else {
        let fr = parseSanFrame(l);
        if (fr !== null) { this.frame(); this.push(fr); this.lastFrame = fr; return true; }
      }
    }
    // A report hard-wrapped at a fixed width puts a frame's location (or the rest of its signature) on a
    // line of its own, unindented and without a space: the stack goes on.
    if (this.secFrames > 0 && p == 0 && ch != Char.EQ && l.indexOfByte(Char.SPACE) < 0 && l.indexOfByte(Char.TAB) < 0) {
      let last = this.lastFrame;
      if (this.keep && last !== null && last.file === null && setLocation(last, l.str(0))) classify(last);
      return true;
    }
    // Any other line ends the stack being read; what follows goes where the next header says.
    if (this.secFrames > 0) { this.sec = Sec.NONE; this.secFrames = 0; }
    if (ch < 0) return true; // blank
    if (p == 0) {
      switch (ch) {
        case Char.EQ: {
          if (isRule(l)) {
            // TSan's closing rule when there was no SUMMARY.
            if (this.tool == "tsan") this.state = St.IDLE;
            return true;
          }
          let q = afterPid(l);
          if (q < 0) return true;
          let warning = l.matchAt("WARNING: ", q);
          if (warning && this.toolAt(l, q + 9) === null) return true; // "==1==WARNING: invalid path to external symbolizer!"
          if (warning || l.matchAt("ERROR: ", q)) {
            // A new report before this one ended (recover mode, a report about a failed report).
            this.state = St.IDLE;
            return this.start(l, f);
          }
          if (l.matchAt("ABORTING", q)) { this.state = St.IDLE; return true; }
          if (!this.keep) return true;
          let s = l.indexOf("The signal is caused by a ", q);
          if (s >= 0) {
            s += 26;
            if (l.matchAt("READ", s)) c.access = "READ";
            else if (l.matchAt("WRITE", s)) c.access = "WRITE";
          }
          return true;
        }
        case Char.R: case Char.W: { // 'R' 'W': "READ of size 4 at 0x... thread T0"
          if (l.matchAt("WARNING: ", 0)) { this.state = St.IDLE; return this.start(l, f); }
          if (l.matchAt("READ of size ", 0) || l.matchAt("WRITE of size ", 0)) {
            this.sec = Sec.FAULT;
            if (!this.keep) return true;
            c.access = ch == Char.R ? "READ" : "WRITE";
            let n = l.readInt(ch == Char.R ? 13 : 14);
            if (n >= 0) c.size = n;
            let a = hexAfter(l, " at 0x", 0);
            if (a !== null) c.address = a;
            let t = threadIn(l, 0);
            if (t !== null) c.thread = t;
            return true;
          }
          break;
        }
        case Char.S: {
          if (l.matchAt("SUMMARY: ", 0)) { this.summary(l, f); return true; }
          break;
        }
        case Char.C: { // 'C': HWASan's "Cause: use-after-free" names the bug its "tag-mismatch" stands for
          if (this.tool == "hwasan" && l.matchAt("Cause: ", 0)) {
            // "Cause: stack tag-mismatch" is not yet the answer: a "Cause: stack-buffer-overflow" follows.
            if (this.keep && !this.causeSeen && l.indexOfByte(Char.SPACE, 7) < 0 && l.len > 7) {
              c.kind = l.str(7);
              this.causeSeen = true;
            }
            return true;
          }
          break;
        }
        case Char.D: case Char.I: { // 'D' 'I': "Direct leak of 6 byte(s) in 1 object(s) allocated from:"
          let direct = l.matchAt("Direct leak of ", 0);
          if (direct || l.matchAt("Indirect leak of ", 0)) { this.leakHeader(direct); return true; }
          break;
        }
      }
    } else if (this.tool == "tsan") {
      this.tsanLine(l, p);
      return true;
    }
    // "    [32, 48) 'buf' (line 5) <== Memory access at offset 32 is inside this variable": the variable accessed
    if (ch == Char.LBRACKET && this.keep && c.objectName === null && stackObject(l, p, c)) return true;
    if (this.keep && c.region === null) {
      // "0x6040000000b8 is located 0 bytes to the right of 40-byte region [0x..,0x..)": where the access
      // fell relative to the block, the fact that says off-by-one versus far out. Kept without addresses.
      let k = l.indexOf(" is located ", p);
      if (k > 0 && (l.matchAt("0x", p) || l.matchAt("Address 0x", p))) c.region = withoutAddresses(l.trimmed(k + 12));
    }
    this.stackHeader(l, p);
    return true;
  }

  /** The module map before a stack printed after its report: that stack is the report's. */
  private dsoStack(): bool {
    let c = this.awaitingStack!;
    this.awaitingStack = null;
    this.state = St.BODY;
    this.crash = c;
    this.keep = true;
    this.sec = Sec.FAULT;
    this.secFrames = 0;
    this.bodyLines = 0;
    this.lastFrame = null;
    this.inDsoStack = true;
    return true;
  }

  private frame(): void {
    this.secFrames++;
    if (this.sec == Sec.FAULT) this.faultSeen = true;
    else if (this.sec == Sec.OTHER) this.otherSeen = true;
  }

  private push(fr: Frame): void {
    let c = this.crash;
    switch (this.sec) {
      case Sec.FAULT: if (c.frames.length < MAX_FRAMES) c.frames.push(fr); break;
      case Sec.ALLOC: if (c.allocFrames.length < MAX_FRAMES) c.allocFrames.push(fr); break;
      case Sec.FREE: if (c.freeFrames.length < MAX_FRAMES) c.freeFrames.push(fr); break;
      case Sec.OTHER: if (c.otherFrames.length < MAX_FRAMES) c.otherFrames.push(fr); break;
      // "is located in stack of thread T0 at offset 32 in frame" / "#0 0x.. in remember x.cpp:68": the variable's frame
      case Sec.FRAME: if (c.objectFrame === null) c.objectFrame = fr; break;
      case Sec.LEAK: {
        // LSan: the leak's allocation stack is both the report's stack and its alloc stack.
        if (c.frames.length < MAX_FRAMES) { c.frames.push(fr); c.allocFrames.push(fr); }
        break;
      }
      default: break;
    }
  }

  /** A line that announces a stack ("freed by thread T0 here:", MSan's origins, "... in frame"), or prose. */
  private stackHeader(l: Line, p: i32): void {
    let e = l.len;
    while (e > p && l.at(e - 1) == Char.SPACE) e--;
    let last = l.at(e - 1);
    if (l.matchAt("freed by thread ", p)) { this.sec = Sec.FREE; return; }
    if (l.matchAt("previously allocated by thread ", p) || l.matchAt("allocated by thread ", p) ||
        l.matchAt("previously allocated here", p) || l.matchAt("allocated here", p)) {
      this.sec = Sec.ALLOC; return;
    }
    if (l.matchAt("Uninitialized value was created by ", p)) { this.sec = Sec.ALLOC; return; }
    // TSan's lock-order inversion: the first `Mutex M1 acquired here while holding mutex M0 in thread T1:` is the
    // report's stack, the next one (the opposite order, in another thread or function) the other stack.
    if (this.faultSeen && !this.otherSeen && this.tool == "tsan" && l.matchAt("Mutex M", p) && l.indexOf(" acquired here while holding ", p) > 0) {
      this.sec = Sec.OTHER; return;
    }
    // "Address 0x.. is located in stack of thread T0 at offset 32 in frame", "Uninitialized value was stored
    // to memory at", "Thread T1 created by T0 here:", "Memory was marked as uninitialized": stacks that are
    // context, not the fault, the allocation or the free.
    // A line ending in ':' before the faulting stack ("  object passed to delete has wrong type:") is prose.
    let beforeFault = this.sec == Sec.FAULT && !this.faultSeen;
    if (l.matchAt(" in frame", e - 9)) { this.sec = Sec.FRAME; return; }
    if ((last == Char.COLON && !beforeFault) || l.matchAt(" memory at", e - 10) ||
        l.matchAt("Memory was marked as uninitialized", p)) {
      this.sec = Sec.SKIP;
    }
  }

  private leakHeader(direct: bool): void {
    let c = this.crash;
    let pl = this.pendingLeak;
    if (direct && pl !== null && pl === c && this.facts !== null) {
      this.facts!.crash = c;
      this.indirectOnly = null;
      this.pendingLeak = null;
    }
    this.settleLeak();
    if (direct && this.leak == Leak.DIRECT && this.keep && firstUser(c.frames) === null) {
      // The direct leak kept so far has no frame of the user's (its stack cut short in a library by
      // malloc_context_size, or all runtime): a later direct leak that names one is the report's.
      this.heldFrames = c.frames; this.heldAlloc = c.allocFrames;
      c.frames = []; c.allocFrames = [];
      this.sec = Sec.LEAK;
    } else if (direct && this.leak != Leak.DIRECT) {
      // The first direct leak wins over an indirect one seen before it.
      if (this.leak == Leak.INDIRECT && this.keep) { c.frames = []; c.allocFrames = []; }
      this.leak = Leak.DIRECT;
      this.sec = Sec.LEAK;
    } else if (!direct && this.leak == Leak.NONE) {
      this.leak = Leak.INDIRECT;
      this.sec = Sec.LEAK;
    } else {
      this.sec = Sec.SKIP;
    }
  }

  /** TSan's indented lines: the two accesses, the location, mutexes and threads. */
  private tsanLine(l: Line, p: i32): void {
    let c = this.crash;
    let prev = l.matchAt("Previous ", p);
    let q = prev ? p + 9 : p;
    let atomic = l.matchAt("Atomic ", q) || l.matchAt("atomic ", q);
    if (atomic) q += 7;
    let access: string | null = null;
    if (l.matchAt("Write of size ", q) || l.matchAt("write of size ", q)) { access = "WRITE"; q += 14; }
    else if (l.matchAt("Read of size ", q) || l.matchAt("read of size ", q)) { access = "READ"; q += 13; }
    if (access !== null) {
      if (!prev && !this.accessSeen) {
        this.accessSeen = true;
        this.sec = Sec.FAULT;
        if (!this.keep) return;
        c.access = access;
        let n = l.readInt(q);
        if (n >= 0) c.size = n;
        let a = hexAfter(l, " at 0x", q);
        if (a !== null) c.address = a;
        c.thread = tsanThread(l, q);
      } else if (!this.otherSeen) {
        this.sec = Sec.OTHER;
      } else {
        this.sec = Sec.SKIP;
      }
      return;
    }
    // "Location is heap block of size 4 at 0x.. allocated by main thread:"
    if (l.matchAt("Location is heap block", p)) { this.sec = Sec.ALLOC; return; }
    this.stackHeader(l, p);
  }

  /** "SUMMARY: AddressSanitizer: heap-buffer-overflow main.c:8 in sum": the crash's summary and canonical kind. */
  private summary(l: Line, f: Facts): void {
    this.settleLeak();
    this.state = this.tool == "lsan" ? St.IDLE : St.TRAILER;
    this.awaitingStack = this.keep && this.borrower === null && this.crash.frames.length == 0 ? this.crash : null;
    noteReport(l, f);
    if (this.tool == "lsan" && this.keep) {
      if (this.pendingLeak === this.crash) { this.pendingLeak = null; this.keep = false; return; }
      this.indirectOnly = this.leak == Leak.INDIRECT ? this.crash : null;
      // only indirect leaks (a cycle of objects that point at each other): say so, they are not a direct leak
      if (this.leak == Leak.INDIRECT) this.crash.kind = "indirect-leak";
    }
    if (this.borrower !== null) {
      // no stack yet: Fuchsia prints it after the report (the module map first); it is lent when read
      if (this.crash.frames.length == 0) { this.awaitingStack = this.crash; return; }
      this.lend();
      this.keep = false;
      return;
    }
    if (!this.keep) return;
    let c = this.crash;
    demoteModuleOnly(c.frames);
    demoteModuleOnly(c.allocFrames);
    demoteModuleOnly(c.freeFrames);
    let p = 9;
    if (this.toolAt(l, p) !== null) {
      p = this.end;
      if (l.at(p) == Char.COLON) p++;
    }
    p = l.skipSpaces(p);
    // The BuildId is a property of the binary, not of the bug.
    let b = l.indexOf(" (BuildId: ", p);
    c.summary = l.trimmed(p, b >= 0 ? b : l.len);
    if (b >= 0) {
      let close = l.indexOfByte(Char.RPAREN, b);
      if (close > 0 && close + 1 < l.len) c.summary = c.summary! + " " + l.trimmed(close + 1);
    }
    let t = c.tool;
    if ((t == "asan" || (t == "hwasan" && !this.causeSeen) || t == "ubsan") && !isDigit(l.at(p))) {
      let e = p;
      while (e < l.len && l.at(e) != Char.SPACE) e++;
      if (e > p) c.kind = l.str(p, e);
    }
  }

  // ---- after SUMMARY: shadow bytes, legend, hints, the report's last line ----------------------------------

  private trailer(l: Line): bool {
    let t = this.tool;
    if (t == "tsan") {
      if (isRule(l)) { this.state = St.IDLE; return true; }
      return false;
    }
    let p = afterPid(l);
    if (p >= 0) {
      if (l.matchAt("ABORTING", p)) this.state = St.IDLE;
      return true;
    }
    if (t == "msan") {
      if (l.matchAt("Exiting", 0)) { this.state = St.IDLE; return true; }
      return false;
    }
    // "Shadow bytes around the buggy address:", "  0x0c06..: fa fa", "=>0x0c06..: fa[fa]", "Shadow byte legend",
    // "  Heap left redzone:       fa"; HWASan's "Memory tags around ...", "Registers where the failure occurred".
    return l.matchAt("Shadow byte", 0) || l.matchAt("=>", 0) || l.matchAt("  ", 0) || l.matchAt("Memory tags ", 0) ||
      l.matchAt("Tags for short granules", 0) || l.matchAt("See https://clang.llvm.org/", 0) ||
      l.matchAt("Registers where the failure occurred", 0) || l.matchAt("Thread: T", 0) || l.isBlank();
  }

  /** The sanitizer named at p ("AddressSanitizer", ...) as crash.tool, with this.end after the name; null when none. */
  private toolAt(l: Line, p: i32): string | null {
    let c = l.at(p);
    let name: string;
    let tool: string;
    switch (c) {
      case Char.A: name = "AddressSanitizer"; tool = "asan"; break;
      case Char.H: name = "HWAddressSanitizer"; tool = "hwasan"; break;
      case Char.T: name = "ThreadSanitizer"; tool = "tsan"; break;
      case Char.M: name = "MemorySanitizer"; tool = "msan"; break;
      case Char.L: name = "LeakSanitizer"; tool = "lsan"; break;
      case Char.U: name = "UndefinedBehaviorSanitizer"; tool = "ubsan"; break;
      default: return null;
    }
    if (!l.matchAt(name, p)) return null;
    this.end = p + name.length;
    return tool;
  }
}

/**
 * The signal an assertion or CHECK stops the program with: abort(), a trap or an illegal instruction (V8's
 * and Chromium's CHECKs), a debugger break; libFuzzer's deadly signal.
 */
/**
 * "==1==WARNING: AddressSanitizer failed to allocate 0x.. bytes": under allocator_may_return_null the
 * allocation returned NULL and the program went on; what the program did next (Rust's "memory allocation of
 * N bytes failed" and abort) is the crash, if any. The line is claimed, no report is begun.
 */
function allocWarning(l: Line, p: i32): bool {
  let k = l.indexOf(" failed to allocate ", p);
  return k > 0 && l.indexOf("Sanitizer", p) < k && l.indexOf(": ", p + 9) < 0;
}

function isAbortKind(kind: string): bool {
  return kind == "ABRT" || kind == "deadly-signal" || kind == "ILL" || kind == "TRAP" || kind == "breakpoint" ||
    kind == "illegal-instruction";
}

/**
 * A SEGV report after a CHECK or fatal error (not an assertion) that did not end the program by an abort: the
 * check's own crash path faulted (a wild read in the unwinder, in gsignal). ClusterFuzz files such a log under
 * the SEGV, the last crash it printed; only an assertion keeps its place before one (isAssertAddress, or the
 * abort reports borrows() takes).
 */
function segvSupersedes(prev: Crash, kind: string, address: string | null): bool {
  if (kind != "SEGV" || isAssertAddress(kind, address)) return false;
  if (prev.tool != "assert") return false;
  let k = prev.kind;
  return k == "check-failed" || k == "fatal-error";
}

/**
 * A SEGV on an address a failed assertion writes to on purpose to crash (WebKit/Blink's WTFCrash and
 * IMMEDIATE_CRASH markers: 0xbbadbeef and its kin): the assertion's own crash, not a second bug.
 */
function isAssertAddress(kind: string, address: string | null): bool {
  if (kind != "SEGV" || address === null) return false;
  let a = address!.toLowerCase();
  while (a.startsWith("0x") || a.startsWith("0")) a = a.substring(a.startsWith("0x") ? 2 : 1);
  return a == "bbadbeef" || a == "fbadbeef" || a == "1f75b7dd" || a == "977537dd" || a == "9f7537dd";
}

/** "N.M " at p: a frame number with an inlined frame's sub-number. */
function isInlineFrameNo(l: Line, p: i32): bool {
  if (!isDigit(l.at(p))) return false;
  let e = p;
  while (isDigit(l.at(e))) e++;
  if (l.at(e) != Char.DOT || !isDigit(l.at(e + 1))) return false;
  e++;
  while (isDigit(l.at(e))) e++;
  return l.at(e) == Char.SPACE;
}

/** The allocator's own errors (a size too big, out of memory), which every sanitizer's allocator reports alike. */
function isAllocatorError(l: Line, k: i32): bool {
  return l.matchAt("requested allocation size", k) || l.matchAt("allocator is out of memory", k) ||
    l.matchAt("out of memory", k) || l.matchAt("calloc parameters overflow", k);
}

/** A line of only '=', as long as ASan's (65) or TSan's (18) report rule. */
function isRule(l: Line): bool {
  return (l.len == ASAN_SEPARATOR || l.len == TSAN_SEPARATOR) && l.isAll(Char.EQ);
}

/** Position after a "==PID==" prefix, or -1. */
function afterPid(l: Line): i32 {
  if (l.at(0) != Char.EQ || l.at(1) != Char.EQ) return -1;
  if (l.readInt(2) < 0) return -1;
  let e = l.end;
  if (l.at(e) != Char.EQ || l.at(e + 1) != Char.EQ) return -1;
  return e + 2;
}

/** The bug type of an ASan ERROR line, in the words its SUMMARY line uses. */
function asanKind(l: Line, k: i32): string {
  if (l.matchAt("attempting double-free", k)) return "double-free";
  if (l.matchAt("attempting free on address which was not malloc()-ed", k)) return "bad-free";
  if (l.matchAt("requested allocation size", k)) return "allocation-size-too-big";
  if (l.matchAt("calloc parameters overflow", k)) return "calloc-overflow";
  if (l.matchAt("pvalloc parameters overflow", k)) return "pvalloc-overflow";
  if (l.matchAt("reallocarray parameters overflow", k)) return "reallocarray-overflow";
  if (l.matchAt("allocator is out of memory", k) || l.matchAt("out of memory", k)) return "out-of-memory";
  if (l.matchAt("invalid alignment requested in aligned_alloc", k)) return "invalid-aligned-alloc-alignment";
  if (l.matchAt("invalid alignment requested in posix_memalign", k)) return "invalid-posix-memalign-alignment";
  if (l.matchAt("invalid allocation alignment", k)) return "invalid-allocation-alignment";
  if (l.matchAt("attempting to call malloc_usable_size()", k)) return "bad-malloc_usable_size";
  if (l.matchAt("attempting to call __sanitizer_get_allocated_size()", k)) return "bad-__sanitizer_get_allocated_size";
  // "heap-buffer-overflow on address", "memcpy-param-overlap: memory ranges", "alloc-dealloc-mismatch (malloc vs ..."
  let e = k;
  while (e < l.len) {
    let c = l.at(e);
    if (c == Char.SPACE || c == Char.COLON) break;
    e++;
  }
  return e > k ? l.str(k, e) : "unknown-crash";
}

/** The faulting address of an ERROR line ("on address 0x..", "on unknown address 0x..", "double-free on 0x.."). */
function addressIn(l: Line, k: i32): string | null {
  let a = hexAfter(l, "address 0x", k);
  if (a === null) a = hexAfter(l, " on 0x", k);
  if (a === null) a = hexAfter(l, "-ed: 0x", k);
  return a;
}

/** The "0x..." that ends the first occurrence of `before` (which ends in "0x") at or after from. */
function hexAfter(l: Line, before: string, from: i32): string | null {
  let i = l.indexOf(before, from);
  if (i < 0) return null;
  let s = i + before.length - 2;
  let e = l.skipHex(s + 2);
  return e > s + 2 ? l.str(s, e) : null;
}

/** "thread T0" in an ASan line ("READ of size 4 at 0x.. thread T0", "double-free on 0x.. in thread T0:"). */
function threadIn(l: Line, from: i32): string | null {
  let i = l.indexOf(" thread T", from);
  if (i < 0) return null;
  let s = i + 8;
  let e = s + 1;
  while (isDigit(l.at(e))) e++;
  return l.str(s, e);
}

/** TSan's "by thread T1" / "by main thread". */
function tsanThread(l: Line, from: i32): string | null {
  if (l.indexOf(" by main thread", from) >= 0) return "main";
  return threadIn(l, from);
}

/**
 * s without the address ranges and addresses ASan puts in parentheses or brackets (`[0x..,0x..)`,
 * `(0x55bb405f1b60)`): the same bug reads the same on every run.
 */
function withoutAddresses(s: string): string {
  let parts = new Array<string>(0);
  let i = 0;
  while (i < s.length) {
    let a = s.indexOf(" [0x", i);
    let b = s.indexOf(" (0x", i);
    let k = a < 0 ? b : (b < 0 ? a : min(a, b));
    if (k < 0) { parts.push(s.substring(i)); break; }
    parts.push(s.substring(i, k));
    let close = s.indexOf(")", k); // a range `[0x..,0x..)` closes with a parenthesis too
    if (close < 0) break;
    i = close + 1;
  }
  return join(parts, "");
}

/**
 * Every report's SUMMARY, the first or a later one (only counted), as Facts.lastReport: `AddressSanitizer:
 * heap-buffer-overflow (build/libx.so) in x_strdup` (the module's offset and the BuildId left out). A test
 * runner whose test printed the report names the test's failure by it.
 */
function noteReport(l: Line, f: Facts): void {
  let p = 9;
  let e = l.len;
  let b = l.indexOf(" (BuildId: ", p);
  let s = b >= 0 ? l.str(p, b) + l.str(l.indexOfByte(Char.RPAREN, b) + 1, e) : l.str(p, e);
  let off = s.indexOf("+0x");
  if (off > 0) {
    let close = s.indexOf(")", off);
    if (close > off) s = s.substring(0, off) + s.substring(close);
  }
  s = s.replaceAll("(./", "(");
  f.lastReport = s.trimStart().trimEnd();
  f.reports++;
}

/** A line of the module map Fuchsia prints before a stack: "dso: id=.." or its "[[[ELF module .." markup. */
function isModuleMap(l: Line): bool {
  return l.startsWith(DSO) || l.matchAt(ELF_MODULE, l.skipSpaces(0));
}

/**
 * ASan's line for the stack variable an access fell in or next to, `[32, 48) 'buf' (line 5) <== Memory access at
 * offset 32 is inside this variable` (`overflows`, `partially overflows`, `underflows`…; `(line N)` only with
 * debug info): its name, line and how the access fell, onto the crash. false for an object line without the
 * `<==` mark (the frame's other variables).
 */
function stackObject(l: Line, p: i32, c: Crash): bool {
  let m = l.indexOf(" <== Memory access at offset ", p);
  if (m < 0) return false;
  let q = l.indexOf(") '", p);
  if (q < 0 || q > m) return false;
  let ns = q + 3;
  let ne = l.indexOf("'", ns);
  if (ne < 0 || ne > m) return false;
  c.objectName = l.str(ns, ne);
  if (l.matchAt(" (line ", ne + 1)) c.objectLine = l.readInt(ne + 8);
  let a = m + 29;
  while (a < l.len && isDigit(l.at(a))) a++;
  if (l.at(a) == Char.SPACE) a++;
  if (l.matchAt("is ", a)) a += 3;
  let b = l.indexOf(" this variable", a);
  let acc = l.trimmed(a, b < 0 ? l.len : b);
  c.objectAccess = acc.length > 0 ? acc : null;
  return true;
}
