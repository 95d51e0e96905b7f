// The "extra sanitizers" of fuzzing infrastructure, which find a bug class no compiler sanitizer does and say
// so on one line before they kill the target: OSS-Fuzz's SystemSan (`===BUG DETECTED: Shell injection===`,
// `===BUG DETECTED: Arbitrary file open===`, `===BUG DETECTED: Arbitrary domain name resolution===`) and
// PySecSan, the Python one (`===BUG DETECTED: PySecSan: Command injection ===`, then `[PYSECSAN] Stacktrace:`
// and the Python stack, outermost call first, up to `[PYSECSAN] Exiting`).
// SystemSan's crash is tool `systemsan` with the bug class as kind (`command-injection` for shell corruption or
// injection, `arbitrary-file-open`, `arbitrary-dns-resolution`, any other in its own words); it prints no
// stack, so the abort report the sanitizer or libFuzzer prints next lends it one (lendStack). PySecSan's is
// tool `pysecsan`, kind the finding's words, frames its stack innermost first.
import { Char } from "../../util/chars";
import { Line } from "../../util/line";
import { Crash, Facts, Frame, MAX_FRAMES } from "../../model";
import { Parser } from "../../parser";
import { ByteSet } from "../../util/byte-set";
import { classify, normPath } from "../../frames";

const BUG = "===BUG DETECTED: ";
const PYSECSAN = "PySecSan:";
const PY_TAG = "[PYSECSAN] ";
const MAX_PROSE = 16;

/** At rest: `=== BUG DETECTED` at column 0. */
const STARTS = new ByteSet().chars("=");

@final
export class BugDetectedParser extends Parser {
  /** The PySecSan crash whose report is being read, or null. */
  private py: Crash | null = null;
  /** Inside PySecSan's `Stacktrace:` block. */
  private inStack: bool = false;
  /** Lines of prose read before the stack (a report without one releases the lines after a few). */
  private prose: i32 = 0;

  busy(): bool { return this.py !== null; }
  atRest(): bool { return this.py === null; }
  starts(): ByteSet | null { return STARTS; }

  finish(f: Facts): void { this.end(); }

  claim(l: Line, f: Facts): bool {
    if (this.py !== null) {
      if (this.pyLine(l)) return true;
      this.end();
    }
    if (l.at(0) != Char.EQ || !l.startsWith(BUG)) return false;
    let e = l.len;
    while (e > BUG.length && l.at(e - 1) == Char.EQ) e--;
    let what = l.trimmed(BUG.length, e);
    let c = new Crash();
    c.message = what;
    if (what.startsWith(PYSECSAN)) {
      c.tool = "pysecsan";
      c.kind = kindOf(what.substring(PYSECSAN.length));
      c.message = what.substring(PYSECSAN.length).trimStart().trimEnd();
      this.py = c;
    } else {
      c.tool = "systemsan";
      c.kind = kindOf(what);
      // SystemSan prints no stack: the abort that follows lends one (the sanitizer parser's borrows()).
      c.stackless = true;
    }
    f.setCrash(c);
    return true;
  }

  /** A line of PySecSan's report: its tagged lines, prose, and the stack's `File "x.py", line N, in f` lines. */
  private pyLine(l: Line): bool {
    if (l.startsWith(PY_TAG)) {
      if (l.matchAt("Stacktrace:", PY_TAG.length)) { this.inStack = true; return true; }
      if (l.matchAt("Exiting", PY_TAG.length)) { this.end(); return true; }
      return true;
    }
    let p = l.skipSpaces(0);
    if (this.inStack) {
      if (!l.matchAt("File \"", p)) return false;
      let q = l.indexOf("\", line ", p + 6);
      if (q < 0) return false;
      let c = this.py!;
      let fr = new Frame();
      fr.file = normPath(l.str(p + 6, q));
      let ln = l.readInt(q + 8);
      if (ln >= 0) fr.line = <i32>ln;
      let inAt = l.indexOf(", in ", q);
      if (inAt > 0) fr.fn = l.trimmed(inAt + 5);
      classify(fr);
      // outermost first: each frame goes in front of the ones before it
      if (c.frames.length < MAX_FRAMES) c.frames.unshift(fr);
      return true;
    }
    // the finding's own prose between the header and the stack
    return l.len > 0 && p == 0 && ++this.prose <= MAX_PROSE;
  }

  private end(): void {
    let c = this.py;
    if (c !== null) {
      for (let i = 0; i < c.frames.length; i++) c.frames[i].index = i;
    }
    this.py = null;
    this.inStack = false;
    this.prose = 0;
  }
}

/** The bug class as a kind: `Shell corruption` / `Shell injection` -> `command-injection`, else its words. */
function kindOf(what: string): string {
  let w = what.trimStart().trimEnd().toLowerCase();
  if (w == "shell corruption" || w == "shell injection" || w == "command injection") return "command-injection";
  if (w == "arbitrary domain name resolution") return "arbitrary-dns-resolution";
  let out = "";
  let gap = false;
  for (let i = 0; i < w.length; i++) {
    let ch = w.charCodeAt(i);
    if (ch == Char.SPACE) { gap = out.length > 0; continue; }
    if (gap) { out += "-"; gap = false; }
    out += String.fromCharCode(ch);
  }
  return out.length > 0 ? out : "bug-detected";
}
