// `sbx hook install --claude --mcp-hook`: Claude Code's pre-hook as an `mcp_tool` call to sbx's MCP server
// (`sbx mcp --hook-only` in the project's .mcp.json). Without the client: what install writes and takes
// out (both files, the user's bytes, no file where there was none, switching with the hook-process install),
// its usage errors, and what the server answers (no tool listed; claude_pre: a rewrite, `{}`, a deny, an
// error). The real client: claude-mcp-hook.test.js.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { sbx } from './_hook-helpers.js';
import { cli } from './_client.js';

const tmp = realpathSync(mkdtempSync(join(tmpdir(), 'sbx-hook-mcp-hook-')));
const t = suite('hook install --claude --mcp-hook');
const project = (name) => {
  const dir = join(tmp, name);
  mkdirSync(join(dir, '.claude'), { recursive: true });
  return { dir, settings: join(dir, '.claude', 'settings.json'), mcp: join(dir, '.mcp.json') };
};
const read = (path) => JSON.parse(readFileSync(path, 'utf8'));
const preEntries = (path) => read(path).hooks.PreToolUse.flatMap((m) => m.hooks);

t('no files before install, none after uninstall', () => {
  const p = project('empty');
  let r = sbx('hook', 'install', '--claude', '--mcp-hook', '--dir', p.dir);
  assert.is(r.status, 0, r.stderr);
  assert.equal(preEntries(p.settings).map((h) => [h.type, h.server, h.tool, h.onFailure]), [['mcp_tool', 'sbx', 'claude_pre', 'block']]);
  assert.equal(read(p.mcp), { mcpServers: { sbx: { type: 'stdio', command: process.execPath, args: [read(p.mcp).mcpServers.sbx.args[0], 'mcp', '--hook-only'] } } });
  assert.match(read(p.mcp).mcpServers.sbx.args[0], /^\/.*\/dist\/cli\.c?js$/);
  r = sbx('hook', 'uninstall', '--claude', '--dir', p.dir);
  assert.is(r.status, 0, r.stderr);
  assert.match(r.stdout, /\.mcp\.json deleted \(install created it\)/);
  assert.not.ok(existsSync(p.mcp));
  assert.not.ok(existsSync(p.settings));
});

t('switching: the hook-process install takes the server out, --mcp-hook takes the command hooks out', () => {
  const p = project('switch');
  const mine = '{"mcpServers":{"db":{"command":"db-mcp"}}}\n';
  writeFileSync(p.mcp, mine);
  assert.is(sbx('hook', 'install', '--claude', '--dir', p.dir).status, 0);
  assert.equal(preEntries(p.settings).map((h) => h.type), ['command']);
  assert.is(readFileSync(p.mcp, 'utf8'), mine, 'a plain install leaves .mcp.json alone');
  assert.is(sbx('hook', 'install', '--claude', '--mcp-hook', '--dir', p.dir).status, 0);
  assert.equal(preEntries(p.settings).map((h) => h.type), ['mcp_tool'], 'the command hook replaced, not kept beside');
  assert.equal(Object.keys(read(p.mcp).mcpServers), ['db', 'sbx']);
  assert.is(readFileSync(`${p.mcp}.sbx.bak`, 'utf8'), mine);
  assert.is(sbx('hook', 'install', '--claude', '--dir', p.dir).status, 0);
  assert.equal(preEntries(p.settings).map((h) => h.type), ['command']);
  assert.is(readFileSync(p.mcp, 'utf8'), mine, "the user's .mcp.json again, byte for byte");
  assert.not.ok(existsSync(`${p.mcp}.sbx.bak`));
});

t('doctor: live when the server starts this sbx; missing (every call blocked) when it runs a gone sbx', () => {
  const p = project('doctor');
  assert.is(sbx('hook', 'install', '--claude', '--mcp-hook', '--dir', p.dir).status, 0);
  let r = sbx('hook', 'doctor', '--claude', '--dir', p.dir);
  assert.is(r.status, 0, r.stdout);
  assert.match(r.stdout, /\nok {6}Claude Code: PreToolUse: sbx's pre-hook as a call to MCP server "sbx" \(/);
  const m = read(p.mcp);
  m.mcpServers.sbx.args[0] = join(p.dir, 'gone', 'cli.cjs');
  writeFileSync(p.mcp, JSON.stringify(m));
  r = sbx('hook', 'doctor', '--claude', '--dir', p.dir);
  assert.is(r.status, 1, r.stdout);
  assert.match(r.stdout, /missing Claude Code: PreToolUse: the pre-hook's MCP server runs \S+\/gone\/cli\.cjs, which is missing or not executable: every Bash call is blocked/);
});

t('--filter: one mcp_tool entry per `if` rule', () => {
  const p = project('filter');
  assert.is(sbx('hook', 'install', '--claude', '--mcp-hook', '--filter', '--dir', p.dir).status, 0);
  const es = preEntries(p.settings);
  assert.ok(es.length > 5, `${es.length} entries`);
  for (const h of es) {
    assert.is(h.type, 'mcp_tool');
    assert.match(h.if, /^Bash\(\*.+\*\)$/);
  }
});

t('a hand-written mcpServers.sbx is refused and nothing changes; usage errors are one line', () => {
  const p = project('hand');
  const mine = '{"mcpServers":{"sbx":{"command":"my-own-sbx"}}}';
  writeFileSync(p.mcp, mine);
  let r = sbx('hook', 'install', '--claude', '--mcp-hook', '--dir', p.dir);
  assert.is(r.status, 2, r.stderr);
  assert.match(r.stderr, /^sbx: \S+\.mcp\.json: mcpServers\.sbx is an entry sbx hook install did not write/);
  assert.is(readFileSync(p.mcp, 'utf8'), mine);
  assert.not.ok(existsSync(p.settings), 'the hook is not installed either');
  for (const args of [['install', '--claude', '--mcp-hook', '--user'], ['install', '--codex', '--mcp-hook'], ['uninstall', '--claude', '--mcp-hook']]) {
    r = sbx('hook', ...args, '--dir', p.dir);
    assert.is(r.status, 2, args.join(' '));
    assert.match(r.stderr, /^sbx: --mcp-hook goes with sbx hook install --claude in a project/);
    assert.is(r.stderr.trim().split('\n').length, 1);
  }
});

t('sbx mcp --hook-only: no tool listed; claude_pre rewrites a build line, leaves ls alone, denies on a config it cannot read', async () => {
  const p = project('server');
  writeFileSync(join(p.dir, 'm.c'), 'int main(void) { return 0; }\n');
  const c = new Client({ name: 'test', version: '1' });
  await c.connect(new StdioClientTransport({ command: process.execPath, args: [cli, 'mcp', '--hook-only'], cwd: p.dir, stderr: 'ignore' }));
  try {
    assert.equal((await c.listTools()).tools, []);
    const call = async (input) => {
      const r = await c.callTool({ name: 'claude_pre', arguments: { tool_input: JSON.stringify(input), cwd: p.dir } });
      return { error: r.isError === true, text: r.content[0].text };
    };
    let r = await call({ command: 'gcc -o m m.c && ./m', description: 'build', timeout: 30000 });
    assert.not.ok(r.error, r.text);
    const out = JSON.parse(r.text).hookSpecificOutput;
    assert.is(out.permissionDecision, 'allow');
    assert.match(out.updatedInput.command, / run .*-- bash -c 'gcc -o m m\.c && \.\/m'$/);
    assert.is(out.updatedInput.timeout, 30000, 'the whole input is sent back');
    assert.is(out.updatedInput.description, 'build');
    r = await call({ command: 'ls -la', description: 'list' });
    assert.equal(r, { error: false, text: '{}' });
    spawnSync('mkfifo', [join(p.dir, 'sbx.config.json')]);
    r = await call({ command: 'make', description: 'build' });
    const deny = JSON.parse(r.text).hookSpecificOutput;
    assert.is(deny.permissionDecision, 'deny');
    assert.match(deny.permissionDecisionReason, /sbx\.config\.json is a FIFO/);
    r = await c.callTool({ name: 'claude_pre', arguments: { cwd: p.dir } });
    assert.ok(r.isError, 'bad arguments: an error, which the hook (onFailure "block") turns into a blocked call');
    r = await c.callTool({ name: 'run', arguments: { command: 'true' } });
    assert.ok(r.isError);
    assert.match(r.content[0].text, /--hook-only/);
  } finally {
    await c.close();
  }
});

t.after(() => rmSync(tmp, { recursive: true, force: true }));
t.run();
