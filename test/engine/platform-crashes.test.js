// Crash reports of tools this machine cannot run (the Windows debugger, gdb on a device, ClusterFuzz's extra
// sanitizers, Centipede, ...): the engine reads them by their printed shape, as ClusterFuzz's stack analyzer
// does (issue 30). Each log here is written in the tool's documented format with names of our own, so a rule
// that fits only the conformance corpus's file fails here.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createEngine } from '../../dist/engine.js';

const engine = await createEngine();
const crashOf = (lines, exit = 1) => engine.verdict(Buffer.from(lines.join('\n') + '\n'), { exit }).verdict.crash;

test('cdb: a second-chance access violation, its access and address, and the last `k` stack', () => {
  const c = crashOf([
    '(1b2c.9f0): Access violation - code c0000005 (!!! second chance !!!)',
    'FAULTING_IP:',
    'app!Parse+12',
    '   ExceptionCode: c0000005 (Access violation)',
    'Attempt to write to address 00000000`0badf00d',
    'DEFAULT_BUCKET_ID:  INVALID_POINTER_WRITE',
    'STACK_TEXT:',
    '0012f7e4 00fd1423 00fd1078 00fd1078 7f956000 app!Stale+0x1e',
    'ChildEBP RetAddr',
    '0012f7e4 00fd1423 app!Parser::Field+0x1e',
    '0012f7f0 00fd1433 app+0x1433',
    '0012f8b8 00fd1969 app!Parser::Record+0x23',
    '0012f924 770bad1f KERNEL32!BaseThreadInitThunk+0x24',
    'quit:',
  ]);
  assert.is(c.tool, 'cdb');
  assert.is(c.kind, 'access-violation');
  assert.is(c.access, 'WRITE');
  assert.is(c.address, '0x000000000badf00d');
  assert.equal(c.frames.map((f) => f.function), ['Parser::Field', 'Parser::Record', 'BaseThreadInitThunk']);
  assert.equal(c.state, ['Parser::Field', 'Parser::Record']);
});

test('cdb: an exception without a name is named by the analysis bucket; a first-chance one is no crash', () => {
  assert.is(crashOf(['(12.34): Single step exception - code 80000004 (first chance)']), null);
  const c = crashOf([
    '(12.34): Unknown exception - code c0000409 (!!! second chance !!!)',
    '   ExceptionCode: c0000409',
    'DEFAULT_BUCKET_ID:  STACK_BUFFER_OVERRUN_AVRF',
    'Child-SP          RetAddr           Call Site',
    '00000000`04deadb8 000007fe`f018f1d9 lib!Copy+0x3c4da',
  ]);
  assert.is(c.kind, 'stack-buffer-overrun');
  assert.equal(c.state, ['Copy']);
});

test('SystemSan: the finding is the crash; the abort report after it lends its stack', () => {
  const c = crashOf([
    '===BUG DETECTED: Shell injection===',
    '==4242== ERROR: libFuzzer: deadly signal',
    '    #0 0x4b3520 in __sanitizer_print_stack_trace (/out/fuzz_cmd+0x4b3520)',
    '    #1 0x45e158 in fuzzer::PrintStackTrace() (/out/fuzz_cmd+0x45e158)',
    '    #2 0x7f57fb74cf60 in waitpid (/lib/x86_64-linux-gnu/libc.so.6+0x39f60)',
    '    #3 0x7f57fb738534 in do_system /build/glibc-2.36/stdlib/../sysdeps/posix/system.c:172:11',
    '    #4 0x4b84d5 in run_hook /src/tool/hooks.c:33:5',
    '    #5 0x4b88ea in LLVMFuzzerTestOneInput /src/tool/fuzz_cmd.c:12:3',
    'SUMMARY: libFuzzer: deadly signal',
  ]);
  assert.is(c.tool, 'systemsan');
  assert.is(c.kind, 'command-injection');
  // waitpid (libc.so.6+0x..) and do_system (a glibc source) are out: a report is read as symbolized, as ClusterFuzz's bots do
  assert.equal(c.state, ['run_hook', 'fuzz_cmd.c']);
});

test('PySecSan: its finding and its Python stack, innermost first, without its own abort helper', () => {
  const c = crashOf([
    '===BUG DETECTED: PySecSan: Code injection ===',
    '[PYSECSAN] code injection by way of eval',
    'Fuzzer-controlled data reaches eval.',
    '[PYSECSAN] Stacktrace:',
    '  File "fuzz_calc.py", line 20, in <module>',
    '  File "fuzz_calc.py", line 11, in TestOneInput',
    '  File "calc/evaluate.py", line 7, in evaluate',
    '  File "pysecsan/code_injection.py", line 40, in hook_pre_eval',
    '  File "pysecsan/sanlib.py", line 76, in abort_with_issue',
    '[PYSECSAN] Exiting',
  ]);
  assert.is(c.tool, 'pysecsan');
  assert.is(c.kind, 'code-injection');
  assert.equal(c.frames.map((f) => f.function), ['abort_with_issue', 'hook_pre_eval', 'evaluate', 'TestOneInput', '<module>']);
  assert.equal(c.state, ['hook_pre_eval', 'evaluate', 'TestOneInput']);
});

test('Centipede: its timeout, RSS and stack limits are the crash; the relayed target log is read unwrapped', () => {
  const t = crashOf(['========= Per-input timeout exceeded: 31 > 30 (sec); exiting']);
  assert.is(t.tool, 'centipede');
  assert.is(t.kind, 'timeout');
  assert.is(crashOf(['CRASH LOG: ========= RSS limit exceeded: 2050 > 2048 (MB); exiting']).kind, 'out-of-memory');
  const s = crashOf([
    '========= Stack limit exceeded: 70000 > 65536 (byte); aborting',
    '==77==ERROR: AddressSanitizer: ABRT on unknown address 0x00000000004d (pc 0x7f00 bp 0x7ffc sp 0x7ffc T0)',
    '    #0 0x7e7fdb58200b in raise (/lib/x86_64-linux-gnu/libc.so.6+0x4300b)',
    '    #1 0x57a2466368b3 in HandleOnePc third_party/fuzztest/src/centipede/runner_sancov.cc:210:7',
    '    #2 0x57a2431663d8 in Walk(Node*) src/tree/walk.cc:40:3',
    '    #3 0x57a2431663e0 in Walk(Node*) src/tree/walk.cc:41:3',
    'SUMMARY: AddressSanitizer: ABRT (/lib/x86_64-linux-gnu/libc.so.6+0x4300b)',
  ]);
  assert.is(s.kind, 'stack-overflow');
  assert.is(s.state[0], 'Walk');
  const u = crashOf([
    'CRASH LOG: ==3057==ERROR: AddressSanitizer: heap-use-after-free on address 0x602000000070 at pc 0x5593 bp 0x7ffd sp 0x7ffd',
    'CRASH LOG: WRITE of size 4 at 0x602000000070 thread T0',
    'CRASH LOG:     #0 0x5593fbd29fd9 in Touch(int*) /src/t/touch.cc:9:3',
    'CRASH LOG: SUMMARY: AddressSanitizer: heap-use-after-free /src/t/touch.cc:9:3 in Touch(int*)',
  ]);
  assert.is(u.kind, 'heap-use-after-free');
  assert.is(u.access, 'WRITE');
  assert.equal(u.state, ['Touch']);
});

test('gdb: the signal it stopped on, the pc, and the backtrace with arguments and locations', () => {
  const c = crashOf([
    'Thread 1 "decoder" received signal SIGSEGV, Segmentation fault.',
    '0x00005555555551a9 in read_tag (p=0x0) at src/tags.c:17',
    '#0  0x00005555555551a9 in read_tag (p=0x0) at src/tags.c:17',
    '#1  0x00007ffff7e1c000 in __aeabi_memcpy () from /lib/libarm-rt.so',
    '#2  0x00005555555551f0 in decode_all (buf=<optimized out>, n=3) at src/decode.c:40',
    '#3  main () at src/main.c:8',
    '(gdb) quit',
  ]);
  assert.is(c.tool, 'gdb');
  assert.is(c.kind, 'SIGSEGV');
  assert.is(c.message, 'Segmentation fault');
  assert.is(c.address, '0x00005555555551a9');
  assert.equal(c.frames.map((f) => [f.function, f.file, f.line]), [
    ['read_tag', 'src/tags.c', 17], ['__aeabi_memcpy', null, null], ['decode_all', 'src/decode.c', 40], ['main', 'src/main.c', 8]]);
  // main is out of a state, as ClusterFuzz's ^main rule drops it
  assert.equal(c.state, ['read_tag', 'decode_all']);
  assert.is(c.first_user_frame.function, 'read_tag');
});

test('sanitizer reports as other hosts print them: a space after the pid, no pid at all (Fuchsia)', () => {
  const m = crashOf([
    '==501== WARNING: MemorySanitizer: use-of-uninitialized-value',
    '    #0 0x7fcf2c332fe2 in Codec::Flush() src/codec.cc:44:12',
    'SUMMARY: MemorySanitizer: use-of-uninitialized-value src/codec.cc:44:12 in Codec::Flush()',
    'Exiting',
  ]);
  assert.is(m.tool, 'msan');
  assert.equal(m.state, ['Codec::Flush']);
  const f = crashOf([
    'ERROR: AddressSanitizer: stack-buffer-overflow on address 0x663fa3bcf198 at pc 0x71dc39153f4d bp 0x22cd sp 0x22c',
    'READ of size 2 at 0x663fa3bcf198 thread T0 (initial-thread)',
    '   #0    0x000071dc39153f4c in get_u16(unsigned char const*) ../../src/bytes.cc:12 <<application>>+0xacf4c',
    '   #1.1  0x0000658e5ed9863c in Unwind ../../compiler-rt/lib/sanitizer_common/sanitizer_stacktrace.h:110 <libclang_rt.asan.so>+0x3e63c',
    '   #1    0x000071dc39153ffc in read_header(unsigned char const*) ../../src/header.cc:21 <<application>>+0xacffc',
    '   #2    0x00005e20363104de in start_main ../../zircon/third_party/ulib/musl/src/env/__libc_start_main.c:95 <libc.so>+0x964de',
    'SUMMARY: AddressSanitizer: stack-buffer-overflow ../../src/bytes.cc:12 in get_u16(unsigned char const*)',
  ]);
  assert.is(f.kind, 'stack-buffer-overflow');
  assert.equal(f.frames.map((x) => [x.function, x.file, x.module]), [
    ['get_u16(unsigned char const*)', '../../src/bytes.cc', 'application'],
    ['read_header(unsigned char const*)', '../../src/header.cc', 'application'],
    ['start_main', '../../zircon/third_party/ulib/musl/src/env/__libc_start_main.c', 'libc.so']]);
});

test('Fuchsia: a stack printed after the report, behind its module map, is the report\'s', () => {
  const c = crashOf([
    '==14454== ERROR: libFuzzer: deadly signal',
    'SUMMARY: libFuzzer: deadly signal',
    'dso: id=88668a286c5c0e12 base=0x00005332f2c44000 name=/pkg/bin/parse_fuzzer',
    'dso: id=46e83932b8bc1add base=0x00007602e25fb000 name=libc.so',
    '   #0    0x00005332f2cb9a95 in fuzzer::PrintStackTrace() <<application>>+0x75a95',
    '   #1    0x00005332f2cb9c0e in CrashTrampolineAsm <<application>>+0x75c0e',
    '   #2    0x00005332f2cf10f1 in parse_list(unsigned char const*) ../../src/list.cc:12 <<application>>+0xad0f1',
    '   #3    0x00005332f2cf11ea in LLVMFuzzerTestOneInput ../../fuzz/parse_fuzzer.cc:25 <<application>>+0xad1ea',
    'INFO: done',
  ]);
  assert.is(c.kind, 'deadly-signal');
  assert.equal(c.state, ['parse_list', 'parse_fuzzer.cc']);
});

test('allocator errors: a may-return-null warning is no report; MSan names a too-big allocation as ASan does', () => {
  const a = crashOf([
    '==25416==WARNING: AddressSanitizer failed to allocate 0x9a9a9a9a000000 bytes',
    '==25416==ERROR: AddressSanitizer: allocator is out of memory trying to allocate 0x9a9a9a9a000000 bytes',
    '    #0 0x10b4648fa in Stream::Read(unsigned long) src/stream.cc:20:10',
    'SUMMARY: AddressSanitizer: out-of-memory src/stream.cc:20:10 in Stream::Read(unsigned long)',
  ]);
  assert.is(a.kind, 'out-of-memory');
  const m = crashOf([
    '==7320==ERROR: MemorySanitizer: requested allocation size 0x3ff00000000 exceeds maximum supported size of 0x200000000',
    '#0 0x5f2af9 in image_alloc src/image.c:91:50',
  ]);
  assert.is(m.kind, 'allocation-size-too-big');
});

test('Android: the abort message names the crash; the backtrace is its stack; a bare fault is its process', () => {
  const c = crashOf([
    'Fatal signal 6 (SIGABRT), code -6 in tid 4242 (mediacodec)',
    'pid: 4240, tid: 4242, name: mediacodec  >>> /system/bin/mediacodec <<<',
    'Abort message: frameworks/av/codec/Parser.cpp:88 CHECK_GT(len,4u) failed: 2 vs. 4',
    'backtrace:',
    '    #0 0x00084fe6 in tgkill /bionic/libc/arch-x86/syscalls/tgkill.S:20',
    '    #1 0x000209e4 in abort /bionic/libc/bionic/abort.cpp:47',
    '    #2 0x000bf682 in android::Parser::readBox(unsigned int) frameworks/av/codec/Parser.cpp:88:5',
    '    #3 0x000befbc in android::Parser::parse() frameworks/av/codec/Parser.cpp:40:16',
    'Tombstone written to: /data/tombstones/tombstone_03',
  ]);
  assert.is(c.tool, 'android');
  assert.is(c.kind, 'abort-message');
  assert.equal(c.state, ['CHECK_GT(len,4u) failed in Parser.cpp', 'android::Parser::readBox', 'android::Parser::parse']);
  const s = crashOf([
    'Fatal signal 11 (SIGSEGV), code 1, fault addr 0x7f00001000 in tid 99 (cameraserver)',
    'backtrace:',
    '    #00 pc 0001a2b3  /system/lib64/libcamera.so',
  ]);
  assert.is(s.kind, 'SIGSEGV');
  assert.is(s.address, '0x7f00001000');
  assert.equal(s.state, ['Cameraserver']);
});

test('Android: an assertion that reported the abort itself keeps the crash and takes the backtrace', () => {
  const c = crashOf([
    'Fatal signal 6 (SIGABRT), code -6 in tid 21409 (CrRendererMain)',
    'Abort message: [FATAL:Layout.cpp(180)] Check failed: width >= 0.',
    'backtrace:',
    '    #0 0x00084fe6 in abort /bionic/libc/bionic/abort.cpp:47',
    '    #1 0x000bf682 in blink::Layout::setWidth(int) third_party/blink/Layout.cpp:180:3',
    '    #2 0x000befbc in blink::Layout::update() third_party/blink/Layout.cpp:90:1',
  ]);
  assert.is(c.tool, 'assert');
  assert.is(c.kind, 'check-failed');
  assert.equal(c.state, ['width >= 0 in Layout.cpp', 'blink::Layout::setWidth', 'blink::Layout::update']);
});

test('fatal log lines: Chromium DCHECK / NOTREACHED / V8 error, glog F-lines, glib with a log domain', () => {
  const d = crashOf([
    '[11:11:0101/000000.000000:FATAL:render_frame.cc(77)] DCHECK failed: !detached_; Frame is already detached.',
    '#0 0x7f48a51f99e0 base::debug::StackTrace::StackTrace()',
    '#1 0x7f48a526964d logging::LogMessage::~LogMessage()',
    '#2 0x7f48b4856ef4 content::RenderFrame::Send()',
  ]);
  assert.is(d.tool, 'assert');
  assert.is(d.kind, 'check-failed');
  assert.equal(d.state, ['!detached_ in render_frame.cc', 'content::RenderFrame::Send']);
  const n = crashOf(['[1:1:0101/000000.000000:FATAL:codec.cc(12)] NOTREACHED hit. unknown codec 7']);
  assert.equal([n.kind, n.state], ['check-failed', ['unknown codec 7']]);
  const v = crashOf(['[5:6:0101/000000.000:FATAL:v8_bindings.cc(40)] V8 error: Empty MaybeLocal. (v8::ToLocalChecked).']);
  assert.equal([v.kind, v.state], ['v8-api-error', ['Empty MaybeLocal. (v8::ToLocalChecked)']]);
  const g = crashOf(['F0102 03:04:05.678901 4242 store.cc:91] Corrupt index at block 12', '*** Check failure stack trace: ***',
    '    @     0x5605333e2ca0  absl::log_internal::LogMessage::SendToLog()', '    @     0x560532ec28dc  Store::Load()']);
  assert.equal([g.kind, g.state], ['fatal-error', ['Corrupt index at block NUMBER in store.cc', 'Store::Load']]);
  const b = crashOf(['GLib-GIO:ERROR:../gio/gdbus.c:120:parse_reply: assertion failed: (n > 0)']);
  assert.equal([b.kind, b.state], ['assertion-failed', ['(n > 0)', 'parse_reply']]);
});

test('crash classes of their own: V8 sandbox violation, UBSan upcast of null, LSan indirect-only, GPU process', () => {
  const before = crashOf([
    '## V8 sandbox violation detected!',
    '==77==ERROR: AddressSanitizer: SEGV on unknown address 0x414141414141 (pc 0x7f6f bp 0x7fff sp 0x7fff T0)',
    '==77==The signal is caused by a WRITE memory access.',
    '    #0 0x5ab9ed87ef89 in v8::internal::Heap::Store(int) src/heap/heap.cc:20:3',
    'SUMMARY: AddressSanitizer: SEGV src/heap/heap.cc:20:3 in v8::internal::Heap::Store(int)',
  ]);
  assert.equal([before.tool, before.kind, before.state], ['v8', 'sandbox-violation', ['v8::internal::Heap::Store']]);
  const after = crashOf([
    '==78==ERROR: AddressSanitizer: global-buffer-overflow on address 0x5646 at pc 0x56 bp 0x7f sp 0x7f',
    'READ of size 8 at 0x5646 thread T0',
    '    #0 0x5ab9ed87ef89 in v8::internal::Elements::Get(int) src/objects/elements.cc:9:3',
    'SUMMARY: AddressSanitizer: global-buffer-overflow src/objects/elements.cc:9:3 in v8::internal::Elements::Get(int)',
    '==78==ABORTING',
    '## V8 sandbox violation detected!',
  ]);
  assert.equal([after.tool, after.kind, after.access], ['v8', 'sandbox-violation', 'READ']);
  assert.is(crashOf(['src/shape.cc:12:9: runtime error: upcast of null pointer of type \'Base\'',
    '    #0 0x4a in Shape::area() src/shape.cc:12:9']).kind, 'upcast-of-null-pointer');
  const leak = crashOf([
    '==1==ERROR: LeakSanitizer: detected memory leaks',
    'Indirect leak of 48 byte(s) in 1 object(s) allocated from:',
    '    #0 0x4f in malloc (/out/prog+0x4f)',
    '    #1 0x52 in node_new src/list.c:8:10',
    'SUMMARY: AddressSanitizer: 48 byte(s) leaked in 1 allocation(s).',
  ]);
  assert.equal([leak.kind, leak.state], ['indirect-leak', ['node_new']]);
  const gpu = crashOf(['[185:130:0110/144726.168:ERROR:gpu_process_host.cc(972)] GPU process exited unexpectedly: exit_code=139']);
  assert.equal([gpu.tool, gpu.kind, gpu.message], ['chrome', 'gpu-process-exited', 'exit_code=139']);
});

test("Android's linker that cannot load a library is a setup failure, as glibc's loader is", () => {
  const v = engine.verdict(Buffer.from('CANNOT LINK EXECUTABLE "/data/fuzz/x": library "libfoo.so" not found\n'), { exit: 1 }).verdict;
  assert.is(v.status, 'setup-failed');
  assert.is(v.crash, null);
});

test('Rust panic on Fuchsia: its backtrace in sanitizer form is read, and a stack printed after the abort report is lent', () => {
  const own = crashOf([
    "thread '<unnamed>' panicked at 'bad header', src/parse.rs:40:9",
    'stack backtrace:',
    ' [[[ELF module #0x0 "" BuildID=0123456789abcdef 0x2000]]]',
    ' [[[ELF module #0x1 "libc.so" BuildID=fedcba9876543210 0x4000]]]',
    '    #0.1  0x0000000000002a10 in std::backtrace_rs::backtrace::trace::h0123456789abcdef rustlib/src/rust/library/std/src/backtrace.rs:66 <>+0xa10',
    '    #0    0x0000000000002a10 in std::panicking::begin_panic::h1111111111111111 rustlib/src/rust/library/std/src/panicking.rs:616 <>+0xa10',
    '    #1    0x0000000000002b20 in parse::read_header::h2a2b2c2d2e2f2a2b ./src/parse.rs:40 <>+0xb20',
    '    #2    0x0000000000002c30 in parse::read_all::h3c3d3e3f3a3b3c3d ./src/parse.rs:12 <>+0xc30',
    '==1== ERROR: libFuzzer: deadly signal',
  ]);
  assert.equal(own.state, ['bad header', 'parse::read_header::h2a2b2c2d2e2f2a2b', 'parse::read_all::h3c3d3e3f3a3b3c3d']);
  assert.is(own.frames.find((f) => f.file === 'src/parse.rs' && f.line === 40)?.function, 'parse::read_header');
  const lent = crashOf([
    "thread '<unnamed>' panicked at 'bad header', src/parse.rs:40:9",
    '==1== ERROR: libFuzzer: deadly signal',
    'SUMMARY: libFuzzer: deadly signal',
    ' [[[ELF module #0x0 "" BuildID=0123456789abcdef 0x2000]]]',
    '   #0    0x0000000000003a10 in fuzzer::PrintStackTrace() FuzzerUtil.cpp:210 <<application>>+0x1a10',
    '   #1    0x0000000000002b20 in parse::read_header::h2a2b2c2d2e2f2a2b ./src/parse.rs:40 <<application>>+0xb20',
    '   #2    0x0000000000002c30 in parse::read_all::h3c3d3e3f3a3b3c3d ./src/parse.rs:12 <<application>>+0xc30',
  ]);
  assert.is(lent.tool, 'rust-panic');
  assert.is(lent.message, 'bad header');
  assert.equal(lent.state, ['bad header', 'parse::read_header::h2a2b2c2d2e2f2a2b', 'parse::read_all::h3c3d3e3f3a3b3c3d']);
});

test('a V8 API error and a Go fatal error: three frames follow their message in the state', () => {
  const v = crashOf([
    '[7:8:0101/000000.000:FATAL:v8_bindings.cc(40)] V8 error: Empty MaybeLocal. (v8::ToLocalChecked).',
    '#0 0x7f00000a1000 base::debug::CollectStackTrace()',
    '#1 0x7f00000a2000 logging::LogMessage::~LogMessage()',
    '#2 0x7f00000a3000 v8::api_internal::ToLocalEmpty()',
    '#3 0x7f00000a4000 gfx::Scene::Build()',
    '#4 0x7f00000a5000 gfx::Scene::Load()',
    '#5 0x7f00000a6000 gfx::Loader::Run()',
    '#6 0x7f00000a7000 gfx::Loader::Start()',
  ]);
  assert.equal(v.state, ['Empty MaybeLocal. (v8::ToLocalChecked)', 'gfx::Scene::Build', 'gfx::Scene::Load', 'gfx::Loader::Run']);
  const g = crashOf([
    'fatal error: concurrent map writes',
    '',
    'goroutine 7 [running]:',
    'example.com/store.(*Index).put(0xc000010000, 0x1)',
    '\t/src/store/index.go:40 +0x65',
    'example.com/store.(*Index).Add(0xc000010000, 0x1)',
    '\t/src/store/index.go:22 +0x2e',
    'example.com/store.Load(0xc000012000)',
    '\t/src/store/load.go:9 +0x4a',
    'example.com/store.Open()',
    '\t/src/store/open.go:5 +0x1c',
  ], 2);
  assert.equal(g.state, ['concurrent map writes', 'store.(*Index).put', 'store.(*Index).Add', 'store.Load']);
});

test('a CHECK whose own crash path then faults: the SEGV report is the crash, as ClusterFuzz files it', () => {
  const c = crashOf([
    '[1:1:0101/000000.000000:FATAL:reader.cc(12)] Check failed: n > 0 (0 vs. 0)',
    '#0 0x0000004011a0 base::debug::StackTrace::StackTrace()',
    '#1 0x0000004012b0 logging::LogMessage::~LogMessage()',
    '#2 0x0000004013c0 io::Reader::Next()',
    '',
    '==7==ERROR: AddressSanitizer: SEGV on unknown address 0x7f0012345678 (pc 0x7f0000001000 bp 0x7ffc00000010 sp 0x7ffc00000000 T0)',
    '==7==The signal is caused by a READ memory access.',
    '    #0 0x7f0000001000 in gsignal /build/glibc-2.31/sysdeps/unix/sysv/linux/raise.c:51:1',
    '    #1 0x0000004012b0 in logging::LogMessage::~LogMessage() base/logging.cc:700:7',
    '    #2 0x0000004013c0 in io::Reader::Next() src/io/reader.cc:12:3',
    '    #3 0x0000004014d0 in io::Reader::ReadAll() src/io/reader.cc:30:5',
    'SUMMARY: AddressSanitizer: SEGV src/io/reader.cc:12:3 in io::Reader::Next()',
    '==7==ABORTING',
  ]);
  assert.is(c.tool, 'asan');
  assert.is(c.kind, 'SEGV');
  assert.equal(c.state, ['io::Reader::Next', 'io::Reader::ReadAll']);
  const a = crashOf([
    "prog: src/io/reader.cc:12: int next(): Assertion `n > 0' failed.",
    '==7==ERROR: AddressSanitizer: SEGV on unknown address 0x0000bbadbeef (pc 0x7f0000001000 bp 0x7ffc00000010 sp 0x7ffc00000000 T0)',
    '    #0 0x0000004013c0 in next src/io/reader.cc:12:3',
    'SUMMARY: AddressSanitizer: SEGV src/io/reader.cc:12:3 in next',
  ]);
  assert.is(a.kind, 'assertion-failed');
});

test("a shell's 'Segmentation fault' then the device's tombstone of the same signal: one crash, the tombstone's", () => {
  const c = crashOf([
    'Segmentation fault',
    '',
    '--------- libc (4242):',
    'Fatal signal 11 (SIGSEGV), code 1 (SEGV_MAPERR), fault addr 0x5a5a5a5a in tid 4242 (imgtool), pid 4242 (imgtool)',
    'pid: 4242, tid: 4242, name: imgtool  >>> /data/local/tmp/imgtool <<<',
    'signal 11 (SIGSEGV), code 1 (SEGV_MAPERR), fault addr 0x5a5a5a5a',
    'backtrace:',
    '    #0 0x0000000000012340 in img::Decoder::Row(int) src/img/decoder.cc:88:7',
    '    #1 0x0000000000012450 in img::Decoder::Frame() src/img/decoder.cc:40:3',
    '    #2 0x0000000000012560 in img::Load(char const*) src/img/load.cc:12:10',
  ], 139);
  assert.is(c.tool, 'android');
  assert.is(c.kind, 'SIGSEGV');
  assert.is(c.address, '0x5a5a5a5a');
  assert.equal(c.state, ['img::Decoder::Row', 'img::Decoder::Frame', 'img::Load']);
  // a notice of another signal stays the crash
  assert.is(crashOf(['Aborted', 'signal 11 (SIGSEGV), code 1 (SEGV_MAPERR), fault addr 0x5a5a5a5a'], 134).tool, 'signal');
});

test("a CHECK's trace in macOS's form: image, address, the mangled name read back, its offset", () => {
  const c = crashOf([
    '[1:2:0101/000000.000000:FATAL:tile_grid.cc(31)] Check failed: cols > 0 (0 vs. 0)',
    '0   Viewer Framework                    0x000000010a000010 _ZN4base5debug10StackTraceC1Ev + 19',
    '1   Viewer Framework                    0x000000010a000020 _ZN7logging10LogMessageD2Ev + 392',
    '2   Viewer Framework                    0x000000010a000030 _ZN3gfx8TileGridC2ERKNS_4SizeEi + 61',
    '3   Viewer Framework                    0x000000010a000040 _ZNK3gfx12_GLOBAL__N_16Layout5BuildEv + 12',
    '4   Viewer Framework                    0x000000010a000050 _ZN3gfx6RunnerIiE3RunEv + 7',
    '5   libdyld.dylib                       0x00007fff0a000060 start + 1',
    '6   ???                                 0x0000000120000070 0x0 + 4831838320',
  ]);
  assert.is(c.kind, 'check-failed');
  assert.equal(c.frames.slice(1).map((f) => f.function), ['base::debug::StackTrace::StackTrace', 'logging::LogMessage::~LogMessage',
    'gfx::TileGrid::TileGrid', 'gfx::(anonymous namespace)::Layout::Build', '_ZN3gfx6RunnerIiE3RunEv', 'start', null]);
  assert.is(c.frames[3].module, 'Viewer Framework');
  assert.equal(c.state, ['cols > 0 in tile_grid.cc', 'gfx::TileGrid::TileGrid', 'gfx::Layout::Build']);
});

test("Trusty: a trusted app's crash, the app's own (uSP) frames without the kernel's (kSP)", () => {
  const c = crashOf([
    'panic notifier - trusty version Project: demo, Build: 1',
    'data fault writing to 0x***, PC at 0x***(0x***)',
    'Backtrace for thread: trusty_app_3_0a1b2c3d-demo',
    '(app: keyvault)',
    'kSP+0x0df0: 0xffff000000022f5c in trusty_app_exit ld-temp.o:?',
    'kSP+0x0e70: 0xffff000000005674 in arm64_sync_exception ld-temp.o:?',
    'uSP+0x01d0: 0x000000000001b048 in kv_decode /src/keyvault/decode.c:51',
    'uSP+0x05f0: 0x000000000001f56c in kv_open /src/keyvault/store.c:?',
    'uSP+0x0650: 0x000000000001ee98 in kv_handle /src/keyvault/main.c:120',
    'uSP+0x2f60: 0x0000000000000000 in keyvault.syms.elf',
    'panic (caller 0x***): Unclean exit from critical app',
  ]);
  assert.is(c.tool, 'trusty');
  assert.is(c.kind, 'app-crash');
  assert.is(c.message, 'keyvault');
  assert.equal(c.frames.map((f) => [f.function, f.file, f.line]), [
    ['kv_decode', '/src/keyvault/decode.c', 51], ['kv_open', '/src/keyvault/store.c', null], ['kv_handle', '/src/keyvault/main.c', 120], [null, null, null]]);
  assert.equal(c.state, ['kv_decode', 'kv_open', 'kv_handle']);
});

test.run();
