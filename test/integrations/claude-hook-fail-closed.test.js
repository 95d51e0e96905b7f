// Issue 28 item 4, with the real Claude Code (pinned): a FIFO at sbx.config.json (what a sandboxed command
// can leave in a project that had none) makes the pre-hook exit 2 at once, and Claude Code blocks the
// call: the build command neither runs on the host nor hangs the session. Before the fix the hook hung
// on the FIFO until the client's hook timeout, and then the command ran on the host unsandboxed.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { startScriptedModel, toolResults } from './_scripted-model.js';
import { cli, ensureClaude, runClaude, scratchProject } from './_client.js';

const client = ensureClaude();
const test = suite('claude-code hook fails closed');

if (client.skip) {
  console.log(`SKIPPED claude-code hook fails closed: ${client.skip}`);
} else {
  let s;
  let got;
  let marker;
  test.before(async () => {
    s = scratchProject('pytest');
    const r = spawnSync(process.execPath, [cli, 'hook', 'install', '--claude', '--project', '--dir', s.proj], { encoding: 'utf8' });
    assert.is(r.status, 0, r.stderr);
    spawnSync('mkfifo', [join(s.proj, 'sbx.config.json')]);
    marker = join(s.base, 'ran-on-host');
    const m = await startScriptedModel([
      { tool: 'Bash', input: { command: `python3 -c "open('${marker}', 'w')"`, description: 'Run a script' } },
      { text: 'Done.' },
    ]);
    const t0 = Date.now();
    got = await runClaude(client.bin, { cwd: s.proj, home: s.home, url: m.url, args: ['--allowedTools', 'Bash'] });
    got.ms = Date.now() - t0;
    got.results = toolResults(m.mainRequests().at(-1)?.body);
    await m.close();
  });
  test.after(() => { if (s) rmSync(s.base, { recursive: true, force: true }); });

  test('the call is blocked, promptly, with the reason; nothing ran on the host', () => {
    assert.is(got.results.length, 1, JSON.stringify(got));
    assert.match(got.results[0].content, /sbx\.config\.json is a FIFO/);
    assert.match(got.results[0].content, /blocked/);
    assert.not.ok(existsSync(marker), 'the command ran on the host');
    assert.ok(got.ms < 60_000, `the session took ${got.ms} ms`);
  });
}

test.run();
