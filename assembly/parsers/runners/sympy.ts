// SymPy's own test runner (`bin/test`, `bin/test --use-sympy-runner` since SymPy moved to pytest, `bin/doctest`,
// `sympy.test()`), read by pytest's reader (its `==== test process starts ====` bar is one of pytest's shape):
//
//   ============================= test process starts ==============================
//   executable:         /usr/bin/python3  (3.11.2-final-0) [CPython]
//   …                                       (architecture, cache, ground types, numpy, random seed, hash randomization)
//
//   sympy/core/tests/test_basic.py[25] .FEs.Xf..................              [FAIL]
//
//   ________________________________________________________________________________
//   ________________ sympy/core/tests/test_basic.py:test_immutable _________________
//   Traceback (most recent call last):
//     File "/w/sympy/core/tests/test_basic.py", line 49, in test_immutable
//   KeyError: 'missing'
//   …
//   ====== tests finished: 23 passed, 1 failed, 1 exceptions, in 0.91 seconds ======
//   DO *NOT* COMMIT!
//
// A file's progress is wrapped at 80 columns; `[OK]` / `[FAIL]` closes it. `--verbose` writes each test on a line
// of its own (`test_x ok`, `test_y F`, `test_z E`, `test_w <reason> s`). A failed assertion's block is headed
// `file::test`, any other exception's `file:test` (both name the test `file::test`, as pytest's ids do), a file that
// did not import by its path (or by nothing: SymPy 1.13 prints an empty header), a doctest by its dotted name (its
// block is doctest's report: `File "…", line 46, in name`, `Failed example:`, `Expected:`, `Got:`). The closing
// counts, wider than the terminal, are written without their bars and wrapped (` tests finished: 82 passed, …, ` and
// `1 exceptions, in 0.73 seconds `). Since SymPy 1.13, bin/test's exit is the inverse of its result (1 when every test
// passed, 0 when any failed: it passes sympy.test's own "ok" to sys.exit; 1.12 and before exit 0 when ok): the
// counts say (Facts.passedByCounts).
import { Char, isDigit } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts, Tests, TestFailure } from "../../model";
import { DocOutput, failureNamed, fileFailureOf, pyFrame, chainWord, exceptionMessage } from "./common";
import { withName, withSkipped } from "../../util/name-hash";

const RUNNER = "sympy";
const FINISHED = "tests finished: ";
const FINISHED_CENTRED = " tests finished: ";
/** Lines of an exception's message read (exceptionMessage keeps 4 of its first paragraph). */
const MAX_MSG = 4;

const enum St { HEAD, PROGRESS, BLOCK, SECTION, DONE }
const enum Doc { NONE, EXAMPLE, EXPECTED, GOT }

@final
export class SympyReader {
  /** Between the opening bar and `DO *NOT* COMMIT!` (or the end of the log). */
  open: bool = false;
  private st: St = St.HEAD;
  /** The file whose progress is being written (its `path[N] ` line). */
  private file: string = "";
  /** `--verbose`: a progress line named no result, each test has a line of its own. */
  private verbose: bool = false;
  private pPassed: i64 = 0; private pFailed: i64 = 0; private pErrors: i64 = 0; private pSkipped: i64 = 0; private pXfailed: i64 = 0;
  private passHashes: Array<u32> | null = [];
  private skipped: Array<u32> | null = null;
  /** The closing counts were read (their second line may follow: `wrap`). */
  private totals: bool = false;
  private wrap: bool = false;
  private passed: i64 = 0; private failed: i64 = 0; private errors: i64 = 0; private nSkipped: i64 = 0; private xfailed: i64 = 0;
  /** The failure block being read, and what it read. */
  private cur: TestFailure | null = null;
  private tests: Tests | null = null;
  /** The header named no test (a file that did not import): the block's frames name the file. */
  private unnamed: bool = false;
  private frameFile: string | null = null;
  private frameLine: i64 = 0;
  private inTrace: bool = false;
  private msg: string[] = [];
  private chainedFrom: string | null = null;
  private doc: Doc = Doc.NONE;
  private docOut: DocOutput | null = null;
  private example: string | null = null;
  /** The last line was the rule (all `_`) a block's header follows. */
  private ruled: bool = false;

  /** The opening bar was read. */
  begin(): void { this.open = true; this.st = St.HEAD; }

  /** A line while open; false: not the runner's (a test's own output). */
  claim(l: Line, f: Facts): bool {
    if (this.wrap) { this.wrap = false; if (this.countsOf(l.trimmed(0, trimBars(l)))) return true; }
    let p = l.skipSpaces(0);
    if (l.matchAt(FINISHED, p) || l.at(0) == Char.EQ && l.indexOf(FINISHED_CENTRED) > 0) { this.finished(l, f); return true; }
    if (l.at(0) == Char.D && l.startsWith("DO *NOT* COMMIT!")) { this.open = false; this.st = St.DONE; return true; }
    switch (this.st) {
      case St.HEAD: {
        if (l.isBlank()) { this.st = St.PROGRESS; return true; }
        return l.headColon() > 0;
      }
      case St.PROGRESS: return this.progress(l, f);
      case St.DONE: { this.open = false; return false; }
      default: return this.blockLine(l, f);
    }
  }

  private progress(l: Line, f: Facts): bool {
    if (l.isBlank()) return true;
    if (l.at(0) == Char.UNDERSCORE) { this.ruleOrHeader(l, f); return true; }
    let end = closeAt(l);
    // `path[25] ` (and its results), `path[?]   Failed to import`: a file begins.
    let sp = l.indexOfByte(Char.SPACE);
    let tok = sp < 0 ? end : sp;
    if (tok > 3 && l.at(tok - 1) == Char.RBRACKET) {
      let ob = l.lastIndexOfByte(Char.LBRACKET, tok);
      if (ob > 0 && (isDigit(l.at(ob + 1)) || l.at(ob + 1) == Char.QUESTION) && l.indexOfByte(Char.DOT) < ob) {
        this.file = l.str(0, ob);
        let from = l.skipSpaces(tok);
        if (from >= end) { this.verbose = true; return true; }
        if (l.at(ob + 1) == Char.QUESTION) return true;
        return this.marks(l, from, end) || true;
      }
    }
    if (this.marks(l, 0, end)) return true;
    if (end == 0) return true; // `[OK]` alone, right-aligned past a full line
    if (this.verbose) return this.result(l, end, f);
    return false;
  }

  /** A line of result marks (`..F.Es`) on [a, end): counted; false when it holds anything else. */
  private marks(l: Line, a: i32, end: i32): bool {
    let b = end;
    while (b > a && l.at(b - 1) == Char.SPACE) b--;
    if (b <= a) return false;
    for (let i = a; i < b; i++) if (!isMark(l.at(i))) return false;
    for (let i = a; i < b; i++) this.count(l.at(i));
    return true;
  }

  private count(c: i32): void {
    if (c == Char.DOT) this.pPassed++;
    else if (c == Char.F) this.pFailed++;
    else if (c == Char.E || c == Char.T) this.pErrors++;
    else if (c == Char.f) this.pXfailed++;
    else if (c != Char.X) this.pSkipped++;
  }

  /** --verbose's `test_x ok`, `test_y F`, `test_z <reason> s`: the test's name and its result, last. */
  private result(l: Line, end: i32, f: Facts): bool {
    let b = end;
    while (b > 0 && l.at(b - 1) == Char.SPACE) b--;
    let sp = l.indexOfByte(Char.SPACE);
    if (sp <= 0 || sp >= b || !l.matchAt("test", 0)) return false;
    let last = l.lastIndexOfByte(Char.SPACE, b) + 1;
    let name = this.file + "::" + l.str(0, sp);
    if (b - last == 2 && l.matchAt("ok", last)) { this.pPassed++; this.passHashes = withName(this.passHashes, name); return true; }
    if (b - last != 1 || !isMark(l.at(last))) return false;
    let c = l.at(last);
    this.count(c);
    if (c == Char.s || c == Char.K || c == Char.w) this.skipped = withSkipped(this.skipped, name);
    return true;
  }

  /** A rule (all `_`) before a block's header, or the header: one that names nothing is a rule after the rule. */
  private ruleOrHeader(l: Line, f: Facts): void {
    if (isRule(l) && !this.ruled) { this.endBlock(); this.st = St.BLOCK; this.ruled = true; return; }
    this.header(l, f);
  }

  /** `____ name ____`: a block (a failure's, doctest's) or a section (`xpassed tests`, `slowest tests`) begins. */
  private header(l: Line, f: Facts): void {
    this.endBlock();
    let a = 0;
    while (l.at(a) == Char.UNDERSCORE) a++;
    let b = l.len;
    while (b > a && l.at(b - 1) == Char.UNDERSCORE) b--;
    let name = l.trimmed(a, b);
    let ruled = this.ruled;
    this.ruled = false;
    this.st = St.BLOCK;
    if (!ruled && (name == "xpassed tests" || name == "slowest tests" || name == "unexpectedly fast tests")) { this.st = St.SECTION; return; }
    let t = f.testsFor(RUNNER);
    if (t.runner != RUNNER) return;
    this.tests = t;
    this.unnamed = name.length == 0;
    if (this.unnamed) { this.cur = new TestFailure(); return; }
    let py = name.indexOf(".py:");
    if (py > 0 && name.charCodeAt(py + 4) != Char.COLON) name = name.substring(0, py + 3) + "::" + name.substring(py + 4);
    let fl = name.endsWith(".py") && name.indexOf(" ") < 0 ? fileFailureOf(t, name) : failureNamed(t, name);
    this.cur = fl;
  }

  private blockLine(l: Line, f: Facts): bool {
    if (l.at(0) == Char.UNDERSCORE && l.at(l.len - 1) == Char.UNDERSCORE && (l.indexOf(" ") > 0 || isRule(l))) { this.ruleOrHeader(l, f); return true; }
    if (this.st == St.SECTION || this.cur === null) return true;
    this.ruled = false;
    if (this.doc != Doc.NONE || l.startsWith("File \"")) return this.docLine(l);
    if (l.startsWith("Traceback (most recent call last)")) { this.inTrace = true; this.msg = []; return true; }
    let fr = pyFrame(l);
    if (fr !== null && l.at(0) == Char.SPACE) {
      // A frame: the innermost of the user's is the place (SymPy's own files are its user's).
      this.inTrace = true; this.msg = [];
      if (fr.user) { this.frameFile = fr.file; this.frameLine = fr.line; }
      return true;
    }
    if (this.inTrace) {
      if (l.at(0) == Char.SPACE || l.isBlank()) return true;
      this.inTrace = false;
      this.msg = [l.toString()];
      return true;
    }
    if (l.isBlank()) { if (this.msg.length > 0 && this.msg[this.msg.length - 1].length > 0) this.msg.push(""); return true; }
    let how = chainWord(l);
    if (how !== null) {
      if (this.msg.length > 0) this.chainedFrom = how! + this.msg[0];
      this.msg = [];
      return true;
    }
    if (this.msg.length < 2 * MAX_MSG) this.msg.push(l.toString());
    return true;
  }

  /** A doctest's report: `File "…", line N, in name`, then its example, expected and actual output. */
  private docLine(l: Line): bool {
    if (l.startsWith("File \"")) {
      let fr = pyFrame(l);
      if (fr !== null && this.docOut === null) { this.frameFile = fr.file; this.frameLine = fr.line; }
      if (this.docOut === null) this.docOut = new DocOutput();
      this.doc = Doc.EXAMPLE;
      return true;
    }
    if (l.startsWith("Failed example:")) { this.doc = Doc.EXAMPLE; return true; }
    if (l.startsWith("Expected:")) { this.doc = Doc.EXPECTED; return true; }
    if (l.startsWith("Got:") || l.startsWith("Exception raised:")) { this.doc = Doc.GOT; return true; }
    if (l.isBlank()) return true;
    if (l.at(0) != Char.SPACE) return true;
    let v = l.str(l.skipSpaces(0));
    if (this.doc == Doc.EXAMPLE) { if (this.example === null) this.example = v; }
    else this.docOut!.add(this.doc == Doc.GOT, v);
    return true;
  }

  private endBlock(): void {
    let t = this.cur;
    this.cur = null;
    if (t === null) return;
    // A header that named nothing: the file that did not import, as its frames name it.
    if (this.unnamed) t = fileFailureOf(this.tests!, this.frameFile !== null ? this.frameFile! : "(import)");
    if (this.frameFile !== null) { t.file = this.frameFile; t.line = this.frameLine; }
    if (this.example !== null) {
      t.message = "Failed example: " + this.example!;
      let d = this.docOut!;
      t.expected = d.firstExpected();
      t.actual = d.firstGot();
    } else if (this.msg.length > 0) {
      t.message = exceptionMessage(this.msg, this.chainedFrom);
    }
    this.unnamed = false;
    this.frameFile = null; this.frameLine = 0;
    this.inTrace = false; this.msg = []; this.chainedFrom = null;
    this.doc = Doc.NONE; this.docOut = null; this.example = null;
  }

  /** `tests finished: 23 passed, 1 failed, 1 exceptions, in 0.91 seconds` (wrapped: its rest on the next line). */
  private finished(l: Line, f: Facts): void {
    this.endBlock();
    let p = l.indexOf(FINISHED) + FINISHED.length;
    this.totals = true;
    this.st = St.DONE;
    f.testsFor(RUNNER);
    if (!this.countsOf(l.trimmed(p, trimBars(l)))) this.wrap = true;
  }

  /** Counts of the closing line (or of its second half): true when it ends with `in N seconds`. */
  private countsOf(s: string): bool {
    let parts = s.split(", ");
    for (let i = 0; i < parts.length; i++) {
      let w = parts[i].trimStart().trimEnd();
      let sp = w.indexOf(" ");
      if (sp <= 0 || !isDigit(w.charCodeAt(0))) continue;
      let n = I64.parseInt(w.substring(0, sp));
      let what = w.substring(sp + 1);
      if (what == "passed") this.passed += n;
      else if (what == "failed") this.failed += n;
      else if (what == "skipped") this.nSkipped += n;
      else if (what == "expected to fail") this.xfailed += n;
      else if (what == "exceptions") this.errors += n;
    }
    return s.endsWith(" seconds");
  }

  finish(f: Facts): void {
    this.endBlock();
    let t = f.testsFor(RUNNER);
    if (t.runner != RUNNER) return;
    if (this.totals) {
      t.passed = this.passed; t.failed = this.failed; t.errors = this.errors; t.skipped = this.nSkipped; t.xfailed = this.xfailed;
      t.totals = true;
      // bin/test exits 1 when every test passed since SymPy 1.13 (sys.exit of sympy.test's "ok"): the counts say.
      f.passedByCounts = t.failed == 0 && t.errors == 0;
    } else {
      t.passed = this.pPassed; t.failed = this.pFailed; t.errors = this.pErrors; t.skipped = this.pSkipped; t.xfailed = this.pXfailed;
    }
    let hs = this.passHashes;
    if (this.verbose && hs !== null && <i64>hs.length == t.passed) t.passedSet = hs;
    if (this.skipped !== null) t.skippedSet = this.skipped;
  }
}

/** A result mark of the progress: `.` passed, `F` failed, `E` exception, `T` timed out, `s` `K` `w` skipped, `f` `X` xfail. */
function isMark(c: i32): bool {
  return c == Char.DOT || c == Char.F || c == Char.E || c == Char.s || c == Char.f || c == Char.X || c == Char.K || c == Char.T || c == Char.w;
}

/** A line all of `_` (the rule before a block's header). */
function isRule(l: Line): bool { return l.len >= 20 && l.isAll(Char.UNDERSCORE); }

/** Where a right-aligned `[OK]` / `[FAIL]` begins (the line's length when it has none). */
function closeAt(l: Line): i32 {
  let n = l.len;
  if (l.endsWith("[OK]")) return n - 4;
  if (l.endsWith("[FAIL]")) return n - 6;
  return n;
}

/** The end of the text between a centred line's bars (`==== text ====`), or the line's length. */
function trimBars(l: Line): i32 {
  let b = l.len;
  while (b > 0 && l.at(b - 1) == Char.EQ) b--;
  return b;
}
