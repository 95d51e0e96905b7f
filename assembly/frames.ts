// Stack frames: the sanitizer frame syntax shared by ASan/LSan/TSan/MSan/UBSan, and the one rule that
// says whether a frame is the user's own code or a runtime's (sanitizer, libc, C++ std, Rust std, Python
// stdlib, Go runtime, node internals). first_user_frame and crash identities rest on it.
import { Char, isDigit } from "./util/chars";
import { Line } from "./util/line";
import { Frame } from "./model";
import { INFRA_FUNCS, INFRA_MODULES } from "./infra-frames";

/** Strips a leading "./" (fixtures and sandboxes print paths relative to the work dir). */
export function normPath(p: string): string {
  while (p.startsWith("./")) p = p.substring(2);
  if (p.startsWith("/work/")) p = p.substring(6);
  return p;
}

export function basename(p: string | null): string {
  if (p === null) return "";
  let i = p.lastIndexOf("/");
  return i >= 0 ? p.substring(i + 1) : p;
}

const RUNTIME_PATHS: string[] = [
  "/sanitizer_common/", "/asan/", "/lsan/", "/tsan/", "/msan/", "/ubsan/", "/hwasan/", "/interception/",
  "libsanitizer/", "compiler-rt/", "libasan", "liblsan", "libtsan", "libubsan", "libclang_rt",
  "libc.so", "libc-", "libm.so", "libpthread", "ld-linux", "/csu/", "/sysdeps/", "/glibc", "/nptl/",
  // glibc's own sources as its debug info names them (`libio/./libio/iofread.c`, `string/../sysdeps/...`)
  "libio/", "stdio-common/",
  "/usr/include/", "libstdc++", "libc++", "libgcc", "/bits/", "/include/c++/", "/lib/clang/",
  "/rustc/", "/library/std/", "/library/core/", "/library/alloc/", "/.cargo/registry/",
  // crates not the user's under another CARGO_HOME or a system registry: rust's Docker images'
  // /usr/local/cargo/registry/src/…, Debian's and Fedora's /usr/share/cargo/registry/NAME-VERSION/, git dependencies
  "/cargo/registry/", "cargo/git/checkouts/",
  "/usr/lib/go", "/usr/local/go", "/go/src/runtime/", "/go/src/", "GOROOT",
  "/lib/python3", "/lib/python2", "<frozen ", "site-packages/", "dist-packages/",
  "/node_modules/",
  // Ruby's standard library and installed gems (Debian's /usr/lib/ruby/3.1.0/, /usr/share/rubygems-integration/,
  // gem install's /var/lib/gems/, bundler's vendor/bundle/ruby/3.1.0/gems/).
  "/lib/ruby/", "/rubygems-integration/", "/var/lib/gems/", "/bundle/ruby/",
];

// `node_modules/vite/...`: a dependency, named relative to the project (frames of a project's own node_modules).
const RUNTIME_PREFIXES: string[] = ["node:", "<frozen", "<built-in>", "[native code]", "node_modules/", "<internal:"];

// Sanitizer runtimes (compiler-rt and libsanitizer) name every function they own with a reserved
// "__<runtime>" stem: interceptors (`__asan_memcpy`, `__interceptor_malloc`, `___interceptor_free`),
// reporting hooks (`__ubsan_handle_add_overflow`, `__sanitizer_print_stack_trace`) and C++ namespaces
// (`__asan::Allocator::Allocate`, `__lsan::ScanRangeForPointers`). See isSanitizerRuntimeFn.
const SANITIZER_STEMS: string[] = [
  "asan", "hwasan", "lsan", "tsan", "msan", "dfsan", "ubsan", "nsan", "rtsan", "tysan", "memprof",
  "sanitizer", "interceptor", "interception", "scudo", "cfi", "safestack", "xray",
];

const RUNTIME_FUNCS: string[] = [
  "__libc_", "_start", "__GI_", "_IO_", "__pthread", "start_thread", "clone", "__clone",
  "std::", "core::", "alloc::", "__rust_", "rust_begin_unwind", "rust_panic", "__cxa_", "__gnu_cxx::",
  "runtime.", "testing.tRunner", "operator new", "operator delete", "malloc", "calloc", "realloc", "free",
  "raise", "abort", "__assert_fail", "__GI_raise", "__GI_abort", "__pthread_kill",
  // libc entry points that sanitizers intercept: in a static runtime they show as "(./prog+0x..)" frames.
  "pthread_", "memcpy", "memmove", "memset", "memcmp", "strlen", "strnlen", "strcpy", "strncpy", "strcat",
  "strcmp", "strncmp", "strdup", "strndup", "printf", "fprintf", "sprintf", "snprintf", "vprintf", "puts",
  "fputs", "fwrite", "fread", "posix_memalign", "aligned_alloc", "memalign", "valloc", "pvalloc",
  "reallocarray", "exit",
  // the ARM EABI's runtime helpers (`__aeabi_memcpy`, `__aeabi_idiv`)
  "__aeabi_",
];

// classify()'s answers by (file, module, fn): a log repeats its frames (every failure's traceback passes
// through the same runner and library frames) and the answer is ~80 substring searches. A pure function
// of those three, so cached; emptied when full, keys of at most CLASSIFIED_KEY chars: at most ~1 MiB.
const CLASSIFIED_MAX = 1024;
const CLASSIFIED_KEY = 512;
const classified = new Map<string, bool>();

/**
 * True when a source path is a runtime's or a system library's (`/usr/include/c++/12/bits/stl_algo.h`, clang's
 * `/usr/bin/../lib/gcc/.../include/c++/12/...`), by the same paths that make a frame a runtime's: not a file the
 * user edits. A compiler's `<built-in>`/`<command-line>` counts as not the user's too.
 */
export function isRuntimePath(p: string): bool {
  if (p.length == 0 || p.startsWith("<")) return true;
  for (let i = 0; i < RUNTIME_PREFIXES.length; i++) if (p.startsWith(RUNTIME_PREFIXES[i])) return true;
  for (let i = 0; i < RUNTIME_PATHS.length; i++) if (p.includes(RUNTIME_PATHS[i])) return true;
  return false;
}

/** A frame is the user's own when neither its file, its module nor its function belongs to a runtime. */
export function classify(f: Frame): void {
  // \u0001 marks a null field, \u0000 separates: no two distinct triples give the same key.
  let key = (f.file !== null ? f.file! : "\u0001") + "\u0000" + (f.module !== null ? f.module! : "\u0001") + "\u0000" + (f.fn !== null ? f.fn! : "\u0001");
  if (key.length > CLASSIFIED_KEY) { classifyFresh(f); return; }
  if (classified.has(key)) { f.user = classified.get(key); return; }
  classifyFresh(f);
  if (classified.size >= CLASSIFIED_MAX) classified.clear();
  classified.set(key, f.user);
}

function classifyFresh(f: Frame): void {
  let where = f.file !== null ? f.file! : (f.module !== null ? f.module! : "");
  let user = true;
  for (let i = 0; i < RUNTIME_PREFIXES.length; i++) {
    if (where.startsWith(RUNTIME_PREFIXES[i])) { user = false; break; }
  }
  for (let i = 0; i < RUNTIME_PATHS.length; i++) {
    if (where.includes(RUNTIME_PATHS[i])) { user = false; break; }
  }
  if (user && f.file !== null && isSanitizerObject(f.file!)) user = false;
  // glibc's string functions as Valgrind names them, by their assembly source and no directory: `__strcmp_avx2
  // (strcmp-avx2.S:249)`, `__memmove_avx_unaligned_erms (memmove-vec-unaligned-erms.S:...)`: a reserved name in a
  // `.S` file.
  if (user && f.file !== null && f.fn !== null && f.file!.endsWith(".S") && f.fn!.startsWith("__")) user = false;
  if (user && f.fn !== null) {
    let fn = f.fn!;
    if (isSanitizerRuntimeFn(fn)) user = false;
    else if (matchesFn(fn, RUNTIME_FUNCS) || matchesFn(fn, INFRA_FUNCS)) user = false;
  }
  if (user && f.module !== null) {
    let m = basename(f.module);
    for (let i = 0; i < INFRA_MODULES.length; i++) if (m.startsWith(INFRA_MODULES[i])) { user = false; break; }
  }
  // A frame with neither a source file nor a symbol is not something the user can open.
  if (f.file === null && f.fn === null) user = false;
  // A frame known only by its module (no source line) is user code only if the module is the program, or a
  // library the project built itself (under the work dir: cJSON's build/libcjson.so without debug info).
  if (user && f.file === null && f.module !== null && f.module!.includes(".so") && !ownLibrary(f)) user = false;
  f.user = user;
}

/**
 * A frame in a shared library built under the work dir, with a function name: the user's own code, even
 * without debug info. Module paths are absolute (`/work/build/libx.so`, `/usr/lib/.../libc.so.6`); after
 * normPath one under the work dir is relative.
 */
export function ownLibrary(f: Frame): bool {
  let m = f.module;
  if (m === null || f.fn === null || !m.includes(".so")) return false;
  let c = m.charCodeAt(0);
  return c != Char.SLASH && c != Char.LT && c != Char.LBRACKET && !m.startsWith("../");
}

/**
 * True for an object file of a sanitizer runtime, which the symbolizer prints in place of a source file when the
 * runtime has no line table (`StrstrCheck(...) asan_interceptors.cpp.o`, `tsan_interceptors_posix.cpp.o`): a
 * name ending in `.o` whose base starts with a SANITIZER_STEMS stem and `_`.
 */
export function isSanitizerObject(file: string): bool {
  if (!file.endsWith(".o")) return false;
  let b = basename(file);
  for (let k = 0; k < SANITIZER_STEMS.length; k++) {
    let stem = SANITIZER_STEMS[k];
    if (b.length > stem.length && b.startsWith(stem) && b.charCodeAt(stem.length) == Char.UNDERSCORE) return true;
  }
  return false;
}

/**
 * True for a sanitizer runtime's own function: two or more leading underscores, a stem from
 * SANITIZER_STEMS, then the end of the name, "_" or "::" (`__asan_memcpy`, `___interceptor_free`,
 * `__asan::asan_malloc`), but not a user name that merely starts with the stem (`__asanity_check`).
 */
export function isSanitizerRuntimeFn(fn: string): bool {
  let n = fn.length;
  if (n < 3 || fn.charCodeAt(0) != Char.UNDERSCORE || fn.charCodeAt(1) != Char.UNDERSCORE) return false;
  let i = 2;
  while (i < n && fn.charCodeAt(i) == Char.UNDERSCORE) i++;
  for (let k = 0; k < SANITIZER_STEMS.length; k++) {
    let stem = SANITIZER_STEMS[k];
    let end = i + stem.length;
    if (end > n || fn.substring(i, end) != stem) continue;
    if (end == n) return true;
    let c = fn.charCodeAt(end);
    if (c == Char.UNDERSCORE) return true;
    if (c == Char.COLON && end + 1 < n && fn.charCodeAt(end + 1) == Char.COLON) return true;
  }
  return false;
}

/** True when a row of the table names fn: the whole name, a "::"/"_"/"." prefix, or a prefix before punctuation. */
export function matchesFn(fn: string, table: string[]): bool {
  for (let i = 0; i < table.length; i++) {
    let r = table[i];
    if (fn.startsWith(r) && (fn.length == r.length || !isIdentChar(fn.charCodeAt(r.length)) || r.endsWith("_") || r.endsWith(".") || r.endsWith(":"))) {
      return true;
    }
  }
  return false;
}

function isIdentChar(c: i32): bool {
  return isDigit(c) || (c >= Char.A && c <= Char.Z) || (c >= Char.a && c <= Char.z) || c == Char.UNDERSCORE;
}

/** Splits "file:line:col" / "file:line" at its tail into the frame; returns false when it has no line. */
export function setLocation(f: Frame, loc: string): bool {
  // Walk back over up to two ":digits" groups.
  let end = loc.length;
  let nums = new Array<i32>(0);
  let cut = end;
  for (let k = 0; k < 2; k++) {
    let i = cut - 1;
    while (i >= 0 && isDigit(loc.charCodeAt(i))) i--;
    if (i == cut - 1 || i < 0 || loc.charCodeAt(i) != Char.COLON) break;
    nums.unshift(I32.parseInt(loc.substring(i + 1, cut)));
    cut = i;
  }
  if (nums.length == 0) return false;
  f.file = normPath(loc.substring(0, cut));
  f.line = nums[0];
  if (nums.length > 1) f.col = nums[1];
  return true;
}

/**
 * Parses a sanitizer frame line:  `#3 0x4011d6 in main /src/main.c:12:5`, `#1 0x7f.. in foo (lib.so+0x1d)`,
 * `#2 0x7f.. (/lib/libc.so.6+0x271ca) (BuildId: ab12)`, and ThreadSanitizer's form without a pc:
 * `#0 worker ./main.c:10:16 (prog+0xd01a2)`, `#0 pthread_create <null> (prog+0x513ad)`.
 * Returns null when the line is not a frame.
 */
export function parseSanFrame(l: Line): Frame | null {
  let p = l.skipSpaces(0);
  if (l.at(p) != Char.HASH) return null;
  let idx = l.readInt(p + 1);
  if (idx < 0 || l.at(l.end) != Char.SPACE) return null;
  p = l.skipSpaces(l.end);
  let withPc = l.matchAt("0x", p);
  let inForm = false;
  if (withPc) {
    p = l.skipSpaces(l.skipHex(p + 2));
    if (l.matchAt("in ", p)) { p += 3; inForm = true; }
    else if (l.matchAt("in", p) && l.skipSpaces(p + 2) >= l.len) p += 2; // "#0 0x00000333 in": no name
  }
  let end = l.len;
  while (end > p && l.at(end - 1) == Char.SPACE) end--;
  // Drop a trailing "(BuildId: ...)".
  let b = l.lastIndexOf(" (BuildId:", end);
  if (b >= p - 1 && b >= 0) end = b;
  // A trailing "(module+0x..)" / "(<unknown module>)".
  let stop = end;
  let module: string | null = null;
  if (end > p && l.at(end - 1) == Char.RPAREN) {
    let open = l.at(p) == Char.LPAREN ? p - 1 : l.lastIndexOf(" (", end);
    if (open >= p - 1 && open >= 0) {
      let inner = l.str(open + 2, end - 1);
      if (inner.includes("+0x") || inner == "<unknown module>") { module = inner; stop = open; }
    }
  }
  // Fuchsia's symbolizer ends a frame with its module as `<<application>>+0xacf4c` / `<libc.so>+0x964de`.
  if (module === null && end > p) {
    let sp = l.lastIndexOfByte(Char.SPACE, end);
    let t = sp >= p ? sp + 1 : p;
    if (l.at(t) == Char.LT) {
      let plus = l.indexOf(">+0x", t);
      if (plus > t && plus < end) {
        let a = t + 1;
        while (l.at(a) == Char.LT) a++;
        let b = plus;
        while (b > a && l.at(b - 1) == Char.GT) b--;
        if (b > a) { module = l.str(a, b); stop = sp >= p ? sp : p; }
        else if (l.at(a) == Char.GT) stop = sp >= p ? sp : p; // "<>+0xb8bff": the module has no name
      }
    }
  }
  // Without a pc (TSan) a frame always names its module: that keeps "#1 of 3" prose out.
  if (!withPc && module === null) return null;
  let f = new Frame();
  f.index = <i32>idx;
  // The frame's text as ClusterFuzz reads it: a module-only frame without its parentheses.
  let t = l.trimmed(p, end);
  if (t.length >= 2 && t.charCodeAt(0) == Char.LPAREN && t.charCodeAt(t.length - 1) == Char.RPAREN) t = t.substring(1, t.length - 1);
  // A frame with neither "in" nor a module is Chrome's own form, a name only (`#1 0x.. Foo::Bar()`); a path
  // there (`#0 0x.. /usr/lib/libx.so`) names no function, and no fleet files a crash under it.
  else if (!inForm && module === null && (t.includes("/") || t.includes("\\"))) t = "";
  f.text = t;
  if (module !== null) setModule(f, module!);
  while (stop > p && l.at(stop - 1) == Char.SPACE) stop--;
  if (stop > p) {
    // The location is the last token ("file:line[:col]", a bare file, or TSan's "<null>"); the rest is the function.
    let sp = l.lastIndexOfByte(Char.SPACE, stop);
    if (sp >= p) {
      let loc = l.str(sp + 1, stop);
      if (loc == "<null>" || setLocation(f, loc)) f.fn = l.trimmed(p, sp);
      else if (looksLikeFile(loc)) { f.file = normPath(loc); f.fn = l.trimmed(p, sp); }
      else f.fn = l.trimmed(p, stop);
    } else {
      let t = l.trimmed(p, stop);
      // `#0 0x7f.. in libc.so.6`, `in /lib/x86_64-linux-gnu/libc.so.6`: a module in the function's place.
      if (module === null && isModuleToken(t)) f.module = normPath(t);
      else f.fn = t;
    }
  }
  if (f.fn !== null && (f.fn! == "<null>" || f.fn!.length == 0)) f.fn = null;
  classify(f);
  return f;
}

/** A shared object's name (`libc.so.6`, `linux-gate.so.1`) or a path (`/usr/lib/x.so`, `./prog`): a module, not a function. */
function isModuleToken(s: string): bool {
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c == Char.LPAREN || c == Char.COLON || c == Char.LT || c == Char.SPACE) return false;
  }
  if (s.startsWith("/") || s.startsWith("./") || s.startsWith("../")) return true;
  let k = s.indexOf(".so");
  return k > 0 && (k + 3 == s.length || s.charCodeAt(k + 3) == Char.DOT);
}

/** A bare path with no line number: has a '/' or a '.', and none of a signature's punctuation. */
function looksLikeFile(s: string): bool {
  if (!s.includes("/") && !s.includes(".")) return false;
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c == Char.LPAREN || c == Char.RPAREN || c == Char.LT || c == Char.GT || c == Char.COMMA || c == Char.STAR || c == Char.AMP) return false;
  }
  return true;
}

function setModule(f: Frame, m: string): void {
  let plus = m.lastIndexOf("+0x");
  f.module = normPath(plus > 0 ? m.substring(0, plus) : m);
}

/**
 * In a stack where the user's frames carry source locations, a frame known only by its module
 * (`main (./prog+0x5be72)`: libFuzzer's own main, a driver built without debug info) is infrastructure,
 * not the user's code: ClusterFuzz's "module-only frames". A stack with no located frame keeps them, and
 * so does a library the project builds itself (ownLibrary).
 */
export function demoteModuleOnly(frames: Array<Frame>): void {
  let located = false;
  for (let i = 0; i < frames.length; i++) if (frames[i].user && frames[i].file !== null) { located = true; break; }
  if (!located) return;
  for (let i = 0; i < frames.length; i++) {
    let f = frames[i];
    if (f.user && f.file === null && f.module !== null && !ownLibrary(f)) f.user = false;
  }
}

/**
 * go test's -timeout alarm (`panic: test timed out after 10m0s`) panics in its own goroutine, with no frame of
 * the user's: the goroutine of the test that was running is the one whose frame right above `testing.tRunner`
 * is the user's (the test function, or a frame it called). Not `main.main` (`_testmain.go`) of goroutine 1.
 */
export function isGoTimeout(msg: string | null): bool {
  return msg !== null && msg!.startsWith("test timed out after ");
}

/**
 * A Go frame of the standard library as a `-trimpath` build prints it: its location is not absolute but the
 * package's import path and the file (`testing/testing.go:1493` under `testing.(*T).Run`, `runtime/panic.go:884`
 * under `panic`, `encoding/json/decode.go` under `encoding/json.(*decodeState).object`), and the package's first
 * element has no dot (a module's path has one: `github.com/x/y/clock.go` under `github.com/x/y.F` is the user's).
 * loc is the location as printed (before normPath), fn the frame's function.
 */
export function goTrimmedStd(fn: string, loc: string): bool {
  if (loc.length == 0 || loc.charCodeAt(0) == Char.SLASH || loc.charCodeAt(0) == Char.DOT) return false;
  let slash = loc.lastIndexOf("/");
  if (slash <= 0 || !loc.endsWith(".go")) return false;
  let dir = loc.substring(0, slash);
  if (fn.length <= slash + 1 || !fn.startsWith(dir) || fn.charCodeAt(slash) != Char.DOT) return false;
  let first = dir.indexOf("/");
  let head = first < 0 ? dir : dir.substring(0, first);
  return !head.includes(".") && head != "main";
}

/** A Go frame's location line (`\t/abs/x.go:12 +0x1d`, trimmed to `/abs/x.go:12`): read into fr and classified. */
export function setGoLocation(fr: Frame, loc: string): void {
  if (!setLocation(fr, loc)) return;
  classify(fr);
  if (fr.fn !== null && goTrimmedStd(fr.fn!, loc)) fr.user = false;
}

/**
 * The same for the runtime's deadlock (`fatal error: all goroutines are asleep - deadlock!`, go test -timeout 0):
 * goroutine 1 (`testing.(*T).Run`, `main.main` of `_testmain.go`) is printed first; the test that blocked is
 * a later goroutine's (golang-lru: a test waiting on a sync.WaitGroup nobody finishes).
 */
export function isGoHang(msg: string | null): bool {
  return msg !== null && (msg!.startsWith("test timed out after ") || msg!.startsWith("all goroutines are asleep"));
}

export const enum GoTestRole { NONE = 0, WAITS = 1, RUNS = 2 }

/**
 * What a goroutine of the alarm's dump was doing for the tests: RUNS a test (its user frame right above
 * `testing.tRunner` called nothing of the testing package's that parks it), WAITS in `t.Run` for a subtest
 * (a parent: the place when no subtest's goroutine is in the dump), or NONE: the alarm, goroutine 1, the
 * user's own goroutines, and a test parked in `t.Parallel` (`testing.(*T).Parallel` above its frame: it waits
 * for its parent to finish and has not started; gorilla/mux's dump lists five of them before the hung test).
 */
export function goTestRole(frames: Array<Frame>): GoTestRole {
  for (let i = 1; i < frames.length; i++) {
    let fn = frames[i].fn;
    if (fn === null || fn! != "testing.tRunner") continue;
    if (!frames[i - 1].user) return GoTestRole.NONE;
    for (let j = 0; j < i - 1; j++) {
      let g = frames[j].fn;
      if (g === null) continue;
      if (g! == "testing.(*T).Parallel") return GoTestRole.NONE;
      if (g! == "testing.(*T).Run") return GoTestRole.WAITS;
    }
    return GoTestRole.RUNS;
  }
  return GoTestRole.NONE;
}

/**
 * The test a RUNS goroutine runs, when its frame above `testing.tRunner` is a test function
 * (`github.com/gorilla/mux.TestWaitForRoute`: `TestWaitForRoute`) or a subtest's closure in one
 * (`example.com/queue.TestDrain.func2`: `TestDrain`, whose subtest's name the dump does not hold; the parent
 * fails with it); null for anything else.
 */
export function goTestFunc(frames: Array<Frame>): string | null {
  for (let i = 1; i < frames.length; i++) {
    let fn = frames[i].fn;
    if (fn === null || fn! != "testing.tRunner") continue;
    let t = frames[i - 1].fn;
    if (t === null) return null;
    let s = t!.substring(t!.lastIndexOf("/") + 1);
    let dot = s.indexOf(".");
    if (dot < 0) return null;
    s = s.substring(dot + 1);
    let inner = s.indexOf(".");
    if (inner > 0 && s.startsWith(".func", inner)) s = s.substring(0, inner);
    if (s.indexOf(".") >= 0 || !(s.startsWith("Test") || s.startsWith("Example") || s.startsWith("Fuzz"))) return null;
    return s;
  }
  return null;
}

export function runsGoTest(frames: Array<Frame>): bool {
  return goTestRole(frames) == GoTestRole.RUNS;
}

/** The first user frame of a stack, or null. */
export function firstUser(frames: Array<Frame>): Frame | null {
  for (let i = 0; i < frames.length; i++) if (frames[i].user) return frames[i];
  return null;
}
