// Gemini CLI (the real client, pinned) with sbx's hooks installed by `sbx hook install --gemini --user`
// (merged into the user settings that hold the API-key auth), driven headless (`gemini -p`) against a
// scripted Gemini API. Asserted: what the model received, as the scripted server recorded it. Skipped,
// with the reason printed, only when the client cannot be installed from npm.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { functionResponses, startScriptedGemini } from './_scripted-gemini.js';
import { cli, ensureGemini, geminiSettings, runGemini, scratchProject } from './_client.js';
import { needs, skipping } from '../_tools.js';

const WHAT = 'test/integrations/gemini-hooks (the real Gemini CLI)';
const tools = needs(WHAT, ['python3'], suite('gemini-cli hooks'));
const client = tools.skipping ? null : ensureGemini();
const test = client?.skip ? skipping(tools, WHAT, `${client.skip}; install: the suite installs it from the npm registry when it can reach it`) : tools;

// Each test counts as skipped, with the SKIP line, when the client or a tool it runs is missing.
{
  let s; let session; let results = []; let ruled;
  const big = (exit) => `git --version >/dev/null; python3 -c "import sys
for i in range(400): print(f'host line {i:03d} ' + 'x' * 56)
sys.exit(${exit})"`;

  test.before(async () => {
    s = scratchProject('asan');
    geminiSettings(s.home);
    const r = spawnSync(process.execPath, [cli, 'hook', 'install', '--gemini', '--user'], { encoding: 'utf8', env: { ...process.env, HOME: s.home } });
    assert.is(r.status, 0, r.stderr);
    if (process.env.SBX_INTEG_CAPTURE) {
      const f = join(s.home, '.gemini', 'settings.json');
      const h = JSON.parse(readFileSync(f, 'utf8'));
      for (const [e, l] of Object.entries(h.hooks)) l.push({ matcher: 'run_shell_command', hooks: [{ type: 'command', command: `cat > ${process.env.SBX_INTEG_CAPTURE}/${e}-$(date +%s%N).json` }] });
      writeFileSync(f, JSON.stringify(h));
    }
    const m = await startScriptedGemini([
      { tool: 'run_shell_command', input: { command: 'make -s run', description: 'Build and run', dir_path: 'asan' } },
      { tool: 'run_shell_command', input: { command: 'python3 -c "import socket; print(\'host=\' + socket.gethostname())"' } },
      { tool: 'run_shell_command', input: { command: 'echo untouched-42 && ls' } },
      { tool: 'run_shell_command', input: { command: big(3) } },
      { tool: 'run_shell_command', input: { command: 'git --version >/dev/null; python3 -c "print(\'small on host\')"', dir_path: 'asan' } },
      { text: 'Done.' },
    ]);
    session = await runGemini(client.bin, { cwd: s.proj, home: s.home, url: m.url });
    const last = m.mainRequests().at(-1)?.body;
    results = functionResponses(last).map((f) => f.response);
    if (process.env.SBX_INTEG_DUMP) writeFileSync(join(process.env.SBX_INTEG_DUMP, 'gemini-session.json'), JSON.stringify(last, null, 1));
    await m.close();

    // Session B: the user's policy denies make and asks about cc. The pre-hook leaves those calls as
    // they are, so Gemini CLI's policy engine applies (it runs after BeforeTool, on the arguments the
    // hook returned: a rewrite would no longer match the rules).
    const policies = join(s.home, '.gemini', 'policies');
    mkdirSync(policies, { recursive: true });
    writeFileSync(join(policies, 'mine.toml'), [
      '[[rule]]', 'toolName = "run_shell_command"', 'commandPrefix = "make"', 'decision = "deny"', 'priority = 100', 'denyMessage = "no make in this test"', '',
      '[[rule]]', 'toolName = "run_shell_command"', 'commandPrefix = "cc"', 'decision = "ask_user"', 'priority = 100', '',
    ].join('\n'));
    const b = await startScriptedGemini([
      { tool: 'run_shell_command', input: { command: 'make -s run', description: 'Build and run', dir_path: 'asan' } },
      { tool: 'run_shell_command', input: { command: 'cd asan && cc -o prog main.c' } },
      { tool: 'run_shell_command', input: { command: 'python3 -c "import socket; print(\'host=\' + socket.gethostname())"' } },
      { text: 'Done.' },
    ]);
    const sb = await runGemini(client.bin, { cwd: s.proj, home: s.home, url: b.url });
    ruled = { session: sb, results: functionResponses(b.mainRequests().at(-1)?.body).map((f) => f.response) };
    rmSync(policies, { recursive: true, force: true });
    await b.close();
  });

  test.after(() => { if (s && !process.env.SBX_INTEG_KEEP) rmSync(s.base, { recursive: true, force: true }); });

  test('the session ran to the end', () => {
    assert.is(session.status, 0, session.stderr.slice(-800));
    assert.is(session.json?.response, 'Done.');
    assert.is(results.length, 5);
  });

  test('ASan crash in a dir_path: the verdict with the first user frame and the log path, not the raw output', () => {
    const r = results[0].output;
    assert.match(r, /sbx: crash · exit 2/);
    assert.match(r, /\n {2}at lookup asan\/main\.c:24\n/);
    assert.match(r, /freed at: drop_record asan\/main\.c:15/);
    assert.match(r, /\nExit Code: 2\n/);
    assert.not.match(r, /progress: step 0001 /);
    assert.match(r, /\nlog: \S+\/\.sbx\/logs\/\S+\.log/);
  });

  test('the command really ran in the sandbox (host name sbx)', () => {
    // A 9-byte output: itself under the verdict's status line, not a longer verdict (issue 31).
    assert.match(results[1].output, /\nOutput: sbx: pass · exit 0 · [^\n]* · 1 line\nhost=sbx\nProcess Group PGID: \d+\n/);
  });

  test('a pass-through command reaches the model untouched', () => {
    assert.match(results[2].output, /^<untrusted_context>\nOutput: untouched-42\nasan\nProcess Group PGID: \d+\n<\/untrusted_context>$/);
  });

  test('one hook process per call: install wrote the pre-hook alone', () => {
    const h = JSON.parse(readFileSync(join(s.home, '.gemini', 'settings.json'), 'utf8'));
    assert.equal(Object.keys(h.hooks), ['BeforeTool']);
  });

  test('a host build/test line runs through sbx host: the model gets its verdict as the output, with the exit code', () => {
    const r = results[3].output;
    assert.ok(r, JSON.stringify(results[3]).slice(0, 300));
    assert.match(r, /\nOutput: sbx: runtime-error · exit 3 · [^\n]*400 lines\n/);
    assert.not.match(r, /host line 000/);
    assert.match(r, /\| host line 399 x+\n/);
    assert.match(r, /\nlog: \S+\/\.sbx\/logs\/\S+\.log\n/);
    assert.match(r, /\nExit Code: 3\n/);
  });

  test('a host build/test line with a short output, in a dir_path: the output as it is, run there', () => {
    assert.match(results[4].output, /\nOutput: small on host\nProcess Group PGID: \d+\n/);
    assert.not.ok(existsSync(join(s.proj, 'asan', '.sbx')), 'recorded in the project, not in the dir_path');
  });

  test('the user\'s deny and ask_user rules still hold: Gemini CLI refuses those calls, and they never reach sbx', () => {
    assert.is(ruled.session.status, 0, ruled.session.stderr.slice(-800));
    const [denied, asked, other] = ruled.results;
    assert.equal(denied, { error: 'Tool execution denied by policy. no make in this test' });
    // gemini -p cannot ask: an ask_user rule refuses.
    assert.match(asked.error, /requires user confirmation, which is not supported in non-interactive mode/);
    assert.match(other.output, /sbx: pass · exit 0/, 'a call no rule names is still sandboxed');
    assert.match(other.output, /\nOutput: sbx: pass · exit 0 · [^\n]* · 1 line\nhost=sbx\n/);
  });
}

test.run();
