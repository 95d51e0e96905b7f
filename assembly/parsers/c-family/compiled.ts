// The C and C++ sources a build says it compiled (Facts.compiled): what an incremental build's delta needs, as a
// file's warnings are printed only when it is compiled.
//
//   [2/3] Building C object CMakeFiles/app.dir/src/util.c.o       ninja (CMake's Ninja generator)
//   [ 50%] Building CXX object CMakeFiles/app.dir/main.cpp.o      CMake's Makefiles
//   [1/4] Compiling C object app.p/src_util.c.o                   meson (ninja): the source's path, `/` made `_`
//     CC      util.o                                              quiet recipes: Linux's kbuild (`CC [M]`), git's,
//     CC       src/app-util.o                                     Redis's; automake's silent rules (the target
//     CXX      libfoo_la-util.lo                                  before a `-`, libtool's `.lo`)
//   gcc -Wall -g -c util.c                                        make's echo of a recipe: a compiler (cc, gcc, g++,
//   /usr/bin/cc -O2 -o CMakeFiles/app.dir/a.c.o -c /src/a.c      c++, clang, clang++, a path to one, behind ccache)
//                                                                 and its source arguments
//
// Each source is kept by its base name's hash (util/name-hash.ts): a warning's file is matched by its base name, so
// two files of one name in two directories are one (read as compiled: the delta then says "fixed", as before).
// An object named without its source's extension (util.o) is kept by its stem (objectKey), which any source of
// that stem matches (util.c, util.cpp; util.h too: read as compiled, as before). A name a build tool may have
// prefixed (meson's `src_`, automake's `app-`) is kept whole and without the prefix: a wrong match reads as compiled.
import { Char } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts } from "../../model";
import { nameHash, objectKey, MAX_PASSED_SET } from "../../util/name-hash";

const BUILDING = "] Building ";
const COMPILING = "] Compiling ";
const OBJECT = " object ";

/** Records the sources l says were compiled. Only lines whose first byte is `[`, `/`, `c`, `g` or a space can. */
export function readCompiled(l: Line, f: Facts): void {
  let c0 = l.at(0);
  if (c0 == Char.LBRACKET) { building(l, f); return; }
  if (c0 == Char.SPACE) { quiet(l, f); return; }
  if (c0 == Char.SLASH || c0 == Char.c || c0 == Char.g) echo(l, f);
}

/** `[2/3] Building C object CMakeFiles/app.dir/src/util.c.o`: util.c; meson's `Compiling C object app.p/src_util.c.o`: src_util.c and util.c. */
/** `_`-parted names of a meson object read, from its end: a source path's depth. */
const MAX_DEPTH = 16;

function building(l: Line, f: Facts): void {
  let b = l.indexOf(BUILDING);
  let mangled = false;
  if (b < 0) { b = l.indexOf(COMPILING); mangled = true; }
  if (b < 0 || b > 12) return;
  let o = l.indexOf(OBJECT, b + BUILDING.length);
  if (o < 0 || !l.endsWith(".o")) return;
  let start = l.lastIndexOfByte(Char.SLASH, l.len - 1) + 1;
  if (start <= o) start = o + OBJECT.length;
  if (start >= l.len - 2) return;
  let name = l.str(start, l.len - 2);
  add(f, nameHash(name));
  if (!mangled) return;
  // meson's object is the source's path from the project's root, each `/` made `_`: src/util.c is src_util.c.
  // The names after its last MAX_DEPTH `_` (a path is no deeper): a line of thousands made as many copies of it.
  let from = name.length - 1;
  for (let k = 0; k < MAX_DEPTH && from > 0; k++) { let i = name.lastIndexOf("_", from - 1); if (i < 0) break; from = i; }
  for (let i = name.indexOf("_", from); i >= 0 && i < name.length - 1; i = name.indexOf("_", i + 1)) add(f, nameHash(name.substring(i + 1)));
}

/**
 * A quiet recipe's line: up to 8 spaces, `CC` or `CXX` (kbuild's `CC [M]`), spaces, and the object alone:
 * `  CC      util.o`, `    CC builtin/add.o`, `  CC       src/app-util.o`, `  CXX      libfoo_la-util.lo`.
 * Kept by the object's stem, and the stem after its first `-` (automake's target prefix).
 */
function quiet(l: Line, f: Facts): void {
  let n = l.len;
  let i = 1;
  while (i < n && i < 9 && l.at(i) == Char.SPACE) i++;
  if (l.at(i) != Char.C) return;
  let c = l.at(i + 1);
  let t = i + 2;
  if (c == Char.X) { if (l.at(t) != Char.X) return; t++; } else if (c != Char.C) return;
  if (t >= n || l.at(t) != Char.SPACE) return;
  while (t < n && l.at(t) == Char.SPACE) t++;
  if (l.matchAt("[M]", t)) { t += 3; while (t < n && l.at(t) == Char.SPACE) t++; }
  if (t >= n || l.indexOfByte(Char.SPACE, t) >= 0) return;
  let dot = l.lastIndexOfByte(Char.DOT, n - 1);
  if (dot <= t) return;
  let k = n - dot - 1;
  if (!(k == 1 && l.at(dot + 1) == Char.o) && !(k == 2 && l.matchAt("lo", dot + 1)) && !(k == 3 && l.matchAt("obj", dot + 1))) return;
  let s = max(t, l.lastIndexOfByte(Char.SLASH, dot) + 1);
  if (s >= dot) return;
  let stem = l.str(s, dot);
  add(f, objectKey(stem));
  let m = stem.indexOf("-");
  if (m > 0 && m < stem.length - 1) add(f, objectKey(stem.substring(m + 1)));
}

/** `gcc -Wall -c util.c -o util.o`: its first word a C or C++ compiler, each argument ending in a source's extension. */
function echo(l: Line, f: Facts): void {
  let n = l.len;
  let e = l.indexOfByte(Char.SPACE);
  if (e < 0) return;
  let w = l.lastIndexOfByte(Char.SLASH, e - 1) + 1;
  if (e - w == 6 && l.matchAt("ccache", w)) {
    let a = e + 1;
    e = l.indexOfByte(Char.SPACE, a);
    if (e < 0) return;
    w = max(a, l.lastIndexOfByte(Char.SLASH, e - 1) + 1);
  }
  if (!isCompiler(l, w, e)) return;
  let p = e + 1;
  let afterO = false;
  while (p < n) {
    let q = l.indexOfByte(Char.SPACE, p);
    if (q < 0) q = n;
    if (q > p) {
      if (!afterO && isSource(l, p, q)) {
        let s = l.lastIndexOfByte(Char.SLASH, q - 1) + 1;
        if (s < p) s = p;
        add(f, nameHash(l.str(s, q)));
      }
      afterO = q == p + 2 && l.at(p) == Char.MINUS && l.at(p + 1) == Char.o;
    }
    p = q + 1;
  }
}

/** Whether [a, e) names a C or C++ compiler: cc, c++, gcc, g++, clang, clang++, with a `-12` version after. */
function isCompiler(l: Line, a: i32, e: i32): bool {
  let v = e;
  // `gcc-12`, `clang-14`: the version after the last '-'
  let d = l.lastIndexOfByte(Char.MINUS, e - 1);
  if (d > a && d < e - 1) {
    let digits = true;
    for (let i = d + 1; i < e; i++) { let c = l.at(i); if (!(c >= Char._0 && c <= Char._9) && c != Char.DOT) { digits = false; break; } }
    if (digits) v = d;
  }
  let len = v - a;
  if (len == 2) return l.matchAt("cc", a);
  if (len == 3) return l.matchAt("gcc", a) || l.matchAt("g++", a) || l.matchAt("c++", a);
  if (len == 5) return l.matchAt("clang", a);
  if (len == 7) return l.matchAt("clang++", a);
  return false;
}

/** Whether [a, q) is a source argument: not an option, ending in .c, .cc, .cpp, .cxx, .c++ or .C. */
function isSource(l: Line, a: i32, q: i32): bool {
  if (l.at(a) == Char.MINUS) return false;
  let dot = l.lastIndexOfByte(Char.DOT, q - 1);
  if (dot <= a || dot >= q - 1) return false;
  let k = q - dot - 1;
  if (k == 1) { let c = l.at(dot + 1); return c == Char.c || c == Char.C; }
  if (k == 2) return l.matchAt("cc", dot + 1);
  if (k == 3) return l.matchAt("cpp", dot + 1) || l.matchAt("cxx", dot + 1) || l.matchAt("c++", dot + 1);
  return false;
}

function add(f: Facts, h: u32): void {
  if (f.compiledOverflow) return;
  let c = f.compiled;
  let seen = f.compiledSeen;
  if (c === null || seen === null) { c = new Array<u32>(0); f.compiled = c; seen = new Set<u32>(); f.compiledSeen = seen; }
  if (seen.has(h)) return;
  if (c.length >= MAX_PASSED_SET) { f.compiledOverflow = true; f.compiled = null; f.compiledSeen = null; return; }
  c.push(h);
  seen.add(h);
}
