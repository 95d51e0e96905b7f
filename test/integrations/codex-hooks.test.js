// Codex CLI (the real client, pinned) with sbx's hooks installed by `sbx hook install --codex --user`,
// driven headless (`codex exec`) against a scripted Responses API. Asserted: what the model received,
// as the scripted server recorded it. Skipped, with the reason printed, only when the client cannot be
// installed from npm.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startScriptedResponses, toolOutputs } from './_scripted-responses.js';
import { cli, ensureCodex, runCodex, scratchProject } from './_client.js';
import { needs, skipping } from '../_tools.js';

const WHAT = 'test/integrations/codex-hooks (the real Codex)';
const tools = needs(WHAT, ['python3'], suite('codex hooks'));
const client = tools.skipping ? null : ensureCodex();
const test = client?.skip ? skipping(tools, WHAT, `${client.skip}; install: the suite installs it from the npm registry when it can reach it`) : tools;

// Each test counts as skipped, with the SKIP line, when the client or a tool it runs is missing.
{
  let s; let session; let results = []; let ruled;
  const big = (exit) => `git --version >/dev/null; python3 -c "import sys
for i in range(400): print(f'host line {i:03d} ' + 'x' * 56)
sys.exit(${exit})"`;

  test.before(async () => {
    s = scratchProject('asan');
    const codexHome = join(s.home, '.codex');
    mkdirSync(codexHome, { recursive: true });
    const r = spawnSync(process.execPath, [cli, 'hook', 'install', '--codex', '--user'], { encoding: 'utf8', env: { ...process.env, CODEX_HOME: codexHome } });
    assert.is(r.status, 0, r.stderr);
    if (process.env.SBX_INTEG_CAPTURE) {
      // Capture the payloads Codex sends, beside sbx's own hooks (used to make payloads/codex-*).
      const f = join(codexHome, 'hooks.json');
      const h = JSON.parse(readFileSync(f, 'utf8'));
      for (const [e, l] of Object.entries(h.hooks)) l.push({ matcher: 'Bash', hooks: [{ type: 'command', command: `cat > ${process.env.SBX_INTEG_CAPTURE}/${e}-$(date +%s%N).json` }] });
      writeFileSync(f, JSON.stringify(h));
    }
    const m = await startScriptedResponses([
      { tool: 'exec_command', input: { cmd: 'cd asan && make -s run' } },
      { tool: 'exec_command', input: { cmd: 'python3 -c "import socket; print(\'host=\' + socket.gethostname())"' } },
      { tool: 'exec_command', input: { cmd: 'echo untouched-$((6*7))' } },
      { tool: 'exec_command', input: { cmd: big(3) } },
      { tool: 'exec_command', input: { cmd: 'git --version >/dev/null; python3 -c "print(\'small on host\')"' } },
      { text: 'Done.' },
    ]);
    session = await runCodex(client.bin, { cwd: s.proj, codexHome, url: m.url });
    const last = m.mainRequests().at(-1)?.body;
    results = toolOutputs(last);
    if (process.env.SBX_INTEG_DUMP) writeFileSync(join(process.env.SBX_INTEG_DUMP, 'codex-session.json'), JSON.stringify(last, null, 1));
    await m.close();

    // Session B: the user's own rules forbid make and prompt for cc. The pre-hook leaves those lines as
    // they are, so Codex's exec policy applies (a rewrite would no longer match the rules, and Codex
    // judges the rewritten command).
    mkdirSync(join(codexHome, 'rules'), { recursive: true });
    writeFileSync(join(codexHome, 'rules', 'default.rules'), [
      'prefix_rule(pattern = ["make"], decision = "forbidden", justification = "no make in this test")',
      'prefix_rule(pattern = ["cc"], decision = "prompt")', '',
    ].join('\n'));
    const b = await startScriptedResponses([
      { tool: 'exec_command', input: { cmd: 'cd asan && make -s run' } },
      { tool: 'exec_command', input: { cmd: 'cd asan && cc -o prog main.c' } },
      { tool: 'exec_command', input: { cmd: 'python3 -c "import socket; print(\'host=\' + socket.gethostname())"' } },
      { text: 'Done.' },
    ]);
    const sb = await runCodex(client.bin, { cwd: s.proj, codexHome, url: b.url });
    ruled = { session: sb, results: toolOutputs(b.mainRequests().at(-1)?.body) };
    rmSync(join(codexHome, 'rules'), { recursive: true, force: true });
    await b.close();
  });

  test.after(() => { if (s && !process.env.SBX_INTEG_KEEP) rmSync(s.base, { recursive: true, force: true }); });

  test('the session ran to the end', () => {
    assert.is(session.status, 0, session.stderr.slice(0, 500));
    assert.is(session.json?.at(-2)?.item?.text, 'Done.', session.stdout.slice(-500));
    assert.is(results.length, 5);
  });

  test('ASan crash: the verdict with the first user frame and the log path, not the raw output', () => {
    const r = results[0].content;
    assert.match(r, /Process exited with code 2\n/);
    assert.match(r, /sbx: crash · exit 2/);
    assert.match(r, /\n  at lookup asan\/main\.c:24\n/);
    assert.match(r, /freed at: drop_record asan\/main\.c:15/);
    assert.not.match(r, /progress: step 0001 /);
    assert.match(r, /\nlog: \S+\/\.sbx\/logs\/\S+\.log/);
  });

  test('the command really ran in the sandbox (host name sbx)', () => {
    // A 9-byte output: itself under the verdict's status line, not a longer verdict (issue 31).
    assert.match(results[1].content, /\nOutput:\nsbx: pass · exit 0 · [^\n]* · 1 line\nhost=sbx\n$/);
  });

  test('a pass-through command reaches the model untouched', () => {
    assert.match(results[2].content, /Process exited with code 0\n.*Output:\nuntouched-42\n$/s);
  });

  test('one hook process per call: install wrote the pre-hook alone', () => {
    const h = JSON.parse(readFileSync(join(s.home, '.codex', 'hooks.json'), 'utf8'));
    assert.equal(Object.keys(h.hooks), ['PreToolUse']);
  });

  test('a host build/test line runs through sbx host: the model gets its verdict, with the exit code', () => {
    const r = results[3].content;
    assert.match(r, /Process exited with code 3\n/, "the command's own exit code");
    assert.match(r, /\nOutput:\nsbx: runtime-error · exit 3 · [^\n]*400 lines\n/);
    assert.not.match(r, /host line 000/);
    assert.match(r, /\| host line 399 x+\n/);
    assert.match(r, /\nlog: \S+\/\.sbx\/logs\/\S+\.log\n$/);
    assert.ok(r.length < 2500, `${r.length} bytes`);
  });

  test('a host build/test line with a short output: the output as it is', () => {
    assert.match(results[4].content, /Process exited with code 0\n.*Output:\nsmall on host\n$/s);
  });

  test('the user\'s forbidden and prompt rules still hold: Codex refuses those lines, and they never reach sbx', () => {
    assert.is(ruled.session.status, 0, ruled.session.stderr.slice(0, 500));
    const [forbidden, prompt, other] = ruled.results.map((r) => r.content);
    assert.match(forbidden, /`\/bin\/bash -lc 'cd asan && make -s run'` rejected: no make in this test/);
    assert.not.match(forbidden, /sbx/);
    // codex exec never asks (approvals "never"): a prompt rule refuses.
    assert.match(prompt, /Rejected\(.*approval required by policy/);
    assert.not.match(prompt, /sbx/);
    assert.match(other, /sbx: pass · exit 0/, 'a line no rule names is still sandboxed');
    assert.match(other, /\nsbx: pass · exit 0 · [^\n]* · 1 line\nhost=sbx\n$/);
  });
}

test.run();
