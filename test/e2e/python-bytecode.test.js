// Python's bytecode written by a sandboxed run stays out of the work tree (issue 29): a .pyc made inside
// names /work/... (its co_filename), and pytest's rewritten test modules keep that name, so a later pytest
// on the host printed `/work/tests/test_x.py:3: ???` for the project's own file. The sandbox keeps its
// bytecode under its HOME (PYTHONPYCACHEPREFIX): no __pycache__ in the tree, the cache still used by the
// next run, and the caller's own PYTHONPYCACHEPREFIX / PYTHONDONTWRITEBYTECODE win.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, logText, sbxRun, workDir } from './_helpers.js';

const PY = '/usr/bin/python3';
const have = existsSync(PY);
const hasPytest = have && spawnSync(PY, ['-c', 'import pytest'], { stdio: 'ignore' }).status === 0;
const files = {
  'mod.py': 'def f():\n    raise ValueError("boom")\n',
  'tests/test_x.py': 'import mod\n\ndef test_f():\n    mod.f()\n',
};

/** Every file under dir whose name ends with ext (paths relative to dir). */
function find(dir, ext, rel = '') {
  const out = [];
  for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...find(dir, ext, r));
    else if (e.name.endsWith(ext)) out.push(r);
  }
  return out;
}

/** The co_filename of every .pyc in the tree that names the sandbox's /work (none when the tree is true). */
function poisoned(dir) {
  const code = 'import marshal,sys\nfor p in sys.argv[1:]:\n  c = marshal.loads(open(p,"rb").read()[16:])\n  if c.co_filename.startswith("/work/"): print(p, c.co_filename)\n';
  const pycs = find(dir, '.pyc').map((p) => join(dir, p));
  return pycs.length ? spawnSync(PY, ['-c', code, ...pycs], { encoding: 'utf8' }).stdout.trim() : '';
}

/** The host's own environment for Python: no prefix, bytecode written (as a user's shell would have it). */
function hostEnv() {
  const { PYTHONDONTWRITEBYTECODE: _d, PYTHONPYCACHEPREFIX: _p, ...env } = process.env;
  return env;
}

test('python3 in the sandbox writes no __pycache__ into the work dir; the next run uses the cache under HOME', () => {
  if (!have) return console.log(`  skipped: no ${PY}`);
  const dir = workDir(files);
  const a = sbxRun(dir, [PY, '-c', 'import mod']);
  assert.is(a.verdict.status, 'pass', a.why());
  assert.equal(find(dir, '__pycache__').concat(find(dir, '.pyc')), [], 'bytecode written into the work tree');
  assert.is(poisoned(dir), '');
  const home = a.env.outcome.applied.home;
  assert.ok(home, 'a sandbox HOME is kept');
  const cache = join(home, '.cache/sbx-pycache/work');
  const pyc = existsSync(cache) ? readdirSync(cache).find((n) => n.startsWith('mod.') && n.endsWith('.pyc')) : undefined;
  assert.ok(pyc, `no mod.*.pyc under ${cache}`);
  const mtime = statSync(join(cache, pyc)).mtimeMs;
  // The second run reads that .pyc (python -v names where each code object came from) and leaves it as is.
  const b = sbxRun(dir, ['sh', '-c', `${PY} -v -c 'import mod' 2>&1 | grep 'code object from.*mod\\.'`]);
  assert.is(b.verdict.status, 'pass', b.why());
  assert.match(logText(b.env), `code object from '/home/sbx/.cache/sbx-pycache/work/${pyc}'`);
  assert.is(statSync(join(cache, pyc)).mtimeMs, mtime, 'the cached .pyc was rewritten');
  assert.equal(find(dir, '.pyc'), []);
});

test('with no HOME kept (its cache dir cannot be made), none is written and the tree stays true', () => {
  if (!have) return console.log(`  skipped: no ${PY}`);
  const dir = workDir(files);
  const env = { ...process.env, SBX_HOMES: '/proc/sbx-test/home' };
  const r = spawnSync(process.execPath, [CLI, 'run', '--work', dir, '--json', '--', PY, '-c', 'import mod'], { encoding: 'utf8', timeout: 60_000, env });
  assert.is(r.status, 0, r.stdout + r.stderr);
  assert.is(JSON.parse(r.stdout).outcome.applied.home ?? null, null, 'no HOME kept');
  assert.equal(find(dir, '.pyc'), [], 'bytecode written into the work tree');
});

test('pytest on the host after pytest in the sandbox names the host path, with its source line', () => {
  if (!hasPytest) return console.log(`  skipped: no pytest for ${PY}`);
  const dir = workDir(files);
  const a = sbxRun(dir, [PY, '-m', 'pytest', '-q', '-p', 'no:cacheprovider', 'tests']);
  assert.is(a.verdict.status, 'tests-failed', a.why());
  assert.is(poisoned(dir), '', 'a .pyc in the tree names /work');
  const h = spawnSync(PY, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', '--color=no', '--rootdir', dir, 'tests'], { cwd: dir, encoding: 'utf8', env: hostEnv() });
  assert.is(h.status, 1, h.stdout + h.stderr);
  assert.not.match(h.stdout, /\/work\/tests/, h.stdout);
  assert.match(h.stdout, /^tests\/test_x\.py:4: ?$/m, h.stdout);
  assert.match(h.stdout, />\s+mod\.f\(\)/, 'the source line is shown');
});

test('the caller\'s PYTHONDONTWRITEBYTECODE and PYTHONPYCACHEPREFIX win', () => {
  if (!have) return console.log(`  skipped: no ${PY}`);
  const dir = workDir(files);
  const off = sbxRun(dir, [PY, '-c', 'import sys, mod; print("prefix", sys.pycache_prefix)'], { flags: ['--env', 'PYTHONDONTWRITEBYTECODE=1'] });
  assert.is(off.verdict.status, 'pass', off.why());
  assert.match(logText(off.env), 'prefix None');
  assert.equal(find(dir, '.pyc'), []);
  const own = sbxRun(dir, [PY, '-c', 'import sys, mod; print("prefix", sys.pycache_prefix)'], { flags: ['--env', 'PYTHONPYCACHEPREFIX=/tmp/mine'] });
  assert.is(own.verdict.status, 'pass', own.why());
  assert.match(logText(own.env), 'prefix /tmp/mine');
  // Empty: the caller asks for Python's default, __pycache__ beside the sources.
  const tree = sbxRun(dir, [PY, '-c', 'import mod'], { flags: ['--env', 'PYTHONPYCACHEPREFIX='] });
  assert.is(tree.verdict.status, 'pass', tree.why());
  assert.equal(find(dir, '.pyc').length, 1, 'the caller asked for __pycache__ in the tree');
});

test.run();
