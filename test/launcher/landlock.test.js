// Landlock, the second layer under the mounts (native/landlock.c; issue 35 part 2). Where the kernel has it,
// a write outside the work dir, /tmp, /dev/shm, the HOME and the writable binds is refused by Landlock alone:
// the spec here is the default one with the mounts' protections taken out (a writable bind the ruleset does
// not name, no read-only root), so that only Landlock stands. As root and as an ordinary user.
import { spawnSync } from 'node:child_process';
import { closeSync, constants, existsSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildSpec, launcherPath } from '../../dist/launcher.js';
import { run, sh, tempDir } from './_helpers.js';

/** The ABI of this kernel's Landlock, as the launcher reports it in a default run (0: none). */
const abiOf = (r) => r.outcome.applied.landlock.abi;

/** Runs a spec edited by `edit` (argv -> argv) straight through sbx-launch; the report and the output. */
function runEdited(cmd, opts, edit) {
  const work = opts.work;
  const argv = edit(buildSpec({ cmd, ...opts, logPath: join(work, 'log'), seccomp: false }, work).argv);
  const dir = tempDir('sbx-ll-');
  writeFileSync(join(dir, 'spec'), `${argv.join('\0')}\0`);
  const log = openSync(join(dir, 'log'), 'w');
  const status = openSync(dir, 0o20000000 | constants.O_DIRECTORY | constants.O_RDWR, 0o600); // O_TMPFILE
  const spec = openSync(join(dir, 'spec'), 'r');
  try {
    spawnSync(launcherPath(), ['--spec-fd', '5'], { stdio: ['ignore', log, log, status, 'ignore', spec], env: {} });
    return { report: JSON.parse(readFileSync(`/proc/self/fd/${status}`, 'utf8')), out: readFileSync(join(dir, 'log'), 'utf8') };
  } finally { for (const fd of [log, status, spec]) closeSync(fd); }
}

/** The spec without the ruleset's line for `path`, and without the read-only root. */
const unprotect = (path) => (argv) => {
  const out = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--landlock-write' && argv[i + 1] === path) { i++; continue; }
    if (argv[i] === '--ro-root') continue;
    out.push(argv[i]);
  }
  return out;
};
/** The spec without any of its Landlock flags (the control: the mounts alone). */
const withoutLandlock = (argv) => {
  const out = [];
  for (let i = 0; i < argv.length; i++) {
    if (['--landlock-write', '--landlock-write-file', '--landlock-connect'].includes(argv[i])) i++;
    else if (argv[i] !== '--landlock' && argv[i] !== '--landlock-scope') out.push(argv[i]);
  }
  return out;
};

const probe = 'echo w > /scratch/new; echo "scratch=$?"; mkdir /madeup; echo "root=$?"; echo w > /work/ok; echo "work=$?"; echo w > /tmp/ok; echo "tmp=$?"';

test('the applied record says which ABI and which rules hold', async () => {
  const r = await sh('echo x > /work/a && echo y > /tmp/b && echo z > /dev/null && echo v > /dev/shm/c && echo done');
  assert.is(r.setupError, null, r.setupError?.message);
  const ll = r.outcome.applied.landlock;
  if (ll.abi === 0) {
    assert.is(ll.enforced, false);
    assert.match(ll.reason, 'no Landlock');
    return;
  }
  assert.match(r.out, 'done');
  assert.is(ll.enforced, true, ll.reason);
  assert.equal(ll.write, ['/work', '/tmp', '/dev/shm']);
  assert.equal(ll.write_file, ['/dev', '/proc']);
  assert.is(ll.connect_tcp, null); // no --allow-host: connect is not restricted
  if (ll.abi >= 6) assert.equal(ll.scoped, ['abstract_unix_socket', 'signal']);
});

test('a write outside the named paths is refused by Landlock alone (the mounts let it through)', async () => {
  const first = await sh('true');
  if (abiOf(first) === 0) { console.log('  (skipped: this kernel has no Landlock)'); return; }
  const work = tempDir();
  const scratch = tempDir('sbx-scratch-');
  const opts = { work, bind: [{ src: scratch, dst: '/scratch' }] };
  // The control: the same spec without Landlock writes both (the bind is writable, the root is a tmpfs).
  const open = runEdited(['/bin/sh', '-c', probe], opts, (a) => withoutLandlock(unprotect('/scratch')(a)));
  assert.match(open.out, 'scratch=0', open.out);
  assert.match(open.out, 'root=0', open.out);
  assert.ok(existsSync(join(scratch, 'new')));
  const scratch2 = tempDir('sbx-scratch-');
  const held = runEdited(['/bin/sh', '-c', probe], { ...opts, bind: [{ src: scratch2, dst: '/scratch' }] }, unprotect('/scratch'));
  assert.is(held.report.error, null, JSON.stringify(held.report.error));
  assert.match(held.out, /Permission denied/, held.out);
  assert.match(held.out, /scratch=[1-9]/, held.out);
  assert.match(held.out, /root=[1-9]/, held.out);
  assert.match(held.out, 'work=0', held.out);
  assert.match(held.out, 'tmp=0', held.out);
  assert.not.ok(existsSync(join(scratch2, 'new')), 'the write reached the host');
  assert.ok(held.report.steps.some((s) => s.step === 'landlock' && s.ok), JSON.stringify(held.report.steps));
});

test('a rename out of the writable paths is refused, and a hard link of a file outside into them', async () => {
  const first = await sh('true');
  if (abiOf(first) < 2) return; // ABI 1 refuses every rename across directories (EXDEV)
  const work = tempDir();
  const scratch = tempDir('sbx-scratch-');
  writeFileSync(join(scratch, 'kept'), 'kept\n');
  const cmd = 'mv /work/ok /scratch/moved; echo "mv=$?"; ln /scratch/kept /work/link; echo "ln=$?"; rm -f /scratch/kept; echo "rm=$?"';
  writeFileSync(join(work, 'ok'), 'x');
  const r = runEdited(['/bin/sh', '-c', cmd], { work, bind: [{ src: scratch, dst: '/scratch' }] }, unprotect('/scratch'));
  assert.match(r.out, /mv=[1-9]/, r.out);
  assert.match(r.out, /ln=[1-9]/, r.out);
  assert.match(r.out, /rm=[1-9]/, r.out);
  assert.ok(existsSync(join(scratch, 'kept')));
  assert.ok(existsSync(join(work, 'ok')));
});

test('a writable bind the user names is writable under Landlock too', async () => {
  const scratch = tempDir('sbx-scratch-');
  const r = await sh('echo w > /data/x && mkdir -p /data/d/e && echo done', { bind: [{ src: scratch, dst: '/data' }] });
  assert.is(r.setupError, null, r.setupError?.message);
  assert.match(r.out, 'done', r.out);
  assert.ok(existsSync(join(scratch, 'd', 'e')));
  if (abiOf(r) > 0) assert.ok(r.outcome.applied.landlock.write.includes('/data'));
});

test('the launcher refuses Landlock rules without --landlock, and --landlock without no_new_privs', () => {
  const r1 = spawnSync(launcherPath(), ['--status-fd', '1', '--unshare-user', '--unshare-pid', '--landlock-write', '/tmp', '--', 'true'], { encoding: 'utf8' });
  assert.match(r1.stderr, 'need --landlock');
  const r2 = spawnSync(launcherPath(), ['--status-fd', '1', '--unshare-user', '--unshare-pid', '--landlock', '--', 'true'], { encoding: 'utf8' });
  assert.match(r2.stderr, '--landlock needs --no-new-privs');
  const r3 = spawnSync(launcherPath(), ['--landlock-connect', '99999', '--', 'true'], { encoding: 'utf8' });
  assert.match(r3.stderr, 'bad --landlock-connect');
});

test('with --allow-host on ABI >= 4, TCP connect reaches the forwarder\'s port alone', async () => {
  if (!existsSync('/usr/bin/python3')) { console.log('  (skipped: no python3; apt-get install -y python3)'); return; }
  const py = [
    'import socket',
    's = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(1); port = s.getsockname()[1]',
    'for p in (port, 3128):',
    '    c = socket.socket()',
    '    try: c.connect(("127.0.0.1", p)); print(p, "connected")',
    '    except OSError as e: print(p, "refused", e.errno)',
  ].join('\n');
  const r = await run(['/usr/bin/python3', '-c', py], { allowHosts: ['pkg.test'] });
  assert.is(r.setupError, null, r.setupError?.message);
  const ll = r.outcome.applied.landlock;
  if (ll.abi < 4) {
    assert.is(ll.connect_tcp, null);
    assert.match(r.out, /\d+ connected\n3128 connected/, r.out);
    return;
  }
  assert.equal(ll.connect_tcp, [3128]);
  assert.match(r.out, /^\d+ refused 13$/m, r.out); // EACCES: a server of the sandbox's own on another port
  assert.match(r.out, '3128 connected', r.out);
});

test.run();
