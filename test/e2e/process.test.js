// The process side of `sbx run`: a wall-clock timeout that kills the whole sandbox (background children
// included) and returns promptly, the exit code mirroring the command's, the raw log on disk holding the
// full output, and sbx's own state (.sbx) out of the command's reach.
// sbx-test: alone (a timeout's return is timed; scripts/test.js runs it with no other file beside it)
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { chmodSync, readFileSync, readdirSync, existsSync, realpathSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { CLI, isRoot, workDir, sbxRun, sbxRunAsync, hostPidsWith, logText } from './_helpers.js';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

test('--timeout 1 with a background child: timeout, SIGKILL, exits within seconds, every process gone', async () => {
  const tag = `${30 + (process.pid % 1000) / 1000}${Date.now() % 1000}`; // a unique "sleep 30.xxx" to look for
  const dir = workDir();
  const t0 = Date.now();
  const run = sbxRunAsync(dir, ['sh', '-c', `sleep ${tag} & sleep ${tag}; echo not-reached`], ['--timeout', '1']);
  // While it runs, its processes exist (and are visible to the host): the check below is not vacuous.
  let done = false;
  run.then(() => { done = true; });
  let seen = 0;
  while (!done && seen < 2) { seen = hostPidsWith(`sleep ${tag}`).length; await sleep(20); }
  assert.ok(seen >= 2, 'both sleeps were seen running');
  const r = await run;
  const ms = Date.now() - t0;
  const env = JSON.parse(r.out);
  assert.is(env.verdict.status, 'timeout', r.out);
  assert.equal(env.verdict.exit, { code: null, signal: 'SIGKILL', timed_out: true });
  assert.is(env.outcome.timed_out, true);
  assert.is(r.code, 137, 'exit mirrors 128 + SIGKILL');
  assert.ok(ms < 5000, `returned after ${ms} ms`);
  // The timeout is the command's own time, counted from its exec (docs/sandbox.md): the set-up is not in it.
  assert.ok(env.outcome.wall_ms >= 1000 && env.outcome.wall_ms < 3000, `wall_ms ${env.outcome.wall_ms}`);
  assert.not.match(logText(env), /not-reached/);
  // The background sleep (and the foreground one) are gone: poll briefly, the pid namespace is torn down
  // off the caller's critical path.
  let left = hostPidsWith(`sleep ${tag}`);
  for (let i = 0; i < 40 && left.length; i++) { await sleep(50); left = hostPidsWith(`sleep ${tag}`); }
  assert.equal(left, [], 'no sleep survived the timeout');
});

for (const sig of ['SIGTERM', 'SIGINT', 'SIGKILL']) {
  test(`the caller stops sbx run with ${sig}: the sandbox and its background children go with it`, async () => {
    const tag = `${40 + (process.pid % 1000) / 1000}${Date.now() % 1000}`;
    const p = spawn(process.execPath, [CLI, 'run', '--work', workDir(), '--', 'sh', '-c', `sleep ${tag} & sleep ${tag}`], { stdio: 'ignore' });
    const closed = new Promise((res) => p.on('close', (code, signal) => res({ code, signal })));
    let seen = 0;
    for (let i = 0; i < 250 && seen < 2; i++) { await sleep(20); seen = hostPidsWith(`sleep ${tag}`).length; }
    assert.ok(seen >= 2, 'both sleeps were seen running');
    p.kill(sig);
    const t0 = Date.now();
    await closed;
    let left = hostPidsWith(`sleep ${tag}`);
    for (let i = 0; i < 100 && left.length; i++) { await sleep(20); left = hostPidsWith(`sleep ${tag}`); }
    assert.equal(left, [], `no sleep survived ${sig} to the CLI`);
    assert.ok(Date.now() - t0 < 3000);
  });
}

const exits = [
  { name: 'exit 3', cmd: ['sh', '-c', 'echo about to fail; exit 3'], code: 3, status: 'runtime-error', exit: { code: 3, signal: null } },
  { name: 'kill -SEGV $$', cmd: ['sh', '-c', 'kill -SEGV $$'], code: 139, status: 'crash', exit: { code: null, signal: 'SIGSEGV' } },
  { name: 'kill -ABRT $$', cmd: ['sh', '-c', 'kill -ABRT $$'], code: 134, status: 'crash', exit: { code: null, signal: 'SIGABRT' } },
  { name: 'true', cmd: ['true'], code: 0, status: 'pass', exit: { code: 0, signal: null } },
  { name: 'command not found', cmd: ['sbx-no-such-command'], code: 127, status: 'setup-failed', setup: /not found/ },
  { name: 'a path that does not exist', cmd: ['./missing.sh'], code: 127, status: 'setup-failed', setup: /not found|does not exist/ },
];
for (const c of exits) {
  test(`exit code mirrors the command: ${c.name} -> ${c.code} (${c.status})`, () => {
    const r = sbxRun(workDir(), c.cmd);
    assert.is(r.code, c.code, r.why());
    assert.is(r.verdict.status, c.status, r.why());
    if (c.exit) assert.equal([r.verdict.exit.code, r.verdict.exit.signal], [c.exit.code, c.exit.signal]);
    if (c.setup) assert.match(r.verdict.setup_error ?? '', c.setup);
    if (c.exit?.signal) assert.is(r.verdict.crash?.kind, c.exit.signal);
  });
}

test('the rendered verdict exits the same as --json', () => {
  const r = sbxRun(workDir(), ['sh', '-c', 'exit 7'], { json: false });
  assert.is(r.code, 7);
  assert.match(r.stdout, /^sbx: runtime-error · exit 7/m);
});

test('the raw log on disk holds the full output (stdout and stderr), far past the in-memory tail', () => {
  const dir = workDir();
  const n = 100000; // ~590 KB of stdout
  const r = sbxRun(dir, ['sh', '-c', `seq 1 ${n}; echo on-stderr >&2; echo last-line`]);
  assert.is(r.code, 0, r.why());
  const log = readFileSync(r.env.log, 'utf8');
  const lines = log.split('\n');
  assert.ok(lines.includes('1') && lines.includes(String(n / 2)) && lines.includes(String(n)));
  assert.ok(lines.includes('on-stderr') && lines.includes('last-line'));
  const seqBytes = Array.from({ length: n }, (_, i) => `${i + 1}\n`).join('').length;
  assert.is(r.env.outcome.output_bytes, seqBytes + 'last-line\n'.length + 'on-stderr\n'.length);
  assert.is(Buffer.byteLength(log), r.env.outcome.output_bytes);
  assert.ok(log.endsWith(`${n}\non-stderr\nlast-line\n`), 'in the order written');
  assert.is(r.verdict.raw_bytes, Buffer.byteLength(log));
  assert.ok(r.env.log.startsWith(join(dir, '.sbx', 'logs')));
  assert.ok(r.verdict.tail.length <= 12);
});

test('.sbx is not visible to the command: it can neither read, list nor change sbx\'s state', () => {
  const dir = workDir({ 'src.txt': 'x\n' });
  const script = ['sh', '-c', [
    'cat /work/.sbx/last.json /work/.sbx/history.jsonl 2>/dev/null',
    'ls -A /work/.sbx 2>/dev/null',
    'find /work/.sbx -mindepth 1 2>/dev/null',
    'echo forged > /work/.sbx/last.json 2>/dev/null && echo WROTE',
    'rm -rf /work/.sbx 2>/dev/null',
    'cat /work/src.txt',
    'exit 0',
  ].join('; ')];
  const first = sbxRun(dir, script);
  assert.is(first.code, 0, first.why());
  assert.ok(existsSync(join(dir, '.sbx/last.json')));
  const before = readFileSync(join(dir, '.sbx/last.json'), 'utf8');
  const r = sbxRun(dir, script);
  assert.is(r.code, 0, r.why());
  const out = logText(r.env);
  assert.not.match(out, /sbx\.run-result|sbx\.verdict|WROTE|\.log/, out);
  assert.match(out, /^x$/m, 'the rest of the work dir is there');
  // The state is intact: the previous last.json was the one this run compared against, and both runs are recorded.
  assert.is(r.env.delta.first_run, false);
  assert.ok(before.includes('sbx.run-result/1'));
  assert.is(JSON.parse(readFileSync(join(dir, '.sbx/last.json'), 'utf8')).schema, 'sbx.run-result/1');
  assert.is(readFileSync(join(dir, '.sbx/history.jsonl'), 'utf8').trim().split('\n').length, 2);
  assert.is(readdirSync(join(dir, '.sbx/logs')).filter((f) => f.endsWith('.log')).length, 2);
});

test('.sbx looks like an empty directory inside, so tree walks (find, grep -r, node --test) work', () => {
  const dir = workDir({ 'a.test.js': "import test from 'node:test'; test('ok', () => {});\n" });
  sbxRun(dir, ['true']);
  const r = sbxRun(dir, ['sh', '-c', 'find /work -name "*.json" | wc -l; grep -r zzz-none /work; echo grep=$?; node --test 2>&1 | grep -E "^# (pass|fail)"']);
  assert.is(r.code, 0, r.why());
  assert.is(logText(r.env), '0\ngrep=1\n# pass 1\n# fail 0\n');
});

test('a work dir or bind source through a symlink the caller could have planted is refused, with the real path named', () => {
  const real = workDir({ 'in.txt': 'through the link\n' });
  const links = workDir();
  symlinkSync(real, join(links, 'work'));
  symlinkSync(real, join(links, 'data'));
  const w = sbxRun(join(links, 'work'), ['true'], { json: false });
  assert.is(w.code, 77, w.stderr);
  assert.match(w.stderr, `crosses the symlink ${join(links, 'work')}`);
  assert.match(w.stderr, `pass the real path (${realpathSync(real)})`);
  assert.not.ok(existsSync(join(real, '.sbx')), 'state was written through the link');
  const b = sbxRun(real, ['cat', '/data/in.txt'], { flags: ['--ro-bind', `${join(links, 'data')}:/data`] });
  assert.is(b.verdict.status, 'setup-failed', b.why());
  assert.match(b.verdict.setup_error, 'bind source');
  const ok = sbxRun(realpathSync(real), ['sh', '-c', 'cat /work/in.txt; echo made > /work/out.txt']);
  assert.is(ok.code, 0, ok.why());
  assert.is(readFileSync(join(real, 'out.txt'), 'utf8'), 'made\n');
});

test('a symlink in a directory nobody but root could write (mode 0555) is followed, resolved on the host', () => {
  if (!isRoot) return; // only root can make such a directory here; the rule is the same for everyone
  const real = workDir({ 'in.txt': 'through the link\n' });
  const links = workDir();
  symlinkSync(real, join(links, 'work'));
  symlinkSync(real, join(links, 'data'));
  chmodSync(links, 0o555);
  const r = sbxRun(join(links, 'work'), ['sh', '-c', 'cat /work/in.txt /data/in.txt; echo made > /work/out.txt'], { flags: ['--ro-bind', `${join(links, 'data')}:/data`] });
  chmodSync(links, 0o755);
  assert.is(r.code, 0, r.why());
  assert.is(logText(r.env), 'through the link\nthrough the link\n');
  assert.is(readFileSync(join(real, 'out.txt'), 'utf8'), 'made\n');
});

test.run();
