// The Python binding's work_alias (VerdictOptions.workAlias of the Wasm engine, test/engine/work-alias): the
// work dir's host path reads as /work in the verdict, wherever the chunks of a stream cut it; a longer name
// that starts the same is left alone; a set-up error reads so too; the same bytes as Node's engine. And `python -m sbx_engine verdict` finds
// the work dir as `sbx verdict --raw` does (--work, or a log sbx run recorded under WORK/.sbx/logs/).
import { test as uvuTest } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine } from '../../dist/engine.js';
import { ROOT } from '../../fixtures/lib/cases.js';
import { needs } from '../_tools.js';
import { log, errorPlaces as files } from '../helpers/work-alias-log.js';

const test = needs('test/python/work-alias (the Python binding)', ['python3', 'wasm2c'], uvuTest);

const env = { ...process.env, PYTHONPATH: join(ROOT, 'python'), SBX_ENGINE_CACHE: join(ROOT, 'build/py-engine') };
const py = (args, input) => spawnSync('python3', args, { cwd: ROOT, env, input: input === undefined ? undefined : Buffer.from(input), maxBuffer: 64 << 20 });
const engine = await createEngine();
const enc = new TextEncoder();

const LOG = log('/home/u/proj');

// One Python process: the whole log, the same log pushed in chunks of each size, and the non-aliases.
const DRIVER = `
import json, sys
from sbx_engine import Engine
req = json.load(sys.stdin)
e = Engine()
data = req["log"].encode("utf-8")
out = {"whole": e.verdict(data, exit=2, work_alias=req["alias"])["verdict"], "chunks": {}, "none": {}}
for size in req["sizes"]:
    e.begin(exit=2, work_alias=req["alias"])
    for i in range(0, len(data), size):
        e.push(data[i:i + size])
    out["chunks"][str(size)] = e.end()["verdict"]
for alias in req["none"]:
    out["none"][json.dumps(alias)] = e.verdict(data, exit=2, work_alias=alias)["verdict"]
out["setup"] = e.verdict(data, exit=2, work_alias=req["alias"], setup_error=req["setup"])["verdict"]
json.dump(out, sys.stdout)
`;
const SIZES = [1, 2, 3, 5, 7, 11, 13, 64];
const why = (w) => `cannot execute ${w}/bin/tool in the sandbox: its #! line names the interpreter ${w}/.venv/bin/python3, which does not exist there; not /home/u/proj2/x`;
const r = test.skipping ? null : py(['-c', DRIVER], JSON.stringify({ log: LOG, alias: '/home/u/proj', sizes: SIZES, none: [null, '', '/', '/work'], setup: why('/home/u/proj') }));
const out = r?.status === 0 ? JSON.parse(r.stdout.toString()) : null;

test('the Python driver ran', () => {
  assert.ok(out, `python3 exited ${r?.status}: ${r?.stderr}`);
});

test('the alias reads as /work: work-relative in the diagnostics, other paths left as they are; the same bytes as Node', () => {
  assert.equal(files(out.whole), ['src/x.c:2', '/home/u/proj2/src/y.c:3', '/opt/home/u/proj/src/z.c:4']);
  const node = engine.verdict(enc.encode(LOG), { exit: 2, workAlias: '/home/u/proj' }).verdict;
  assert.is(JSON.stringify(out.whole), JSON.stringify(node));
  assert.is(JSON.stringify(out.whole), JSON.stringify(engine.verdict(enc.encode(log('/work')), { exit: 2 }).verdict));
});

test('a stream cut anywhere gives the same verdict as the whole log', () => {
  for (const size of SIZES) assert.is(JSON.stringify(out.chunks[String(size)]), JSON.stringify(out.whole), `chunks of ${size}`);
});

test('no alias, an empty one, / or /work: nothing is rewritten', () => {
  for (const [alias, v] of Object.entries(out.none)) assert.equal(files(v), ['/home/u/proj/src/x.c:2', '/home/u/proj2/src/y.c:3', '/opt/home/u/proj/src/z.c:4'], alias);
});

test('a set-up error reads through the alias as the log does; the same bytes as Node', () => {
  assert.is(out.setup.setup_error, why('/work'));
  const node = engine.verdict(enc.encode(LOG), { exit: 2, workAlias: '/home/u/proj', setupError: why('/home/u/proj') }).verdict;
  assert.is(JSON.stringify(out.setup), JSON.stringify(node));
});

test('python -m sbx_engine verdict finds the work dir as sbx verdict --raw does: --work, or a recorded log; through a symlink too', () => {
  const tmp = realpathSync(mkdtempSync(join(tmpdir(), 'sbx-pyalias-')));
  try {
    const work = join(tmp, 'proj');
    mkdirSync(join(work, '.sbx/logs'), { recursive: true });
    symlinkSync(work, join(tmp, 'link'));
    const recorded = join(work, '.sbx/logs/1.log');
    writeFileSync(recorded, log(work));
    const loose = join(tmp, 'loose.log');
    writeFileSync(loose, log(work));
    const cases = [
      [recorded, []],
      [join(tmp, 'link/.sbx/logs/1.log'), []],
      [loose, ['--work', join(tmp, 'link')]],
      [loose, []],
    ];
    for (const [file, flags] of cases) {
      for (const json of [[], ['--json']]) {
        const p = py(['-m', 'sbx_engine', 'verdict', file, '--exit', '2', ...flags, ...json]);
        const n = spawnSync(process.execPath, [join(ROOT, 'dist/cli.js'), 'verdict', '--raw', file, '--exit', '2', ...flags, ...json], { cwd: ROOT });
        assert.is(p.status, 0, p.stderr.toString());
        assert.is(n.status, 0, n.stderr.toString());
        assert.is(p.stdout.toString(), n.stdout.toString(), `${file} ${flags.join(' ')} ${json.join(' ')}`);
      }
    }
    // The recorded log's error reads work-relative; the loose one without --work keeps the host path.
    const v = (args) => JSON.parse(py(['-m', 'sbx_engine', 'verdict', ...args, '--exit', '2', '--json']).stdout.toString()).verdict;
    assert.is(files(v([recorded]))[0], 'src/x.c:2');
    assert.is(files(v([loose]))[0], `${work}/src/x.c:2`);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});

test.run();
