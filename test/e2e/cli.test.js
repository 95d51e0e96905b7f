// The command line as a new user meets it, through the built CLI (dist/cli.js): bad flags refused with a
// suggestion, errors as JSON under --json, help without escape codes in a pipe, a closed pipe, exit codes
// that agree with the verdict's header, Ctrl-C, limits that did not apply, replay paths.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, ROOT, workDir, hostPidsWith, isRoot } from './_helpers.js';

const sbx = (args, opts = {}) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', maxBuffer: 64 << 20, ...opts });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const oneLine = (r, what) => {
  assert.is(r.stderr.trim().split('\n').length, 1, `${what}: ${r.stderr}`);
  assert.not.match(r.stderr, /\n\s+at |node:internal/, `${what}: a stack trace`);
};

// [args, stderr] — every subcommand refuses what it does not define, before doing anything.
const refused = [
  [['run', '--timout', '1', '--', 'sleep', '3'], /unknown flag --timout for sbx run: did you mean --timeout\?/],
  [['run', '--timeout=1', '--jsno', '--', 'true'], /unknown flag --jsno .*did you mean --json\?/],
  [['run', '--memroy=64', '--', 'true'], /unknown flag --memroy .*did you mean --memory\?/],
  [['run', '--xyzzy', '--', 'true'], /unknown flag --xyzzy for sbx run: it takes --work, --timeout/],
  [['run', '--timeout', '--', 'true'], /--timeout needs a value/],
  [['run', 'make', 'test'], /unexpected argument "make" for sbx run: usage: sbx run \[OPTIONS\] -- CMD/],
  [['verdict', '--raw', 'x.log', '--exti', '1'], /unknown flag --exti for sbx verdict: did you mean --exit\?/],
  [['verdict', '--raw', 'x.log', '--exit-stauts'], /did you mean --exit-status\?/],
  [['verdict', 'build.log'], /unexpected argument "build.log" for sbx verdict/],
  [['history', '--jsn'], /unknown flag --jsn for sbx history: did you mean --json\?/],
  [['replay', 's.jsonl', '--jsn'], /did you mean --json\?/],
  [['replay', 'a', 'b'], /unexpected argument "b" for sbx replay/],
  [['selftest', '--verbose'], /unknown flag --verbose for sbx selftest/],
  [['verdict'], /missing --raw for sbx verdict: the log file, or - for standard input/],
  [['replay'], /missing SESSION for sbx replay: a directory of logs/],
];
for (const [args, stderr] of refused) {
  test(`refused, exit 2, one line: sbx ${args.join(' ')}`, () => {
    const dir = workDir();
    const t0 = Date.now();
    const r = sbx(args, { cwd: dir });
    assert.is(r.status, 2, r.stderr);
    assert.match(r.stderr, stderr);
    oneLine(r, args.join(' '));
    assert.is(r.stdout, '');
    assert.not.ok(existsSync(join(dir, '.sbx')), 'nothing ran, nothing recorded');
    assert.ok(Date.now() - t0 < 2500, 'refused at once (the command did not run)');
  });
}

test('the flags that exist still parse: --no-seccomp, --name=value, -h', () => {
  const dir = workDir();
  const r = sbx(['run', '--no-seccomp', '--timeout=5', '--work', dir, '--', 'true']);
  // As root --no-seccomp is parsed and then refused for safety (issue 28), before anything runs.
  if (process.getuid() === 0) assert.match(r.stderr, '--no-seccomp is refused when root runs sbx');
  assert.is(r.status, process.getuid() === 0 ? 77 : 0, r.stderr);
  assert.is(sbx(['run', '-h']).status, 0);
  assert.is(sbx(['verdict', '--help']).status, 0);
});

// [args, code]: under --json, stdout still gets one JSON object when sbx itself fails.
const jsonErrors = [
  [['run', '--json', '--timout', '1', '--', 'true'], 'E_USAGE'],
  [['verdict', '--raw', '/nonexistent/build.log', '--json'], 'E_ENOENT'],
  [['run', '--json', '--work', '/nonexistent/dir', '--', 'true'], 'E_WORK_MISSING'],
  [['history', '--json', '--state', '/nonexistent/state'], 'E_NO_STATE'],
];
for (const [args, code] of jsonErrors) {
  test(`--json error is sbx.error/1 on stdout and one line on stderr: ${code}`, () => {
    const r = sbx(args);
    assert.is(r.status, 2);
    const lines = r.stdout.trim().split('\n');
    assert.is(lines.length, 1, r.stdout);
    const e = JSON.parse(lines[0]);
    assert.equal(Object.keys(e), ['schema', 'code', 'message']);
    assert.is(e.schema, 'sbx.error/1');
    assert.is(e.code, code);
    assert.is(r.stderr, `sbx: ${e.message}\n`);
  });
}

test('help in a pipe has no escape codes; sbx run --help shows -- CMD and the default timeout', () => {
  for (const args of [['--help'], ['run', '--help'], ['verdict', '--help'], ['replay', '-h']]) {
    const r = sbx(args, { env: { ...process.env, FORCE_COLOR: '1' } });
    assert.is(r.status, 0);
    assert.not.match(r.stdout, '\u001b[', `sbx ${args.join(' ')} is coloured in a pipe`);
    assert.not.match(r.stdout, / +\n/, 'no trailing blanks');
  }
  const run = sbx(['run', '--help']).stdout;
  assert.match(run, /^USAGE sbx run \[OPTIONS\] -- CMD \[ARGS\.\.\.\]$/m);
  assert.match(run, /--timeout.*default: none/);
  assert.match(sbx(['verdict', '--help']).stdout, /--exit-status/);
});

test('sbx ... | head: the closed pipe ends sbx quietly, exit status kept', () => {
  const session = join(ROOT, 'fixtures/sessions/asan-fix/session.jsonl');
  for (const json of ['', '--json']) {
    const r = spawnSync('bash', ['-c', `"$0" "$1" replay "$2" ${json} | head -c 20 >/dev/null; echo "status \${PIPESTATUS[0]}"`, process.execPath, CLI, session], { encoding: 'utf8' });
    assert.is(r.stderr, '', r.stderr);
    assert.is(r.stdout, 'status 0\n');
  }
});

const verdictExits = [
  { log: 'all good\n', exit: '0', plain: 0, status: 0 },
  { log: 'main.c:3:5: error: expected \';\' before \'}\' token\n', exit: '1', plain: 0, status: 1 },
  { log: 'boom\n', exit: '2', plain: 0, status: 1 },
];
for (const c of verdictExits) {
  test(`sbx verdict exits 0; with --exit-status ${c.status} (exit ${c.exit})`, () => {
    const dir = workDir({ 'build.log': c.log });
    const log = join(dir, 'build.log');
    assert.is(sbx(['verdict', '--raw', log, '--exit', c.exit]).status, c.plain);
    assert.is(sbx(['verdict', '--raw', log, '--exit', c.exit, '--exit-status']).status, c.status);
    assert.is(sbx(['verdict', '--raw', log, '--exit', c.exit, '--exit-status', '--json']).status, c.status);
  });
}

test('the README pipe example: ${PIPESTATUS[0]} is the command\'s status, read in the same command line', () => {
  const dir = workDir({ Makefile: 'all:\n\t@echo building; exit 2\n' });
  const r = spawnSync('bash', ['-c', `make 2>&1 | tee build.log; "$0" "$1" verdict --raw build.log --exit "\${PIPESTATUS[0]}" --exit-status`, process.execPath, CLI], { cwd: dir, encoding: 'utf8' });
  assert.is(r.status, 1, r.stdout + r.stderr);
  assert.match(r.stdout, /exit 2/);
});

test('replay: an absolute log path stays absolute; a relative one is relative to the session file; errors name the path tried', () => {
  const dir = workDir({ 'logs/abs.log': 'error: boom\n', 'sess/rel.log': 'ok\n' });
  const abs = join(dir, 'logs/abs.log');
  writeFileSync(join(dir, 'sess/session.jsonl'), `${JSON.stringify({ log: abs, exit: 1 })}\n${JSON.stringify({ log: 'rel.log', exit: 0 })}\n`);
  const ok = sbx(['replay', join(dir, 'sess/session.jsonl'), '--json'], { cwd: ROOT });
  assert.is(ok.status, 0, ok.stderr);
  const envs = ok.stdout.trim().split('\n').map((l) => JSON.parse(l));
  assert.equal(envs.map((e) => e.verdict.exit.code), [1, 0]);
  const rows = [
    [JSON.stringify({ log: join(dir, 'logs/none.log') }), join(dir, 'logs/none.log'), /absolute "log" path, used as given/],
    [JSON.stringify({ log: 'none.log' }), join(dir, 'sess/none.log'), /"none.log" is relative to the session's directory/],
  ];
  for (const [line, tried, how] of rows) {
    writeFileSync(join(dir, 'sess/bad.jsonl'), `${line}\n`);
    const r = sbx(['replay', join(dir, 'sess/bad.jsonl')], { cwd: ROOT });
    assert.is(r.status, 2);
    oneLine(r, line);
    assert.match(r.stderr, `cannot read ${tried}: no such file`);
    assert.match(r.stderr, how);
    assert.not.match(r.stderr, /sess\/\/|sess\/\/tmp|current directory/);
  }
});

// A command that never started: the exit code, the header and --json agree, and say which set-up problem.
const setups = [
  { name: 'a file without x permission', files: { 'noexec.sh': 'echo hi\n' }, cmd: ['./noexec.sh'], code: 126, setup: 'E_CMD_NOT_EXECUTABLE', text: /not executable/ },
  { name: 'a script whose #! interpreter is missing', files: { 'bad.sh': '#!/nonexistent/interp\necho hi\n' }, exec: ['bad.sh'], cmd: ['./bad.sh'], code: 126, setup: 'E_CMD_NOT_EXECUTABLE', text: /#! line names the interpreter \/nonexistent\/interp/ },
  { name: 'a script under /work by absolute path, bad #!', files: { 'bin/t': '#!/usr/bin/nosuch-python\n' }, exec: ['bin/t'], cmd: ['/work/bin/t'], code: 126, setup: 'E_CMD_NOT_EXECUTABLE', text: /nosuch-python/ },
  { name: 'a script found on PATH, bad #!', files: { 'bin/t2': '#!/opt/nowhere/ruby\n' }, exec: ['bin/t2'], flags: ['--env', 'PATH=/work/bin:/usr/bin:/bin'], cmd: ['t2'], code: 126, setup: 'E_CMD_NOT_EXECUTABLE', text: /\/opt\/nowhere\/ruby/ },
  { name: 'a path that does not exist', files: {}, cmd: ['./missing.sh'], code: 127, setup: 'E_CMD_NOT_FOUND', text: /does not exist there/ },
  { name: 'a command not on PATH', files: {}, cmd: ['sbx-no-such-command'], code: 127, setup: 'E_CMD_NOT_FOUND', text: /not on PATH/ },
];
for (const c of setups) {
  test(`set-up failure: ${c.name} -> exit ${c.code}, header "exit ${c.code}", outcome.setup_code ${c.setup}`, () => {
    const dir = workDir(c.files);
    for (const f of c.exec ?? []) chmodSync(join(dir, f), 0o755);
    const text = sbx(['run', '--work', dir, ...(c.flags ?? []), '--', ...c.cmd]);
    assert.is(text.status, c.code, text.stdout + text.stderr);
    assert.match(text.stdout, new RegExp(`^sbx: setup-failed · exit ${c.code} `, 'm'));
    const json = sbx(['run', '--work', dir, '--json', ...(c.flags ?? []), '--', ...c.cmd]);
    assert.is(json.status, c.code);
    const env = JSON.parse(json.stdout);
    assert.is(env.verdict.exit.code, c.code);
    assert.is(env.outcome.setup_code, c.setup);
    assert.match(env.verdict.setup_error, c.text);
  });
}

test('--memory on a machine without a delegated cgroup: said on stderr and in the footer, never silent', () => {
  const dir = workDir();
  const r = sbx(['run', '--work', dir, '--memory', '64', '--', 'true']);
  assert.is(r.status, 0, r.stderr);
  const env = JSON.parse(sbx(['run', '--work', dir, '--memory', '64', '--json', '--', 'true']).stdout);
  const cg = env.outcome.applied.cgroup;
  if (cg.path !== null) {
    assert.not.match(r.stderr + r.stdout, /was not applied/);
    return console.log(`  (a delegated cgroup exists here: ${cg.path}; the note is not needed)`);
  }
  const note = `--memory 64 was not applied: ${cg.reason}`;
  assert.match(r.stderr, `sbx: note: ${note}`);
  assert.match(r.stdout, new RegExp(`^log: .*\\nnote: ${note.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'm'));
  assert.not.match(sbx(['run', '--work', dir, '--', 'true']).stderr, /not applied/, 'no note when no limit was asked for');
});

test('Ctrl-C during sbx run: "interrupted", the log path, the run recorded, exit 130', async () => {
  const dir = workDir();
  const tag = `${50 + (process.pid % 1000) / 1000}${Date.now() % 1000}`;
  // "sleep TAG" appears only in the sleep's own command line, not in sbx's (which holds "$0" and TAG apart).
  const p = spawn(process.execPath, [CLI, 'run', '--work', dir, '--', 'sh', '-c', 'echo started; exec sleep "$0"', tag]);
  let out = ''; let err = '';
  p.stdout.on('data', (d) => { out += d; });
  p.stderr.on('data', (d) => { err += d; });
  const closed = new Promise((res) => p.on('close', (code) => res(code)));
  let seen = 0;
  for (let i = 0; i < 1500 && !seen; i++) { await sleep(20); seen = hostPidsWith(`sleep ${tag}`).length; }
  assert.ok(seen, 'the command was seen running');
  p.kill('SIGINT');
  const code = await closed;
  assert.is(code, 130, err);
  assert.match(err, /interrupted/);
  const log = /log: (\S+)/.exec(err)?.[1];
  assert.ok(log && existsSync(log), `the log path is named: ${err}`);
  assert.match(readFileSync(log, 'utf8'), /started/);
  const history = readFileSync(join(dir, '.sbx/history.jsonl'), 'utf8').trim().split('\n');
  assert.is(history.length, 1, 'the run is recorded');
  assert.ok(existsSync(join(dir, '.sbx/last.json')));
  assert.match(out, /^log: /m, 'the verdict is printed');
  assert.match(out, /killed by SIGINT/, 'the verdict names the interrupting signal, not the SIGKILL of the teardown');
  let left = hostPidsWith(`sleep ${tag}`);
  for (let i = 0; i < 250 && left.length; i++) { await sleep(20); left = hostPidsWith(`sleep ${tag}`); }
  assert.equal(left, []);
});

// A work dir the caller cannot enter, or a state dir under a directory it cannot search: one line naming
// the directory and what to do, exit 2 / 73, never an internal error (exit 70). Root can enter any directory:
// as root the run goes ahead (the unprivileged suite, scripts/test-unprivileged.sh, runs the refusals).
test('a work or state dir the caller cannot reach is refused in one line (2 / 73), not an internal error', () => {
  const locked = workDir({}, 'sbx-locked-');
  chmodSync(locked, 0o300); // not readable: it cannot be listed
  const out = workDir();
  const guarded = workDir({}, 'sbx-guard-');
  chmodSync(guarded, 0o600); // not searchable: nothing inside can even be looked up
  const run = (...a) => spawnSync(process.execPath, [CLI, 'run', ...a, '--', '/bin/true'], { encoding: 'utf8' });
  const work = run('--work', locked);
  const jsonErr = run('--work', locked, '--json');
  const state = run('--work', out, '--state', join(guarded, '.sbx'));
  chmodSync(locked, 0o755);
  chmodSync(guarded, 0o755);
  if (isRoot) {
    assert.is(work.status, 0, work.stderr);
    assert.is(state.status, 0, state.stderr);
    return;
  }
  assert.is(work.status, 2, work.stderr);
  assert.match(work.stderr, /^sbx: work dir \S+ is not readable by you \(uid \d+; it is owned by uid \d+, mode 300\); pass a directory of yours with --work, or run sbx as its owner\n$/);
  assert.is(JSON.parse(jsonErr.stdout).code, 'E_WORK_ACCESS');
  assert.is(state.status, 73, state.stderr);
  assert.match(state.stderr, /^sbx: cannot use \S+\.sbx as the state directory: permission denied; .*pass --state DIR\n$/);
});

test.run();
