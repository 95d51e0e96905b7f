// A missing work dir is one error whichever way it is reached: run() (the library, which `sbx mcp`
// calls), launch() on its own, and `sbx run` give the same code (E_WORK_MISSING) and the same one-line
// message from the one check (src/launcher/work-check.ts); nothing is written.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, ROOT, workDir } from './_helpers.js';

const { run } = await import(join(ROOT, 'dist/index.js'));
const { launch } = await import(join(ROOT, 'dist/launcher.js'));

for (const [what, make] of [
  ['missing', (d) => join(d, 'missing')],
  ['a file', (d) => { const f = join(d, 'file'); writeFileSync(f, ''); return f; }],
]) {
  test(`a work dir that is ${what}: one code, one message from run(), launch() and sbx run`, async () => {
    const base = workDir();
    const work = make(base);
    let thrown = null;
    try { await run({ cmd: ['true'], work }); } catch (err) { thrown = err; }
    assert.ok(thrown, 'run() refuses');
    assert.is(thrown.code, 'E_WORK_MISSING');
    assert.match(thrown.message, 'fix:');
    assert.not.match(thrown.message, '\n');
    const launched = await launch({ cmd: ['true'], work, logPath: join(base, 'log') });
    assert.equal(launched.setupError, { code: 'E_WORK_MISSING', message: thrown.message });
    const cli = spawnSync(process.execPath, [CLI, 'run', '--work', work, '--', 'true'], { encoding: 'utf8', cwd: base });
    assert.is(cli.status, 2, cli.stderr);
    assert.is(cli.stdout, '');
    assert.match(cli.stderr, thrown.message);
    assert.is(cli.stderr.trim().split('\n').length, 1, cli.stderr);
    assert.not.ok(existsSync(join(work, '.sbx')));
  });
}

test.run();
