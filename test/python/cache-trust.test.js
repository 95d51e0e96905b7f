// Issue 28 item 5: the Python binding dlopens a cached engine whose name anyone can compute
// (sbx-engine-<sha256 of sbx.wasm, sbx_rt.c and $CC>.so). A shared object planted there runs as the
// caller on load. Each row plants one whose constructor writes a marker file, in a cache dir or with a
// mode the binding must not trust, and checks the marker never appears. Before the fix every row
// loaded the plant. Rows that stop at the rebuild run with no wasm2c on PATH (the rebuild fails at once,
// E_NO_WASM2C, instead of compiling for half a minute); one row rebuilds for real.
import { test as uvuTest } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, chownSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { needs } from '../_tools.js';

const test = needs('test/python/cache-trust (the Python binding)', ['python3', 'wasm2c'], uvuTest);

const ROOT = new URL('../../', import.meta.url).pathname;
const WASM = join(ROOT, 'build/sbx.wasm');
const NAME = `sbx-engine-${createHash('sha256').update(Buffer.concat([readFileSync(WASM), readFileSync(join(ROOT, 'python/sbx_engine/sbx_rt.c')), Buffer.from('cc')])).digest('hex').slice(0, 20)}.so`;
const tmp = mkdtempSync(join(tmpdir(), 'sbx-pycache-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));

/** A shared object whose constructor creates the file named by SBX_PLANT_MARKER. */
const evil = join(tmp, 'evil.so');
writeFileSync(join(tmp, 'evil.c'), '#include <stdio.h>\n#include <stdlib.h>\n__attribute__((constructor)) static void planted(void) { const char *m = getenv("SBX_PLANT_MARKER"); FILE *f = m ? fopen(m, "w") : 0; if (f) fclose(f); }\n');
const built = spawnSync('cc', ['-shared', '-fPIC', '-o', evil, join(tmp, 'evil.c')], { encoding: 'utf8' });

/** The python3 binary itself (not a shim that needs a PATH), and a PATH without wasm2c: a rebuild fails at once. */
const PYTHON = test.skipping ? '' : spawnSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).stdout.trim();
const noWasm2c = join(tmp, 'bin');
mkdirSync(noWasm2c);

let n = 0;
/** Engine() in a fresh python3 with this cache dir; whether the plant ran. */
function load(cache, { path = noWasm2c } = {}) {
  const marker = join(tmp, `marker-${n++}`);
  const env = { ...process.env, PYTHONPATH: join(ROOT, 'python'), SBX_ENGINE_CACHE: cache, SBX_PLANT_MARKER: marker, PATH: path };
  delete env.CC;
  const r = spawnSync(PYTHON, ['-c', 'from sbx_engine import Engine; e = Engine(); print(e.verdict(b"ok\\n", exit=0)["verdict"]["status"])'], { env, encoding: 'utf8', timeout: 600_000 });
  return { ...r, planted: existsSync(marker) };
}

/** A cache dir with the plant under the engine's name. */
function planted(mode, fileMode = 0o755) {
  const d = mkdtempSync(join(tmp, 'cache-'));
  chmodSync(d, mode);
  copyFileSync(evil, join(d, NAME));
  chmodSync(join(d, NAME), fileMode);
  return d;
}

test('the probe is real: a cached object in a private dir is loaded (here, the plant)', () => {
  assert.is(built.status, 0, built.stderr);
  const r = load(planted(0o700));
  assert.ok(r.planted, `the plant did not run at all: the rows below test nothing\n${r.stderr}`);
});

test('a world-writable cache dir: nothing in it is loaded; the engine is rebuilt elsewhere', () => {
  const r = load(planted(0o777));
  assert.not.ok(r.planted, 'the planted .so in a 0777 cache dir ran');
  assert.match(r.stderr, /is group- or world-writable \(mode 0777\): nothing is loaded from it/);
  assert.match(r.stderr, /wasm2c not found/, 'it went on to rebuild');
});

test('a group-writable cache dir is refused as well', () => {
  const r = load(planted(0o770));
  assert.not.ok(r.planted);
  assert.match(r.stderr, /mode 0770/);
});

test('a cache dir owned by someone else is refused (root only: chown)', () => {
  if (process.getuid() !== 0) return;
  const d = planted(0o755);
  chownSync(d, 65534, 65534);
  chownSync(join(d, NAME), 65534, 65534);
  const r = load(d);
  assert.not.ok(r.planted);
  assert.match(r.stderr, /is owned by uid 65534, not by you/);
});

test('a group- or world-writable object, or one that is a symlink, is not loaded but rebuilt', () => {
  for (const [what, make] of [
    ['mode 0666', () => planted(0o700, 0o666)],
    ['mode 0775', () => planted(0o700, 0o775)],
    ['a symlink', () => {
      const d = mkdtempSync(join(tmp, 'cache-'));
      chmodSync(d, 0o700);
      symlinkSync(evil, join(d, NAME));
      return d;
    }],
  ]) {
    const r = load(make());
    assert.not.ok(r.planted, `${what}: the plant ran`);
    assert.match(r.stderr, /not loaded; rebuilding it/, what);
  }
});

test('a rebuilt object replaces the plant, loads, and is the caller\'s with mode 0755; a missing cache dir is made 0700', () => {
  const d = planted(0o700, 0o666);
  const r = load(d, { path: process.env.PATH });
  assert.not.ok(r.planted);
  assert.is(r.status, 0, r.stderr);
  assert.is(r.stdout.trim(), 'pass');
  assert.is(statSync(join(d, NAME)).mode & 0o777, 0o755);
  // Now trusted: loaded again as it is, nothing built.
  const again = load(d);
  assert.is(again.status, 0, again.stderr);
  assert.not.match(again.stderr, /compiling/);
  const fresh = join(tmp, 'new', 'cache');
  const made = load(fresh);
  assert.match(made.stderr, /wasm2c not found/);
  assert.is(statSync(fresh).mode & 0o777, 0o700);
});

test.run();
