// sbx-launch --walk (native/walk.c): its fingerprint is sha256 of "rel\0mode:size:mtime_ns\0" for every
// file in byte order of the paths (src/host/state/fingerprint.ts), computed here from lstat: the same
// digest on odd stats (a size past 4 GiB, an mtime before 1970, a mode with setuid), names past one
// SHA-256 block, and a directory whose entries take several getdents64 calls.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
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

test.run();
