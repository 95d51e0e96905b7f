// `sbx hook install --gemini --mcp-only`: Gemini CLI's route without hooks, sbx's MCP server in place of
// its shell tool (mcpServers.sbx, run_shell_command in tools.exclude). Merged into the user's file as the
// hook install is (indentation, key order, a .sbx.bak of the user's bytes once), and uninstall takes out
// exactly what it added: the user's bytes again, no file where there was none, a run_shell_command the
// user had excluded before kept. Each kind of install takes out what the other wrote.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sbx } from './_hook-helpers.js';
import { root } from './_client.js';

const tmp = realpathSync(mkdtempSync(join(tmpdir(), 'sbx-hook-mcp-only-')));
const t = suite('hook install --gemini --mcp-only');
const FILE = '.gemini/settings.json';

// A hand-written file: 4-space indent, `hooks` first (a user's own hook), another MCP server, a tool of
// the user's excluded, no final newline.
const MINE = '{\n    "hooks": {\n        "BeforeTool": [ { "hooks": [ { "command": "my-linter", "type": "command" } ], "matcher": "write_file" } ]\n    },\n    "mcpServers": {"other": {"command": "other-mcp"}},\n    "tools": {"exclude": ["web_fetch"], "sandbox": false},\n    "model": {"name": "gemini-2.5-pro"}\n}';

const project = (name, text) => {
  const dir = join(tmp, name);
  mkdirSync(join(dir, '.gemini'), { recursive: true });
  if (text !== undefined) writeFileSync(join(dir, FILE), text);
  return { dir, path: join(dir, FILE) };
};
const read = (path) => JSON.parse(readFileSync(path, 'utf8'));

t('install: the server by absolute path, the shell tool excluded, no hooks; the user\'s file merged in its style, backed up once; uninstall: their bytes', () => {
  const { dir, path } = project('own', MINE);
  let r = sbx('hook', 'install', '--gemini', '--mcp-only', '--dir', dir);
  assert.is(r.status, 0, r.stderr);
  assert.match(r.stdout, /Gemini CLI MCP route installed in \S+\.gemini\/settings\.json \(your file kept as \S+\.sbx\.bak\): mcpServers\.sbx .* run_shell_command in tools\.exclude/);
  assert.is(readFileSync(`${path}.sbx.bak`, 'utf8'), MINE);
  const text = readFileSync(path, 'utf8');
  assert.ok(text.startsWith('{\n    "hooks": {\n        "BeforeTool": ['), `indentation and key order kept:\n${text}`);
  assert.not.ok(text.endsWith('\n'), 'and the (missing) final newline');
  const s = read(path);
  assert.equal(Object.keys(s), ['hooks', 'mcpServers', 'tools', 'model']);
  assert.equal(s.hooks, JSON.parse(MINE).hooks, 'no sbx hook; the user\'s own kept');
  assert.equal(Object.keys(s.mcpServers), ['other', 'sbx']);
  assert.is(s.mcpServers.sbx.command, process.execPath);
  assert.is(s.mcpServers.sbx.args.length, 2);
  assert.match(s.mcpServers.sbx.args[0], /^\/.*\/dist\/cli\.c?js$/);
  assert.is(s.mcpServers.sbx.args[1], 'mcp');
  assert.equal(s.tools, { exclude: ['web_fetch', 'run_shell_command'], sandbox: false });
  r = sbx('hook', 'install', '--gemini', '--mcp-only', '--dir', dir);
  assert.is(r.status, 0, r.stderr);
  assert.is(readFileSync(`${path}.sbx.bak`, 'utf8'), MINE, 'a second install does not back up the installed file');
  assert.equal(read(path).tools.exclude, ['web_fetch', 'run_shell_command'], 'one entry, not two');
  const u = sbx('hook', 'uninstall', '--gemini', '--dir', dir);
  assert.is(u.status, 0, u.stderr);
  assert.match(u.stdout, /MCP route .* byte for byte/);
  assert.is(readFileSync(path, 'utf8'), MINE);
  assert.not.ok(existsSync(`${path}.sbx.bak`));
});

t('no file before install, none after uninstall', () => {
  const { dir, path } = project('none');
  assert.is(sbx('hook', 'install', '--gemini', '--mcp-only', '--dir', dir).status, 0);
  const s = read(path);
  assert.equal(Object.keys(s), ['mcpServers', 'tools']);
  assert.equal(s.tools, { exclude: ['run_shell_command'] });
  assert.not.ok(existsSync(`${path}.sbx.bak`));
  const u = sbx('hook', 'uninstall', '--gemini', '--dir', dir);
  assert.is(u.status, 0, u.stderr);
  assert.match(u.stdout, /deleted \(install created it\)/);
  assert.not.ok(existsSync(path));
});

t('the hooks an install wrote are taken out (and said so); a hook install takes the route out; uninstall: the user\'s bytes', () => {
  const { dir, path } = project('switch', MINE);
  assert.is(sbx('hook', 'install', '--gemini', '--dir', dir).status, 0);
  let r = sbx('hook', 'install', '--gemini', '--mcp-only', '--dir', dir);
  assert.is(r.status, 0, r.stderr);
  assert.match(r.stdout, /no hooks \(the 1 sbx hook entry there taken out\)/);
  assert.not.match(readFileSync(path, 'utf8'), /gemini-pre/);
  assert.is(readFileSync(`${path}.sbx.bak`, 'utf8'), MINE, 'the backup is still the user\'s file');
  r = sbx('hook', 'install', '--gemini', '--dir', dir);
  assert.is(r.status, 0, r.stderr);
  const s = read(path);
  assert.equal(s.mcpServers, { other: { command: 'other-mcp' } });
  assert.equal(s.tools.exclude, ['web_fetch'], 'the shell tool back, for the hooks to rewrite');
  assert.match(JSON.stringify(s.hooks), /hook gemini-pre/);
  assert.is(sbx('hook', 'install', '--gemini', '--mcp-only', '--dir', dir).status, 0);
  const u = sbx('hook', 'uninstall', '--gemini', '--dir', dir);
  assert.is(u.status, 0, u.stderr);
  assert.is(readFileSync(path, 'utf8'), MINE);
});

t('a run_shell_command the user had excluded stays excluded after uninstall, also from a file edited since', () => {
  const before = '{\n  "tools": {\n    "exclude": [\n      "run_shell_command"\n    ]\n  }\n}\n';
  const { dir, path } = project('kept', before);
  assert.is(sbx('hook', 'install', '--gemini', '--mcp-only', '--dir', dir).status, 0);
  assert.equal(read(path).tools.exclude, ['run_shell_command']);
  const edited = { ...read(path), model: { name: 'x' } };
  writeFileSync(path, JSON.stringify(edited, null, 2));
  const u = sbx('hook', 'uninstall', '--gemini', '--dir', dir);
  assert.is(u.status, 0, u.stderr);
  assert.match(u.stdout, /edited since install/);
  assert.equal(read(path), { tools: { exclude: ['run_shell_command'] }, model: { name: 'x' } });
});

t('an mcpServers.sbx install did not write is not replaced: one-line E_SETTINGS, nothing changed', () => {
  const mine = JSON.stringify({ mcpServers: { sbx: { command: 'node', args: ['/opt/sbx/dist/cli.js', 'mcp'] } } }, null, 2);
  const { dir, path } = project('handwritten', mine);
  const r = sbx('hook', 'install', '--gemini', '--mcp-only', '--dir', dir);
  assert.is.not(r.status, 0);
  assert.match(r.stderr, /mcpServers\.sbx is an entry sbx hook install did not write/);
  assert.is(r.stderr.trim().split('\n').length, 1, r.stderr);
  assert.is(readFileSync(path, 'utf8'), mine);
  assert.not.ok(existsSync(`${path}.sbx.bak`));
});

t('--mcp-only with another client, --post, --filter or uninstall: a one-line usage error', () => {
  const { dir } = project('usage');
  for (const args of [['install', '--claude'], ['install', '--codex'], ['install', '--gemini', '--post'], ['install', '--gemini', '--filter'], ['install', '--gemini', '--claude'], ['uninstall', '--gemini']]) {
    const r = sbx('hook', ...args, '--mcp-only', '--dir', dir);
    assert.is(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, /--mcp-only goes with sbx hook install --gemini alone/);
    assert.is(r.stderr.trim().split('\n').length, 1, r.stderr);
  }
  assert.not.ok(existsSync(join(dir, FILE)));
});

t('doctor: the route live; a moved sbx or the shell tool back is a missing line, exit 1', () => {
  // A copy of sbx, to take it away.
  const copy = join(tmp, 'sbx-copy');
  for (const d of ['dist', 'build']) cpSync(join(root, d), join(copy, d), { recursive: true });
  const { dir, path } = project('doctor');
  const env = { ...process.env, HOME: join(tmp, 'home'), SBX_RESIDENT: '0', GEMINI_CLI_TRUST_WORKSPACE: 'true' };
  const run = (...args) => spawnSync(process.execPath, [join(copy, 'dist', 'cli.cjs'), ...args], { encoding: 'utf8', env });
  assert.is(run('hook', 'install', '--gemini', '--mcp-only', '--dir', dir).status, 0);
  let r = run('hook', 'doctor', '--gemini', '--dir', dir);
  assert.is(r.status, 0, r.stdout);
  assert.match(r.stdout, /^ok {6}Gemini CLI: \S+ holds the MCP route \(install --mcp-only\): no hooks$/m);
  assert.match(r.stdout, /^ok {6}Gemini CLI: run_shell_command is in tools\.exclude/m);
  assert.match(r.stdout, /^ok {6}Gemini CLI: MCP route live: /m);
  assert.not.match(r.stdout, /BeforeTool/, 'no hook is asked for');
  const s = read(path);
  writeFileSync(path, JSON.stringify({ ...s, tools: {} }, null, 2));
  r = run('hook', 'doctor', '--gemini', '--dir', dir);
  assert.is(r.status, 1, r.stdout);
  assert.match(r.stdout, /^missing Gemini CLI: run_shell_command is not in tools\.exclude of \S+: the model can still run commands on the host, unsandboxed; fix: sbx hook install --gemini --mcp-only$/m);
  assert.not.match(r.stdout, /MCP route live/);
  writeFileSync(path, JSON.stringify(s, null, 2));
  rmSync(join(copy, 'dist'), { recursive: true });
  r = spawnSync(process.execPath, [join(root, 'dist', 'cli.cjs'), 'hook', 'doctor', '--gemini', '--dir', dir], { encoding: 'utf8', env });
  assert.is(r.status, 1, r.stdout);
  assert.match(r.stdout, /^missing Gemini CLI: MCP server "sbx" in \S+ runs \S+cli\.c?js, which is missing or not executable: Gemini CLI cannot start it, so the model has no run tool \(nor a shell tool\)/m);
});

t.after(() => rmSync(tmp, { recursive: true, force: true }));
t.run();
