// Every runner's and tool's repeated failure block (fixtures/lib/blocks.js: a CI loop re-running a failing
// suite, a flaky test retried) read to 4 MiB: the engine never traps and stays within the issue-32 bound of
// 64 MB. A parser that appended each re-run's message to the same failure grew without bound and trapped
// (`unreachable` from the allocator) at 1-2 MiB: Catch2's and doctest's, found by bench/engine.js.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { ROOT, listCases } from '../../fixtures/lib/cases.js';
import { failureBlocks, feedRepeated } from '../../fixtures/lib/blocks.js';

const { createEngine } = await import(join(ROOT, 'dist/engine.js'));
const MIB = 1 << 20;
const SIZE = 4 * MIB;

for (const { name, block } of failureBlocks(listCases())) {
  test(`${name} repeated to 4 MiB: a verdict, in bounded memory`, async () => {
    const engine = await createEngine();
    const s = engine.stream({ exit: 1 });
    feedRepeated(s, block, SIZE);
    const v = s.end().verdict;
    assert.ok(v.status, 'a verdict with a status');
    assert.ok(engine.memoryBytes() <= 64 * MIB, `engine memory ${engine.memoryBytes() / MIB} MiB for 4 MiB of ${name}`);
    // A failure's message never grows with the repetitions: at most a screenful of lines.
    for (const f of v.tests?.failures ?? []) assert.ok((f.message ?? '').split('\n').length <= 40, `${name}: ${f.name}'s message has ${(f.message ?? '').split('\n').length} lines`);
  });
}

test.run();
