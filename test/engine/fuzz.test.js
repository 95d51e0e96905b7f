// 10 000 generated inputs through the engine (test/helpers/fuzz.js: fast-check arbitraries and
// mutations of every fixture log): no trap, schema-valid envelopes, bounded output, the same bytes
// whole and streamed. A fixed seed, so a failure reproduces; `npm run bench:fuzz` runs a million.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { ROOT, listCases } from '../../fixtures/lib/cases.js';
import { inputArbitrary, checkInput, fuzzContext } from '../helpers/fuzz.js';

const { createEngine } = await import(join(ROOT, 'dist/engine.js'));

test('10 000 generated inputs: no trap, valid and bounded envelopes, same bytes twice', async () => {
  const { engine, logs, blocks, RunResultSchema } = await fuzzContext(ROOT);
  assert.ok(logs.length > 150);
  assert.ok(blocks.length > 40, `${blocks.length} repeated failure blocks`);
  let prev = null;
  let n = 0;
  fc.assert(fc.property(inputArbitrary(logs, blocks), (input) => {
    const r = checkInput(engine, RunResultSchema, input, prev);
    if (r.kind) throw new Error(`${r.kind}: ${r.why}`);
    prev = r.verdict;
    n++;
  }), { numRuns: 10_000, seed: 20261202, endOnFailure: true });
  assert.is(n, 10_000);
});

test('found by the fuzz test: a go panic value over several lines reads the same streamed 5 bytes at a time', async () => {
  // go-panic.ts told a line offered again from the next by its address: two lines a stream cut in two are put
  // together at the same address in the splitter's buffer, so the value's second line was dropped when streamed.
  const engine = await createEngine();
  const unit = 'items:\n  a=1\n\ngoroutine 1 [running]:\nmain.main()\n\t./main.go:9 +0xf9\nexit status 2\n';
  const log = new TextEncoder().encode('panic: bad item count 1\n' + unit.repeat(3));
  const whole = engine.verdict(log, { exit: 2 }).verdict;
  const s = engine.stream({ exit: 2 });
  for (let i = 0; i < log.length; i += 5) s.push(log.subarray(i, i + 5));
  const streamed = s.end().verdict;
  assert.is(whole.crash.message, 'bad item count 1\nitems:\n  a=1');
  assert.equal(streamed, whole);
});

test('found by bench:fuzz: a 64 KiB line of go test results with thousands of / stays linear', async () => {
  // A fixture line repeated without its newline: go-test.ts copied every parent of the "name" (one per
  // '/'), 128 MiB for this line, and a resident engine that met two such lines trapped at its maximum.
  const engine = await createEngine();
  const line = new TextEncoder().encode('    --- PASS: TestTotal/ten_percent (0.0'.repeat(1638));
  const env = engine.verdict(line, { exit: 0 });
  assert.ok(engine.memoryBytes() <= 8 << 20, `${engine.memoryBytes()} bytes`);
  assert.is(env.verdict.status, 'pass');
});

test('found by the fuzz test: a mocha failure whose title runs on for thousands of lines stays bounded', async () => {
  // A fixture's title line repeated 4 000 times under a failure's `3) totals` (no `:` until the last): every
  // part was kept, and the release build's memory grew with the square of the parts (64 MiB at 1 600, a trap
  // at 4 000). A title keeps at most as many parts as mocha nests suites deep.
  const engine = await createEngine();
  const log = new TextEncoder().encode(`  0 passing (6ms)\n  1 failing\n\n  1) totals\n${'       sumals\n'.repeat(4000)}       sums lines:\n     Error: boom\n      at Context.<anonymous> (test/cart.js:12:11)\n\n`);
  const env = engine.verdict(log, { exit: 1 });
  assert.ok(engine.memoryBytes() <= 8 << 20, `${engine.memoryBytes()} bytes`);
  assert.is(env.verdict.status, 'tests-failed');
  assert.is(env.verdict.tests.failures.length, 1);
  assert.match(env.verdict.tests.failures[0].name, /^totals > sumals > /);
});

test('found by the fuzz test: a unittest block reads the same whole and streamed in small pieces', async () => {
  // Lines between an `ERROR: name (id)` line and its rule: the first is the test's docstring, told again by
  // its address when the dispatcher offered it twice. A line cut across pushes is put together in the
  // splitter's one carry buffer, so every such line had the same address: all of them read as the docstring
  // and the traceback after them was the failure's; whole, the block ended at the second. Now by line number.
  const engine = await createEngine();
  const rule = '-'.repeat(70);
  const log = new TextEncoder().encode(['.E', '='.repeat(70), 'ERROR: test_word (test_tokens.TokenizeTest.test_word)',
    ...Array(3).fill('--------okenizeTest.test_word)'), rule, 'Traceback (most recent call last):',
    '  File "./tests/test_tokens.py", line 14, in test_word', '    self.assertEqual(tokenize("x"), [])',
    '  File "./app/tokens.py", line 9, in tokenize', '    raise SyntaxError(f"bad token {part!r}")',
    "SyntaxError: bad token 'x'", '', rule, 'Ran 2 tests in 0.005s', '', 'FAILED (errors=1)', ''].join('\n'));
  const whole = engine.verdict(log, { exit: 1 });
  const s = engine.stream({ exit: 1 });
  for (let off = 0; off < log.length; off += 7) s.push(log.subarray(off, off + 7));
  assert.is(JSON.stringify(s.end()), JSON.stringify(whole));
});

test('found by the fuzz test: a unittest -v line whose id has thousands of dots stays within 8 MiB', async () => {
  // A fixture's `test_total (test_inventory.InventoryTest.test_total) ... ok` with its id's middle repeated 2 800
  // times: every dotted prefix of the id was kept as a unit of the run, a copy of the 45 KB line each (128 MiB).
  const engine = await createEngine();
  const id = `test_inventory.InventoryTest${'.test_tntoryTest'.repeat(2800)}.test_total`;
  const log = new TextEncoder().encode(`test_add (test_inventory.InventoryTest.test_add) ... ok\ntest_total (${id}) ... ok\n\n${'-'.repeat(70)}\nRan 2 tests in 0.000s\n\nOK\n`);
  const env = engine.verdict(log, { exit: 0 });
  assert.ok(engine.memoryBytes() <= 8 << 20, `${engine.memoryBytes()} bytes`);
  assert.is(env.verdict.tests.passed, 2);
});

test('a resident engine stays flat: 4 000 verdicts over every fixture, memory as after the first round', async () => {
  const engine = await createEngine();
  const logs = listCases().map((c) => new Uint8Array(c.log));
  for (const log of logs) engine.verdict(log, { exit: 1 });
  const after = engine.memoryBytes();
  for (let i = 0; i < 4000; i++) engine.verdict(logs[i % logs.length], { exit: 1 });
  // Leaked heap.alloc buffers (4 KiB a verdict, as go test -json's once did) would add ~16 MiB here.
  assert.ok(engine.memoryBytes() <= after, `${after} -> ${engine.memoryBytes()} bytes`);
});

test('a resident engine fed empty logs (a daemon\'s `sbx run -- /bin/true`s) collects too: 20 000 stay within 8 MiB', async () => {
  // Garbage was collected after 256 KiB of input only: each verdict leaves ~23 KB (its parser set), so
  // 20 000 empty or one-line logs grew the engine to 256 MiB.
  const engine = await createEngine();
  const line = new TextEncoder().encode('ok\n');
  for (let i = 0; i < 20_000; i++) engine.verdict(i % 2 ? line : new Uint8Array(0), { exit: 0 });
  assert.ok(engine.memoryBytes() <= 8 << 20, `${engine.memoryBytes()} bytes`);
});

test('found by the fuzz test: a go import stanza of thousands of `imports` lines stays within 8 MiB', async () => {
  // A fixture's `package m` / `\timports m/a` stanza with its middle repeated 2 000 times: go-build.ts kept every
  // line of the chain and built the cycle's message by adding to one string, 128 MiB for a 64 KiB log.
  const engine = await createEngine();
  const mid = '\timports example.com/shapes/geom\n\timports example.com/shapes/units\n'.repeat(2000);
  const log = new TextEncoder().encode(`package example.com/shapes\n${mid}\timports example.com/shapes/geom: import cycle not allowed\n`);
  const env = engine.verdict(log, { exit: 1 });
  assert.ok(engine.memoryBytes() <= 8 << 20, `${engine.memoryBytes()} bytes`);
  const d = env.verdict.diagnostics.find((x) => x.tool === 'go');
  assert.ok(d && d.message.startsWith('import cycle not allowed: example.com/shapes/geom → example.com/shapes/units → '), d?.message);
});

test('npm run bench:fuzz itself runs: a few hundred inputs over two workers, its goal line met', () => {
  const r = spawnSync(process.execPath, [join(ROOT, 'bench/fuzz.js'), '--runs', '400', '--workers', '2'], { encoding: 'utf8', timeout: 120_000 });
  assert.is(r.status, 0, r.stderr);
  assert.match(r.stdout, /^fuzz: 400 generated inputs/m);
  assert.match(r.stdout, /^goal: 0 traps, every envelope schema-valid and bounded, same bytes twice: met$/m);
});

test.run();
