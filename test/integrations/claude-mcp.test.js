// Claude Code (the real client, pinned) with `sbx mcp` as an MCP server (--mcp-config), driven headless
// against the scripted model: what the model received from the run and show tools, and that the tools
// were offered up front (alwaysLoad), not deferred behind tool search.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startScriptedModel, toolResults } from './_scripted-model.js';
import { cli, ensureClaude, runClaude, scratchProject } from './_client.js';
import { skipping } from '../_tools.js';

const client = ensureClaude();
const test = client.skip ? skipping(suite('claude-code mcp'), 'test/integrations/claude-mcp (the real Claude Code)', `${client.skip}; install: the suite installs it from the npm registry when it can reach it`) : suite('claude-code mcp');

// Each test counts as skipped, with the SKIP line, when the client cannot be installed.
{
  let s; let session; let first; let last;
  const lastLog = (body) => /\/\.sbx\/logs\/[^"\\\s]+\.log/.exec(JSON.stringify(toolResults(body).at(-1)?.content ?? ''))?.[0];

  test.before(async () => {
    s = scratchProject('asan');
    const config = join(s.base, 'mcp.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { sbx: { type: 'stdio', command: process.execPath, args: [cli, 'mcp'] } } }));
    const m = await startScriptedModel([
      { tool: 'mcp__sbx__run', input: { command: 'make -s run', work: 'asan' } },
      { tool: 'mcp__sbx__show', input: (body) => ({ log: `${join(s.proj, 'asan')}${lastLog(body)}`, what: 'raw', from: 1, to: 2 }) },
      { tool: 'mcp__sbx__run', input: { command: 'hostname' } },
      { text: 'Done.' },
    ]);
    session = await runClaude(client.bin, { cwd: s.proj, home: s.home, url: m.url, args: ['--mcp-config', config, '--strict-mcp-config', '--allowedTools', 'mcp__sbx__run,mcp__sbx__show'] });
    first = m.mainRequests()[0]?.body;
    last = m.mainRequests().at(-1)?.body;
    if (process.env.SBX_INTEG_DUMP) writeFileSync(join(process.env.SBX_INTEG_DUMP, 'mcp-session.json'), JSON.stringify(last, null, 1));
    await m.close();
  });

  test.after(() => { if (s && !process.env.SBX_INTEG_KEEP) rmSync(s.base, { recursive: true, force: true }); });

  test('the session ran to the end', () => {
    assert.is(session.status, 0, session.stderr.slice(0, 500));
    assert.is(session.json?.result, 'Done.', session.stdout.slice(0, 500));
    assert.is(toolResults(last).length, 3);
  });

  test('the sbx tools are offered in the first request with their input schema (alwaysLoad: not deferred)', () => {
    const run = first.tools.find((t) => t.name === 'mcp__sbx__run');
    assert.ok(run, first.tools.map((t) => t.name).join(' '));
    assert.is(run.input_schema.required[0], 'command');
    assert.not.ok(run.defer_loading, 'not deferred');
    assert.ok(first.tools.find((t) => t.name === 'mcp__sbx__show'));
  });

  test('run: a crash is a normal result whose content is the verdict, first user frame and log path in it', () => {
    const r = toolResults(last)[0];
    assert.not.ok(r.is_error, 'a failing command is not a tool error');
    const json = JSON.parse(r.content);
    assert.is(json.status, 'crash');
    assert.is(json.exit_code, 2);
    assert.is(json.crash, 'asan heap-use-after-free at lookup main.c:24');
    assert.match(json.verdict, /\n  at lookup main\.c:24\n/);
    assert.match(json.log, /\/asan\/\.sbx\/logs\/[^/]+\.log$/);
    assert.not.match(r.content, /progress: step 0001 /);
    assert.ok(r.content.length < 3500, `${r.content.length} bytes`);
  });

  test('show: a slice of the raw log, by line range', () => {
    const r = toolResults(last)[1];
    assert.not.ok(r.is_error, r.content);
    const json = JSON.parse(r.content);
    assert.match(json.text, /^lines 1-2 of \d+\n {5}1 {2}progress: step 0001 of 0330/);
  });

  test('run really runs in the sandbox', () => {
    const json = JSON.parse(toolResults(last)[2].content);
    assert.is(json.status, 'pass');
    assert.match(json.verdict, /\n(?: {2}\| )?sbx\n/); // the verdict's tail, or the output as itself when shorter (brief.ts)
  });
}

test.run();
