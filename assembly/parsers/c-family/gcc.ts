// gcc/g++ and clang/clang++ diagnostics: `file:line:col: error|warning|note|fatal error: msg [-Wflag]`,
// the driver's own `gcc: error: ...` / `collect2: error: ...` / `clang: error: linker command failed`,
// and everything around them that is context, not a diagnostic: `In function 'f':`, `At top level:`,
// `In instantiation of`, include chains, source/caret/fix-it lines, `N errors generated.`,
// `compilation terminated.`, `cc1: all warnings being treated as errors`.
//
// gcc and clang print the same header line. They differ in what follows it: gcc shows the source in a
// `  6 |` gutter, clang shows it bare with a caret line under it; gcc has function context lines and
// `compilation terminated.`, clang ends with `N errors generated.` and may print `fix-it:` lines. A group of
// contiguous compiler lines (one compiler run) takes the style of its first such evidence; diagnostics
// seen before the evidence are retagged when it comes.
//
// Notes: a `note:` belongs to the error or warning before it; gcc's `file:l:c:   required from here`
// (three spaces, no severity) comes before its error and is attached to it when it arrives.
import { readCompiled } from "./compiled";
import { Char, isDigit, isSpace } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts, Diagnostic, TestFailure, Tests, MAX_DIAGNOSTICS } from "../../model";
import { Parser } from "../../parser";
import { DiagContext, readLoc, addNote, allDigits, MAX_NOTES } from "../diag-context";
import { failureNamed } from "../runners/common";
import { isRuntimePath } from "../../frames";
import { DiagOnce } from "../diag-once";
import { readGccJson, GccJsonDiag } from "./gcc-json";
import { shellcheckFailed } from "../shell/shellcheck";

/** gcc's `-fdiagnostics-format=json`: a compile's diagnostics as one array on one line. */
const GCC_JSON = "[{\"kind\": \"";

const enum Style { UNKNOWN = 0, GCC = 1, CLANG = 2 }

/** Where we are in the lines that follow a located diagnostic. */
const enum Block { NONE = 0, HEADER = 1, SOURCE = 2, CARET = 3, GUTTER = 4 }

@final
export class GccParser extends Parser {
  private ctx: DiagContext;
  /** The last style seen in the log: the default for a group with no evidence of its own. */
  private sticky: i32 = Style.UNKNOWN;
  private groupStyle: i32 = Style.UNKNOWN;
  /**
   * Diagnostics of the current group whose tool was guessed, those the verdict keeps: a group of a million
   * warnings without evidence (`-fno-diagnostics-show-caret`, no function context) held every one of them.
   */
  private provisional: Array<Diagnostic> = [];
  private lastNo: i32 = -2;
  /** The last error or warning: notes that follow belong to it. */
  private owner: Diagnostic | null = null;
  /** Whether owner is among the verdict's diagnostics (not only counted). */
  private ownerKept: bool = false;
  /**
   * The last header was g++'s `note:   template argument deduction/substitution failed:`: an `error:` right after
   * it (`error: no type named 'type' in 'struct std::enable_if<false, int>'`) is why that candidate was dropped,
   * a note of the error the candidates explain, not an error of its own (g++ counts one).
   */
  private substFailed: bool = false;
  /** gcc's instantiation notes, printed before the error they explain. */
  private pending: Array<Diagnostic> = [];
  private block: i32 = Block.NONE;
  private header: Diagnostic | null = null;
  private inInclude: bool = false;
  /** The user's place the last error of the group was moved to (settle), for the next one in the same instantiation. */
  private lastPlace: Diagnostic | null = null;
  /** The call site (instantiatedAt) of the last error of the group, for the next one in the same instantiation. */
  private lastSite: string = "";
  /**
   * mypy's `pretty = true` wraps a message at the terminal's width (80 in a log): the header's line runs long,
   * the rest follows at column 0, its code (`  [assignment]`) at the end, then the source and caret lines. The
   * diagnostic whose message may go on, while the line before was long and no code has closed it.
   */
  private wrapped: Diagnostic | null = null;
  /** The length of the line wrapped's message was last read from: mypy moved the next word on when it did not fit. */
  private wrapLen: i32 = 0;
  /**
   * The width wrapLen is measured against: the header's line is one column shorter, as soft_wrap counts `error: `
   * with its blank in the first line's offset and the message keeps its own leading blank after `error:`
   * (`x.py:211: error: Item "None" of` moved a word that would have ended at column 80); the lines after it 80.
   */
  private wrapWidth: i32 = MYPY_WIDTH;
  /** The errors and warnings read so far, to tell one printed again (repeated). */
  private once: DiagOnce | null = null;
  /** The diagnostic last given to repeated: the one whose printed source lines markShown records (shown). */
  private onceLast: Diagnostic | null = null;
  /** The CppUTest failure whose tab-indented lines follow (cpputest), or null. */
  private cppu: TestFailure | null = null;
  /** Which compiler run the lines read now belong to, as far as the log tells (repeated). */
  private run: i32 = 0;
  /** ShellCheck's findings under `-f gcc`. */
  private shellcheck: i32 = 0;

  constructor(ctx: DiagContext) { super(); this.ctx = ctx; }

  /**
   * True when d, in a file of the user's, is equal in every fact to an error or warning of an earlier compiler
   * run: the same source compiled once more (zlib's and json-c's builds compile each file for the static library
   * and again position-independent for the shared one; a header included by two files). One edit fixes both
   * (diag-once.ts). A run ends at another tool's line (make's, the next compile command) or at a context line
   * (`f.c: In function 'g':`), which each compile of f.c prints again before its first diagnostic in g.
   * Not for a system header's: it is placed later at the user's line that instantiated it, which may differ.
   */
  private repeated(d: Diagnostic): bool {
    let once = this.once;
    if (once === null) { once = new DiagOnce(); this.once = once; }
    this.onceLast = d;
    // The next error of the same instantiation comes without the chain: it has the same call site.
    let site = d.notes.length > 0 ? instantiatedAt(d) : "";
    if (site.length == 0) site = this.lastSite; else this.lastSite = site;
    return once.repeatedBefore(d, this.run, site);
  }

  /** The header's source lines are printed under it: the same error again in this run is a macro's copy (repeated). */
  private shown(): void {
    let d = this.header;
    if (d !== null && d === this.onceLast) this.once!.markShown();
  }

  busy(): bool { return this.block != Block.NONE || this.inInclude || this.cppu !== null; }

  claim(l: Line, f: Facts): bool {
    readCompiled(l, f);
    let k = l.headColon();  // the first ": ", found once per line for all the diagnostic parsers
    if (l.no != this.lastNo + 1) this.endGroup(f);
    if (this.scan(l, f, k)) { this.lastNo = l.no; return true; }
    this.block = Block.NONE;
    this.inInclude = false;
    return false;
  }

  finish(f: Facts): void {
    this.endGroup(f);
    shellcheckFailed(f, this.shellcheck);
  }

  private scan(l: Line, f: Facts, k: i32): bool {
    let n = l.len;
    let w = this.wrapped;
    this.wrapped = null;
    if (this.cppu !== null) {
      if (n > 1 && l.at(0) == Char.TAB) { cpputestLine(this.cppu!, l); return true; }
      this.cppu = null;
    }
    if (n == 0) return false;
    let c0 = l.at(0);
    if (c0 == Char.LBRACKET && l.startsWith(GCC_JSON) && this.jsonLine(l, f)) return true;
    if (w !== null && c0 != Char.SPACE && c0 != Char.TAB && !(k > 0 && hasSeverity(l, k + 2)) &&
        !isMypySummary(l) && (this.wrapLen >= WRAP_MIN || this.wrapLen + 1 + mypyWordLen(l) > this.wrapWidth)) {
      this.unwrap(l, w, 0);
      return true;
    }
    // The message's last word fit, the two spaces before its code did not: ` [var-annotated]` alone.
    if (w !== null && c0 == Char.SPACE && n > 3 && l.at(1) == Char.LBRACKET && l.at(n - 1) == Char.RBRACKET &&
        l.indexOfByte(Char.SPACE, 1) < 0) {
      this.unwrap(l, w, 1);
      return true;
    }
    if (c0 == Char.SPACE || c0 == Char.TAB) {
      // -fanalyzer's path under its warning: an events block per function, into a callee and back.
      if (this.block != Block.NONE && isAnalyzerPath(l)) { this.block = Block.GUTTER; return true; }
      if (this.block != Block.NONE && isGutter(l)) {
        if (this.block == Block.HEADER) this.shown();
        this.evidence(Style.GCC, this.header);
        this.block = Block.GUTTER;
        return true;
      }
      let p = l.skipSpaces(0);
      if (this.inInclude && l.matchAt("from ", p)) {
        if (l.at(n - 1) != Char.COMMA) this.inInclude = false;
        return true;
      }
      if (l.matchAt("inlined from ", p) && l.at(n - 1) == Char.COLON) return true;
      // A whole log indented by a CI wrapper (` a.cpp:3:5: warning: x`, `     [exec] a.c:9: warning: x`): a
      // header with its severity word, outside a diagnostic's source block.
      if (this.block == Block.NONE || this.block == Block.CARET || this.block == Block.GUTTER) {
        let hk = l.indexOf(": ", p);
        if (hk > p && hasSeverity(l, hk + 2) && this.headerLine(l, f, hk)) return true;
      }
      return this.clangSource(l, f);
    }
    if (k > 0 && this.headerLine(l, f, k)) return true;
    if (this.summary(l, f, k)) return true;
    return this.clangSource(l, f);
  }

  /**
   * gcc's `-fdiagnostics-format=json` (`[{"kind": "error", "locations": [{"caret": {"file": .., "line": ..,
   * "column": ..}, ..}], "option": "-Wsign-compare", "message": .., "children": [notes]}, ..]`): every diagnostic
   * of one compile on one line, the same facts as the text format's headers (the option is the `[-W..]` code).
   * A note at the top level belongs to the diagnostic before it, as in text. False when the line is no such array.
   */
  private jsonLine(l: Line, f: Facts): bool {
    let v = readGccJson(l);
    if (v === null) return false;
    this.run++;
    this.settle();
    this.lastPlace = null;
    this.lastSite = "";
    this.pending.length = 0;
    this.evidence(Style.GCC, null);
    for (let i = 0; i < v.length; i++) this.jsonDiag(unchecked(v[i]), f, false);
    this.block = Block.NONE;
    this.header = null;
    return true;
  }

  private jsonDiag(j: GccJsonDiag, f: Facts, child: bool): void {
    if (j.sev.length == 0) return;
    let d = new Diagnostic();
    d.tool = "gcc";
    d.severity = child ? "note" : j.sev;
    let file = j.file;
    if (file !== null && file.length > 0) {
      d.file = this.ctx.resolve(file);
      d.line = j.line;
      d.col = j.col;
    }
    d.message = j.message.trimStart().trimEnd();
    d.code = j.option;
    if (d.severity == "note") {
      addNote(f, this.owner, d);
      return;
    }
    if (d.file !== null && !isRuntimePath(d.file!) && this.repeated(d)) {
      this.owner = d;
      this.ownerKept = false;
    } else {
      this.ownerKept = f.addDiagnostic(d);
      this.owner = d;
    }
    let ch = j.children;
    for (let i = 0; i < ch.length; i++) this.jsonDiag(unchecked(ch[i]), f, true);
  }

  /** A `file:line:col: severity: msg` header, a driver's `gcc: error: msg`, or a `file: In function 'f':` context line. */
  private headerLine(l: Line, f: Facts, k: i32): bool {
    let a = locStart(l, 0, k);
    // `C/C++: a.cpp:35:15: warning: x`: a label before the location; only with a severity word after it.
    if (!hasSeverity(l, k + 2)) {
      let k2 = l.indexOf(": ", k + 2);
      if (k2 > k + 2 && hasSeverity(l, k2 + 2)) {
        let b = locStart(l, k + 2, k2);
        let t = new Diagnostic();
        if (readLoc(l, b, k2, t, this.ctx)) { a = b; k = k2; }
      }
    }
    let s = k + 2;
    let sev = "";
    let m = 0;
    if (l.matchAt("error: ", s)) { sev = "error"; m = s + 7; }
    else if (l.matchAt("warning: ", s)) { sev = "warning"; m = s + 9; }
    else if (l.matchAt("note: ", s)) { sev = "note"; m = s + 6; }
    else if (l.matchAt("fatal error: ", s)) { sev = "error"; m = s + 13; }
    else if ((m = cppcheckSeverity(l, s)) > 0) sev = l.at(s) == Char.i ? "note" : "warning";
    else if (l.at(s) == Char.SPACE && l.at(s + 1) == Char.SPACE) return this.instantiationNote(l, f, k, s);
    else if ((l.matchAt("In ", s) || l.matchAt("At ", s)) && l.at(l.len - 1) == Char.COLON) {
      // `main.c: In function 'main':`, `a.cpp: In instantiation of '...':`, `x.c: At top level:`
      let sp = l.indexOfByte(Char.SPACE, a);
      if (sp >= 0 && sp < k) return false;
      // A new context: what follows is not in the last error's instantiation.
      this.run++;
      this.settle();
      this.lastPlace = null;
      this.lastSite = "";
      this.evidence(Style.GCC, null);
      this.block = Block.NONE;
      return true;
    } else return false;

    // The reason under `template argument deduction/substitution failed:` (microsoft/GSL's span constructors, g++ 12).
    if (this.substFailed && sev == "error" && this.owner !== null && l.matchAt("error: ", s)) sev = "note";
    this.substFailed = false;
    let d = new Diagnostic();
    d.severity = sev;
    let located = readLoc(l, a, k, d, this.ctx);
    // rustc's short format (`src/main.rs:3:14: error: ...`) is rustc's, not a C compiler's.
    if (located && d.file!.endsWith(".rs")) return false;
    let driver = "";
    if (!located) {
      let name = l.str(max(a, l.lastIndexOfByte(Char.SLASH, k) + 1), k);
      driver = driverTool(name);
      if (driver.length == 0) {
        if (l.at(a) != Char.LT) return false; // `<command-line>: error: ...`
        d.file = l.str(a, k);
      }
    }
    let mypy = located && d.file!.endsWith(".py");
    readMessage(l, m, d, mypy);
    // cppcheck: its findings' ids, its notes under them.
    let o = this.owner;
    let cppcheck = located && !mypy && (sev == "note" ? o !== null && o.tool == "cppcheck" : cppcheckId(d));
    if (mypy && d.code === null) { this.wrapped = d; this.wrapLen = l.len; this.wrapWidth = MYPY_WIDTH - 1; }
    if (located && sev == "error" && d.message.startsWith("-[") && this.xctest(f, d)) return true;
    if (located && sev == "error" && d.message.startsWith("Failure in TEST(") && this.cpputest(f, d)) return true;
    let guessed = false;
    if (driver.length > 0) {
      d.tool = driver;
      this.evidence(driver == "clang" ? Style.CLANG : Style.GCC, null);
    } else if (mypy) {
      d.tool = "mypy";
    } else if (cppcheck) {
      d.tool = "cppcheck";
    } else if (located && d.file !== null && d.file!.endsWith(".rb")) {
      // Ruby's own `-w` warnings share the form (`lib/x.rb:12: warning: assigned but unused variable - n`).
      d.tool = "ruby";
    } else {
      guessed = this.guessTool(d);
    }
    // ShellCheck's `-f gcc` (`run.sh:3:8: note: Double quote to prevent globbing … [SC2086]`): each line is a finding
    // of its own, its info and style levels written `note` (warnings, as its default report reads: shellcheck.ts).
    if (located && shellcheckCode(d.code)) {
      d.tool = "shellcheck";
      guessed = false;
      this.shellcheck++;
      if (sev == "note") { sev = "warning"; d.severity = sev; }
    }
    let kept: bool;
    if (sev == "note") {
      if (d.message.endsWith("deduction/substitution failed:")) this.substFailed = true;
      let o = this.owner;
      kept = o === null ? f.diagnostics.length < MAX_DIAGNOSTICS : this.ownerKept && o.notes.length < MAX_NOTES;
      addNote(f, o, d);
    } else {
      let p = this.pending;
      for (let i = 0; i < p.length && d.notes.length < MAX_NOTES; i++) d.notes.push(p[i]);
      p.length = 0;
      this.settle();
      // mypy prints a finding once; one whose message goes on may begin as the one before did (`Need type
      // annotation for` twice at one line, for two names).
      if (located && !isRuntimePath(d.file!) && this.wrapped !== d && this.repeated(d)) {
        // The same error or warning printed again: its notes go with it, unseen.
        this.owner = d;
        this.ownerKept = false;
        this.block = Block.HEADER;
        this.header = d;
        return true;
      }
      kept = f.addDiagnostic(d);
      this.owner = d;
      this.ownerKept = kept;
    }
    if (guessed && kept) this.provisional.push(d);
    this.block = located ? Block.HEADER : Block.NONE;
    this.header = located ? d : null;
    return true;
  }

  /**
   * CppUTest reports a failed check in the compiler's format too: `ring_test.cpp:24: error: Failure in TEST(Ring,
   * Pop)`, then tab-indented lines (`\tLONGS_EQUAL(8, ring_pop(&r)) failed`, `\texpected <8 (0x8)>`, `\tbut was
   * <7 (0x7)>`: its message and sides, cpputestLine). A failing test `Ring.Pop`, not a compile error; the counts
   * are its closing line's (runners/cpputest.ts).
   */
  private cpputest(f: Facts, d: Diagnostic): bool {
    let msg = d.message;
    let comma = msg.indexOf(", ", 16);
    if (comma < 17 || !msg.endsWith(")") || msg.indexOf(" ", comma + 2) >= 0) return false;
    let t = f.testsFor("cpputest");
    if (t.runner != "cpputest") return false;
    let tf = failureNamed(t, msg.substring(16, comma) + "." + msg.substring(comma + 2, msg.length - 1));
    if (tf.file === null) { tf.file = d.file; tf.line = d.line; }
    // Under -p the parent prints a second header for the failed test, `Failed in separate process` under it: more
    // of the same failure's message.
    this.cppu = tf;
    this.failureOnly(t);
    return true;
  }

  /**
   * XCTest (and OCUnit before it) reports a failed assertion in the compiler's format so that Xcode marks the
   * line: `InitTests.m:132: error: -[InitTests testOnRocks] : (...) failed - msg`. That is a failing test,
   * not a compile error. Only failures are printed this way: the passed and skipped counts are unknown.
   */
  private xctest(f: Facts, d: Diagnostic): bool {
    let msg = d.message;
    let close = msg.indexOf("] : ");
    if (close < 4) return false;
    // `-[Class selector]`: one space, between the class and the selector
    let name = msg.substring(0, close + 1);
    let sp = name.indexOf(" ");
    if (sp < 3 || sp != name.lastIndexOf(" ")) return false;
    let t = f.testsFor("xctest");
    if (t.runner != "xctest") return false;
    let tf = failureNamed(t, name);
    if (tf.file === null) { tf.file = d.file; tf.line = d.line; tf.message = msg.substring(close + 4).trimStart().trimEnd(); }
    this.failureOnly(t);
    return true;
  }

  /** A runner that prints only its failures in the compiler's format: failures counted, passes and skips unknown. */
  private failureOnly(t: Tests): void {
    t.failed = t.failures.length;
    t.passed = -1;
    t.skipped = -1;
    this.block = Block.NONE;
    this.header = null;
  }

  /**
   * The owner's notes are all read: an error or warning the compiler places in a system header that it
   * instantiated for the user's code (`/usr/include/c++/12/bits/stl_function.h:408:20: error: no match for
   * 'operator<'` after gcc's `main.cpp:8:28:   required from here`, or before clang's `main.cpp:7:8: note: in
   * instantiation of ... requested here`) is placed at the first instantiation note in a file of the user's: the
   * line the user edits, as a crash is placed at its first user frame. The header's place becomes the first
   * note; the user's note, now the diagnostic's place, is dropped.
   */
  private settle(): void {
    let d = this.owner;
    if (d === null || d.severity == "note" || d.file === null || !isRuntimePath(d.file!)) return;
    let ns = d.notes;
    let at = -1;
    let own = false;
    for (let i = 0; i < ns.length; i++) {
      let n = ns[i];
      if (!isInstantiation(n.message)) continue;
      own = true;
      if (n.file !== null && n.line >= 0 && !isRuntimePath(n.file!)) { at = i; break; }
    }
    // Both compilers print an instantiation's chain once: the next error in the same instantiation has none
    // of its own (clang: only its `In file included from` lines; gcc: no new `In instantiation of` line).
    let place: Diagnostic | null = at >= 0 ? ns[at] : (own ? null : this.lastPlace);
    if (place === null) return;
    let h = new Diagnostic();
    h.tool = d.tool;
    h.severity = "note";
    h.file = d.file; h.line = d.line; h.col = d.col;
    h.message = "the " + d.severity + " is reported here, in a system header";
    d.file = place.file; d.line = place.line; d.col = place.col;
    if (at >= 0) ns.splice(at, 1);
    ns.unshift(h);
    this.lastPlace = place;
  }

  /** A wrapped mypy message's next line: its words, and its code when the line closes with one. */
  private unwrap(l: Line, d: Diagnostic, a: i32): void {
    let t = new Diagnostic();
    let n = l.len;
    while (n > 0 && isSpace(l.at(n - 1))) n--;
    // The code alone on the line (`[no-any-return]`, ` [var-annotated]` from a), or after the message's last words.
    if (l.at(a) == Char.LBRACKET && l.at(n - 1) == Char.RBRACKET && l.indexOfByte(Char.SPACE, a) < 0) t.code = l.str(a + 1, n - 1);
    else {
      readMessage(l, 0, t, true);
      d.message = d.message + " " + t.message;
    }
    if (t.code !== null) d.code = t.code;
    // A message mypy wraps runs a few lines; one past MAX_UNWRAPPED is not read on (a fuzzed log wrapped one 789
    // times, each line joined to all before it: 128 MiB).
    else if (d.message.length < MAX_UNWRAPPED) { this.wrapped = d; this.wrapLen = l.len; this.wrapWidth = MYPY_WIDTH; }
    // The source and caret lines follow, as after the header.
    this.block = Block.HEADER;
  }

  /** gcc: `main.cpp:20:23:   required from here` (context of the next error). */
  private instantiationNote(l: Line, f: Facts, k: i32, s: i32): bool {
    let d = new Diagnostic();
    d.severity = "note";
    if (!readLoc(l, locStart(l, 0, k), k, d, this.ctx)) return false;
    d.message = l.trimmed(s);
    d.tool = "gcc";
    this.evidence(Style.GCC, null);
    if (this.pending.length < MAX_NOTES) this.pending.push(d);
    this.block = Block.HEADER;
    this.header = d;
    return true;
  }

  private summary(l: Line, f: Facts, k: i32): bool {
    let c0 = l.at(0);
    if (isMypySummary(l)) { this.endGroup(f); return true; }
    if (isDigit(c0)) {
      // clang: `2 errors generated.`, `1 warning and 1 error generated.`
      if (!l.endsWith(" generated.")) return false;
      this.evidence(Style.CLANG, null);
      this.endGroup(f);
      return true;
    }
    if (l.startsWith("In file included from ")) {
      let last = l.at(l.len - 1);
      this.inInclude = last == Char.COMMA;
      if (this.inInclude) this.evidence(Style.GCC, null);
      this.block = Block.NONE;
      return true;
    }
    if (l.startsWith("In function ") && (l.endsWith(",") || l.endsWith(":"))) return true;
    if (l.startsWith("compilation terminated.")) {
      this.evidence(Style.GCC, null);
      this.endGroup(f);
      return true;
    }
    if (l.startsWith("fix-it:\"")) { this.evidence(Style.CLANG, null); return true; }
    if (l.endsWith(" warnings being treated as errors")) {
      // `cc1: all warnings being treated as errors`
      if (k > 0 && driverTool(l.str(0, k)).length > 0) { this.evidence(Style.GCC, null); return true; }
    }
    return false;
  }

  /** clang's bare source line, the caret line under it, and one fix-it line under that. */
  private clangSource(l: Line, f: Facts): bool {
    let b = this.block;
    // Ruby's `file:3: warning:` lines have no source line under them (the next line is another tool's).
    let h = this.header;
    if (b == Block.HEADER && this.groupStyle != Style.GCC && !foreign(l) && !(h !== null && h.tool == "ruby")) { this.block = Block.SOURCE; return true; }
    if (b == Block.SOURCE && isCaret(l)) {
      this.shown();
      this.evidence(Style.CLANG, this.header);
      this.block = Block.CARET;
      return true;
    }
    if (b == Block.CARET && isSpace(l.at(0)) && !l.isBlank()) { this.block = Block.NONE; return true; }
    return false;
  }

  /** Gives d the group's tool; true when that is a guess, to be retagged when the group's evidence comes. */
  private guessTool(d: Diagnostic): bool {
    let g = this.groupStyle;
    if (g != Style.UNKNOWN) { d.tool = g == Style.CLANG ? "clang" : "gcc"; return false; }
    d.tool = this.sticky == Style.CLANG ? "clang" : "gcc";
    return true;
  }

  /** The group is `style`: retag its guessed diagnostics (and d, the one this evidence is about). */
  private evidence(style: i32, d: Diagnostic | null): void {
    let tool = style == Style.CLANG ? "clang" : "gcc";
    if (this.groupStyle == Style.UNKNOWN) {
      let p = this.provisional;
      for (let i = 0; i < p.length; i++) p[i].tool = tool;
      p.length = 0;
    }
    if (d !== null && d.tool != "mypy" && d.tool != "cppcheck") d.tool = tool;
    this.groupStyle = style;
    this.sticky = style;
  }

  private endGroup(f: Facts): void {
    this.run++;
    let p = this.pending;
    for (let i = 0; i < p.length; i++) addNote(f, this.owner, p[i]);
    p.length = 0;
    this.settle();
    this.lastPlace = null;
    this.lastSite = "";
    this.provisional.length = 0;
    this.groupStyle = Style.UNKNOWN;
    this.owner = null;
    this.ownerKept = false;
    this.substFailed = false;
    this.header = null;
    this.block = Block.NONE;
    this.inInclude = false;
  }
}

/**
 * A note that says where a template was instantiated: gcc's `required from here`, `required from 'f'`,
 * `required by substitution of`, `recursively required from`; clang's `in instantiation of ... requested here`.
 */
/**
 * Where the user's code instantiated the template d is in, as `file:line` (the last instantiation note in a file
 * of the user's: gcc's `required from here`), or "". The same error of a header's template, instantiated from
 * two sources, is two errors: one per call site (cfamily/make-header-template-two-tus).
 */
function instantiatedAt(d: Diagnostic): string {
  let ns = d.notes;
  for (let i = ns.length - 1; i >= 0; i--) {
    let n = ns[i];
    if (n.file !== null && n.line >= 0 && isInstantiation(n.message) && !isRuntimePath(n.file!)) {
      // In the diagnostic's own file (a concept's `required from here` at the failed call itself) it tells nothing.
      return n.file! == d.fileOr ? "" : n.file! + ":" + n.line.toString();
    }
  }
  return "";
}

function isInstantiation(m: string): bool {
  return m.startsWith("required from") || m.startsWith("required by") || m.startsWith("recursively required") ||
    m.startsWith("in instantiation of") || m.endsWith("requested here");
}

/** The longest message read on from mypy's wrapped lines (its longest messages run to a few hundred characters). */
const MAX_UNWRAPPED = 2048;

/** The shortest line mypy's pretty output wraps: the width (80) less the longest word it moves on. */
const WRAP_MIN = 56;

/** The terminal width mypy wraps at in a log (no terminal: shutil's default). */
const MYPY_WIDTH = 80;

/**
 * The length of l's first word as mypy's soft_wrap splits a message: at spaces, but not inside a quoted type
 * (`"Element[str] | None"` is one word). A line shorter than WRAP_MIN goes on to l when that word did not fit.
 */
function mypyWordLen(l: Line): i32 {
  let quoted = false;
  let n = l.len;
  for (let i = 0; i < n; i++) {
    let c = l.at(i);
    if (c == Char.SPACE && !quoted) return i;
    if (c == Char.QUOTE) quoted = !quoted;
  }
  return n;
}

/** mypy's closing line: `Found 3 errors in 2 files (checked 28 source files)`, `... (errors prevented further checking)`. */
function isMypySummary(l: Line): bool {
  return l.startsWith("Found ") && l.contains(" error") && (l.contains(" (checked ") || l.contains(" (errors prevented"));
}

/**
 * cppcheck's own severities (`style: `, `performance: `, `portability: `, `information: `) at s, on a line
 * ending in its id (`[variableScope]`): where the message starts, else 0.
 */
function cppcheckSeverity(l: Line, s: i32): i32 {
  let c = l.at(s);
  if (c != Char.s && c != Char.p && c != Char.i || l.at(l.len - 1) != Char.RBRACKET) return 0;
  if (l.matchAt("style: ", s)) return s + 7;
  if (l.matchAt("performance: ", s)) return s + 13;
  if (l.matchAt("portability: ", s)) return s + 13;
  if (l.matchAt("information: ", s)) return s + 13;
  return 0;
}

/**
 * A message ending in a cppcheck id (` [memleakOnRealloc]`, ` [uninitvar]`: a word of letters and digits, no
 * `-W` flag, no clang-tidy or analyzer check with its `-` or `.`): the id taken off as the code.
 */
function cppcheckId(d: Diagnostic): bool {
  if (d.code !== null) return false;
  let msg = d.message;
  let n = msg.length;
  if (n < 5 || msg.charCodeAt(n - 1) != Char.RBRACKET) return false;
  let open = msg.lastIndexOf(" [");
  if (open < 0 || n - open < 5) return false;
  let c = msg.charCodeAt(open + 2);
  if (c < Char.a || c > Char.z) return false;
  for (let i = open + 3; i < n - 1; i++) {
    let b = msg.charCodeAt(i);
    if (!(b >= Char.a && b <= Char.z || b >= Char.A && b <= Char.Z || b >= Char._0 && b <= Char._9)) return false;
  }
  d.code = msg.substring(open + 2, n - 1);
  d.message = msg.substring(0, open).trimEnd();
  return true;
}

/** True when a diagnostic's severity word starts at s. */
function hasSeverity(l: Line, s: i32): bool {
  return l.matchAt("error: ", s) || l.matchAt("warning: ", s) || l.matchAt("note: ", s) || l.matchAt("fatal error: ", s);
}

/**
 * Where the location starts in bytes [a, k) of a header line: past leading blanks, past the tags a build
 * wrapper puts before each line (ant's `[exec] `, a bare `11% ` progress), and past a command line echoed
 * before the path on the same line (`clang-tidy -p=build src/a.cpp:3:1: warning:`: a word starting with
 * `-` before the last word; the path is the last word). A path with spaces (`/my dir/a.cpp`) is kept whole.
 */
function locStart(l: Line, a: i32, k: i32): i32 {
  a = l.skipSpaces(a);
  while (l.at(a) == Char.LBRACKET) {
    let c = l.indexOfByte(Char.RBRACKET, a);
    if (c < 0 || c + 1 >= k || l.at(c + 1) != Char.SPACE) break;
    a = l.skipSpaces(c + 1);
  }
  let sp = l.indexOfByte(Char.SPACE, a);
  if (sp < 0 || sp >= k) return a;
  if (sp > a + 1 && l.at(sp - 1) == Char.PERCENT && allDigits(l, a, sp - 1)) return l.skipSpaces(sp);
  let last = l.lastIndexOfByte(Char.SPACE, k);
  let opt = l.indexOf(" -", a);
  if (opt >= 0 && opt < last) return last + 1;
  return a;
}

/** The message after the severity, with a trailing `[-Wflag]` taken off as the code. */
function readMessage(l: Line, m: i32, d: Diagnostic, anyCode: bool): void {
  let end = l.len;
  while (end > m && isSpace(l.at(end - 1))) end--;
  if (l.at(end - 1) == Char.RBRACKET) {
    let open = l.lastIndexOf(" [", end);
    if (open >= m) {
      let a = open + 2;
      let b = end - 1;
      if (l.matchAt("-W", a)) {
        // clang: `[-Werror,-Wunused-variable]`: the first flag that is not -Werror.
        let comma = l.indexOfByte(Char.COMMA, a);
        if (comma > 0 && comma < b) {
          if (l.matchAt("-Werror,", a)) {
            a = comma + 1;
            let c2 = l.indexOfByte(Char.COMMA, a);
            if (c2 > 0 && c2 < b) b = c2;
          } else b = comma;
        }
        d.code = l.str(a, b).trimStart().trimEnd();
        end = open;
      } else if (anyCode || l.matchAt("SC", a) && b - a > 2 && shellcheckCode(l.str(a, b))) {
        // mypy's `[code]`; ShellCheck's `[SC2086]`.
        d.code = l.str(a, b);
        end = open;
      } else {
        // A checker's name: clang-tidy's `[bugprone-narrowing-conversions]` (the first of `[a-b,c-d]`), the
        // analyzer's `[unix.Malloc]` under `clang --analyze`, `[clang-analyzer-core.NullDereference]` under clang-tidy.
        let e = checkName(l, a, b);
        if (e > 0) { d.code = l.str(a, e); end = open; }
      }
    }
  }
  d.message = l.trimmed(m, end);
}

/**
 * Where the first checker name in [a, b) ends (b, or its first comma), when the bytes are names of lowercase
 * words joined by `-` and `.` (one at least; the analyzer's parts may be capitalised, `core.NullDereference`),
 * else 0. A word of letters alone is not one (cppcheck's ids are cppcheckId's).
 */
function checkName(l: Line, a: i32, b: i32): i32 {
  let c = l.at(a);
  if (c < Char.a || c > Char.z) return 0;
  let joined = false;
  for (let i = a + 1; i < b; i++) {
    let x = l.at(i);
    if (x == Char.MINUS || x == Char.DOT) { joined = true; continue; }
    if (x == Char.COMMA) return joined && i > a + 2 ? i : 0;
    if (!(x >= Char.a && x <= Char.z || x >= Char.A && x <= Char.Z || x >= Char._0 && x <= Char._9 || x == Char.UNDERSCORE)) return 0;
  }
  return joined ? b : 0;
}

/** "gcc" / "clang" when name is a compiler driver or one of its parts (cc1, collect2), else "". */
function driverTool(name: string): string {
  if (name.startsWith("clang")) return "clang";
  if (name == "cc" || name == "c++" || name == "cpp" || name == "collect2" || name.startsWith("gcc") ||
      name.startsWith("g++") || name.startsWith("cc1") || name.startsWith("lto") ||
      name.includes("-gcc") || name.includes("-g++")) return "gcc";
  return "";
}

/** gcc's source gutter: `    6 |     int x;`, `      |     ^~~`, `  +++ |+#include <stdio.h>`. */
function isGutter(l: Line): bool {
  let p = l.skipSpaces(0);
  if (p == 0) return false;
  if (isDigit(l.at(p))) {
    while (isDigit(l.at(p))) p++;
    return l.at(p) == Char.SPACE && l.at(p + 1) == Char.PIPE;
  }
  if (l.at(p) == Char.PIPE) return true;
  return l.matchAt("+++ |+", p);
}

/**
 * A line of gcc -fanalyzer's path that is not a gutter line: `  'map_set_': events 1-4` (`'f': event 1`; a
 * path in one function: `  events 1-2`), `    +--> 'map_newnode': events 5-9` into a callee, `    <------+` back.
 */
function isAnalyzerPath(l: Line): bool {
  let p = l.skipSpaces(0);
  let c = l.at(p);
  if (c == Char.PLUS) return l.matchAt("+--> ", p);
  if (c == Char.LT) return l.matchAt("<---", p) && l.at(l.len - 1) == Char.PLUS;
  if (!isDigit(l.at(l.len - 1))) return false;
  if (c == Char.e) return l.matchAt("events ", p) || l.matchAt("event ", p);
  let k = l.indexOf(": event", p);
  return k > p && (l.matchAt(": events ", k) || l.matchAt(": event ", k));
}

/**
 * clang's caret line: only spaces, `^` and `~`, with at least one of them; mypy's (`pretty = true`) may end in
 * `...` where it cut a source line longer than the terminal, as it cut the source line above.
 */
function isCaret(l: Line): bool {
  let mark = false;
  let n = l.len;
  if (n > 3 && l.matchAt("...", n - 3)) n -= 3;
  for (let i = 0; i < n; i++) {
    let c = l.at(i);
    if (c == Char.CARET || c == Char.TILDE) mark = true;
    else if (!isSpace(c)) return false;
  }
  return mark;
}

/**
 * Lines that are plainly another tool's, never a source line: also Ruby's exception head (`main.rb:6:in `require':
 * …/greet.rb:6: syntax error, … (SyntaxError)`) after one of Ruby's `file:3: warning:` lines, which have none.
 */
function foreign(l: Line): bool {
  return l.startsWith("make: ") || l.startsWith("make[") || l.startsWith("/usr/bin/ld") || l.startsWith("ld: ") ||
    l.startsWith("==") || l.startsWith("ninja: ") || l.startsWith("FAILED: ") || l.startsWith("collect2: ") ||
    l.at(l.len - 1) == Char.RPAREN && l.headColon() > 0 && l.indexOf(":in ") > 0;
}

/** Lines of a CppUTest failure's message kept. */
const CPPUTEST_LINES = 4;

/** A tab-indented line under a CppUTest failure: its message, `expected <x>` / `but was  <y>` its sides too. */
function cpputestLine(t: TestFailure, l: Line): void {
  let s = l.trimmed(1);
  if (s.length == 0) return;
  let m = t.message;
  if (m.includes(s)) return;
  if (m.length == 0) t.message = s;
  else if (m.split("\n").length < CPPUTEST_LINES) t.message = m + "\n" + s;
  if (s.startsWith("expected <") && s.endsWith(">")) t.expected = s.substring(10, s.length - 1);
  else if (s.startsWith("but was  <") && s.endsWith(">")) t.actual = s.substring(10, s.length - 1);
}

/** `SC2086`: a ShellCheck check's code. */
function shellcheckCode(c: string | null): bool {
  if (c === null || c.length < 4 || !c.startsWith("SC")) return false;
  for (let i = 2; i < c.length; i++) if (!isDigit(c.charCodeAt(i))) return false;
  return true;
}
