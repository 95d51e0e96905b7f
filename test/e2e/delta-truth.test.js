// Issue 29 (a delta that tells the truth), what only real `sbx run`s show: an interrupted run (Ctrl-C) is
// recorded with its own status and is no baseline for the next run (item 3); one command keys one delta
// however it arrives: `sbx run -- X`, the MCP run tool's `bash -c 'X'`, a hook's rewrite (item 4); a test that
// fails another way breaks the "same verdict" streak (item 1). Real runs of sh, python3 and the real CLI.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CLI, workDir, hostPidsWith, sbxRun, pytestSetup, skipNote } from './_helpers.js';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const summary = (r) => r.env.delta.summary;

test('Ctrl-C: the run is "interrupted", not a SIGINT crash, and the next run is compared with the one before it', async () => {
  // One command throughout; the file `slow` (holding a tag) makes it hang until it is interrupted.
  const dir = workDir({ 'run.sh': 'if [ -e slow ]; then echo started; exec sleep "$(cat slow)"; fi\necho ok\n' });
  const cmd = ['sh', 'run.sh'];
  const first = sbxRun(dir, cmd);
  assert.is(first.verdict.status, 'pass', first.why());

  const tag = `${60 + (process.pid % 1000) / 1000}${Date.now() % 1000}`;
  writeFileSync(join(dir, 'slow'), tag);
  const p = spawn(process.execPath, [CLI, 'run', '--work', dir, '--json', '--', ...cmd]);
  let out = ''; let err = '';
  p.stdout.on('data', (d) => { out += d; });
  p.stderr.on('data', (d) => { err += d; });
  const closed = new Promise((res) => p.on('close', (code) => res(code)));
  let seen = 0;
  for (let i = 0; i < 1500 && !seen; i++) { await sleep(20); seen = hostPidsWith(`sleep ${tag}`).length; }
  assert.ok(seen, 'the command was seen running');
  p.kill('SIGINT');
  assert.is(await closed, 130, err);
  const cut = JSON.parse(out);
  assert.is(cut.verdict.status, 'interrupted', JSON.stringify(cut.verdict));
  assert.is(cut.verdict.exit.signal, 'SIGINT');
  assert.is(cut.verdict.crash, null, 'Ctrl-C is no crash of the command');
  assert.is(cut.delta.status.before, 'pass');
  // The last.json is the newest run (the interrupted one); the history has all three lines at the end.
  assert.is(JSON.parse(readFileSync(join(dir, '.sbx/last.json'), 'utf8')).verdict.status, 'interrupted');

  unlinkSync(join(dir, 'slow'));
  const next = sbxRun(dir, cmd);
  assert.is(next.verdict.status, 'pass', next.why());
  assert.is(next.env.delta.first_run, false);
  assert.is(next.env.delta.status.before, 'pass', `compared with the run before the interrupted one: ${summary(next)}`);
  assert.is(next.env.delta.crash, 'none', summary(next));
  assert.not.match(summary(next), /GONE|SIGINT|interrupted/);
  assert.match(summary(next), /^no change/);
  const history = readFileSync(join(dir, '.sbx/history.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l).status);
  assert.equal(history, ['pass', 'interrupted', 'pass']);
});

test('an interrupted first run is no baseline: the next run of the command is its first', async () => {
  const dir = workDir({ 'run.sh': 'if [ -e slow ]; then echo started; exec sleep "$(cat slow)"; fi\necho ok\n' });
  const tag = `${70 + (process.pid % 1000) / 1000}${Date.now() % 1000}`;
  writeFileSync(join(dir, 'slow'), tag);
  const p = spawn(process.execPath, [CLI, 'run', '--work', dir, '--', 'sh', 'run.sh'], { stdio: 'ignore' });
  const closed = new Promise((res) => p.on('close', (code) => res(code)));
  let seen = 0;
  for (let i = 0; i < 1500 && !seen; i++) { await sleep(20); seen = hostPidsWith(`sleep ${tag}`).length; }
  assert.ok(seen, 'the command was seen running');
  p.kill('SIGINT');
  assert.is(await closed, 130);
  unlinkSync(join(dir, 'slow'));
  const next = sbxRun(dir, ['sh', 'run.sh']);
  assert.is(next.env.delta.first_run, true, summary(next));
});

// The hook's rewrite, as a client's shell would run it: the pre-hook's answer, run by bash.
function viaHook(project, cwd, command) {
  const home = mkdtempSync(join(tmpdir(), 'sbx-hook-home-'));
  try {
    const input = JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command }, cwd, session_id: 's', tool_use_id: 't' });
    const h = spawnSync(process.execPath, [CLI, 'hook', 'claude-pre'], { input, encoding: 'utf8', cwd, env: { ...process.env, HOME: home, CLAUDE_PROJECT_DIR: project } });
    assert.is(h.status, 0, h.stderr);
    const line = JSON.parse(h.stdout).hookSpecificOutput.updatedInput.command;
    assert.match(line, / -- bash -c /);
    const r = spawnSync('bash', ['-c', line.replace(' run --work', ' run --json --work')], { encoding: 'utf8', cwd, env: { ...process.env, HOME: home } });
    return JSON.parse(r.stdout);
  } finally { rmSync(home, { recursive: true, force: true }); }
}

test('one command, one key: sbx run -- X, MCP run {command: X} (bash -c X) and a hook\'s rewrite share a delta', async () => {
  const dir = workDir({ 'check.sh': 'echo "FAIL: total is 3, want 4"\nexit 1\n', 'sub/check.sh': 'echo "FAIL: sub"\nexit 1\n' });
  for (const f of ['check.sh', 'sub/check.sh']) chmodSync(join(dir, f), 0o755);
  // `./check.sh`: a command the hooks send to the sandbox (rules.ts: './*').
  const direct = sbxRun(dir, ['./check.sh']);
  assert.is(direct.env.delta.first_run, true);

  const client = new Client({ name: 'sbx-test', version: '1' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp'], cwd: dir, stderr: 'pipe' }));
  try {
    const r = await client.callTool({ name: 'run', arguments: { command: './check.sh', timeout: 60 } });
    const d = r.structuredContent.delta;
    assert.is.not(d, 'first run', `the MCP run of the same command is compared with sbx run's: ${d}`);
    assert.match(d, /^no change — nothing changed since the last run/);
  } finally { await client.close(); }

  // A hook in the project's root: bash -c './check.sh', the same key again.
  const hooked = viaHook(dir, dir, './check.sh');
  assert.is(hooked.delta.first_run, false, hooked.delta.summary);
  // A hook in sub/: `cd sub || exit 125` then the command, which keys as `cd sub && ./check.sh` typed directly,
  // and never as the root's command.
  const inSub = viaHook(dir, join(dir, 'sub'), './check.sh');
  assert.is(inSub.delta.first_run, true, `the sub/ run was compared with the root's: ${inSub.delta.summary}`);
  const typed = sbxRun(dir, ['sh', '-c', 'cd sub && ./check.sh']);
  assert.is(typed.env.delta.first_run, false, summary(typed));
  assert.match(summary(typed), /^no change — nothing changed since the last run/);
  // A script that is more than plain words keys as its text: `sh -c` and `bash -c` of it are one command.
  const piped = sbxRun(dir, ['sh', '-c', './check.sh | cat']);
  const piped2 = sbxRun(dir, ['bash', '-c', './check.sh | cat']);
  assert.is(piped.env.delta.first_run, true);
  assert.is(piped2.env.delta.first_run, false, summary(piped2));
});

test('a test that fails another way: "failure changed", no "same verdict" streak, not "your edit did not change the result"', () => {
  const py = pytestSetup();
  if (py.skip) { skipNote('failure changed', py.skip); return; }
  const dir = workDir({ 'test_a.py': 'def test_a():\n    x = 1\n    y = 2\n\n    assert x == y\n' });
  const a = sbxRun(dir, py.cmd);
  assert.is(a.verdict.status, 'tests-failed', a.why());
  writeFileSync(join(dir, 'test_a.py'), 'def test_a():\n    raise KeyError("boom")\n    y = 2\n\n    assert x == y\n');
  const b = sbxRun(dir, py.cmd);
  assert.is(b.verdict.status, 'tests-failed', b.why());
  assert.is(b.env.delta.no_op_edit, false, summary(b));
  assert.equal(b.env.delta.tests.changed, ['test_a.py::test_a']);
  assert.is(b.env.delta.repeat.same_verdict_runs, 1, 'the streak restarts: another verdict');
  assert.is(summary(b), "tests: 1 still failing · failure changed (assert 1 == 2 at test_a.py:5 → KeyError: 'boom' at test_a.py:2)");
  // The same failure again, nothing edited: that is "no change", and the streak counts it.
  const c = sbxRun(dir, py.cmd);
  assert.is(c.env.delta.repeat.same_verdict_runs, 2);
  assert.match(summary(c), /^no change — nothing changed since the last run \(tests-failed\) · same verdict 2 runs in a row$/);
});

test.run();
