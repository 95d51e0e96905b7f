// sbx-launch's relay (native/relay.c) spawned directly: when its fd 1 and fd 2 are one file (sbx's log,
// a caller's pipe) the command gets one pipe as both, and the output keeps the order of its writes; only
// when they are different files does each stream get a pipe of its own, counted apart.
import { spawnSync } from 'node:child_process';
import { closeSync, constants, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildSpec, launcherPath, startResident } from '../../dist/launcher.js';
import { sh, tempDir } from './_helpers.js';

const SCRIPT = 'echo out1; echo err1 >&2; echo out2; echo err2 >&2; echo out3';

/** Runs SCRIPT through sbx-launch --spec-fd with the given fd 1 and fd 2; returns the report. */
function launchWith(out, err) {
  const work = tempDir('sbx-streams-');
  const specFile = join(tempDir('sbx-streams-spec-'), 'spec');
  const spec = buildSpec({ cmd: ['sh', '-c', SCRIPT], work, logPath: join(work, 'unused.log'), seccomp: false }, work).argv;
  writeFileSync(specFile, `${spec.join('\0')}\0`);
  const status = openSync(work, 0o20000000 | constants.O_DIRECTORY | constants.O_RDWR, 0o600); // O_TMPFILE
  const specFd = openSync(specFile, 'r');
  try {
    const r = spawnSync(launcherPath(), ['--spec-fd', '5'], { stdio: ['ignore', out, err, status, 'ignore', specFd], env: {}, encoding: 'latin1' });
    assert.is(r.status, 0, r.stderr);
    return { r, report: JSON.parse(readFileSync(`/proc/self/fd/${status}`, 'utf8')) };
  } finally { for (const fd of [status, specFd]) closeSync(fd); }
}

test('fd 1 and fd 2 two files: each holds its stream, each stream counted', () => {
  const dir = tempDir('sbx-streams-out-');
  const flags = constants.O_RDWR | constants.O_CREAT | constants.O_TRUNC;
  const a = openSync(join(dir, 'out'), flags, 0o644);
  const b = openSync(join(dir, 'err'), flags, 0o644);
  try {
    const { report } = launchWith(a, b);
    assert.is(readFileSync(join(dir, 'out'), 'latin1'), 'out1\nout2\nout3\n');
    assert.is(readFileSync(join(dir, 'err'), 'latin1'), 'err1\nerr2\n');
    assert.is(report.stdout_bytes, 15);
    assert.is(report.stderr_bytes, 10);
    assert.is(report.output_bytes, 25);
  } finally { closeSync(a); closeSync(b); }
});

test('fd 1 and fd 2 one caller\'s pipe (2>&1): the writes in order, ten runs of ten', () => {
  const work = tempDir('sbx-streams-');
  const spec = join(tempDir('sbx-streams-spec-'), 'spec');
  writeFileSync(spec, `${buildSpec({ cmd: ['sh', '-c', SCRIPT], work, logPath: join(work, 'unused.log'), seccomp: false }, work).argv.join('\0')}\0`);
  for (let i = 0; i < 10; i++) {
    // spawnSync's 'pipe' makes two pipes; the shell's 2>&1 makes the launcher's fd 2 its fd 1, one pipe.
    const r = spawnSync('/bin/sh', ['-c', 'exec "$0" --spec-fd 5 2>&1 5<"$1"', launcherPath(), spec],
      { encoding: 'latin1', stdio: ['ignore', 'pipe', 'pipe', 'pipe'], env: {} });
    assert.is(r.status, 0, r.stderr);
    assert.is(r.stdout, 'out1\nerr1\nout2\nerr2\nout3\n', `run ${i + 1}`);
    const report = JSON.parse(r.output[3]);
    assert.is(report.output_bytes, 25);
    assert.is(report.stdout_bytes, 25, 'one pipe: all of it counted as stdout');
    assert.is(report.stderr_bytes, 0);
  }
});

test('through the resident server (sbx-launch --serve), as the MCP server runs: in order, ten runs of ten', async () => {
  process.env.SBX_SPAWN = 'resident';
  try {
    assert.ok(await startResident(launcherPath()), 'sbx-launch --serve did not say hello');
    for (let i = 0; i < 10; i++) {
      const r = await sh(SCRIPT);
      assert.is(r.log(), 'out1\nerr1\nout2\nerr2\nout3\n', `run ${i + 1}`);
      const e = await sh('echo x > /etc/nope; echo after');
      assert.match(e.log(), /^\/bin\/sh: 1: cannot create \/etc\/nope: [A-Za-z -]+\nafter\n$/, `run ${i + 1}`);
    }
  } finally {
    delete process.env.SBX_SPAWN;
  }
});

test.run();
