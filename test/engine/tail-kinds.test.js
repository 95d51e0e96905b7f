// Which line a full tail lets go while an error line is its oldest (tail.ts): a line saying PASS or ok (the word:
// PASS, Pass:, passed, passes, ok) goes before any other. `pass` inside another word is no such line: pip's
// `by passing --break-system-packages`, `bypass`, `password` stay as any other line does.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createEngine } from '../../dist/engine.js';

const engine = await createEngine();
const rows = [
  ['PASSED: test_parse', false],
  ['test_parse ... Pass', false],
  ['2 tests passed', false],
  ['PASSES 4', false],
  ['step ok', false],
  ['You can override this by passing --break-system-packages.', true],
  ['bypass the cache with --no-cache', true],
  ['password file not found', true],
  ['compass heading 270', true],
];

for (const [line, stays] of rows) {
  test(`${JSON.stringify(line)}: ${stays ? 'stays' : 'goes first'}`, () => {
    const other = Array.from({ length: 10 }, (_, i) => `step ${i + 1} of the build`);
    const log = ['error: boom', 'other line', line, ...other].join('\n') + '\n';
    const v = engine.verdict(Buffer.from(log), { exit: 1 }).verdict;
    assert.is(v.tail.length, 12);
    assert.is(v.tail[0], 'error: boom');
    assert.is(v.tail.includes(line), stays, JSON.stringify(v.tail));
    assert.is(v.tail.includes('other line'), !stays, JSON.stringify(v.tail));
  });
}

test.run();
