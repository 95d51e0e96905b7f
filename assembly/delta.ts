// sbx.delta/1: what changed between the previous verdict and this one. Pure and deterministic: both
// verdicts come in as JSON, the delta goes out as JSON with a one-line summary the renderer prints.
import { Char, isDigit } from "./util/chars";
import { Verdict, Diagnostic, Frame, TestFailure, Crash, Tests, MAX_FAILURES } from "./model";
import { readVerdict, readError } from "./verdict-reader";
import { writeFrame, writeDiagnostic } from "./verdict-writer";
import { JsonWriter, Sink } from "./util/sink";
import { join } from "./util/join";
import { testHash, nameHash, objectKey } from "./util/name-hash";
import { LINE_SLACK, absDiff, factText, failureChange, crashFactsChange, unreachedBy, testsUnreachedBy, crashStop, cutShort, containerOf } from "./delta-facts";

// Diagnostics (and crash frames) within LINE_SLACK lines of each other, same in all else, are the same.
const MAX_LISTED = 50;

function normMessage(s: string): string {
  // Numbers (counts, sizes, columns inside messages) and runs of spaces do not make a new diagnostic.
  let buf = new Array<i32>(0);
  let space = false;
  for (let i = 0, n = s.length; i < n; i++) {
    let c = s.charCodeAt(i);
    let digit = isDigit(c);
    let blank = c == Char.SPACE || c == Char.TAB;
    if (digit) { if (buf.length == 0 || buf[buf.length - 1] != Char.HASH) buf.push(Char.HASH); }
    else if (blank) { if (!space) buf.push(Char.SPACE); }
    else buf.push(c);
    space = blank;
  }
  return String.fromCharCodes(buf);
}

function diagKey(d: Diagnostic): string {
  // The label is part of what the diagnostic says: two E0308s "mismatched types" with different labels
  // (expected `i32`, found `usize` / expected `String`, found `&str`) are two diagnostics.
  return d.severity + "\u0001" + levelFreeKey(d);
}

class DiagMatch {
  fixed: Array<Diagnostic> = [];
  added: Array<Diagnostic> = [];
  unchanged: i32 = 0;
  /** Warnings gone or new only because one of the runs did not compile their file (notRebuilt). */
  notRebuilt: i32 = 0;
  /** Of notRebuilt, those gone (this run did not print them). */
  notRebuiltGone: i32 = 0;
}

/** Errors and warnings only; notes ride with their error. */
function mainDiags(v: Verdict): Array<Diagnostic> {
  let out = new Array<Diagnostic>(0);
  let ds = v.diagnostics;
  for (let i = 0; i < ds.length; i++) {
    let d = ds[i];
    if (d.severity != "note") out.push(d);
  }
  return out;
}

function matchDiagnostics(before: Verdict, after: Verdict): DiagMatch {
  let a = mainDiags(before);
  let b = mainDiags(after);
  let ka = new Array<string>(a.length);
  let kb = new Array<string>(b.length);
  for (let i = 0; i < a.length; i++) ka[i] = diagKey(a[i]);
  for (let i = 0; i < b.length; i++) kb[i] = diagKey(b[i]);
  let usedA = new Array<bool>(a.length);
  let usedB = new Array<bool>(b.length);
  let m = new DiagMatch();
  // Pass 1: same key, nearest line within LINE_SLACK.
  for (let j = 0; j < b.length; j++) {
    let best = -1; let bestD: i64 = LINE_SLACK + 1;
    let lb = b[j].line;
    for (let i = 0; i < a.length; i++) {
      if (usedA[i] || ka[i] != kb[j]) continue;
      let d = absDiff(a[i].line, lb);
      if (d < bestD) { bestD = d; best = i; }
    }
    if (best >= 0) { usedA[best] = true; usedB[j] = true; m.unchanged++; }
  }
  // Pass 2: what is left with the same key pairs up in order: the code above it grew or shrank
  // (lines inserted above shift every later diagnostic of the file by the same amount).
  for (let j = 0; j < b.length; j++) {
    if (usedB[j]) continue;
    for (let i = 0; i < a.length; i++) {
      if (usedA[i] || ka[i] != kb[j]) continue;
      usedA[i] = true; usedB[j] = true; m.unchanged++;
      break;
    }
  }
  // A run that kept only its first MAX_DIAGNOSTICS (the others dropped: a linter's hundreds of findings) says nothing
  // of those past its last kept one: a finding of the other run after the last one matched in it may be among the
  // dropped (pushed past the cap by findings added above it), neither fixed nor new.
  let lastA = -1; let lastB = -1;
  for (let i = 0; i < a.length; i++) if (usedA[i]) lastA = i;
  for (let j = 0; j < b.length; j++) if (usedB[j]) lastB = j;
  let cutA = after.diagnosticsDropped > 0 && lastA >= 0 ? lastA : 0x7FFFFFFF;
  let cutB = before.diagnosticsDropped > 0 && lastB >= 0 ? lastB : 0x7FFFFFFF;
  // Another linter than the one before (pylint, then black --check): the findings of before were not looked for.
  if (otherLinter(a, b)) cutA = -1;
  for (let i = 0; i < a.length; i++) {
    if (usedA[i] || i > cutA) continue;
    if (notRebuilt(a[i], b, after, true)) { m.notRebuilt++; m.notRebuiltGone++; } else m.fixed.push(a[i]);
  }
  for (let j = 0; j < b.length; j++) {
    if (usedB[j] || j > cutB) continue;
    if (notRebuilt(b[j], a, before, false)) m.notRebuilt++; else m.added.push(b[j]);
  }
  return m;
}

/**
 * Both runs found something, each only with Python linters (each reads every file it is given), and no tool of one
 * is a tool of the other: the second ran another linter (pylint, then black --check, then isort --check-only), and
 * what the first found was not looked for. (A run of both that passed the first prints none of its findings: then
 * it is the same tool's run that found nothing, and the findings of before are fixed.)
 */
function otherLinter(a: Array<Diagnostic>, b: Array<Diagnostic>): bool {
  if (a.length == 0 || b.length == 0) return false;
  for (let i = 0; i < a.length; i++) if (!pyLinter(a[i].tool)) return false;
  for (let j = 0; j < b.length; j++) {
    let t = b[j].tool;
    if (!pyLinter(t)) return false;
    for (let i = 0; i < a.length; i++) if (a[i].tool == t) return false;
  }
  return true;
}

function pyLinter(t: string): bool {
  return t == "pylint" || t == "flake8" || t == "ruff" || t == "mypy" || t == "pyright" || t == "pyflakes" || t == "black" || t == "isort" || t == "pydocstyle";
}

/**
 * A run that compiled only part of the code: its build failed (the steps after the failing one never ran), or a
 * build tool said a compile step was up to date (Gradle's `UP-TO-DATE`, make's `Nothing to be done`).
 */
function partial(v: Verdict): bool {
  return v.upToDate || v.statusOr == "build-failed";
}

/**
 * A warning of one run missing from the other (o, its diagnostics other), which printed nothing of its file and
 * either names the sources it compiled (compiled_set: ninja's `Building C object`, make's echo) without this one,
 * or, naming none, compiled only part of the code (partial): it did not compile the file, or compiled it and found
 * it clean — the log cannot tell which, so the warning is neither fixed nor new (an incremental build prints a
 * file's warnings only when it compiles it). Only
 * a compiler's (gcc, clang, javac, rustc: a build runs it file by file, crate by crate, and stops at a failing
 * one); a linter's (ESLint, flake8, go vet…) reads every file however many fail. An error is never so: a build
 * stops at it, and the one fixed is the loop's whole point. javac's warning of no file (its own
 * `[options]` ones, printed by each compile) goes with the compiler's run: in a partial run naming no source it is
 * neither fixed nor new either. A rustc warning gone in a failed build whose file printed only hard errors is not fixed
 * either: rustc lints a crate only once it type-checks.
 */
function notRebuilt(d: Diagnostic, other: Array<Diagnostic>, o: Verdict, gone: bool): bool {
  if (d.severity != "warning") return false;
  let cs = o.compiledSet;
  if (cs === null && !partial(o)) return false;
  let t = d.tool;
  if (t != "gcc" && t != "clang" && t != "javac" && t != "rustc") return false;
  let file = d.file;
  // the compiler's own warning (javac's `[options]`: no file) is printed when it runs at all: in a partial run
  // that names no source, it may not have run
  if (file === null) return t == "javac" && cs === null && partial(o);
  if (cs !== null && compiled(cs, baseName(file!))) return false;
  // rustc runs its late lints (dead_code, unused_*) only on a crate that type-checks: in a failed build, the file's
  // hard errors (an `E0308`: a lint has no code, also one raised to an error by `-D warnings`) do not show its
  // warnings were looked for, so one gone there is not fixed. One printed once the errors are gone may be one from
  // before them or one their edit added: first printed, it stays new.
  let lateLints = gone && t == "rustc" && o.statusOr == "build-failed";
  // Printed now, after a run whose rustc hard errors stopped the crate before its late lints: a warning of a file of
  // that crate (under the error's top directory: `src/` of `src/raw.rs`) was not looked for then, and is new now.
  if (!gone && t == "rustc" && o.statusOr == "build-failed" && besideHardError(file!, other)) return false;
  // Gone in such a run: its crate did not type-check, so its late lints were not run, even in a file that printed
  // early ones (`unexpected cfg condition name`): not fixed, not printed this time.
  if (lateLints && besideHardError(file!, other)) return true;
  for (let i = 0; i < other.length; i++) {
    let x = other[i];
    let f = x.file;
    if (f !== null && f == file && !(lateLints && x.severity == "error" && x.code !== null)) return false;
  }
  return true;
}

/** A rustc hard error (one with a code) in ds is in a file under file's top directory (`src/` of `src/x/y.rs`). */
function besideHardError(file: string, ds: Array<Diagnostic>): bool {
  let slash = file.indexOf("/");
  if (slash <= 0) return false;
  let top = file.substring(0, slash + 1);
  for (let i = 0; i < ds.length; i++) {
    let x = ds[i];
    let f = x.file;
    if (x.severity == "error" && x.code !== null && x.tool == "rustc" && f !== null && f.startsWith(top)) return true;
  }
  return false;
}

class LevelChanges {
  fromFixed: Array<bool> = [];
  fromAdded: Array<bool> = [];
  /** Warnings now errors. */
  raised: i32 = 0;
  /** Errors now warnings. */
  lowered: i32 = 0;
}

/**
 * The fixed and new diagnostics that are one diagnostic whose level changed: a warning gone and an error new
 * (or back) of the same tool, file, message and label, paired in order (lines shift with the edit that
 * changed the level: a `#![deny(warnings)]` line added at the top).
 */
function levelChanges(dm: DiagMatch): LevelChanges {
  let r = new LevelChanges();
  let a = dm.fixed; let b = dm.added;
  r.fromFixed = new Array<bool>(a.length);
  r.fromAdded = new Array<bool>(b.length);
  if (a.length == 0 || b.length == 0) return r;
  let ka = new Array<string>(a.length);
  for (let i = 0; i < a.length; i++) ka[i] = levelFreeKey(a[i]);
  for (let j = 0; j < b.length; j++) {
    let sb = b[j].severity;
    if (sb != "error" && sb != "warning") continue;
    let kb = levelFreeKey(b[j]);
    for (let i = 0; i < a.length; i++) {
      if (r.fromFixed[i]) continue;
      let sa = a[i].severity;
      if (sa == sb || (sa != "error" && sa != "warning") || ka[i] != kb) continue;
      r.fromFixed[i] = true; r.fromAdded[j] = true;
      if (sb == "error") r.raised++; else r.lowered++;
      break;
    }
  }
  return r;
}

function levelFreeKey(d: Diagnostic): string {
  let label = d.label;
  let m = d.tool == "pylint" ? withoutSymbol(d.message).trimEnd() : d.message;
  return d.tool + "\u0001" + d.fileOr + "\u0001" + normMessage(m) + "\u0001" + normMessage(label !== null ? label : "");
}

/**
 * pylint's text format ends a message with its symbol (`Unused import os (unused-import)`), its parseable and JSON
 * formats do not (and JSON keeps a blank the others trim): the message without it, trimmed, so a run under one format
 * and the next under another name the same finding.
 */
function withoutSymbol(m: string): string {
  let n = m.length;
  if (n < 4 || m.charCodeAt(n - 1) != Char.RPAREN) return m;
  let i = n - 2; let dash = false;
  while (i > 0) {
    let c = m.charCodeAt(i);
    if (!(c >= Char.a && c <= Char.z || c == Char.MINUS || isDigit(c))) break;
    if (c == Char.MINUS) dash = true;
    i--;
  }
  // A symbol holds a dash (`unused-import`); a message's own last word in parentheses (`(subprocess)`) is kept.
  if (!dash || m.charCodeAt(i) != Char.LPAREN || i < 1 || m.charCodeAt(i - 1) != Char.SPACE) return m;
  return m.substring(0, i - 1);
}

function failuresOf(v: Verdict): Array<TestFailure> {
  let t = v.tests;
  return t !== null ? t.failures : new Array<TestFailure>(0);
}

/**
 * The index in fs of the failure that is the same test as a, not yet taken, or -1: the same name, and where
 * two share the name (one describe path in two jest files), the one in the same file first.
 */
function sameTest(fs: Array<TestFailure>, taken: Array<bool>, a: TestFailure): i32 {
  let any = -1;
  for (let i = 0; i < fs.length; i++) {
    if (taken[i] || fs[i].name != a.name || !samePkg(fs[i], a) || !sameSubtest(fs[i], a)) continue;
    if (fs[i].fileOr == a.fileOr) return i;
    if (any < 0) any = i;
  }
  return any;
}

/**
 * The failure in fs named as a and in a's file, or null: with a's own pair taken, one more failure of the same
 * test (a test's failing subtests or soft assertions), not a test of its own.
 */
function sameFileNamed(fs: Array<TestFailure>, a: TestFailure): TestFailure | null {
  for (let i = 0; i < fs.length; i++) if (fs[i].name == a.name && fs[i].fileOr == a.fileOr && samePkg(fs[i], a) && sameSubtest(fs[i], a)) return fs[i];
  return null;
}

/** Not two subtests of one test (unittest's `(n=3)` and `(n=8)`): the same one, or one of them not a subtest's. */
function sameSubtest(a: TestFailure, b: TestFailure): bool {
  let p = a.subtest; let q = b.subtest;
  return p === null || q === null || p! == q!;
}

/** A subtest's failure whose test failed now by another of its subtests: the test ran, that subtest passed. */
function subtestRan(fs: Array<TestFailure>, a: TestFailure): bool {
  if (a.subtest === null) return false;
  for (let i = 0; i < fs.length; i++) if (fs[i].name == a.name && fs[i].subtest !== null && samePkg(fs[i], a)) return true;
  return false;
}

/** Not two packages' tests (go: TestParse of geom and of units): the same unit, or one of them not named. */
function samePkg(a: TestFailure, b: TestFailure): bool {
  let p = a.pkg; let q = b.pkg;
  return p === null || q === null || p! == q!;
}

function pkgOf(f: TestFailure): string {
  let p = f.pkg;
  return p !== null ? p! : "";
}

/** How the failing tests of two runs compare. */
class TestMatch {
  fixed: Array<string> = [];
  broken: Array<string> = [];
  still: Array<string> = [];
  /** Still failing, but not the same way: FROM → TO beside each name. */
  changed: Array<string> = [];
  changes: Array<string> = [];
  /** Failed before, not seen now, and the run could not have reached them: never "fixed". */
  notRun: Array<string> = [];
  /** Why the first of notRun was not reached. */
  notRunWhy: string = "";
  /** The files that did not load, the not-run tests' containers (the first named in notRunWhy). */
  unloaded: Array<string> = [];
  /** Of notRun, those no longer in the run (the counts, a rename): the host carries them no further. */
  gone: Array<string> = [];
  /**
   * Failures past the list's bound (MAX_FAILURES: a run counting more failures than it lists): broken when no failure
   * listed before still fails (and none was past it), fixed when nothing fails now; their names are not known.
   */
  brokenMore: i64 = 0;
  fixedMore: i64 = 0;
}

/** How many of v's failing tests (failed and errors) its list leaves out; 0 when it counts none. */
function unlistedFailures(v: Verdict): i64 {
  let t = v.tests;
  if (t === null || t.failed < 0 || t.failures.length < MAX_FAILURES) return 0;
  return max<i64>(0, t.failed + max<i64>(t.errors, 0) - <i64>t.failures.length);
}

/** v ran tests and none failed. */
function noneFailed(v: Verdict): bool {
  let t = v.tests;
  return t !== null && t.failed == 0 && t.errors <= 0 && t.failures.length == 0 && t.passed > 0;
}

/** `a.py did not load`; with the tests of more files than one: `a.py and 2 more files did not load`. */
function notRunWhy(tm: TestMatch): string {
  let u = tm.unloaded;
  if (u.length < 2 || !tm.notRunWhy.startsWith(u[0])) return tm.notRunWhy;
  let more = u.length - 1;
  return u[0] + " and " + more.toString() + (more == 1 ? " more file" : " more files") + " did not load";
}

function matchTests(before: Verdict, cur: Verdict, first: bool): TestMatch {
  let m = new TestMatch();
  let fa = failuresOf(before); let fb = failuresOf(cur);
  let why = testsUnreachedBy(cur);
  let taken = new Array<bool>(fb.length);
  let go = runnerOf(before) == "go-test" && runnerOf(cur) == "go-test";
  let doc = runnerOf(before) == "doctest" && runnerOf(cur) == "doctest";
  let gone = new Array<TestFailure>(0); let goneNames = new Array<string>(0);
  for (let i = 0; i < fa.length; i++) {
    let name = shownName(fa[i], fa, fb);
    let j = sameTest(fb, taken, fa[i]);
    let now: TestFailure | null = j >= 0 ? fb[j] : sameFileNamed(fb, fa[i]);
    let kin = false;
    if (now === null && go) { j = subtestKin(fb, taken, fa[i]); if (j >= 0) { now = fb[j]; kin = true; } }
    if (now === null && doc) { j = editedExample(fa, fb, taken, fa[i]); if (j >= 0) now = fb[j]; }
    if (j >= 0) taken[j] = true;
    if (now !== null) {
      m.still.push(name);
      // A parent that says nothing of its own (its subtests' lines are not in the log) is no change of message.
      let quiet = kin && (factText(now.message).length == 0 || factText(fa[i].message).length == 0);
      // A failure that says nothing now (no message, no place: a -v `... FAIL` line of a run cut before its report)
      // is no change of the one before.
      if (factText(now.message).length == 0 && now.fileOr.length == 0) quiet = true;
      // The same message, one of the two runs naming no place (Django's parallel runner printed the exception alone,
      // without its traceback): no change of place either.
      if ((now.fileOr.length == 0) != (fa[i].fileOr.length == 0) && unqualified(factText(now.message)) == unqualified(factText(fa[i].message))) quiet = true;
      let change: string | null = quiet ? null : failureChange(fa[i], now!);
      if (change !== null) { m.changed.push(name); m.changes.push(change); }
      continue;
    }
    // Not failing now: fixed only when this run ran it. A run that never got to the tests (the build
    // failed, it was stopped) or whose test file did not load did not: not run. A run that printed no
    // test results at all (a check script silent on success) says neither: the test is in no list.
    // Listed as passed by a run that then stopped (go test -v before a panic): it ran, and passed.
    // So is one the run's list of passes names (pytest -v's `PASSED` lines before a crash or an interrupt that
    // left other tests unreached): the list says it ran, whatever stopped the run after it.
    if (passedListed(cur, fa[i].name) || inPassedSet(cur, fa[i]) || subtestRan(fb, fa[i])) { m.fixed.push(name); continue; }
    // pytest: a file that did not load (its collection error, named by its path) whose tests report now loaded.
    if (loadedNow(cur, fa[i], fb) || progressNamed(cur, fa[i])) { m.fixed.push(name); continue; }
    // unittest: a class's (module's) setUpClass or tearDownClass (…Module) that failed, where a test of it ran now.
    if (fixtureRan(cur, fa[i])) { m.fixed.push(name); continue; }
    // pytest stopped early both times (-x, --maxfail) over the same tests: this run got at least as far, so the tests
    // the run before reached, this one among them, ran again.
    if (reachedAgain(before, cur, fa[i])) { m.fixed.push(name); continue; }
    // Skipped now (`xit`, `@pytest.mark.skip`): the run names it among its skipped tests; it did not run.
    // Carried no further (gone): its state is known, a later run that skips it again does not say so again.
    if (inSkippedSet(cur, fa[i])) { if (m.notRun.length == 0) m.notRunWhy = "skipped now"; m.notRun.push(name); m.gone.push(name); continue; }
    // Its target ran to its end (cargo -q stopped after it): it ran, unless it is there no more (renamed, removed).
    if (inStoppedTarget(cur, fa[i])) { gone.push(fa[i]); goneNames.push(name); continue; }
    let container = containerOf(fa[i], fb);
    let reason: string | null = container !== null ? container + " did not load" : why !== null && !otherPackage(cur, fa[i]) && !builtPackage(cur, fa[i]) ? why : unlisted(before, cur, fa[i]);
    if (reason !== null) {
      if (m.notRun.length == 0) m.notRunWhy = reason;
      if (container !== null && !m.unloaded.includes(container)) m.unloaded.push(container);
      m.notRun.push(name);
    } else if (cur.tests !== null) { gone.push(fa[i]); goneNames.push(name); }
  }
  // Not failing now, and nothing says the run ran them: renamed (the same failure under a new name: not run), or
  // passed as far as the counts allow (fixed); else gone from the run (not run).
  let t = cur.tests;
  let kept = t !== null && t.passedSet === null ? renamed(m, gone, goneNames, fa, fb) : goneNames;
  for (let i = 0; i < fb.length; i++) if (!taken[i] && sameFileNamed(fa, fb[i]) === null) m.broken.push(shownName(fb[i], fa, fb));
  let gw = kept.length > 0 ? goneWhy(before, cur, kept.length, m.broken.length) : null;
  // The run deselected some (pytest -k): those may be among them, not run and not gone (carried to the next run).
  let desel = t !== null && gw !== null ? t.deselected : 0;
  if (desel > 0) gw = desel.toString() + " deselected";
  for (let i = 0; i < kept.length; i++) {
    // A unittest class or module fixture (`mod.C.setUpClass`) is no test the counts hold: its tests were never
    // counted while it failed, so the passes say nothing of it.
    if (gw === null || classFixture(kept[i])) { m.fixed.push(kept[i]); continue; }
    if (m.notRun.length == 0) m.notRunWhy = gw!;
    m.notRun.push(kept[i]);
    if (desel == 0) m.gone.push(kept[i]);
  }
  if (!first) {
    // Every failure listed before is gone (fixed, not run): those past the list now are new too.
    if (unlistedFailures(cur) > 0 && unlistedFailures(before) == 0 && m.still.length == 0 && before.tests !== null) m.brokenMore = unlistedFailures(cur);
    if (unlistedFailures(before) > 0 && noneFailed(cur)) m.fixedMore = unlistedFailures(before);
  }
  if (first) { m.broken = []; m.still = []; m.changed = []; m.changes = []; }
  return m;
}

/**
 * A Python exception's message without its class's module (`shop.tests.PriceError: x` is `PriceError: x`, as the
 * exception's repr names it); any other message as it is.
 */
function unqualified(m: string): string {
  let k = m.indexOf(": ");
  if (k <= 0) return m;
  let head = m.substring(0, k);
  if (head.indexOf(" ") >= 0) return m;
  let dot = head.lastIndexOf(".");
  return dot > 0 ? m.substring(dot + 1) : m;
}

/**
 * The failing tests of before that no failure of this run names and no list of it says ran (gone): one whose
 * failure this run reports under another name — the same message and values at the same file and line, in a
 * test not failing before (of several such, the one whose name starts the most like it, if only one) — was renamed: not run ("renamed to Y"), and Y broken, as a run that lists its passes says.
 * Returns the names of the others.
 */
function renamed(m: TestMatch, gone: Array<TestFailure>, names: Array<string>, fa: Array<TestFailure>, fb: Array<TestFailure>): Array<string> {
  // For each new failure, the gone test whose failure is the same (place, message, values); where several are (a
  // helper's assertion line many tests fail at), the one whose name shares the longest start with the new name
  // (a rename keeps its suite), when only one does. A gone test so chosen by two new failures is none's.
  let pick = new Array<i32>(gone.length);
  for (let i = 0; i < gone.length; i++) pick[i] = -1;
  for (let k = 0; k < fb.length; k++) {
    let b = fb[k];
    if (sameFileNamed(fa, b) !== null) continue;
    let best = -1; let bestLen = -1; let tie = false;
    for (let i = 0; i < gone.length; i++) {
      let a = gone[i];
      if (factText(a.message).length == 0 || a.fileOr.length == 0 || a.line < 0 || !samePkg(a, b) || !sameFailure(a, b)) continue;
      let n = commonStart(a.name, b.name);
      if (n > bestLen) { best = i; bestLen = n; tie = false; } else if (n == bestLen) tie = true;
    }
    if (best < 0 || tie) continue;
    pick[best] = pick[best] == -1 ? k : -2;
  }
  let kept = new Array<string>(0);
  for (let i = 0; i < gone.length; i++) {
    let j = pick[i];
    if (j < 0) { kept.push(names[i]); continue; }
    if (m.notRun.length == 0) m.notRunWhy = "renamed " + shownName(fb[j], fa, fb);
    m.notRun.push(names[i]);
    m.gone.push(names[i]);
  }
  return kept;
}

function commonStart(a: string, b: string): i32 {
  let n = min(a.length, b.length); let i = 0;
  while (i < n && a.charCodeAt(i) == b.charCodeAt(i)) i++;
  return i;
}

/** The same failure: the same place, message and expected/actual values. */
function sameFailure(a: TestFailure, b: TestFailure): bool {
  return b.fileOr == a.fileOr && b.line == a.line && factText(b.message) == factText(a.message)
    && factText(a.expected) == factText(b.expected) && factText(a.actual) == factText(b.actual);
}

/**
 * Why n tests that failed before, are in no failure now and in no list of passes, did not pass: a runner that
 * names no passing test (pytest -q, jest's and vitest's default reporters, cargo test -q, RSpec, PHPUnit) still
 * counts them (the run before may have listed them: unittest -v, then -f without it). Its passed count rose by at most (passed now - passed before) + broken (a broken test may have
 * passed before): when that is not above zero none of them passed — removed, skipped or deselected. null when
 * they may have passed (fixed), or the counts do not say.
 */
function goneWhy(before: Verdict, cur: Verdict, n: i32, broken: i32): string | null {
  // The run before may have listed its tests (unittest -v, then -f without it): its counts are as good as a quiet run's.
  if (!countsCompare(before, cur) || cur.tests!.passedSet !== null) return null;
  let a = before.tests!; let b = cur.tests!;
  // pytest --lf ran again as many tests as failed before, and only them: those not failing now passed.
  if (b.rerunFailed > 0 && b.rerunFailed == a.failed + a.errors) return null;
  // pytest's xfailed: an `[XPASS(strict)]` failure fixed is one of them now, no pass.
  if (b.passed + b.xfailed - a.passed - a.xfailed + <i64>broken > 0) return null;
  let ta = a.passed + a.failed + a.errors + a.skipped; let tb = b.passed + b.failed + b.errors + b.skipped;
  // As many more skipped as are gone, the run's total the same: they were skipped (a skip mark added).
  if (tb == ta && b.skipped - a.skipped >= <i64>n) return "skipped now";
  if (tb < ta) return ta.toString() + " tests before, " + tb.toString() + " now";
  return a.passed.toString() + " passed before, " + b.passed.toString() + " now";
}

/** Both runs have tests of the same runner, their passes counted (go test without -v counts none): their counts compare. */
function countsCompare(before: Verdict, cur: Verdict): bool {
  let a = before.tests; let b = cur.tests;
  return a !== null && b !== null && a.runner == b.runner && a.passed >= 0 && b.passed >= 0;
}

/**
 * `tests: 4 → 5 passed`: neither run failed a test, and they passed another number of them (a test added, or
 * removed, skipped, deselected), with the same runner and both counts known; else null. No failing test names
 * that change, and "no change" would hide it.
 */
function passedChange(before: Verdict, cur: Verdict): string | null {
  if (!countsCompare(before, cur)) return null;
  let a = before.tests!; let b = cur.tests!;
  if (a.passed == b.passed) return null;
  if (a.failed + a.errors != 0 || b.failed + b.errors != 0 || b.passed == 0) return null;
  return "tests: " + a.passed.toString() + " → " + b.passed.toString() + " passed";
}

/**
 * `counts_changed`: the tests each run ran (passed, failed, errors) and passed, for a change no name says (a run
 * before with no tests at all ran none).
 */
function writeCountsChanged(w: JsonWriter, a: Tests | null, b: Tests): void {
  w.field("counts_changed");
  w.beginObject();
  w.int("ran_before", a === null ? 0 : a.passed + a.failed + a.errors);
  w.int("ran_after", b.passed + b.failed + b.errors);
  w.int("passed_before", a === null ? 0 : a.passed);
  w.int("passed_after", b.passed);
  w.endObject();
}

/**
 * `tests: 101 passed (none before)`: the run before ran no test at all (another tool's pass under the same command: a
 * linter, `python -X importtime`, a build) and this one passed some, none failing; else null. "no change" would hide it.
 */
function firstPasses(before: Verdict, cur: Verdict): string | null {
  let b = cur.tests;
  if (before.tests !== null || b === null || b.passed <= 0 || max<i64>(b.failed, 0) + max<i64>(b.errors, 0) != 0) return null;
  return "tests: " + b.passed.toString() + " passed (none before)";
}

/**
 * How many tests the run before ran when this one ran none (a discovery pattern or `-k` that matches nothing, the
 * tests moved out of the runner's sight: `Ran 0 tests`, `OK`), with the same runner and both counts known; else -1.
 */
function noneRanOf(before: Verdict, cur: Verdict): i64 {
  if (!countsCompare(before, cur)) return -1;
  let a = before.tests!; let b = cur.tests!;
  let ran = a.passed + a.failed + a.errors;
  return ran > 0 && b.passed + b.failed + b.errors == 0 ? ran : -1;
}

/**
 * pytest names a file that did not load by its path (`ERROR collecting test_x.py`: `test_x.py`); a failure of this run
 * named under it (`test_x.py::test_y`) says the file loaded, whatever stopped the run after (-x).
 */
function loadedNow(cur: Verdict, f: TestFailure, fb: Array<TestFailure>): bool {
  let name = f.name;
  if (runnerOf(cur) != "pytest" || name.includes("::")) return false;
  let n = name.length;
  for (let i = 0; i < fb.length; i++) {
    let b = fb[i].name;
    if (b.length > n + 2 && b.startsWith(name) && b.charCodeAt(n) == Char.COLON && b.charCodeAt(n + 1) == Char.COLON) return true;
  }
  return false;
}

/** pytest: a file named by its path (its collection error before) whose results a progress line of this run printed. */
function progressNamed(cur: Verdict, f: TestFailure): bool {
  let t = cur.tests;
  if (t === null || t.loadedSet === null || runnerOf(cur) != "pytest" || f.name.includes("::")) return false;
  return t.loadedSet!.includes(nameHash(f.name));
}

/**
 * unittest names a class or module fixture's error by its class or module (`ERROR: setUpClass (mod.Class)`:
 * `mod.Class.setUpClass`); -v's list of this run (tests.passedSet, the classes and modules of the tests it passed too)
 * naming that class says the fixture ran: its tests ran after setUpClass, tearDownClass after them, and a fixture
 * failing again is this run's failure, named as before.
 */
function fixtureRan(cur: Verdict, f: TestFailure): bool {
  let t = cur.tests;
  if (t === null || t.runner != "unittest" || t.passedSet === null) return false;
  let name = f.name;
  let dot = name.lastIndexOf(".");
  if (dot <= 0) return false;
  let m = name.substring(dot + 1);
  if (m != "setUpClass" && m != "tearDownClass" && m != "setUpModule" && m != "tearDownModule") return false;
  return t.passedSet!.includes(nameHash(name.substring(0, dot)));
}

/** unittest's name of a class or module fixture's error: `mod.C.setUpClass`, `mod.tearDownModule`. */
function classFixture(name: string): bool {
  return name.endsWith(".setUpClass") || name.endsWith(".tearDownClass") || name.endsWith(".setUpModule") || name.endsWith(".tearDownModule");
}

/**
 * pytest runs its tests in the order it collected them, and -x / --maxfail stops after the last failure: the tests a
 * stopped run reached are the first of them. Two such runs over as many collected tests (the same collection) where
 * this one reached at least as many: every test the one before reached (f, which failed in it) ran in this one.
 */
function reachedAgain(before: Verdict, cur: Verdict, f: TestFailure): bool {
  let a = before.tests; let b = cur.tests;
  if (a === null || b === null || a.runner != "pytest" || b.runner != "pytest" || !f.name.includes("::")) return false;
  if (a.notRun <= 0 || b.notRun < 0 || a.passedSet !== null || b.passedSet !== null) return false;
  let ranA = a.passed + a.failed + a.errors + a.skipped + a.xfailed;
  let ranB = b.passed + b.failed + b.errors + b.skipped + b.xfailed;
  return ranA + a.notRun == ranB + b.notRun && ranB >= ranA;
}

/**
 * go test: a failure of a package that is none of the run's unfinished ones (a panic or an exit ended another
 * package's binary): those packages do not stand for it, its own result line says how it went.
 */
function otherPackage(cur: Verdict, f: TestFailure): bool {
  let t = cur.tests;
  if (t === null || t.runner != "go-test" || t.unfinished.length == 0 || unreachedBy(cur) !== null) return false;
  let p = f.pkg;
  return p !== null && p!.length > 0 && !t.unfinished.includes(p!);
}

/**
 * go test: the run's build failed (another package's), but the failure's own package ran to its result line
 * (pkgRan): its result says how the test went, as in a run where every package built.
 */
function builtPackage(cur: Verdict, f: TestFailure): bool {
  let p = f.pkg;
  return cur.statusOr == "build-failed" && p !== null && p!.length > 0 && pkgRan(cur, p!);
}

/**
 * go test: package pkg ran to its result line in this run, and no panic or exit ended its binary: the run's list
 * names it (-v, -json), or a failure of this run is one of its (its tests ran, whatever others did not build).
 */
function pkgRan(cur: Verdict, pkg: string): bool {
  let t = cur.tests;
  if (t === null || t.runner != "go-test" || t.unfinished.includes(pkg)) return false;
  let ps = t.passedSet;
  if (ps !== null && ps.includes(testHash(pkg, pkg))) return true;
  let fs = t.failures;
  for (let i = 0; i < fs.length; i++) { let q = fs[i].pkg; if (q !== null && q! == pkg) return true; }
  return false;
}

function runnerOf(v: Verdict): string {
  let t = v.tests;
  return t !== null ? t.runner : "";
}

/**
 * The failure in fs that is the go subtest or the parent of the test named `name` (`TestX/case`, `TestX`),
 * one not taken first, or -1. go test fails a test whose subtest fails, and the verdict names the subtest;
 * a test that fails before its subtests run (a panic) is named by itself: the same test still failing, never
 * one fixed and another broken.
 */
function subtestKin(fs: Array<TestFailure>, taken: Array<bool>, f: TestFailure): i32 {
  let any = -1; let name = f.name;
  for (let i = 0; i < fs.length; i++) {
    if (!samePkg(fs[i], f)) continue;
    let o = fs[i].name;
    if (!(isSubtestOf(o, name) || isSubtestOf(name, o))) continue;
    if (!taken[i]) return i;
    if (any < 0) any = i;
  }
  return any;
}

/**
 * python -m doctest names a failing example by its item and its source (`README.md: print(f(1))`): the example of
 * f's item failing now at the same file and line under another source, no failure of before, is that example edited
 * (still failing), not one fixed and another broken. -1 when there is none.
 */
function editedExample(fa: Array<TestFailure>, fb: Array<TestFailure>, taken: Array<bool>, f: TestFailure): i32 {
  if (f.line < 0 || f.fileOr.length == 0) return -1;
  let sep = f.name.indexOf(": ");
  if (sep <= 0) return -1;
  for (let k = 0; k < fb.length; k++) {
    let b = fb[k];
    if (taken[k] || b.line != f.line || b.fileOr != f.fileOr) continue;
    if (b.name.length <= sep + 2 || b.name.indexOf(": ") != sep || b.name.substring(0, sep) != f.name.substring(0, sep)) continue;
    if (sameFileNamed(fa, b) !== null) continue;
    return k;
  }
  return -1;
}

/** `TestX/case` under `TestX` (at any depth: `TestX/a/b`). */
function isSubtestOf(sub: string, parent: string): bool {
  let n = parent.length;
  return n > 0 && sub.length > n + 1 && sub.startsWith(parent) && sub.charCodeAt(n) == Char.SLASH;
}

/**
 * How the delta names a failing test: by its name, and its unit too (`TestParse (example.com/shapes/geom)`)
 * when a test of another unit in either run has the same name, so the lists say which one was fixed.
 */
function shownName(f: TestFailure, a: Array<TestFailure>, b: Array<TestFailure>): string {
  let s = f.subtest;
  if (s !== null) return f.name + " " + s!;
  let p = f.pkg;
  if (p === null) return f.name;
  if (!otherUnit(f, a) && !otherUnit(f, b)) return f.name;
  return f.name + " (" + p! + ")";
}

function otherUnit(f: TestFailure, fs: Array<TestFailure>): bool {
  for (let i = 0; i < fs.length; i++) if (fs[i].name == f.name && !samePkg(fs[i], f)) return true;
  return false;
}

/**
 * Why a test that failed before is not in the run's lists, when the run (its runner the same) lists every test
 * it ran by name (tests.passedSet: mocha's spec tree, cargo test, pytest -v, go test -v, jest --verbose, vitest's
 * verbose reporter, GoogleTest, CTest, Unity, node --test's spec reporter and TAP, unittest -v): it did not run
 * (mocha --bail stopped first; renamed, removed, deselected; a crash ended its program: then that is the why).
 * null when the run keeps no such list, or the name is a hook's (`"before each" hook for "x"`: no test of its own).
 */
function unlisted(before: Verdict, cur: Verdict, f: TestFailure): string | null {
  let t = cur.tests;
  if (t === null) return null;
  if (t.passedSet === null) return null;
  let name = f.name;
  // A crash ended the program the tests run in: what it did not list did not run, as in a run without a list.
  let crash = crashStop(cur);
  if (crash !== null) return crash;
  if (runnerOf(before) != t.runner || name.includes("\" hook")) return null;
  // go's `(panic)` outside any test is no test a list names. (A unit's own failure, named by the unit: a go
  // package's, a jest file's that did not load, is listed when the run named the unit.)
  if (t.runner == "go-test" && name.startsWith("(")) return null;
  // pytest lists ids (`test_x.py::test_y`); a failure named otherwise (`--tb=line`'s bare function) is not comparable.
  if (t.runner == "pytest" && !name.includes("::")) return null;
  // node --test names a test file that failed as a whole (it did not load, or threw after its tests) by its
  // path (`not ok 1 - /w/test/x.test.js`, spec's `✖ /w/test/x.test.js`), and names no file it ran: not comparable.
  if ((t.runner == "tap" || t.runner == "node-test" || t.runner == "ava") && isScriptPath(name)) return null;
  // vitest's error no test caught (`Uncaught Exception in x.test.ts`) is the run's, in no list of tests.
  if (t.runner == "vitest" && (name.startsWith("Uncaught Exception") || name.startsWith("Unhandled Rejection") || name.startsWith("Unhandled Error"))) return null;
  return "not in the run's list";
}

/**
 * True when cargo stopped after the failing target that f is a test of (`cargo test -q` names each failure by
 * its target, `--lib`): that target ran to its end, so f ran.
 */
function inStoppedTarget(cur: Verdict, f: TestFailure): bool {
  let t = cur.tests;
  if (t === null || t.runner != "cargo-test" || t.unfinished.length == 0) return false;
  // It died in it (a stack overflow, a signal): the tests after that one never ran.
  if (t.notRun > 0) return false;
  let p = f.pkg;
  return p !== null && p! == t.unfinished[0].replaceAll("`", "");
}

/** True when the run's list of passed tests (tests.passedSet) names the test f. */
function inPassedSet(cur: Verdict, f: TestFailure): bool {
  let t = cur.tests;
  return t !== null && listed(t, t.passedSet, f);
}

/** True when the run names the test f among its skipped ones (tests.skippedSet). */
function inSkippedSet(cur: Verdict, f: TestFailure): bool {
  let t = cur.tests;
  return t !== null && listed(t, t.skippedSet, f);
}

/**
 * Whether hs, a list of t's tests, names f. Keyed by its unit too (go's package, cargo's crate, the test file;
 * Unity's: the program's file its result lines name, a failure's file): the same name in another unit is another
 * test. A test the log named no unit for (a go log cut before its package's line) is keyed by its name alone.
 */
function listed(t: Tests, hs: Array<u32> | null, f: TestFailure): bool {
  if (hs === null) return false;
  let unit = t.runner == "unity" ? f.fileOr : pkgOf(f);
  return hs.includes(testHash(unit, f.name)) || hs.includes(testHash("", f.name));
}

/** `/w/test/x.test.js`, `./test/y.test.mjs`: a path (no blank) ending in a JavaScript or TypeScript file's extension. */
function isScriptPath(name: string): bool {
  if (name.includes(" ")) return false;
  let dot = name.lastIndexOf(".");
  if (dot < 0 || dot < name.lastIndexOf("/")) return false;
  let ext = name.substring(dot + 1);
  return ext == "js" || ext == "mjs" || ext == "cjs" || ext == "ts" || ext == "mts" || ext == "cts" || ext == "jsx" || ext == "tsx";
}

function passedListed(v: Verdict, name: string): bool {
  let t = v.tests;
  return t !== null && t.unfinishedPassed.includes(name);
}

function sameFrame(a: Frame | null, b: Frame | null): bool {
  if (a === null || b === null) return a === b;
  if (a.fileOr != b.fileOr) return false;
  if (fnOf(a) != fnOf(b)) return false;
  return absDiff(a.line, b.line) <= LINE_SLACK;
}

/**
 * go test: the package a go panic's first user frame is in (`example.com/m/geom.Parse.func1`: example.com/m/geom)
 * ran to its result line in this run (pkgRan). A build failure in another package left it to run: its crash
 * gone, not "not reached (build failed)".
 */
function ranAgain(c: Crash, cur: Verdict): bool {
  let u = c.firstUserFrame;
  if (c.tool != "go-panic" || cur.statusOr != "build-failed" || u === null || u.fn === null) return false;
  let fn = u.fn!;
  let dot = fn.indexOf(".", fn.lastIndexOf("/") + 1);
  if (dot <= 0) return false;
  return pkgRan(cur, fn.substring(0, dot));
}

function fnOf(f: Frame): string { let s = f.fn; return s !== null ? s : ""; }

function crashChange(before: Verdict, after: Verdict): string {
  let a = before.crash; let b = after.crash;
  if (a === null && b === null) return "none";
  // A crash a run could not have reached (the build failed first, the run was stopped) is not gone.
  if (b === null) return unreachedBy(after) !== null && !ranAgain(a!, after) ? "not-reached" : "gone";
  if (a === null) return "new";
  if (a.tool != b.tool || a.kind != b.kind) return "new";
  // The crash state names the bug by its message and top frames (crash-state.ts): another state is another
  // place. The same state is the same crash only when its first user frame stayed within LINE_SLACK lines too
  // (the state has no line numbers). A verdict written before the state existed is compared by the frame alone.
  // A data race is reported at whichever of its two accesses came second: the pair seen from its other side
  // (this run's access the last one's other, and the other way round) is the same race.
  if (otherSide(a, b)) return "same";
  let sa = a.state; let sb = b.state;
  if (sa !== null && sb !== null && !sameState(sa, sb)) return "moved";
  if (!sameFrame(a.firstUserFrame, b.firstUserFrame)) return "moved";
  // Same kind, same place: the same crash only when its facts are (a WRITE that became a READ, an index
  // [11] that became [10], is the edit at work).
  return crashFactsChange(a, b) !== null ? "changed" : "same";
}

/** `count x.go:16 → countLater x.go:16`: the first of the two stacks' user frames that differ, or null. */
function callerMoved(a: Crash, b: Crash): string | null {
  let i = 0; let j = 0;
  let fa = a.frames; let fb = b.frames;
  while (true) {
    while (i < fa.length && !fa[i].user) i++;
    while (j < fb.length && !fb[j].user) j++;
    if (i >= fa.length || j >= fb.length) return null;
    if (!sameFrame(fa[i], fb[j])) return frameShort(fa[i]) + " → " + frameShort(fb[j]);
    i++; j++;
  }
  return null;
}

function otherSide(a: Crash, b: Crash): bool {
  let ao = a.otherFrames; let bo = b.otherFrames;
  if (ao.length == 0 || bo.length == 0) return false;
  return sameFrames(a.frames, bo) && sameFrames(ao, b.frames) && !sameFrames(a.frames, b.frames);
}

/** Two stacks frame by frame (each within LINE_SLACK lines). */
function sameFrames(a: Array<Frame>, b: Array<Frame>): bool {
  if (a.length != b.length) return false;
  for (let i = 0; i < a.length; i++) if (!sameFrame(a[i], b[i])) return false;
  return true;
}

function sameState(a: Array<string>, b: Array<string>): bool {
  if (a.length != b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] != b[i]) return false;
  return true;
}

/** `fn file:line`; what is unknown is left out (never `?`). */
function frameShort(f: Frame | null): string {
  if (f === null) return "no user frame";
  let file = f.fileOr;
  let m = f.module;
  let s = file.length > 0 ? file : (m !== null ? m : "");
  let line = f.line;
  if (line >= 0 && s.length > 0) s += ":" + line.toString();
  let fn = fnOf(f);
  if (fn == "??") fn = "";
  if (fn.length == 0) return s.length > 0 ? s : "an unknown frame";
  return s.length > 0 ? fn + " " + s : fn;
}

function plural(n: i32, one: string, many: string): string { return n.toString() + " " + (n == 1 ? one : many); }

function frameOrUnknown(f: Frame | null): Frame { return f !== null ? f : new Frame(); }

function writeNames(w: JsonWriter, key: string, xs: Array<string>): void {
  w.field(key);
  w.beginArray();
  for (let i = 0; i < xs.length && i < MAX_LISTED; i++) w.strItem(xs[i]);
  w.endArray();
}

/**
 * prev/cur: verdict JSON (prev may be empty: first run). treeChanged: 1 changed, 0 unchanged, -1 unknown.
 * sameRuns: how many runs in a row, this one included, had this verdict (the host counts from history).
 */
export function writeDelta(out: Sink, prevPtr: usize, prevLen: i32, curPtr: usize, curLen: i32, treeChanged: i32, sameRuns: i32): bool {
  let cur = readVerdict(curPtr, curLen);
  if (cur === null) { out.str("{\"error\":"); out.jstr("current verdict: " + readError); out.str("}"); return false; }
  let prev = readPrevious(out, prevPtr, prevLen);
  if (prev === null && prevLen > 0) return false;
  writeDeltaOf(out, prev, cur, treeChanged, sameRuns);
  return true;
}

/**
 * The previous verdict (prevLen bytes of JSON; 0: a first run, null). null with prevLen > 0: it could not be
 * read, and out holds {"error": ...}.
 */
export function readPrevious(out: Sink, prevPtr: usize, prevLen: i32): Verdict | null {
  if (prevLen <= 0) return null;
  let prev = readVerdict(prevPtr, prevLen);
  if (prev === null) { out.str("{\"error\":"); out.jstr("previous verdict: " + readError); out.str("}"); }
  return prev;
}

/** writeDelta() on verdicts already read (prev null: a first run); returns the delta's summary. */
export function writeDeltaOf(out: Sink, prev: Verdict | null, cur: Verdict, treeChanged: i32, sameRuns: i32): string {
  let w = new JsonWriter(out);
  w.beginObject();
  w.str("schema", "sbx.delta/1");
  let first = prev === null;
  w.bool("first_run", first);
  let before = first ? new Verdict() : prev!;
  w.field("status");
  w.beginObject();
  w.str("before", first ? null : before.statusOr);
  w.str("after", cur.statusOr);
  w.endObject();

  // Two verdicts without diagnostics (tests) match none: the matcher is not called, as a fresh process
  // compiles each Wasm function at its first call (a passing run after a passing run compiles neither).
  let dm = before.diagnostics.length == 0 && cur.diagnostics.length == 0 ? new DiagMatch() : matchDiagnostics(before, cur);
  w.field("diagnostics");
  w.beginObject();
  w.field("fixed"); w.beginArray();
  for (let i = 0; i < dm.fixed.length && i < MAX_LISTED; i++) { w.item(); writeDiagnostic(w, dm.fixed[i], false); }
  w.endArray();
  w.field("new"); w.beginArray();
  for (let i = 0; i < dm.added.length && i < MAX_LISTED; i++) { w.item(); writeDiagnostic(w, dm.added[i], false); }
  w.endArray();
  w.int("unchanged", dm.unchanged);
  w.int("fixed_count", dm.fixed.length);
  w.int("new_count", dm.added.length);
  if (dm.notRebuilt > 0) w.int("not_rebuilt", dm.notRebuilt);
  w.endObject();

  let tm = before.tests === null && cur.tests === null ? new TestMatch() : matchTests(before, cur, first);
  let statusSame = !first && before.statusOr == cur.statusOr;
  // The runs' test counts, when they changed and no name says so (none ran now; the passes another number).
  let none = first || tm.notRun.length > 0 || tm.fixed.length > 0 ? -1 : noneRanOf(before, cur);
  let pc: string | null = null;
  if (none <= 0 && !first && statusSame && tm.fixed.length == 0 && tm.broken.length == 0 && tm.notRun.length == 0 && tm.still.length == 0) {
    pc = passedChange(before, cur);
    if (pc === null) pc = firstPasses(before, cur);
  }
  w.field("tests");
  w.beginObject();
  writeNames(w, "fixed", tm.fixed);
  writeNames(w, "broken", tm.broken);
  writeNames(w, "still_failing", tm.still);
  writeNames(w, "changed", tm.changed);
  writeNames(w, "not_run", tm.notRun);
  if (tm.gone.length > 0) writeNames(w, "gone", tm.gone);
  // Past the list's bound: how many more, unnamed.
  if (tm.fixedMore > 0) w.int("fixed_unlisted", tm.fixedMore);
  if (tm.brokenMore > 0) w.int("broken_unlisted", tm.brokenMore);
  if (none > 0 || pc !== null) writeCountsChanged(w, before.tests, cur.tests!);
  w.endObject();

  let crash = first ? (cur.crash !== null ? "new" : "none") : before.crash === null && cur.crash === null ? "none" : crashChange(before, cur);
  w.str("crash", crash);
  w.field("crash_moved");
  if (crash == "moved") {
    w.beginObject();
    // A side without a user frame is written as an unknown frame, not null.
    w.field("from"); writeFrame(w, frameOrUnknown(before.crash!.firstUserFrame));
    w.field("to"); writeFrame(w, frameOrUnknown(cur.crash!.firstUserFrame));
    w.endObject();
  } else w.value("null");

  // Both runs failed before the command did anything, for different reasons (another tool missing, another
  // parse error in the manifest): the edit changed something, though no diagnostic or test says so.
  let setupChanged = statusSame && before.setupError !== null && cur.setupError !== null && before.setupError != cur.setupError;
  if (setupChanged) w.bool("setup_error_changed", true);
  // Changes no diagnostic, test or crash of the match above names, each a part of the summary.
  let also = new Array<string>(0);
  // Its words are the verdict's `setup:` line, just above the delta's: said once.
  if (setupChanged) also.push("setup error changed");
  if (none > 0) also.push("tests: none ran (" + none.toString() + " before)");
  else if (pc !== null) also.push(pc!);
  // Nothing changed: the verdict's facts are equal, not only its names (a test that fails another way,
  // a crash that reads another address, is a change).
  let nothing = statusSame && (crash == "same" || crash == "none") && dm.fixed.length == 0 && dm.added.length == 0
    && tm.fixed.length == 0 && tm.broken.length == 0 && tm.changed.length == 0 && tm.notRun.length == 0 && also.length == 0;
  let noOp = !first && nothing && treeChanged == 1;
  w.bool("no_op_edit", noOp);
  w.intOrNull("tree_changed", treeChanged < 0 ? -1 : treeChanged);
  w.field("repeat");
  w.beginObject();
  w.int("same_verdict_runs", max(sameRuns, 1));
  w.endObject();
  let summary = summarize(first, before, cur, crash, dm, tm, noOp, nothing, nothing && treeChanged == 0, treeChanged == 0, also, sameRuns);
  w.str("summary", summary);
  w.endObject();
  return summary;
}

function summarize(first: bool, before: Verdict, cur: Verdict, crash: string, dm: DiagMatch, tm: TestMatch,
  noOp: bool, nothing: bool, idle: bool, idleTree: bool, also: Array<string>, sameRuns: i32): string {
  if (first) return "first run";
  if (noOp) {
    if (crash == "same") return "no change — your edit did not affect the crash (" + crashAt(cur) + ")" + streak(sameRuns);
    return "no change — your edit did not change the result (" + cur.statusOr + ")" + streak(sameRuns);
  }
  // Nothing edited since the last run and the same verdict: say so, so that nobody reads it as
  // "your edit did not help".
  if (idle) {
    if (crash == "same") return "no change — nothing changed since the last run (" + crashAt(cur) + ")" + streak(sameRuns);
    return "no change — nothing changed since the last run (" + cur.statusOr + ")" + streak(sameRuns);
  }
  return changes(before, cur, crash, dm, tm, nothing, idleTree, also, sameRuns);
}

/** "KIND at FRAME" of the verdict's crash. */
function crashAt(v: Verdict): string {
  let c = v.crash;
  return (c !== null ? c.kind : "") + " at " + frameShort(c !== null ? c.firstUserFrame : null);
}

/**
 * summarize() past its one-line cases (a first run, no change): its own function, as a fresh process
 * compiles each Wasm function whole at its first call and a run like the last one needs only the head.
 */
function changes(before: Verdict, cur: Verdict, crash: string, dm: DiagMatch, tm: TestMatch, nothing: bool, idleTree: bool, also: Array<string>, sameRuns: i32): string {
  let c = cur.crash;
  let kind = c !== null ? c.kind : "";
  let where = frameShort(c !== null ? c.firstUserFrame : null);
  let parts = new Array<string>(0);
  let sb = before.statusOr; let sa = cur.statusOr;
  if (sb != sa) parts.push("status " + sb + " → " + sa);
  if (crash == "same") parts.push("crash SAME (" + kind + " at " + where + ")");
  else if (crash == "moved") {
    let from = frameShort(before.crash!.firstUserFrame);
    // At the same line, reached from elsewhere (an edit to its callers): the first caller that differs.
    let callers = from == where ? callerMoved(before.crash!, c!) : null;
    parts.push("crash MOVED " + (callers !== null ? where + " (reached from " + callers + ")" : from + " → " + where));
  }
  else if (crash == "gone") parts.push("crash GONE (" + before.crash!.kind + ")");
  else if (crash == "new") {
    // The run before crashed too, of another kind or tool: this crash is the run's now, in its place (gone, or
    // not reached when this one stops the run first: the log cannot tell which).
    let pc = before.crash;
    parts.push("crash NEW (" + kind + " at " + where + ")" + (pc !== null ? ", replacing " + pc.kind + " at " + frameShort(pc.firstUserFrame) : ""));
  }
  else if (crash == "changed") parts.push("crash CHANGED (" + crashFactsChange(before.crash!, c!)! + " at " + where + ")");
  else if (crash == "not-reached") parts.push("crash not reached (" + before.crash!.kind + "; " + unreachedBy(cur)! + ")");
  // A gone diagnostic was fixed only when this run got as far as printing it: nothing was edited (an
  // incremental build skips what it compiled before), or the run was cut short (never started, stopped).
  let cut = cutShort(cur);
  let gone = idleTree ? " not printed this time (nothing was edited)" : cut ? " not reached (" + unreachedBy(cur)! + ")" : " fixed";
  let ef = 0; let en = 0; let wf = 0; let wn = 0;
  // A warning gone and an error new that say the same at the same file (`#![deny(warnings)]`, `-D warnings`,
  // -Werror added): its level was raised, neither fixed nor new; and back.
  let lv = levelChanges(dm);
  for (let i = 0; i < dm.fixed.length; i++) { if (lv.fromFixed[i]) continue; if (dm.fixed[i].severity == "error") ef++; else wf++; }
  for (let i = 0; i < dm.added.length; i++) { if (lv.fromAdded[i]) continue; if (dm.added[i].severity == "error") en++; else wn++; }
  // Past the diagnostics a verdict keeps (MAX_DIAGNOSTICS: 1 632 undefined references of a relink), the lists name
  // only the first; when the run before had none of a severity, every one this run counts is new, and when this
  // run has no error, every error the run before counted is gone (warnings gone may be not printed: notRebuilt).
  if (lv.raised == 0 && lv.lowered == 0) {
    if (cur.diagnosticsDropped > 0 && before.errorCount == 0) en = max(en, <i32>cur.errorCount);
    if (cur.diagnosticsDropped > 0 && before.warningCount == 0) wn = max(wn, <i32>cur.warningCount);
    if (before.diagnosticsDropped > 0 && cur.errorCount == 0) ef = max(ef, <i32>before.errorCount);
  }
  if (ef > 0 || en > 0) {
    let s = new Array<string>(0);
    if (ef > 0) s.push(plural(ef, "error", "errors") + gone);
    if (en > 0) s.push((ef > 0 ? en.toString() : plural(en, "error", "errors")) + " new");
    parts.push(join(s, ", "));
  }
  if (wf > 0 || wn > 0) {
    let s = new Array<string>(0);
    if (wf > 0) s.push(plural(wf, "warning", "warnings") + gone);
    if (wn > 0) s.push((wf > 0 ? wn.toString() : plural(wn, "warning", "warnings")) + " new");
    parts.push(join(s, ", "));
  }
  // Gone from a run that compiled only part of the code, their files not among what it printed (notRebuilt).
  if (dm.notRebuiltGone > 0) parts.push(plural(dm.notRebuiltGone, "warning", "warnings") + " not printed this time (" + (cur.statusOr == "build-failed" ? "the build stopped first" : "not compiled again") + ")");
  if (lv.raised > 0) parts.push(plural(lv.raised, "warning", "warnings") + " now " + (lv.raised == 1 ? "an error" : "errors"));
  if (lv.lowered > 0) parts.push(plural(lv.lowered, "error", "errors") + " now " + (lv.lowered == 1 ? "a warning" : "warnings"));
  if (tm.fixed.length > 0 || tm.broken.length > 0 || tm.still.length > 0 || tm.notRun.length > 0) {
    let s = new Array<string>(0);
    if (tm.fixed.length > 0) s.push((<i64>tm.fixed.length + tm.fixedMore).toString() + " fixed");
    if (tm.broken.length > 0) s.push((<i64>tm.broken.length + tm.brokenMore).toString() + " broken");
    if (tm.still.length > 0) s.push(tm.still.length.toString() + " still failing");
    if (tm.notRun.length > 0) s.push(tm.notRun.length.toString() + " not run (" + notRunWhy(tm) + ")");
    parts.push("tests: " + join(s, ", "));
  }
  let nc = tm.changed.length;
  if (nc > 0) {
    // The test is named when more than one still fails; the first change is quoted.
    let what = tm.still.length > 1 ? tm.changed[0] + ": " + tm.changes[0] : tm.changes[0];
    parts.push((nc == 1 ? "failure changed (" : nc.toString() + " failures changed (first: ") + what + ")");
  }
  for (let i = 0; i < also.length; i++) parts.push(also[i]);
  if (parts.length == 0) return (nothing ? "no change (" + sa + ")" : "no change") + streak(sameRuns);
  // "same verdict N runs in a row" only beside a delta that finds the verdict the same: the same status,
  // crash, errors and failing tests, each failing the same way (warnings may come and go).
  let sameVerdict = sb == sa && (crash == "same" || crash == "none") && ef == 0 && en == 0 && tm.fixed.length == 0
    && tm.broken.length == 0 && tm.notRun.length == 0 && nc == 0 && also.length == 0;
  return join(parts, " · ") + (sameVerdict ? streak(sameRuns) : "");
}

function streak(n: i32): string {
  return n >= 2 ? " · same verdict " + n.toString() + " runs in a row" : "";
}

/** The last part of a path (`src/util.c` → `util.c`). */
/** Whether a build's compiled_set names the source base: by its name, or by its stem as an object (objectKey). */
function compiled(cs: Array<u32>, base: string): bool {
  if (cs.includes(nameHash(base))) return true;
  let dot = base.lastIndexOf(".");
  return dot > 0 && cs.includes(objectKey(base.substring(0, dot)));
}

function baseName(p: string): string {
  let i = p.lastIndexOf("/");
  return i >= 0 ? p.substring(i + 1) : p;
}
