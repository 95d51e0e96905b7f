// Issue 31 §3, with the real Gemini CLI (pinned): the hooks installed, then the sbx they name taken away.
// Before the guard in the installed command line (src/integrations/hook/install.ts), Gemini CLI `--yolo`
// took the shell's 127 as a non-blocking error and ran the call on the host without a word; now the
// pre-hook exits 2, the call is blocked, and the model reads what is missing and what to do.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { functionResponses, startScriptedGemini } from './_scripted-gemini.js';
import { ensureGemini, geminiSettings, root, runGemini, scratchProject } from './_client.js';
import { needs, skipping } from '../_tools.js';

const WHAT = 'test/integrations/gemini-hook-missing (the real Gemini CLI)';
const tools = needs(WHAT, ['python3'], suite('gemini-cli: sbx missing'));
const client = tools.skipping ? null : ensureGemini();
const test = client?.skip ? skipping(tools, WHAT, `${client.skip}; install: the suite installs it from the npm registry when it can reach it`) : tools;

{
  let s; let results = []; let marker; let session;
  test.before(async () => {
    s = scratchProject('pytest');
    // A copy of sbx to take away (the checkout stays for the other tests).
    const sbxDir = join(s.base, 'sbx');
    for (const d of ['dist', 'build']) cpSync(join(root, d), join(sbxDir, d), { recursive: true });
    geminiSettings(s.home);
    const r = spawnSync(process.execPath, [join(sbxDir, 'dist', 'cli.cjs'), 'hook', 'install', '--gemini', '--user'], { encoding: 'utf8', env: { ...process.env, HOME: s.home, SBX_RESIDENT: '0' } });
    assert.is(r.status, 0, r.stderr);
    rmSync(join(sbxDir, 'dist'), { recursive: true, force: true });
    marker = join(s.base, 'ran-on-host');
    const m = await startScriptedGemini([
      { tool: 'run_shell_command', input: { command: `python3 -c "open('${marker}', 'w')"` } },
      { text: 'Done.' },
    ]);
    session = await runGemini(client.bin, { cwd: s.proj, home: s.home, url: m.url });
    results = functionResponses(m.mainRequests().at(-1)?.body).map((f) => f.response);
    await m.close();
  });
  test.after(() => { if (s) rmSync(s.base, { recursive: true, force: true }); });

  test('the call is blocked with what is missing and the fix; nothing ran on the host', () => {
    assert.is(session.status, 0, session.stderr.slice(0, 500));
    assert.is(results.length, 1, JSON.stringify(results));
    assert.match(results[0].error ?? '', /^Tool execution blocked: sbx hook: \S+ with \S+cli\.cjs is missing or not executable .*this call is blocked: run `sbx hook install --gemini`/);
    assert.not.ok(existsSync(marker), 'the command ran on the host');
  });
}

test.run();
