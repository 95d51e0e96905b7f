// Claude Code (the real client, pinned) with the pre-hook as a call to sbx's MCP server (`sbx hook install
// --claude --mcp-hook`: an `mcp_tool` PreToolUse entry, the server `sbx mcp --hook-only` in the project's
// .mcp.json), driven headless against the scripted model: a build line is rewritten into the sandbox and
// the model gets its verdict, a line the hook leaves alone runs as it is, the server's tool is not offered
// to the model, the install and uninstall keep the user's bytes, and it fails closed: a server that cannot
// start, or a project config sbx cannot read, blocks the call and nothing runs on the host.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startScriptedModel, toolResults } from './_scripted-model.js';
import { cli, ensureClaude, runClaude, scratchProject } from './_client.js';
import { needs, skipping } from '../_tools.js';

const WHAT = 'test/integrations/claude-mcp-hook (the real Claude Code)';
// python3 prints the sandbox's host name (the rewritten line); a machine without it skips the suite.
const tools = needs(WHAT, ['python3'], suite('claude-code mcp hook'));
const client = tools.skipping ? null : ensureClaude();
const test = client?.skip ? skipping(tools, WHAT, `${client.skip}; install: the suite installs it from the npm registry when it can reach it`) : tools;

const sbx = (...args) => spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8' });

{
  let s; const got = {}; let marker; let files;
  const session = async (steps) => {
    const m = await startScriptedModel([...steps, { text: 'Done.' }]);
    const r = await runClaude(client.bin, { cwd: s.proj, home: s.home, url: m.url, args: ['--allowedTools', 'Bash'] });
    r.first = m.mainRequests()[0]?.body;
    r.results = toolResults(m.mainRequests().at(-1)?.body);
    await m.close();
    return r;
  };

  test.before(async () => {
    s = scratchProject('asan');
    mkdirSync(join(s.proj, '.claude'));
    // The user's own files, in their own style: install must merge, uninstall give these bytes back.
    files = {
      settings: [join(s.proj, '.claude', 'settings.json'), '{\n    "env": {"A": "1"},\n    "permissions": {"allow": ["Bash(ls:*)"]}\n}\n'],
      mcp: [join(s.proj, '.mcp.json'), '{"mcpServers": {"other": {"command": "true", "args": []}}}'],
    };
    for (const [f, text] of Object.values(files)) writeFileSync(f, text);
    got.install = sbx('hook', 'install', '--claude', '--mcp-hook', '--dir', s.proj);
    got.settings = JSON.parse(readFileSync(files.settings[0], 'utf8'));
    got.mcpJson = JSON.parse(readFileSync(files.mcp[0], 'utf8'));
    // The other server of .mcp.json cannot start: a project keeps going with it (it is not sbx's).
    got.a = await session([
      { tool: 'Bash', input: { command: 'cd asan && make -s run', description: 'Build and run the C program', timeout: 90000 } },
      { tool: 'Bash', input: { command: 'echo untouched-$((6*7)) && ls asan', description: 'List the C project' } },
      { tool: 'Bash', input: { command: 'python3 -c "import socket; print(socket.gethostname())"', description: 'Host name' } },
    ]);
    // A project config sbx cannot read (a FIFO at sbx.config.json): the call is denied with the reason.
    marker = join(s.base, 'ran-on-host');
    spawnSync('mkfifo', [join(s.proj, 'sbx.config.json')]);
    got.fifo = await session([{ tool: 'Bash', input: { command: `python3 -c "open('${marker}', 'w')"`, description: 'Run a script' } }]);
    rmSync(join(s.proj, 'sbx.config.json'));
    // sbx's server cannot start (sbx moved): every Bash call is blocked, none runs on the host.
    const moved = JSON.parse(readFileSync(files.mcp[0], 'utf8'));
    const saved = readFileSync(files.mcp[0], 'utf8');
    moved.mcpServers.sbx.args[0] = join(s.base, 'moved', 'cli.cjs');
    writeFileSync(files.mcp[0], JSON.stringify(moved));
    got.moved = await session([{ tool: 'Bash', input: { command: `python3 -c "open('${marker}', 'w')"`, description: 'Run a script' } }]);
    writeFileSync(files.mcp[0], saved);
    got.uninstall = sbx('hook', 'uninstall', '--claude', '--dir', s.proj);
  });

  test.after(() => { if (s && !process.env.SBX_INTEG_KEEP) rmSync(s.base, { recursive: true, force: true }); });

  test('install writes an mcp_tool pre-hook that fails closed, and sbx mcp --hook-only beside the user\'s server', () => {
    assert.is(got.install.status, 0, got.install.stderr);
    const pre = got.settings.hooks.PreToolUse;
    assert.equal(pre, [{ matcher: 'Bash', hooks: [{ type: 'mcp_tool', server: 'sbx', tool: 'claude_pre', input: { tool_input: '${tool_input}', cwd: '${cwd}' }, onFailure: 'block', timeout: 60 }] }]);
    assert.equal(got.settings.env, { A: '1' });
    assert.equal(Object.keys(got.mcpJson.mcpServers), ['other', 'sbx']);
    assert.equal(got.mcpJson.mcpServers.sbx.args.slice(1), ['mcp', '--hook-only']);
    assert.match(got.install.stdout, /as a call to sbx's MCP server/);
  });

  test('the session ran to the end', () => {
    assert.is(got.a.status, 0, got.a.stderr.slice(0, 500));
    assert.is(got.a.json?.result, 'Done.', got.a.stdout.slice(0, 500));
    assert.is(got.a.results.length, 3);
  });

  test('a build line: rewritten into the sandbox by the server, the model gets the verdict', () => {
    const r = got.a.results[0];
    assert.ok(r.is_error, 'a failing command stays a failed tool call');
    assert.match(r.content, /sbx: crash · exit 2/);
    assert.match(r.content, /crash: asan heap-use-after-free · READ of size 4/);
    assert.match(r.content, /\n  at lookup asan\/main\.c:24\n/);
    assert.not.match(r.content, /progress: step 0001 /);
  });

  test('a line the hook leaves alone runs as it is, on the host', () => {
    const r = got.a.results[1];
    assert.not.ok(r.is_error);
    assert.match(r.content, /^untouched-42\nMakefile\nmain\.c/);
    assert.not.match(r.content, /sbx:/);
  });

  test('the rewritten line really ran in the sandbox (host name sbx)', () => {
    assert.match(got.a.results[2].content, /^sbx: pass · exit 0 · [^\n]* · 1 line\nsbx$/);
  });

  test('the hook\'s tool is not offered to the model', () => {
    assert.ok(got.a.first, 'a first request');
    const names = got.a.first.tools.map((t) => t.name);
    assert.ok(names.includes('Bash'));
    assert.not.ok(names.some((n) => n.startsWith('mcp__sbx')), names.join(' '));
  });

  test('a project config sbx cannot read: the call is denied with the reason, nothing ran on the host', () => {
    assert.is(got.fifo.results.length, 1, JSON.stringify(got.fifo).slice(0, 800));
    assert.match(got.fifo.results[0].content, /sbx\.config\.json is a FIFO/);
    assert.not.ok(existsSync(marker), 'the command ran on the host');
  });

  test('sbx moved (its server cannot start): the call is blocked, nothing ran on the host', () => {
    assert.is(got.moved.results.length, 1, JSON.stringify(got.moved).slice(0, 800));
    assert.ok(got.moved.results[0].is_error);
    assert.match(got.moved.results[0].content, /onFailure is "block"|not connected/);
    assert.not.ok(existsSync(marker), 'the command ran on the host');
  });

  test('uninstall gives the user both files back byte for byte', () => {
    assert.is(got.uninstall.status, 0, got.uninstall.stderr);
    for (const [f, text] of Object.values(files)) assert.is(readFileSync(f, 'utf8'), text, f);
    assert.not.ok(existsSync(`${files.mcp[0]}.sbx.bak`));
    assert.not.ok(existsSync(`${files.settings[0]}.sbx.bak`));
  });
}

test.run();
