// sbx-launch --walk (native/walk.c): its fingerprint is sha256 of "rel\0mode:size:mtime_ns\0" for every
// file in byte order of the paths (src/host/state/fingerprint.ts), computed here from lstat: the same
// digest on odd stats (a size past 4 GiB, an mtime before 1970, a mode with setuid), names past one
// SHA-256 block, and a directory whose entries take several getdents64 calls. Past 2 000 entries the
// walk lists and lstat's on several threads: its output is byte-identical to one thread's (--threads 1)
// on trees that cross that threshold, and a tree changing under it does not crash it.
import { createHash } from 'node:crypto';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, closeSync, lstatSync, mkdirSync, openSync, readdirSync, symlinkSync, utimesSync, writeFileSync, ftruncateSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { here, tempDir } from './_helpers.js';

const launcher = join(here, '..', '..', 'build', 'sbx-launch');

/** Every non-directory under dir, relative, as the walk counts them (no skipped names here). */
function files(dir, rel = '') {
  const out = [];
  for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...files(dir, r));
    else out.push(r);
  }
  return out;
}
function expected(dir) {
  const rels = files(dir).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  const h = createHash('sha256');
  for (const r of rels) {
    const s = lstatSync(join(dir, r), { bigint: true });
    h.update(`${r}\0${s.mode}:${s.size}:${s.mtimeNs}\0`);
  }
  return { fp: h.digest('hex').slice(0, 32), n: rels.length };
}
function walk(dir) {
  const r = spawnSync(launcher, ['--walk', dir, '--files', 'walk'], { encoding: 'latin1' });
  assert.is(r.status, 0, r.stderr);
  const recs = r.stdout.split('\0');
  return { fp: recs.find((x) => x.startsWith('F')).slice(1), n: Number(recs.find((x) => x.startsWith('N')).slice(1)) };
}
const CONTROL = ['--control', '.git', '--control', '.claude', '--repo-mark', 'HEAD', '--repo-mark', 'objects', '--repo-mark', 'refs'];
/** The walker's whole output (all records, in its order) with these flags and threads. */
function rawWalk(dir, threads, flags, input) {
  const r = spawnSync(launcher, ['--walk', dir, '--threads', String(threads), ...flags], { encoding: 'latin1', input: input ?? '' });
  assert.is(r.status, 0, r.stderr);
  return r.stdout;
}
/** The same bytes on one thread, on two and on four. */
function sameOnAnyThreads(dir, flags, input, before = () => {}) {
  before();
  const one = rawWalk(dir, 1, flags, input);
  for (const t of [2, 4, 0]) {
    before();
    assert.is(rawWalk(dir, t, flags, input), one, `--threads ${t} ${flags.join(' ')}`);
  }
  return one;
}
/** n files in dirs of 10 (t<k>/s<j>), a symlink every 7, a .claude and a repository-like dir every 500 files. */
function bigTree(n) {
  const dir = tempDir();
  for (let i = 0; i < n; i++) {
    const d = join(dir, `t${Math.floor(i / 300) % 10}`, `s${Math.floor(i / 10)}`);
    if (i % 10 === 0) mkdirSync(d, { recursive: true });
    writeFileSync(join(d, `f${i}`), String(i));
    if (i % 7 === 0) symlinkSync(i % 2 ? `f${i}` : '../nowhere', join(d, `l${i}`));
    if (i % 500 === 0) {
      mkdirSync(join(d, '.claude'));
      writeFileSync(join(d, '.claude', 'settings.json'), '{}');
      for (const m of ['HEAD', 'objects', 'refs']) mkdirSync(join(d, 'repo', m), { recursive: true });
    }
  }
  return dir;
}

test('odd stats: a 5 GiB sparse file, an mtime before 1970 and one far ahead, setuid, a symlink, long names', () => {
  const dir = tempDir();
  mkdirSync(join(dir, 'a/b/c'), { recursive: true });
  const fd = openSync(join(dir, 'a/sparse'), 'w');
  ftruncateSync(fd, 5 * 2 ** 30);
  closeSync(fd);
  writeFileSync(join(dir, 'a/old'), 'x');
  utimesSync(join(dir, 'a/old'), -86400.25, -86400.25);
  writeFileSync(join(dir, 'a/b/future'), 'y');
  utimesSync(join(dir, 'a/b/future'), 4102444800.5, 4102444800.5);
  writeFileSync(join(dir, 'a/b/c/suid'), '');
  chmodSync(join(dir, 'a/b/c/suid'), 0o4755);
  symlinkSync('nowhere', join(dir, 'a/link'));
  writeFileSync(join(dir, `a/b/${'n'.repeat(200)}`), 'z'); // a record past one 64-byte block
  const got = walk(dir);
  assert.equal(got, expected(dir));
});

test('a directory of 6 000 entries with long names (several getdents64 calls) and 300 subdirectories', () => {
  const dir = tempDir();
  for (let i = 0; i < 6000; i++) writeFileSync(join(dir, `file-with-a-rather-long-name-to-fill-the-buffer-${i}.txt`), String(i));
  for (let i = 0; i < 300; i++) {
    mkdirSync(join(dir, `d${i}`));
    writeFileSync(join(dir, `d${i}`, 'f'), '');
  }
  const got = walk(dir);
  assert.is(got.n, 6300);
  assert.equal(got, expected(dir));
});

test('past the threshold (3 000 files and 430 symlinks in 300 dirs, control entries at each level): the same bytes on 1, 2 and 4 threads', () => {
  const dir = bigTree(3000);
  const out = sameOnAnyThreads(dir, ['--files', 'walk', ...CONTROL]);
  assert.ok(out.split('\0').filter((x) => x.startsWith('C')).length >= 12, 'control entries found');
  assert.equal(walk(dir), expected(dir));
  sameOnAnyThreads(dir, ['--files', 'walk', '--skip-dir', 's7', '--top-skip-dir', 't3', ...CONTROL]);
  sameOnAnyThreads(dir, ['--files', 'none', ...CONTROL]);
  // --max below, at and above the count: F- and N<max> past it, whichever thread met which file
  const n = expected(dir).n;
  for (const max of [1, 1000, n - 1, n, n + 1]) {
    const recs = sameOnAnyThreads(dir, ['--files', 'walk', '--max', String(max)]).split('\0');
    assert.is(recs[0] === 'F-', max < n, `--max ${max}`);
    assert.is(recs[1], `N${Math.min(max, n)}`);
  }
});

test('a deep tree (200 levels, 20 files each) and a flat dir of 2 500 files', () => {
  const dir = tempDir();
  let d = dir;
  for (let i = 0; i < 200; i++) {
    d = join(d, `level${i}`);
    mkdirSync(d);
    for (let k = 0; k < 20; k++) writeFileSync(join(d, `f${k}`), '');
    if (i % 50 === 0) mkdirSync(join(d, '.git'));
  }
  mkdirSync(join(dir, 'flat'));
  for (let i = 0; i < 2500; i++) writeFileSync(join(dir, 'flat', `x${i}`), '');
  sameOnAnyThreads(dir, ['--files', 'walk', ...CONTROL]);
  assert.equal(walk(dir), expected(dir));
});

test('--files list past the threshold: the same bytes on any threads, the digest of lstat', () => {
  const dir = bigTree(2600);
  const rels = files(dir).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  const input = [...rels, 'gone/file', 'flat-gone', ''].join('\0');
  const recs = sameOnAnyThreads(dir, ['--files', 'list'], input).split('\0');
  assert.is(recs[0], `F${expected(dir).fp}`);
  assert.is(recs[1], `N${rels.length}`);
});

test("unreadable dirs: the caller's is listed again (u+rx back), the same on any threads", () => {
  const dir = bigTree(2400);
  const shut = ['t0/s5', 't3/s100', 't7/s239'];
  const close = () => shut.forEach((s) => chmodSync(join(dir, s), 0o000));
  const out = sameOnAnyThreads(dir, ['--files', 'walk', ...CONTROL], undefined, close);
  assert.ok(Number(out.split('\0').find((x) => x.startsWith('D')).slice(1)) > 240);
  close();
  sameOnAnyThreads(dir, ['--files', 'walk'], undefined, close); // fingerprint only: not reopened, the same either way
  shut.forEach((s) => chmodSync(join(dir, s), 0o755));
});

test('a tree changing during the walk: every walk ends well-formed, on 1 and 4 threads', async () => {
  const dir = bigTree(3000);
  // Another process adds, removes and renames files and dirs (and swaps a dir for a file) as fast as it can.
  const churn = spawn(process.execPath, ['-e', `
    const fs = require('fs'), p = require('path'), d = process.argv[1];
    for (let i = 0; ; i++) {
      const a = p.join(d, 't' + (i % 10), 'churn' + (i % 50));
      try { fs.mkdirSync(a, { recursive: true }); fs.writeFileSync(p.join(a, 'x'), '1'); } catch {}
      try { fs.rmSync(p.join(d, 't' + ((i + 5) % 10), 'churn' + ((i + 25) % 50)), { recursive: true, force: true }); } catch {}
      try { const s = p.join(d, 't2', 's' + (600 + (i % 300))); fs.renameSync(s, s + '-moved'); fs.renameSync(s + '-moved', s); } catch {}
      try { fs.rmSync(p.join(d, 't0', 'swap'), { recursive: true, force: true }); if (i % 2) fs.mkdirSync(p.join(d, 't0', 'swap')); else fs.writeFileSync(p.join(d, 't0', 'swap'), ''); } catch {}
    }`, dir], { stdio: 'ignore' });
  try {
    await new Promise((r) => setTimeout(r, 100));
    for (let i = 0; i < 30; i++) {
      const recs = rawWalk(dir, i % 2 ? 4 : 1, ['--files', 'walk', ...CONTROL]).split('\0');
      assert.is(recs.pop(), '', 'ends with NUL');
      assert.ok(/^F[0-9a-f]{32}$/.test(recs.find((x) => x[0] === 'F')));
      assert.ok(/^N\d+$/.test(recs.at(-2)) && /^D\d+$/.test(recs.at(-1)), recs.slice(-2).join(' '));
    }
  } finally {
    churn.kill('SIGKILL');
  }
});

test('--threads: 0 to 4, anything else is refused in one line', () => {
  for (const bad of ['5', '-1', 'x', '']) {
    const r = spawnSync(launcher, ['--walk', tempDir(), '--threads', bad], { encoding: 'utf8' });
    assert.is.not(r.status, 0);
    assert.match(r.stderr, /^sbx-launch: --walk: --threads .*: not 0 to 4\n$/);
  }
});

test.run();
