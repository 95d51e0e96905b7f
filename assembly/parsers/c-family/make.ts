// GNU make: `make: *** [Makefile:5: app] Error 1` (a recipe failed), make's own errors (`make: *** No rule
// to make target 'x'.  Stop.`, `Makefile:5: *** missing separator.  Stop.`), `Makefile:9: warning: overriding
// recipe`, and the `make[1]: Entering/Leaving directory` lines, which move the directory that compiler paths
// are relative to. Also the steps before make: autoconf's `configure: error: ..` (an error without a place) and
// CMake's `CMake Error at CMakeLists.txt:11 (find_package):` blocks (./cmake).
//
// A recipe failure is the consequence of whatever the recipe printed, not an error of its own: it is listed
// as a note (never counted, never an error in the delta), and the first one becomes facts.stepFailedLine, so
// the verdict is build-failed when nothing more specific (a crash, an error diagnostic, a failing test)
// explains it. When make names a signal instead of an exit code (`[Makefile:2: t] Segmentation fault`: the
// recipe's program was make's own child, so no shell printed anything), that is the crash, with the target.
import { Char, isDigit, isIdent } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts, Diagnostic, Crash, signalCrash } from "../../model";
import { SIGNAL_WORDS, signalWordsAt, signalName } from "../../signals";
import { Parser } from "../../parser";
import { ByteSet } from "../../util/byte-set";
import { DiagContext, readLoc, listOnly } from "../diag-context";
import { CMakeReport } from "./cmake";

const BUILD_FILES = "-- Build files have been written to: ";
const NINJA_IDLE = "ninja: no work to do.";
const NINJA_ENTERING = "ninja: Entering directory ";

/** At rest: a line without a head colon (`make: ..`, `Makefile:5: ..`, cmake's `-- Build files ..: dir`) is make's only when it is CMake's `CMake Error at ..`. */
const STARTS = new ByteSet().chars("C");

@final
export class MakeParser extends Parser {
  private ctx: DiagContext;
  private failure: string | null = null;
  /** make's `make: ruby: No such file or directory`: a recipe's program it could not run. */
  private missing: string | null = null;
  /** The directory stack's top is ninja's (`ninja: Entering directory`), which a later one replaces. */
  private ninjaDir: bool = false;

  /** CMake's `CMake Error at CMakeLists.txt:11 (find_package):` and its indented block (./cmake). */
  private cmake: CMakeReport = new CMakeReport();

  constructor(ctx: DiagContext) { super(); this.ctx = ctx; }

  atRest(): bool { return !this.cmake.busy(); }
  busy(): bool { return this.cmake.busy(); }
  starts(): ByteSet | null { return STARTS; }
  headColonStarts(): bool { return true; }
  /** Also a line whose program's output make's report ends (reportAfterOutput): it holds a colon. */
  colonStarts(): bool { return true; }

  claim(l: Line, f: Facts): bool {
    if (this.cmake.claim(l, f)) return true;
    let k = l.headColon();  // the first ": ", found once per line for all the diagnostic parsers
    let c0 = l.at(0);
    let r = -1;
    if (c0 == Char.m || c0 == Char.g) r = makePrefix(l, 0);
    // ninja (CMake's generator) compiled nothing (Facts.upToDate); the line stays in the tail
    else if (c0 == Char.n && k == 5 && l.startsWith(NINJA_IDLE) && l.skipSpaces(NINJA_IDLE.length) >= l.len) { f.upToDate = true; return false; }
    if (r < 0) {
      // A recipe's program that printed part of a line and died: make's report ends that line
      // (`\tRatios        make: *** [Makefile:9: smoke] Segmentation fault`, codeplea/tinyexpr's smoke test).
      let m = reportAfterOutput(l);
      if (m >= 0) { this.recipeFailed(l, f, makePrefix(l, m) + 4, false, m); return true; }
      if (k < 0 || l.len < 6) return false;
      // cmake's configure step names the build tree; ninja (which prints no directory) runs the compiler
      // there, so a relative path (`../main.cpp`) after it is relative to that directory.
      // The line stays unclaimed (it is cmake's, and shown in the tail as before).
      if (c0 == Char.MINUS && l.startsWith(BUILD_FILES) && l.at(BUILD_FILES.length) == Char.SLASH) {
        this.ctx.enter(l.trimmed(BUILD_FILES.length));
        return false;
      }
      // ninja -C (meson compile, meson test's rebuild, `ninja -C build`): ``ninja: Entering directory `build'``.
      // It runs the compiler there (meson's `../src/ring.c`) and never says it left: a later one replaces it.
      // Unclaimed, as cmake's line above.
      if (c0 == Char.n && k == 5 && l.matchAt(NINJA_ENTERING, 0)) {
        if (this.ninjaDir) this.ctx.leave();
        this.ctx.enter(quoted(l, NINJA_ENTERING.length), true);
        this.ninjaDir = true;
        return false;
      }
      // autoconf's `configure: error: libjansson not found: install libjansson-dev` (AC_MSG_ERROR): the
      // configure step's own error, with no place (also `./configure: error: ..` when run by path).
      if (k >= 9 && l.matchAt("configure: error: ", k - 9) && (k == 9 || l.at(k - 10) == Char.SLASH)) {
        this.add(f, "error", l.trimmed(k + 9), true, "configure");
        return true;
      }
      return this.makefileLine(l, f, k);
    }
    if (l.matchAt("Entering directory ", r)) { this.ctx.enter(quoted(l, r + 19)); return true; }
    if (l.matchAt("Leaving directory ", r)) { this.ctx.leave(); return true; }
    if (l.matchAt("*** [", r)) { this.recipeFailed(l, f, r + 4, false); return true; }
    // A recipe line marked `-`: make goes on (`[Makefile:9: test] Error 2 (ignored)`), but a program that
    // died of a signal (`[Makefile:9: test] Segmentation fault (ignored)`) is still the run's crash.
    if (l.at(r) == Char.LBRACKET && l.endsWith(" (ignored)")) { this.recipeFailed(l, f, r, true); return true; }
    if (l.matchAt("*** ", r)) {
      if (l.matchAt("Waiting for unfinished jobs", r + 4)) return true;
      // `*** Deleting file 'smoke'` (also `intermediate file`): make removes the target of a recipe it saw
      // fail or die, as it says; the failure is the report before it.
      if (l.matchAt("Deleting ", r + 4) && l.at(l.len - 1) == Char.APOS) return true;
      this.add(f, "error", l.trimmed(r + 4), true);
      return true;
    }
    if (l.matchAt("warning: ", r)) { this.add(f, "warning", l.trimmed(r + 9), true); return true; }
    // make runs a recipe's program itself when the recipe needs no shell, and says so when it cannot:
    // `make: ruby: No such file or directory` (then `*** [..] Error 127`). A tool that is not installed,
    // like a shell's `command not found`: the run failed before it did anything, and this line says why.
    // Said in finish(): a crash or a timeout the run also saw is the more specific result.
    if (l.endsWith(": No such file or directory") || l.endsWith(": Permission denied")) {
      if (this.missing === null) this.missing = l.trimmed(0);
      return true;
    }
    // `Nothing to be done for 'all'.`, `'app' is up to date.`: nothing was compiled (Facts.upToDate)
    if (l.matchAt("Nothing to be done for ", r) || l.endsWith("' is up to date.")) f.upToDate = true;
    return true;
  }

  finish(f: Facts): void {
    if (this.failure !== null && f.stepFailedLine === null) f.stepFailedLine = this.failure;
    let missing = this.missing;
    if (missing !== null && f.setupFailure === null && f.crash === null && !f.timeoutSeen) f.setupFailure = missing;
  }

  /** `[Makefile:8: app.o] Error 1` (or, from older makes, `[app.o] Error 1`) at position b (the bracket); an ignored one is no step failure. */
  private recipeFailed(l: Line, f: Facts, b: i32, ignored: bool, from: i32 = 0): void {
    let d = new Diagnostic();
    d.tool = "make";
    d.severity = "note";
    d.message = l.trimmed(b);
    let close = l.indexOfByte(Char.RBRACKET, b);
    let sep = l.indexOf(": ", b);
    let target: string | null = null;
    if (sep > b && (close < 0 || sep < close)) {
      if (!readLoc(l, b + 1, sep, d, this.ctx)) d.file = null;
      if (close > sep) target = l.trimmed(sep + 2, close);
    } else if (close > b) target = l.trimmed(b + 1, close);
    if (!ignored) {
      listOnly(f, d);
      // A test target's recipe (`test-frametest: frametest` / `./frametest -v`) failed: the program it ran
      // failed, which is no build step's failure (a compiler's or linker's error there is counted on its own).
      if (this.failure === null && !(target !== null && isTestTarget(target!))) this.failure = l.trimmed(from);
    }
    if (close > b) this.recipeSignal(l, f, l.skipSpaces(close + 1), d, target, from);
  }

  /**
   * `Segmentation fault` (make's child died of it) or `Error 139` (a shell under make reported 128+N, after
   * printing the signal itself) after the bracket at p: the crash, with the target that was being made.
   */
  private recipeSignal(l: Line, f: Facts, p: i32, d: Diagnostic, target: string | null, from: i32): void {
    let sig: string | null = null;
    let k = signalWordsAt(l, p);
    if (k >= 0) sig = SIGNAL_WORDS[k + 1];
    else if (l.matchAt("Error ", p)) {
      let n = l.readInt(p + 6);
      if (n > 128 && n < 128 + 32) sig = signalName(<i32>n - 128);
    }
    if (sig === null) return;
    let where = target !== null ? "while making '" + target! + "'" : "under make";
    if (d.file !== null) where += " (" + d.file! + (d.line >= 0 ? ":" + d.line.toString() : "") + ")";
    let c: Crash | null = f.crash;
    if (c === null) {
      if (k < 0) return; // `Error 134` alone: a script may exit 134 on purpose
      c = signalCrash(sig!, l.trimmed(from));
      c.message = "killed by " + sig! + " " + where;
      f.setCrash(c);
    } else if (c.tool == "signal" && c.kind == sig! && c.message === null) {
      c.message = "killed by " + sig! + " " + where;
    }
  }

  private add(f: Facts, sev: string, msg: string, counted: bool, tool: string = "make"): Diagnostic {
    let d = new Diagnostic();
    d.tool = tool;
    d.severity = sev;
    d.message = msg;
    if (counted) f.addDiagnostic(d); else listOnly(f, d);
    return d;
  }

  /** `Makefile:5: *** missing separator.  Stop.`, `build.mk:9: warning: overriding recipe for target 'x'`. */
  private makefileLine(l: Line, f: Facts, k: i32): bool {
    if (k <= 0) return false;
    let c = k - 1;
    while (c > 0 && isDigit(l.at(c))) c--;
    if (c == k - 1 || l.at(c) != Char.COLON) return false;
    let s = l.lastIndexOfByte(Char.SLASH, c) + 1;
    let isMakefile = (c - s == 8 && (l.matchAt("Makefile", s) || l.matchAt("makefile", s))) ||
      (c - s == 11 && l.matchAt("GNUmakefile", s)) || (c - s > 3 && l.matchAt(".mk", c - 3));
    if (!isMakefile) return false;
    let r = k + 2;
    let d = new Diagnostic();
    d.tool = "make";
    if (l.matchAt("*** ", r)) { d.severity = "error"; d.message = l.trimmed(r + 4); }
    else if (l.matchAt("warning: ", r)) { d.severity = "warning"; d.message = l.trimmed(r + 9); }
    else return true; // `Makefile:10: target 'x' given more than once` and other remarks
    readLoc(l, 0, k, d, this.ctx);
    f.addDiagnostic(d);
    return true;
  }
}

/**
 * The start of make's recipe report after other output on the line (`\tPow   make: *** [..]`,
 * `.make: *** [..]` after a test program's progress dots, atomicobject/heatshrink under greatest): the word
 * before its `: ` is make's, not the end of a longer word (`cmake`, `automake`, `my_make`); or -1.
 */
function reportAfterOutput(l: Line): i32 {
  let k = l.indexOf(": *** [");
  if (k < 5) return -1;
  let s = k - 1;
  if (l.at(s) == Char.RBRACKET) {
    s--;
    while (s > 0 && isDigit(l.at(s))) s--;
    if (l.at(s) != Char.LBRACKET) return -1;
    s--;
  }
  s -= 3;  // the `m` of make
  if (s > 0 && l.at(s - 1) == Char.g) s--;
  if (s <= 0) return -1;
  let b = l.at(s - 1);
  if (isIdent(b) || b == Char.MINUS) return -1;
  return makePrefix(l, s) == k + 2 ? s : -1;
}

/**
 * A target named for running tests: `test`, `tests`, `check`, `run_tests`, `test-frametest`, `unit-test` (a
 * word `test`/`tests`/`check` joined by `-`). Not a file: `test_runner.c`, `build/test-x`, and the programs
 * such targets build (`test_strutil`, `ring_test`) are build products.
 */
function isTestTarget(t: string): bool {
  if (t.indexOf(".") >= 0 || t.indexOf("/") >= 0) return false;
  if (t == "test" || t == "tests" || t == "check" || t == "run_tests" || t == "run-tests") return true;
  if (t.startsWith("test-") || t.startsWith("tests-") || t.startsWith("check-")) return true;
  return t.endsWith("-test") || t.endsWith("-tests") || t.endsWith("-check");
}

/** Position after `make: ` / `make[2]: ` / `gmake: ` starting at s (also a path to make), or -1. */
function makePrefix(l: Line, s: i32): i32 {
  let p = s;
  if (l.at(p) == Char.g) p++;
  if (!l.matchAt("make", p)) return -1;
  p += 4;
  if (l.at(p) == Char.LBRACKET) {
    p++;
    while (isDigit(l.at(p))) p++;
    if (l.at(p) != Char.RBRACKET) return -1;
    p++;
  }
  if (l.at(p) != Char.COLON || l.at(p + 1) != Char.SPACE) return -1;
  return p + 2;
}

/** The text inside quotes starting at p: `'./dir'` (GNU make quotes with ' or with ` and '). */
function quoted(l: Line, p: i32): string {
  let q = l.at(p);
  if (q == Char.APOS || q == Char.BACKTICK) p++;
  let e = l.len;
  if (l.at(e - 1) == Char.APOS) e--;
  return l.str(p, e);
}
