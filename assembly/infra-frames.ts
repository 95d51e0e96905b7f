// Infrastructure frames: code that sits on a crash's stack between the fault and the user's code without
// being either (abort and its signal plumbing, assertion and CHECK helpers, logging and debugger hooks,
// fuzzing drivers, test-framework internals, the kernel's vDSO). A fleet that groups crashes by their first
// frames (ClusterFuzz's "crash state") skips these; so does first_user_frame. The rules are data: one row per
// name or name prefix, grouped by where the frame comes from; classify() in frames.ts reads them.
//
// A function row matches the whole name, or a prefix of it that ends in "::", "_" or ".", or is followed by
// a character that cannot continue an identifier ("abort" matches "abort" and "abort()" but not "abortion").

/** Function names (or prefixes) of infrastructure frames. */
export const INFRA_FUNCS: string[] = [
  // abort() and the signal it raises
  "gsignal", "raise", "abort", "exit", "_exit", "__run_exit_handlers", "__pthread_kill_implementation", "__pthread_kill_internal", "pthread_kill",
  "__restore_rt", "__kernel_vsyscall", "__kernel_rt_sigreturn",
  // C assertions: glibc, musl, Apple, MSVC CRT; glib's g_assert family and g_error
  "__assert_fail", "__assert_fail_base", "__assert_perror_fail", "__assert_rtn", "__assert2", "_assert", "__assert",
  "g_assertion_message", "g_assertion_message_expr", "g_assertion_message_cmpnum", "g_assertion_message_cmpstr",
  "g_assertion_message_cmpint", "g_assertion_message_error", "g_assertion_message_cmpstrv", "g_log", "g_logv",
  "g_log_default_handler", "g_log_structured", "g_error",
  // CHECK/LOG(FATAL) machinery and debugger breaks: glog, absl, Chromium's base/logging
  "google::LogMessage", "google::LogMessageFatal", "google::", "absl::log_internal::", "absl::internal_log_",
  "logging::LogMessage", "logging::CheckError", "logging::", "base::debug::BreakDebugger", "base::debug::",
  "base::ImmediateCrash", "BreakDebugger", "DebugBreak", "__debugbreak",
  // libFuzzer and the Rust/Go fuzz drivers around a target
  "fuzzer::", "LLVMFuzzerRunDriver", "libfuzzer_sys::", "rust_fuzzer_test_input", "__rustc::",
  "testing.(*F)", "testing.fRunner",
  // googletest internals (the TEST body itself is user code)
  "testing::internal::", "testing::Test::Run", "testing::TestInfo::Run", "testing::TestSuite::Run",
  "testing::TestCase::Run", "testing::UnitTest::Run", "RUN_ALL_TESTS",
  // Boost.Test's runner and Boost.Function's invokers around a test case (a static libboost_unit_test_framework
  // has no debug info: its frames have no file)
  "boost::unit_test::", "boost::execution_monitor::", "boost::detail::function::",
  // Unity's runner around a test function (the test function itself is user code)
  "UnityDefaultTestRun", "UnityTestRunner",
  // a recovered Go panic's re-panic
  "panic",
  // symbolizer placeholders: no name the user can open
  "??", "(unknown)", "<unknown>",
];

/** Module names (or prefixes) of frames that are never the user's: the vDSO and the kernel's gate pages. */
export const INFRA_MODULES: string[] = [
  "[vdso]", "linux-vdso.so", "linux-gate.so", "[vsyscall]", "<unknown module>",
];
