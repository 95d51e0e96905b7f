// `sbx run` starts from its own bundle (dist/cli-run.cjs, src/cli/main-run.ts); every other command
// from dist/cli-main.cjs, which has run too (SBX_CLI_MAIN=1 makes the bin use it). The two must be one
// CLI: the same stdout, stderr and exit code for each case, timings aside.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, workDir } from './_helpers.js';

const BIN = join(ROOT, 'dist/cli.cjs');

// Each case runs twice through each bundle in a work dir of its own, so the delta line is the same.
const cases = [
  ['a pass', ['--', 'sh', '-c', 'echo hi']],
  ['a failing build', ['--', 'sh', '-c', 'printf "m.c:1:5: error: expected \';\' before \'}\' token\\n" >&2; exit 1']],
  ['--json', ['--json', '--', 'sh', '-c', 'exit 3']],
  ['--help', ['--help']],
  ['a bad flag', ['--timout', '1', '--', 'true']],
  ['no command', []],
];

// Timings and the log's name differ between any two runs.
const normal = (s) => s
  // sbx's own time is shown only from 10 ms up (assembly/render.ts): whether it is, is timing too
  .replace(/ \(\+\d+ ms sbx\)/g, '')
  .replace(/\d+(\.\d+)? ms/g, 'N ms')
  .replace(/"(wall_ms|setup_ms|total_ms|user_ms|sys_ms|max_rss_kb)":[\d.]+/g, '"$1":N')
  .replace(/[\w-]+\.log/g, 'RUN.log')
  .replace(/"id":"[^"]+"/g, '"id":"ID"')
  .replace(/sbx-e2e-\w+/g, 'WORK')
  .replace(/"home":"[^"]*"/g, '"home":"HOME"'); // the work dir's own cache HOME (its path hashes the work dir)

test('the bin picks cli-run.cjs for run and cli-main.cjs otherwise', () => {
  assert.ok(existsSync(join(ROOT, 'dist/cli-run.cjs')) && existsSync(join(ROOT, 'dist/cli-main.cjs')));
  const loader = readFileSync(BIN, 'utf8');
  assert.match(loader, /process\.argv\[2\] === 'run' && !process\.env\.SBX_CLI_MAIN \? 'cli-run\.cjs' : 'cli-main\.cjs'/);
  // cli-run.cjs has only the run command: the others' code is not in it.
  const run = readFileSync(join(ROOT, 'dist/cli-run.cjs'), 'utf8');
  assert.not.match(run, /src\/cli\/commands\/(hook|mcp|tasks|view)\.ts/);
  assert.match(readFileSync(join(ROOT, 'dist/cli-main.cjs'), 'utf8'), /src\/cli\/commands\/hook\.ts/);
  assert.ok(run.length < readFileSync(join(ROOT, 'dist/cli-main.cjs'), 'utf8').length * 0.7, 'cli-run.cjs is not smaller');
});

for (const [name, args] of cases) {
  test(`sbx run, ${name}: both bundles print the same and exit alike`, () => {
    const out = {};
    for (const which of ['run', 'main']) {
      const dir = workDir();
      const env = { ...process.env, ...(which === 'main' ? { SBX_CLI_MAIN: '1' } : {}) };
      delete env.SBX_PHASES;
      const go = () => spawnSync(process.execPath, [BIN, 'run', '--work', dir, ...args], { encoding: 'utf8', env, cwd: dir });
      const rs = [go(), go()];
      out[which] = rs.map((r) => ({ status: r.status, stdout: normal(r.stdout), stderr: normal(r.stderr.replaceAll(dir, 'WORK')) }));
    }
    assert.equal(out.run, out.main);
    assert.ok(out.run.some((r) => r.stdout.length + r.stderr.length > 0), 'printed nothing');
  });
}

test.run();
