// A full disk under sbx's state: named (E_DISK_FULL, the disk and the path), the verdict still printed
// with the command's exit code, the log's gap said, and what was written before kept as it was.
// Root only (a 256 KiB tmpfs is mounted); log-cap.test.js covers an unwritable log unprivileged (EFBIG).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { isRoot, sbxRun, skipNote, workDir } from './_helpers.js';

/** fn(dir) with a 256 KiB tmpfs mounted at dir; false (and a skip note) when it cannot be mounted. */
function withTinyDisk(name, fn) {
  if (!isRoot) { skipNote(name, 'mounting a tmpfs needs root'); return; }
  const disk = join(workDir({}, 'sbx-e2e-disk-'), 'disk');
  mkdirSync(disk);
  const m = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', disk], { encoding: 'utf8' });
  if (m.status !== 0) { skipNote(name, `mount -t tmpfs failed: ${m.stderr.trim()}`); return; }
  try { fn(disk); } finally { spawnSync('umount', [disk]); }
}

const fill = (disk) => spawnSync('sh', ['-c', `dd if=/dev/zero of=${disk}/fill bs=4k 2>/dev/null; true`]);
const lines = (p) => readFileSync(p, 'utf8').split('\n').filter(Boolean);

test('the state\'s disk full before the run: the verdict is printed, E_DISK_FULL names the disk, last.json and history.jsonl stay as they were', () => {
  withTinyDisk('disk full before the run', (disk) => {
    const dir = workDir();
    const state = join(disk, 'state');
    const first = sbxRun(dir, ['sh', '-c', 'echo first; exit 0'], { flags: ['--state', state] });
    assert.is(first.code, 0, first.why());
    const last = readFileSync(join(state, 'last.json'), 'utf8');
    const history = readFileSync(join(state, 'history.jsonl'), 'utf8');
    fill(disk);
    const r = sbxRun(dir, ['sh', '-c', 'echo second; exit 3'], { flags: ['--state', state] });
    assert.is(r.code, 3, r.why()); // the command's, as with any run
    assert.is(r.env.outcome.exit_code, 3);
    assert.is(r.env.verdict.status, 'runtime-error');
    assert.is(r.env.outcome.log_error, 'ENOSPC');
    assert.match(r.stderr, /sbx: note: the log is incomplete: .*\(ENOSPC: the disk is full\)/);
    assert.match(r.stderr, new RegExp(`sbx: note: this run was not recorded: E_DISK_FULL: the disk holding ${state} \\(${disk}, tmpfs\\) has no space for .*; fix: free space on ${disk}`));
    assert.not.match(r.stderr, /rebuild|internal error|npm run build/);
    assert.is(readFileSync(join(state, 'last.json'), 'utf8'), last);
    assert.is(readFileSync(join(state, 'history.jsonl'), 'utf8'), history);
    // Space again: the next run is recorded, against the first.
    spawnSync('rm', ['-f', join(disk, 'fill')]);
    const again = sbxRun(dir, ['sh', '-c', 'echo third; exit 0'], { flags: ['--state', state] });
    assert.is(again.code, 0, again.why());
    assert.is(lines(join(state, 'history.jsonl')).length, 2);
  });
});

test('the disk filled by the command (work and state on it): its output up to then is in the log, the verdict says the log is cut', () => {
  withTinyDisk('disk filled during the run', (disk) => {
    const r = sbxRun(disk, ['sh', '-c', 'echo before; sleep 0.3; dd if=/dev/zero of=/work/fill bs=4k 2>/dev/null; seq 1 20000; exit 4']);
    assert.is(r.code, 4, r.why());
    assert.is(r.env.outcome.exit_code, 4);
    assert.ok(r.env.outcome.log_unwritten_bytes > 0);
    assert.match(r.stderr, /sbx: note: the log is incomplete: /);
    assert.match(r.stderr, /sbx: note: this run was not recorded: E_DISK_FULL: the disk holding /);
    assert.ok(readFileSync(r.env.log, 'utf8').startsWith('before\n'), 'what was written before the disk filled is kept (the relay had 0.3 s to write it)');
    assert.not.match(r.stderr, /rebuild|internal error|npm run build/);
    // Nothing half-written: no history line (the record found no room) rather than a cut one.
    assert.not.ok(existsSync(join(disk, '.sbx', 'history.jsonl')) && lines(join(disk, '.sbx', 'history.jsonl')).some((l) => { try { JSON.parse(l); return false; } catch { return true; } }));
  });
});

test('--state on a full disk with no room anywhere for the launcher\'s files is E_DISK_FULL, never a launcher to rebuild', () => {
  withTinyDisk('no room for the launcher files', (disk) => {
    const dir = workDir();
    const state = join(disk, 'state');
    fill(disk);
    // TMPDIR on the full disk too: the spec and report have no other place ($TMPDIR, /dev/shm is checked for room).
    const r = spawnSync(process.execPath, [new URL('../../dist/cli.js', import.meta.url).pathname, 'run', '--work', dir, '--state', state, '--', 'sh', '-c', 'echo hi; exit 3'],
      { encoding: 'utf8', env: { ...process.env, TMPDIR: disk } });
    assert.not.match(r.stderr, /rebuild|internal error/, r.stderr);
    // Either the files found room (/dev/shm) and the run went on, or the disk is named.
    if (r.status !== 3) {
      assert.is(r.status, 125, r.stderr);
      assert.match(r.stderr, /E_DISK_FULL|the disk holding/);
    }
  });
});

test.run();
