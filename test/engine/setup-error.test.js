// A run whose set-up failed (sbx's own error, before the command ran) is the engine's to call: given
// setupError, the verdict's status is setup-failed and setup_error that message, whatever the log says,
// and nothing else in the verdict changes (but the log's missing_library, which that error replaces). The same through the Python binding, byte for byte.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { createEngine } from '../../dist/engine.js';
import { listCases, ROOT } from '../../fixtures/lib/cases.js';
import { needs } from '../_tools.js';

const engine = await createEngine();
const cases = listCases();
const WHY = 'cannot create the sandbox: user namespaces are disabled (kernel.unprivileged_userns_clone=0) — ünïcode kept';
const opts = (c) => ({ exit: c.run.exit ?? null, signal: c.run.signal ?? null, timedOut: Boolean(c.run.timed_out), log: 'log.txt' });

for (const c of cases) {
  test(`setup error decided by the engine: ${c.id}`, () => {
    const plain = engine.verdict(c.log, opts(c)).verdict;
    const failed = engine.verdict(c.log, { ...opts(c), setupError: WHY }).verdict;
    assert.is(failed.status, 'setup-failed');
    assert.is(failed.setup_error, WHY);
    // sbx's own set-up error is the cause: a missing library the log names is not (the command never ran).
    assert.not.ok('missing_library' in failed, 'no missing_library beside sbx\'s own setup error');
    const same = { ...failed, status: plain.status, setup_error: plain.setup_error };
    if ('missing_library' in plain) same.missing_library = plain.missing_library;
    assert.equal(same, plain, 'only status, setup_error (and missing_library) change');
  });
}

test('a stream given a setup error says so too; without one the log decides', () => {
  const c = cases.find((x) => x.id.includes('asan'));
  const s = engine.stream({ ...opts(c), setupError: 'launcher missing' });
  s.push(c.log);
  const v = s.end().verdict;
  assert.is(v.status, 'setup-failed');
  assert.is(v.setup_error, 'launcher missing');
  assert.is.not(engine.verdict(c.log, opts(c)).verdict.status, 'setup-failed');
});

needs('test/engine/setup-error: the Python binding', ['python3', 'wasm2c'], test)('Python binding = Node with a setup error', () => {
  const pick = cases.filter((_, i) => i % 25 === 0);
  const script = `
import json, sys
from sbx_engine import Engine, to_json
e = Engine()
out = {}
for c in json.load(sys.stdin):
    env = e.verdict(open(c["path"], "rb").read(), exit=c["exit"], signal=c["signal"], timed_out=c["timed_out"], log="log.txt", setup_error=c["why"])
    out[c["id"]] = to_json(env)
print(json.dumps(out))
`;
  const input = pick.map((c) => ({ id: c.id, path: join(c.dir, 'log.txt'), exit: c.run.exit ?? null, signal: c.run.signal ?? null, timed_out: Boolean(c.run.timed_out), why: WHY }));
  const env = { ...process.env, PYTHONPATH: join(ROOT, 'python'), SBX_ENGINE_CACHE: join(ROOT, 'build/py-engine') };
  const r = spawnSync('python3', ['-c', script], { cwd: ROOT, env, input: JSON.stringify(input), maxBuffer: 64 << 20 });
  assert.is(r.status, 0, r.stderr.toString());
  const got = JSON.parse(r.stdout.toString());
  for (const c of pick) assert.is(got[c.id], JSON.stringify(engine.verdict(c.log, { ...opts(c), setupError: WHY })), c.id);
});

test.run();
