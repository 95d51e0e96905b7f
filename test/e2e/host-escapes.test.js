// Issue 15, the host's part: sandboxed code plants something in /work on one run, and the next run's
// host-side TypeScript (git for the fingerprint, state writes, the work path, bind destinations) must
// not act on it. Each row fails on the code before the fix; all run as root and as an ordinary user.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, ROOT, workDir, sbxRun, logText } from './_helpers.js';
import { needs } from '../_tools.js';

const gitTest = needs('test/e2e/host-escapes: git repositories', ['git'], test);

const cli = (args) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });

gitTest('a repository config with core.fsmonitor never runs on the host (the fingerprint runs git there)', () => {
  const dir = workDir({ 'a.c': 'int main(void) { return 0; }\n' });
  const marker = join(workDir({}, 'sbx-host-marker-'), 'fsmonitor-ran');
  // A run can no longer plant it (a new .git is quarantined: host-escapes-git.test.js); a repository
  // cloned with one, or planted before that fix, is what the fingerprint's git must still not obey.
  spawnSync('sh', ['-c', `git init -q . && git config core.fsmonitor "touch ${marker}; false"`], { cwd: dir });
  // The probe is real: git itself runs it when asked without sbx's flags.
  spawnSync('git', ['ls-files'], { cwd: dir });
  const armed = existsSync(marker);
  spawnSync('rm', ['-f', marker]);
  assert.ok(armed, 'git did not run core.fsmonitor at all: the probe tests nothing');
  for (let i = 0; i < 2; i++) {
    const r = sbxRun(dir, ['true']);
    assert.is(r.code, 0, r.why());
  }
  assert.not.ok(existsSync(marker), 'core.fsmonitor ran on the host');
});

gitTest('.git is read-only inside (config, hooks, index: issue 28): no hook or config for the host\'s next git', () => {
  const dir = workDir({ 'a.txt': 'x\n' });
  spawnSync('git', ['init', '-q', dir]);
  const r = sbxRun(dir, ['sh', '-c', 'echo "#!/bin/sh" > /work/.git/hooks/pre-commit && echo HOOK; git config core.pager evil && echo CONFIG; git add a.txt && echo ADDED; git status --short && echo STATUS']);
  const out = logText(r.env);
  assert.not.match(out, /HOOK|CONFIG|ADDED/, out);
  assert.match(out, /\?\? a\.txt\nSTATUS/, 'git still reads the repository inside');
  assert.not.ok(existsSync(join(dir, '.git/hooks/pre-commit')));
  assert.not.match(readFileSync(join(dir, '.git/config'), 'utf8'), 'evil');
});

test('a planted sub/.sbx symlink: sbx refuses the state dir and writes nothing through it', () => {
  const dir = workDir({});
  const target = workDir({}, 'sbx-host-target-');
  sbxRun(dir, ['sh', '-c', `mkdir -p /work/sub && ln -s ${target} /work/sub/.sbx`]);
  const r = cli(['run', '--work', join(dir, 'sub'), '--', 'true']);
  assert.is(r.status, 77, r.stderr);
  assert.match(r.stderr, /state directory .* is a symlink/);
  assert.equal(readdirSync(target), []);
});

test('a symlinked .sbx/history.jsonl or .sbx/last.json is not written through; the verdict still prints', () => {
  const dir = workDir({});
  const victim = join(workDir({}, 'sbx-host-target-'), 'bashrc');
  writeFileSync(victim, 'export PS1=x\n');
  mkdirSync(join(dir, '.sbx/logs'), { recursive: true });
  symlinkSync(victim, join(dir, '.sbx/history.jsonl'));
  symlinkSync(victim, join(dir, '.sbx/last.json'));
  const r = sbxRun(dir, ['echo', 'hi']);
  assert.is(r.code, 0, r.why());
  assert.is(r.verdict.status, 'pass');
  assert.is(readFileSync(victim, 'utf8'), 'export PS1=x\n', 'the symlink target was written');
});

test('a symlinked .sbx/logs is refused', () => {
  const dir = workDir({});
  const target = workDir({}, 'sbx-host-target-');
  mkdirSync(join(dir, '.sbx'));
  symlinkSync(target, join(dir, '.sbx/logs'));
  const r = cli(['run', '--work', dir, '--', 'true']);
  assert.is(r.status, 77, r.stderr);
  assert.match(r.stderr, /is a symlink/);
  assert.equal(readdirSync(target), []);
});

test('a symlink planted in /work and then passed as --work does not mount its target', () => {
  const dir = workDir({});
  const secret = workDir({ 'id_rsa': 'PRIVATE\n' }, 'sbx-host-secret-');
  sbxRun(dir, ['ln', '-s', secret, '/work/proj']);
  const r = cli(['run', '--work', join(dir, 'proj'), '--', 'sh', '-c', 'cat /work/id_rsa; echo pwned > /work/id_rsa']);
  assert.is(r.status, 77, r.stdout + r.stderr);
  assert.match(r.stderr, 'crosses the symlink');
  assert.is(readFileSync(join(secret, 'id_rsa'), 'utf8'), 'PRIVATE\n');
  assert.not.ok(existsSync(join(secret, '.sbx')));
});

test('a bind destination under a symlink planted in /work creates nothing on the host', () => {
  const dir = workDir({});
  const host = workDir({}, 'sbx-host-etc-');
  sbxRun(dir, ['ln', '-s', `../../oldroot${host}`, '/work/.cache']);
  const src = workDir({ 'p.conf': 'x\n' });
  const r = sbxRun(dir, ['true'], { flags: ['--bind', `${src}:/work/.cache/pip`] });
  assert.is(r.verdict.status, 'setup-failed', r.why());
  assert.match(r.verdict.setup_error, 'symlink');
  assert.equal(readdirSync(host), []);
});

test('a work dir that contains sbx itself is refused', () => {
  const r = cli(['run', '--work', ROOT, '--', 'true']);
  assert.is(r.status, 77, r.stdout + r.stderr);
  assert.match(r.stderr, 'contains sbx itself');
});

test('sbx started through a link inside the work dir (node_modules/.bin/sbx) is refused', () => {
  const dir = workDir({});
  mkdirSync(join(dir, 'node_modules/.bin'), { recursive: true });
  symlinkSync(CLI, join(dir, 'node_modules/.bin/sbx'));
  const r = spawnSync(process.execPath, [join(dir, 'node_modules/.bin/sbx'), 'run', '--work', dir, '--', 'true'], { encoding: 'utf8' });
  assert.is(r.status, 77, r.stdout + r.stderr);
  assert.match(r.stderr, 'inside the work dir');
});

test.run();
