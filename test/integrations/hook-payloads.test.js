// Each client's hook answers to payloads captured from the real client (payloads/), through the real CLI.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bin } from './_client.js';
import { CODEX_PAYLOADS, GEMINI_PAYLOADS, hook, payload } from './_hook-helpers.js';
import { needs } from '../_tools.js';


const tmp = mkdtempSync(join(tmpdir(), 'sbx-hook-'));
const proj = join(tmp, 'proj');
mkdirSync(proj);

// ── answers to captured payloads ──────────────────────────────────────────────────────────────────
const pre = suite('claude-pre on captured payloads');

pre('a build command is rewritten to sbx run, the whole input sent back and allowed', () => {
  const p = payload('pre-build.json', proj);
  const { status, answer } = hook('claude-pre', p);
  assert.is(status, 0);
  const h = answer.hookSpecificOutput;
  assert.is(h.hookEventName, 'PreToolUse');
  assert.is(h.permissionDecision, 'allow');
  assert.equal(Object.keys(h.updatedInput).sort(), Object.keys(p.tool_input).sort());
  assert.is(h.updatedInput.description, 'Build');
  assert.is(h.updatedInput.command, `${process.execPath} ${bin} run --work ${proj} --timeout 118 --brief -- bash -c 'make -s prog && echo built'`);
});

pre('the rewritten command is what the captured PostToolUse payload shows (same bytes as the client ran)', () => {
  const { answer } = hook('claude-pre', payload('pre-build.json', proj));
  assert.is(answer.hookSpecificOutput.updatedInput.command, payload('post-build.json', proj).tool_input.command);
});

pre('pass-through commands get no answer', () => {
  for (const f of ['pre-ls.json']) {
    const r = hook('claude-pre', payload(f, proj));
    assert.is(r.status, 0);
    assert.is(r.answer, null, f);
  }
});

pre('quotes survive: the original runs whole inside bash -c', () => {
  const p = payload('pre-build.json', proj);
  p.tool_input.command = `make test && echo "it's done" || echo 'failed: $?'`;
  const cmd = hook('claude-pre', p).answer.hookSpecificOutput.updatedInput.command;
  const script = /-- bash -c (.*)$/s.exec(cmd)[1];
  const r = spawnSync('sh', ['-c', `printf %s ${script}`], { encoding: 'utf8' });
  assert.is(r.stdout, p.tool_input.command);
});

pre('a subdirectory of the project: the project is mounted, the command starts in the subdirectory', () => {
  const p = payload('pre-build.json', proj);
  p.cwd = join(proj, 'sub dir');
  const cmd = hook('claude-pre', p, { env: { CLAUDE_PROJECT_DIR: proj } }).answer.hookSpecificOutput.updatedInput.command;
  assert.ok(cmd.includes(`--work ${proj} `), cmd);
  assert.ok(cmd.endsWith(`-- bash -c 'cd '\\''sub dir'\\'' || exit 125\nmake -s prog && echo built'`), cmd);
});

pre('the Bash timeout (ms) becomes a slightly shorter sbx timeout; background runs and other tools pass', () => {
  const p = payload('pre-build.json', proj);
  p.tool_input.timeout = 600000;
  assert.match(hook('claude-pre', p).answer.hookSpecificOutput.updatedInput.command, / --timeout 598 /);
  assert.is(hook('claude-pre', { ...p, tool_input: { ...p.tool_input, run_in_background: true } }).answer, null);
  assert.is(hook('claude-pre', { ...p, tool_name: 'Read', tool_input: { file_path: 'x' } }).answer, null);
});

needs('test/integrations/hook-payloads: writes from Python', ['python3'], pre)('the agent\'s and sbx\'s own config in the project are read-only in the sandbox', () => {
  const dir = join(tmp, 'protected');
  mkdirSync(join(dir, '.claude'), { recursive: true });
  mkdirSync(join(dir, '.git'), { recursive: true });
  writeFileSync(join(dir, '.claude', 'settings.json'), '{}');
  const p = payload('pre-build.json', dir);
  const write = (f) => `python3 -c "open('${f}', 'w').write('x')" 2>/dev/null && echo wrote-${f} || echo refused-${f}`;
  p.tool_input.command = [write('.claude/settings.json'), write('.git/config'), write('built')].join('; ');
  const cmd = hook('claude-pre', p).answer.hookSpecificOutput.updatedInput.command;
  assert.not.match(cmd, '--ro-bind', 'sbx run itself keeps them read-only, at any depth (src/host/control-files.ts)');
  const r = spawnSync('bash', ['-c', cmd], { cwd: dir, encoding: 'utf8' });
  // A short output: itself under the status line (the rewrite asks for --brief).
  assert.match(r.stdout, /^sbx: pass · exit 0 · [^\n]* · 3 lines\nrefused-\.claude\/settings\.json\nrefused-\.git\/config\nwrote-built\n$/);
  assert.is(readFileSync(join(dir, '.claude', 'settings.json'), 'utf8'), '{}');
  assert.is(readFileSync(join(dir, 'built'), 'utf8'), 'x', 'the rest of the project is writable');
});

pre('a command that the user\'s deny or ask rules name is left to Claude, not rewritten and allowed', () => {
  const dir = join(tmp, 'rules');
  mkdirSync(join(dir, '.claude'), { recursive: true });
  const settings = (permissions) => writeFileSync(join(dir, '.claude', 'settings.json'), JSON.stringify({ permissions }));
  const cmd = (c) => {
    const p = payload('pre-build.json', dir);
    p.tool_input.command = c;
    return hook('claude-pre', p, { env: { CLAUDE_PROJECT_DIR: dir } }).answer;
  };
  settings({ deny: ['Bash(make:*)'], ask: ['Bash(python3 -m pytest*)'], allow: ['Bash(make:*)'] });
  assert.is(cmd('make -s run'), null);
  assert.is(cmd('cd asan && make test'), null, 'a rule names one command of the line');
  assert.is(cmd('python3 -m pytest -q'), null);
  assert.ok(cmd('python3 setup.py build'), 'other commands are still rewritten');
  assert.ok(cmd('gmake'), 'a prefix rule is a word prefix: make does not name gmake');
  settings({ deny: ['Bash(git push:*)', 'Read(./.env)'] });
  assert.ok(cmd('make -s run'));
  writeFileSync(join(dir, '.claude', 'settings.local.json'), JSON.stringify({ permissions: { deny: ['Bash'] } }));
  assert.is(cmd('make -s run'), null, 'settings.local.json counts, and a bare Bash rule names everything');
});

pre('malformed input: exit 0, no answer, one line on stderr', () => {
  for (const input of ['', '{', 'null', '[]', '"x"', '{"hook_event_name":"PreToolUse"}', JSON.stringify({ ...payload('pre-build.json', proj), tool_input: 'make' })]) {
    const r = hook('claude-pre', input);
    assert.is(r.status, 0, input);
    assert.is(r.answer, null, input);
    assert.match(r.stderr, /^sbx hook: [^\n]+; the tool call goes on unchanged\n$/, input);
  }
});
pre.run();

const post = suite('claude-post on captured payloads');

post('output sbx already distilled, and pass-through output, are left alone', () => {
  for (const f of ['post-build.json', 'post-failure-crash.json', 'post-ls.json']) {
    const r = hook('claude-post', payload(f, proj));
    assert.is(r.status, 0, r.stderr);
    assert.is(r.answer, null, f);
  }
});

post('a failing host build/test command: the verdict as additionalContext, its raw log kept in .sbx', () => {
  const r = hook('claude-post', payload('post-failure-host-log.json', proj));
  assert.is(r.status, 0, r.stderr);
  const h = r.answer.hookSpecificOutput;
  assert.is(h.hookEventName, 'PostToolUseFailure');
  assert.match(h.additionalContext, /^sbx distilled the output above:\nsbx: runtime-error · exit 3/);
  const log = /\nlog: (\S+)\n?$/.exec(h.additionalContext)[1];
  assert.ok(log.startsWith(join(proj, '.sbx', 'logs')), log);
  assert.match(readFileSync(log, 'utf8'), /^host line 000 x+\n/);
});

post('a passing host build/test command over distilBytes: updatedToolOutput, an object', () => {
  const p = payload('post-failure-host-log.json', proj);
  const out = p.error.replace(/^Exit code 3\n/, '');
  const ok = { ...p, hook_event_name: 'PostToolUse', tool_response: { stdout: out, stderr: '', interrupted: false, isImage: false, noOutputExpected: false } };
  delete ok.error;
  const h = hook('claude-post', ok).answer.hookSpecificOutput;
  assert.is(h.hookEventName, 'PostToolUse');
  assert.equal(Object.keys(h.updatedToolOutput).sort(), ['interrupted', 'stderr', 'stdout']);
  assert.match(h.updatedToolOutput.stdout, /^sbx: pass · exit 0/);
  assert.match(h.updatedToolOutput.stdout, /\nlog: \S+\.log\n?$/);
  // Under distilBytes (4096 by default) the output is left as it is.
  assert.is(hook('claude-post', { ...ok, tool_response: { ...ok.tool_response, stdout: out.slice(0, 3000) } }).answer, null);
});

post('malformed input: exit 0, no answer', () => {
  for (const input of ['', 'nope', '{"hook_event_name":"PostToolUse","tool_name":"Bash"}']) {
    const r = hook('claude-post', input);
    assert.is(r.status, 0);
    assert.is(r.answer, null);
  }
});
post.run();

const codex = suite('codex-pre / codex-post on captured payloads');
const cx = (name) => payload(name, proj, CODEX_PAYLOADS);

codex('a build command is rewritten exactly as the client then ran it; the answer is {command} + allow', () => {
  const { status, answer } = hook('codex-pre', cx('pre-crash.json'));
  assert.is(status, 0);
  assert.equal(answer.hookSpecificOutput.updatedInput, { command: cx('post-crash.json').tool_input.command });
  assert.is(answer.hookSpecificOutput.permissionDecision, 'allow');
  assert.is(hook('codex-pre', cx('pre-echo.json')).answer, null);
});

codex('post: sbx output and pass-through output are left alone; a host build/test log becomes decision:block', () => {
  for (const f of ['post-crash.json', 'post-hostname.json', 'post-echo.json']) assert.is(hook('codex-post', cx(f)).answer, null, f);
  const { status, answer } = hook('codex-post', cx('post-host-log.json'));
  assert.is(status, 0);
  assert.is(answer.decision, 'block');
  assert.match(answer.reason, /^sbx: pass · 400 lines\n/);
  assert.match(answer.reason, /\nlog: \S+\.log\nnote: Codex gives hooks no exit code/);
});

codex('malformed input: exit 0, no answer', () => {
  for (const name of ['codex-pre', 'codex-post']) {
    for (const input of ['', '{]', JSON.stringify({ ...cx('pre-echo.json'), tool_input: {} })]) {
      const r = hook(name, input);
      assert.is(r.status, 0);
      assert.is(r.answer, null);
      assert.match(r.stderr, /^sbx hook: /);
    }
  }
});
codex.run();

const gemini = suite('gemini-pre / gemini-post on captured payloads');
const gm = (name) => payload(name, proj, GEMINI_PAYLOADS);

gemini('BeforeTool: all arguments sent back, command rewritten exactly as the client then ran it, dir_path kept', () => {
  const { status, answer } = hook('gemini-pre', gm('before-crash.json'));
  assert.is(status, 0);
  const ti = answer.hookSpecificOutput.tool_input;
  assert.equal(ti, gm('after-crash.json').tool_input);
  assert.is(ti.dir_path, 'asan');
  assert.ok(ti.command.endsWith(`-- bash -c 'cd asan || exit 125\nmake -s run'`), ti.command);
  assert.is(hook('gemini-pre', gm('before-echo.json')).answer, null);
});

gemini('AfterTool: sbx and pass-through output left alone; a host build/test log becomes decision:block with its exit code', () => {
  for (const f of ['after-crash.json', 'after-hostname.json', 'after-echo.json']) assert.is(hook('gemini-post', gm(f)).answer, null, f);
  const { answer } = hook('gemini-post', gm('after-host-log.json'));
  assert.is(answer.decision, 'block');
  assert.match(answer.reason, /^sbx: runtime-error · exit 3 · 400 lines\n/);
  assert.not.match(answer.reason, /untrusted_context|Process Group/);
});

gemini('malformed input: exit 0, no answer', () => {
  for (const name of ['gemini-pre', 'gemini-post']) {
    for (const input of ['', 'x', JSON.stringify({ ...gm('before-echo.json'), hook_event_name: 'AfterModel' })]) {
      const r = hook(name, input);
      assert.is(r.status, 0);
      assert.is(r.answer, null);
    }
  }
});
gemini.after(() => rmSync(tmp, { recursive: true, force: true }));
gemini.run();

// ── one hook process per call: a build line kept on the host runs through `sbx host` ──────────────
// For each client, the captured payload of a build/test line with a host-table command on it (`git
// --version >/dev/null; python3 -c …`, 400 lines, exit 3): the pre-hook rewrites it to `sbx host`, and
// that line, run as the client runs it, prints the verdict (over 4 KiB of output) with the exit code, or
// the output itself (under), and exits with the command's code. No post-hook is needed for either.
const host = suite('pre-hooks: a host build line through sbx host');
const hostLine = needs('test/integrations/hook-payloads: a host line runs git and python3', ['git', 'python3'], host);
const HOST = [
  { name: 'claude', file: 'pre-host-log.json', dir: undefined, cmd: (a) => a.hookSpecificOutput.updatedInput.command, timeout: 118, allow: undefined },
  { name: 'codex', file: 'pre-host-log.json', dir: CODEX_PAYLOADS, cmd: (a) => a.hookSpecificOutput.updatedInput.command, timeout: 600, allow: 'allow' },
  { name: 'gemini', file: 'before-host-log.json', dir: GEMINI_PAYLOADS, cmd: (a) => a.hookSpecificOutput.tool_input.command, timeout: 600, allow: undefined },
];
for (const c of HOST) {
  hostLine(`${c.name}: rewritten to sbx host; the rewrite prints the verdict over 4 KiB, the output under, and keeps the exit code`, () => {
    const dir = join(tmp, `host-${c.name}`);
    mkdirSync(dir, { recursive: true });
    const p = payload(c.file, dir, c.dir);
    const { status, answer } = hook(`${c.name}-pre`, p);
    assert.is(status, 0);
    const line = c.cmd(answer);
    const q = (x) => x.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    assert.match(line, new RegExp(`^${q(process.execPath)} ${q(bin)} host --work ${q(dir)} --timeout ${c.timeout} --distil-bytes 4096 -- bash -c '`));
    // Claude judges a host rewrite with its own permissions (no allow: a host command must not skip the user's prompt).
    assert.is(answer.hookSpecificOutput.permissionDecision, c.allow);
    const big = spawnSync('sh', ['-c', line], { cwd: dir, encoding: 'utf8', env: { ...process.env, SBX_RESIDENT: '0' } });
    assert.is(big.status, 3, big.stderr);
    assert.match(big.stdout, /^sbx: runtime-error · exit 3 · [^\n]*400 lines\n/);
    assert.not.match(big.stdout, /host line 000/);
    const log = /\nlog: (\S+\.log)\n/.exec(big.stdout)?.[1];
    assert.ok(log?.startsWith(join(dir, '.sbx', 'logs')), big.stdout);
    assert.match(readFileSync(log, 'utf8'), /^host line 000 x+\n/, 'the raw log, whole');
    // Under distilBytes: the output as it is, stdout and stderr each on its own stream.
    p.tool_input.command = `git --version >/dev/null; python3 -c "import sys; print('small'); print('oops', file=sys.stderr); sys.exit(4)"`;
    const small = spawnSync('sh', ['-c', c.cmd(hook(`${c.name}-pre`, p).answer)], { cwd: dir, encoding: 'utf8', env: { ...process.env, SBX_RESIDENT: '0' } });
    assert.equal([small.status, small.stdout, small.stderr], [4, 'small\n', 'oops\n']);
  });
}

host('claude: a host line that changes the directory is left alone (Claude keeps the shell\'s cwd between calls)', () => {
  const p = payload('pre-host-log.json', proj);
  for (const command of ['cd sub && git pull && make', 'pushd sub; git pull; make; popd']) {
    assert.is(hook('claude-pre', { ...p, tool_input: { ...p.tool_input, command } }).answer, null, command);
  }
  // Codex starts each call in a new shell: there the line is wrapped.
  const cp = payload('pre-host-log.json', proj, CODEX_PAYLOADS);
  assert.ok(hook('codex-pre', { ...cp, tool_input: { command: 'cd sub && git pull && make' } }).answer);
});

host('codex: a host line is wrapped only under bypassPermissions (its rewrite needs an allow, which would skip an approval)', () => {
  const p = payload('pre-host-log.json', proj, CODEX_PAYLOADS);
  for (const mode of ['default', 'acceptEdits', undefined]) {
    const q = { ...p, permission_mode: mode };
    if (mode === undefined) delete q.permission_mode;
    assert.is(hook('codex-pre', q).answer, null, String(mode));
  }
  // A sandboxed line is rewritten in every mode (the sandbox contains it).
  assert.ok(hook('codex-pre', { ...payload('pre-crash.json', proj, CODEX_PAYLOADS), permission_mode: 'default' }).answer);
});

host('"rewrite": false: no rewrite at all, host lines included (only the post-hooks distil then)', () => {
  const dir = join(tmp, 'norewrite');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'sbx.config.json'), '{"hook": {"rewrite": false}}');
  for (const c of HOST) assert.is(hook(`${c.name}-pre`, payload(c.file, dir, c.dir)).answer, null, c.name);
});
host('sbx host ends with the line: a process it left running in the background does not hold the call', () => {
  const dir = join(tmp, 'host-bg');
  mkdirSync(dir, { recursive: true });
  const t = Date.now();
  const r = spawnSync(process.execPath, [bin, 'host', '--work', dir, '--', 'bash', '-c', 'sleep 29.75 & echo $! > bg.pid; echo now'], { cwd: dir, encoding: 'utf8', env: { ...process.env, SBX_RESIDENT: '0' } });
  try { process.kill(Number(readFileSync(join(dir, 'bg.pid'), 'utf8')), 'SIGTERM'); } catch { /* gone */ }
  assert.equal([r.status, r.stdout], [0, 'now\n'], r.stderr);
  assert.ok(Date.now() - t < 15_000, `${Date.now() - t} ms`);
});
host.run();
