// A missing or non-executable launcher: the verdict says so once (not again as the log's tail), with the
// command to run in sbx's own checkout by absolute path, not `npm run build:native` in the user's project.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const cli = join(root, 'dist', 'cli.js');
const tmp = mkdtempSync(join(tmpdir(), 'sbx-nolaunch-'));
const test = suite('launcher missing');

const plain = join(tmp, 'not-executable');
writeFileSync(plain, '#!/bin/sh\n');
chmodSync(plain, 0o644);

for (const [what, launcher] of [['missing', join(tmp, 'nope', 'sbx-launch')], ['not executable', plain]]) {
  test(`${what}: one fix, in sbx's checkout by absolute path`, () => {
    const r = spawnSync(process.execPath, [cli, 'run', '--work', tmp, '--', 'true'], { cwd: tmp, encoding: 'utf8', env: { ...process.env, SBX_LAUNCHER: launcher, SBX_RESIDENT: '0' } });
    assert.is(r.status, 125, r.stderr);
    const fixes = r.stdout.split('npm run build:native').length - 1;
    assert.is(fixes, 1, `said once:\n${r.stdout}`);
    assert.ok(r.stdout.includes(`\`cd ${root} && npm run build:native\``), r.stdout);
    assert.not.match(r.stdout, /\ntail:/);
  });
}

test.after(() => rmSync(tmp, { recursive: true, force: true }));
test.run();
