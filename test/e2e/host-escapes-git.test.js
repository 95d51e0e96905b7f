// Issue 28, items 1, 2, 7 and 8: nothing a run writes may become configuration or code that git, an
// agent client or sbx later obeys on the host. git state at any depth (the top .git whole, submodules'
// gitdirs and gitfiles, a gitlink added to the index, nested and bare-looking repositories, the config a
// repository includes from the tree, its core.hooksPath), the clients' settings at any depth, a nested
// project's .sbx, and --no-seccomp as root. Each probe arms a marker that the host's own git (or the
// check) would trip on the code before the fix; all run as root and as an ordinary user.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, isRoot, workDir, sbxRun, logText } from './_helpers.js';
import { needs } from '../_tools.js';

const gitTest = needs('test/e2e/host-escapes-git: git repositories', ['git'], test);

const ID = ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'protocol.file.allow=always', '-c', 'init.defaultBranch=main'];
const git = (cwd, ...args) => spawnSync('git', [...ID, ...args], { cwd, encoding: 'utf8' });
const SH_GIT = `git ${ID.map((a) => `'${a}'`).join(' ')}`;

/** A repository with one commit at dir. */
function repo(dir) {
  git(dir, 'init', '-q', '.');
  writeFileSync(join(dir, 'a.txt'), 'a\n');
  git(dir, 'add', 'a.txt');
  git(dir, 'commit', '-q', '-m', 'a');
  return dir;
}

/** A marker path outside the work dir, and a check that it was never made. */
function marker() {
  const p = join(workDir({}, 'sbx-git-marker-'), 'ran');
  return { p, cmd: `touch ${p}; false`, ran: () => existsSync(p) };
}

const quarantined = (r) => (r.env?.outcome?.quarantined ?? []).map((q) => q.path).sort();

gitTest('(c) the issue\'s gitlink + gitfile + gitdir: the index is read-only, e/.git and eg are quarantined, host git status runs nothing', () => {
  const m = marker();
  const attack = `${SH_GIT} init -q e && ${SH_GIT} -C e commit -q --allow-empty -m e && s=$(git -C e rev-parse HEAD) && mv e/.git eg && echo "gitdir: ../eg" > e/.git && git config -f eg/config core.worktree ../e && git config -f eg/config core.fsmonitor "${m.cmd}" && git update-index --add --cacheinfo 160000,$s,e && echo INDEXED`;
  // Where the sandbox could write them (before the fix), these steps trip the host's git: the probe is real.
  const probe = repo(workDir());
  spawnSync('sh', ['-c', attack], { cwd: probe });
  git(probe, 'status');
  assert.ok(m.ran(), 'the attack does not trip git on the host: the probe tests nothing');
  spawnSync('rm', ['-f', m.p]);
  const dir = repo(workDir());
  const r = sbxRun(dir, ['sh', '-c', attack]);
  assert.not.match(logText(r.env), 'INDEXED', r.why());
  assert.equal(quarantined(r), ['e/.git', 'eg'], r.why());
  assert.match(r.env.verdict ? JSON.stringify(r.env.outcome.quarantined) : '', 'a git repository');
  git(dir, 'status');
  assert.not.ok(m.ran(), 'core.fsmonitor ran on the host');
});

gitTest('(a) a submodule\'s .git/modules/<name>/config and (b) its gitfile are read-only; a swapped gitfile is quarantined', () => {
  const sub = repo(workDir());
  const dir = repo(workDir());
  git(dir, 'submodule', 'add', '-q', sub, 'lib');
  git(dir, 'commit', '-q', '-m', 'lib');
  assert.ok(existsSync(join(dir, '.git/modules/lib/config')), 'no submodule was made');
  const m = marker();
  const r = sbxRun(dir, ['sh', '-c', [
    `git config -f .git/modules/lib/config core.fsmonitor "${m.cmd}" && echo MODCONFIG`,
    `cp -r .git/modules/lib evil && git config -f evil/config core.fsmonitor "${m.cmd}" && git config -f evil/config core.worktree ../lib`,
    'echo "gitdir: ../../evil" > lib/.git && echo GITFILE',
    'mv lib lib.old && mkdir lib && cp -a lib.old/. lib/ && rm lib/.git; echo "gitdir: ../evil" > lib/.git && echo SWAPPED',
  ].join('; ')]);
  const out = logText(r.env);
  assert.not.match(out, /MODCONFIG|GITFILE/, r.why());
  assert.match(out, 'SWAPPED', r.why());
  assert.equal(quarantined(r), ['evil', 'lib/.git'], r.why());
  git(dir, 'status');
  git(join(dir, 'lib'), 'status');
  assert.not.ok(m.ran(), 'core.fsmonitor ran on the host');
  assert.not.match(readFileSync(join(dir, '.git/modules/lib/config'), 'utf8'), 'fsmonitor');
});

gitTest('(d) nested repositories: an existing one\'s config is read-only, a new one is quarantined', () => {
  const dir = repo(workDir());
  mkdirSync(join(dir, 'old'));
  repo(join(dir, 'old'));
  const m = marker();
  const r = sbxRun(dir, ['sh', '-c', `git -C old config core.fsmonitor "${m.cmd}" && echo OLD; mkdir -p node_modules/x/sub && cd node_modules/x/sub && ${SH_GIT} init -q . && git config core.fsmonitor "${m.cmd}" && echo NEW`]);
  const out = logText(r.env);
  assert.not.match(out, 'OLD', r.why());
  assert.match(out, 'NEW', r.why());
  assert.equal(quarantined(r), ['node_modules/x/sub/.git'], r.why());
  git(join(dir, 'old'), 'status');
  git(join(dir, 'node_modules/x/sub'), 'status');
  assert.not.ok(m.ran(), 'core.fsmonitor ran on the host');
});

gitTest('a repository hidden in a directory the run made unreadable (chmod 000) is still found and quarantined', () => {
  const dir = workDir();
  const m = marker();
  const r = sbxRun(dir, ['sh', '-c', `mkdir -p x/y && cd x/y && ${SH_GIT} init -q . && git config core.fsmonitor "${m.cmd}" && cd /work && chmod 000 x && echo HIDDEN`]);
  assert.match(logText(r.env), 'HIDDEN', r.why());
  assert.equal(quarantined(r), ['x/y/.git'], r.why());
  spawnSync('chmod', ['755', join(dir, 'x')]);
  git(join(dir, 'x/y'), 'status');
  assert.not.ok(m.ran(), 'core.fsmonitor ran on the host');
});

gitTest('the whole top .git is read-only, and git still reads it inside', () => {
  const dir = repo(workDir());
  const r = sbxRun(dir, ['sh', '-c', 'git log --format=%s; git status --short a.txt && echo STATUS; echo x > .git/info/x && echo WROTE; git -c user.name=t -c user.email=t@e commit -q --allow-empty -m x && echo COMMITTED']);
  const out = logText(r.env);
  assert.match(out, /^a$/m, r.why());
  assert.match(out, 'STATUS', r.why());
  assert.not.match(out, /WROTE|COMMITTED/, r.why());
  assert.is(git(dir, 'rev-list', '--count', 'HEAD').stdout.trim(), '1');
});

gitTest('a repository\'s core.hooksPath (husky) and the config it includes from the tree are read-only', () => {
  const dir = repo(workDir({ '.husky/pre-commit': '#!/bin/sh\nexit 0\n', '.gitconfig': '[user]\n\tname = t\n' }));
  git(dir, 'config', 'core.hooksPath', '.husky');
  git(dir, 'config', 'include.path', '../.gitconfig');
  const m = marker();
  const r = sbxRun(dir, ['sh', '-c', `printf '#!/bin/sh\\n${m.cmd}\\n' > .husky/pre-commit && echo HOOK; printf '[core]\\n\\tfsmonitor = "${m.cmd}"\\n' >> .gitconfig && echo INCLUDED; echo ok`]);
  const out = logText(r.env);
  assert.not.match(out, /HOOK|INCLUDED/, r.why());
  git(dir, 'status');
  git(dir, 'commit', '-q', '--allow-empty', '-m', 'x');
  assert.not.ok(m.ran(), 'a hook or an included config ran on the host');
});

test('agent settings at any depth: existing ones read-only, new ones quarantined', () => {
  const dir = workDir({ 'pkg/.claude/settings.json': '{}', 'sbx.config.json': '{"hook":{}}' });
  const r = sbxRun(dir, ['sh', '-c', [
    'echo "{\\"hooks\\":1}" > pkg/.claude/settings.json && echo CLAUDE',
    'echo "{\\"hook\\":{\\"flags\\":[\\"--net\\"]}}" > sbx.config.json && echo CONFIG',
    'mkdir -p a/b/.codex && echo x > a/b/.codex/config.toml',
    'mkdir -p .gemini && echo {} > .gemini/settings.json',
    'echo {} > sub.mcp.json; mkdir -p tools && echo {} > tools/.mcp.json',
    'mkdir -p deep && echo {} > deep/sbx.config.json',
    'echo built > out.txt',
  ].join('; ')]);
  const out = logText(r.env);
  assert.not.match(out, /CLAUDE|CONFIG/, r.why());
  assert.equal(quarantined(r), ['.gemini', 'a/b/.codex', 'deep/sbx.config.json', 'tools/.mcp.json'], r.why());
  assert.is(readFileSync(join(dir, 'pkg/.claude/settings.json'), 'utf8'), '{}');
  assert.is(readFileSync(join(dir, 'sbx.config.json'), 'utf8'), '{"hook":{}}');
  assert.not.ok(existsSync(join(dir, 'a/b/.codex')));
  assert.ok(existsSync(join(dir, 'sub.mcp.json')), 'only the names clients read are quarantined');
  assert.is(readFileSync(join(dir, 'out.txt'), 'utf8'), 'built\n', 'the rest of the tree is the run\'s to write');
  const q = r.env.outcome.quarantined.find((x) => x.path === '.gemini');
  assert.ok(q.moved_to.startsWith('.sbx/quarantine/'), JSON.stringify(q));
  assert.ok(existsSync(join(dir, q.moved_to, 'settings.json')), 'kept for the user to inspect');
});

test('a run on a parent dir cannot delete a nested project\'s .sbx (its next delta would read "first run")', () => {
  const dir = workDir();
  mkdirSync(join(dir, 'sub'));
  assert.is(sbxRun(join(dir, 'sub'), ['true']).code, 0);
  assert.ok(existsSync(join(dir, 'sub/.sbx/last.json')));
  const r = sbxRun(dir, ['sh', '-c', 'rm -rf sub/.sbx 2>/dev/null; ls sub/.sbx/last.json && echo KEPT']);
  assert.match(logText(r.env), 'KEPT', r.why());
  assert.ok(existsSync(join(dir, 'sub/.sbx/last.json')));
  assert.equal(quarantined(r), []);
  assert.is.not(sbxRun(join(dir, 'sub'), ['true']).env.delta?.first_run, true);
});

test('a state dir that is gone (deleted by hand or by another command) is said, not read as a first run in silence', () => {
  const prev = process.env.XDG_STATE_HOME;
  process.env.XDG_STATE_HOME = workDir({}, 'sbx-xdg-');
  try {
    const dir = workDir();
    const first = sbxRun(dir, ['true'], { json: false });
    assert.not.match(first.stdout, 'was gone', 'a first run is a first run');
    spawnSync('rm', ['-rf', join(dir, '.sbx')]);
    const r = sbxRun(dir, ['true'], { json: false });
    assert.match(r.stdout, /^note: the state dir \(\.sbx\) was gone when this run started/m, r.stdout);
    assert.not.match(sbxRun(dir, ['true'], { json: false }).stdout, 'was gone');
  } finally {
    if (prev === undefined) delete process.env.XDG_STATE_HOME; else process.env.XDG_STATE_HOME = prev;
  }
});

test('--no-seccomp as root is refused (the sandbox could leave a set-uid or cap_setuid file that is root\'s on the host); as a user it runs', () => {
  const dir = workDir();
  const r = spawnSync(process.execPath, [CLI, 'run', '--work', dir, '--no-seccomp', '--', 'true'], { encoding: 'utf8' });
  if (isRoot) {
    assert.is(r.status, 77, r.stderr);
    assert.match(r.stderr, /--no-seccomp is refused when root runs sbx.*fix: run sbx as an ordinary user/);
  } else {
    assert.is(r.status, 0, r.stderr);
  }
});

test.run();
