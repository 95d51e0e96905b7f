// Issue 32: the tree's fingerprint is taken in C (sbx-launch --walk) in one pass with the control walk,
// and must stay exact: an edit anywhere between two runs reads as an edit (tree_changed 1), deep in the
// tree, in an untracked file of a git repository, past the first 50 000 files of a plain directory
// (where the old walk stopped and an edit past its cap read "nothing changed"), while what the
// fingerprint leaves out (dependencies, build caches) still is no edit. Real runs of the CLI.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { workDir, sbxRun } from './_helpers.js';
import { needs } from '../_tools.js';

const TRUE = ['/bin/true'];
/** The delta's tree_changed of a run after the previous one (a second run first: no edit, 0). */
function changedBy(dir, edit) {
  sbxRun(dir, TRUE);
  const same = sbxRun(dir, TRUE);
  assert.is(same.env.delta.tree_changed, 0, `no edit: ${same.env.delta.summary}`);
  edit();
  return sbxRun(dir, TRUE).env.delta.tree_changed;
}
const git = (dir, ...args) => {
  const r = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: dir, encoding: 'utf8' });
  assert.is(r.status, 0, r.stderr);
};

test('an edit 14 directories deep is an edit', () => {
  const deep = 'a/b/c/d/e/f/g/h/i/j/k/l/m/n/notes.txt';
  const dir = workDir({ [deep]: 'one\n', 'top.txt': 'x\n' });
  assert.is(changedBy(dir, () => appendFileSync(join(dir, deep), 'two\n')), 1);
});

needs('test/e2e/tree-edits: a git repository', ['git'], test)('in a git repository: an edit to an untracked file is an edit, one in an untracked node_modules is not', () => {
  const dir = workDir({ 'src/main.c': 'int main(void) { return 0; }\n' });
  git(dir, 'init', '-q', '.');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'init');
  // Untracked and not ignored: git lists them; the fingerprint drops node_modules, at any depth.
  writeFileSync(join(dir, 'TODO.txt'), 'later\n');
  mkdirSync(join(dir, 'node_modules/dep'), { recursive: true });
  writeFileSync(join(dir, 'node_modules/dep/index.js'), 'x\n');
  mkdirSync(join(dir, 'web/node_modules/dep'), { recursive: true });
  writeFileSync(join(dir, 'web/node_modules/dep/index.js'), 'x\n');
  // A file that is named node_modules is no dependency directory: it counts.
  writeFileSync(join(dir, 'web/node_modules.txt'), 'a\n');
  mkdirSync(join(dir, 'lib'));
  writeFileSync(join(dir, 'lib/node_modules'), 'a\n');
  assert.is(changedBy(dir, () => appendFileSync(join(dir, 'TODO.txt'), 'now\n')), 1, 'untracked file');
  assert.is(changedBy(dir, () => appendFileSync(join(dir, 'node_modules/dep/index.js'), 'y\n')), 0, 'node_modules');
  assert.is(changedBy(dir, () => appendFileSync(join(dir, 'web/node_modules/dep/index.js'), 'y\n')), 0, 'nested node_modules');
  assert.is(changedBy(dir, () => appendFileSync(join(dir, 'lib/node_modules'), 'b\n')), 1, 'a file named node_modules');
  assert.is(changedBy(dir, () => appendFileSync(join(dir, 'src/main.c'), '\n')), 1, 'tracked file');
});

test('a plain directory of 50 500 files: an edit past the first 50 000 a walk reaches is an edit', () => {
  const dir = workDir();
  for (let i = 0; i < 50_500; i++) {
    const d = join(dir, `p${Math.floor(i / 2000)}`, `d${Math.floor(i / 20) % 100}`);
    if (i % 20 === 0) mkdirSync(d, { recursive: true });
    writeFileSync(join(d, `f${i}.txt`), 'x');
  }
  // The files in the order a depth-first walk in readdir order reaches them (the old walk's, which
  // stopped at 50 000): edit one past that.
  const order = [];
  const visit = (abs, rel) => {
    for (const e of readdirSync(abs, { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) { if (e.name !== '.sbx') visit(join(abs, e.name), r); } else order.push(r);
    }
  };
  sbxRun(dir, TRUE); // the state dir exists before the order is taken
  visit(dir, '');
  assert.ok(order.length >= 50_500, `${order.length} files`);
  const late = order[50_250];
  assert.is(changedBy(dir, () => appendFileSync(join(dir, late), 'edited')), 1, `edit to ${late}`);
  // A file removed past the cap, and one added, are edits too.
  assert.is(changedBy(dir, () => rmSync(join(dir, order[50_400]))), 1, `removed ${order[50_400]}`);
  assert.is(changedBy(dir, () => writeFileSync(join(dir, 'p25', 'new.txt'), 'n')), 1, 'added p25/new.txt');
});

test.run();
