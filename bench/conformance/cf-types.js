// Our crash vocabulary (tool, kind, access, size, address) → ClusterFuzz's crash_type, as a table. ClusterFuzz
// names a crash by one word family ("Heap-buffer-overflow", "Null-dereference READ", "CHECK failure") and, for
// a memory access with a known size, a second line "READ 8". The engine keeps each tool's own words
// (docs/run-result.md); this table is the translation, kept here as data so that a reader can check every row.
// Rows are tried in order; `kind` is the whole kind, `prefix` a start of it. `access`: how the access goes in
// the type: "line" = "Type READ" on the same line (ClusterFuzz's wild-access families), "size" = a second line
// "READ <size>" when the size is known, null = none. `nullable`: the family is "Null-dereference" when the
// address is below ClusterFuzz's null boundary (4096) and "UNKNOWN" otherwise.
// The security flag follows ClusterFuzz's own policy (cfSecurity); OOMs and timeouts are reported only when the
// job says REPORT_OOMS_AND_HANGS (elsewhere the type is "" : no crash). These are job settings and policy, not
// parsing: the bench applies them from each test's `env`.

export const NULL_BOUNDARY = 4096;

/** [tool or '*', kind (exact) or prefix ending in '*', type, access mode, nullable] */
export const TYPE_ROWS = [
  // the Windows debugger (cdb): an access violation is named by its access alone; else the exception's name
  ['cdb', 'access-violation', '', 'only'],
  ['cdb', 'stack-overflow', 'Stack-overflow', null],
  ['cdb', 'integer-divide-by-zero', 'Divide-by-zero', null],
  ['cdb', 'integer-overflow', 'Integer-overflow', null],
  ['cdb', '*', '', 'capitalized'],
  // AddressSanitizer / HWASan / MSan
  ['*', 'heap-buffer-overflow', 'Heap-buffer-overflow', 'size'],
  ['*', 'stack-buffer-overflow', 'Stack-buffer-overflow', 'size'],
  ['*', 'stack-buffer-underflow', 'Stack-buffer-underflow', 'size'],
  ['*', 'dynamic-stack-buffer-overflow', 'Dynamic-stack-buffer-overflow', 'size'],
  ['*', 'global-buffer-overflow', 'Global-buffer-overflow', 'size'],
  ['*', 'heap-use-after-free', 'Heap-use-after-free', 'size'],
  ['*', 'use-after-free', 'Heap-use-after-free', 'size'],
  ['*', 'stack-use-after-return', 'Stack-use-after-return', 'size'],
  ['*', 'stack-use-after-scope', 'Stack-use-after-scope', 'size'],
  ['*', 'container-overflow', 'Container-overflow', 'size'],
  ['*', 'use-after-poison', 'Use-after-poison', 'size'],
  ['*', 'intra-object-overflow', 'Intra-object-overflow', 'size'],
  ['*', 'tag-mismatch', 'Tag-mismatch', 'size'],
  ['*', 'unknown-crash', 'UNKNOWN', null, true],
  ['*', 'double-free', 'Heap-double-free', null],
  ['*', 'bad-free', 'Invalid-free', null],
  ['*', 'alloc-dealloc-mismatch', 'Alloc-dealloc-mismatch', null],
  ['*', 'new-delete-type-mismatch', 'New-delete-type-mismatch', null],
  ['*', 'memcpy-param-overlap', 'Memcpy-param-overlap', null],
  ['*', 'negative-size-param', 'Negative-size-param', null],
  ['*', 'calloc-overflow', 'Calloc-overflow', null],
  ['*', 'allocation-size-too-big', 'Out-of-memory', null],
  ['*', 'out-of-memory', 'Out-of-memory', null],
  ['*', 'alocation-tail-overwritten', 'Allocation-tail-overwritten', null],
  ['*', 'allocation-tail-overwritten', 'Allocation-tail-overwritten', null],
  ['*', 'stack-overflow', 'Stack-overflow', null],
  ['*', 'use-of-uninitialized-value', 'Use-of-uninitialized-value', null],
  ['*', 'SEGV', 'UNKNOWN', 'line', true],
  ['*', 'access-violation', 'UNKNOWN', 'line', true],
  ['*', 'int-divide-by-zero', 'Divide-by-zero', null],
  ['*', 'FPE', 'Floating-point-exception', null],
  ['*', 'ILL', 'Ill', null],
  ['*', 'illegal-instruction', 'Ill', null],
  ['*', 'BUS', 'Bus', null],
  ['*', 'ABRT', 'Abrt', null],
  ['*', 'TRAP', 'SIGTRAP', null],
  ['*', 'breakpoint', 'Breakpoint', null],
  // UndefinedBehaviorSanitizer (and CFI through it)
  ['ubsan', 'signed-integer-overflow', 'Integer-overflow', null],
  ['ubsan', 'unsigned-integer-overflow', 'Unsigned-integer-overflow', null],
  ['ubsan', 'integer-divide-by-zero', 'Divide-by-zero', null],
  ['ubsan', 'float-divide-by-zero', 'Divide-by-zero', null],
  ['ubsan', 'null-pointer-use', 'Null-dereference', 'line'],
  ['ubsan', 'upcast-of-null-pointer', 'Upcast-of-null-pointer', null],
  ['ubsan', 'dynamic-type-mismatch', 'Bad-cast', null],
  ['ubsan', 'cfi-bad-type', 'Bad-cast', null],
  ['cfi', 'cfi-bad-type', 'Bad-cast', null],
  ['ubsan', 'out-of-bounds-index', 'Index-out-of-bounds', null],
  ['ubsan', 'misaligned-pointer-use', 'Misaligned-address', null],
  ['ubsan', 'pointer-overflow', 'Pointer-overflow', null],
  ['ubsan', 'nullptr-with-offset', 'Pointer-overflow', null],
  ['ubsan', 'nullptr-with-nonzero-offset', 'Pointer-overflow', null],
  ['ubsan', 'nullptr-after-nonzero-offset', 'Pointer-overflow', null],
  ['ubsan', 'invalid-bool-load', 'Invalid-bool-value', null],
  ['ubsan', 'invalid-enum-load', 'Invalid-enum-value', null],
  ['ubsan', 'function-type-mismatch', 'Incorrect-function-pointer-type', null],
  ['ubsan', 'non-positive-vla-index', 'Non-positive-vla-bound-value', null],
  ['ubsan', 'insufficient-object-size', 'Object-size', null],
  ['ubsan', 'implicit-*', 'Implicit-conversion', null],
  ['ubsan', 'invalid-shift-*', 'Shift-out-of-bounds', null],
  ['ubsan', 'float-cast-overflow', 'Float-cast-overflow', null],
  ['ubsan', 'unreachable-call', 'Unreachable code', null],
  ['ubsan', 'missing-return', 'Missing-return', null],
  ['ubsan', 'assumption-violation', 'Assumption-violation', null],
  ['ubsan', 'alignment-assumption', 'Alignment-assumption', null],
  ['ubsan', 'invalid-null-argument', 'Invalid-null-argument', null],
  ['ubsan', 'invalid-null-return', 'Invalid-null-return', null],
  ['ubsan', 'invalid-builtin-use', 'Invalid-builtin-use', null],
  ['ubsan', 'undefined-behavior', 'UNKNOWN', null],
  // ThreadSanitizer, LeakSanitizer
  ['tsan', 'data race', 'Data race', 'size'],
  ['tsan', 'heap-use-after-free', 'Heap-use-after-free', 'size'],
  ['tsan', '*', 'UNKNOWN', null],
  ['lsan', 'detected memory leaks', 'Direct-leak', null],
  ['lsan', 'indirect-leak', 'Indirect-leak', null],
  // assertions and CHECKs
  ['assert', 'assertion-failed', 'ASSERT', null],
  ['assert', 'check-failed', 'CHECK failure', null],
  ['assert', 'dcheck-failed', 'DCHECK failure', null],
  ['assert', 'security-check-failed', 'Security CHECK failure', null],
  ['assert', 'security-dcheck-failed', 'Security DCHECK failure', null],
  ['assert', 'fatal-error', 'Fatal error', null],
  ['assert', 'unreachable', 'Unreachable code', null],
  ['assert', 'runtime-assert', 'RUNTIME_ASSERT', null],
  ['assert', 'out-of-memory', 'Out-of-memory', null],
  ['assert', 'correctness-failure', 'V8 correctness failure', null],
  ['assert', 'v8-api-error', 'V8 API error', null],
  // libFuzzer's own reports
  ['libfuzzer', 'deadly-signal', 'Fatal-signal', null],
  ['libfuzzer', 'fuzz-target-exited', 'Unexpected-exit', null],
  ['libfuzzer', 'timeout', 'Timeout', null],
  ['libfuzzer', 'out-of-memory', 'Out-of-memory', null],
  ['libfuzzer', 'overwrites-const-input', 'Overwrites-const-input', null],
  // the extra sanitizers: SystemSan's bug classes, PySecSan
  ['systemsan', 'command-injection', 'Command injection', null],
  ['systemsan', 'arbitrary-file-open', 'Arbitrary file open', null],
  ['systemsan', 'arbitrary-dns-resolution', 'Arbitrary DNS resolution', null],
  ['pysecsan', '*', 'PySecSan', null],
  // Android's native crash: the abort message makes it a CHECK; a fault is known by its address
  ['android', 'abort-message', 'CHECK failure', null],
  ['android', 'out-of-memory', 'Out-of-memory', null],
  ['android', 'SIGABRT', 'Abort', null],
  ['android', 'SIGTRAP', 'Trap', null],
  ['android', 'SIG*', 'UNKNOWN', null, true],
  // Chromium's browser log: its GPU process died
  ['chrome', 'gpu-process-exited', 'GPU failure', null],
  ['trusty', 'app-crash', 'Trusted app crash', null],
  // V8's own findings about a crash
  ['v8', 'sandbox-violation', 'V8 sandbox violation', null],
  // gdb: the signal's own name
  ['gdb', '*', '', 'kind'],
  // Centipede's own findings
  ['centipede', 'timeout', 'Timeout', null],
  ['centipede', 'out-of-memory', 'Out-of-memory', null],
  ['centipede', 'stack-overflow', 'Stack-overflow', null],
  // a signal known only by its name
  ['signal', 'SIGABRT', 'Abrt', null],
  ['signal', 'SIGSEGV', 'UNKNOWN', null, true],
  ['signal', 'SIGILL', 'Ill', null],
  ['signal', 'SIGFPE', 'Floating-point-exception', null],
  ['signal', 'SIGBUS', 'Bus', null],
  ['signal', 'SIGTRAP', 'SIGTRAP', null],
  ['signal', 'SIG*', 'Fatal-signal', null],
  // Go: a runtime error names its family; any other panic is an assertion, a fatal error a fatal error
  ['go-panic', 'runtime error: index out of range*', 'Index out of range', null],
  ['go-panic', 'runtime error: slice bounds out of range*', 'Slice bounds out of range', null],
  ['go-panic', 'runtime error: invalid memory address*', 'Invalid memory address', null],
  ['go-panic', 'runtime error: integer divide by zero*', 'Integer divide by zero', null],
  ['go-panic', 'runtime error: makeslice: len out of range*', 'Makeslice: len out of range', null],
  ['go-panic', 'runtime error: makeslice: cap out of range*', 'Makeslice: cap out of range', null],
  ['go-panic', 'stack overflow', 'Stack overflow', null],
  ['go-panic', 'fatal error: *', 'Fatal error', null],
  ['go-panic', 'all goroutines are asleep*', 'Fatal error', null],
  ['go-panic', 'concurrent map*', 'Fatal error', null],
  ['go-panic', '*', 'ASSERT', null],
  // Rust: a panic is an assertion; an allocation failure is an OOM
  ['rust-panic', 'memory allocation of *', 'Out-of-memory', null],
  ['rust-panic', 'memory allocation failed', 'Out-of-memory', null],
  ['rust-panic', '*', 'ASSERT', null],
  // uncaught exceptions of interpreted languages
  ['python', '*', 'Uncaught exception', null],
  ['node', '*', 'Uncaught exception', null],
  // Java (the JVM, Jazzer): a finding Jazzer raises on purpose is a security exception
  ['java', 'com.code_intelligence.jazzer.api.FuzzerSecurityIssue*', 'Security exception', null],
  ['java', '*', 'Uncaught exception', null],
];

/**
 * ClusterFuzz's security policy as data: the families that are never security bugs, those that always are,
 * and the generic ones (an unknown access) that are unless the address is near null. Assertions count unless
 * the job says ASSERTS_HAVE_SECURITY_IMPLICATION=False, CHECKs only when it says
 * CHECKS_HAVE_SECURITY_IMPLICATION=True. A few signatures of the report itself also decide (a jump to address
 * 0, an abort or other non-memory signal): those are read off the log, as ClusterFuzz reads them.
 */
const NEVER_SECURITY = new Set([
  'Security CHECK failure', 'Fatal error', 'Unreachable code', 'Stack-overflow', 'Fatal-signal', 'Missing-library',
  'Overwrites-const-input', 'Data race', 'Lock-order-inversion', 'ASSERT_NOT_REACHED', 'Floating-point-exception',
  'RUNTIME_ASSERT', 'V8 correctness failure', 'Timeout', 'Out-of-memory', 'Unexpected-exit', 'Ill', 'Illegal-instruction',
  'V8 API error',
  // UBSan's and Go's non-memory families
  'Divide-by-zero', 'Float-cast-overflow', 'Integer-overflow', 'Invalid-bool-value', 'Invalid-builtin-use',
  'Invalid-enum-value', 'Invalid-null-argument', 'Invalid-null-return', 'Misaligned-address', 'No-return-value',
  'Pointer-overflow', 'Potential-null-reference', 'Undefined-shift', 'Unsigned-integer-overflow',
  'Implicit-conversion', 'Assumption-violation', 'Upcast-of-null-pointer',
  'Index out of range', 'Integer divide by zero', 'Makeslice: len out of range', 'Slice bounds out of range',
  'Stack overflow',
]);
const ALWAYS_SECURITY = new Set([
  'Security DCHECK failure', 'DCHECK failure', 'Bad-cast', 'Index-out-of-bounds', 'Incorrect-function-pointer-type',
  'Non-positive-vla-bound-value', 'Object-size',
  // the extra sanitizers' findings
  'Command injection', 'Arbitrary file open', 'Arbitrary DNS resolution', 'PySecSan',
]);
/** Types whose security depends on the address: near null is a plain crash. */
const GENERIC_TYPES = new Set(['Null-dereference', 'Null-dereference READ', 'Null-dereference WRITE', 'READ', 'UNKNOWN',
  'UNKNOWN READ', 'UNKNOWN WRITE', 'WRITE', 'Uncaught exception']);
/** Addresses assertions crash on deliberately (WebKit/Blink's 0xbbadbeef). */
const ASSERT_ADDRESSES = new Set([0xbbadbeef, 0xfbadbeef, 0x1f75b7dd, 0x977537dd, 0x9f7537dd]);
/** Types reported only when the job asks for OOMs and hangs. */
const OOM_HANG_TYPES = new Set(['Out-of-memory', 'Timeout']);
const NOT_SECURITY_SIGNALS = ['Sanitizer: ABRT', 'Sanitizer: BUS', 'Sanitizer: FPE', 'Sanitizer: ILL', 'Sanitizer: breakpoint'];

function matches(pattern, s) {
  if (pattern === '*') return true;
  if (pattern.endsWith('*')) return s.startsWith(pattern.slice(0, -1));
  return s === pattern;
}

/** ClusterFuzz's crash_type for a verdict's crash (null crash → ""), under a job's env. */
export function cfType(crash, env = {}) {
  if (!crash) return '';
  // ClusterFuzz names an HWASan report by its ERROR line ("tag-mismatch on address .."), not by the "Cause:" line
  // that names the kind of bug behind the mismatch (the verdict's kind)
  if (crash.tool === 'hwasan' && (crash.message ?? '').startsWith('tag-mismatch ')) crash = { ...crash, kind: 'tag-mismatch' };
  const row = TYPE_ROWS.find(([tool, kind]) => (tool === '*' || tool === crash.tool) && matches(kind, crash.kind));
  if (crash.tool === 'kernel') return kernelType(crash);
  // Go's runtime names a fatal error on its report's first line (the summary), whatever its message
  if (crash.tool === 'go-panic' && (crash.summary ?? '').startsWith('fatal error: ') && crash.kind !== 'stack overflow') return 'Fatal error';
  if (!row) return `?${crash.tool}/${crash.kind}`;
  // Android's runtime names an uncaught exception that killed an app "FATAL EXCEPTION"
  if (crash.tool === 'java' && (crash.summary ?? '').startsWith('FATAL EXCEPTION')) return 'Fatal Exception';
  let [, , type, access, nullable] = row;
  if (crash.tool === 'lsan' && /^indirect/i.test(crash.summary ?? '') ) type = 'Indirect-leak';
  if (nullable && crash.address != null) {
    const a = Number.parseInt(String(crash.address).replace(/^0x/i, ''), 16);
    if (Number.isFinite(a) && a < NULL_BOUNDARY) type = 'Null-dereference';
  }
  if (OOM_HANG_TYPES.has(type) && !reportsOomsAndHangs(env)) return '';
  // V8's runtime argument checks are reported only when the job asks (or on an analyze task)
  if (type === 'RUNTIME_ASSERT' && !(truthy(env.DETECT_V8_RUNTIME_ERRORS) || env.TASK_NAME === 'analyze')) return '';
  // A SEGV reported without an address ("SEGV on unknown address (pc 0x..)") escapes ClusterFuzz's SEGV rule;
  // its generic ASan rule then names it by the report's words, capitalized.
  if (crash.kind === 'SEGV' && crash.address == null && (crash.tool === 'asan' || crash.tool === 'hwasan')) return 'Segv on unknown address';
  if (access === 'only') return crash.access ?? 'UNKNOWN';
  if (access === 'kind') return crash.kind;
  if (access === 'capitalized') type = crash.kind.charAt(0).toUpperCase() + crash.kind.slice(1);
  if (access === 'line' && crash.access) type += ` ${crash.access}`;
  if (access === 'size' && crash.access) type += `\n${crash.access} ${crash.size != null ? crash.size : '{*}'}`;
  return type;
}

/** ARM's fault status codes (the FSR's low four bits), as ClusterFuzz words an Android kernel Oops. */
const ARM_FSR = { 1: 'Alignment Fault', 4: 'Instruction Cache Maintenance Fault', 12: 'L1 Translation', 14: 'L2 Translation',
  5: 'Translation Fault, Section', 7: 'Translation Fault, Page', 3: 'Access Flag Fault, Section', 6: 'Access Flag Fault, Page',
  9: 'Domain Fault, Section', 11: 'Domain Fault, Page', 13: 'Permission Fault, Section', 15: 'Permissions Fault, Page' };

/** "Kernel failure" and the report's own words: KASAN's bug type and access, a BUG's place, a panic's text, an Oops' FSR. */
function kernelType(c) {
  const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1).toLowerCase();
  const msg = c.message ?? '';
  let t;
  if (c.kind === 'bug') t = cap(msg.replace(/ /g, '-'));
  else if (c.kind === 'panic') t = msg.replace(/ /g, '-');
  else if (c.kind === 'oops') {
    const code = Number.parseInt(msg, 16);
    if (!Number.isFinite(code)) return 'Kernel failure\nBUG';
    return `Kernel failure\n${code & 0x800 ? 'WRITE' : 'READ'} ${ARM_FSR[code & 0xf] ?? 'Unknown'} (${code})`;
  } else t = cap(c.kind.replace(/ /g, '-'));
  let type = `Kernel failure\n${t}`;
  if (c.access) type += `\n${c.access} ${c.size != null ? c.size : '{*}'}`;
  return type;
}

/**
 * The job reports OOMs and hangs: it says so, and its redzone is not one so large (over 64 bytes) that an OOM is
 * the redzone's doing ("FORCE" overrides that).
 */
function reportsOomsAndHangs(env) {
  if (env.REPORT_OOMS_AND_HANGS === 'FORCE') return true;
  const redzone = Number(env.REDZONE ?? 0);
  return truthy(env.REPORT_OOMS_AND_HANGS) && !(redzone > MAX_REDZONE_FOR_OOMS);
}
const MAX_REDZONE_FOR_OOMS = 64;

function truthy(v) { return v === true || v === 'True' || v === 'true' || v === 'FORCE' || v === '1'; }
function falsy(v) { return v === false || v === 'False' || v === 'false' || v === '0'; }

/** ClusterFuzz's security flag for a type (and the crash's address, the report's text) under a job's env. */
export function cfSecurity(type, env = {}, address = null, log = '') {
  const text = typeof log === 'string' ? log : log.toString('latin1');
  // A use after free that Chromium's MiraclePtr protects is not exploitable.
  const miracle = /^.*MiraclePtr Status:.+$/m.exec(text);
  if (miracle && miracle[0].split(':').pop().trim() === 'PROTECTED') return false;
  if (/FuzzerSecurityIssue(Critical|High|Medium|Low)/.test(text)) return true;
  if (text.includes('pc (nil) ') || text.includes('pc 0x00000000 ') || text.includes('pc 0x000000000000 ')) return true;
  if (/JNI DETECTED ERROR[^\n]+(deleted|invalid|unexpected|unknown|wrong)/.test(text)) return true;
  if (type === 'CHECK failure') return truthy(env.CHECKS_HAVE_SECURITY_IMPLICATION);
  const first = type.split('\n')[0];
  if (ALWAYS_SECURITY.has(first)) return true;
  if (NEVER_SECURITY.has(first) || first.endsWith('Exception') || first.endsWith('CHECK failure') || first.includes('-leak')) return false;
  if (first === 'ASSERT' || text.includes('ASSERTION FAILED')) return !falsy(env.ASSERTS_HAVE_SECURITY_IMPLICATION);
  if (first.startsWith('Kernel failure')) return true;
  if (!type) return false;
  if (/^[ \t]+#0[ \t]+0x[0-9a-f]+[ \t]+in gsignal /m.test(text) || NOT_SECURITY_SIGNALS.some((s) => text.includes(s))) return false;
  if (!GENERIC_TYPES.has(type)) return true;
  const a = address == null ? 0 : Number.parseInt(String(address).replace(/^0x/i, ''), 16) || 0;
  if (ASSERT_ADDRESSES.has(a)) return false;
  return a >= NULL_BOUNDARY;
}

/** Type equality as ClusterFuzz's tests assert it: "{*}" stands for any size. */
export function sameType(want, got) {
  if (want === got) return true;
  if (!want.includes('{*}')) return false;
  const [a, b] = want.split('{*}');
  return got.startsWith(a) && got.endsWith(b) && got.length >= a.length + b.length;
}
