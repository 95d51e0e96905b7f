// A parser that takes back the tail's newest line (Tail.dropLast, Tail.takeBack) once the line after it shows the
// line was its own: the tail keeps every other line once, in order, when it is full too (12 lines before).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createEngine } from '../../dist/engine.js';
import { listCases } from '../../fixtures/lib/cases.js';

const engine = await createEngine();
const noise = Array.from({ length: 14 }, (_, i) => `step ${i + 1} of the build`).join('\n') + '\n';

for (const id of ['runners/xo-pretty', 'runners/cargo-cached-warnings-replayed']) {
  test(`${id} after a full tail: the taken-back line is gone, the others stay once, in order`, () => {
    const c = listCases().find((x) => x.id === id);
    const alone = engine.verdict(c.log, { exit: c.run.exit ?? null }).verdict;
    const log = Buffer.concat([Buffer.from(noise), Buffer.from(c.log)]);
    const v = engine.verdict(log, { exit: c.run.exit ?? null }).verdict;
    assert.equal(v.diagnostics.length, alone.diagnostics.length);
    const tail = v.tail;
    assert.is(new Set(tail).size, tail.length, `a line twice in the tail: ${JSON.stringify(tail)}`);
    // The noise lines still in the tail are the latest ones, in order.
    const kept = tail.filter((l) => l.startsWith('step '));
    const nums = kept.map((l) => Number(l.split(' ')[1]));
    for (let i = 1; i < nums.length; i++) assert.is(nums[i], nums[i - 1] + 1, JSON.stringify(tail));
    if (nums.length) assert.is(nums[nums.length - 1], 14);
    for (const l of alone.tail) assert.ok(tail.includes(l) || tail.length === 12, `${l} missing from ${JSON.stringify(tail)}`);
  });
}

test.run();
