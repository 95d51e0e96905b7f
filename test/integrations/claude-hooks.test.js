// Claude Code (the real client, pinned) with sbx's hooks installed by `sbx hook install`, driven
// headless against a scripted model. What is asserted is what the model received after the hooks ran,
// as recorded by the scripted server: the verdict instead of the raw output, the log path, the sandbox
// marker, pass-through commands untouched. Skipped, with the reason printed, only when the client cannot
// be installed from npm.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startScriptedModel, toolResults } from './_scripted-model.js';
import { cli, ensureClaude, runClaude, scratchProject } from './_client.js';
import { needs, skipping } from '../_tools.js';

/** A build/test command kept on the host by a host-table command on its line, printing ~27 KB. */
const big = (exit) => `git --version >/dev/null; python3 -c "import sys
for i in range(400): print(f'host line {i:03d} ' + 'x' * 56)
sys.exit(${exit})"`;

const WHAT = 'test/integrations/claude-hooks (the real Claude Code)';
const tools = needs(WHAT, ['python3', 'pytest'], suite('claude-code hooks'));
const client = tools.skipping ? null : ensureClaude();
const test = client?.skip ? skipping(tools, WHAT, `${client.skip}; install: the suite installs it from the npm registry when it can reach it`) : tools;

// Each test counts as skipped, with the SKIP line, when the client or a tool it runs is missing.
{
  let s; // the scratch project
  const received = {}; // what the model received, per session
  const dump = (name, body) => { if (process.env.SBX_INTEG_DUMP) writeFileSync(join(process.env.SBX_INTEG_DUMP, `${name}.json`), JSON.stringify(body, null, 1)); };

  test.before(async () => {
    s = scratchProject('asan', 'pytest');
    const r = spawnSync(process.execPath, [cli, 'hook', 'install', '--claude', '--project', '--dir', s.proj], { encoding: 'utf8' });
    assert.is(r.status, 0, r.stderr);

    // Session A: default permissions. The sandboxed commands run because the pre-hook allows them;
    // the pass-through one is read-only, which Claude allows on its own.
    const a = await startScriptedModel([
      { tool: 'Bash', input: { command: 'cd asan && make -s run', description: 'Build and run the C program' } },
      { tool: 'Bash', input: { command: 'cd pytest && python3 -m pytest -q', description: 'Run the Python tests' } },
      { tool: 'Bash', input: { command: 'python3 -c "import socket; print(\'host=\' + socket.gethostname())"', description: 'Print the host name' } },
      { tool: 'Bash', input: { command: 'echo untouched-$((6*7)) && ls asan', description: 'List the C project' } },
      { tool: 'Bash', input: { command: 'python3 -c "import sys; print(\'nope\'); sys.exit(3)"', description: 'Fail briefly' } },
      { text: 'Done.' },
    ]);
    received.a = await runClaude(client.bin, { cwd: s.proj, home: s.home, url: a.url });
    received.a.results = toolResults(a.mainRequests().at(-1)?.body);
    dump('hooks-session-a', a.mainRequests().at(-1)?.body);
    await a.close();

    // Session B: build/test commands that stay on the host (a host-table command on the same line),
    // one passing and one failing, each printing ~27 KB, and a short one: the pre-hook runs them through
    // `sbx host` (one hook process per call: no post-hook is installed).
    const b = await startScriptedModel([
      { tool: 'Bash', input: { command: big(0), description: 'Print a long log' } },
      { tool: 'Bash', input: { command: big(3), description: 'Print a long log and fail' } },
      { tool: 'Bash', input: { command: 'git --version >/dev/null; python3 -c "print(\'small on host\')"', description: 'Print a little' } },
      { text: 'Done.' },
    ]);
    received.b = await runClaude(client.bin, { cwd: s.proj, home: s.home, url: b.url, args: ['--allowedTools', 'Bash'] });
    received.b.body = b.mainRequests().at(-1)?.body;
    received.b.results = toolResults(received.b.body);
    dump('hooks-session-b', received.b.body);
    await b.close();

    // Session B2: the same host line with default permissions (no --allowedTools): the pre-hook's rewrite
    // carries no allow, so Claude judges it as it judged the line before (here: refused in -p), rather
    // than a host command running past the user's prompt.
    const b2 = await startScriptedModel([
      { tool: 'Bash', input: { command: big(0), description: 'Print a long log' } },
      { text: 'Done.' },
    ]);
    received.b2 = await runClaude(client.bin, { cwd: s.proj, home: s.home, url: b2.url });
    received.b2.results = toolResults(b2.mainRequests().at(-1)?.body);
    await b2.close();

    // Session E: "rewrite": false, installed with --post: every command stays on the host and the
    // post-hooks distil (the old two-hook install, for those who keep it).
    const settingsFile = join(s.proj, '.claude', 'settings.json');
    const oneHook = readFileSync(settingsFile, 'utf8');
    writeFileSync(join(s.proj, 'sbx.config.json'), '{"hook": {"rewrite": false}}');
    const ip = spawnSync(process.execPath, [cli, 'hook', 'install', '--claude', '--post', '--project', '--dir', s.proj], { encoding: 'utf8' });
    assert.is(ip.status, 0, ip.stderr);
    received.postInstall = { out: ip.stdout, settings: JSON.parse(readFileSync(settingsFile, 'utf8')) };
    const e = await startScriptedModel([
      { tool: 'Bash', input: { command: big(0), description: 'Print a long log' } },
      { tool: 'Bash', input: { command: big(3), description: 'Print a long log and fail' } },
      { text: 'Done.' },
    ]);
    received.e = await runClaude(client.bin, { cwd: s.proj, home: s.home, url: e.url, args: ['--allowedTools', 'Bash'] });
    received.e.body = e.mainRequests().at(-1)?.body;
    received.e.results = toolResults(received.e.body);
    await e.close();
    rmSync(join(s.proj, 'sbx.config.json'));
    const again = spawnSync(process.execPath, [cli, 'hook', 'install', '--claude', '--project', '--dir', s.proj], { encoding: 'utf8' });
    assert.is(again.status, 0, again.stderr);
    received.reinstalled = readFileSync(settingsFile, 'utf8') === oneHook;

    // Session C: the shell's directory moves into a subdirectory (`cd asan`, which Claude keeps for the
    // next call); the next build runs with the whole project mounted, starting in that subdirectory.
    const c = await startScriptedModel([
      { tool: 'Bash', input: { command: 'cd asan', description: 'Enter the C project' } },
      { tool: 'Bash', input: { command: 'make -s run', description: 'Build and run' } },
      { text: 'Done.' },
    ]);
    received.c = await runClaude(client.bin, { cwd: s.proj, home: s.home, url: c.url });
    received.c.results = toolResults(c.mainRequests().at(-1)?.body);
    await c.close();

    // Session D: the user denies make. The pre-hook leaves that command alone, so Claude's own rule
    // applies (a rewritten command would no longer match it, and the hook's allow would let it run).
    const settingsPath = join(s.proj, '.claude', 'settings.json');
    const settings = JSON.parse(readFileSync(settingsPath, 'utf8'));
    writeFileSync(settingsPath, JSON.stringify({ ...settings, permissions: { deny: ['Bash(make:*)'] } }));
    const d = await startScriptedModel([
      { tool: 'Bash', input: { command: 'cd asan && make -s run', description: 'Build and run' } },
      { tool: 'Bash', input: { command: 'cd pytest && python3 -m pytest -q', description: 'Run the Python tests' } },
      { text: 'Done.' },
    ]);
    received.d = await runClaude(client.bin, { cwd: s.proj, home: s.home, url: d.url });
    received.d.results = toolResults(d.mainRequests().at(-1)?.body);
    if (process.env.SBX_INTEG_DUMP) writeFileSync(join(process.env.SBX_INTEG_DUMP, 'hooks-session-d.json'), JSON.stringify(d.mainRequests().at(-1)?.body, null, 1));
    writeFileSync(settingsPath, JSON.stringify(settings));
    await d.close();
  });

  test.after(() => { if (s && !process.env.SBX_INTEG_KEEP) rmSync(s.base, { recursive: true, force: true }); });

  test('the client ran both sessions to the end', () => {
    for (const k of ['a', 'b']) {
      assert.is(received[k].status, 0, `session ${k}: ${received[k].stderr.slice(0, 500)}`);
      assert.is(received[k].json?.result, 'Done.', received[k].stdout.slice(0, 500));
    }
    assert.is(received.a.results.length, 5);
    assert.is(received.b.results.length, 3);
  });

  test('ASan crash: the model gets the verdict with the first user frame and the log path, not the raw 30 KB', () => {
    const r = received.a.results[0];
    assert.ok(r.is_error, 'a failing command stays a failed tool call');
    assert.match(r.content, /^Exit code 2\n/, 'make\'s own exit code, mirrored by sbx run');
    assert.match(r.content, /sbx: crash · exit 2/);
    assert.match(r.content, /crash: asan heap-use-after-free · READ of size 4/);
    assert.match(r.content, /\n  at lookup asan\/main\.c:24\n/);
    assert.match(r.content, /freed at: drop_record asan\/main\.c:15/);
    assert.not.match(r.content, /progress: step 0001 /, 'the raw output is not there (the verdict keeps a 12-line tail)');
    assert.ok(r.content.length < 2500, `${r.content.length} bytes`);
    const log = /\nlog: (\S+\.log)/.exec(r.content)?.[1];
    assert.ok(log, 'the log path is in the tool result');
    assert.ok(log.startsWith(join(s.proj, '.sbx', 'logs')), log);
    const raw = readFileSync(log, 'utf8');
    assert.ok(raw.length > 25_000, `raw log kept whole: ${raw.length} bytes`);
    assert.match(raw, /progress: step 0330 of 0330/);
  });

  test('pytest: failing test by name, passing noise dropped', () => {
    const r = received.a.results[1];
    assert.ok(r.is_error);
    assert.match(r.content, /sbx: tests-failed/);
    assert.match(r.content, /test_mean_of_three/);
    assert.match(r.content, /200 passed|passed 200|200 pass/);
    assert.not.match(r.content, /clamp check/);
    assert.match(r.content, /\nlog: \S+\.log/);
  });

  test('the command really ran in the sandbox (host name sbx); its 9-byte output reaches the model as itself under the status line', () => {
    const r = received.a.results[2];
    assert.not.ok(r.is_error);
    assert.match(r.content, /^sbx: pass · exit 0 · [^\n]* · 1 line\nhost=sbx$/, 'not a longer verdict (issue 31: an 8-byte echo became 169 bytes)');
  });

  test('a short failing output: itself under the status line, the exit code mirrored', () => {
    const r = received.a.results[4];
    assert.ok(r.is_error);
    assert.match(r.content, /^Exit code 3\nsbx: runtime-error · exit 3 · [^\n]* · 1 line\nnope$/);
  });

  test('a pass-through command reaches the model untouched', () => {
    const r = received.a.results[3];
    assert.is(r.content, 'untouched-42\nMakefile\nmain.c\nprog');
  });

  test('host build line, exit 0: run through sbx host, the model gets its verdict, not 27 KB (one hook process)', () => {
    const r = received.b.results[0];
    assert.not.ok(r.is_error);
    assert.match(r.content, /^sbx: pass · exit 0 · [^\n]*400 lines/);
    assert.not.match(r.content, /host line 000/);
    assert.match(r.content, /host line 399/, 'the tail of the output is kept');
    assert.match(r.content, /\nlog: \S+\.log/);
    assert.ok(r.content.length < 2500, `${r.content.length} bytes`);
  });

  test('host build line, failure: the verdict itself, with the exit code (no raw output, no separate context)', () => {
    const r = received.b.results[1];
    assert.ok(r.is_error);
    assert.match(r.content, /^Exit code 3\nsbx: runtime-error · exit 3 · [^\n]*400 lines/);
    assert.not.match(r.content, /host line 000/);
    const log = /\nlog: (\S+\.log)/.exec(r.content)?.[1];
    assert.ok(log && readFileSync(log, 'utf8').includes('host line 000'), 'the raw log is kept whole');
    assert.not.match(JSON.stringify(received.b.body.messages.at(-1)), /sbx distilled the output above/);
  });

  test('host build line, a short output: the model gets it as it is', () => {
    const r = received.b.results[2];
    assert.not.ok(r.is_error);
    assert.is(r.content, 'small on host');
  });

  test('a host line is not allowed by the hook: with default permissions Claude refuses it as before', () => {
    assert.is(received.b2.status, 0, received.b2.stderr.slice(0, 500));
    const r = received.b2.results[0];
    assert.ok(r.is_error, r.content);
    assert.not.match(r.content, /sbx: |host line/, r.content.slice(0, 300));
  });

  test('"rewrite": false with --post: install says so, the post-hooks distil as before', () => {
    assert.match(received.postInstall.out, /"rewrite": false: every command stays on the host; the post-hooks/);
    assert.ok(received.postInstall.settings.hooks.PostToolUse && received.postInstall.settings.hooks.PostToolUseFailure);
    const [ok, failed] = received.e.results;
    assert.match(ok.content, /^sbx: pass · exit 0 · 400 lines/, `updatedToolOutput replaces the output: ${ok.content.slice(0, 200)}`);
    assert.not.match(ok.content, /host line 000/);
    assert.ok(failed.is_error);
    assert.match(failed.content, /^Exit code 3\n/);
    const all = JSON.stringify(received.e.body.messages.at(-1));
    assert.match(all, /sbx distilled the output above:\\nsbx: runtime-error · exit 3/);
    assert.ok(received.reinstalled, 'installing again without --post takes the post-hooks out: the one-hook file again, byte for byte');
  });

  test('after `cd asan`, the build runs in asan/ with the project mounted (CLAUDE_PROJECT_DIR)', () => {
    assert.is(received.c.status, 0, received.c.stderr.slice(0, 500));
    const r = received.c.results[1];
    assert.ok(r, JSON.stringify(received.c.results));
    assert.match(r.content, /sbx: crash · exit 2/);
    assert.match(r.content, /\n  at lookup asan\/main\.c:24\n/, 'paths relative to the project root: /work is the project');
    assert.match(r.content, new RegExp(`\\nlog: ${s.proj.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/\\.sbx/logs/`));
  });

  test('a deny rule of the user still holds: the denied command neither runs nor reaches sbx', () => {
    assert.is(received.d.status, 0, received.d.stderr.slice(0, 500));
    const [denied, other] = received.d.results;
    assert.ok(denied.is_error);
    assert.match(denied.content, /denied/i);
    assert.not.match(denied.content, /sbx:/);
    assert.match(other.content, /sbx: tests-failed/, 'commands no rule names are still sandboxed');
  });

  test('the installed hook command exits 0 on malformed JSON, with no answer', () => {
    const settings = JSON.parse(readFileSync(join(s.proj, '.claude', 'settings.json'), 'utf8'));
    assert.equal(Object.keys(settings.hooks), ['PreToolUse'], 'one hook process per call');
    for (const event of ['PreToolUse']) {
      const cmd = settings.hooks[event].at(-1).hooks[0].command;
      for (const input of ['{"hook_event_name": "PreToolUse", ', 'not json', '', '{"tool_name": 5}']) {
        const r = spawnSync('sh', ['-c', cmd], { input, encoding: 'utf8', cwd: s.proj });
        assert.is(r.status, 0, `${event} ${JSON.stringify(input)}: ${r.stderr}`);
        assert.is(r.stdout, '');
        assert.match(r.stderr, /^sbx hook: .*; the tool call goes on unchanged\n$/);
      }
    }
  });

  test('uninstall leaves no sbx hook behind', () => {
    const r = spawnSync(process.execPath, [cli, 'hook', 'uninstall', '--claude', '--project', '--dir', s.proj], { encoding: 'utf8' });
    assert.is(r.status, 0, r.stderr);
    // The user's bytes back (issue 31): the file install made is gone, one it changed is as it was.
    const p = join(s.proj, '.claude', 'settings.json');
    assert.ok(!existsSync(p) || !/hook claude-/.test(readFileSync(p, 'utf8')), 'no sbx hook left');
    assert.not.ok(existsSync(`${p}.sbx.bak`) && /hook claude-/.test(readFileSync(`${p}.sbx.bak`, 'utf8')), 'no backup holding the hooked version');
  });
}

test.run();
