// go build and go vet: `# example.com/m` package headers, `./main.go:5:2: undefined: x` (optionally after
// `vet: `), and the tab-indented `have (...)` / `want (...)` lines that continue a message.
//
// The two print findings the same way, so the message decides: vet's analyzers have their own phrasing
// (`fmt.Printf format %d has arg x of wrong type string`, `unreachable code`, `self-assignment of x`),
// the type checker its own (`undefined:`, `declared and not used`, `cannot use`). A finding neither list
// knows takes the tool of the others under the same package header, else `go`. Vet findings (and golint's
// style suggestions, which print the same way) are warnings;
// but `go vet` fails when it reports any, so a log whose only findings are vet's, from a run that did not
// exit 0, gets facts.buildFailedLine: the build step (vet) failed. A finding printed again under one more
// build of its package (`go test ./...`: `# m` and `# m [m/sub.test]`) is one finding.
import { Char, isDigit } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts, Diagnostic } from "../../model";
import { Parser } from "../../parser";
import { ByteSet } from "../../util/byte-set";
import { DiagContext, setSeverity } from "../diag-context";
import { DiagOnce } from "../diag-once";
import { decodeJsonString, jsonBuf } from "../../util/json-string";

/** The most `\timports x` lines of an import stanza kept (its cycle is named from them). */
const MAX_CHAIN = 64;

const VET_PHRASES: string[] = [
  "format %", " call has possible ", "possible formatting directive", "arg list ends with redundant newline",
  " call needs ", " of wrong type ", "reads arg #", "unreachable code", "self-assignment of ", "lock by value",
  "copies lock", "possible misuse of ", "misuse of unbuffered", "should have signature", "struct field tag ",
  "reflect.StructTag.Get", "composite literal uses unkeyed fields", "result of ", "the cancel function",
  "loop variable ", "comparison of function ", "suspect or:", "redundant or:", "redundant and:",
  "using resp before checking for errors", "second argument to errors.As", "yields a string of one rune",
  "passes non-pointer", "should be 2006-01-02", "ineffective break statement", "malformed example suffix",
  "non-constant format string in call to ", "direct assignment to atomic value", "too small for shift of",
  "misplaced +build comment", "possible nil pointer dereference", "fmt.Println arg list", "Println call has",
  "Errorf call has", "is never nil", "call to (*testing.", "from a non-test goroutine", "has no effect",
  "defer should not", "Printf call has", "Sprintf call has", "Fprintf call has", "wrong number of args",
  "unusedresult", "printf:", "copylocks:", "assign:", "unusedwrite", "format reads arg ", "missing argument for ",
  // buildtag's: a file's `// +build` and `//go:build` lines (go test's vet stops the build on them, as on any).
  "+build lines do not match //go:build condition", "misplaced //go:build comment", "unexpected extra //go:build line",
  "malformed //go:build line", "possible malformed +build comment", "in build constraint: ",
];

// golint's suggestions (style, never a failure of the build): `exported var X should have comment or be
// unexported`, `should replace x += 1 with x++`, `var fooId should be fooID`, `don't use underscores in Go names`.
const LINT_PHRASES: string[] = [
  " should have comment", "comment on exported ", "should replace ", "should omit type ", "should drop ",
  "drop this else", "don't use ", " should be ", "should not be capitalized", "returns unexported type",
  "a blank import should be", "package comment should", "should not use dot imports",
];

const BUILD_PHRASES: string[] = [
  "undefined:", "declared and not used", "declared but not used", "imported and not used", "cannot use ",
  "missing return", "too many arguments", "not enough arguments", "invalid operation", "syntax error",
  "mismatched types", "cannot assign", "redeclared in this block", "has no field or method", "assignment mismatch",
  "non-boolean", "is not used", "cannot convert", "not a type", "missing function body", "invalid recursive type",
  "import cycle not allowed", "no new variables on left side", "used as value", "cannot range over",
  "too many return values", "not enough return values", "does not implement", "cannot call non-function",
  "invalid character", "unknown field", "duplicate ", "overflows ", "truncated", "division by zero",
  "could not import", "is not a package", "cannot infer", "not exported", "undefined (type", "missing ",
  "invalid argument", "expected ", "unexpected ", "cannot find package", "is not in std", "no required module",
];

/**
 * Outside a package's block: its `# pkg` header at column 0, go's `package m` stanza (an import cycle), go test's
 * `cannot use -fuzz flag with multiple packages`, staticcheck's `-f json` object (`{"code":"…`), or a
 * `x.go:3:4: msg` line with a head colon (headColonStarts).
 */
const STARTS = new ByteSet().chars("#pdc{");

/** A finding's continuation lines joined to its message (the checker prints two to four). */
const MAX_CONT = 6;

/**
 * Where ` (S1002)` begins at the end of l (staticcheck's check codes: one to two upper-case letters, four digits:
 * SA4017, S1002, ST1003, QF1001, U1000), or -1.
 */
function staticcheckCode(l: Line): i32 {
  let n = l.len;
  if (n < 9 || l.at(n - 1) != Char.RPAREN) return -1;
  let i = n - 2;
  let d = 0;
  while (i > 0 && d < 4 && isDigit(l.at(i))) { i--; d++; }
  if (d != 4) return -1;
  let u = 0;
  while (i > 0 && u < 3 && l.at(i) >= 0x41 && l.at(i) <= 0x5A) { i--; u++; }
  if (u == 0 || u > 2 || l.at(i) != Char.LPAREN || l.at(i - 1) != Char.SPACE) return -1;
  return i - 1;
}

/** `Usage of <dir>/<pkg>.test:` (a go test binary's flags) or `usage: go <cmd> ` (the go command's). */
export function usageOfGo(l: Line): bool {
  if (l.startsWith("usage: go ")) return true;
  return l.startsWith("Usage of ") && l.endsWith(".test:");
}

/**
 * Go's flag package refusing an argument, the line before the program's usage (usageOfGo): `flag provided but not
 * defined: -test.skip`, `invalid value "100q" for flag -test.benchtime: invalid duration`, `invalid boolean value
 * "x" for -test.v: …`, `flag needs an argument: -test.run`, `bad flag syntax: ---v`.
 */
export function flagRefused(l: Line): bool {
  let c = l.at(0);
  if (c == Char.f) return l.startsWith("flag provided but not defined: -") || l.startsWith("flag needs an argument: -");
  if (c == Char.i) {
    if (l.startsWith("invalid value \"")) return l.indexOf("\" for flag -", 15) > 0;
    if (l.startsWith("invalid boolean value \"")) return l.indexOf("\" for -", 23) > 0;
    return false;
  }
  return c == Char.b && l.startsWith("bad flag syntax: ");
}

/**
 * A module go could not fetch, from p: `module lookup disabled by GOPROXY=off`, or a module version
 * (`…@v1.2.3: `) then its download's failure (`Get "https://…": dial tcp …`, `reading https://…`).
 */
function fetchFailed(l: Line, p: i32): bool {
  if (l.indexOf("module lookup disabled by GOPROXY", p) >= 0) return true;
  let at = l.indexOf("@v", p);
  if (at < 0) return false;
  return l.indexOf(": Get \"http", at) >= 0 || l.indexOf(": dial tcp ", at) >= 0 || l.indexOf(": reading http", at) >= 0;
}

/** After a module's name at p, its download's failure (fetchFailed's, the version not yet known: `@v/list` in the URL). */
function moduleFetchFailed(l: Line, p: i32): bool {
  if (p <= 1 || !l.matchAt(": module ", p) && !l.matchAt(": cannot find module ", p)) return false;
  return l.indexOf(": Get \"http", p) >= 0 || l.indexOf(": dial tcp ", p) >= 0 || l.indexOf("module lookup disabled by GOPROXY", p) >= 0;
}

/** The go command finding no go.mod for the directory it was run in (module mode): see the caller. */
function noModule(l: Line): bool {
  return l.startsWith("go: cannot find main module") || l.startsWith("go: go.mod file not found in current directory");
}

@final
export class GoParser extends Parser {
  private ctx: DiagContext;
  private inBlock: bool = false;
  /** The tool of the current package header's findings, once one of them is recognised. */
  private blockTool: string = "";
  /** The package's findings whose tool is still a guess, those the verdict keeps (never more than it keeps). */
  private provisional: Array<Diagnostic> = [];
  /** How many more were guessed but only counted (past the verdict's diagnostics). */
  private uncounted: i32 = 0;
  private pkg: string = "";
  private vetPkg: string = "";
  private vetCount: i32 = 0;
  /** The packages with a vet finding (`# m` and `# m [m.test]` are one), the last one counted. */
  private vetPkgs: i32 = 0;
  private lastVetPkg: string = "";
  /**
   * The first line saying the run's set-up failed: a module could not be fetched (fetchFailed), a go:generate
   * tool is not installed, a package pattern names no directory.
   */
  private fetchLine: string | null = null;
  /** After go's `go: finding module for package …`: its import chain and failed download may follow. */
  private finding: bool = false;
  /** Go's flag package refusing an option (`flag provided but not defined: -skip`), until the next line says whose. */
  private flagLine: string | null = null;
  /** That line, once go's usage followed it: the run's command line was wrong. */
  private flagFailed: string | null = null;
  /** The findings read so far, made at the first. */
  private once: DiagOnce | null = null;
  /** Go's `package m` stanza and the `\timports x` lines under it, while it lasts (an import cycle), else null. */
  private chain: Array<string> | null = null;
  /** `go vet -json`: the analyzer of the findings being read (`\t\t"unreachable": [`), and a finding's place. */
  private vetJsonAnalyzer: string = "";
  /** The finding read last in the block, whose message tab-indented lines continue (null: none to continue). */
  private last: Diagnostic | null = null;
  /** `gofmt -d`: the file whose diff is being read (null: none); its hunk's finding, and the old line reached. */
  private fmtFile: string | null = null;
  private fmt: Diagnostic | null = null;
  private fmtLine: i32 = 0;
  private fmtChanged: bool = false;
  private labelNew: bool = false;
  private lastLines: i32 = 0;
  /** The tail's count of lines (Tail.pushed) after the last line go-build claimed. */
  private claimedAt: i64 = 0;
  private vetJsonPosn: string | null = null;

  constructor(ctx: DiagContext) { super(); this.ctx = ctx; }

  busy(): bool { return this.inBlock || this.flagLine !== null || this.chain !== null || this.fmtFile !== null || this.finding; }
  atRest(): bool { return !this.inBlock && this.fmtFile === null && !this.finding; }
  starts(): ByteSet | null { return STARTS; }
  headColonStarts(): bool { return true; }

  claim(l: Line, f: Facts): bool {
    let r = this.claimLine(l, f);
    if (r) { let tl = f.tailLines; if (tl !== null) this.claimedAt = tl.pushed; }
    return r;
  }

  private claimLine(l: Line, f: Facts): bool {
    // staticcheck's `-f json`, one finding an object a line; offered for it alone at rest (go test -json's
    // `{"Time":…` lines too: refused by their first bytes, before the head colon is looked for).
    if (l.at(0) == Char.LBRACE && l.len > 2) {
      if (l.matchAt("{\"code\":\"", 0)) return this.staticcheckJson(l, f);
      if (!this.busy()) return false;
    }
    if (this.fmtFile !== null) { if (this.gofmtLine(l, f)) return true; this.fmtFile = null; this.fmt = null; }
    if (l.at(0) == Char.d) {
      if (this.gofmtDiff(l)) return true;
      // Offered for gofmt's header alone: at rest, a `d` line with no head colon is none of the rest's.
      if (!this.busy() && l.headColon() < 0) return false;
    }
    // go test refusing its flags before building anything (`cannot use -fuzz flag with multiple packages`, `-o`,
    // `-c`, `cannot use -coverprofile flag with -fuzz flag`): the command line was wrong, as a refused flag.
    // Offered for it alone: at rest, a `c` line with no head colon is none of the rest's.
    if (l.at(0) == Char.c && l.headColon() < 0) {
      if (l.startsWith("cannot use -") && l.indexOf(" flag ", 12) > 12) {
        if (this.flagFailed === null) this.flagFailed = l.trimmed(0);
        this.inBlock = false;
        return true;
      }
      if (!this.busy()) return false;
    }
    let fl = this.flagLine;
    if (fl !== null) {
      this.flagLine = null;
      // The test binary's usage (`Usage of …/go-build…/b001/mux.test:`, go 1.19 has no -skip) or the go
      // command's (`usage: go build [-o output] …`): the option is none of theirs, nothing of the code ran.
      if (usageOfGo(l)) { if (this.flagFailed === null) this.flagFailed = fl; f.goFlagRefusals++; return true; }
    }
    let k = l.headColon();  // the first ": ", found once per line for all the diagnostic parsers
    let n = l.len;
    let c0 = l.at(0);
    // `go: finding module for package github.com/fatih/color` (go mod tidy, go get, -mod=mod): then the import
    // chain (`example.com/xs imports`) and, tab-indented, its last link with the module's failed download
    // (`\tgithub.com/fatih/color: module github.com/fatih/color: Get "https://…/@v/list": dial tcp …`, `…: cannot find
    // module providing package …: module lookup disabled by GOPROXY=off`): the set-up failed, as a fetch line.
    if (this.finding) {
      if (c0 == Char.TAB && moduleFetchFailed(l, l.indexOf(": ", 1))) { this.finding = false; this.noteFetch(l); return true; }
      // (Both left to the tail: go's progress notes, shown when nothing failed to download.)
      if (c0 != Char.TAB && c0 != Char.SPACE && l.endsWith(" imports") && l.indexOfByte(Char.SPACE) == n - 8) return false;
      this.finding = false;
    }
    if (c0 == Char.g && l.startsWith("go: finding module for package ")) { this.finding = true; return false; }
    // `go vet -json`: under the package's header, a JSON object (`{`, `{}` for none, its closing `}`) whose
    // tab-indented lines name each analyzer's findings (vetJsonLine).
    if (this.inBlock && (c0 == Char.TAB || ((c0 == Char.LBRACE || c0 == Char.RBRACE) && n <= 2))) {
      if (c0 == Char.TAB && !this.continued(l)) this.vetJsonLine(l, f);
      return true;
    }
    this.last = null;
    if (n < 4) { this.inBlock = false; this.chain = null; return false; }
    if (this.chain !== null || c0 == Char.p) { let r = this.importStanza(l, f); if (r != 0) return r > 0; }
    if (c0 == Char.HASH) {
      if (l.at(1) != Char.SPACE || !isImportPath(l, 2)) return false;
      this.newPackage(f);
      this.pkg = l.trimmed(2);
      this.inBlock = true;
      return true;
    }
    if (c0 == Char.TAB) return false;
    if (c0 == Char.SPACE) { this.inBlock = false; return false; }
    if (this.inBlock && l.startsWith("too many errors")) return true;
    // The assembler's closing line after its errors (`asm: assembly of ./sum_amd64.s failed`): none of its own.
    if (this.inBlock && c0 == Char.a && l.startsWith("asm: assembly of ")) return true;
    // `go: github.com/x@v1.2.3: Get "https://proxy.golang.org/…": dial tcp …` (go mod download, go build): the
    // module could not be fetched. The run's set-up failed (offline, a proxy), no error of the code.
    if (c0 == Char.g && l.startsWith("go: ") && fetchFailed(l, 4)) { this.noteFetch(l); return true; }
    // No module to build in (a checkout that predates modules, a command run from the wrong directory): `go: cannot
    // find main module, but found .git/config in /abs` (then `go mod init`'s advice), `go: go.mod file not found in
    // current directory or any parent directory; see 'go help modules'`. Nothing was built: the set-up failed.
    if (c0 == Char.g && noModule(l)) { this.noteFetch(l); this.inBlock = false; return true; }
    // The go command refusing its build flags before building (`go: -race requires cgo; enable cgo by setting
    // CGO_ENABLED=1`, `go: may not use -race and -msan simultaneously`, `go: -p must be a positive integer`): the
    // command line (or its environment) was wrong, as a refused flag.
    if (c0 == Char.g && (l.startsWith("go: -") || l.startsWith("go: may not use -"))) { if (this.flagFailed === null) this.flagFailed = l.trimmed(0); this.inBlock = false; return true; }
    if (c0 == Char.g && k > 9 && l.startsWith("go build ") && l.indexOfByte(Char.SPACE, 9) > k) { this.actionFailed(l, f); return true; }
    if (flagRefused(l)) { this.flagLine = l.trimmed(0); this.inBlock = false; return true; }
    // The test binary refusing a -run/-skip/-bench pattern (`testing: invalid regexp for element 0 of -test.run
    // ("Test[Inc"): error parsing regexp: missing closing ]: …`): the command line was wrong, no test ran.
    // Its refusing to fuzz, after the tests ran (`testing: will not fuzz, -fuzz matches more than one fuzz test:
    // [FuzzAddHas FuzzNext]`, exit 1): the -fuzz pattern was wrong, as a refused one.
    if (c0 == Char.t && testingRefused(l)) { if (this.flagFailed === null) this.flagFailed = l.trimmed(0); f.goFlagRefusals++; this.inBlock = false; return true; }
    // The go command refusing a package pattern that names no directory (`pattern ./nosuch/...: lstat ./nosuch/:
    // no such file or directory`, exit 1, nothing built): the command line was wrong, as a refused flag.
    if (c0 == Char.p && k > 8 && l.startsWith("pattern ") && l.indexOfByte(Char.SPACE, 8) == k + 1) { this.noteFetch(l); this.inBlock = false; return true; }
    // Or a package directory that does not exist (go build's and go test's `stat /abs/cmd/nosuch: directory not
    // found`, go run's `go: no packages loaded from ./cmd/nosuch`): the same.
    if (c0 == Char.s && k > 5 && l.len == k + 21 && l.startsWith("stat ") && l.matchAt(": directory not found", k)) { this.noteFetch(l); this.inBlock = false; return true; }
    if (c0 == Char.g && l.startsWith("go: no packages loaded from ")) { this.noteFetch(l); this.inBlock = false; return true; }
    let p = 0;
    let vetPrefix = l.startsWith("vet: ");
    if (vetPrefix) { p = 5; k = l.indexOf(": ", 5); }
    // [p, k) is `path.go:line[:col]`
    let i = k - 1;
    while (i > p && isDigit(l.at(i))) i--;
    if (k <= p || i == k - 1 || l.at(i) != Char.COLON) {
      this.inBlock = false;
      return !vetPrefix && k > 3 && this.fileRefused(l, k, f);
    }
    let j = i - 1;
    while (j > p && isDigit(l.at(j))) j--;
    let pathEnd = i;
    let line = l.readInt(i + 1);
    let col: i64 = -1;
    if (j < i - 1 && l.at(j) == Char.COLON) { pathEnd = j; col = line; line = l.readInt(j + 1); }
    // Go assembly under its package's header (`./sum_amd64.s:6: unrecognized instruction "MOVQX"`, the
    // assembler's, line only; vet's asmdecl findings, `./sum_amd64.s:4:1: [amd64] Add: wrong argument size …`).
    let asm = false;
    if (pathEnd - p < 4 || !l.matchAt(".go", pathEnd - 3)) {
      if (!this.inBlock || pathEnd - p < 3 || !l.matchAt(".s", pathEnd - 2)) { this.inBlock = false; return false; }
      asm = true;
    }
    let sp = l.indexOfByte(Char.SPACE, p);
    if (sp >= 0 && sp < pathEnd) { this.inBlock = false; return false; }
    let q = k;
    // `go generate`'s directive naming a tool that is not installed (`kind.go:3: running "stringer": exec:
    // "stringer": executable file not found in $PATH`): the set-up failed (as a shell's command not found).
    if (!vetPrefix && l.matchAt("running \"", q + 2) && l.endsWith(": executable file not found in $PATH")) { this.noteFetch(l); return true; }
    // The compiler's optimization report the user asked for (`-gcflags=-m`: `can inline mix`, `inlining call to
    // mix`, `b does not escape`, `&Digest{...} escapes to heap`; -m=2's indented `flow:` lines): no finding. Left
    // to the tail, the package's block goes on.
    if (!vetPrefix && !asm && optReport(l, q + 2)) { this.inBlock = true; return false; }
    // The compiler's cut (`x.go:114:26: too many errors`, go 1.18 and later place it at the last error): the
    // errors above it are the ones it printed, it is none of its own.
    if (l.len - q - 2 == 15 && l.matchAt("too many errors", q + 2)) { this.inBlock = true; return true; }
    // The same under a package's header, at the import line (go test, go build): `x_test.go:6:2: github.com/…`.
    if (!vetPrefix && fetchFailed(l, q + 2)) { this.noteFetch(l); this.inBlock = true; return true; }
    let d = new Diagnostic();
    d.file = this.ctx.resolve(l.str(p, pathEnd));
    d.line = <i32>line;
    d.col = <i32>col;
    d.message = l.trimmed(q + 2);
    if (!vetPrefix && l.matchAt("running \"", q + 2)) this.generatorSaid(d, f);
    // staticcheck's finding ends with its check's code: `… can be simplified to b (S1002)`.
    let sc = vetPrefix ? -1 : staticcheckCode(l);
    if (sc > q) { d.message = l.trimmed(q + 2, sc); d.code = l.str(sc + 2, l.len - 1); }
    let tool = vetPrefix ? "go" : sc > q ? "staticcheck" : asm ? (l.at(q + 2) == Char.LBRACKET ? "go-vet" : "go") : classify(l, q + 2);
    let guessed = false;
    if (sc > q) {
      // its own tool: no guess for the block's other lines
    } else if (tool.length == 0) {
      tool = this.blockTool.length > 0 ? this.blockTool : "go";
      guessed = this.blockTool.length == 0;
    } else if (this.blockTool.length == 0 && !vetPrefix) {
      this.blockTool = tool;
      let pr = this.provisional;
      for (let i = 0; i < pr.length; i++) this.retag(f, pr[i], tool);
      pr.length = 0;
      // Those only counted: guessed as go errors, they become vet warnings by their count.
      let n = this.uncounted;
      if (tool == "go-vet" && n > 0) { f.errorCount -= n; f.warningCount += n; this.vetCount += n; this.vetIn(); }
      this.uncounted = 0;
    }
    d.tool = tool;
    d.severity = tool == "go-vet" || tool == "golint" ? "warning" : "error";
    // The same finding under one more build of the package (`# m [m/sub.test]`): one error (diag-once.ts).
    let once = this.once;
    if (once === null) { once = new DiagOnce(); this.once = once; }
    if (once.repeated(d)) { this.inBlock = true; this.last = null; return true; }
    this.last = d; this.lastLines = 0;
    if (tool == "go-vet") this.noteVet();
    let kept = f.addDiagnostic(d);
    if (guessed) { if (kept) this.provisional.push(d); else this.uncounted++; }
    this.inBlock = true;
    return true;
  }

  /**
   * `go generate`'s `kind.go:3: running "go": exit status 1` follows the generator's own output (no line of any
   * parser's: the tail's lines since go-build's last): its last line, not go run's `exit status 1`, says why it
   * failed (`2026/12/08 00:21:27 gen: open routes.txt: no such file or directory`, the log package's date and time
   * dropped): a note under the error (its message stays go's: the same directive failing is the same error).
   */
  private generatorSaid(d: Diagnostic, f: Facts): void {
    let tl = f.tailLines;
    if (tl === null) return;
    let since = tl.pushed - this.claimedAt;
    for (let back = 0; back < 2 && <i64>back < since; back++) {
      let s = tl.fromLast(back);
      if (s === null) return;
      if (s.startsWith("exit status ")) continue;
      let n = new Diagnostic();
      n.tool = d.tool.length > 0 ? d.tool : "go";
      n.severity = "note";
      n.message = dropLogStamp(s!);
      d.notes.push(n);
      return;
    }
  }

  /**
   * The go command's own failure of a package's build step, no compiler's (`go build example.com/m: mkdir bin/:
   * file exists` when -o names a path under a file, `go build example.com/m: copying /tmp/go-build…/_pkg_.a: open
   * /proc/x: no such file or directory`): the build failed, exit 1, nothing of the code to fix.
   */
  private actionFailed(l: Line, f: Facts): void {
    this.inBlock = false;
    if (f.buildFailedLine === null) f.buildFailedLine = l.trimmed(0);
  }

  /**
   * The go command refusing a file of a package before building it, the file named with no line (go/build's,
   * printed alone under go build, vet and test: no `# pkg` header, no `FAIL pkg` line, exit 1):
   * `slow_test.go: parsing //go:build line: unexpected end of expression`, `a.go: invalid #cgo line: …`. An
   * error of the build at that file (k: the head colon; the path has no space).
   */
  private fileRefused(l: Line, k: i32, f: Facts): bool {
    if (l.at(k + 2) != Char.p && l.at(k + 2) != Char.i && l.at(k + 2) != Char.m) return false;
    if (!l.matchAt(".go", k - 3)) return false;
    let q = k + 2;
    if (!l.matchAt("parsing //go:build line: ", q) && !l.matchAt("invalid #cgo ", q) && !l.matchAt("malformed #cgo ", q)) return false;
    let sp = l.indexOfByte(Char.SPACE, 0);
    if (sp >= 0 && sp < k) return false;
    let d = new Diagnostic();
    d.tool = "go";
    d.severity = "error";
    d.file = this.ctx.resolve(l.str(0, k));
    d.message = l.trimmed(q);
    let once = this.once;
    if (once === null) { once = new DiagOnce(); this.once = once; }
    if (!once.repeated(d)) f.addDiagnostic(d);
    return true;
  }

  /**
   * `gofmt -d`'s header of a file it would change: `diff tree.go.orig tree.go` (the same path twice, the first
   * with `.orig`). Its `---`/`+++` lines and hunks follow (gofmtLine).
   */
  private gofmtDiff(l: Line): bool {
    if (!l.startsWith("diff ") || !l.endsWith(".go")) return false;
    let sp = l.indexOf(".go.orig ", 5);
    if (sp < 0) return false;
    let a = l.str(5, sp + 3);
    if (l.len - (sp + 9) != a.length || !l.matchAt(a, sp + 9) || a.indexOf(" ") >= 0) return false;
    this.fmtFile = this.ctx.resolve(a);
    this.fmt = null;
    this.inBlock = false;
    return true;
  }

  /**
   * A line of gofmt's diff: `--- x.go.orig` / `+++ x.go`, a hunk's `@@ -4,11 +4,11 @@`, its ` ` context, `-` old
   * and `+` new lines. Each hunk is a warning of tool gofmt (go 1.19's `gofmt -d` exits 0 on them) at its first
   * changed line, labelled by its first old line (else its first new one). Another line ends the diff.
   */
  private gofmtLine(l: Line, f: Facts): bool {
    let n = l.len;
    if (n == 0) return false;
    let c = l.at(0);
    if (c == Char.d) return this.gofmtDiff(l);
    if (c == Char.AT) {
      if (!l.startsWith("@@ -")) return false;
      let start = l.readInt(4);
      if (start < 0) return false;
      let d = new Diagnostic();
      d.tool = "gofmt";
      d.severity = "warning";
      d.file = this.fmtFile;
      d.line = <i32>start;
      d.message = "gofmt would reformat this code";
      this.fmt = d;
      this.fmtLine = <i32>start;
      this.fmtChanged = false;
      return true;
    }
    let d = this.fmt;
    if (d === null) return (c == Char.MINUS && l.startsWith("--- ")) || (c == Char.PLUS && l.startsWith("+++ "));
    if (c == Char.SPACE) { if (!this.fmtChanged) this.fmtLine++; else this.labelNew = false; return true; }
    if (c != Char.MINUS && c != Char.PLUS) return false;
    if (!this.fmtChanged) {
      this.fmtChanged = true;
      d.line = this.fmtLine;
      d.label = l.trimmed(1);
      this.labelNew = c == Char.PLUS;
      f.addDiagnostic(d);
    } else if (c == Char.MINUS && this.labelNew) {
      // An insertion's first new line was the label until an old line of the same change came.
      d.label = l.trimmed(1);
      this.labelNew = false;
    }
    return true;
  }

  finish(f: Facts): void {
    this.newPackage(f);
    // The first fetch failure is the run's set-up failure, unless a crash or a timeout was seen (as make.ts's
    // missing tool): a log of several commands whose later one crashed is that crash's.
    let fl = this.fetchLine;
    if (fl === null) fl = this.flagFailed;
    if (fl !== null && f.setupFailure === null && f.crash === null && !f.timeoutSeen) f.setupFailure = fl;
    if (this.vetCount == 0 || f.errorCount > 0 || f.buildFailedLine !== null) return;
    let e = f.exit;
    if (e.known && e.code == 0) return;
    let what = this.vetCount == 1 ? " issue" : " issues";
    // `go vet ./...` goes on past a package's findings: those of several are not all the first one's.
    let where = this.vetPkgs > 1 ? " in " + this.vetPkgs.toString() + " packages" : this.vetPkg.length > 0 ? " in " + this.vetPkg : "";
    f.buildFailedLine = "go vet reported " + this.vetCount.toString() + what + where;
  }

  /**
   * The go command's import stanza (go build, go vet, go test ./...: the whole run refused before any package is
   * built, exit 1): `package example.com/m` (` (test)` for a test's import), `\timports example.com/m/a` lines,
   * the last ending in its error: `\timports example.com/m: import cycle not allowed`. One error, whose message
   * names the cycle (`import cycle not allowed: example.com/m/a → example.com/m/b → example.com/m/a`); printed
   * again for one more root package, it is the same error (DiagOnce). 1: claimed, -1: not, 0: not this.
   */
  private importStanza(l: Line, f: Facts): i32 {
    let ch = this.chain;
    if (ch === null) {
      if (!l.startsWith("package ")) return 0;
      let end = l.len;
      if (l.endsWith(" (test)")) end -= 7;
      if (end <= 8 || !pathChars(l, 8, end)) return 0;
      ch = [l.str(8, end)];
      this.chain = ch;
      this.inBlock = false;
      return 1;
    }
    if (l.at(0) != Char.TAB || !l.matchAt("imports ", 1)) { this.chain = null; return 0; }
    let c = l.indexOf(": ", 9);
    let e = c < 0 ? l.len : c;
    if (e <= 9 || !pathChars(l, 9, e)) { this.chain = null; return 0; }
    // A real cycle is a few packages long: a stanza of thousands of lines keeps its first MAX_CHAIN (bounded
    // memory, and a message built in linear time).
    if (c < 0) { if (ch.length < MAX_CHAIN) ch.push(l.str(9, e)); return 1; }
    this.chain = null;
    let last = l.str(9, c);
    let first = ch.indexOf(last);
    let path = "";
    if (first >= 0) { let parts = ch.slice(first); parts.push(last); path = parts.join(" → "); }
    let d = new Diagnostic();
    d.tool = "go";
    d.severity = "error";
    let msg = l.trimmed(c + 2);
    d.message = path.length > 0 ? msg + ": " + path : msg + ": " + last;
    let once = this.once;
    if (once === null) { once = new DiagOnce(); this.once = once; }
    if (!once.repeated(d)) f.addDiagnostic(d);
    return 1;
  }

  /**
   * A tab-indented line under a finding, one or two tabs then text (not vet -json's quoted keys): the type
   * checker's message goes on (`\thave (int, nil)` / `\twant (int)` under `too many return values`; under
   * `cannot use x … in variable declaration:` the cause, `\t*counter does not implement Visitor (wrong type
   * for Visit method)`, then `\t\thave Visit(string) bool` / `\t\twant Visit(int) bool`). Joined on one line:
   * after a `:` with a space, a `want` after its `have` with `, `, else with `: ` (at most MAX_CONT lines).
   */
  private continued(l: Line): bool {
    let d = this.last;
    if (d === null) return false;
    let p = 1;
    if (l.at(p) == Char.TAB) p++;
    if (p >= l.len || l.at(p) == Char.QUOTE || l.at(p) == Char.TAB || l.at(p) == Char.SPACE) return false;
    // A goroutine's frame (`\t/usr/lib/go/src/testing/testing.go:1446 +0x10b`) is no message's.
    if (l.at(p) == Char.SLASH || l.indexOf(".go:", p) >= 0) return false;
    if (this.lastLines >= MAX_CONT) return true;
    this.lastLines++;
    let m = d.message;
    let sep = m.endsWith(":") ? " " : l.matchAt("want ", p) ? ", " : ": ";
    d.message = m + sep + l.trimmed(p);
    return true;
  }

  /**
   * A tab-indented line of `go vet -json`'s object: `\t\t"unreachable": [` names the analyzer (the finding's
   * code), `\t\t\t\t"posn": "/w/x.go:522:3",` its place, `\t\t\t\t"message": "unreachable code"` the finding: a
   * vet warning as its text line would be (go vet -json exits 0: no failure of the build).
   */
  private vetJsonLine(l: Line, f: Facts): void {
    let p = 0;
    while (p < l.len && l.at(p) == Char.TAB) p++;
    if (p < 2 || l.at(p) != Char.QUOTE) return;
    if (p == 2) {
      if (l.endsWith("\": [")) this.vetJsonAnalyzer = l.str(3, l.len - 4);
      return;
    }
    if (p != 4) return;
    if (l.matchAt("\"posn\": \"", p)) {
      let n = decodeJsonString(l, p + 9, false);
      this.vetJsonPosn = String.UTF8.decodeUnsafe(jsonBuf(), <usize>n);
      return;
    }
    let posn = this.vetJsonPosn;
    if (posn === null || !l.matchAt("\"message\": \"", p)) return;
    this.vetJsonPosn = null;
    // `path.go:line:col` (or `path.go:line`)
    let c2 = posn.lastIndexOf(":");
    if (c2 <= 0) return;
    let c1 = posn.lastIndexOf(":", c2 - 1);
    let file = c1 > 0 && posn.substring(0, c1).endsWith(".go") ? posn.substring(0, c1) : posn.substring(0, c2);
    if (!file.endsWith(".go")) return;
    let d = new Diagnostic();
    d.file = this.ctx.resolve(file);
    if (c1 > 0 && file.length == c1) { d.line = I32.parseInt(posn.substring(c1 + 1, c2)); d.col = I32.parseInt(posn.substring(c2 + 1)); }
    else d.line = I32.parseInt(posn.substring(c2 + 1));
    let n = decodeJsonString(l, p + 12, false);
    d.message = String.UTF8.decodeUnsafe(jsonBuf(), <usize>n);
    d.tool = "go-vet";
    d.severity = "warning";
    if (this.vetJsonAnalyzer.length > 0) d.code = this.vetJsonAnalyzer;
    let once = this.once;
    if (once === null) { once = new DiagOnce(); this.once = once; }
    if (once.repeated(d)) return;
    this.noteVet();
    f.addDiagnostic(d);
  }

  /**
   * staticcheck's `-f json` finding: `{"code":"S1002","severity":"error","location":{"file":"/w/lint.go","line":6,
   * "column":5},"end":{…},"message":"…"}` (its fields in that order). The finding its text format prints as
   * `lint.go:6:5: message (S1002)`; an `ignored` one (a //lint:ignore'd check) is none.
   */
  private staticcheckJson(l: Line, f: Facts): bool {
    let q = l.indexOfByte(Char.QUOTE, 9);
    if (q <= 9 || !l.matchAt("\",\"severity\":\"", q)) return false;
    let sv = q + 14;
    let se = l.indexOfByte(Char.QUOTE, sv);
    if (se < 0 || !l.matchAt("\",\"location\":{\"file\":\"", se)) return false;
    let code = l.str(9, q);
    let sev = l.str(sv, se);
    let n = decodeJsonString(l, se + 22, false);
    let file = String.UTF8.decodeUnsafe(jsonBuf(), <usize>n);
    let li = l.indexOf("\"line\":", se + 22 + n);
    if (li < 0) return false;
    let line = l.readInt(li + 7);
    let col: i64 = -1;
    if (l.matchAt(",\"column\":", l.end)) col = l.readInt(l.end + 10);
    let mi = l.indexOf("},\"message\":\"", l.end);
    if (mi < 0 || line < 0) return false;
    if (sev == "ignored") return true;
    let d = new Diagnostic();
    d.tool = "staticcheck";
    d.severity = sev == "warning" ? "warning" : "error";
    d.file = this.ctx.resolve(file);
    d.line = <i32>line;
    if (col > 0) d.col = <i32>col;
    d.code = code;
    let m = decodeJsonString(l, mi + 13, false);
    // Trimmed as the text format prints it (a deprecation notice ends with a space).
    d.message = String.UTF8.decodeUnsafe(jsonBuf(), <usize>m).trimEnd();
    let once = this.once;
    if (once === null) { once = new DiagOnce(); this.once = once; }
    if (!once.repeated(d)) f.addDiagnostic(d);
    return true;
  }

  private noteVet(): void {
    this.vetCount++;
    this.vetIn();
  }

  /** The current package has a vet finding. */
  private vetIn(): void {
    if (this.vetPkg.length == 0) this.vetPkg = this.pkg;
    let sp = this.pkg.indexOf(" ");
    let pkg = sp > 0 ? this.pkg.substring(0, sp) : this.pkg;
    if (pkg.length > 0 && pkg != this.lastVetPkg) { this.lastVetPkg = pkg; this.vetPkgs++; }
  }

  private retag(f: Facts, d: Diagnostic, tool: string): void {
    if (d.tool == tool) return;
    d.tool = tool;
    if (tool == "go-vet") { setSeverity(f, d, "warning"); this.noteVet(); }
    else setSeverity(f, d, tool == "golint" ? "warning" : "error");
  }

  private noteFetch(l: Line): void {
    if (this.fetchLine === null) this.fetchLine = l.trimmed(0);
  }

  private newPackage(f: Facts): void {
    this.blockTool = "";
    this.provisional.length = 0;
    this.uncounted = 0;
    this.inBlock = false;
  }
}

/**
 * The test binary refusing its -run/-skip/-bench or -fuzz pattern, or a flag's value before any test (`testing:
 * -parallel can only be given a positive integer`, `testing: -test.fuzzcachedir must be set if -test.fuzz is set`
 * when the binary is run with -test.fuzz by hand, `testing: -shuffle should be …`; its usage follows): a line at
 * column 0, the command line was wrong.
 */
export function testingRefused(l: Line): bool {
  return l.startsWith("testing: -") || l.startsWith("testing: invalid regexp for ") ||
    l.startsWith("testing: will not fuzz, ") || l.startsWith("testing: invalid value ");
}

/** [a, b) of l is an import path: letters, digits and `._~/+-` (no space, colon or bracket). */
function pathChars(l: Line, a: i32, b: i32): bool {
  for (let i = a; i < b; i++) {
    let c = l.at(i) | 0x20;
    if ((c >= 0x61 && c <= 0x7A) || isDigit(l.at(i))) continue;
    let d = l.at(i);
    if (d != Char.DOT && d != Char.SLASH && d != Char.MINUS && d != Char.UNDERSCORE && d != Char.TILDE && d != Char.PLUS) return false;
  }
  return true;
}

/** "go-vet", "golint" or "go" when the message is recognisably one of theirs, else "". */
function classify(l: Line, m: i32): string {
  for (let i = 0; i < VET_PHRASES.length; i++) if (l.indexOf(VET_PHRASES[i], m) >= 0) return "go-vet";
  for (let i = 0; i < LINT_PHRASES.length; i++) if (l.indexOf(LINT_PHRASES[i], m) >= 0) return "golint";
  for (let i = 0; i < BUILD_PHRASES.length; i++) if (l.indexOf(BUILD_PHRASES[i], m) >= 0) return "go";
  return "";
}

/**
 * A line of the compiler's -m report, its message from m: `can inline f`, `cannot inline f: …`, `inlining call to
 * f`, `leaking param: b`, `moved to heap: x`, `parameter d leaks to {heap} …`, `x does not escape`, `x escapes to
 * heap`, `f ignoring self-assignment in x = x[1:]`, -m=2's indented explanations (`  flow: …`, `    from …`),
 * -d=ssa/check_bce's `Found IsInBounds`.
 */
function optReport(l: Line, m: i32): bool {
  let c = l.at(m);
  if (c == Char.SPACE) return l.matchAt("  flow: ", m) || l.matchAt("    from ", m);
  if (c == Char.c) return l.matchAt("can inline ", m) || l.matchAt("cannot inline ", m);
  if (c == Char.i) return l.matchAt("inlining call to ", m);
  if (c == Char.l) return l.matchAt("leaking param", m) || l.matchAt("leaking closure", m);
  if (c == Char.m && l.matchAt("moved to heap: ", m)) return true;
  if (c == Char.p && l.matchAt("parameter ", m) && l.indexOf(" leaks to ", m) > 0) return true;
  if (c == Char.F && l.matchAt("Found Is", m)) return true;
  if (c == Char.d && l.matchAt("devirtualizing ", m)) return true;
  // The escape analysis's note of a field assigned from itself (`edges.Swap ignoring self-assignment in e[i], e[j] =
  // e[j], e[i]`, a slice trim `n.prefix = n.prefix[k:]`): it names the function first.
  if (l.indexOf(" ignoring self-assignment in ", m) > m) return true;
  return l.endsWith(" does not escape") || l.endsWith(" escapes to heap") || l.endsWith(" escapes to heap:");
}

/** `example.com/m`, optionally followed by ` [example.com/m.test]`: no spaces otherwise. */
/** `2026/12/08 00:21:27 msg` (Go's log package, its default flags; `.123456` with microseconds) → `msg`. */
function dropLogStamp(s: string): string {
  if (s.length < 21 || s.charCodeAt(4) != Char.SLASH || s.charCodeAt(7) != Char.SLASH || s.charCodeAt(10) != Char.SPACE ||
    s.charCodeAt(13) != Char.COLON || s.charCodeAt(16) != Char.COLON) return s;
  for (let i = 0; i < 19; i++) if (i != 4 && i != 7 && i != 10 && i != 13 && i != 16 && !isDigit(s.charCodeAt(i))) return s;
  let e = 19;
  if (s.charCodeAt(e) == Char.DOT) { e++; while (e < s.length && isDigit(s.charCodeAt(e))) e++; }
  if (e >= s.length || s.charCodeAt(e) != Char.SPACE) return s;
  return s.substring(e + 1);
}

function isImportPath(l: Line, p: i32): bool {
  let n = l.len;
  if (p >= n) return false;
  let i = p;
  let dotOrSlash = false;
  while (i < n) {
    let c = l.at(i);
    if (c == Char.SPACE) break;
    if (c == Char.DOT || c == Char.SLASH) dotOrSlash = true;
    else if (c == Char.COLON || c == Char.QUOTE || c == Char.APOS || c == Char.LPAREN) return false;
    i++;
  }
  if (i == n) return dotOrSlash || i - p <= 40;
  return l.at(i + 1) == Char.LBRACKET && l.at(n - 1) == Char.RBRACKET;
}
