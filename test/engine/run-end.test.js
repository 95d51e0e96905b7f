// A run's end in one engine call (VerdictStream.end(run), the Wasm export finishRun): the verdict, its streak
// key, its delta and its text must be what finish(), the key, delta() and render() give, on every fixture.
// The streak key is written in every state dir (state.vkey, history.jsonl's key), so it must stay byte for byte
// the key the host computed before the engine did: that computation is kept here as the reference.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createEngine } from '../../dist/engine.js';
import { listCases } from '../../fixtures/lib/cases.js';

const engine = await createEngine();
const cases = listCases(undefined, { blind: true });

// The host's verdictKey before issue 34 (src/host/state/history.ts), verbatim.
const fact = (s) =>
  (s ?? '')
    .replace(/0[xX][0-9a-fA-F]+/g, '0x#')
    .replace(/(^|[ (])T\d+/g, '$1T#')
    .replace(/pid=\d+/g, 'pid=#')
    .replace(/\s+/g, ' ')
    .trim();
function hostKey(vd) {
  const errs = vd.diagnostics
    .filter((d) => d.severity === 'error')
    .map((d) => `${d.file}:${d.code ?? ''}:${d.message}:${d.label ?? ''}`)
    .sort();
  const fails = (vd.tests?.failures ?? []).map((f) => `${f.name}:${fact(f.message)}`).sort();
  const crash = vd.crash ? `${vd.crash.identity}:${fact(vd.crash.message)}:${vd.crash.region ?? ''}` : null;
  return JSON.stringify([vd.status, crash, errs, fails]);
}

const optsOf = (c, i) => {
  const r = c.run ?? {};
  return { exit: r.exit ?? null, signal: r.signal ?? null, timedOut: Boolean(r.timed_out), log: i % 3 ? `/work/.sbx/logs/${i}.log` : null };
};

test('the streak key is the one the host wrote, on every fixture (held, and sent back in)', () => {
  for (const [i, c] of cases.entries()) {
    const env = engine.verdict(c.log, optsOf(c, i));
    const want = hostKey(env.verdict);
    assert.is(engine.streakKey(env.verdict), want, c.id);
    assert.is(engine.streakKey(JSON.parse(JSON.stringify(env.verdict))), want, `${c.id} (a copy)`);
  }
});

test('the streak key of strings a verdict can hold: blanks of every kind, pairs, quotes, the numbers facts hide', () => {
  const msgs = ['  a\t b\n\nc  ', 'pid=0x12 T12 (T3 xT4 T 0X0x1f', '\u00a0x\u3000y\ufeff\u2000z\u205f', 'T1(T2 T3', 'é"q\\b', '😀 \ue000 \uffff', 'pid=12pid=3', '0x', '', null, 'a\u1680b\u202fc'];
  for (const m1 of msgs)
    for (const m2 of msgs) {
      const vd = {
        status: 'fail',
        diagnostics: [
          { file: m1 === null ? null : `f${m1}`, line: 1, col: 1, tool: 'gcc', severity: 'error', code: m2, message: m1 ?? 'm', label: m2 },
          { file: '😀', line: 1, col: 1, tool: 'gcc', severity: 'error', code: null, message: '\ue000', label: null },
          { file: 'x', line: 1, col: 1, tool: 'gcc', severity: 'warning', code: null, message: 'w', label: null },
        ],
        crash: { tool: 'asan', kind: 'k', identity: m2 === null ? null : `id${m2}`, message: m1, region: m2, frames: [] },
        tests: { runner: 'pytest', passed: 0, failed: 3, errors: 0, skipped: 0, failures: [{ name: `b${m2}`, message: m1 }, { name: 'a', message: m2 }, { name: '\uffff', message: '😀' }] },
        counts: { errors: 2, warnings: 1 },
      };
      assert.is(engine.streakKey(vd), hostKey(vd), JSON.stringify([m1, m2]));
    }
});

test('end(run) is finish(), the key, delta() and render(), on every fixture', () => {
  let prev = null;
  let n = 0;
  for (const [i, c] of cases.entries()) {
    const opts = optsOf(c, i);
    const outcome = { exit_code: c.run?.exit ?? null, wall_ms: i, total_ms: i % 4 ? i + 3 : null };
    const want = engine.verdict(c.log, opts);
    const key = hostKey(want.verdict);
    for (const [p, prevKey, prevRuns, treeChanged] of [
      [null, null, 0, undefined],
      [prev?.verdict ?? null, prev?.key ?? null, 1 + (i % 3), i % 2 === 0],
      [want.verdict, key, 4, false],
      [want.verdict, `${key}x`, 4, true],
    ]) {
      const s = engine.stream(opts);
      s.push(c.log);
      const got = s.end({ outcome, prev: p, prevKey, prevRuns, treeChanged });
      assert.equal(got.env.verdict, want.verdict, c.id);
      assert.is(got.key, key, c.id);
      const sameRuns = p === null ? 1 : prevKey === key ? prevRuns + 1 : 1;
      const delta = engine.delta(p, want.verdict, { treeChanged, sameRuns });
      assert.equal(got.delta, delta, c.id);
      assert.is(got.text, engine.render({ ...want, outcome, delta }), c.id);
      n++;
    }
    prev = { verdict: want.verdict, key };
  }
  assert.ok(n >= 4 * 400, `${n} ends`);
});

test.run();
