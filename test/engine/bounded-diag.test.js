// Large diagnostic output (issue 29 item 9, issue 32): real fixture logs with one piece repeated, as a build
// loop or a test run with thousands of failures prints it. Every warning of a group whose compiler was still
// a guess (gcc -fdiagnostics-plain-output at file scope: no source, no `In function`) and every pytest
// failure block was kept until the end of the log, so the collector, which walks what is live every 256 KiB
// of input, made the time quadratic, and memory grew past the engine's 256 MiB maximum (a trap, under
// `sbx run` exit 70 without a log path). Now the engine keeps what the verdict shows and counts the rest.
// bench/scale-diag.js measures the same pieces at 10-80 MB.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../fixtures/lib/cases.js';

const { createEngine } = await import(join(ROOT, 'dist/engine.js'));
const MIB = 1 << 20;

/** The fixture's log with its lines `lines` (1-based, in order) repeated until the log is about `bytes` long. */
function grown(fixture, lines, bytes) {
  const all = readFileSync(join(ROOT, 'fixtures', fixture, 'log.txt'), 'utf8').split('\n');
  const piece = lines.map((n) => all[n - 1]);
  const times = Math.ceil(bytes / Buffer.byteLength(piece.join('\n') + '\n'));
  const copies = Array.from({ length: times }, () => piece).flat();
  return { times, bytes: Buffer.from([...all.slice(0, lines[0] - 1), ...copies, ...all.slice(lines.at(-1))].join('\n')) };
}

/** The verdict of bytes fed in 64 KiB chunks (as sbx run reads a pipe), its time and the engine's memory after. */
async function streamed(bytes) {
  const engine = await createEngine();
  const t0 = performance.now();
  const s = engine.stream({ exit: 1 });
  for (let off = 0; off < bytes.length; off += 65_536) s.push(bytes.subarray(off, off + 65_536));
  const env = s.end();
  return { env, ms: performance.now() - t0, memory: engine.memoryBytes() };
}

const CASES = [
  // One gcc warning, over and over (a plain-output build loop): 8 MB of it took 64 MiB before, 16 MB 128 MiB.
  ['gcc -fdiagnostics-plain-output, one warning repeated', 'cfamily/cc-plain-output-gcc', [4], (v, n) => v.counts.warnings === n + 3 && v.diagnostics.length === 400 && v.diagnostics.every((d) => d.tool === 'gcc')],
  // Distinct warnings and their notes, repeated as a block.
  ['gcc -fdiagnostics-plain-output, its warnings and note repeated', 'cfamily/cc-plain-output-gcc', [1, 2, 3, 4, 5], (v, n) => v.counts.warnings === 4 * n && v.counts.diagnostics_dropped > 0],
  // clang's header line over and over, its source and caret once after the last: the group is guessed until
  // then, and the kept warnings are still retagged clang when the caret comes.
  ['clang, a warning header repeated', 'blind/native-langs/cxx-thread-safety-clangxx', [1], (v, n) => v.counts.warnings >= n && v.diagnostics.length === 400 && v.diagnostics.every((d) => d.tool === 'clang')],
  // A pytest failure block (header to location line) over and over: every block was kept.
  ['pytest, a failure block repeated', 'runners/pytest-large-fail', [...Array(14).keys()].map((i) => 33 + i), (v) => v.tests.failures.some((f) => f.name === 'test_checksum.py::test_digit_sum[777]' && f.line === 8) && v.tests.failed === 3],
  // Its short-summary line over and over: every entry was kept, and each block was matched against all of them.
  ['pytest, a short-summary line repeated', 'runners/pytest-large-fail', [75], (v) => v.tests.failures.length === 3],
  // unittest -b: a failing subtest's buffered `Stdout:` over and over, after its exception line: every line of it was kept.
  ['unittest, a buffered output line repeated', 'blind/runners/unittest-subtest-buffer', [22], (v) => v.tests.runner === 'unittest' && v.tests.failures.length > 0],
];

for (const [what, fixture, lines, check] of CASES) {
  test(`${what}: the verdict in bounded memory and linear time`, async () => {
    const small = grown(fixture, lines, 4e6);
    const big = grown(fixture, lines, 16e6);
    const a = await streamed(small.bytes);
    const b = await streamed(big.bytes);
    assert.ok(check(b.env.verdict, big.times), JSON.stringify(b.env.verdict.counts) + ' ' + JSON.stringify(b.env.verdict.tests?.failures?.slice(0, 3)));
    assert.ok(b.memory <= 16 * MIB, `engine memory ${b.memory / MIB} MiB for ${big.bytes.length} bytes of input`);
    assert.ok(b.memory <= a.memory * 2, `engine memory grew with the input: ${a.memory / MIB} MiB at 4 MB, ${b.memory / MIB} MiB at 16 MB`);
    // Four times the input: linear takes about four times as long, quadratic sixteen. A margin for a busy machine.
    assert.ok(b.ms < Math.max(a.ms, 50) * 9, `time not linear: ${a.ms.toFixed(0)} ms at 4 MB, ${b.ms.toFixed(0)} ms at 16 MB`);
  });
}

test.run();
