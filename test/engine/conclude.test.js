// engine.conclude(): a run's delta and rendered text in one pass over the verdict the engine holds must be
// what delta() and render() give for it, on every fixture, whether the verdict is the one the engine still
// holds (just made) or one it must read back (another made since, or a copy), and against a first run,
// the case before, and a previous verdict that cannot be read.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createEngine } from '../../dist/engine.js';
import { listCases } from '../../fixtures/lib/cases.js';

const engine = await createEngine();
const cases = listCases(undefined, { blind: true });

const oldWay = (env, prev, o) => {
  const delta = engine.delta(prev, env.verdict, o);
  return { delta, text: engine.render({ ...env, delta }) };
};

test('conclude() is delta() then render(), on every fixture', () => {
  let prev = null;
  let n = 0;
  for (const [i, c] of cases.entries()) {
    const r = c.run ?? {};
    const opts = { exit: r.exit ?? null, signal: r.signal ?? null, timedOut: Boolean(r.timed_out), log: i % 3 ? `/work/.sbx/logs/${i}.log` : null };
    const env = engine.verdict(c.log, opts);
    env.outcome = { exit_code: r.exit ?? null, wall_ms: i, total_ms: i % 4 ? i + 3 : null };
    for (const [p, o] of [
      [null, { sameRuns: 1 }],
      [prev, { treeChanged: i % 2 === 0, sameRuns: 1 + (i % 3) }],
      [env.verdict, { sameRuns: 4 }],
    ]) {
      const want = oldWay(env, p, o);
      const held = engine.conclude(env, p, o); // the verdict the engine holds
      const copy = engine.conclude({ ...env, verdict: structuredClone(env.verdict) }, p, o); // read back
      assert.equal(JSON.stringify(held.delta), JSON.stringify(want.delta), `${c.id}: delta`);
      assert.is(held.text, want.text, `${c.id}: text`);
      assert.is(copy.text, want.text, `${c.id}: text (read back)`);
      assert.equal(JSON.stringify(copy.delta), JSON.stringify(want.delta), `${c.id}: delta (read back)`);
      n++;
    }
    prev = env.verdict;
  }
  assert.ok(n >= 3 * 400, `only ${n} comparisons`);
});

test('a verdict made before another is read back, not the newer one the engine holds', () => {
  const a = engine.verdict(Buffer.from('main.c:3:1: error: expected declaration\n'), { exit: 1 });
  const b = engine.verdict(Buffer.from('ok\n'), { exit: 0 });
  assert.is(engine.conclude(a, null).text, engine.render({ ...a, delta: engine.delta(null, a.verdict) }));
  assert.is(engine.conclude(b, a.verdict).delta.status.before, a.verdict.status);
  assert.is.not(a.verdict.status, b.verdict.status);
});

test('an unreadable previous verdict is E_DELTA, as delta() says', () => {
  const env = engine.verdict(Buffer.from('x\n'), { exit: 0 });
  const bad = { status: 'pass', diagnostics: 'not an array', tests: 7 };
  let d, c;
  try {
    engine.delta(bad, env.verdict);
  } catch (e) {
    d = e;
  }
  try {
    engine.conclude(env, bad);
  } catch (e) {
    c = e;
  }
  assert.is(String(c?.message), String(d?.message));
});

test.run();
