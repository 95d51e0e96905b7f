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

test.run();
