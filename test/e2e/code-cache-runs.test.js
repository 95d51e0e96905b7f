// The runs that make the bundles' V8 code caches (scripts/code-cache-runs.js) go where a cold start goes:
// a cache holds only what its run compiled, and one made from a run sbx refused (its work dir was its
// HOME: E_WORK_HOME) left the sandbox, the verdict and the record to compile on every cold `sbx run`.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './_helpers.js';
import { codeCacheRuns } from '../../scripts/code-cache-runs.js';

const BIN = join(ROOT, 'dist/cli.cjs');
const runs = codeCacheRuns();
const byName = Object.fromEntries(runs.map((r) => [r.name, r]));
const go = (r, argv = r.argv) => spawnSync(process.execPath, [BIN, ...argv], { input: r.input, encoding: 'utf8', env: r.env, timeout: 60_000 });

test.after(() => { for (const r of runs) rmSync(r.home, { recursive: true, force: true }); });

test('cli-run\'s cache run is a whole sbx run, with a toolchain of its HOME bound', () => {
  const r = byName['cli-run'];
  const out = go(r);
  assert.is(out.status, 0, `${out.stdout}${out.stderr}`);
  assert.match(out.stdout, /^sbx: pass/);
  const json = go(r, ['run', '--json', ...r.argv.slice(1)]);
  assert.is(json.status, 0, json.stderr);
  const env = JSON.parse(json.stdout);
  assert.equal(env.outcome.applied.toolchains.map((t) => t.name), ['pyenv']);
  assert.ok(env.outcome.applied.home?.startsWith(r.home), env.outcome.applied.home);
});

test('cli-main\'s cache run is a hook call that succeeds', () => {
  const r = byName['cli-main'];
  const out = go(r);
  assert.is(out.status, 0, `${out.stdout}${out.stderr}`);
});

test.run();
