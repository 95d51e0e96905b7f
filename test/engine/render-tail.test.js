// The rendered tail: under a crash only the last CRASH_TAIL_LINES (3) unclaimed lines are shown, with a
// header that says how many there are and where the rest is (the crash block already says what happened
// and where); without a crash every line of the verdict's tail is shown. The verdict's tail itself keeps
// all of them. Table-driven over every fixture.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createEngine } from '../../dist/engine.js';
import { listCases } from '../../fixtures/lib/cases.js';

const engine = await createEngine();
const SHOWN = 3;
const cases = listCases();
let trimmed = 0;

for (const c of cases) {
  const env = engine.verdict(c.log, { exit: c.run.exit ?? null, signal: c.run.signal ?? null, timedOut: Boolean(c.run.timed_out) });
  const t = env.verdict.tail;
  if (t.length === 0) continue;
  const text = engine.render(env);
  const shown = (s) => text.includes(`\n  | ${s.length > 240 ? s.slice(0, 240) : s}`);
  if (env.verdict.crash && t.length > SHOWN) {
    trimmed++;
    test(`${c.id}: crash, ${t.length} tail lines: the last ${SHOWN} shown`, () => {
      assert.ok(text.includes(`\ntail (last ${SHOWN} of ${t.length} unclaimed lines; all in the log):\n`), text);
      for (const s of t.slice(-SHOWN)) assert.ok(shown(s), `missing: ${s}`);
      const hidden = t.slice(0, -SHOWN).filter((s) => !t.slice(-SHOWN).includes(s));
      for (const s of hidden) assert.not.ok(text.includes(`\n  | ${s}\n`), `shown: ${s}`);
      assert.is(env.verdict.tail.length, t.length, 'the verdict keeps its whole tail');
    });
  } else {
    test(`${c.id}: ${env.verdict.crash ? 'crash' : env.verdict.status}, ${t.length} tail lines: all shown`, () => {
      assert.ok(text.includes('\ntail:\n'), text);
      for (const s of t) assert.ok(shown(s), `missing: ${s}`);
    });
  }
}

test('some fixtures have a crash with a longer tail (the trimmed case is exercised)', () => {
  assert.ok(trimmed >= 3, `only ${trimmed}`);
});

test.run();
