// The crash state's ignore rules, as data: the frames a fleet that groups crashes by their top frames
// (ClusterFuzz's "crash state") skips because they sit on every stack of their kind and tell two bugs apart by
// nothing: sanitizer runtimes, allocators, libc, the C++ and Rust runtimes' unwinding and panic plumbing,
// logging/CHECK machinery, fuzzing drivers and test frameworks. Written from ClusterFuzz's documented
// behaviour (its stack analyzer tests' expectations), not from its code. A row matches a function as in
// infra-frames.ts: the whole name, or a prefix ending in "::", "_" or ".", or one followed by punctuation.
// Unlike first_user_frame, the state keeps a language's standard library (Go's net/http, Python's gzip): a bug
// that surfaces in it is still told apart by where.

/** Functions never in a crash state. */
export const STATE_IGNORE_FUNCS: string[] = [
  // abort and its signal, process exit, thread start
  "abort", "abort_", "raise", "gsignal", "tgkill", "__android_log_assert", "exit", "_exit", "__GI_raise", "__GI_abort", "__GI_", "__libc_", "_start",
  "__restore_rt", "__kernel_vsyscall", "__kernel_rt_sigreturn", "__pthread_kill_implementation",
  "__pthread_kill_internal", "pthread_kill", "start_thread", "clone", "__clone", "__clone3", "__pthread_",
  "__run_exit_handlers", "__sigsetjmp", "__sigtramp",
  // allocators
  "malloc", "calloc", "realloc", "free", "cfree", "posix_memalign", "memalign", "aligned_alloc", "valloc",
  "pvalloc", "reallocarray", "operator new", "operator new[]", "operator delete", "operator delete[]",
  // an operator with no class in front (a lambda's `operator()`, a free `operator==`) names no place
  "operator",
  // libc string and memory routines (and their per-CPU variants), which the faulting caller called
  "memcpy", "memmove", "memset", "memcmp", "bcmp", "memchr", "memrchr", "strlen", "strnlen", "strcpy", "strncpy",
  "strcat", "strncat", "strcmp", "strncmp", "strcasecmp", "strncasecmp", "strchr", "strrchr", "strstr", "strdup",
  "strndup", "wcslen", "wmemcpy", "wmemset", "__aeabi_", "aeabi_", "__memcpy_", "__memmove_", "__memset_", "__memcmp_", "__strlen_",
  "__strcmp_", "__strncmp_", "__strchr_", "__strcpy_", "__stpcpy_", "__wrap_",
  // assertion helpers
  "__assert_fail", "__assert_fail_base", "__assert_perror_fail", "__assert_rtn", "__assert2", "_assert",
  "__assert", "g_assertion_message", "g_assertion_message_expr", "g_assertion_message_cmpnum",
  "g_assertion_message_cmpstr", "g_assertion_message_cmpint", "g_assertion_message_error", "g_log", "g_logv",
  "g_log_default_handler", "g_log_structured",
  // the C++ runtime: terminate and unwinding
  "__cxa_", "__cxxabiv1::", "__gxx_personality_v0", "_Unwind_", "std::terminate", "std::__terminate",
  "std::__1::__throw_", "std::__throw_", "__gnu_cxx::__verbose_terminate_handler", "__clang_call_terminate",
  "abort_message", "demangling_terminate_handler", "_objc_terminate",
  // logging, CHECK and fatal-error machinery, debugger breaks
  "google::", "absl::log_internal::", "absl::internal_log_", "logging::", "base::debug::", "base::ImmediateCrash",
  "BreakDebugger", "DebugBreak", "__debugbreak", "V8_Fatal", "V8_Dcheck", "v8::base::OS::Abort",
  "v8::base::OS::DebugBreak", "v8::base::FatalOOM", "v8::internal::Isolate::PushStackTraceAndDie",
  "v8::internal::V8::FatalProcessOutOfMemory", "v8::Utils::ReportApiFailure", "WTFCrash",
  // WebKit/Blink's template library (its std::) and libFuzzer's exit() hook
  "WTF::", "ExitCallback",
  // fuzzing drivers (the target's own entry point is named by its file instead: see crash-state.ts)
  "fuzzer::", "LLVMFuzzerRunDriver", "libfuzzer_sys::", "rust_fuzzer_test_input", "__rustc::", "fuzztest::internal::",
  "centipede::", "HF_", "afl_",
  // test frameworks
  "testing::", "RUN_ALL_TESTS", "testing.tRunner", "testing.(*F)", "testing.fRunner", "testing.runTests",
  "testing.(*M)",
  // the Rust runtime's panic path
  "rust_begin_unwind", "rust_panic", "__rust_", "std::panicking::", "std::panic::", "std::rt::", "std::sys::",
  "std::sys_common::", "std::process::abort", "core::panicking::", "core::result::unwrap_failed",
  "core::option::expect_failed", "core::option::unwrap_failed", "core::ops::function::", "alloc::alloc::",
  "std::alloc::", "panic_abort::", "panic_unwind::",
  // the Go runtime (a recovered panic's re-panic included)
  "runtime.", "panic",
  // the kernel's report machinery (KASAN, dump_stack) and LKL's unsymbolized text-end marker
  "dump_backtrace", "show_stack", "dump_stack", "dump_stack_lvl", "__dump_stack", "print_address_description", "print_trailer",
  "object_err", "kasan_", "__kasan_", "check_memory_region", "_etext",
  // Fuchsia: the crash handler's trampoline, libc's and syslog's reporting, the kernel's panic
  "CrashTrampolineAsm", "libc_io_functions_not_implemented_use_fdio_instead", "syslog::LogMessage", "__zx_panic",
  // symbolizer placeholders
  "??", "(unknown)", "<unknown>",
];

/**
 * Words that put a function out of a crash state wherever they stand in its name: an assertion's or a logger's
 * helper (`gst_tag_assert_valid`, `custom_logger`) is where a failure is reported, not where it happened.
 */
export const STATE_IGNORE_CONTAINS: string[] = [
  "assert", "logger",
  // Windows' ASan runtime and process start-up
  "_asan_rtl_", "BaseThreadInitThunk", "RtlUserThreadStart", "__tmainCRTStartup",
  // Windows' heap-failure reporting and the loader's exception set-up, IE's deferred-free heap (a cdb stack's top)
  "RtlReportCriticalFailure", "RtlpHeapHandleError", "RtlpLogHeapFailure", "RtlFreeHeap",
  "RtlInitializeExceptionChain", "MemoryProtection::CMemoryProtector",
  // Chromium's logging wherever it stands in a name (`absl::Cleanup<..logging::LogMessage::Flush()::$_0>::~Cleanup`)
  "logging::LogMessage", "logging::CheckError", "logging::ErrnoLogMessage",
];

/** Modules whose frames are never in a crash state: the vDSO and the kernel's gate pages. */
export const STATE_IGNORE_MODULES: string[] = [
  "[vdso]", "linux-vdso.so", "linux-gate.so", "[vsyscall]", "<unknown module>",
];

/**
 * Files (or modules) whose frames are never in a crash state: the sanitizer runtimes' sources and the C++
 * standard library's headers and runtime (an `operator[]` inlined from <vector> is where the caller's bug
 * surfaced, not the bug).
 */
export const STATE_IGNORE_PATHS: string[] = [
  "/sanitizer_common/", "compiler-rt/lib/", "/lib/asan/", "/lib/hwasan/", "/lib/msan/", "/lib/tsan/",
  "/lib/ubsan/", "/lib/lsan/", "libsanitizer/",
  "/include/c++/", "libc++/", "libc++abi", "libcxx/", "libcxxabi/", "libstdc++", "/bits/",
  // glibc's own sources as a distribution's build tree names them (`/build/glibc-eX1tMB/glibc-2.31/...`)
  "/glibc-",
  // Centipede's runner (its coverage callbacks, its stack-limit check): the fuzzing driver, not the target
  "/centipede/runner",
];

/** A fuzz target's entry point: named in the state by its file, so that two targets' crashes stay apart. */
export const FUZZ_ENTRY_FUNCS: string[] = ["LLVMFuzzerTestOneInput", "TestOneProtoInput"];

/** Longest line of a crash state, as ClusterFuzz cuts them. */
export const STATE_LINE_MAX = 80;
/** Lines in a crash state. */
export const STATE_LINES = 3;
