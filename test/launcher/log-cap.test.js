// The raw log's cap (--max-log, native/log.c): past it the log keeps its first half and its last bytes,
// in order, with one marker line between them saying how much was dropped; the command is never slowed,
// blocked or killed by it. A write that fails (a file size limit, a full disk) is counted, not fatal.
import { spawnSync } from 'node:child_process';
import { closeSync, constants, mkdirSync, openSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildSpec, launcherPath, MAX_LOG_DEFAULT, startResident } from '../../dist/launcher.js';
import { here, isRoot, run, sh, tempDir } from './_helpers.js';

const MiB = 1 << 20;
const MARKER = /\n\[sbx: (\d+) bytes of output dropped here: the log keeps its start and its end \(--max-log (\d+)\)\]\n/g;

/** What `seq 1 n` prints. */
const seqText = (n) => `${Array.from({ length: n }, (_, i) => i + 1).join('\n')}\n`;

/** A capped log checked against the whole output it was cut from: head, marker, tail, counts. */
function assertCapped(log, whole, o, cap) {
  const head = Math.floor(cap / 2);
  assert.is(log.length, cap, 'the log holds exactly its cap');
  const marks = [...log.matchAll(MARKER)];
  assert.is(marks.length, 1, 'one marker line');
  const m = marks[0];
  assert.is(m.index, head, 'the marker follows the head');
  assert.is(Number(m[2]), cap);
  const kept = cap - head - m[0].length;
  assert.is(Number(m[1]), whole.length - head - kept, 'the marker says how much is missing');
  assert.is(o.log_dropped_bytes, Number(m[1]));
  assert.ok(log.slice(0, head) === whole.slice(0, head), 'the head is the output\'s start');
  assert.ok(log.slice(head + m[0].length) === whole.slice(whole.length - kept), 'the tail is the output\'s end, in order');
  assert.is(o.log_max_bytes, cap);
  assert.is(o.log_unwritten_bytes, 0);
  assert.is(o.log_error, null);
}

test('past --max-log the log keeps its head and its tail in order, and says how much it dropped', async () => {
  const cap = MiB;
  const r = await run(['seq', '1', '2000000'], { maxLog: cap });
  const whole = seqText(2000000);
  assert.is(r.outcome.exit_code, 0);
  assert.is(r.outcome.stdout_bytes, whole.length, 'every byte was relayed and counted');
  assertCapped(readFileSync(r.logPath, 'latin1'), whole, r.outcome, cap);
  assert.ok(r.out.endsWith('\n1999999\n2000000\n'), 'the tail handed to the verdict ends where the output did');
});

test('under the cap the log is the whole output, nothing dropped, and the default cap is 64 MiB', async () => {
  const r = await run(['seq', '1', '100000']);
  assert.is(r.log(), seqText(100000));
  assert.is(r.outcome.log_dropped_bytes, 0);
  assert.is(r.outcome.log_unwritten_bytes, 0);
  assert.is(r.outcome.log_max_bytes, MAX_LOG_DEFAULT);
  assert.is(MAX_LOG_DEFAULT, 64 * MiB);
});

test('the default cap holds a 70 MB output to 64 MiB', async () => {
  const r = await sh('head -c 70000000 /dev/zero | tr "\\0" z; echo end');
  assert.is(r.outcome.exit_code, 0);
  assert.is(r.outcome.stdout_bytes, 70000004);
  assert.is(statSync(r.logPath).size, 64 * MiB);
  assertCapped(readFileSync(r.logPath, 'latin1'), `${'z'.repeat(70000000)}end\n`, r.outcome, 64 * MiB);
});

test('a command that prints without end: the log stays at its cap until the timeout, the run ends as a timeout', async () => {
  const cap = MiB;
  const r = await run(['yes', 'sbx'], { maxLog: cap, timeout: 2 });
  assert.is(r.outcome.timed_out, true);
  assert.is(r.outcome.signal, 'SIGKILL');
  const log = readFileSync(r.logPath, 'latin1');
  assert.is(log.length, cap);
  const m = [...log.matchAll(MARKER)];
  assert.is(m.length, 1);
  assert.is(m[0].index, cap / 2);
  assert.ok(r.outcome.stdout_bytes > 4 * cap, `it printed ${r.outcome.stdout_bytes} bytes`);
  assert.is(r.outcome.log_dropped_bytes, r.outcome.stdout_bytes - (cap - m[0][0].length));
  // Head and tail are whole lines of yes's output around the marker, cut anywhere.
  assert.ok(/^(sbx\n)+(s|sb)?$/.test(log.slice(0, m[0].index)));
  assert.ok(/^(bx\n|x\n|\n)?(sbx\n)+$/.test(log.slice(m[0].index + m[0][0].length)));
});

test('stdout and stderr share one cap: the file holds the cap, the counts add up', async () => {
  const cap = MiB;
  const r = await sh('seq 1 500000 & seq 1 500000 >&2; wait', { maxLog: cap });
  const log = readFileSync(r.logPath, 'latin1');
  assert.is(log.length, cap);
  const m = [...log.matchAll(MARKER)];
  assert.is(m.length, 1);
  assert.is(r.outcome.output_bytes, 2 * seqText(500000).length);
  assert.is(r.outcome.output_bytes - r.outcome.log_dropped_bytes + m[0][0].length, cap);
});

test('a log the launcher cannot read back (O_APPEND) keeps its first bytes and says so at its end', () => {
  const work = tempDir('sbx-logcap-');
  const logPath = join(work, '..', `${work.split('/').pop()}.log`);
  const specFile = `${logPath}.spec`;
  const spec = buildSpec({ cmd: ['seq', '1', '100000'], work, logPath, seccomp: false, maxLog: 65536 }, work).argv;
  writeFileSync(specFile, `${spec.join('\0')}\0`);
  const log = openSync(logPath, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_TRUNC, 0o644);
  const status = openSync(work, 0o20000000 | constants.O_DIRECTORY | constants.O_RDWR, 0o600); // O_TMPFILE
  const specFd = openSync(specFile, 'r');
  try {
    const r = spawnSync(launcherPath(), ['--spec-fd', '5'], { stdio: ['ignore', log, log, status, 'ignore', specFd], env: {} });
    assert.is(r.status, 0);
    const report = JSON.parse(readFileSync(`/proc/self/fd/${status}`, 'utf8'));
    const whole = seqText(100000);
    const text = readFileSync(logPath, 'latin1');
    const marker = `\n[sbx: ${whole.length - 65536} bytes of output dropped here: the log keeps its start (--max-log 65536)]\n`;
    assert.is(text, whole.slice(0, 65536) + marker);
    assert.is(report.log_cap, 65536);
    assert.is(report.log_dropped, whole.length - 65536);
    assert.is(report.log_unwritten, 0);
  } finally { for (const fd of [log, status, specFd]) closeSync(fd); }
});

test('a bad --max-log is refused before anything runs', () => {
  for (const bad of ['0', '4095', '-1', '1M', 'x']) {
    const r = spawnSync(launcherPath(), ['--status-fd', '1', '--max-log', bad, '--unshare-user', '--unshare-pid', '--', '/bin/true'], { encoding: 'utf8' });
    assert.is(r.status, 125, bad);
    assert.match(r.stderr, /^sbx-launch: bad --max-log: /);
  }
});

test('launch() refuses a maxLog under 64 KiB', async () => {
  try {
    await run(['true'], { maxLog: 1000 });
    assert.unreachable('no error');
  } catch (err) {
    assert.is(err.code, 'E_BAD_OPTIONS');
    assert.match(err.message, /maxLog must be a whole number of bytes >= 65536/);
  }
});

/**
 * launch() in a child Node under RLIMIT_FSIZE (soft, so the sandbox may still raise its own): the
 * launcher's writes to the log fail with EFBIG past the limit, as they would with ENOSPC on a full disk.
 */
function launchUnderFsize(limit, cmd, maxLog) {
  const work = tempDir('sbx-logcap-');
  const logPath = join(tempDir('sbx-logcap-log-'), 'run.log');
  const script = `import { launch } from ${JSON.stringify(join(here, '../../dist/launcher.js'))};
    process.env.SBX_SPAWN = 'direct';
    const r = await launch({ cmd: ${JSON.stringify(cmd)}, work: ${JSON.stringify(work)}, logPath: ${JSON.stringify(logPath)}, timeout: 30${maxLog ? `, maxLog: ${maxLog}` : ''} });
    console.log(JSON.stringify({ outcome: r.outcome, setupError: r.setupError }));`;
  const r = spawnSync('prlimit', [`--fsize=${limit}:`, process.execPath, '--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.is(r.status, 0, r.stderr);
  return { ...JSON.parse(r.stdout), log: readFileSync(logPath, 'latin1') };
}

test('a log that cannot grow (EFBIG): the command runs to its end, the report counts what is missing', () => {
  const limit = 256 * 1024;
  const r = launchUnderFsize(limit, ['sh', '-c', 'seq 1 300000; echo done >&2; exit 3']);
  const whole = seqText(300000);
  assert.is(r.setupError, null);
  assert.is(r.outcome.exit_code, 3, 'the command\'s own exit: neither blocked nor killed by the log');
  assert.is(r.outcome.output_bytes, whole.length + 5);
  assert.is(r.outcome.log_error, 'EFBIG');
  assert.ok(r.log.length <= limit, `log of ${r.log.length} bytes`);
  assert.ok(whole.startsWith(r.log), 'what was written is the output\'s start');
  assert.is(r.outcome.log_unwritten_bytes, whole.length + 5 - r.log.length);
});

test('a capped log that cannot grow past its ring: the tail is still put in order', () => {
  // 256 KiB cap under a 300 KiB limit: the cap is reached first, nothing fails.
  const r = launchUnderFsize(300 * 1024, ['seq', '1', '300000'], 256 * 1024);
  assert.is(r.outcome.log_error, null);
  assertCapped(r.log, seqText(300000), r.outcome, 256 * 1024);
});

test('a full disk (a 1 MiB tmpfs, as root): the run completes with its exit code and its report', async () => {
  if (!isRoot) return console.log('  (skipped: mounting a tmpfs needs root; the EFBIG test covers the unprivileged case)');
  const dir = tempDir('sbx-full-');
  mkdirSync(join(dir, 'logs'));
  const m = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', join(dir, 'logs')]);
  if (m.status !== 0) return console.log(`  (skipped: mount -t tmpfs failed: ${m.stderr})`);
  try {
    const r = await sh('seq 1 500000; exit 4', { logPath: join(dir, 'logs', 'run.log') });
    const whole = seqText(500000);
    assert.is(r.setupError, null, 'the report got out (it has room taken before the command ran)');
    assert.is(r.outcome.exit_code, 4);
    assert.is(r.outcome.stdout_bytes, whole.length);
    assert.is(r.outcome.log_error, 'ENOSPC');
    const log = readFileSync(r.logPath, 'latin1');
    assert.ok(log.length <= MiB);
    assert.ok(whole.startsWith(log.replace(/\n\[sbx: \d+ bytes of output not written to the log: No space left on device\]\n$/, '')));
    assert.ok(r.outcome.log_unwritten_bytes > 0);
  } finally {
    spawnSync('umount', [join(dir, 'logs')]);
  }
});

test('through the resident server (the log reopened from /proc): the same head, marker and tail', async () => {
  const was = process.env.SBX_SPAWN;
  process.env.SBX_SPAWN = 'resident';
  try {
    assert.ok(await startResident(launcherPath()), 'sbx-launch --serve did not say hello');
    const r = await run(['seq', '1', '1000000'], { maxLog: MiB });
    assertCapped(readFileSync(r.logPath, 'latin1'), seqText(1000000), r.outcome, MiB);
  } finally {
    if (was === undefined) delete process.env.SBX_SPAWN;
    else process.env.SBX_SPAWN = was;
  }
});

test.run();
