// The state directory's lock (src/host/state/lock.ts): a hard link to the holder's own lock.<pid>;
// one holder at a time, a dead holder's lock broken, nothing of a process left once it has exited.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { existsSync, linkSync, mkdirSync, mkdtempSync, rmSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../../fixtures/lib/cases.js';

const { build } = await import('esbuild');
const out = join(mkdtempSync(join(tmpdir(), 'sbx-lock-')), 'lock.mjs');
const bundled = await build({ entryPoints: [join(ROOT, 'src/host/state/lock.ts')], bundle: true, platform: 'node', format: 'esm', write: false, logLevel: 'silent' });
writeFileSync(out, bundled.outputFiles[0].text);
const { lock } = await import(out);
const fresh = () => mkdtempSync(join(tmpdir(), 'sbx-lockdir-'));

/** A pid that is surely not running: a child that has exited and been reaped. */
const deadPid = () => spawnSync('sh', ['-c', 'echo $$'], { encoding: 'utf8' }).stdout.trim();

test('the lock is a hard link to this process\'s lock.<pid>, and the second taker waits for the first', async () => {
  const dir = fresh();
  const path = join(dir, 'lock');
  const unlock = await lock(path);
  const own = join(dir, `lock.${process.pid}`);
  assert.ok(existsSync(own));
  assert.is(statSync(path).ino, statSync(own).ino);
  let second = false;
  const p = lock(path).then((u) => { second = true; return u; });
  await new Promise((r) => setTimeout(r, 60));
  assert.is(second, false, 'taken twice');
  await unlock();
  const u2 = await p;
  assert.is(second, true);
  await u2();
  assert.not.ok(existsSync(path));
});

test('the state dir removed and made again under a long-lived process: its next lock makes lock.<pid> anew', async () => {
  // The resident sbx keeps its lock.<pid> per state dir; a user's `rm -rf .sbx` took it away, and every
  // later run of that work dir went unrecorded (link: ENOENT) until the resident sbx exited.
  const dir = fresh();
  const path = join(dir, 'lock');
  await (await lock(path))();
  rmSync(dir, { recursive: true });
  mkdirSync(dir);
  const unlock = await lock(path);
  assert.is(statSync(path).ino, statSync(join(dir, `lock.${process.pid}`)).ino);
  await unlock();
});

test('a lock whose holder is dead is broken: a link to its file, or an older sbx\'s symlink', async () => {
  for (const plant of ['link', 'symlink']) {
    const dir = fresh();
    const pid = deadPid();
    const theirs = join(dir, `lock.${pid}`);
    writeFileSync(theirs, `${pid}\n`);
    if (plant === 'link') linkSync(theirs, join(dir, 'lock')); else symlinkSync(pid, join(dir, 'lock'));
    const started = Date.now();
    const unlock = await lock(join(dir, 'lock'));
    assert.ok(Date.now() - started < 2000, plant);
    await unlock();
    // The dead process's own file goes too (this process's file was made after it).
    assert.not.ok(existsSync(theirs), `${plant}: ${readdirSync(dir)}`);
  }
});

test('a process that took the lock leaves nothing once it has exited', () => {
  const dir = fresh();
  const js = `const { lock } = await import(${JSON.stringify(out)}); const u = await lock(${JSON.stringify(join(dir, 'lock'))}); await u();`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', js], { encoding: 'utf8' });
  assert.is(r.status, 0, r.stderr);
  assert.equal(readdirSync(dir), []);
});

test('takers in one process get the lock in the order they asked, each as the one before lets it go', async () => {
  // B asks while A holds it and polls; C asks later, while A still holds it. Polling, C's shorter
  // first wait let it take the lock before B (the resident sbx's runs of one dir waited on each other's sleeps).
  const dir = fresh();
  const path = join(dir, 'lock');
  const order = [];
  const unlockA = await lock(path);
  const b = lock(path).then((u) => { order.push('B'); return u; });
  await new Promise((r) => setTimeout(r, 45));
  const c = lock(path).then((u) => { order.push('C'); return u; });
  await new Promise((r) => setTimeout(r, 10));
  await unlockA();
  const ub = await b;
  await new Promise((r) => setTimeout(r, 30));
  assert.equal(order, ['B'], 'C took the lock while B held it, or before B');
  await ub();
  await (await c)();
  assert.equal(order, ['B', 'C']);
  assert.not.ok(existsSync(path));
});

test.run();
