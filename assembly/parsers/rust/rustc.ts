// rustc and cargo: `error[E0308]: mismatched types` / `warning: unused variable: `x`` headers, the
// `  --> src/main.rs:4:18` location under them, the `|` gutter, `= note:`/`= help:` lines, `note:` and
// `help:` sub-diagnostics (a note with its own `-->` becomes a note of the error), the summaries
// (`error: aborting due to 2 previous errors`, `error: could not compile `x``, `warning: 2 warnings
// emitted`, `For more information about this error`) and cargo's status lines (`   Compiling x v0.1.0`).
//
// A bare `error: msg` is rustc's only inside a cargo/rustc log (some other program may print the same
// words): with no such context yet, it is remembered and becomes a diagnostic when the next line is its
// `-->` location; otherwise it goes back to the tail (Facts.released). A header with no backtick is not held back
// (rustc's wording quotes code; most program output does not) but taken back from the tail once its `-->` follows:
// cargo replaying a fresh crate's cached warnings prints them first, no `Compiling` line before them.
// A diagnostic always ends at a blank line.
// A header indented by the program that ran cargo (pip shows a failed build's output 6 spaces in, a test
// wrapper 1) is taken the same way: only once its `-->` follows.
//
// cargo's `error: failed to run custom build command for `x v0.1.0 (.)`` names no place; the build script's
// panic under it (`Caused by:`, `  --- stderr`, `  thread 'main' (9) panicked at build.rs:7:70:` and its message
// on the next line) gives the error that place, and the message as its label; a script that exits without a
// panic, the first `error:` line of its stderr as the label. Those lines stay in the tail.
// That error is cargo's with no `Compiling` line before it (`cargo -q`).
//
// cargo's --message-format=json (and json-diagnostic-short, json-diagnostic-rendered-ansi) prints one JSON
// object a line (`{"reason":"compiler-message",...}`); each compiler-message's `rendered` text is decoded and
// read line by line as if printed (ANSI colours dropped); the other reasons are claimed and read as nothing.
// cargo's text output prints a diagnostic two targets of a package share (lib, lib test) once (`1 duplicate`);
// its JSON gives one message per target: a `rendered` text already read is read once.
//
// rustfmt's `--check` (`cargo fmt --check`) prints each place it would change as a diff hunk: `Diff in
// /work/src/lib.rs:155:` (the hunk's first line, context included), then ` ` context, `-` old and `+` new lines.
// Each hunk is an error of tool "rustfmt" at its first changed line, labelled by its first old line (else its
// first new one); the hunk's lines are claimed.
//
// cargo's warning about a manifest (`warning: /work/Cargo.toml: no edition set: …`) is cargo's at that file.
// A build script's `cargo:warning=msg` prints as `warning: pkg@0.2.1: msg`: a warning of tool "cargo" without a file;
// its `cargo::error=msg`, `error: pkg@0.2.1: msg`, an error of the same, closed by `error: build script logged errors`.
//
// cargo's own errors have no location (`error: no matching package named `x` found`, `error: package `x`
// cannot be built because it requires rustc 1.68 or newer`): known by their wording (CARGO_ERRORS) or by
// the context line under them (`location searched:`, `required by package`), they are diagnostics of tool
// "cargo" without a file; their indented lines (`  x@0.1.0 requires rustc 1.99`) join the message and
// their context lines are notes.
import { Char, isDigit, isSpace } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts, Diagnostic } from "../../model";
import { Parser } from "../../parser";
import { ByteSet } from "../../util/byte-set";
import { DiagContext, readLoc, addNote } from "../diag-context";
import { decodeJsonString, jsonBuf } from "../../util/json-string";
import { isLibtestUsage } from "../runners/cargo-test";
import { normPath } from "../../frames";

const CARGO_VERBS: string[] = [
  "Compiling ", "Checking ", "Finished ", "Building ", "Downloaded ", "Downloading ", "Updating ", "Updated ",
  "Locking ", "Adding ", "Fresh ", "Documenting ", "Blocking ", "Packaging ", "Verifying ", "Archiving ",
  "Installing ", "Installed ", "Replacing ", "Removing ", "Fixing ", "Unpacking ", "Vendoring ", "Scraping ",
  "Generated ", "Running `",
];

/** How cargo's own location-less errors begin (after `error: `). */
const CARGO_ERRORS: string[] = [
  "no matching package named ", "no matching package found", "failed to select a version for",
  "failed to parse manifest", "failed to load manifest", "could not find `Cargo.toml`",
  "failed to get `", "failed to download", "failed to parse lock file", "the lock file ",
  "current package believes it's in a workspace", "cyclic package dependency", "no targets specified in the manifest",
  "manifest path `", "failed to resolve patches", "no such command: `", "package ID specification",
  "failed to fetch `", "unable to update ",
  // cargo fix / clippy --fix refusing a work tree (`…; if you'd like to suppress this error pass `--allow-dirty`, or
  // commit the changes to these files:`, then `  * src/lib.rs (dirty)` per file)
  "the working directory of this package has uncommitted changes", "no VCS found for this package",
];

/** Openings too common alone, each with the words that must follow it: pairs (opening, words). */
const CARGO_ERRORS_IF: string[] = [
  "package `", "cannot be built because it requires rustc",
  "rustc ", "is not supported by the following package",
  // rustup's proxy for a cargo subcommand whose component this toolchain lacks (`cargo miri test`)
  "the '", "component which provides the command",
];

/** How many rustc diagnostics are remembered to read one printed again by a later unit once. */
const MAX_SEEN = 4096;
/** How many JSON `rendered` texts are remembered to read each once. */
const MAX_RENDERED = 4096;

/** How long cargo's error message may grow with the indented lines under it. */
const CARGO_MESSAGE_MAX = 400;

/** Lines cargo prints under its own error: notes of it. */
const CARGO_CONTEXT: string[] = [
  "location searched: ", "required by package `", "As a reminder, you're using offline mode", "perhaps you meant: ",
  "versions that meet the requirements ", "candidate versions found which didn't match: ", "previously selected package ",
  "all possible versions conflict with ", "Either upgrade rustc or select compatible dependency versions",
  "Caused by:",
];

/**
 * At rest (no block, no candidate header, no cargo error open): a header `error`/`warning` (also indented),
 * `note: `/`help: `/`suggestion: ` (returned false outside a block, but read), a cargo verb (upper case,
 * indented), `For more information`/`Some errors` ('F', 'S'), a short-format `path:l:c: error: ` line
 * (headColonStarts), cargo's JSON `{"reason":`. A blank line's endBlock is a no-op at rest; a digit, '.' or `-->` line is not taken.
 */
const STARTS = new ByteSet().upper().chars("ewnhs{");

@final
export class RustParser extends Parser {
  private ctx: DiagContext;
  /** A cargo status line or a confirmed rustc diagnostic has been seen. */
  private rust: bool = false;
  private inBlock: bool = false;
  /** The diagnostic whose block we are in. */
  private owner: Diagnostic | null = null;
  /** The header (owner or one of its notes) still waiting for its `-->` location. */
  private target: Diagnostic | null = null;
  /** Still in the owner's own snippet (no `note:`/`help:` yet): its first `^^^ text` is the label. */
  private ownSnippet: bool = false;
  /** A bare header seen outside any rust context, and its line number. */
  private cand: Diagnostic | null = null;
  private candNo: i32 = -1;
  /** The candidate's line, when it was held back from the tail (given back if no `-->` follows). */
  private candRaw: string | null = null;
  /** When it was not: the tail's count of lines once it went there (taken back when its `-->` follows), else -1. */
  private candTail: i64 = -1;
  /** cargo's own error whose indented lines and context lines follow. */
  private cargo: Diagnostic | null = null;
  /** `failed to run custom build command`, whose `Caused by:` lines may hold the script's panic. */
  private script: Diagnostic | null = null;
  /** The script's panic location was read: its message is the next indented line. */
  private scriptMsg: bool = false;
  /** Past the script's `--- stderr` line. */
  private scriptErr: bool = false;
  /** A line of a JSON message's `rendered` text, read as if printed. */
  private view: Line = new Line();
  /** Reading such lines (they are never JSON themselves). */
  private inJson: bool = false;
  /** The file of the snippet being read (its `-->` or `::: path` line) and its last numbered line. */
  private snipFile: string | null = null;
  private snipLine: i32 = -1;
  private snip: Diagnostic = new Diagnostic();
  /** The primary span's column when its label is drawn below it (`^^^---`, `|`, then the text), else -1. */
  private pendCol: i32 = -1;
  /** The owner has its `in this macro invocation` note. */
  private macroNoted: bool = false;
  /** The rustfmt hunk being read (`Diff in path:N:`), and whether its first changed line was seen. */
  private fmt: Diagnostic | null = null;
  private fmtChanged: bool = false;
  /** The label is an old (`-`) line. */
  private fmtOld: bool = false;
  /** The hashes of the `rendered` texts read (at most MAX_RENDERED). */
  private rendered: Set<u64> | null = null;
  /** The rustc diagnostics read (at most MAX_SEEN), by a cheap key of their facts, with their unit: see repeated. */
  private seenKeys: Map<u64, i32> | null = null;
  private seenDiags: Array<Diagnostic> = [];
  private seenUnits: Array<i32> = [];
  /** Counts the compile units whose output closed (`generated N warnings`, `could not compile`, `N warnings emitted`). */
  private unit: i32 = 0;

  constructor(ctx: DiagContext) { super(); this.ctx = ctx; }

  busy(): bool { return this.inBlock || this.cand !== null || this.cargo !== null || this.fmt !== null; }
  atRest(): bool {
    return !this.inBlock && this.cand === null && this.cargo === null && this.script === null && this.fmt === null;
  }
  starts(): ByteSet | null { return STARTS; }
  headColonStarts(): bool { return true; }

  claim(l: Line, f: Facts): bool {
    if (l.at(0) == Char.LBRACE && !this.inJson) return this.json(l, f);
    if (this.fmt !== null) {
      if (this.fmtLine(l)) return true;
      this.fmt = null;
    }
    if (this.script !== null) this.scriptLine(l);
    if (this.cand !== null && !(l.no == this.candNo + 1 && this.confirms(l))) this.dropCand(f);
    if (this.cargo !== null) {
      if (this.cargoLine(l, f)) return true;
      this.cargo = null;
    }
    if (this.cand !== null && l.no == this.candNo + 1 && !f.testRun && cargoContext(l) >= 0) {
      // `location searched:` under a bare error: cargo's own.
      let c = this.cand!;
      this.cand = null; this.candRaw = null;
      c.tool = "cargo";
      f.addDiagnostic(c);
      this.cargo = c;
      return this.cargoLine(l, f);
    }
    let n = l.len;
    if (n == 0 || l.isBlank()) { this.endBlock(); return false; }
    let c0 = l.at(0);
    if (isSpace(c0)) return this.indented(l, f);
    if (isDigit(c0)) {
      if (!this.inBlock || !isNumberedGutter(l)) return false;
      this.snipLine = <i32>l.readInt(0);
      return true;
    }
    if (c0 == Char.DOT) return this.inBlock && l.startsWith("...");
    if (c0 == Char.F || c0 == Char.S) {
      if (l.startsWith("For more information about ") || l.startsWith("Some errors have detailed explanations")) {
        this.endBlock();
        return true;
      }
      return false;
    }
    if (c0 == Char.D && this.diffIn(l, f)) return true;
    if (this.short(l, f)) return true;
    return this.header(l, f);
  }

  /** rustfmt's `Diff in /work/src/lib.rs:155:`: a hunk of a `.rs` file begins. */
  private diffIn(l: Line, f: Facts): bool {
    let e = l.len - 1;
    if (l.at(e) != Char.COLON || !l.startsWith("Diff in ")) return false;
    let d = new Diagnostic();
    d.tool = "rustfmt";
    d.severity = "error";
    d.message = "rustfmt would reformat this code";
    if (!readLoc(l, 8, e, d, this.ctx) || d.col >= 0 || d.file === null || !d.file!.endsWith(".rs")) return false;
    this.endBlock();
    this.cand = null; this.candRaw = null;
    f.addDiagnostic(d);
    this.fmt = d;
    this.fmtChanged = false;
    this.fmtOld = false;
    return true;
  }

  /**
   * A line of a rustfmt hunk (` ` context, `-` old, `+` new; rustfmt prints a blank context line as a space,
   * which a log may lose): the context before the first change moves the error's line down to it.
   */
  private fmtLine(l: Line): bool {
    let d = this.fmt!;
    if (l.len == 0) { if (!this.fmtChanged) d.line++; return true; }
    let c = l.at(0);
    if (c == Char.SPACE) {
      // cargo's next step (`cargo fmt --check && cargo test`): `   Compiling x v0.1.0`.
      if (cargoVerb(l, l.skipSpaces(0)) >= 0) return false;
      if (!this.fmtChanged) d.line++;
      return true;
    }
    if (c != Char.MINUS && c != Char.PLUS) return false;
    let t = l.trimmed(1);
    // The first old line, else the first new one (an insertion).
    if (t.length > 0 && (d.label === null || (c == Char.MINUS && !this.fmtOld))) {
      d.label = t;
      if (c == Char.MINUS) this.fmtOld = true;
    }
    this.fmtChanged = true;
    return true;
  }

  /**
   * rustc's `--error-format=short` and cargo's `--message-format short`: one line per diagnostic, its location
   * first (`src/main.rs:2:18: error[E0308]: mismatched types: expected `i32`, found `&str``), no block under it.
   */
  private short(l: Line, f: Facts): bool {
    let k = l.headColon();
    if (k <= 0) return false;
    let s = k + 2;
    let sev = "";
    let p = 0;
    if (l.matchAt("error", s)) { sev = "error"; p = s + 5; }
    else if (l.matchAt("warning", s)) { sev = "warning"; p = s + 7; }
    else return false;
    let code: string | null = null;
    if (l.at(p) == Char.LBRACKET) {
      let close = l.indexOfByte(Char.RBRACKET, p);
      if (close < 0) return false;
      code = l.str(p + 1, close);
      p = close + 1;
    }
    if (l.at(p) != Char.COLON || l.at(p + 1) != Char.SPACE) return false;
    let d = this.make(sev, code, l.trimmed(p + 2));
    if (!readLoc(l, 0, k, d, this.ctx) || d.file === null || !d.file!.endsWith(".rs")) return false;
    this.endBlock();
    this.cand = null; this.candRaw = null;
    this.rust = true;
    this.keep(f, d);
    return true;
  }

  finish(f: Facts): void {
    if (this.cand !== null) this.dropCand(f);
    this.cargo = null;
    this.script = null;
    this.fmt = null;
    this.endBlock();
  }

  /** The line under a candidate header that makes it a diagnostic: its `-->` location or cargo's context. */
  private confirms(l: Line): bool {
    let p = l.skipSpaces(0);
    return (p > 0 && l.matchAt("--> ", p)) || cargoContext(l) >= 0;
  }

  /** A candidate nothing confirmed: its line, if held back, goes to the tail. */
  private dropCand(f: Facts): void {
    if (this.candRaw !== null) f.released.push(this.candRaw!);
    this.cand = null;
    this.candRaw = null;
  }

  /** A line under cargo's own error: an indented line joins its message, a context line is a note. */
  private cargoLine(l: Line, f: Facts): bool {
    let d = this.cargo!;
    if (l.isBlank()) { this.cargo = null; return false; }
    if (isSpace(l.at(0))) {
      // At most a few lines' worth: the message stays one readable line, however long the list is.
      let m = d.message;
      if (m.length < CARGO_MESSAGE_MAX) d.message = m + (m.endsWith(":") ? " " : "; ") + l.trimmed(0);
      return true;
    }
    let k = cargoContext(l);
    if (k < 0) return false;
    let n = new Diagnostic();
    n.tool = "cargo";
    n.severity = "note";
    n.message = l.trimmed(0);
    addNote(f, d, n);
    return true;
  }

  /** cargo's `{"reason":"...",...}` line: a compiler-message's `rendered` text is read line by line. */
  private json(l: Line, f: Facts): bool {
    if (!l.matchAt("{\"reason\":\"", 0)) return false;
    this.rust = true;
    if (!l.matchAt("compiler-message\"", 11)) return true;
    let at = l.indexOf("\"rendered\":\"", 28);
    if (at < 0) return true;
    let n = decodeJsonString(l, at + 12);
    let b = jsonBuf();
    // FNV-1a over the text: the same diagnostic from one more target of the package.
    let h: u64 = 0xCBF29CE484222325;
    for (let i = 0; i < n; i++) h = (h ^ <u64>load<u8>(b + <usize>i)) * 0x100000001B3;
    let seen = this.rendered;
    if (seen === null) { seen = new Set<u64>(); this.rendered = seen; }
    if (seen.has(h)) return true;
    if (seen.size < MAX_RENDERED) seen.add(h);
    let v = this.view;
    this.inJson = true;
    let s = 0;
    for (let i = 0; i < n; i++) {
      if (load<u8>(b + <usize>i) != Char.LF) continue;
      v.set(b + <usize>s, i - s);
      v.no = l.no;
      this.claim(v, f);
      s = i + 1;
    }
    if (s < n) { v.set(b + <usize>s, n - s); v.no = l.no; this.claim(v, f); }
    this.inJson = false;
    this.endBlock();
    return true;
  }

  /**
   * A line after `failed to run custom build command` (read, never claimed): blank lines, `Caused by:`, cargo's
   * `note:` and the indented output of the script until its panic, `thread 'main' (9) panicked at build.rs:7:70:`
   * (its message on the next line) or, before Rust 1.73, `thread 'main' panicked at 'msg', build.rs:7:70`.
   */
  private scriptLine(l: Line): void {
    let d = this.script!;
    if (l.isBlank()) return;
    if (!isSpace(l.at(0))) {
      if (!l.startsWith("Caused by:") && !l.startsWith("note: ")) this.script = null;
      return;
    }
    let p = l.skipSpaces(0);
    if (this.scriptMsg) { d.label = l.trimmed(p); this.script = null; return; }
    // A script that exits without a panic: an `error:` line of its stderr says why (a panic after it, where).
    if (l.matchAt("--- stderr", p)) { this.scriptErr = true; return; }
    if (this.scriptErr && d.label === null && (l.matchAt("error: ", p) || l.matchAt("Error: ", p))) { d.label = l.trimmed(p); return; }
    if (l.at(p) != Char.t || !l.matchAt("thread '", p)) return;
    let at = l.indexOf(" panicked at ", p);
    if (at < 0) return;
    let s = at + 13;
    let e = l.len;
    while (e > s && isSpace(l.at(e - 1))) e--;
    if (l.at(e - 1) == Char.COLON) {
      if (readLoc(l, s, e - 1, d, this.ctx)) this.scriptMsg = true;
      else this.script = null;
      return;
    }
    let q = l.lastIndexOf("', ");
    if (l.at(s) == Char.APOS && q > s && readLoc(l, q + 3, e, d, this.ctx)) d.label = l.str(s + 1, q);
    this.script = null;
  }

  private endBlock(): void {
    this.inBlock = false;
    this.owner = null;
    this.target = null;
    this.ownSnippet = false;
    this.snipFile = null;
    this.snipLine = -1;
    this.pendCol = -1;
    this.macroNoted = false;
  }

  private indented(l: Line, f: Facts): bool {
    let p = l.skipSpaces(0);
    if (l.matchAt("--> ", p)) {
      let c = this.cand;
      if (c !== null && l.no == this.candNo + 1 && !this.inBlock) {
        // A header left to the tail (no backtick in its wording) was this diagnostic's: taken back.
        let tl = f.tailLines;
        if (this.candRaw === null && this.candTail >= 0 && tl !== null) tl.takeBack(this.candTail);
        f.addDiagnostic(c);
        this.rust = true;
        this.inBlock = true;
        this.owner = c;
        this.target = c;
        this.ownSnippet = true;
      }
      this.cand = null;
      if (!this.inBlock) return false;
      let t = this.target;
      let e = l.len;
      while (e > p && isSpace(l.at(e - 1))) e--;
      if (t !== null) {
        readLoc(l, p + 4, e, t, this.ctx);
        this.target = null;
        if (t === this.owner && t.tool == "rustc") this.dropIfRepeated(f, t);
        this.snipFile = t.file;
      } else this.snipFile = readLoc(l, p + 4, e, this.snip, this.ctx) ? this.snip.file : null;
      this.snipLine = -1;
      return true;
    }
    if (this.inBlock) { this.gutter(l, f, p); return true; } // gutter, `= note:`, `= help:`, `::: path`
    let c = l.at(p);
    if ((c == Char.e || c == Char.w) && this.header(l, f, p)) return true;
    let i = cargoVerb(l, p);
    if (i < 0) return false;
    if (i < 2) this.rust = true; // Compiling, Checking
    if (i == 1) f.cargoCheck = true;
    return true;
  }

  /**
   * A header at s: 0, or past the indentation a wrapper put before a whole block (` error: x` then
   * `   --> src/fs.rs:11:31`); an indented one is only an error or a warning, and only once its `-->` follows.
   */
  private header(l: Line, f: Facts, s: i32 = 0): bool {
    let sev = "";
    let p = 0;
    if (l.matchAt("error", s)) { sev = "error"; p = s + 5; }
    else if (l.matchAt("warning", s)) { sev = "warning"; p = s + 7; }
    else if (s > 0) return false;
    else if (l.startsWith("note: ")) { sev = "note"; p = 4; }
    else if (l.startsWith("help: ") || l.startsWith("suggestion: ")) { sev = "help"; p = l.indexOfByte(Char.COLON); }
    else return false;
    let code: string | null = null;
    if (l.at(p) == Char.LBRACKET) {
      let close = l.indexOfByte(Char.RBRACKET, p);
      if (close < 0) return false;
      code = l.str(p + 1, close);
      p = close + 1;
    }
    if (l.at(p) != Char.COLON || l.at(p + 1) != Char.SPACE) return false;
    let m = p + 2;
    if (sev == "note" || sev == "help") {
      // Sub-diagnostics belong to the block they are in; outside one (a panic's `note: run with
      // RUST_BACKTRACE=1`) they are someone else's.
      if (!this.inBlock || this.owner === null) return false;
      this.ownSnippet = false;
      // `help: try using a conversion method`: kept (as a note whose message says help) with the error.
      let d = this.make("note", null, sev == "help" ? "help: " + l.trimmed(m) : l.trimmed(m));
      // A help with its own `-->` (`the trait is not implemented for `Version``, at the struct) gets that location.
      if (sev == "help") { addNote(f, this.owner, d); this.target = d; return true; }
      addNote(f, this.owner, d);
      this.target = d;
      return true;
    }
    if (code === null && s == 0) {
      if (this.summary(l, f, sev, m)) { this.endBlock(); return true; }
      if (sev == "error" && (l.matchAt("test failed, to rerun", m) || l.matchAt("doctest failed, to rerun", m) ||
          l.matchAt("bench failed, to rerun", m) || isLibtestUsage(l, m) ||
          l.indexOf(" target failed", m) >= 0 ||
          l.indexOf(" targets failed", m) >= 0)) return false; // cargo test's, for the runner parser
    }
    let d = this.make(sev, code, l.trimmed(m));
    // A build script's `cargo:warning=msg`: `warning: pkg@0.2.1: msg`, cargo's, no place, whatever came before
    // (under -q no `Compiling` line did); so is its `cargo::error=msg` (`error: pkg@0.2.1: msg`).
    // cargo's warning about a manifest: `warning: /work/Cargo.toml: no edition set: ...`, at that file, no line.
    let mf = code === null && s == 0 && sev == "warning" ? manifestEnd(l, m) : -1;
    if (mf > 0) {
      this.endBlock();
      this.cand = null; this.candRaw = null;
      d.tool = "cargo";
      d.file = normPath(l.str(m, mf));
      d.message = l.trimmed(mf + 2);
      f.addDiagnostic(d);
      return true;
    }
    if (code === null && s == 0 && isBuildScriptWarning(l, m)) {
      this.endBlock();
      this.cand = null; this.candRaw = null;
      d.tool = "cargo";
      f.addDiagnostic(d);
      return true;
    }
    // cargo's own error printed while a test binary runs is a child cargo's (trybuild building its cases:
    // `error: no matching package named `x` found`): the test's output, not this build's.
    if (code === null && s == 0 && sev == "error" && !f.testRun && isCargoError(l, m)) {
      // cargo's own: no location, whatever came before.
      this.endBlock();
      this.cand = null; this.candRaw = null;
      d.tool = "cargo";
      f.addDiagnostic(d);
      this.cargo = d;
      return true;
    }
    // cargo's build script failure is cargo's whatever came before (under -q no `Compiling` line did).
    let script = code === null && s == 0 && sev == "error" && l.matchAt("failed to run custom build command for `", m);
    if (script) this.rust = true;
    if ((code === null && (!this.rust || f.testRun)) || s > 0) {
      // Outside a rust log, or inside a test binary's run (a test's eprintln!): wait for the `-->` line. rustc's wording quotes code in backticks
      // (`unused import: `x``); such a line is held back from the tail meanwhile (and given back to it
      // when no `-->` follows), others are not.
      this.cand = d;
      this.candNo = l.no;
      this.endBlock();
      let held = s > 0 || l.indexOfByte(Char.BACKTICK, m) >= 0;
      this.candRaw = held ? (s > 0 ? l.toString() : l.trimmed(0)) : null;
      let tl = f.tailLines;
      this.candTail = held || tl === null ? -1 : tl.pushed + 1;
      return held;
    }
    this.rust = true;
    f.addDiagnostic(d);
    if (script) { this.script = d; this.scriptMsg = false; this.scriptErr = false; }
    this.inBlock = true;
    this.owner = d;
    this.target = d;
    this.ownSnippet = true;
    this.pendCol = -1;
    this.macroNoted = false;
    this.cand = null;
    return true;
  }

  /**
   * An indented line inside a block at p: `   = help: ...` becomes a help note of the error; in the error's own
   * snippet, the first primary marker with text (`   |    ^^^ expected `i32`, found `usize``, a
   * multi-line span's `   | |_____^ text`, or one after a secondary `-------- ^^^ text`) is its label.
   */
  private gutter(l: Line, f: Facts, p: i32): void {
    let o = this.owner;
    if (o === null) return;
    let c = l.at(p);
    if (c == Char.EQ) {
      let q = l.skipSpaces(p + 1);
      if (l.matchAt("help: ", q)) addNote(f, o, this.make("note", null, "help: " + l.trimmed(q + 6)));
      // A link of the chain in another crate's items, which has no `-->` of its own: `= note: required for `Rgb`
      // to implement `NoUninit`` (a blanket impl), `= note: candidate #2 is defined in an impl of the trait ...`.
      // Other `= note:` lines (lint levels, links) are left out.
      else if (l.matchAt("note: ", q) && (l.matchAt("required ", q + 6) || l.matchAt("candidate #", q + 6))) {
        addNote(f, o, this.make("note", null, l.trimmed(q + 6)));
      }
      return;
    }
    // `  7 |` (a narrow number is indented), `::: src/more.rs:5:5`: the snippet's line and file.
    if (isDigit(c)) { this.snipLine = <i32>l.readInt(p); return; }
    if (c == Char.COLON) {
      if (l.matchAt("::: ", p)) {
        let e = l.len;
        while (e > p && isSpace(l.at(e - 1))) e--;
        this.snipFile = readLoc(l, p + 4, e, this.snip, this.ctx) ? this.snip.file : null;
        this.snipLine = -1;
      }
      return;
    }
    if (c != Char.PIPE) return;
    // An error inside a macro_rules body is one per invocation, all at the macro's line: the invocation
    // (`------------ in this macro invocation` under its numbered line) tells them apart.
    // Under `-Z macro-backtrace` the expansions are numbered: `(#1)` is the outermost, the user's own line.
    if (!this.macroNoted && this.snipFile !== null && this.snipLine > 0 &&
        (l.endsWith("- in this macro invocation") || l.endsWith("- in this macro invocation (#1)"))) {
      let n = this.make("note", null, "in this macro invocation");
      n.file = this.snipFile;
      n.line = this.snipLine;
      addNote(f, o, n);
      this.macroNoted = true;
      return;
    }
    if (!this.ownSnippet || o.label !== null) return;
    let pc = this.pendCol;
    if (pc >= 0) {
      // Under `^^^^^^---`: `|` lines down from the primary span's first column, then its text there.
      this.pendCol = -1;
      let b = l.at(pc);
      if (b == Char.PIPE) { this.pendCol = pc; return; }
      if (b < 0 || isSpace(b)) return;
      for (let i = p + 1; i < pc; i++) { let x = l.at(i); if (x != Char.SPACE && x != Char.PIPE) return; }
      if (pc > 0 && l.at(pc - 1) != Char.SPACE) return;
      o.label = l.trimmed(pc);
      return;
    }
    let q = p + 1;
    while (q < l.len) {
      let b = l.at(q);
      // spans' own drawing (`| |___^`) and secondary markers before the primary one (`-------- ^^^^ text`)
      if (b != Char.SPACE && b != Char.PIPE && b != Char.UNDERSCORE && b != Char.MINUS) break;
      q++;
    }
    if (l.at(q) != Char.CARET) return;
    let first = q;
    // Primary spans on one line (`^     ^`: unused_parens's two parentheses) carry their text after the last.
    while (l.at(q) == Char.CARET) {
      while (l.at(q) == Char.CARET) q++;
      // `^^^^^^^^^^^^^^^---` (a secondary span right after it): the text comes lines below.
      if (l.at(q) == Char.MINUS) { this.pendCol = first; return; }
      if (l.at(q) != Char.SPACE) return;
      q = l.skipSpaces(q);
    }
    // `^^^^^^^^          - unexpected argument`: the primary span has no text; the label after it on the line
    // is a secondary span's (its `-` marker first).
    let e = q;
    while (l.at(e) == Char.MINUS) e++;
    if (e > q && (e >= l.len || l.at(e) == Char.SPACE)) return;
    let text = l.trimmed(q);
    if (text.length > 0) o.label = text;
  }

  /**
   * Adds a rustc diagnostic, unless an earlier compile unit printed it (the same place, level, code and message):
   * the same source built again for another target (an older cargo prints a lib's warnings for `lib` and again
   * for `lib test`; cargo fix does today), or a fresh unit's cached diagnostics replayed as its run printed them
   * (a `--message-format=short` run's lines) before the human-format ones of a unit built anew. One warning, one
   * edit fixes it. Within one unit rustc prints a diagnostic once.
   */
  private keep(f: Facts, d: Diagnostic): void {
    if (this.repeated(d)) return;
    f.addDiagnostic(d);
  }

  /** d equals (place, level, code, message) a diagnostic an earlier unit printed; else it is remembered. */
  private repeated(d: Diagnostic): bool {
    let file = d.file;
    if (file === null) return false;
    let k = (<u64>d.line << 40) ^ (<u64>(d.col & 0xffff) << 24) ^ (<u64>(d.message.length & 0xffff) << 8) ^ <u64>(file.length & 0xff);
    if (d.severity == "error") k ^= <u64>1 << 63;
    let m = this.seenKeys;
    if (m === null) { m = new Map<u64, i32>(); this.seenKeys = m; }
    if (m.has(k)) {
      let i = m.get(k);
      let o = this.seenDiags[i];
      return this.seenUnits[i] < this.unit && o.severity == d.severity && o.message == d.message && o.file == file && o.code == d.code;
    }
    if (this.seenDiags.length < MAX_SEEN) { m.set(k, this.seenDiags.length); this.seenDiags.push(d); this.seenUnits.push(this.unit); }
    return false;
  }

  /** keep's rule for a block's diagnostic, added at its header and placed by its `-->` line (d, the last added). */
  private dropIfRepeated(f: Facts, d: Diagnostic): void {
    if (!this.repeated(d)) return;
    let ds = f.diagnostics;
    if (ds.length == 0 || ds[ds.length - 1] !== d) return;
    ds.pop();
    if (d.severity == "error") f.errorCount--;
    else if (d.severity == "warning") f.warningCount--;
  }

  /** rustc's and cargo's closing lines, which are not diagnostics. */
  private summary(l: Line, f: Facts, sev: string, m: i32): bool {
    // cargo, either severity: `warning: build failed, waiting for other jobs to finish...`
    if (l.matchAt("build failed, waiting for other jobs", m)) { this.rust = true; return true; }
    if (sev == "error") {
      if (l.matchAt("aborting due to ", m)) { this.rust = true; this.unit++; return true; }
      // cargo doc: `error: could not document `shlex``, after rustdoc's own errors (their count is theirs);
      // `error: build script logged errors`, after the script's `cargo::error=` lines (each one an error of its own).
      if (l.matchAt("could not document `", m) || l.matchAt("build script logged errors", m)) { this.rust = true; return true; }
      if (l.matchAt("could not compile `", m)) {
        this.rust = true;
        this.unit++;
        // `(lib test)`, `(test "transfer")`, `(bin "x" test)`: the build of a test target failed (under cargo
        // check or clippy it was only checked: no test was to run).
        let open = l.indexOf(" (", m);
        if (open > 0 && l.indexOf("test", open) > 0 && !f.cargoCheck) {
          // The tests did not build, so none ran: their counts are unknown (null), not 0, unless cargo's
          // runner reads them off another target that did run.
          let fresh = f.tests === null;
          let t = f.testsFor("cargo-test");
          if (fresh) { t.passed = -1; t.failed = -1; t.errors = -1; t.skipped = -1; }
        }
        return true;
      }
      return false;
    }
    // `warning: 2 warnings emitted`, `warning: `x` (bin "x") generated 2 warnings (run `cargo fix` ...)`
    if (isDigit(l.at(m)) && l.indexOf(" emitted", m) > 0) { this.unit++; return true; }
    if (l.at(m) == Char.BACKTICK && l.indexOf(") generated ", m) > 0) { this.unit++; return true; }
    return false;
  }

  private make(sev: string, code: string | null, msg: string): Diagnostic {
    let d = new Diagnostic();
    d.tool = "rustc";
    d.severity = sev;
    d.code = code;
    d.message = msg;
    return d;
  }
}

/** At m: `pkg@1.2.3: ` (a package name, `@`, a version up to `: `), how cargo prefixes a build script's warning. */
function isBuildScriptWarning(l: Line, m: i32): bool {
  let n = l.len;
  let p = m;
  while (p < n) {
    let c = l.at(p);
    if (!(isDigit(c) || (c | 0x20) >= Char.a && (c | 0x20) <= Char.z || c == Char.MINUS || c == Char.UNDERSCORE)) break;
    p++;
  }
  if (p == m || p + 1 >= n || l.at(p) != Char.AT || !isDigit(l.at(p + 1))) return false;
  p += 2;
  while (p < n && l.at(p) != Char.COLON) { if (isSpace(l.at(p))) return false; p++; }
  return p + 1 < n && l.at(p + 1) == Char.SPACE;
}

/** At m: the absolute path of a manifest and `: ` (`/work/sub/Cargo.toml: msg`): the colon's index, else -1. */
function manifestEnd(l: Line, m: i32): i32 {
  if (l.at(m) != Char.SLASH) return -1;
  let c = l.indexOf("Cargo.toml: ", m);
  if (c < 0) return -1;
  if (c > m && l.at(c - 1) != Char.SLASH) return -1;
  for (let i = m; i < c; i++) if (isSpace(l.at(i))) return -1;
  return c + 10;
}

/** cargo right-aligns its verb to end at column 12 (`   Compiling x v0.1.0 (.)`): its CARGO_VERBS index at p, or -1. */
function cargoVerb(l: Line, p: i32): i32 {
  let c = l.at(p);
  if (p > 11 || l.at(12) != Char.SPACE || c < Char.A || c > Char.Z) return -1;
  for (let i = 0; i < CARGO_VERBS.length; i++) {
    let v = CARGO_VERBS[i];
    if (<i32>v.charCodeAt(0) == c && l.matchAt(v, p)) return i;
  }
  return -1;
}

/** True when the message at m opens like one of cargo's own errors (CARGO_ERRORS). */
function isCargoError(l: Line, m: i32): bool {
  for (let i = 0; i < CARGO_ERRORS.length; i++) if (l.matchAt(CARGO_ERRORS[i], m)) return true;
  for (let i = 0; i + 1 < CARGO_ERRORS_IF.length; i += 2) {
    if (l.matchAt(CARGO_ERRORS_IF[i], m) && l.indexOf(CARGO_ERRORS_IF[i + 1], m) > 0) return true;
  }
  return false;
}

/** The CARGO_CONTEXT entry the line starts with, or -1. */
function cargoContext(l: Line): i32 {
  if (isSpace(l.at(0))) return -1;
  for (let i = 0; i < CARGO_CONTEXT.length; i++) if (l.startsWith(CARGO_CONTEXT[i])) return i;
  return -1;
}

/** `7 |     let x`, `12 -     old`, `12 +     new`: a numbered gutter line. */
function isNumberedGutter(l: Line): bool {
  let p = 0;
  while (isDigit(l.at(p))) p++;
  if (l.at(p) != Char.SPACE) return false;
  p = l.skipSpaces(p);
  let c = l.at(p);
  return c == Char.PIPE || c == Char.PLUS || c == Char.MINUS || c == Char.TILDE || c < 0;
}
