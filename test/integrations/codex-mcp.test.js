// Codex CLI (the real client, pinned) with `sbx mcp` in $CODEX_HOME/config.toml (required = true), driven
// headless against the scripted Responses API. Codex 0.171 defers MCP tools behind its client-side
// tool_search: the scripted model searches first, then calls `run` in the `mcp__sbx` namespace.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startScriptedResponses } from './_scripted-responses.js';
import { cli, ensureCodex, runCodex, scratchProject } from './_client.js';
import { skipping } from '../_tools.js';

const client = ensureCodex();
const test = client.skip ? skipping(suite('codex mcp'), 'test/integrations/codex-mcp (the real Codex)', `${client.skip}; install: the suite installs it from the npm registry when it can reach it`) : suite('codex mcp');

// Each test counts as skipped, with the SKIP line, when the client cannot be installed.
{
  let s; let session; let first; let last;
  const outputs = (body) => (body?.input ?? []).filter((i) => i.type === 'function_call_output' || i.type === 'tool_search_output');

  test.before(async () => {
    s = scratchProject('asan');
    const codexHome = join(s.home, '.codex');
    mkdirSync(codexHome, { recursive: true });
    const m = await startScriptedResponses([
      { search: 'run a build or test command in the sbx sandbox' },
      { tool: 'run', namespace: 'mcp__sbx', input: { command: 'make -s run', work: 'asan' } },
      { tool: 'run', namespace: 'mcp__sbx', input: { command: 'hostname' } },
      { text: 'Done.' },
    ]);
    const toml = `[mcp_servers.sbx]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(cli)}, "mcp"]\nrequired = true\n`;
    session = await runCodex(client.bin, { cwd: s.proj, codexHome, url: m.url, toml });
    first = m.mainRequests()[0]?.body;
    last = m.mainRequests().at(-1)?.body;
    if (process.env.SBX_INTEG_DUMP) writeFileSync(join(process.env.SBX_INTEG_DUMP, 'codex-mcp-session.json'), JSON.stringify(last, null, 1));
    await m.close();
  });

  test.after(() => { if (s && !process.env.SBX_INTEG_KEEP) rmSync(s.base, { recursive: true, force: true }); });

  test('the session ran to the end', () => {
    assert.is(session.status, 0, session.stderr.slice(-500));
    assert.is(outputs(last).length, 3);
  });

  test('the sbx tools are deferred: absent from the first request, found by tool_search with their schema', () => {
    assert.not.ok(JSON.stringify(first.tools).includes('mcp__sbx'), 'Codex 0.171 does not offer MCP tools up front');
    const found = outputs(last)[0];
    assert.is(found.type, 'tool_search_output');
    const ns = found.tools.find((t) => t.name === 'mcp__sbx');
    const run = ns.tools.find((t) => t.name === 'run');
    assert.equal(run.parameters.required, ['command']);
  });

  test('run: the model sees the structuredContent JSON, the verdict and first user frame in it', () => {
    const out = outputs(last)[1].output;
    const json = JSON.parse(out.slice(out.indexOf('Output:\n') + 8));
    assert.is(json.status, 'crash');
    assert.is(json.exit_code, 2);
    assert.is(json.crash, 'asan heap-use-after-free at lookup main.c:24');
    assert.match(json.verdict, /\nlog: \S+\/asan\/\.sbx\/logs\/\S+\.log\n$/);
    assert.not.match(out, /progress: step 0001 /);
  });

  test('run really runs in the sandbox', () => {
    const out = outputs(last)[2].output;
    assert.match(out, /"verdict":"sbx: pass · exit 0 [^"]*\\n(?: {2}\| )?sbx\\n/); // tail, or the output as itself when shorter
  });
}

test.run();
