// Linker errors (GNU ld, gold, lld, mold): `/usr/bin/ld: main.o: in function `main':` (context),
// `main.c:(.text+0x1e): undefined reference to `foo'`, `./main.c:8: undefined reference to ...`,
// `/usr/bin/ld: b.o:./b.c:1: multiple definition of `x'; a.o:./a.c:1: first defined here`,
// `/usr/bin/ld: cannot find -lfoo`, lld's `ld.lld: error: undefined symbol: foo` + `>>> referenced by a.c:5`.
// The driver's closing line (`collect2: error: ld returned 1 exit status`) is the compiler parser's.
import { Char, isDigit } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts, Diagnostic } from "../../model";
import { Parser } from "../../parser";
import { ByteSet } from "../../util/byte-set";
import { DiagContext, readLoc } from "../diag-context";

const KEYWORDS: string[] = [
  "undefined reference to ", "multiple definition of ", "relocation truncated to fit", "more undefined references to ",
];

/** Outside an lld error: only a line with a head colon (`/usr/bin/ld: ..`, `main.c:(.text+0x1c): undefined ..`) (headColonStarts). */
const STARTS = new ByteSet();

@final
export class LinkerParser extends Parser {
  private ctx: DiagContext;
  /** Each `file\nmessage` of an undefined symbol placed with no line, to read each once (located). */
  private unplaced: Set<string> = new Set<string>();
  /** lld error waiting for its `>>> referenced by` location. */
  private lld: Diagnostic | null = null;

  constructor(ctx: DiagContext) { super(); this.ctx = ctx; }

  busy(): bool { return this.lld !== null; }
  atRest(): bool { return this.lld === null; }
  starts(): ByteSet | null { return STARTS; }
  headColonStarts(): bool { return true; }

  claim(l: Line, f: Facts): bool {
    let k = l.headColon();  // the first ": ", found once per line for all the diagnostic parsers
    let n = l.len;
    if (n < 4) return false;
    let c0 = l.at(0);
    let lld = this.lld;
    if (lld !== null) {
      if (c0 == Char.GT && l.startsWith(">>> ")) {
        if (lld.file === null) this.lldLocation(l, lld);
        return true;
      }
      this.lld = null;
    }
    if (k <= 0 || c0 == Char.SPACE || c0 == Char.TAB) return false;
    if (!isLinkerName(l, k)) {
      // Unprefixed lines that ld continues with: `main.c:(.text+0x1c): undefined reference to `foo'`.
      return isKeyword(l, k + 2) && this.located(l, f, 0, k);
    }
    let r = k + 2;
    if (l.matchAt("warning: ", r)) { this.add(f, "warning", null, l.trimmed(r + 9)); return true; }
    if (l.matchAt("error: ", r)) { this.lld = this.add(f, "error", null, l.trimmed(r + 7)); return true; }
    if (l.matchAt("note: ", r) || l.matchAt("NOTE: ", r) || l.matchAt("skipping incompatible ", r)) return true;
    if (l.endsWith("':") && (l.indexOf(": in function `", r) >= 0 || l.indexOf(": In function `", r) >= 0)) return true;
    let kw = keywordAt(l, r);
    if (kw >= 0) return this.located(l, f, r, kw);
    // ld's warning about one input: `/usr/bin/ld: main.o: warning: relocation against `_ZTV5Shape' in read-only
    // section ...` (a class whose key function is never defined), `/usr/bin/ld: x.o: warning: ... executable stack`.
    let w = objectWarning(l, r);
    if (w > 0) { this.add(f, "warning", null, l.trimmed(w)); return true; }
    // Anything else ld says is why the link failed: `cannot find -lfoo`, `final link failed: ...`.
    this.add(f, "error", null, l.trimmed(r));
    return true;
  }

  private add(f: Facts, sev: string, file: string | null, msg: string): Diagnostic {
    let d = new Diagnostic();
    d.tool = "ld";
    d.severity = sev;
    d.file = file;
    d.message = msg;
    f.addDiagnostic(d);
    return d;
  }

  /** `[obj:]file[:line]` or `[obj:]file:(.section+0x..)` in [a, kw), then ": " and the message. */
  private located(l: Line, f: Facts, a: i32, kw: i32): bool {
    if (l.matchAt("more undefined references", kw + 2)) return true;
    let b = kw;
    let line: i32 = -1;
    if (l.at(b - 1) == Char.RPAREN) {
      let o = l.lastIndexOf(":(", b);
      if (o >= a) b = o;
    } else {
      let i = b - 1;
      while (i >= a && isDigit(l.at(i))) i--;
      if (i < b - 1 && i >= a && l.at(i) == Char.COLON) { line = <i32>l.readInt(i + 1); b = i; }
    }
    let c = l.lastIndexOfByte(Char.COLON, b);
    let start = c >= a ? c + 1 : a;
    let file: string | null = null;
    if (b > start) {
      let name = l.str(start, b);
      if (!isObject(name)) file = this.ctx.resolve(name);
    }
    let msg = message(l, kw + 2);
    if (line < 0) {
      // ld names a missing symbol once per function that refers to it (`main.cpp:(.text+0xc): undefined reference
      // to `vtable for Shape'` for each constructor and destructor): with no line to tell them apart, one missing
      // symbol of one source is one error, as gcc's error printed again is one (diag-once.ts).
      let key = (file !== null ? file! : "") + "\n" + msg;
      let seen = this.unplaced;
      if (seen.has(key)) return true;
      if (seen.size < 4096) seen.add(key);
    }
    let d = this.add(f, "error", file, msg);
    if (file !== null) d.line = line;
    return true;
  }

  private lldLocation(l: Line, d: Diagnostic): void {
    let p = l.skipSpaces(4);
    if (l.matchAt("referenced by ", p)) p += 14;
    else if (l.matchAt("defined at ", p)) p += 11;
    else return;
    let e = l.indexOfByte(Char.SPACE, p);
    if (e < 0) e = l.len;
    if (readLoc(l, p, e, d, this.ctx)) { d.col = -1; return; }
    let name = l.str(p, e);
    if (!isObject(name) && name.includes(".")) d.file = this.ctx.resolve(name);
  }
}

/**
 * The message from m on. `multiple definition of `x'; /tmp/ccAbCdEf.o:(.data+0x0): first defined here`: a first
 * definition placed only by an object and a section offset ends the message at the symbol. gcc and clang name
 * the temporary object of a compile-and-link command anew on every run and an edit moves offsets, so the place
 * would make the same error a new one each run; one with a source line (`a.o:./a.c:1: first defined here`) stays.
 */
function message(l: Line, m: i32): string {
  let n = l.len;
  if (l.at(n - 1) == Char.e && l.endsWith("): first defined here")) {
    let semi = l.indexOf("; ", m);
    if (semi > m && l.matchAt("multiple definition of ", m)) return l.trimmed(m, semi);
  }
  return l.trimmed(m);
}

/**
 * `<input>: warning: ` at r (an object, archive or source name with no space in it, then ld's warning): the
 * position of the warning's text, or -1.
 */
function objectWarning(l: Line, r: i32): i32 {
  let k = l.indexOf(": warning: ", r);
  if (k <= r) return -1;
  for (let i = r; i < k; i++) if (l.at(i) == Char.SPACE) return -1;
  return k + 11;
}

function isKeyword(l: Line, p: i32): bool {
  let c = l.at(p);
  if (c != Char.u && c != Char.m && c != Char.r) return false;
  for (let i = 0; i < KEYWORDS.length; i++) if (l.matchAt(KEYWORDS[i], p)) return true;
  return false;
}

/** The first `: <keyword>` at or after from, as the position of its colon, or -1. */
function keywordAt(l: Line, from: i32): i32 {
  let p = l.indexOf(": ", from);
  while (p >= 0) {
    if (isKeyword(l, p + 2)) return p;
    p = l.indexOf(": ", p + 2);
  }
  return -1;
}

/** `/usr/bin/ld`, `ld`, `ld.bfd`, `ld.gold`, `ld.lld`, `x86_64-linux-gnu-ld`, `mold` before position k. */
function isLinkerName(l: Line, k: i32): bool {
  let b = l.lastIndexOfByte(Char.SLASH, k) + 1;
  let n = k - b;
  if (n == 2 || (n > 2 && l.at(b + 2) == Char.DOT)) return l.matchAt("ld", b) && n <= 8;
  if (n == 4 && l.matchAt("mold", b)) return true;
  if (n == 3 && l.matchAt("lld", b)) return true;
  return n > 3 && l.matchAt("-ld", k - 3);
}

/** An object or archive name, which is not a source file: `main.o`, `/tmp/cc1.o`, `libx.a(y.o)`. */
function isObject(s: string): bool {
  return s.endsWith(".o") || s.endsWith(".obj") || s.endsWith(".a") || s.endsWith(".lo") || s.endsWith(")") ||
    s.endsWith(".so") || s.includes(".so.");
}
