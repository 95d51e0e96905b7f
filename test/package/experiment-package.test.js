// The experiment as an installed package runs it (issue 33): the packed tarball holds bench/tasks, the
// installed copy lists its tasks from its own bench/tasks, and the model SDKs the network backends import
// are installed with the package (optionalDependencies), not only in a development checkout.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const ROOT = new URL('../../', import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const tmp = mkdtempSync(join(tmpdir(), 'sbx-exp-pkg-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));
const sh = (cmd, args, cwd) => spawnSync(cmd, args, { cwd, encoding: 'utf8', maxBuffer: 64 << 20 });

const packed = sh('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', tmp], ROOT);
const info = packed.status === 0 ? JSON.parse(packed.stdout)[0] : null;
const installed = join(tmp, 'consumer', 'node_modules', pkg.name);
if (info) {
  mkdirSync(installed, { recursive: true });
  sh('tar', ['-xzf', join(tmp, info.filename), '-C', installed, '--strip-components=1'], tmp);
  for (const dep of Object.keys(pkg.dependencies)) {
    const to = join(tmp, 'consumer', 'node_modules', dep);
    mkdirSync(dirname(to), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules', dep), to);
  }
}
const checkout = readdirSync(join(ROOT, 'bench/tasks')).filter((d) => !d.startsWith('.')).sort();

test('npm pack succeeds', () => { assert.ok(info, packed.stderr); });

test('the tarball holds every task of bench/tasks (task.json, sources, solution)', () => {
  const files = new Set(info.files.map((f) => f.path));
  for (const id of checkout) assert.ok(files.has(`bench/tasks/${id}/task.json`), `bench/tasks/${id}/task.json not packed`);
  assert.ok([...files].some((f) => /^bench\/tasks\/[^/]+\/solution\//.test(f)));
});

test('the installed copy lists its tasks from its own bench/tasks', () => {
  const r = sh(process.execPath, ['--input-type=module', '-e', `const m = await import(${JSON.stringify(join(installed, 'dist/harness.js'))}); console.log(JSON.stringify(m.loadTasks().map((t) => [t.id, t.dir])))`], tmp);
  assert.is(r.status, 0, r.stderr);
  const tasks = JSON.parse(r.stdout);
  assert.equal(tasks.map(([id]) => id).sort(), checkout);
  for (const [, dir] of tasks) assert.ok(dir.startsWith(join(installed, 'bench/tasks')), dir);
});

test('the model SDKs and the progress bar the experiment imports are installed with the package', () => {
  for (const dep of ['@anthropic-ai/sdk', 'openai', 'ollama', 'cli-progress']) {
    assert.ok(pkg.optionalDependencies?.[dep] || pkg.dependencies[dep], `${dep} is only a devDependency: an installed sbx-exec cannot run a network backend`);
  }
});

test.run();
