// One line per known crash kind: what it means and the usual class of fix.

const KINDS: string[] = [
  "heap-buffer-overflow", "an access past the end (or before the start) of a heap block: check the index bound or the allocation size (off-by-one, missing +1 for a NUL)",
  "stack-buffer-overflow", "an access outside a local array: check the loop bound or the buffer size against what is written into it",
  "global-buffer-overflow", "an access outside a global or static array: check the index against the array's declared size",
  "heap-use-after-free", "memory used after it was freed: the pointer outlives its block; free later, or clear and stop using the pointer after free",
  "double-free", "a block freed twice: set the pointer to NULL after free, or give the block a single owner",
  "bad-free", "free() of a pointer malloc did not return (an interior pointer, a stack or global address)",
  "attempting free on address which was not malloc()-ed", "free() of a pointer malloc did not return (an interior pointer, a stack or global address)",
  "alloc-dealloc-mismatch", "allocation and release functions do not pair: new/delete, new[]/delete[], malloc/free",
  "new-delete-type-mismatch", "delete through a pointer of the wrong type or size: make the base destructor virtual or delete the right type",
  "stack-use-after-return", "a pointer to a local used after its function returned: return by value or allocate the object",
  "stack-use-after-scope", "a pointer to a local used after its block ended: widen the variable's scope",
  "use-after-poison", "an access to memory the program or allocator marked unusable",
  "memcpy-param-overlap", "memcpy with overlapping source and destination: use memmove",
  "strcpy-param-overlap", "string copy with overlapping buffers: copy through a separate buffer or use memmove",
  "negative-size-param", "a negative size passed to a memory function: check the length arithmetic",
  "calloc-overflow", "calloc's count × size overflows: check the element count",
  "allocation-size-too-big", "an allocation larger than the allocator allows: the size is probably garbage or negative",
  "out-of-memory", "the allocator ran out of memory: look for unbounded growth or a huge size",
  "container-overflow", "an access past a container's size but inside its capacity: check the index against size()",
  "dynamic-stack-buffer-overflow", "an access outside an alloca/VLA: check its size",
  // Valgrind's Memcheck, where its report does not say more (an address in no block it knows)
  "invalid-read", "a read of memory the program does not own (past a block, freed, or never allocated): check the pointer and the index on the first user frame",
  "invalid-write", "a write to memory the program does not own (past a block, freed, or never allocated): check the pointer and the index on the first user frame",
  "uninitialised-syscall-param", "bytes passed to a system call were never set: initialise the buffer before it is written out",
  "SEGV", "an invalid memory access (often a NULL or dangling pointer): check the pointer on the first user frame",
  "stack-overflow", "the stack ran out: unbounded recursion, or a huge local array",
  "detected memory leaks", "memory allocated and never freed: free it on every path, or give it an owner",
  "data race", "two threads touch the same memory without synchronisation and at least one writes: guard it with a mutex or make it atomic",
  // ThreadSanitizer's reports other than races
  "unlock of an unlocked mutex (or by a wrong thread)", "a mutex unlocked that this thread does not hold: pair every unlock with a lock on the same thread",
  "double lock of a mutex", "a thread locks a mutex it already holds (a self-deadlock): unlock it first, or use a recursive mutex",
  "destroy of a locked mutex", "a mutex destroyed (or freed) while still locked: unlock it before destroying it",
  "use of an invalid mutex (e.g. uninitialized or destroyed)", "a mutex used before init or after destroy: initialise it first and destroy it last",
  "lock-order-inversion (potential deadlock)", "two mutexes taken in opposite orders on two paths: take them in one fixed order everywhere",
  "thread leak", "a thread never joined nor detached: pthread_join it (or detach it) before its handle goes away",
  "signal-unsafe call inside of a signal", "a signal handler calls a function that is not async-signal-safe (malloc, printf): only set a flag there",
  "signal handler spoils errno", "a signal handler changes errno: save errno on entry and restore it before returning",
  "use-of-uninitialized-value", "a value read before it was set: initialise the variable or the buffer on every path",
  "signed-integer-overflow", "signed arithmetic overflowed, which is undefined: widen the type or check before the operation",
  "shift-exponent", "a shift by a negative amount or by at least the type's width: bound the shift count",
  "shift-base", "a shift of a negative value or one that overflows: shift an unsigned value",
  "division-by-zero", "a division or remainder by zero: check the divisor first",
  "null-pointer-use", "a NULL pointer dereferenced: check for NULL before use",
  "misaligned-address", "an access through a misaligned pointer: use memcpy or an aligned type",
  "out-of-bounds-index", "an array index outside its bounds: check the index",
  "invalid-bool-load", "a bool holding a value other than 0/1: the memory is uninitialised or corrupt",
  "invalid-enum-load", "an enum holding an invalid value: the memory is uninitialised or corrupt",
  "unreachable", "execution reached __builtin_unreachable or fell off a non-void function",
  // UBSan's runtime error-type names (what report_error_type=1 prints; the crash kinds of UBSan reports).
  "invalid-shift-exponent", "a shift by a negative amount or by at least the type's width: bound the shift count",
  "invalid-shift-base", "a shift of a negative value or one that overflows: shift an unsigned value",
  "integer-divide-by-zero", "an integer division or remainder by zero: check the divisor first",
  "float-divide-by-zero", "a floating-point division by zero: check the divisor first",
  "misaligned-pointer-use", "an access through a misaligned pointer: use memcpy or an aligned type",
  "insufficient-object-size", "an access through a pointer to an object too small for the type: check the cast or the index",
  "unsigned-integer-overflow", "unsigned arithmetic wrapped: check the operands or use a wider type",
  "pointer-overflow", "pointer arithmetic overflowed or went outside its object: check the offset",
  "nullptr-with-offset", "pointer arithmetic on a NULL pointer: check the pointer first",
  "nullptr-with-nonzero-offset", "pointer arithmetic on a NULL pointer: check the pointer first",
  "nullptr-after-nonzero-offset", "pointer arithmetic produced NULL: check the offset",
  "invalid-null-argument", "NULL passed for a parameter declared nonnull: check the argument first",
  "invalid-null-return", "NULL returned from a function declared returns_nonnull",
  "float-cast-overflow", "a float converted to an integer type that cannot hold it: check the range first",
  "unreachable-call", "execution reached __builtin_unreachable(): a case the code assumed impossible happened",
  "missing-return", "a non-void function ended without a return: add the missing return",
  "non-positive-vla-index", "a variable-length array with a size of zero or less: check the size",
  "invalid-builtin-use", "zero passed to __builtin_clz/ctz: check the argument first",
  "function-type-mismatch", "a call through a function pointer of the wrong type: fix the cast",
  "dynamic-type-mismatch", "an object used as a type it is not (bad downcast or use after destruction)",
  "implicit-signed-integer-truncation", "an implicit conversion to a narrower type lost the value: convert explicitly after a range check",
  "implicit-unsigned-integer-truncation", "an implicit conversion to a narrower type lost the value: convert explicitly after a range check",
  "implicit-integer-sign-change", "an implicit conversion changed the value's sign: convert explicitly after a range check",
  "tag-mismatch", "a memory access whose pointer tag does not match the memory (overflow or use after free): see the cause line",
  "stack-buffer-underflow", "an access before the start of a local array: check the index is not negative",
  "use-after-free", "memory used after it was freed: the pointer outlives its block; free later, or clear and stop using the pointer after free",
  "assertion-failed", "an assertion in the program failed: read the condition and the values at the assertion's caller",
  "check-failed", "a CHECK in the program failed: read the condition and the values beside it at the first frame in your code",
  "deadly-signal", "the fuzz target crashed on this input with no sanitizer to say why: rebuild with -fsanitize=address",
  "fuzz-target-exited", "the fuzz target called exit(): a fuzz target must return, so return an error instead",
  "forked-vm-exit", "the JVM running the tests (Maven surefire's fork) exited before they finished: System.exit in the code under test or a test, a JVM crash, or out of memory, in the class it names",
  "timeout", "the input made the code hang or run too long: look for a loop that never advances at the first frame in your code",
  "cfi-bad-type", "a cast or call through an object of another dynamic type (control-flow integrity): check what the pointer really points to",
  "invalid-enum-load", "an enum holds a value none of its enumerators has: validate the integer before storing it as the enum",
  "invalid-bool-load", "a bool holds neither 0 nor 1 (uninitialised or type-punned memory)",
  "invalid-null-argument", "NULL passed for a parameter declared nonnull: check the pointer before the call",
  "invalid-null-return", "NULL returned from a function declared returns_nonnull: return a valid pointer or drop the attribute",
  "null-pointer-use", "a NULL pointer dereferenced: check the pointer on the first user frame",
  "out-of-bounds-index", "an array indexed past its bounds: check the index against the array's size",
  "integer-divide-by-zero", "integer division by zero: check the divisor first",
  "invalid-shift-exponent", "a shift by a negative amount or by at least the type's width: bound the shift count",
  "invalid-shift-base", "a left shift of a negative value or one that overflows: shift an unsigned value",
  "misaligned-pointer-use", "an access through a pointer not aligned for its type: copy with memcpy instead of casting",
  "pointer-overflow", "pointer arithmetic wrapped around or left the object: check the offset",
  "float-cast-overflow", "a floating value too large for the integer type it was converted to: range-check before converting",
  "unreachable-call", "execution reached __builtin_unreachable(): a case the code assumed impossible happened",
  "implicit-signed-integer-truncation-or-sign-change", "an implicit conversion to a narrower signed type lost the value: convert explicitly after a range check",
  "insufficient-object-size", "an access through a pointer to an object too small for the type: check the cast",
  "stack overflow", "the goroutine stack ran out: unbounded recursion (a cycle in the data, a missing base case)",
  "SIGSEGV", "an invalid memory access: rebuild with -fsanitize=address -g to see where",
  "SIGABRT", "the program aborted itself (failed assert, abort(), uncaught C++ exception, heap corruption found by libc)",
  "SIGFPE", "an arithmetic fault, usually an integer division by zero",
  "SIGBUS", "a bus error: a misaligned access or a truncated memory-mapped file",
  "SIGILL", "an illegal instruction: __builtin_trap, a UBSan trap, or corrupt code",
  "SIGKILL", "killed from outside: the memory limit (OOM killer) or a timeout",
  "SIGTERM", "terminated from outside, usually by a timeout or a supervisor",
  "index out of bounds", "a slice or Vec indexed past its length: check the index or use .get()",
  "called `Option::unwrap()` on a `None` value", "unwrap() on None: handle the None case (match, if let, ?)",
  "called `Result::unwrap()` on an `Err` value", "unwrap() on an Err: handle the error or propagate it with ?",
  "attempt to add with overflow", "integer overflow in debug build: use checked_/wrapping_/saturating_ arithmetic or a wider type",
  "attempt to subtract with overflow", "integer underflow in debug build: check the operands or use checked_sub",
  "attempt to multiply with overflow", "integer overflow in debug build: use checked_mul or a wider type",
  "attempt to divide by zero", "division by zero: check the divisor first",
  "explicit panic", "the program called panic!(): read its message",
  "memory allocation failed", "an allocation too large to satisfy (often a size read from input): bound the size before Vec::with_capacity / vec!",
  "runtime error: index out of range", "a slice or array indexed past its length: check the index",
  "runtime error: slice bounds out of range", "slice bounds outside the slice: check both bounds against len()",
  "runtime error: invalid memory address or nil pointer dereference", "a nil pointer dereferenced: check the pointer (or the error returned with it) first",
  "assignment to entry in nil map", "a write to a nil map: make() the map first",
  "all goroutines are asleep - deadlock!", "every goroutine is blocked: a channel operation or lock with no counterpart",
  "concurrent map writes", "two goroutines wrote one map at once (the runtime caught the race): guard it with a sync.Mutex or use sync.Map; go test -race shows both sides",
  "concurrent map read and map write", "one goroutine read a map while another wrote it (the runtime caught the race): guard it with a sync.RWMutex or use sync.Map; go test -race shows both sides",
  "concurrent map iteration and map write", "a map ranged over while another goroutine wrote it (the runtime caught the race): guard both with one mutex; go test -race shows both sides",
  "unexpected call to os.Exit(0) during test", "a test (or the code it calls) called os.Exit(0): go test fails it, the binary must not exit inside a test; return an error instead",
  "runtime error: integer divide by zero", "integer division by zero: check the divisor first",
  "ZeroDivisionError", "division by zero: check the divisor first",
  "KeyError", "a dict lookup of a key that is not there: use .get() or check membership",
  "IndexError", "a sequence indexed past its length: check the index",
  "AttributeError", "an attribute that the object does not have (often None where an object was expected)",
  "TypeError", "a value of the wrong type: check what was passed (often None or undefined)",
  "NameError", "a name used before it was defined: a typo or a missing import",
  "ValueError", "a value of the right type but wrong content: validate it first",
  "ModuleNotFoundError", "an import that cannot be found: install the package or fix the module path",
  "ImportError", "an import that failed: a missing name, a circular import or a missing package",
  "RecursionError", "unbounded recursion: check the base case",
  "AssertionError", "an assert failed: read the condition and the values",
  "FileNotFoundError", "a file that does not exist at that path: check the path relative to the work dir",
  "ReferenceError", "a name used that is not defined: a typo, a missing import or a use before declaration",
  "SyntaxError", "the code does not parse: look at the line shown",
  "RangeError", "a value out of the allowed range (often unbounded recursion: Maximum call stack size exceeded)",
  "JSONDecodeError", "text that is not valid JSON: print what was parsed; it is often empty, HTML or truncated",
  "TimeoutExpired", "a subprocess ran past its timeout: the child hangs or waits for input",
  "ExceptionGroup", "several exceptions raised together (TaskGroup, except*): read each sub-exception below it",
  "UnhandledPromiseRejection", "a promise rejected with nothing to catch it: await it inside try/catch or add .catch()",
  "NoMethodError", "a method called on an object that has none of that name (often nil): check the receiver's value",
  "Error", "an Error the program threw itself: read its message and the first frame in your code",
];

const GO_TIMEOUT = "go test's -timeout ran out while a test was running (a hang, a deadlock, a slow test): the frame shown is where that test was";
const GO_LATE = "a goroutine the test started used its t after the test had returned: make the test wait for it (a sync.WaitGroup, a channel) before returning";
const GO_TESTING = "the testing package refused a call the test made (t.Parallel twice, t.Setenv after t.Parallel, a fuzz target's misuse of f): read its message and fix the test at the first frame in your code";

/** What a kind the table does not name still means, by tool: the program failed on purpose. */
const BY_TOOL: string[] = [
  "rust-panic", "the program panicked on purpose (panic!, expect, assert): read its message at the first frame in your code",
  "go-panic", "the program called panic itself: read its message at the first frame in your code",
  "python", "an exception the program raised: read its message at the innermost frame in your code",
  "node", "an exception the program threw: read its message at the first frame in your code",
  "ruby", "an exception the program raised: read its message at the innermost frame in your code",
  "php", "an exception the program threw (or a fatal error): read its message at the first frame in your code",
  "tsan", "ThreadSanitizer found threads misusing memory or locks: read the report's first stack in your code",
  "assert", "an assertion in the program failed: read the condition and the values at the assertion's caller",
  "libfuzzer", "libFuzzer stopped on this input: reproduce it by running the fuzzer on the saved crash input",
];

const ESM_EXPORT = "an import names an export the module does not have: check the name (a typo?) and what the module exports (a default export is imported without braces)";
const ESM_CJS_EXPORT = "an ES module imports a name from a CommonJS module whose exports node cannot list: import its default export and take the name from it (`import pkg from '...'; const { name } = pkg;`)";

export function hintFor(tool: string, kind: string, message: string | null = null): string | null {
  // V8's link error for an ES module (`The requested module './x.mjs' does not provide an export named 'y'`): the
  // importing line parses, the module it names lacks the name.
  if (kind == "SyntaxError" && message !== null && message.includes(" does not provide an export named ")) return ESM_EXPORT;
  // Its form for a CommonJS module (`Named export 'compose' not found. The requested module './lib/compose.cjs' is a
  // CommonJS module, which may not support all module.exports as named exports.`): the importing line parses too.
  if (kind == "SyntaxError" && message !== null && message.startsWith("Named export '") && message.includes(" is a CommonJS module")) return ESM_CJS_EXPORT;
  // go test's -timeout alarm, whatever its duration (`test timed out after 10m0s`): not a panic of the program's.
  if (tool == "go-panic" && kind.startsWith("test timed out after ")) return GO_TIMEOUT;
  // The testing package's own panics on a test's misuse of it (`testing: t.Parallel called multiple times`,
  // `testing: t.Setenv called after t.Parallel; …`, `testing: F.Fuzz called more than once`): not the program's.
  if (tool == "go-panic" && kind.startsWith("testing: ")) return GO_TESTING;
  // Its panic when a goroutine logs or fails through a test's t once the test returned (`Fail in goroutine after
  // TestX has completed`, `Log in goroutine after TestX has completed: msg`): the test did not wait for it.
  if (tool == "go-panic" && (kind.startsWith("Fail in goroutine after ") || kind.startsWith("Log in goroutine after "))) return GO_LATE;
  let h = lookup(KINDS, kind);
  if (h !== null) return h;
  // Qualified exception names (json.decoder.JSONDecodeError) take the hint of their class.
  let dot = kind.lastIndexOf(".");
  if (dot >= 0 && kind.indexOf(" ") < 0) {
    h = lookup(KINDS, kind.substring(dot + 1));
    if (h !== null) return h;
  }
  return lookup(BY_TOOL, tool);
}

function lookup(table: string[], key: string): string | null {
  for (let i = 0; i < table.length; i += 2) if (table[i] == key) return table[i + 1];
  return null;
}
