// The crash state's ignore rules, as data: the frames a fleet that groups crashes by their top frames
// (ClusterFuzz's "crash state") skips because they sit on every stack of their kind and tell two bugs apart by
// nothing: abort and exit plumbing, allocators, libc string routines, sanitizer runtimes, logging and CHECK
// machinery, fuzzing drivers, test frameworks, the Rust and Go runtimes, toolchain and libc sources. The
// list follows the frames ClusterFuzz's stack analyzer drops (its stacktraces/constants.py, read to learn
// the rules; the table is ours), so that `state` is the key ClusterFuzz would file the crash under.
//
// A rule reads a frame's text as its line printed it after the pc: the function with its file and line
// (`foo(int) src/a.cc:3:5`) or module (`foo (libx.so+0x1d)`), or the module alone (`/lib/libc.so.6+0x271ca`);
// a Go, Python or Java frame is its function's name. Each row is one of:
//   "=text"    the whole text is this                          ("=abort": abort() named by itself)
//   "^prefix"  the text starts with this                        ("^main": main, main.go's main.run, mainloop)
//   "*part"    the text holds this anywhere (paths, words)      ("*/libc/": a frame in a libc source file)
//   "*a*b"     the text holds a, and b somewhere after it      ("*logging::*LogMessage")
// Case matters; a backslash in a Windows path is read as "/".

/** Frames never in a crash state. */
export const STATE_IGNORE: string[] = [
  // abort, exit, signals and thread start, named by themselves
  "=abort", "=exit", "=pthread_create", "=pthread_kill", "=raise", "=tgkill", "=__chk_fail", "=__fortify_fail",
  "^abort", "^Abort(", "^common_exit", "^exit_or_terminate_process", "^gsignal", "^__GI_", "^__libc_", "^_start",
  "^__pthread_kill", "^__run_exit_handlers", "^_L_unlock_", "^RaiseException", "^SignalAction", "^SignalHandler",
  "^fpehandler(", "^__scrt_common_main_seh", "*BaseThreadInitThunk", "*RtlUserThreadStart",
  "*RtlInitializeExceptionChain", "*__tmainCRTStartup", "*libpthread", "^libgcc_s.so",
  // allocators and memory/string routines the faulting caller called (every name that starts so: New*, new*)
  "^malloc", "^calloc", "^realloc", "^free", "^new", "^New", "^delete", "^operator", "^mozalloc_", "^scanf",
  "^memcmp", "^__memcmp", "^memcpy", "^__memcpy", "^memmove", "^__memmove", "^memset", "^__memset",
  "^strcmp", "^__strcmp", "^strcpy", "^__strcpy", "^strdup", "^__strdup", "^strlen", "^__strlen",
  "^strncpy", "^__strncpy", "^aeabi_", "^__aeabi_", "*PartitionAlloc", "*allocator_shim", "*base::allocator",
  "*RtlFreeHeap", "*RtlpHeapHandleError", "*RtlpLogHeapFailure", "*RtlReportCriticalFailure",
  "*MemoryProtection::CMemoryProtector", "*/jemalloc/", "*/tcmalloc/",
  // sanitizer runtimes and their interceptors
  "^__asan::", "^__asan_", "^_asan_", "^asan_", "^asan.module_ctor", "^asan.module_dtor", "^__hwasan::",
  "^__hwasan_", "^_hwasan_", "^__lsan::", "^__lsan_", "^_lsan_", "^__msan::", "^__msan_", "^_msan_",
  "^MSanAtExitWrapper", "^__tsan::", "^__tsan_", "^_tsan_", "^__ubsan::", "^__ubsan_", "^_ubsan_",
  "^__sanitizer::", "^__sanitizer_", "^_sanitizer_", "^__interceptor_", "^___interceptor_backtrace",
  "*ASAN_OnSIGSEGV", "*_asan_rtl_", "*agent::asan::", "*asan_Heap", "*asan_check_access",
  "*asan_osx_dynamic.dylib", "*/sanitizer_common/", "^<libclang_rt.asan.so>",
  "*_interceptors.cpp", "*_interceptors_posix.cpp", "*_interceptors.inc", // a runtime built as objects (`StrstrCheck(..) asan_interceptors.cpp.o`)
  // assertions, logging, CHECK and crash machinery, debugger breaks
  "^__assert_", "*assert", "*logger", "^g_log", "*__android_log_assert", "*logging::CheckError",
  "*DefaultDcheckHandler", "*ForceCrashOnSigAbort", "*StackDumpSignalHandler", "*base::debug::BreakDebugger",
  "*base::debug::CollectStackTrace", "*base::debug::StackTrace::StackTrace", "*DebugBreak",
  "*base::android::CheckException", "*SkDebugf", "^SkAbort_FileLine", "^SkMutex::~SkMutex", "^CFCrash",
  "^WTFCrash", "^WTF::", "^SbSystemBreakIntoDebugger", "^IsSandboxedProcess", "^X11Error", "^absl::log_internal::",
  "^syslog::LogMessage", "^__zx_panic", "*stdext::exception::what", "^generic_cpp_", "^V8_Fatal",
  "*v8::base::OS::Abort", "*Runtime_AbortCSADcheck", "^blink::ReportV8FatalError", "^v8::api_internal::ToLocalEmpty",
  "^v8::internal::Isolate::PushStackTraceAndDie", "^v8::internal::Isolate::PushParamsAndDie",
  "*logging::*LogMessage", "*logging::*NoreturnError", "^google::LogMessage", "*/libglog.so",
  // the C++ runtime's throw and terminate paths
  "^__cxa_atexit", "^__cxa_rethrow", "^__cxa_throw", "^std::__terminate", "^demangling_terminate_handler",
  "^_objc_terminate",
  // fuzzing drivers and test frameworks (LLVMFuzzerTestOneInput with a file is named by it: crash-state.ts)
  "^LLVMFuzzerTestOneInput", "^TestOneProtoInput", "^ExitCallback", "^fuzzer::", "^libfuzzer_sys::initialize",
  "^rust_fuzzer_test_input", "*centipede::", "*fuzztest::internal::", "*base::FuzzedDataProvider",
  "*/memorycmp.c", "*third_party/fuzztest/", "*/googletest/", "*/centipede/runner",
  // the program's entry point and everything named from it (Go's main package: main.run, main.main.func1)
  "^main",
  // the Rust runtime's panic and allocation paths
  "^alloc::", "^core::fmt::write", "^core::panic", "^panic_abort::", "^rust_begin_unwind", "^rust_oom",
  "^rust_panic", "^std::io::Write::write_fmt", "^std::panic", "^std::process::abort", "^std::sys::unix::abort",
  "^std::sys::backtrace", "^std::sys_common::backtrace", "^__rust_start_panic", "^__rust_try", "^_$LT$",
  "*ieee754-",
  // the Go runtime
  "=panic", "^runtime.",
  // the kernel's report machinery (KASAN, dump_stack) and an Android kernel's text-end marker
  "^__dump_stack", "^dump_backtrace", "^dump_stack", "^show_stack", "^print_address_description",
  "^print_trailer", "^object_err", "^kasan_", "^__kasan_", "^check_memory_region", "^_etext",
  // Android framework and Fuchsia start-up frames
  "^android.app.ActivityManagerProxy.", "^android.os.Parcel.", "^art::Thread::CreateNativeThread",
  "^CrashTrampolineAsm", "^libc_io_functions_not_implemented_use_fdio_instead", "^_swift_stdlib_",
  // toolchain, libc and runtime sources
  "* base/callback", "* /rust/", "* /rustc/", "*/AOSP-toolchain/", "*/bindings/ToV8.h", "*/crosstool/",
  "*/gcc/", "*/glibc-", "*/libc++", "*libc++/", "*/libc/", "*/llvm-build/", "*/minkernel/crts/", "*/vc/include/",
  "*/vctools/crt/", "*/win_toolchain/", "^c:/clusterfuzz/bot/build",
  // unknown frames, the vDSO and the kernel's gate page
  "^<null>", "=<unknown>", "*+Unknown", "*<unknown module>", "*Inline Function @", "=[vdso]", "^linux-gate.so",
];

/**
 * Frames ClusterFuzz drops from a symbolized report (the C and C++ runtime libraries' modules); it keeps them
 * only when a job says its reports are not symbolized, which a log does not say: sbx reads every report so.
 */
export const STATE_IGNORE_IF_SYMBOLIZED: string[] = [
  "*libc.so", "*libc++.so", "*libc++_shared.so", "*libstdc++.so", "*libc-*.so",
];

/** The fuzz target's entry point: a frame of it that has a file is named by that file instead. */
export const FUZZ_ENTRY = "LLVMFuzzerTestOneInput";

/** Longest line of a crash state, as ClusterFuzz cuts them. */
export const STATE_LINE_MAX = 80;
/** Lines in a crash state. */
export const STATE_LINES = 3;
