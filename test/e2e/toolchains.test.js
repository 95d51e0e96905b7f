// Issue 31 §2: the user's toolchains, not the sandbox's. A home made here holds a pyenv-like and a
// rustup-like layout (real directories, shell scripts for the tools), a venv in the work dir points
// into it, and secrets sit beside them; `sbx run` runs with that HOME and a PATH that puts the toolchains
// first, as a shell set up by pyenv and rustup does. The sandbox must run the user's tools, never show
// a secret, keep caches in the project's own HOME outside the work tree, and say when a tool differs.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { CLI, logText, workDir } from './_helpers.js';

const SYS = '/usr/local/bin:/usr/bin:/bin';

function exe(path, text) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  chmodSync(path, 0o755);
}

// The homes are made under the tester's own home, not /tmp: the sandbox's /tmp is a fresh tmpfs, so a
// toolchain under the host's /tmp could not be shown at its own path.
const homes = [];
process.on('exit', () => { for (const d of homes) { spawnSync('chmod', ['-R', 'u+w', d]); rmSync(d, { recursive: true, force: true }); } });
/** The project HOMEs under dir (each has a `<name>.work` record beside it). */
const homeDirs = (dir) => readdirSync(dir).filter((n) => !n.endsWith('.work'));

/** A fresh caller home with pyenv (python3 9.9.9 behind a shim), rustup (rustc behind a proxy) and secrets. */
function makeHome() {
  const base = mkdtempSync(join(homedir(), '.sbx-tool-test-'));
  homes.push(base);
  const home = join(base, 'home');
  exe(join(home, '.pyenv/versions/9.9.9/bin/python3'), '#!/bin/sh\necho "Python 9.9.9 (the user\'s)"\n');
  // A shim finds its version through PYENV_ROOT, as pyenv's do.
  exe(join(home, '.pyenv/shims/python3'), '#!/bin/sh\nexec "$PYENV_ROOT/versions/9.9.9/bin/python3" "$@"\n');
  exe(join(home, '.rustup/toolchains/fake/bin/rustc'), '#!/bin/sh\necho "rustc 9.99.0 (the user\'s)"\n');
  exe(join(home, '.cargo/bin/rustc'), '#!/bin/sh\nexec "$RUSTUP_HOME/toolchains/fake/bin/rustc" "$@"\n');
  writeFileSync(join(home, '.cargo/credentials.toml'), '[registry]\ntoken = "SECRET-CARGO"\n');
  mkdirSync(join(home, '.ssh'), { recursive: true });
  writeFileSync(join(home, '.ssh/id_ed25519'), 'SECRET-SSH\n');
  exe(join(home, '.ssh/bin/sshtool'), '#!/bin/sh\necho ssh-dir-tool\n');
  mkdirSync(join(home, '.aws'), { recursive: true });
  writeFileSync(join(home, '.aws/credentials'), 'SECRET-AWS\n');
  writeFileSync(join(home, '.bash_history'), 'SECRET-HISTORY\n');
  exe(join(home, 'bin/mine'), '#!/bin/sh\necho home-bin\n');
  exe(join(home, '.local/bin/python3'), '#!/bin/sh\necho "Python 7.7.7 (local)"\n');
  exe(join(home, '.local/bin/onlymine'), '#!/bin/sh\necho mine\n');
  return { base, home, cache: join(base, 'cache') };
}

/** The test's environment without the variables that place toolchains elsewhere (this machine's). */
function callerEnv(home, cache, path, env = {}) {
  const out = { ...process.env, HOME: home, XDG_CACHE_HOME: cache, PATH: path };
  delete out.SBX_HOMES; // this suite checks where the HOMEs go by default (npm test points the others elsewhere)
  for (const k of ['PYENV_ROOT', 'PYENV_VERSION', 'RUSTUP_HOME', 'CARGO_HOME', 'RUSTUP_TOOLCHAIN', 'NVM_DIR', 'GOPATH', 'GOROOT', 'CONDA_PREFIX', 'VIRTUAL_ENV', 'XDG_DATA_HOME']) delete out[k];
  return { ...out, ...env };
}

/** sbx run in work with the caller's HOME, PATH and cache dir as given. */
function sbx(work, cmd, { home, cache, path, env = {}, flags = [] }) {
  const r = spawnSync(process.execPath, [CLI, 'run', '--work', work, '--json', ...flags, '--', ...cmd], { encoding: 'utf8', env: callerEnv(home, cache, path, env) });
  let out;
  try { out = JSON.parse(r.stdout); } catch { throw new Error(`not JSON (exit ${r.status}): ${r.stdout}\n${r.stderr}`); }
  return { code: r.status, env: out, log: logText(out), stderr: r.stderr };
}

const pyenvPath = (home) => `${home}/.pyenv/shims:${home}/.cargo/bin:${SYS}`;

test('python3 and rustc are the user\'s (pyenv shim, rustup proxy), each root bound read-only and recorded', () => {
  const h = makeHome();
  const work = workDir();
  const r = sbx(work, ['sh', '-c', 'python3; rustc; echo "PYENV_ROOT=$PYENV_ROOT CARGO_HOME=$CARGO_HOME"; touch "$PYENV_ROOT/x" 2>/dev/null && echo WROTE; exit 0'], { ...h, path: pyenvPath(h.home) });
  assert.is(r.code, 0, r.log + r.stderr);
  assert.match(r.log, "Python 9.9.9 (the user's)");
  assert.match(r.log, "rustc 9.99.0 (the user's)");
  assert.not.match(r.log, 'WROTE');
  const real = realpathSync(h.home);
  assert.match(r.log, `PYENV_ROOT=${real}/.pyenv CARGO_HOME=/home/sbx/.cargo`);
  assert.equal(r.env.outcome.applied.toolchains, [{ name: 'pyenv', root: `${real}/.pyenv` }, { name: 'rustup', root: `${real}/.rustup` }]);
});

test('a venv in the work dir whose pyvenv.cfg home is a pyenv version runs, with pyenv not on PATH', () => {
  const h = makeHome();
  const work = workDir();
  const bin = join(h.home, '.pyenv/versions/9.9.9/bin');
  mkdirSync(join(work, '.venv/bin'), { recursive: true });
  writeFileSync(join(work, '.venv/pyvenv.cfg'), `home = ${bin}\nversion = 9.9.9\n`);
  symlinkSync(join(bin, 'python3'), join(work, '.venv/bin/python'));
  const r = sbx(work, ['.venv/bin/python'], { ...h, path: SYS });
  assert.is(r.code, 0, r.log + r.stderr);
  assert.match(r.log, "Python 9.9.9 (the user's)");
  assert.equal(r.env.outcome.applied.toolchains.map((t) => t.name), ['pyenv']);
  // A script the venv made on the host names the work dir's host path on its #! line: the sandbox shows it there too.
  exe(join(work, '.venv/bin/pytest'), `#!${realpathSync(work)}/.venv/bin/python\n`);
  const s = sbx(work, ['sh', '-c', '.venv/bin/pytest -q'], { ...h, path: SYS });
  assert.is(s.code, 0, s.log + s.stderr);
  assert.match(s.log, "Python 9.9.9 (the user's)");
  assert.not.match(s.stderr, 'note:');
});

test('no secret is ever shown: ~/.ssh, ~/.aws, ~/.cargo/credentials.toml, history, the home itself', () => {
  const h = makeHome();
  const work = workDir();
  const real = realpathSync(h.home);
  // A PATH entry in ~/.ssh (GOPATH pointed there) and a conda prefix that is the whole home: both refused.
  const env = { GOPATH: join(h.home, '.ssh'), CONDA_PREFIX: h.home };
  const path = `${h.home}/.ssh/bin:${h.home}/bin:${pyenvPath(h.home)}`;
  const probe = `for f in "${real}/.ssh/id_ed25519" "${real}/.aws/credentials" "${real}/.cargo/credentials.toml" "${real}/.bash_history"; do cat "$f" 2>/dev/null; done; ls -A "${real}"; ls -A "${real}/.cargo"`;
  const r = sbx(work, ['sh', '-c', probe], { ...h, path, env });
  assert.not.match(r.log, 'SECRET');
  assert.equal(r.log.trim().split('\n'), ['.cargo', '.pyenv', '.rustup', 'bin']);
  assert.equal(r.env.outcome.applied.toolchains.map((t) => t.name), ['pyenv', 'rustup']);
});

test('caches go to the project\'s own HOME outside the work tree, kept between runs; another project has another', () => {
  const h = makeHome();
  const work = workDir();
  const cmd = ['sh', '-c', 'echo "HOME=$HOME"; cat "$HOME/.cache/tool/seen" 2>/dev/null; mkdir -p "$HOME/.cache/tool" && echo cached > "$HOME/.cache/tool/seen"'];
  const a = sbx(work, cmd, { ...h, path: SYS });
  assert.is(a.code, 0, a.log + a.stderr);
  assert.match(a.log, /^HOME=\/home\/sbx$/m);
  assert.not.match(a.log, 'cached');
  const b = sbx(work, cmd, { ...h, path: SYS });
  assert.match(b.log, /^cached$/m, 'the second run sees the first run\'s cache');
  assert.equal(readdirSync(work).sort(), ['.sbx'], 'nothing in the work tree');
  const homes = join(h.cache, 'sbx', 'home');
  assert.is(homeDirs(homes).length, 1);
  const dir = join(homes, homeDirs(homes)[0]);
  assert.is(a.env.outcome.applied.home, realpathSync(dir));
  assert.ok(existsSync(join(dir, '.cache/tool/seen')));
  const other = sbx(workDir(), cmd, { ...h, path: SYS });
  assert.not.match(other.log, 'cached');
  assert.is(homeDirs(homes).length, 2);
});

test('a cache dir where no directory can be made (under /proc) runs with no kept HOME, never hangs', () => {
  // Node 20's recursive mkdir loops forever on /proc (mkdir answers ENOENT with the parent there).
  const h = makeHome();
  for (const env of [{ SBX_HOMES: '/proc/sbx-test/home' }, {}]) {
    const cache = env.SBX_HOMES ? h.cache : '/proc/sbx-test-cache';
    const r = spawnSync(process.execPath, [CLI, 'run', '--work', workDir(), '--json', '--', 'sh', '-c', 'echo "HOME=$HOME"'], { encoding: 'utf8', timeout: 20_000, killSignal: 'SIGKILL', env: { ...callerEnv(h.home, cache, SYS), ...env } });
    assert.is(r.error, undefined, `sbx run ended (${JSON.stringify(env)})`);
    assert.is(r.status, 0, r.stderr);
    assert.is(JSON.parse(r.stdout).outcome.applied.home ?? null, null, 'no HOME kept');
  }
});

test('a project\'s first run removes the HOMEs of projects that are gone (read-only cache dirs too), keeps the others', () => {
  const h = makeHome();
  const homes = join(h.cache, 'sbx', 'home');
  const cmd = ['sh', '-c', 'mkdir -p "$HOME/go/pkg/mod/x" && echo m > "$HOME/go/pkg/mod/x/f" && chmod 0555 "$HOME/go/pkg/mod/x" "$HOME/go/pkg/mod"'];
  const gone = workDir();
  const kept = workDir();
  for (const w of [gone, kept]) assert.is(sbx(w, cmd, { ...h, path: SYS }).code, 0);
  const before = homeDirs(homes);
  assert.is(before.length, 2);
  rmSync(gone, { recursive: true, force: true });
  assert.is(sbx(kept, ['true'], { ...h, path: SYS }).code, 0, 'a later run of a known project prunes nothing');
  assert.is(homeDirs(homes).length, 2);
  assert.is(sbx(workDir(), ['true'], { ...h, path: SYS }).code, 0);
  const after = homeDirs(homes);
  assert.is(after.length, 2, `the gone project's HOME is removed: ${after}`);
  const keptHome = sbx(kept, ['true'], { ...h, path: SYS }).env.outcome.applied.home;
  assert.ok(after.includes(keptHome.split('/').pop()), 'the kept project keeps its HOME');
  assert.is(readdirSync(homes).filter((n) => n.endsWith('.work')).length, 2, 'one record per HOME');
});

test('a tool the sandbox resolves otherwise, or not at all, is said in a note', () => {
  const h = makeHome();
  const work = workDir();
  const path = `${h.home}/.local/bin:${SYS}`;
  const r = spawnSync(process.execPath, [CLI, 'run', '--work', work, '--', 'onlymine'], { encoding: 'utf8', env: callerEnv(h.home, h.cache, path) });
  assert.is(r.status, 127);
  assert.match(r.stdout + r.stderr, /note: `onlymine` is \S+\/\.local\/bin\/onlymine in your shell, and the sandbox does not show it/);
  if (existsSync('/usr/bin/python3')) {
    const p = sbx(work, ['python3', '-c', 'print(1)'], { ...h, path });
    assert.match(p.stderr, /note: `python3` is \/usr\/(local\/)?bin\/python3 in the sandbox but \S+\/\.local\/bin\/python3 in your shell/);
  }
  // The user's own pyenv python3: the same in both, no note.
  const same = sbx(work, ['python3'], { ...h, path: pyenvPath(h.home) });
  assert.not.match(same.stderr, 'note: `python3`');
});

test('--no-toolchains: the system\'s tools alone', () => {
  const h = makeHome();
  const r = sbx(workDir(), ['sh', '-c', 'echo "PATH=$PATH"; test -e "$HOME/.pyenv" || echo none'], { ...h, path: pyenvPath(h.home), flags: ['--no-toolchains'] });
  assert.equal(r.env.outcome.applied.toolchains, []);
  assert.match(r.log, /^PATH=\/usr\/local\/sbin:\/usr\/local\/bin:\/usr\/sbin:\/usr\/bin:\/sbin:\/bin$/m);
  assert.match(r.log, /^none$/m);
});

test.run();
