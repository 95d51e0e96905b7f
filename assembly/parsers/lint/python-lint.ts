// Python's linters, one finding a line: flake8 and pycodestyle (`src/a.py:3:1: E302 expected 2 blank lines,
// found 1`), ruff's concise format (`src/a.py:4:8: F401 [*] `json` imported but unused`) and pylint's
// (`src/a.py:34:4: W0612: Unused variable 'count' (unused-variable)`, its column counted from 0, under a
// `************* Module pkg.a` header, and the closing `Your code has been rated at 9.50/10`); ruff's full format
// (its default: `F401 [*] `json` imported but unused`, ` --> src/a.py:4:8`, a source snippet and
// `help:` lines, a blank line after each), and ruff's closing lines (`Found 2 errors.`, `[*] 1 fixable with the
// `--fix` option.`, `No fixes available ...`); pylint's parseable format and the `pylint` format of ruff and flake8
// (`src/a.py:34: [W0612(unused-variable), main] Unused variable 'count'`, `src/a.py:4: [F401] …`: no column);
// ruff's grouped format (`src/a.py:`, then its findings indented, `   4:8  F401 [*] `json` imported but unused`,
// a blank line after the file's last).
//
// Severity: pylint's E and F (error, fatal) are errors, its W, C and R (warning, convention, refactor) warnings;
// every finding of flake8 and ruff is an error, whatever its code (pycodestyle's W ones too): each fails the run
// and both count them so (`Found 2 errors.`, `flake8 --count`). A finding of the concise shape is flake8's until
// the run's `Found N errors.` says ruff (or its `[*]` fix mark does).
//
// pyright's default output: each file's path alone at column 0, then its findings indented two spaces, `  /work/
// pkg/fmt.py:5:12 - error: Type "int" is not assignable to return type "str"` (`warning:`, `information:` too),
// the message's further lines indented deeper under it, its rule closing the last of them (`(reportReturnType)`:
// the code), and the closing `2 errors, 1 warning, 1 information`. A path line is held back (Facts.released) until
// the next line says it is a header; the finding's first line is its message.
//
// black --check: `would reformat /work/pkg/a.py`, one line a file, then `Oh no! 💥 💔 💥` and `2 files would be
// reformatted, 3 files would be left unchanged.` (`All done! ✨ 🍰 ✨` when none would be); isort --check-only:
// `ERROR: /work/pkg/a.py Imports are incorrectly sorted and/or formatted.`. Each file is an error (the check fails
// the run), with no line: the tool names none.
//
// Django's system checks (`manage.py check`, and every `manage.py test`, `runserver`, `migrate` before it runs):
// `System check identified some issues:` (after `SystemCheckError: ` when one is an error: the command stops), a
// blank line, then a section per level (`ERRORS:`, `WARNINGS:`, …) of `shop.Item.price: (fields.E130) DecimalFields
// must define a 'decimal_places' attribute.` (the object checked, `?` for none; the check's id), each perhaps
// followed by a tab-indented `HINT: …`, and the closing `System check identified 3 issues (0 silenced).`. The id's
// letter is its level: E and C errors, W warnings, I and D notes. No file: the object is the message's head.
//
// Sphinx (`sphinx-build`) and docutils: `docs/index.rst:37: WARNING: Title underline too short.` (`ERROR:`, `SEVERE:`,
// `CRITICAL:`, `INFO:`; `pkg/mod.py:docstring of pkg.mod.f:3: WARNING: …`; `docs/usage.rst: WARNING: document isn't
// included in any toctree`, with no line; Sphinx 7's type after the message, `[ref.ref]`: the code), docutils' own
// `usage.rst:4: (ERROR/3) Unknown target name: "x".`. Sphinx counts every one of them among the build's warnings
// (`build succeeded, 4 warnings.`), so each is a warning, but the one `-W` stopped the build on (`Warning, treated as
// error:`, then `path:37:message`, no blank and no level: an error), and `-W --keep-going`'s closing `build finished
// with problems, 4 warnings.` fails the build. A bare `WARNING: msg` (the configuration's) only in a run Sphinx
// announced (`Running Sphinx v5.3.0`). docutils' levels are its own: ERROR and SEVERE errors, INFO a note.
// A Sphinx warning ending with `:` goes on below (autodoc's exception, a traceback, intersphinx's issue): sphinx-cause.ts.
//
// Python's own warnings (the warnings module's format: the interpreter's, unittest's, pytest's `warnings summary`):
// `/work/app.py:10: DeprecationWarning: old() is deprecated`, then the source line indented two spaces more. pytest
// indents both two spaces under the test that raised it; unittest -v writes it after its `test_x (…) ... `. A warning
// of the run at its line, its category the code (`-W error` makes it an exception: python.ts).
//
// pylint's JSON reporters: `--output-format=json`, one array of objects, a key a line (`"type": "warning"` first, then
// `"line": 8`, `"column": 4` counted from 0, `"path": "pkg/a.py"`, `"symbol"`, `"message"`, `"message-id": "W0612"`);
// `json2`, the same objects (`"messageId"`, `"absolutePath"`, keys in another order) under `"messages"`, then a
// `"statistics"` object. An object's `"type"` line starts it, its `}` ends it; the array's and the statistics' lines
// after the first object are the report's too. Levels as pylint's text format's.
//
// mypy's JSON output (`mypy -O json`): one object a line, `{"file": "pkg/a.py", "line": 8, "column": 17, …,
// "message": "…", "hint": null, "code": "assignment", "severity": "error"}`, its column counted from 0; a note
// (`severity: "note"`) is one too, and a hint goes on its message's next line.
//
// pydocstyle: two lines a finding, the definition's place (`src/a.py:49 in public function `f`:`, `src/a.py:6 at
// module level:`, `(skipping N801)` before the colon when a noqa names another code), then the code and message
// indented eight spaces (`        D103: Missing docstring in public function`); no closing count. Each is an error:
// pydocstyle exits 1 on any.
import { Char, isDigit, isIdent } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts, Diagnostic } from "../../model";
import { Parser } from "../../parser";
import { ByteSet } from "../../util/byte-set";
import { normPath, isRuntimePath } from "../../frames";
import { DiagOnce } from "../diag-once";
import { decodeJsonString, jsonBuf } from "../../util/json-string";
import { decode } from "../../util/utf8";
import { SphinxCause } from "./sphinx-cause";

/**
 * Keys that start something at rest: a ruff header's code, pylint's `*`, ruff's `[*] N fixable`; pyright's path
 * (`/`, `.` when relative), its findings' too (their key after the indent), and its closing counts (a digit).
 */
const STARTS = new ByteSet().upper().chars("*[i/.{wb\"").digits();
const MYPY_JSON = "{\"file\": \"";
const DJANGO_ISSUES = "System check identified ";

/** Lines ending so can start something too: ruff's grouped format's file line (`src/a.py:`). */
const ENDS = new ByteSet().chars(":");

const enum Block { NONE = 0, HEADER = 1, SNIPPET = 2, PYRIGHT = 3, GROUPED = 4, WARNED = 5, PYLINT_JSON = 6 }

export class PyLintParser extends Parser {
  private block: i32 = Block.NONE;
  /** ruff full format: the header read, waiting for its ` --> path:line:col` line. */
  private pending: Diagnostic | null = null;
  /** Concise findings tagged flake8 so far, retagged ruff when ruff's summary comes. */
  private guessed: Array<Diagnostic> = [];
  /** pyright: a path line held back until the next line says it heads findings; the finding whose lines follow. */
  private held: string | null = null;
  private finding: Diagnostic | null = null;
  /** Inside Django's system-check report; its last issue (a `HINT:` line may follow it). */
  private django: bool = false;
  /** Sphinx: `Running Sphinx v…` was read; `Warning, treated as error:` was the last line (the next is the error). */
  private sphinx: bool = false;
  private asError: bool = false;
  /** The lines after a Sphinx warning ending with `:` (sphinx-cause.ts). */
  private cause: SphinxCause = new SphinxCause();
  private issue: Diagnostic | null = null;
  /** ruff's grouped format: the held line is a file's line (`src/a.py:`); the file whose findings follow. */
  private heldGroup: bool = false;
  private group: string = "";
  /** After a Python warning (Block.WARNED): the indent of its source line. */
  private warnIndent: i32 = 0;
  /** The Python warnings read so far (made at the first). */
  private once: DiagOnce | null = null;
  /** pylint's JSON: the object being read (Block.PYLINT_JSON); an object was read (the report's other lines are its). */
  private obj: Diagnostic | null = null;
  private pjson: bool = false;
  /** pydocstyle: the held line is a definition's place, this its finding until the code's line comes. */
  private doc: Diagnostic | null = null;

  atRest(): bool { return this.block == Block.NONE && this.held === null && !this.django && !this.asError && !this.cause.open() && !this.pjson; }
  starts(): ByteSet | null { return STARTS; }
  headColonStarts(): bool { return true; }
  endsStarts(): ByteSet | null { return ENDS; }
  busy(): bool { return this.block != Block.NONE || this.held !== null || this.django || this.asError || this.cause.open() || this.pjson; }

  claim(l: Line, f: Facts): bool {
    if (this.block == Block.PYLINT_JSON || this.pjson) {
      if (this.pylintJson(l, f)) return true;
      this.block = Block.NONE; this.obj = null; this.pjson = false;
    }
    if (this.cause.open() && this.cause.line(l)) return true;
    if (this.asError) { this.asError = false; if (this.docs(l, f, -1, true)) return true; }
    if (this.django) {
      if (this.djangoLine(l, f)) return true;
      this.django = false; this.issue = null;
    }
    let c0s = l.at(0);
    if (c0s == Char.S && (l.startsWith(DJANGO_ISSUES) || l.startsWith("SystemCheckError: "))) {
      let p = l.at(6) == Char.C ? 18 : 0;
      if (l.matchAt(DJANGO_ISSUES, p) && l.endsWith(" issues:")) { this.django = true; return true; }
      if (p == 0 && l.endsWith(" silenced).")) return true;
    }
    if (this.block == Block.PYRIGHT) {
      // A finding's further lines: indented deeper than it (two spaces, then more in no-break spaces, U+00A0,
      // C2 A0 in UTF-8, or plain ones); the last ends with its rule.
      let c2 = l.at(2);
      if (l.at(0) == Char.SPACE && l.at(1) == Char.SPACE && (c2 == Char.SPACE || c2 == 0xC2 && l.at(3) == 0xA0)) {
        let d = this.finding;
        if (d !== null) { let r = ruleAt(l); if (r >= 0) d.code = l.str(r + 2, l.len - 1); }
        return true;
      }
      this.block = Block.NONE;
      this.finding = null;
    }
    if (this.block == Block.WARNED) {
      this.block = Block.NONE;
      let n = this.warnIndent;
      if (l.skipSpaces(0) == n && n < l.len) return true;
    }
    if (this.block == Block.GROUPED) {
      if (this.groupedFinding(l, f)) return true;
      this.block = Block.NONE;
    }
    if (this.held !== null) {
      let h = this.held!;
      this.held = null;
      if (this.heldGroup) {
        this.heldGroup = false;
        this.group = normPath(h.substring(0, h.length - 1));
        if (this.groupedFinding(l, f)) { this.block = Block.GROUPED; return true; }
      } else if (this.doc !== null) {
        let d = this.doc!;
        this.doc = null;
        if (pydocCode(l, d)) { f.addDiagnostic(d); return true; }
      } else if (this.pyright(l, f)) return true;
      f.released.push(h);
    }
    if (this.block == Block.HEADER) {
      this.block = Block.NONE;
      let d = this.pending;
      this.pending = null;
      if (d !== null && this.arrow(l, d)) { f.addDiagnostic(d); this.block = Block.SNIPPET; return true; }
    } else if (this.block == Block.SNIPPET) {
      if (!l.isBlank()) return true;
      this.block = Block.NONE;
      return false;
    }
    let c0 = l.at(0);
    // A line offered for its last byte alone (ENDS): ruff's grouped file line, else nothing of these tools.
    if (l.at(l.len - 1) == Char.COLON && this.block == Block.NONE) {
      if (c0 != Char.SPACE && c0 != Char.TAB && endsPy(l, l.len - 1) && l.indexOfByte(Char.SPACE) < 0) {
        this.held = l.toString();
        this.heldGroup = true;
        return true;
      }
      let d = pydocPlace(l);
      if (d !== null) { this.held = l.toString(); this.doc = d; return true; }
      if (!STARTS.has(l.at(l.skipSpaces(0))) && l.headColon() < 0) return false;
    }
    if (c0 == Char.w) return fileFinding(l, f, "black", WOULD_REFORMAT.length, l.len, WOULD_REFORMAT, "black would reformat this file");
    if (c0 == Char.E && l.at(1) == Char.R && l.len > ISORT_TAIL.length + 7 && l.matchAt(ISORT_TAIL, l.len - ISORT_TAIL.length))
      return fileFinding(l, f, "isort", 7, l.len - ISORT_TAIL.length, "ERROR: ", "imports are incorrectly sorted and/or formatted");
    if (c0 == Char.O && l.startsWith("Oh no! ") || c0 == Char.A && l.startsWith("All done! ")) return true;
    if (c0 == Char.b) return this.sphinxClosing(l, f);
    if (c0 == Char.R && l.startsWith("Running Sphinx v")) { this.sphinx = true; return true; }
    if (c0 == Char.W && l.startsWith("Warning, treated as error:")) { this.asError = true; return true; }
    if (c0 == Char.W && this.sphinx && l.startsWith("WARNING: ")) return this.docs(l, f, -2, true);
    let hk = l.headColon();
    if (hk > 0 && (this.docs(l, f, hk, this.sphinx) || this.pyWarning(l, f, hk, 0))) return true;
    if (c0 == Char.SPACE) {
      if (l.at(1) == Char.SPACE && l.at(2) != Char.SPACE && this.pyWarning(l, f, l.indexOf(": ", 3), 2)) return true;
      return this.pyright(l, f) || this.pylintJson(l, f);
    }
    if (c0 == Char.TAB || c0 < 0) return false;
    if (c0 == Char.SLASH || c0 == Char.DOT) return this.pathLine(l);
    if (isDigit(c0)) return pyrightCounts(l);
    if (c0 == Char.LBRACE) return mypyJson(l, f);
    let k = l.headColon();
    if (k > 0 && this.concise(l, f, k)) return true;
    return this.closing(l) || this.fullHeader(l);
  }

  /** A line of Django's system-check report: a level's heading, an issue, its hint, a blank line, the closing count. */
  private djangoLine(l: Line, f: Facts): bool {
    if (l.isBlank()) return true;
    let c = l.at(0);
    if (c == Char.TAB && l.matchAt("HINT: ", 1)) {
      let d = this.issue;
      if (d !== null) {
        let n = new Diagnostic();
        n.tool = "django"; n.severity = "note"; n.message = l.trimmed(1);
        d.notes.push(n);
      }
      return true;
    }
    if (c == Char.S && l.startsWith(DJANGO_ISSUES)) { this.django = false; this.issue = null; return true; }
    if (l.endsWith(":") && (l.startsWith("ERRORS") || l.startsWith("WARNINGS") || l.startsWith("CRITICALS") || l.startsWith("INFOS") || l.startsWith("DEBUGS"))) return true;
    // `obj: (label.E130) message`
    let k = l.indexOf(": (");
    if (k < 0) return false;
    let close = l.indexOfByte(Char.RPAREN, k + 3);
    if (close < 0 || l.at(close + 1) != Char.SPACE) return false;
    let dot = l.lastIndexOfByte(Char.DOT, close);
    if (dot <= k + 3 || close - dot < 3) return false;
    let lv = l.at(dot + 1);
    for (let i = dot + 2; i < close; i++) if (!isDigit(l.at(i))) return false;
    let sev = lv == Char.E || lv == Char.C ? "error" : lv == Char.W ? "warning" : lv == Char.I || lv == Char.D ? "note" : "";
    if (sev.length == 0) return false;
    let d = new Diagnostic();
    d.tool = "django";
    d.severity = sev;
    d.code = l.str(k + 3, close);
    let text = l.trimmed(close + 2);
    d.message = k == 1 && l.at(0) == Char.QUESTION ? text : l.str(0, k) + ": " + text;
    f.addDiagnostic(d);
    this.issue = d;
    return true;
  }

  /**
   * A Python warning, `path.py:LINE: CategoryWarning: message` (k: the `: ` after LINE; indent: the line's), its path
   * after the line's last space before it (unittest -v's `test_x (…) ... ` ahead of it: the line is left to unittest's
   * reader too) and unittest's progress dots, written to the same stream: its source line follows (Block.WARNED).
   */
  private pyWarning(l: Line, f: Facts, k: i32, indent: i32): bool {
    let c = l.at(k + 2);
    if (k < indent + 5 || c < Char.A || c > Char.Z) return false;
    let i = k + 3;
    while (isIdent(l.at(i))) i++;
    if (i - k < 9 || !l.matchAt("Warning: ", i - 7)) return false;
    let a = l.lastIndexOfByte(Char.SPACE, k) + 1;
    // Another's line before it (unittest -v's `test_x (…) ... `): read, and left to that reader too.
    let after = a > indent;
    if (a < indent) a = indent;
    // unittest's progress dots before an absolute path (`../work/t.py`): `..` is no directory Python names here.
    let n = 0;
    while (l.at(a + n) == Char.DOT) n++;
    if (n > 0 && l.at(a + n) == Char.SLASH && (n > 1 || l.matchAt("/work/", a + n))) a += n;
    let d = placed(l, k, a);
    // A library's warning about another (site-packages, the standard library's): not the program's to fix, left
    // to the tail as before.
    if (d === null || d.col >= 0 || isRuntimePath(d.file!)) return false;
    d.tool = "python";
    d.severity = "warning";
    d.code = l.str(k + 2, i);
    d.message = l.trimmed(i + 2);
    // Printed again by another process (each pytest-xdist worker): one warning.
    let once = this.once;
    if (once === null) { once = new DiagOnce(); this.once = once; }
    if (!once.repeated(d)) f.addDiagnostic(d);
    this.block = Block.WARNED;
    this.warnIndent = (l.at(0) == Char.SPACE ? indent : 0) + 2;
    return !after;
  }

  /** A Sphinx or docutils finding (docsFinding); a Sphinx warning ending with `:` opens its cause. */
  private docs(l: Line, f: Facts, k: i32, sphinx: bool): bool {
    let d = docsFinding(l, f, k, sphinx);
    if (d === null) return false;
    if (d.tool == "sphinx") this.cause.after(d);
    return true;
  }

  /** Sphinx's closing line: `build succeeded, 4 warnings.`; `build finished with problems, …` (-W --keep-going) failed it. */
  private sphinxClosing(l: Line, f: Facts): bool {
    if (l.startsWith("build succeeded")) return this.sphinx;
    if (!l.startsWith("build finished with problems")) return false;
    if (f.buildFailedLine === null) f.buildFailedLine = l.toString();
    return true;
  }

  finish(f: Facts): void {
    this.obj = null; this.pjson = false;
    this.django = false; this.issue = null; this.sphinx = false; this.asError = false;
    if (this.held !== null) f.released.push(this.held!);
    this.held = null; this.finding = null; this.heldGroup = false; this.group = ""; this.doc = null;
    this.block = Block.NONE; this.pending = null; this.guessed.length = 0;
    this.once = null;
  }

  /** pyright's `  path.py:5:12 - error: message (reportX)`: a finding (its further lines follow: Block.PYRIGHT). */
  private pyright(l: Line, f: Facts): bool {
    if (l.at(1) != Char.SPACE || l.at(2) == Char.SPACE) return false;
    let k = l.indexOf(" - ", 3);
    if (k < 0) return false;
    // `path.py:line:col` before it.
    let i = k - 1;
    while (i > 2 && isDigit(l.at(i))) i--;
    if (i == k - 1 || l.at(i) != Char.COLON) return false;
    let col = <i32>l.readInt(i + 1);
    let b = i;
    i = b - 1;
    while (i > 2 && isDigit(l.at(i))) i--;
    if (i == b - 1 || l.at(i) != Char.COLON) return false;
    let line = <i32>l.readInt(i + 1);
    b = i;
    if (!endsPy(l, b)) return false;
    let m = k + 3;
    let sev = "";
    if (l.matchAt("error: ", m)) { sev = "error"; m += 7; }
    else if (l.matchAt("warning: ", m)) { sev = "warning"; m += 9; }
    else if (l.matchAt("information: ", m)) { sev = "note"; m += 13; }
    else return false;
    let d = new Diagnostic();
    d.tool = "pyright";
    d.severity = sev;
    d.file = normPath(l.str(2, b));
    d.line = line;
    d.col = col;
    let r = ruleAt(l);
    if (r > m) { d.code = l.str(r + 2, l.len - 1); d.message = l.str(m, r); }
    else d.message = l.trimmed(m);
    f.addDiagnostic(d);
    this.finding = d;
    this.block = Block.PYRIGHT;
    return true;
  }

  /**
   * A line of pylint's JSON report: an object's `"type": "warning",` starts a finding, its keys fill it, its `}` adds
   * it; after one, the array's brackets and json2's statistics are the report's. At rest only the `"type"` line.
   */
  private pylintJson(l: Line, f: Facts): bool {
    let p = l.skipSpaces(0);
    let c = l.at(p);
    let d = this.obj;
    if (c == Char.QUOTE) {
      if (l.matchAt("\"type\": \"", p)) {
        let sev = pylintLevel(l, p + 9);
        if (sev.length == 0) return false;
        d = new Diagnostic();
        d.tool = "pylint";
        d.severity = sev;
        this.obj = d;
        this.block = Block.PYLINT_JSON;
        return true;
      }
      if (d === null) return this.pjson && l.indexOf("\": ", p + 1) > 0;
      if (l.matchAt("\"line\": ", p)) d.line = <i32>l.readInt(p + 8);
      else if (l.matchAt("\"column\": ", p)) { let col = l.readInt(p + 10); d.col = col >= 0 ? <i32>col + 1 : -1; }
      else if (l.matchAt("\"path\": \"", p)) d.file = normPath(strAt(l, p + 9));
      else if (l.matchAt("\"message\": \"", p)) {
        // duplicate-code's message goes on over lines (`\n`): its first, as the text format's line.
        let m = strAt(l, p + 12);
        let nl = m.indexOf("\n");
        d.message = nl >= 0 ? m.substring(0, nl) : m;
      }
      else if (l.matchAt("\"message-id\": \"", p)) d.code = strAt(l, p + 15);
      else if (l.matchAt("\"messageId\": \"", p)) d.code = strAt(l, p + 14);
      else if (l.indexOf("\": ", p + 1) < 0) return false;
      return true;
    }
    if (c == Char.RBRACE && d !== null) {
      this.obj = null;
      this.block = Block.NONE;
      if (d.file === null || d.line < 0 || d.message.length == 0) return false;
      f.addDiagnostic(d);
      this.pjson = true;
      return true;
    }
    // `{`, `},`, `]`, `],`: the report's punctuation, once an object was read.
    if (!this.pjson || d !== null) return false;
    if (c != Char.LBRACE && c != Char.RBRACE && c != Char.LBRACKET && c != Char.RBRACKET) return false;
    let e = l.len;
    while (e > p + 1 && (l.at(e - 1) == Char.SPACE || l.at(e - 1) == Char.COMMA)) e--;
    return e == p + 1;
  }

  /** A path alone at column 0 (`/work/pkg/fmt.py`): pyright's file header if findings follow; held until then. */
  private pathLine(l: Line): bool {
    if (!endsPy(l, l.len) || l.indexOfByte(Char.SPACE) >= 0 || l.indexOfByte(Char.COLON) >= 0) return false;
    this.held = l.toString();
    return true;
  }

  /** `path:line:col: CODE msg` (flake8, pycodestyle, ruff) or `path:line:col: CODE: msg (symbol)` (pylint). */
  private concise(l: Line, f: Facts, k: i32): bool {
    let s = k + 2;
    if (l.at(s) == Char.LBRACKET) return this.parseable(l, f, k);
    let e = codeEnd(l, s);
    if (e < 0) return pyflakes(l, f, k);
    let pylint = l.at(e) == Char.COLON;
    if (!pylint && l.at(e) != Char.SPACE) return false;
    let d = placed(l, k);
    if (d === null) return false;
    if (pylint && d.col >= 0) d.col++;
    d.code = l.str(s, e);
    let m = l.skipSpaces(pylint ? e + 1 : e);
    let ruff = false;
    if (l.matchAt("[*] ", m)) { ruff = true; m = l.skipSpaces(m + 4); }
    d.message = l.trimmed(m);
    let c = l.at(s);
    if (pylint) {
      d.tool = "pylint";
      d.severity = c == Char.E || c == Char.F ? "error" : "warning";
    } else {
      d.tool = ruff ? "ruff" : "flake8";
      d.severity = "error";
      if (!ruff && this.guessed.length < 4096) this.guessed.push(d);
    }
    f.addDiagnostic(d);
    return true;
  }

  /**
   * The pylint-style line, no column: pylint's `--output-format=parseable` (`a.py:274: [C0301(line-too-long), Obj.fn]
   * Line too long (118/100)`: the code, its symbol and the object it is in) and the `pylint` format of ruff and flake8
   * (`a.py:23: [UP010] Unnecessary …`: the code alone; flake8's until ruff's closing count says ruff).
   */
  private parseable(l: Line, f: Facts, k: i32): bool {
    let s = k + 3;
    let e = codeEnd(l, s);
    if (e < 0) return false;
    let c = l.at(e);
    let pylint = c == Char.LPAREN;
    if (!pylint && c != Char.RBRACKET) return false;
    let close = pylint ? l.indexOf("] ", e) : e;
    if (close < 0) return false;
    let d = placed(l, k);
    if (d === null || d.col >= 0) return false;
    d.code = l.str(s, e);
    d.message = l.trimmed(close + 1);
    if (pylint) {
      let c0 = l.at(s);
      d.tool = "pylint";
      d.severity = c0 == Char.E || c0 == Char.F ? "error" : "warning";
    } else {
      d.tool = "flake8";
      d.severity = "error";
      if (this.guessed.length < 4096) this.guessed.push(d);
    }
    f.addDiagnostic(d);
    return true;
  }

  /**
   * A finding of ruff's grouped format under its file's line: `   23:1  UP010 [*] Unnecessary …` (line and column
   * right-aligned, the code's column padded), `  2:1 invalid-syntax: unexpected EOF while parsing`.
   */
  private groupedFinding(l: Line, f: Facts): bool {
    if (l.at(0) != Char.SPACE || l.at(1) != Char.SPACE) return false;
    let p = l.skipSpaces(0);
    let line = l.readInt(p);
    if (line < 0 || l.at(l.end) != Char.COLON) return false;
    let col = l.readInt(l.end + 1);
    if (col < 0 || l.at(l.end) != Char.SPACE) return false;
    let s = l.skipSpaces(l.end);
    let d = new Diagnostic();
    if (l.matchAt("invalid-syntax: ", s)) d.message = l.trimmed(s + 16);
    else {
      let e = codeEnd(l, s);
      if (e < 0 || l.at(e) != Char.SPACE) return false;
      d.code = l.str(s, e);
      let m = l.skipSpaces(e);
      if (l.matchAt("[*] ", m)) m = l.skipSpaces(m + 4);
      d.message = l.trimmed(m);
    }
    d.tool = "ruff";
    d.severity = "error";
    d.file = this.group;
    d.line = <i32>line;
    d.col = <i32>col;
    f.addDiagnostic(d);
    return true;
  }

  /** The closing lines of pylint and ruff. */
  private closing(l: Line): bool {
    if (l.startsWith("************* Module ")) return true;
    if (l.startsWith("Your code has been rated at ")) return true;
    if (l.startsWith("[*] ") && l.contains(" fixable with the ")) { this.retag(); return true; }
    if (l.startsWith("No fixes available (")) { this.retag(); return true; }
    if (l.startsWith("Found ") && (l.endsWith(" error.") || l.endsWith(" errors.") || l.endsWith(" remaining)."))) {
      this.retag();
      return true;
    }
    return false;
  }

  private retag(): void {
    let g = this.guessed;
    for (let i = 0; i < g.length; i++) g[i].tool = "ruff";
    g.length = 0;
  }

  /** ruff's full format: `CODE [*] msg` or `invalid-syntax: msg`, its place on the next line. */
  private fullHeader(l: Line): bool {
    let m = 0;
    let e = 0;
    if (l.startsWith("invalid-syntax: ")) {
      m = 16;
    } else {
      e = codeEnd(l, 0);
      if (e < 0 || l.at(e) != Char.SPACE) return false;
      m = l.skipSpaces(e);
      if (l.matchAt("[*] ", m)) m = l.skipSpaces(m + 4);
      if (m >= l.len) return false;
    }
    // A line of any other tool could open so: nothing is kept until the next line's ` --> ` place.
    let d = new Diagnostic();
    d.tool = "ruff";
    if (e > 0) d.code = l.str(0, e);
    d.severity = "error";
    d.message = l.trimmed(m);
    this.pending = d;
    this.block = Block.HEADER;
    return true;
  }

  /** ` --> src/a.py:4:8` (the arrow's indent is the snippet's gutter width). */
  private arrow(l: Line, d: Diagnostic): bool {
    let p = l.skipSpaces(0);
    if (p == 0 || !l.matchAt("--> ", p)) return false;
    p += 4;
    let n = l.len;
    while (n > p && l.at(n - 1) == Char.SPACE) n--;
    let i = n - 1;
    while (i > p && isDigit(l.at(i))) i--;
    if (i == n - 1 || l.at(i) != Char.COLON) return false;
    let v1 = <i32>l.readInt(i + 1);
    let b = i;
    i = b - 1;
    while (i > p && isDigit(l.at(i))) i--;
    let v2 = -1;
    if (i < b - 1 && l.at(i) == Char.COLON) { v2 = v1; v1 = <i32>l.readInt(i + 1); b = i; }
    if (!endsPy(l, b) && !(b - p > 6 && l.matchAt(".ipynb", b - 6))) return false;
    d.file = normPath(l.str(p, b));
    d.line = v1;
    d.col = v2;
    return true;
  }
}

/** Where ` (reportRule)` closes pyright's line (the blank before its parenthesis), or -1. */
function ruleAt(l: Line): i32 {
  if (l.at(l.len - 1) != Char.RPAREN) return -1;
  let r = l.lastIndexOf(" (report");
  if (r < 0) return -1;
  for (let i = r + 8; i < l.len - 1; i++) { let c = l.at(i); if (!(c >= Char.A && c <= Char.Z) && !(c >= Char.a && c <= Char.z)) return -1; }
  return r;
}

/** pyright's closing counts: `2 errors, 1 warning, 1 information` (`0 errors, 0 warnings, 0 informations `). */
const WOULD_REFORMAT = "would reformat ";
const ISORT_TAIL = " Imports are incorrectly sorted and/or formatted.";

/** `would reformat <path>` (black), `ERROR: <path> Imports are …` (isort): a file's finding, path from a to b. */
function fileFinding(l: Line, f: Facts, tool: string, a: i32, b: i32, head: string, message: string): bool {
  if (b <= a || !l.startsWith(head) || !endsPy(l, b)) return false;
  let d = new Diagnostic();
  d.tool = tool;
  d.severity = "error";
  d.file = normPath(l.str(a, b));
  d.message = message;
  f.addDiagnostic(d);
  return true;
}

/** black's closing count: `2 files would be reformatted, 1 file would be left unchanged.` (or either alone). */
function blackCounts(l: Line): bool {
  let n = l.readInt(0);
  if (n < 0) return false;
  let e = l.end;
  return l.matchAt(" file would be ", e) || l.matchAt(" files would be ", e);
}

function pyrightCounts(l: Line): bool {
  if (blackCounts(l)) return true;
  let n = l.readInt(0);
  if (n < 0 || !l.matchAt(" error", l.end)) return false;
  let w = l.indexOf(", ", l.end);
  if (w < 0 || l.readInt(w + 2) < 0 || !l.matchAt(" warning", l.end)) return false;
  let i = l.indexOf(", ", l.end);
  return i > 0 && l.readInt(i + 2) >= 0 && l.matchAt(" information", l.end);
}

/** A line of `mypy -O json`: its finding (tool mypy), when the line is one (its fields read in place: no tree). */
function mypyJson(l: Line, f: Facts): bool {
  if (!l.startsWith(MYPY_JSON) || l.at(l.len - 1) != Char.RBRACE) return false;
  let s = l.indexOf("\"severity\": \"");
  if (s < 0) return false;
  let note = l.matchAt("note\"", s + 13);
  if (!note && !l.matchAt("error\"", s + 13)) return false;
  let line = intField(l, "\"line\": ");
  let m = l.indexOf("\"message\": \"");
  if (line < 0 || m < 0) return false;
  let d = new Diagnostic();
  d.tool = "mypy";
  d.severity = note ? "note" : "error";
  d.file = normPath(strAt(l, MYPY_JSON.length));
  d.line = <i32>line;
  let col = intField(l, "\"column\": ");
  d.col = col >= 0 ? <i32>col + 1 : -1;
  let c = l.indexOf("\"code\": \"");
  if (c > 0) d.code = strAt(l, c + 9);
  d.message = strAt(l, m + 12);
  let h = l.indexOf("\"hint\": \"");
  if (h > 0) d.message += "\n" + strAt(l, h + 9);
  f.addDiagnostic(d);
  return true;
}

/** pylint's JSON `"type"` value at p (past its quote) as a level: error and fatal errors, info a note; "" for none. */
function pylintLevel(l: Line, p: i32): string {
  let c = l.at(p);
  if (c == Char.w) return l.matchAt("warning\"", p) ? "warning" : "";
  if (c == Char.c) return l.matchAt("convention\"", p) ? "warning" : "";
  if (c == Char.r) return l.matchAt("refactor\"", p) ? "warning" : "";
  if (c == Char.e) return l.matchAt("error\"", p) ? "error" : "";
  if (c == Char.f) return l.matchAt("fatal\"", p) ? "error" : "";
  if (c == Char.i) return l.matchAt("info\"", p) ? "note" : "";
  return "";
}

/** The number after `key` on the line, or -1. */
function intField(l: Line, key: string): i64 {
  let k = l.indexOf(key);
  return k < 0 ? -1 : l.readInt(k + key.length);
}

/** The JSON string whose first byte (past its quote) is at p, unescaped. */
function strAt(l: Line, p: i32): string {
  let n = decodeJsonString(l, p);
  return decode(jsonBuf(), n);
}

/**
 * The place before the colon at k, `path:line:col` (or `path:line`) of a Python file, its path from `from`, as a new
 * finding's (its column as printed); null when the text is no such place.
 */
function placed(l: Line, k: i32, from: i32 = 0): Diagnostic | null {
  let b = k;
  let n2 = -1;
  let i = b - 1;
  while (i > from && isDigit(l.at(i))) i--;
  if (i == b - 1 || l.at(i) != Char.COLON) return null;
  let n1 = <i32>l.readInt(i + 1);
  b = i;
  i = b - 1;
  while (i > from && isDigit(l.at(i))) i--;
  if (i < b - 1 && l.at(i) == Char.COLON) { n2 = n1; n1 = <i32>l.readInt(i + 1); b = i; }
  if (!endsPy(l, b)) return null;
  let d = new Diagnostic();
  d.file = normPath(l.str(from, b));
  d.line = n1;
  d.col = n2;
  return d;
}

/**
 * pyflakes: `pkg/a.py:7:12: undefined name 'x'`, no code (flake8 gives the same findings F codes), its syntax errors
 * too (`pkg/b.py:1:7: invalid syntax`, the source line and a caret after it). Its column is always printed, which
 * tells it from a Python warning's or pytest's `x.py:16: Message` place; mypy's `--show-column-numbers` findings
 * (`x.py:3:5: error: …`) are mypy's. Each is an error, as flake8's F ones: pyflakes exits 1 on any.
 */
function pyflakes(l: Line, f: Facts, k: i32): bool {
  let s = k + 2;
  if (s >= l.len || l.at(k + 1) != Char.SPACE) return false;
  let c = l.at(s);
  if (c == Char.e && l.matchAt("error:", s) || c == Char.w && l.matchAt("warning:", s) || c == Char.n && l.matchAt("note:", s)) return false;
  let d = placed(l, k);
  if (d === null || d.col < 0) return false;
  d.tool = "pyflakes";
  d.severity = "error";
  d.message = l.trimmed(s);
  f.addDiagnostic(d);
  return true;
}

/**
 * pydocstyle's definition line, `src/a.py:49 in public function `f`:` or `src/a.py:6 at module level:` (the line ends
 * with its colon; c0 no blank): its finding's place, or null.
 */
function pydocPlace(l: Line): Diagnostic | null {
  let sp = l.indexOfByte(Char.SPACE);
  if (sp < 5 || !(l.matchAt(" in ", sp) || l.matchAt(" at module level", sp))) return null;
  let d = placed(l, sp);
  if (d === null || d.col >= 0) return null;
  d.tool = "pydocstyle";
  d.severity = "error";
  return d;
}

/** pydocstyle's second line, `        D103: Missing docstring in public function`: d's code and message. */
function pydocCode(l: Line, d: Diagnostic): bool {
  let p = l.skipSpaces(0);
  if (p < 2 || l.at(p) != Char.D) return false;
  let e = codeEnd(l, p);
  if (e < 0 || l.at(e) != Char.COLON || l.at(e + 1) != Char.SPACE) return false;
  d.code = l.str(p, e);
  d.message = l.trimmed(e + 2);
  return true;
}

/** The text before b ends in `.py` or `.pyi`. */
function endsPy(l: Line, b: i32): bool {
  return (b > 3 && l.matchAt(".py", b - 3)) || (b > 4 && l.matchAt(".pyi", b - 4));
}

/**
 * The end of a lint code at s: one to five capital letters, then three or four digits (`E302`, `F401`,
 * `W0612`, `UP006`, `PLR0913`, `ASYNC100`); -1 when there is none.
 */
function codeEnd(l: Line, s: i32): i32 {
  let i = s;
  while (i - s < 6 && l.at(i) >= Char.A && l.at(i) <= Char.Z) i++;
  if (i == s || i - s > 5) return -1;
  let j = i;
  while (j - i < 5 && isDigit(l.at(j))) j++;
  if (j - i < 3 || j - i > 4) return -1;
  return j;
}

/**
 * A Sphinx or docutils finding: `path:line: WARNING: msg` (k: the head colon, after `path:line` or `path`),
 * `path:line: (ERROR/3) msg`; k -1: the line after `Warning, treated as error:`, `path:line:msg` (or the message
 * alone), an error; k -2: a bare `WARNING: msg` (no place). Outside a run Sphinx announced (sphinx false), a
 * `WARNING:` / `ERROR:` finding is Sphinx's only in a document's source (`.rst`, `.md`, `.txt`, a docstring): C++
 * doctest's `test.cpp:38: ERROR: CHECK( … ) is NOT correct!` is not. The finding, or null when the line is none.
 */
function docsFinding(l: Line, f: Facts, k: i32, sphinx: bool): Diagnostic | null {
  let loc = k == -2 ? 0 : k;
  let m = k == -2 ? 0 : k + 2;
  let sev = "";
  let tool = "sphinx";
  if (k == -1) {
    // `path:37:message`: the first `:digits:`.
    let c = l.indexOfByte(Char.COLON);
    while (c > 0 && !(l.readInt(c + 1) >= 0 && l.at(l.end) == Char.COLON)) c = l.indexOfByte(Char.COLON, c + 1);
    // None: the warning names no place (`html_static_path entry '_static' does not exist`).
    if (c > 0) { loc = l.end; m = loc + 1; }
    else { if (l.isBlank()) return null; loc = 0; m = 0; }
    sev = "error";
  } else {
    // The level's first byte, then its word: no allocation for the lines of other tools.
    let c = l.at(m);
    if (c == Char.W) { if (!l.matchAt("WARNING: ", m)) return null; sev = "warning"; m += 9; }
    else if (c == Char.E) { if (!l.matchAt("ERROR: ", m)) return null; sev = "warning"; m += 7; }
    else if (c == Char.S) { if (!l.matchAt("SEVERE: ", m)) return null; sev = "warning"; m += 8; }
    else if (c == Char.C) { if (!l.matchAt("CRITICAL: ", m)) return null; sev = "warning"; m += 10; }
    else if (c == Char.I) { if (!l.matchAt("INFO: ", m)) return null; sev = "note"; m += 6; }
    else if (c == Char.LPAREN && k > 0) {
      sev = l.matchAt("(WARNING/2) ", m) ? "warning" : l.matchAt("(ERROR/3) ", m) || l.matchAt("(SEVERE/4) ", m) ? "error" : l.matchAt("(INFO/1) ", m) ? "note" : "";
      if (sev.length == 0) return null;
      m = l.indexOfByte(Char.RPAREN, m) + 2;
      tool = "docutils";
    } else return null;
  }
  let d = new Diagnostic();
  d.tool = tool;
  d.severity = sev;
  // `path:line` (its line the digits after the last colon), `path:docstring of x:line`, or `path` alone.
  if (loc > 0) {
    let c = l.lastIndexOfByte(Char.COLON, loc);
    let n = c > 0 && c + 1 < loc ? l.readInt(c + 1) : -1;
    let end = n >= 0 && l.end == loc ? c : loc;
    if (end != loc) d.line = n;
    let doc = l.indexOf(":docstring of ", 0);
    if (doc > 0 && doc < end) end = doc;
    else if (!sphinx && d.tool == "sphinx" && !docSource(l, end)) return null;
    // A file's path: no blank in it (a timestamp's `12:00:00,123: WARNING:` is none).
    let sp = l.indexOfByte(Char.SPACE);
    if (end <= 0 || sp >= 0 && sp < end) return null;
    d.file = normPath(l.str(0, end));
  }
  let e = l.len;
  while (e > m && l.at(e - 1) == Char.SPACE) e--;
  // Sphinx 7's `[ref.ref]` after the message: its type.
  if (e > m + 2 && l.at(e - 1) == Char.RBRACKET) {
    let ob = l.lastIndexOfByte(Char.LBRACKET, e);
    if (ob > m && l.at(ob - 1) == Char.SPACE && l.indexOfByte(Char.SPACE, ob) < 0) { d.code = l.str(ob + 1, e - 1); e = ob - 1; }
  }
  d.message = l.trimmed(m, e);
  if (d.message.length == 0) return null;
  f.addDiagnostic(d);
  return d;
}

/** The path on [0, end) is a document's source: `.rst`, `.rest`, `.txt`, `.md`, `.inc`. */
function docSource(l: Line, end: i32): bool {
  return l.matchAt(".rst", end - 4) || l.matchAt(".rest", end - 5) || l.matchAt(".txt", end - 4) || l.matchAt(".md", end - 3) || l.matchAt(".inc", end - 4);
}

