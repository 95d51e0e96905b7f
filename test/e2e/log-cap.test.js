// `sbx run --max-log`: a command that prints without end cannot fill the disk with its log, a log that
// could not be written in full does not fail the run, and the verdict says what the log lacks.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CLI, isRoot, sbxRun, skipNote, workDir } from './_helpers.js';

const MiB = 1 << 20;
const seqBytes = (n) => `${Array.from({ length: n }, (_, i) => i + 1).join('\n')}\n`.length;

test('--max-log 1M: the log holds 1 MiB, its start and end; the envelope counts what was dropped; exit is the command\'s', () => {
  const dir = workDir();
  const r = sbxRun(dir, ['sh', '-c', 'seq 1 2000000; echo "error: the last line" >&2; exit 3'], { flags: ['--max-log', '1M'] });
  assert.is(r.code, 3, r.why());
  const o = r.env.outcome;
  assert.is(statSync(r.env.log).size, MiB);
  const log = readFileSync(r.env.log, 'latin1');
  assert.ok(log.startsWith('1\n2\n3\n'));
  assert.ok(log.endsWith('1999999\n2000000\nerror: the last line\n'));
  const m = /\n\[sbx: (\d+) bytes of output dropped here: the log keeps its start and its end \(--max-log 1048576\)\]\n/.exec(log);
  assert.ok(m, 'a marker line in the log');
  assert.is(m.index, MiB / 2);
  assert.is(o.log_max_bytes, MiB);
  assert.is(o.log_dropped_bytes, Number(m[1]));
  assert.is(o.output_bytes, seqBytes(2000000) + 'error: the last line\n'.length);
  assert.is(o.output_bytes - o.log_dropped_bytes + m[0].length, MiB);
  assert.is(o.log_unwritten_bytes, 0);
  assert.is(o.log_error, null);
  assert.match(r.stderr, /sbx: note: the log was capped at 1 MiB: 13\.2 MiB of output dropped from its middle/);
});

test('the rendered verdict ends with the note', () => {
  const dir = workDir();
  const r = sbxRun(dir, ['seq', '1', '1000000'], { flags: ['--max-log', '512K'], json: false });
  assert.is(r.code, 0, r.stderr);
  assert.match(r.stdout, /\nnote: the log was capped at 512 KiB: 6\.1 MiB of output dropped from its middle \(its start and end are kept\); pass a larger --max-log to keep more\n$/);
});

test('a command that prints without end, with --timeout: the log stays at its cap', () => {
  const dir = workDir();
  const r = sbxRun(dir, ['yes'], { flags: ['--max-log', '1M', '--timeout', '2'] });
  assert.is(r.verdict.status, 'timeout', r.why());
  assert.is(r.code, 137);
  assert.is(statSync(r.env.log).size, MiB);
  assert.ok(r.env.outcome.log_dropped_bytes > MiB);
});

test('no note and nothing dropped under the cap', () => {
  const dir = workDir();
  const r = sbxRun(dir, ['seq', '1', '1000'], { json: false });
  assert.is(r.code, 0);
  assert.not.match(r.stdout + r.stderr, /note: the log/);
});

test('bad --max-log values are refused with one line and exit 2', () => {
  const dir = workDir();
  for (const [bad, why] of [['10x', /give a size in bytes, with an optional K, M or G suffix/], ['1K', /too small; give at least 64K/], ['-5', /give a size/], ['1.5M', /give a size/]]) {
    const r = spawnSync(process.execPath, [CLI, 'run', '--work', dir, '--max-log', bad, '--', 'true'], { encoding: 'utf8' });
    assert.is(r.status, 2, bad);
    assert.match(r.stderr, new RegExp(`^sbx: --max-log ${bad.replace('.', '\\.')}: `));
    assert.match(r.stderr, why);
    assert.is(r.stderr.trim().split('\n').length, 1);
  }
});

/** The checks of a run whose log could not be written in full. */
function assertIncomplete(r, errno) {
  assert.is(r.code, 4, r.why());
  const o = r.env.outcome;
  assert.is(o.exit_code, 4);
  assert.is(o.log_error, errno);
  assert.ok(o.log_unwritten_bytes > 0);
  assert.is(o.stdout_bytes, seqBytes(500000));
  assert.match(r.stderr, new RegExp(`sbx: note: the log is incomplete: [0-9.]+ MiB of output could not be written to it \\(${errno}: `));
}

test('a file size limit on the log (EFBIG): the run completes, exit is the command\'s, the verdict notes the log is incomplete', () => {
  const dir = workDir();
  const r = spawnSync('prlimit', ['--fsize=262144:', process.execPath, CLI, 'run', '--work', dir, '--json', '--', 'sh', '-c', 'seq 1 500000; exit 4'], { encoding: 'utf8' });
  const env = JSON.parse(r.stdout);
  assertIncomplete({ code: r.status, env, stderr: r.stderr, why: () => r.stderr }, 'EFBIG');
  assert.ok(statSync(env.log).size <= 262144);
});

test('a full disk (the state on a 1 MiB tmpfs, as root): the run completes and says the log is incomplete', () => {
  if (!isRoot) return skipNote('full disk', 'mounting a tmpfs needs root; the EFBIG test covers the unprivileged case');
  const dir = workDir();
  const state = join(workDir({}, 'sbx-e2e-state-'), 'tmpfs');
  mkdirSync(state);
  const m = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', state], { encoding: 'utf8' });
  if (m.status !== 0) return skipNote('full disk', `mount -t tmpfs failed: ${m.stderr.trim()}`);
  try {
    const r = sbxRun(dir, ['sh', '-c', 'seq 1 500000; exit 4'], { flags: ['--state', state] });
    assertIncomplete(r, 'ENOSPC');
    assert.ok(statSync(r.env.log).size <= MiB);
    assert.match(r.stderr, /\(ENOSPC: the disk is full\)/);
    // The next run on that disk still goes.
    const again = sbxRun(dir, ['sh', '-c', 'echo hi; exit 5'], { flags: ['--state', state] });
    assert.is(again.code, 5, again.why());
  } finally {
    spawnSync('umount', [state]);
  }
});

test.run();
