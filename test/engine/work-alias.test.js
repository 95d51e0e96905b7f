// VerdictOptions.workAlias: the work dir's host path, which the sandbox shows besides /work, reads as /work
// in the verdict, wherever the chunks of a stream cut it; a longer name that starts the same is left alone.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createEngine } from '../../dist/engine.js';
import { log, errorPlaces } from '../helpers/work-alias-log.js';

const engine = await createEngine();
const enc = new TextEncoder();
const LOG = log('/home/u/proj');
const opts = { exit: 2, workAlias: '/home/u/proj' };
const files = (env) => errorPlaces(env.verdict);

test('the alias reads as /work: work-relative in the diagnostics, other paths left as they are', () => {
  const env = engine.verdict(enc.encode(LOG), opts);
  assert.equal(files(env), ['src/x.c:2', '/home/u/proj2/src/y.c:3', '/opt/home/u/proj/src/z.c:4']);
  const atWork = engine.verdict(enc.encode(log('/work')), { exit: 2 });
  assert.equal(env.verdict, atWork.verdict);
});

test('a stream cut anywhere gives the same verdict as the whole log', () => {
  const whole = JSON.stringify(engine.verdict(enc.encode(LOG), opts).verdict);
  const bytes = enc.encode(LOG);
  for (const size of [1, 2, 3, 5, 7, 11, 13, 64]) {
    const s = engine.stream(opts);
    for (let i = 0; i < bytes.length; i += size) s.push(bytes.subarray(i, i + size));
    assert.is(JSON.stringify(s.end().verdict), whole, `chunks of ${size}`);
  }
});

test('a stream cut at random, the path dense and half-written, gives the whole log\'s verdict', () => {
  // The rewriter holds back only a tail that may start the path and reads a held tail with the next
  // chunk's first bytes (src/engine/work-alias.ts): cuts inside, before and after each, many at once.
  const w = '/home/u/proj';
  const bits = [`${w}/src/x.c:2:10: error: a\n`, `${w}${w}/y.c:3:1: error: b\n`, `/opt${w}/z.c:4:1: error: c\n`, `${w}2/q.c:5:1: error: d\n`, w.slice(0, 7), '/', `'${w}'\n`, `${w}/é.c:6:1: error: e\n`];
  let seed = 7;
  const rnd = (k) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % k);
  for (let t = 0; t < 200; t++) {
    let text = '';
    for (let i = rnd(60); i > 0; i--) text += bits[rnd(bits.length)];
    const bytes = enc.encode(`${text}\n`);
    const whole = JSON.stringify(engine.verdict(bytes, opts).verdict);
    const s = engine.stream(opts);
    for (let i = 0; i < bytes.length; ) {
      const k = 1 + rnd(rnd(2) ? 16 : 200);
      s.push(bytes.subarray(i, i + k));
      i += k;
    }
    assert.is(JSON.stringify(s.end().verdict), whole, `input ${t}`);
  }
});

test('no alias, / or /work: nothing is rewritten', () => {
  for (const workAlias of [null, undefined, '/', '/work']) {
    const env = engine.verdict(enc.encode(LOG), { exit: 2, workAlias });
    assert.equal(files(env), ['/home/u/proj/src/x.c:2', '/home/u/proj2/src/y.c:3', '/opt/home/u/proj/src/z.c:4']);
  }
});

test("a set-up error reads through the alias as the log does (whole names only)", () => {
  const why = (w) => `cannot execute ${w}/bin/tool in the sandbox: its #! line names the interpreter ${w}/.venv/bin/python3, which does not exist there; not /home/u/proj2/x nor /opt/home/u/proj`;
  const v = engine.verdict(enc.encode(LOG), { ...opts, setupError: why('/home/u/proj') }).verdict;
  assert.is(v.setup_error, why('/work'));
  assert.is(engine.verdict(enc.encode(LOG), { exit: 2, setupError: why('/home/u/proj') }).verdict.setup_error, why('/home/u/proj'));
  const s = engine.stream({ ...opts, setupError: why('/home/u/proj') });
  s.push(enc.encode(LOG));
  assert.is(s.end().verdict.setup_error, why('/work'));
});

test.run();
