// Issue 29 item 15: `sbx run` from a subdirectory of a project mounts the project (the top of its git
// work tree) and starts the command where you are, as a terminal there would; one history per project.
// Outside a git work tree, or under a repository at your home directory, the current directory is /work.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, workDir } from './_helpers.js';
import { needs } from '../_tools.js';

const gitTest = needs('test/e2e/work-root: git work trees', ['git'], test);

const run = (cwd, cmd, env = {}) => {
  const r = spawnSync(process.execPath, [CLI, 'run', '--json', '--', ...cmd], { cwd, encoding: 'utf8', env: { ...process.env, ...env } });
  return { ...r, env: r.stdout ? JSON.parse(r.stdout) : null };
};

gitTest('from a subdirectory of a git work tree: the top is /work, the command starts in the subdirectory, state is the project\'s', () => {
  const dir = workDir({ 'common/lib.sh': 'echo from-common\n', 'pkg/test.sh': '. ../common/lib.sh\n' });
  spawnSync('git', ['init', '-q', dir]);
  const r = run(join(dir, 'pkg'), ['sh', '-c', 'pwd; . ./test.sh']);
  assert.is(r.status, 0, r.stderr);
  assert.is(r.env.verdict.tail.join('\n'), '/work/pkg\nfrom-common', JSON.stringify(r.env.verdict.tail));
  assert.ok(existsSync(join(dir, '.sbx/last.json')), 'the project\'s state');
  assert.not.ok(existsSync(join(dir, 'pkg/.sbx')), 'no second history in the subdirectory');
  // The same command from the top is another command: its own first run, not a delta against pkg's.
  const top = run(dir, ['sh', '-c', 'pwd; . ./test.sh']);
  assert.is(top.env.delta.first_run, true);
  assert.is(run(join(dir, 'pkg'), ['sh', '-c', 'pwd; . ./test.sh']).env.delta.first_run, false);
});

test('outside a git work tree the current directory is /work; --work still names it', () => {
  const dir = workDir({ 'sub/x': 'x\n' });
  const r = run(join(dir, 'sub'), ['pwd']);
  assert.is(r.env.verdict.tail.join(''), '/work');
  assert.ok(existsSync(join(dir, 'sub/.sbx')));
  const g = workDir({ 'sub/x': 'x\n' });
  spawnSync('git', ['init', '-q', g]);
  const w = spawnSync(process.execPath, [CLI, 'run', '--json', '--work', join(g, 'sub'), '--', 'pwd'], { encoding: 'utf8' });
  assert.is(JSON.parse(w.stdout).verdict.tail.join(''), '/work');
});

gitTest('a repository at the home directory (dotfiles) is not taken for the project', () => {
  const home = workDir({ 'proj/x': 'x\n' });
  spawnSync('git', ['init', '-q', home]);
  mkdirSync(join(home, 'proj/sub'), { recursive: true });
  const r = run(join(home, 'proj'), ['pwd'], { HOME: home });
  assert.is(r.status, 0, r.stderr);
  assert.is(r.env.verdict.tail.join(''), '/work');
});

test.run();
