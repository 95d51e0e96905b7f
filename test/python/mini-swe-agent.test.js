// sbx's mini-SWE-agent environment (src/integrations/mini-swe-agent/sbx_environment.py), driven by
// msa_driver.py the way mini-SWE-agent 2.x's DefaultAgent drives an environment, on the ASan and pytest
// projects of test/integrations/projects. mini-SWE-agent itself is not installed: it is on PyPI only, which
// CI cannot reach (docs/integrations.md says so). What the asserts check is what its model would read.
// Every assertion holds for both transports (one resident sbx mcp server, sbx run per action); the
// server's own facts (started once, the CLI for what it cannot say, a restart, nothing left behind) after.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../../fixtures/lib/cases.js';
import { needs } from '../_tools.js';

const WHAT = 'test/python/mini-swe-agent (sbx\'s mini-SWE-agent environment)';

const moduleDir = join(ROOT, 'src/integrations/mini-swe-agent');
const sbxCommand = [process.execPath, join(ROOT, 'dist/cli.js')];
const scratch = mkdtempSync(join(tmpdir(), 'sbx-msa-'));
const act = (cmd) => `THOUGHT: next step.\n\n\`\`\`mswea_bash_command\n${cmd}\n\`\`\``;

function drive(project, replies, { timeouts = [], env = {}, killBefore = [], close = true } = {}) {
  const work = join(scratch, `${project}-${Math.random().toString(36).slice(2)}`);
  cpSync(join(ROOT, 'test/integrations/projects', project), work, { recursive: true });
  const input = { module_dir: moduleDir, env: { sbx_command: sbxCommand, cwd: work, ...env }, outputs: replies, timeouts, kill_before: killBefore, close };
  const started = Date.now();
  const r = spawnSync('python3', [join(ROOT, 'test/python/msa_driver.py')], { input: JSON.stringify(input), maxBuffer: 64 << 20 });
  assert.is(r.status, 0, `msa_driver.py exited ${r.status}: ${r.stderr}`);
  return { work, ms: Date.now() - started, stderr: r.stderr.toString(), ...JSON.parse(r.stdout.toString()) };
}

/** Processes in process group pgid (the server's own session), zombies included. */
function group(pgid) {
  return readdirSync('/proc').filter((n) => /^\d+$/.test(n)).filter((n) => {
    try { return Number(readFileSync(`/proc/${n}/stat`, 'utf8').split(')').at(-1).trim().split(' ')[2]) === pgid; } catch { return false; }
  });
}

for (const transport of ['mcp', 'cli']) {
  const test = needs(WHAT, ['python3'], suite(`transport ${transport}`));

  const asan = test.skipping ? null : drive('asan', [
    act('make -s run'),
    act('id -un && hostname'),
    act('sleep 30'),
    act('echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && head -n 2 main.c'),
  ], { timeouts: [null, null, 2, null], env: { transport } });

  test('ASan crash: the model gets the verdict with the first user frame and the log path, not the 30 KB', () => {
    const [crash] = asan.outputs;
    assert.is(crash.returncode, 2, 'make run exits 2 when ./prog crashes: the command\'s own code');
    assert.is(crash.exception_info, '');
    assert.match(crash.output, /^sbx: crash · exit 2/);
    assert.match(crash.output, /crash: asan heap-use-after-free/);
    assert.match(crash.output, /\n {2}at lookup main\.c:24\n/);
    const log = /\nlog: (\/work\/\.sbx\/logs\/\S+\.log)\n/.exec(crash.output);
    assert.ok(log, `no in-sandbox log path in:\n${crash.output}`);
    const raw = readFileSync(join(asan.work, log[1].slice('/work/'.length)), 'utf8');
    assert.ok(raw.length > 30000, `the raw log is ${raw.length} bytes`);
    assert.match(raw, /progress: step 0100 of 0330/);
    assert.not.match(crash.output, /step 0100 of 0330/, 'raw progress lines reached the model');
    assert.ok(crash.output.length < 4000, `${crash.output.length} characters`);
    const obs = asan.messages.find((m) => m.role === 'user' && m.content.includes('<returncode>2</returncode>'));
    assert.ok(obs && obs.content.includes('at lookup main.c:24'), 'the observation message holds the verdict');
  });

  test('the command ran in sbx: its user and host name are the sandbox\'s', () => {
    const who = asan.outputs[1];
    assert.is(who.returncode, 0);
    assert.is(who.output, 'sbx\nsbx\n', 'a short passing output is passed as is');
    assert.is.not(hostname(), 'sbx', 'this machine is itself called sbx: the marker proves nothing');
    assert.is(who.extra.sbx.status, 'pass');
  });

  test('timeout: what LocalEnvironment returns (returncode -1, TimeoutExpired), with the timeout verdict as output', () => {
    const t = asan.outputs[2];
    assert.is(t.returncode, -1);
    assert.is(t.exception_info, "An error occurred while executing the command: Command 'sleep 30' timed out after 2 seconds");
    assert.is(t.extra.exception_type, 'TimeoutExpired');
    assert.match(t.output, /^sbx: timeout · timed out/);
    assert.match(t.output, /\nlog: \/work\/\.sbx\/logs\//);
    assert.ok(asan.ms < 25000, `the session took ${asan.ms} ms: sleep 30 was not cut at 2 s`);
  });

  test('submit: the raw output, not a verdict, and Submitted ends the loop with the submission', () => {
    const exit = asan.messages.at(-1);
    assert.is(exit.role, 'exit');
    const head = readFileSync(join(ROOT, 'test/integrations/projects/asan/main.c'), 'utf8').split('\n').slice(0, 2).join('\n') + '\n';
    assert.is(exit.content, head);
    assert.equal(exit.extra, { exit_status: 'Submitted', submission: head });
    assert.is(asan.outputs.length, 3, 'the submit command returned no output: it raised');
  });

  test('serialize(): the environment type and config, as mini-SWE-agent saves them in a trajectory', () => {
    const c = asan.serialized.info.config;
    assert.is(c.environment_type, 'sbx_environment.SbxEnvironment');
    assert.is(c.environment.timeout, 30);
    assert.is(c.environment.shell, 'bash');
    assert.is(c.environment.transport, transport);
  });

  test('the transport: one server for the whole session with mcp (its pid after every action), none with cli', () => {
    const pids = asan.server_pids;
    assert.is(pids.length, 4);
    if (transport === 'cli') assert.equal(pids, [null, null, null, null]);
    else {
      assert.ok(Number.isInteger(pids[0]), String(pids));
      assert.equal(pids, [pids[0], pids[0], pids[0], pids[0]], 'the server was started again');
      assert.equal(asan.after_close, { [pids[0]]: [] }, 'close() left processes in the server\'s group');
    }
    assert.is(asan.stderr, '');
  });

  needs(`${WHAT}: pytest`, ['pytest'], test)('pytest: the failing test by name and the log path; the passing noise is not there', () => {
    const s = drive('pytest', [act('python3 -m pytest -q -s'), act('echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT')], { env: { transport } });
    const [run] = s.outputs;
    assert.is(run.returncode, 1, 'pytest exits 1 when a test fails');
    assert.match(run.output, /test_mean_of_three/);
    assert.match(run.output, /\nlog: \/work\/\.sbx\/logs\/\S+\.log/);
    const raw = readFileSync(run.extra.sbx.log, 'utf8');
    assert.match(raw, /clamp check 150/);
    assert.not.match(run.output, /clamp check 150/);
    assert.is(s.messages.at(-1).role, 'exit');
    assert.is(s.messages.at(-1).content, '');
  });

  test('bad settings: a missing sbx is one line, no traceback; an unknown key is ignored with one line', () => {
    const code = (env) => `import sys; sys.path.insert(0, ${JSON.stringify(moduleDir)})
from sbx_environment import SbxEnvironment
try:
    print(SbxEnvironment(**${JSON.stringify(env)}).config.timeout)
except ValueError as e:
    print(e)`;
    let r = spawnSync('python3', ['-c', code({ sbx_command: 'no-such-sbx-binary' })]);
    assert.is(r.status, 0, r.stderr.toString());
    assert.is(r.stdout.toString().trim().split('\n').length, 1, r.stdout.toString());
    assert.match(r.stdout.toString(), /'no-such-sbx-binary' \(sbx_command\) was not found on PATH/);
    r = spawnSync('python3', ['-c', code({ sbx_command: sbxCommand, timout: 3 })]);
    assert.is(r.status, 0, r.stderr.toString());
    assert.is(r.stdout.toString(), '30\n');
    assert.match(r.stderr.toString(), /^sbx environment: ignoring unknown setting timout \(known: [^\n]*\)\n$/);
    r = spawnSync('python3', ['-c', code({ sbx_command: sbxCommand, transport: 'http' })]);
    assert.is(r.status, 0, r.stderr.toString());
    assert.is(r.stdout.toString(), 'sbx environment: transport is \'http\': give "mcp" (one resident sbx mcp server) or "cli" (sbx run per action)\n');
  });

  test('sbx refuses (a work dir that does not exist): returncode -1 and sbx\'s one line, nothing run', () => {
    const code = `import sys, json; sys.path.insert(0, ${JSON.stringify(moduleDir)})
from sbx_environment import SbxEnvironment
print(json.dumps(SbxEnvironment(sbx_command=${JSON.stringify(sbxCommand)}, transport=${JSON.stringify(transport)}).execute({"command": "true"}, cwd="/no/such/dir")))`;
    const r = spawnSync('python3', ['-c', code]);
    assert.is(r.status, 0, r.stderr.toString());
    const out = JSON.parse(r.stdout.toString());
    assert.is(out.returncode, -1);
    assert.match(out.exception_info, /sbx refused to run the command \(exit 2\): sbx: /);
    assert.is(out.output.split('\n').length, 1, out.output);
    assert.not.match(out.output, /Traceback|at .*\.js:\d+/);
    assert.is(r.stderr.toString(), '');
  });

  test.run();
}

const mcp = needs(WHAT, ['python3'], suite('transport mcp: the resident server'));

mcp('an action with env goes through sbx run: no server is started, the variable is set', () => {
  const s = drive('pytest', [act('echo "$GREETING"'), act('echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT')], { env: { env: { GREETING: 'hello' } } });
  assert.is(s.outputs[0].output, 'hello\n');
  assert.is(s.outputs[0].returncode, 0);
  assert.equal(s.server_pids, [null, null]);
});

mcp('a killed server is started again and the action still answered; close() then leaves nothing behind', () => {
  const s = drive('pytest', [act('echo one'), act('echo two'), act('exit 3'), act('echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT')], { killBefore: [1, 2] });
  assert.equal(s.outputs.slice(0, 2).map((o) => [o.output, o.returncode]), [['one\n', 0], ['two\n', 0]]);
  assert.is(s.outputs[2].returncode, 3);
  assert.match(s.outputs[2].output, /^sbx: runtime-error · exit 3/);
  const [a, b, c, d] = s.server_pids;
  assert.ok(a && b && c && a !== b && b !== c && c === d, `server pids ${s.server_pids}`);
  assert.equal(Object.values(s.after_close), [[], [], []], `left behind: ${JSON.stringify(s.after_close)}`);
  assert.is(s.stderr, '', 'one restart per failure is not a fallback');
});

mcp('a server that cannot start: sbx run for the rest of the session, said once on stderr', () => {
  // sbx itself, except that `sbx mcp` exits at once.
  const sbx = ['sh', '-c', 'if [ "$3" = mcp ]; then echo "no mcp here" >&2; exit 1; fi; exec "$@"', 'sh', ...sbxCommand];
  const s = drive('pytest', [act('echo one'), act('exit 4'), act('echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT')], { env: { sbx_command: sbx } });
  assert.equal(s.outputs.map((o) => o.returncode), [0, 4]);
  assert.is(s.outputs[0].output, 'one\n');
  assert.equal(s.server_pids, [null, null, null]);
  assert.match(s.stderr, /^sbx environment: the sbx mcp server failed again \([^\n]*: no mcp here\): running the rest of the session with sbx run per action\n$/);
});

mcp('no close(): the server is stopped at exit, no process left in its group', () => {
  const s = drive('pytest', [act('echo one'), act('echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT')], { close: false });
  const [pid] = s.server_pids;
  assert.ok(Number.isInteger(pid));
  assert.equal(group(pid), []);
  assert.not.ok(existsSync(`/proc/${pid}`) && readFileSync(`/proc/${pid}/stat`, 'utf8').includes('(node)'), 'the server outlived its environment');
});

process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));
mcp.run();
