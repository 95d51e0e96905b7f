// go test output repeated (issue 32: a CI loop re-running a suite): the parser kept every test run until
// the end, so its memory grew with the log (go-pass-v repeated to 64 MiB: 104 MB). It now counts each
// package's tests at the package's result line and keeps only the failing names the verdict can list.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../fixtures/lib/cases.js';
import { feedRepeated } from '../../fixtures/lib/blocks.js';

const { createEngine } = await import(join(ROOT, 'dist/engine.js'));
const MIB = 1 << 20;

for (const fixture of ['runners/go-pass-v', 'runners/go-fail-v', 'runners/go-fail', 'runners/go-multi-pkg']) {
  test(`${fixture} repeated to 16 MiB: counts of every run, in bounded memory`, async () => {
    const log = readFileSync(join(ROOT, 'fixtures', fixture, 'log.txt'));
    const reps = Math.floor((16 * MIB) / log.length);
    const engine = await createEngine();
    const one = engine.verdict(log, { exit: 1 }).verdict.tests;
    const s = engine.stream({ exit: 1 });
    feedRepeated(s, log, reps * log.length);
    const t = s.end().verdict.tests;
    assert.equal(t.failed, one.failed * reps);
    assert.equal(t.passed, one.passed === null ? null : one.passed * reps);
    assert.equal(t.failures.map((f) => [f.name, f.message]), one.failures.map((f) => [f.name, f.message]));
    assert.ok(engine.memoryBytes() <= 8 * MIB, `engine memory ${engine.memoryBytes() / MIB} MiB for ${reps * log.length} bytes of input`);
  });
}

// `go test -v -count=N` of one package: every run's lines, one `PASS` and `ok` line at the end (go-pass-v's
// runs 40 000 times, as go prints them). The package's runs were all held until its `ok` line.
test('runners/go-pass-v, -count=40000 in one package: counts of every run, in bounded memory', async () => {
  const lines = readFileSync(join(ROOT, 'fixtures/runners/go-pass-v/log.txt'), 'utf8').trimEnd().split('\n');
  const runs = lines.slice(0, -2).join('\n') + '\n';
  const bytes = Buffer.from(runs.repeat(40_000) + lines.slice(-2).join('\n') + '\n');
  const engine = await createEngine();
  const one = engine.verdict(readFileSync(join(ROOT, 'fixtures/runners/go-pass-v/log.txt')), { exit: 0 }).verdict.tests;
  const s = engine.stream({ exit: 0 });
  for (let off = 0; off < bytes.length; off += 65_536) s.push(bytes.subarray(off, off + 65_536));
  const t = s.end().verdict.tests;
  assert.equal([t.passed, t.skipped, t.failed], [one.passed * 40_000, one.skipped * 40_000, 0]);
  assert.ok(engine.memoryBytes() <= 8 * MIB, `engine memory ${engine.memoryBytes() / MIB} MiB for ${bytes.length} bytes of input`);
});


// A fuzz failure's `Failing input written to …` line repeated (a fuzzed log, or a loop over one): each joined the
// test's message without bound, which grew the engine's memory to 64 MiB for a 67 KB log (test/engine/fuzz.test.js,
// seed 20261202). The message keeps the lines of any multi-line log message's bound.
test('runners/go-fuzz-panic with its `Failing input written to` line 20 000 times: a bounded message, in bounded memory', async () => {
  const lines = readFileSync(join(ROOT, 'fixtures/runners/go-fuzz-panic/log.txt'), 'utf8').split('\n');
  const at = lines.findIndex((l) => l.includes('Failing input written to'));
  const bytes = Buffer.from([...lines.slice(0, at), ...Array(20_000).fill(lines[at]), ...lines.slice(at + 1)].join('\n'));
  const engine = await createEngine();
  const one = engine.verdict(readFileSync(join(ROOT, 'fixtures/runners/go-fuzz-panic/log.txt')), { exit: 1 }).verdict.tests;
  const t = engine.verdict(bytes, { exit: 1 }).verdict.tests;
  assert.equal(t.failures.map((f) => f.name), one.failures.map((f) => f.name));
  for (const f of t.failures) assert.ok(f.message.length < 4096, `a message of ${f.message.length} chars`);
  assert.ok(engine.memoryBytes() <= 8 * MIB, `engine memory ${engine.memoryBytes() / MIB} MiB`);
});

test.run();
