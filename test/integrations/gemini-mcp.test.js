// Gemini CLI (the real client, pinned) with `sbx mcp` in its settings (mcpServers), driven headless
// against the scripted Gemini API: the tools offered, and what the model received from `run`.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { functionResponses, startScriptedGemini } from './_scripted-gemini.js';
import { cli, ensureGemini, geminiSettings, runGemini, scratchProject } from './_client.js';
import { skipping } from '../_tools.js';

const client = ensureGemini();
const test = client.skip ? skipping(suite('gemini-cli mcp'), 'test/integrations/gemini-mcp (the real Gemini CLI)', `${client.skip}; install: the suite installs it from the npm registry when it can reach it`) : suite('gemini-cli mcp');

// Each test counts as skipped, with the SKIP line, when the client cannot be installed.
{
  let s; let session; let first; let results;
  const RUN = process.env.SBX_GEMINI_MCP_TOOL ?? 'mcp_sbx_run';

  test.before(async () => {
    s = scratchProject('asan');
    geminiSettings(s.home, { mcpServers: { sbx: { command: process.execPath, args: [cli, 'mcp'], trust: true } } });
    const m = await startScriptedGemini([
      { tool: RUN, input: { command: 'make -s run', work: 'asan' } },
      { tool: RUN, input: { command: 'hostname' } },
      { text: 'Done.' },
    ]);
    session = await runGemini(client.bin, { cwd: s.proj, home: s.home, url: m.url });
    first = m.mainRequests()[0]?.body;
    const last = m.mainRequests().at(-1)?.body;
    results = functionResponses(last);
    if (process.env.SBX_INTEG_DUMP) writeFileSync(join(process.env.SBX_INTEG_DUMP, 'gemini-mcp-session.json'), JSON.stringify(last, null, 1));
    await m.close();
  });

  test.after(() => { if (s && !process.env.SBX_INTEG_KEEP) rmSync(s.base, { recursive: true, force: true }); });

  test('the sbx tools are offered in the first request', () => {
    const names = first.tools.flatMap((t) => (t.functionDeclarations ?? []).map((f) => f.name));
    assert.ok(names.includes(RUN), names.join(' '));
  });

  test('the session ran to the end', () => {
    assert.is(session.status, 0, session.stderr.slice(-800));
    assert.is(session.json?.response, 'Done.');
    assert.is(results.length, 2);
  });

  test('run: the verdict and first user frame reach the model, not the raw output', () => {
    const text = JSON.stringify(results[0].response);
    assert.match(text, /sbx: crash · exit 2/);
    assert.match(text, /at lookup main\.c:24/);
    assert.match(text, /\.sbx\/logs\/[^"\\]+\.log/);
    assert.not.match(text, /progress: step 0001 /);
  });

  test('run really runs in the sandbox', () => {
    assert.match(JSON.stringify(results[1].response), /\\n(?: {2}\| )?sbx\\n/); // tail, or the output as itself when shorter
  });
}

test.run();
