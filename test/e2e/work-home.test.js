// `sbx run` and run() refuse a work dir that is `/`, the caller's home directory or a directory above it:
// the sandbox writes its work dir, and the host runs ~/.bashrc, ~/.profile, ~/.config/autostart later.
// --allow-home-work (allowHomeWork: true) is the way to mean it. Nothing runs and nothing is written
// when refused: no .sbx state, no file the command would have made.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { CLI, ROOT, workDir } from './_helpers.js';

const base = workDir();
const home = join(base, 'home');
mkdirSync(join(home, 'proj'), { recursive: true });
symlinkSync(home, join(base, 'home-link'));
const append = ['sh', '-c', 'echo pwned >> .bashrc'];

/** sbx run with HOME set to env HOME (the rest of the environment as is). */
function sbx(args, { HOME = home, cwd = base } = {}) {
  return spawnSync(process.execPath, [CLI, 'run', ...args], { encoding: 'utf8', cwd, env: { ...process.env, HOME } });
}

/** Refused: exit 77, one line naming the flag, nothing ran and nothing was written in dir. */
function refused(r, dir, re) {
  assert.is(r.status, 77, `exit ${r.status}\n${r.stdout}\n${r.stderr}`);
  assert.match(r.stderr, re);
  assert.match(r.stderr, /--allow-home-work/);
  assert.is(r.stderr.trim().split('\n').length, 1, r.stderr);
  assert.is(r.stdout, '');
  assert.not.ok(existsSync(join(dir, '.bashrc')), 'the command ran');
  assert.not.ok(existsSync(join(dir, '.sbx')), 'state was written');
}

test('--work $HOME is refused (exit 77), and so is . when the current dir is $HOME', () => {
  refused(sbx(['--work', home, '--', ...append]), home, /^sbx: work dir \S+ is your home directory: /);
  refused(sbx(['--', ...append], { cwd: home }), home, /is your home directory/);
});

test('by real path: a $HOME that is a symlink to the work dir', () => {
  refused(sbx(['--work', home, '--', ...append], { HOME: join(base, 'home-link') }), home, /is your home directory/);
});

test('a directory above $HOME is refused too (it holds the home)', () => {
  refused(sbx(['--work', home, '--', ...append], { HOME: join(home, 'proj') }), home, /is a directory above your home directory/);
});

test('/ is refused as the root directory', () => {
  const state = workDir();
  const r = sbx(['--work', '/', '--state', state, '--', 'true']);
  assert.is(r.status, 77, r.stderr);
  assert.match(r.stderr, /^sbx: work dir \/ is the root directory: .*--allow-home-work/);
});

test('the password database\'s home counts when $HOME says otherwise', () => {
  const pw = userInfo().homedir;
  if (!pw || pw === '/' || !existsSync(pw)) return; // no entry, or a home that is / (covered above)
  const state = workDir();
  const r = sbx(['--work', pw, '--state', state, '--', 'true'], { HOME: home });
  assert.is(r.status, 77, r.stderr);
  assert.match(r.stderr, /is your home directory/);
});

test('a project below $HOME runs; --allow-home-work runs in $HOME itself', () => {
  const sub = sbx(['--work', join(home, 'proj'), '--', ...append]);
  assert.is(sub.status, 0, sub.stderr);
  assert.is(readFileSync(join(home, 'proj', '.bashrc'), 'utf8'), 'pwned\n');
  const r = sbx(['--work', home, '--allow-home-work', '--', ...append]);
  assert.is(r.status, 0, r.stderr);
  assert.is(readFileSync(join(home, '.bashrc'), 'utf8'), 'pwned\n');
});

test('run() (the library) refuses it with E_WORK_HOME unless allowHomeWork', async () => {
  const other = workDir();
  const { run } = await import(join(ROOT, 'dist/index.js'));
  const saved = process.env.HOME;
  process.env.HOME = other;
  try {
    let err = null;
    await run({ cmd: append, work: other }).catch((e) => { err = e; });
    assert.ok(err, 'run() resolved');
    assert.is(err.code, 'E_WORK_HOME');
    assert.not.ok(existsSync(join(other, '.bashrc')));
    const env = await run({ cmd: append, work: other, allowHomeWork: true });
    assert.is(env.verdict.status, 'pass');
    assert.is(readFileSync(join(other, '.bashrc'), 'utf8'), 'pwned\n');
  } finally {
    process.env.HOME = saved;
  }
});

test.run();
