// The Python binding (python/sbx_engine: build/sbx.wasm compiled by wasm2c, called through ctypes) prints
// what the Node CLI prints, byte for byte: `python -m sbx_engine verdict LOG [--json]` against
// `sbx verdict --raw LOG [--json]` on every fixture (blind ones and JUnit reports included), all in one
// Python process through the CLI's main(); then a few through both real command lines, and bad input.
import { test as uvuTest } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createEngine } from '../../dist/engine.js';
import { listCases, ROOT } from '../../fixtures/lib/cases.js';
import { needs } from '../_tools.js';

// wasm2c (Debian's wabt) and cc build the binding; python3 runs it.
const test = needs('test/python/engine (the Python binding)', ['python3', 'wasm2c'], uvuTest);

const env = { ...process.env, PYTHONPATH: join(ROOT, 'python'), SBX_ENGINE_CACHE: join(ROOT, 'build/py-engine') };
const py = (args, input) => spawnSync('python3', args, { cwd: ROOT, env, input: typeof input === 'string' ? Buffer.from(input) : input, maxBuffer: 256 << 20 });
const engine = await createEngine();

const cases = listCases(join(ROOT, 'fixtures'), { blind: true }).map((c) => {
  const log = relative(ROOT, join(c.dir, 'log.txt'));
  const report = join(c.dir, 'report.xml');
  const flags = [
    ...(c.run.exit !== undefined && c.run.exit !== null ? ['--exit', String(c.run.exit)] : []),
    ...(c.run.signal ? ['--signal', String(c.run.signal)] : []),
    ...(c.run.timed_out ? ['--timed-out'] : []),
    ...(existsSync(report) ? ['--junit', relative(ROOT, report)] : []),
  ];
  return { id: c.id, log, flags, bytes: c.log, run: c.run, report: existsSync(report) ? readFileSync(report) : null };
});

/** What `sbx verdict --raw LOG` prints for a case (its own code path: verdict, JUnit merge, print). */
function nodeOut(c) {
  let e = engine.verdict(c.bytes, { exit: c.run.exit ?? null, signal: c.run.signal ?? null, timedOut: Boolean(c.run.timed_out), log: c.log });
  if (c.report) {
    try { e = engine.mergeJunit(e, c.report); } catch (err) {
      // A report that is not JUnit XML (the fixture junit-pytest-stdout): sbx verdict refuses it, exit 2.
      if (err.code === 'E_JUNIT_INVALID') return { exit: 2 };
      throw err;
    }
  }
  return { json: Buffer.from(`${JSON.stringify(e)}\n`), text: Buffer.from(engine.render(e)) };
}

const r = test.skipping ? null : py([join(ROOT, 'test/python/run_fixtures.py')], JSON.stringify(cases.map((c) => ({ id: c.id, argv: ['verdict', c.log, ...c.flags] }))));
const fromPy = r?.status === 0 ? JSON.parse(r.stdout.toString()) : null;

test('the Python binding ran (wasm2c from Debian\'s wabt, a C compiler, python3)', () => {
  assert.ok(fromPy, `python3 run_fixtures.py exited ${r.status}: ${r.stderr.toString()} (scripts/ci-deps.sh installs wabt)`);
  assert.ok(cases.length > 100);
});

for (const c of cases) {
  test(`Python = Node CLI: ${c.id}`, () => {
    const p = fromPy?.[c.id];
    assert.ok(p, 'no output from Python');
    const n = nodeOut(c);
    if (n.exit !== undefined) {
      assert.is(p.json, `exit ${n.exit}`, 'Python accepted what Node refuses');
      assert.is(p.text, `exit ${n.exit}`, 'Python accepted what Node refuses');
      return;
    }
    assert.is(Buffer.from(p.json, 'base64').toString(), n.json.toString(), '--json differs');
    assert.is(Buffer.from(p.text, 'base64').toString(), n.text.toString(), 'text differs');
    assert.ok(Buffer.from(p.json, 'base64').equals(n.json) && Buffer.from(p.text, 'base64').equals(n.text), 'bytes differ');
  });
}

const sample = ['cfamily/asan-use-after-free-gcc', 'cfamily/cc-many-errors-gcc', 'runners/junit-pytest-fail', 'runners/gtest-segv'];
for (const id of sample) {
  test(`both command lines, byte for byte: ${id}`, () => {
    const c = cases.find((x) => x.id === id);
    assert.ok(c, `no fixture ${id}`);
    for (const json of [[], ['--json']]) {
      const p = py(['-m', 'sbx_engine', 'verdict', c.log, ...c.flags, ...json]);
      const n = spawnSync(process.execPath, [join(ROOT, 'dist/cli.js'), 'verdict', '--raw', c.log, ...c.flags, ...json], { cwd: ROOT });
      assert.is(p.status, 0, p.stderr.toString());
      assert.is(n.status, 0, n.stderr.toString());
      assert.ok(p.stdout.equals(n.stdout), `python -m sbx_engine ${json.join(' ')} differs from sbx verdict:\n${p.stdout}\n---\n${n.stdout}`);
    }
  });
}

test('standard input and an empty log: the same output and the same note', () => {
  const p = py(['-m', 'sbx_engine', 'verdict', '-', '--exit', '0'], Buffer.alloc(0));
  const n = spawnSync(process.execPath, [join(ROOT, 'dist/cli.js'), 'verdict', '--raw', '-', '--exit', '0'], { cwd: ROOT, input: Buffer.alloc(0) });
  assert.ok(p.stdout.equals(n.stdout), `${p.stdout}\n---\n${n.stdout}`);
  assert.is(p.stderr.toString(), n.stderr.toString());
});

test('bad input: one line on stderr, exit 2, no traceback', () => {
  for (const args of [['verdict', 'no/such.log'], ['verdict', 'fixtures', '--json'], ['verdict', join('fixtures/cfamily/cc-many-errors-gcc/log.txt'), '--signal', 'SIGNOPE'], ['verdict', 'x', '--exit', 'one'], ['verdict']]) {
    const p = py(['-m', 'sbx_engine', ...args]);
    const err = p.stderr.toString();
    assert.is(p.status, 2, `${args.join(' ')}: ${err}`);
    assert.is(err.trim().split('\n').length, 1, err);
    assert.not.match(err, /Traceback/);
    assert.match(err, /^sbx: /);
  }
});

test.run();
