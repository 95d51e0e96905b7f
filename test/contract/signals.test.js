// One table of signals on the TypeScript side (src/contract/signals.ts); the engine's own copy in
// AssemblyScript (assembly/signals.ts) must name every signal the same, since both end up in a verdict:
// a command killed by signal N (the launcher's outcome) and a shell's exit 128+N (read by the engine).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createEngine } from '../../dist/engine.js';
import { signalName, signalNumber, exitForSignal } from '../../dist/launcher.js';

const engine = await createEngine();
const fatal = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 24, 25, 26, 27, 30, 31];

test('the engine names every fatal signal as the TypeScript table does (killed by N, and exit 128+N)', () => {
  for (const n of fatal) {
    const killed = engine.verdict(new Uint8Array(), { exit: null, signal: n }).verdict.crash;
    assert.is(killed?.kind, signalName(n), `killed by ${n}`);
    const shell = engine.verdict(new TextEncoder().encode('x\n'), { exit: exitForSignal(n), signal: null }).verdict.crash;
    if (shell) assert.is(shell.kind, signalName(n), `exit ${128 + n}`);
  }
});

test('names, aliases and numbers round-trip; 128+N', () => {
  assert.is(signalNumber('SIGIOT'), 6);
  assert.is(signalNumber('segv'), 11);
  assert.is(signalNumber('SIG34'), 34);
  assert.is(signalName(34), 'SIG34');
  assert.is(exitForSignal('SIGKILL'), 137);
  for (let n = 1; n < 32; n++) assert.is(signalNumber(signalName(n)), n);
});

test.run();
