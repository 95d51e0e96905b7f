// The order in which the parsers are offered a line, as data: a parser earlier in CLAIM_ORDER wins a line.
// The dispatcher (ParserSet, Session) offers the parser whose block is open the line first, then every
// parser in this order; what none claims goes to the tail.
//
// Why this order:
// 1. sanitizer reports (ASan, LSan, TSan, MSan, HWASan), UBSan runtime errors, uncaught C++ exceptions,
//    failed assertions, V8's fatal-error blocks, the kernel's (KASAN, BUG, Oops) reports, other platforms' crash reports (the
//    Windows debugger's, gdb's, Android's tombstones), fuzzing tools' own findings (SystemSan, PySecSan, Centipede), Valgrind's Memcheck errors: a crash report's lines look like anything else's (`    #0 0x.. in main a.c:3`);
// 2. compiler, linker and build-tool diagnostics: make first (its `Makefile:5: warning:` would otherwise
//    read as a compiler's header), the linker (its unprefixed `main.c:8: undefined reference` lines),
//    Maven's prefixed lines (its compiler's `[ERROR] Foo.java:[12,5] msg`, surefire's tests), javac (its `Foo.java:12: error:` would read as gcc's), gcc/clang, rustc, tsc, go build/vet, ESLint's stylish report (before check-script's `✖ name` marks), Biome's report, Python's linters (flake8, ruff, pylint), istanbul's
//    coverage thresholds (c8, nyc);
// 3. test runners, where formats nest: ctest first (ctest --output-on-failure shows a gtest binary's
//    output as that ctest test's output), the JSON reports (jest --json, vitest and mocha json) beside the JUnit report printed
//    in the log, Gradle's test task's lines after JUnit 4's, go -json before go text, jest before the check-script lines
//    (`FAIL ./x.test.js`), Catch2's and doctest's blocks after gtest, Unity's `file:line:test:FAIL` and testhelp.h's `N - desc: FAILED` after gtest,
//    and the generic check-script shapes last;
// 4. tracebacks, panics, uncaught exceptions: each starts only on its runtime's own opening line, so the
//    order between them matters little; Node's header-less candidate (`TypeError: ...` followed by `at`
//    lines) goes last because Python's exception lines look the same;
// 5. shell and signal messages.

/** One parser of the set. */
export const enum ParserId {
  SANITIZER, UBSAN, CXX_TERMINATE, ASSERT, V8_FATAL, KERNEL,
  CDB, GDB, ANDROID, CHROME_GPU, TRUSTY, BUG_DETECTED, CENTIPEDE, V8_SANDBOX, VALGRIND,
  MAKE, LINKER, MAVEN, JAVAC, GCC, RUSTC, TSC, GO_BUILD, ESLINT, BIOME, PY_LINT, COVERAGE,
  JUNIT_LOG, JSON_REPORT, PHPUNIT, JUNIT4, GRADLE, CTEST, PYTEST, UNITTEST, CARGO_TEST, GO_TEST_JSON, GO_TEST, GTEST, CATCH2, UNITY, TESTHELP, JEST, VITEST, AVA, UVU, RSPEC, MINITEST, TEST_UNIT, NODE_TEST, TAP, CHECK_SCRIPT,
  PYTHON, RUST_PANIC, GO_PANIC, GO_RACE, JAVA, RUBY, PHP_ERROR, NODE_ERROR,
  SHELL,
}

/** The order in which parsers are offered a line. */
export const CLAIM_ORDER: StaticArray<i32> = [
  ParserId.SANITIZER, ParserId.UBSAN, ParserId.CXX_TERMINATE, ParserId.ASSERT, ParserId.V8_FATAL, ParserId.KERNEL,
  ParserId.CDB, ParserId.GDB, ParserId.ANDROID, ParserId.CHROME_GPU, ParserId.TRUSTY, ParserId.BUG_DETECTED, ParserId.CENTIPEDE,
  ParserId.V8_SANDBOX, ParserId.VALGRIND,
  ParserId.MAKE, ParserId.LINKER, ParserId.MAVEN, ParserId.JAVAC, ParserId.GCC, ParserId.RUSTC, ParserId.TSC, ParserId.GO_BUILD, ParserId.ESLINT, ParserId.BIOME, ParserId.PY_LINT, ParserId.COVERAGE,
  ParserId.JUNIT_LOG, ParserId.JSON_REPORT, ParserId.PHPUNIT, ParserId.TEST_UNIT, ParserId.JUNIT4, ParserId.GRADLE, ParserId.CTEST, ParserId.PYTEST, ParserId.UNITTEST, ParserId.CARGO_TEST, ParserId.GO_TEST_JSON,
  ParserId.GO_TEST, ParserId.GTEST, ParserId.CATCH2, ParserId.UNITY, ParserId.TESTHELP, ParserId.JEST, ParserId.VITEST, ParserId.AVA, ParserId.UVU, ParserId.RSPEC, ParserId.MINITEST, ParserId.NODE_TEST, ParserId.TAP, ParserId.CHECK_SCRIPT,
  ParserId.PYTHON, ParserId.RUST_PANIC, ParserId.GO_PANIC, ParserId.GO_RACE, ParserId.JAVA, ParserId.RUBY, ParserId.PHP_ERROR, ParserId.NODE_ERROR,
  ParserId.SHELL,
];

/**
 * The order in which parsers flush a pending block at end of input (what each flushes lands in the
 * verdict in this order). The C++ terminate parser has nothing to flush; make goes after the compilers.
 */
export const FINISH_ORDER: StaticArray<i32> = [
  ParserId.SANITIZER, ParserId.UBSAN, ParserId.ASSERT, ParserId.V8_FATAL, ParserId.KERNEL,
  ParserId.CDB, ParserId.GDB, ParserId.ANDROID, ParserId.CHROME_GPU, ParserId.TRUSTY, ParserId.BUG_DETECTED, ParserId.CENTIPEDE,
  ParserId.V8_SANDBOX, ParserId.VALGRIND,
  ParserId.LINKER, ParserId.MAVEN, ParserId.JAVAC, ParserId.GCC, ParserId.RUSTC, ParserId.TSC, ParserId.GO_BUILD, ParserId.ESLINT, ParserId.BIOME, ParserId.PY_LINT, ParserId.COVERAGE, ParserId.MAKE,
  ParserId.JUNIT_LOG, ParserId.JSON_REPORT, ParserId.PHPUNIT, ParserId.JUNIT4, ParserId.GRADLE, ParserId.CTEST, ParserId.PYTEST, ParserId.UNITTEST, ParserId.CARGO_TEST, ParserId.GO_TEST_JSON,
  ParserId.GO_TEST, ParserId.GTEST, ParserId.CATCH2, ParserId.UNITY, ParserId.TESTHELP, ParserId.JEST, ParserId.VITEST, ParserId.AVA, ParserId.UVU, ParserId.RSPEC, ParserId.MINITEST, ParserId.TEST_UNIT, ParserId.NODE_TEST, ParserId.TAP, ParserId.CHECK_SCRIPT,
  ParserId.PYTHON, ParserId.RUST_PANIC, ParserId.GO_PANIC, ParserId.GO_RACE, ParserId.JAVA, ParserId.RUBY, ParserId.PHP_ERROR, ParserId.NODE_ERROR,
  ParserId.SHELL,
];
