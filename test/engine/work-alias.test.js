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
