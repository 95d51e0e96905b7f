// `sbx hook doctor`: per client, whether sbx's hooks and MCP server are live, from the files the client
// reads (offline). Installed and set up as each client needs → every line ok, exit 0; each piece taken
// away → its own `missing` line with the fix, exit 1.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root } from './_client.js';

const test = suite('hook doctor');
const base = realpathSync(mkdtempSync(join(tmpdir(), 'sbx-hook-doctor-')));
// A copy of sbx, to take its files away.
const sbxDir = join(base, 'sbx');
for (const d of ['dist', 'build']) cpSync(join(root, d), join(sbxDir, d), { recursive: true });
const cli = join(sbxDir, 'dist', 'cli.cjs');
const proj = join(base, 'proj');
const home = join(base, 'home');
const codexHome = join(home, '.codex');
mkdirSync(proj); mkdirSync(codexHome, { recursive: true });
const env = { ...process.env, HOME: home, CODEX_HOME: codexHome, SBX_RESIDENT: '0', GEMINI_CLI_TRUST_WORKSPACE: 'true' };
const sbx = (args, extra = {}) => spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', cwd: proj, env: { ...env, ...extra } });
const lines = (out) => out.trimEnd().split('\n');

test.before(() => {
  for (const c of ['claude', 'codex', 'gemini']) assert.is(sbx(['hook', 'install', `--${c}`]).status, 0);
  const mcp = { command: process.execPath, args: [cli, 'mcp'] };
  writeFileSync(join(proj, '.mcp.json'), JSON.stringify({ mcpServers: { sbx: mcp } }));
  const g = JSON.parse(readFileSync(join(proj, '.gemini', 'settings.json'), 'utf8'));
  writeFileSync(join(proj, '.gemini', 'settings.json'), JSON.stringify({ ...g, mcpServers: { sbx: mcp } }));
  writeFileSync(join(codexHome, 'config.toml'), [
    `[projects."${proj}"]`, 'trust_level = "trusted"', '',
    `[hooks.state."${join(proj, '.codex', 'hooks.json')}:pre_tool_use:0:0"]`, 'trusted_hash = "sha256:0"', '',
    '[mcp_servers.sbx]', `command = ${JSON.stringify(process.execPath)}`, `args = [${JSON.stringify(cli)}, "mcp"]`, 'required = true', '',
  ].join('\n'));
});
test.after(() => rmSync(base, { recursive: true, force: true }));

test('installed and set up: every line ok, exit 0', () => {
  const r = sbx(['hook', 'doctor']);
  assert.is(r.status, 0, r.stdout + r.stderr);
  const ls = lines(r.stdout);
  assert.ok(ls.every((l) => l.startsWith('ok ')), r.stdout);
  for (const want of [/^ok +Claude Code: PreToolUse: sbx hook claude-pre runs \S+cli\.cjs$/, /^ok +Claude Code: MCP server "sbx" in /, /^ok +Codex CLI: the project is trusted/, /^ok +Codex CLI: 1 hook trust record/, /^ok +Codex CLI: MCP server "sbx"/, /^ok +Gemini CLI: the project is trusted \(GEMINI_CLI_TRUST_WORKSPACE=true\)/, /^ok +Gemini CLI: BeforeTool: sbx hook gemini-pre/]) {
    assert.ok(ls.some((l) => want.test(l)), `${want}\n${r.stdout}`);
  }
});

test('Gemini without a trusted workspace: headless runs ignore the project settings', () => {
  const r = sbx(['hook', 'doctor', '--gemini'], { GEMINI_CLI_TRUST_WORKSPACE: '' });
  assert.is(r.status, 1);
  assert.match(r.stdout, /^missing Gemini CLI: the project is not trusted \(no rule in \S+trustedFolders\.json holds the project\): Gemini CLI ignores its \.gemini\/settings\.json.*--skip-trust; fix: sbx hook install --gemini --trust .*GEMINI_CLI_TRUST_WORKSPACE=true/m);
  assert.not.match(r.stdout, /Claude Code|Codex CLI/, 'only the client asked for');
});

test('a hook taken out, a broken file, untrusted Codex hooks: each its line, exit 1', () => {
  // The post-hooks stay (installed with --post), the pre-hook is taken out.
  assert.is(sbx(['hook', 'install', '--claude', '--post']).status, 0);
  const cf = join(proj, '.claude', 'settings.json');
  const c = JSON.parse(readFileSync(cf, 'utf8'));
  delete c.hooks.PreToolUse;
  writeFileSync(cf, JSON.stringify(c));
  const gf = join(proj, '.gemini', 'settings.json');
  const gtext = readFileSync(gf, 'utf8');
  writeFileSync(gf, '{ "hooks": ');
  const toml = readFileSync(join(codexHome, 'config.toml'), 'utf8');
  writeFileSync(join(codexHome, 'config.toml'), toml.replace(/\[hooks\.state[^\n]*\ntrusted_hash[^\n]*\n/, ''));
  try {
    const r = sbx(['hook', 'doctor']);
    assert.is(r.status, 1, r.stdout);
    assert.match(r.stdout, /^missing Claude Code: PreToolUse: no sbx hook \(claude-pre\); fix: sbx hook install --claude$/m);
    assert.match(r.stdout, /^missing Gemini CLI: \S+settings\.json is not valid JSON \(.*\); fix: fix the file by hand, then sbx hook install --gemini$/m);
    assert.match(r.stdout, /^missing Codex CLI: no hook is trusted in \S+config\.toml: Codex skips untrusted hooks without a word; fix: run codex, open \/hooks and trust/m);
  } finally {
    writeFileSync(gf, gtext);
    writeFileSync(join(codexHome, 'config.toml'), toml);
    assert.is(sbx(['hook', 'install', '--claude']).status, 0);
  }
});

test('"rewrite": false without a post-hook: missing (only a post-hook distils then); with --post ok; post-hooks with rewriting on: a note', () => {
  const config = join(proj, 'sbx.config.json');
  writeFileSync(config, '{"hook": {"rewrite": false}}');
  try {
    let r = sbx(['hook', 'doctor']);
    assert.is(r.status, 1, r.stdout);
    for (const [name, flag] of [['Claude Code', 'claude'], ['Codex CLI', 'codex'], ['Gemini CLI', 'gemini']]) {
      assert.match(r.stdout, new RegExp(`^missing ${name}: "rewrite": false in \\S+sbx\\.config\\.json keeps every command on the host, and only a post-hook distils .*; fix: sbx hook install --${flag} --post$`, 'm'));
    }
    for (const c of ['claude', 'codex', 'gemini']) assert.is(sbx(['hook', 'install', `--${c}`, '--post']).status, 0);
    r = sbx(['hook', 'doctor']);
    assert.is(r.status, 0, r.stdout);
    assert.match(r.stdout, /^ok +Claude Code: PostToolUseFailure: sbx hook claude-post runs /m);
    assert.match(r.stdout, /^ok +Gemini CLI: AfterTool: sbx hook gemini-post runs /m);
    rmSync(config);
    r = sbx(['hook', 'doctor', '--codex']);
    assert.match(r.stdout, /^note +Codex CLI: post-hooks installed \(PostToolUse\): one more hook process per call, needed only with "rewrite": false/m);
  } finally {
    rmSync(config, { force: true });
    for (const c of ['claude', 'codex', 'gemini']) assert.is(sbx(['hook', 'install', `--${c}`]).status, 0);
  }
});

test('install --filter, then a sandbox pattern added that the pre-hook\'s `if` rules do not cover: missing; install again: ok', () => {
  const config = join(proj, 'sbx.config.json');
  assert.is(sbx(['hook', 'install', '--claude', '--filter']).status, 0);
  writeFileSync(config, '{"hook": {"sandbox": ["mytool check", "cmake2"]}}');
  try {
    let r = sbx(['hook', 'doctor', '--claude']);
    assert.is(r.status, 1, r.stdout);
    assert.match(r.stdout, /^missing Claude Code: PreToolUse: the pre-hook runs only for lines its `if` rules match, made from the sandbox table at install; the table now also names mytool, whose lines never reach it and run on the host; fix: sbx hook install --claude$/m);
    assert.is(sbx(['hook', 'install', '--claude', '--filter']).status, 0);
    r = sbx(['hook', 'doctor', '--claude']);
    assert.is(r.status, 0, r.stdout);
  } finally {
    rmSync(config, { force: true });
    assert.is(sbx(['hook', 'install', '--claude']).status, 0);
  }
});

test('the sbx the hooks and the MCP server name is gone: missing, exit 1', () => {
  // A doctor from the checkout (this copy's cli.cjs is what is taken away).
  renameSync(cli, `${cli}.away`);
  try {
    const r = spawnSync(process.execPath, [join(root, 'dist', 'cli.cjs'), 'hook', 'doctor', '--dir', proj], { encoding: 'utf8', env });
    assert.is(r.status, 1, r.stdout);
    assert.match(r.stdout, /^missing Claude Code: PreToolUse: the hook runs \S+cli\.cjs, which is missing or not executable; fix: sbx hook install --claude \(from where sbx is now\)$/m);
    assert.match(r.stdout, /^missing Codex CLI: MCP server "sbx" in \S+config\.toml runs \S+cli\.cjs, which is missing/m);
    assert.match(r.stdout, /^missing Gemini CLI: BeforeTool: the hook runs/m);
  } finally { renameSync(`${cli}.away`, cli); }
  // Present, but another sbx than the one asking.
  const r = spawnSync(process.execPath, [join(root, 'dist', 'cli.cjs'), 'hook', 'doctor', '--claude', '--dir', proj], { encoding: 'utf8', env });
  assert.is(r.status, 1);
  assert.match(r.stdout, /^missing Claude Code: PreToolUse: the hook runs another sbx \(.*\), not this one/m);
});

test('nothing installed: a note per client, exit 0; --project with --user: usage error', () => {
  const empty = join(base, 'empty');
  mkdirSync(empty);
  const r = spawnSync(process.execPath, [cli, 'hook', 'doctor', '--dir', empty], { encoding: 'utf8', env: { ...env, HOME: join(base, 'nohome'), CODEX_HOME: join(base, 'nohome', '.codex') } });
  assert.is(r.status, 0);
  assert.is(lines(r.stdout).length, 3);
  assert.ok(lines(r.stdout).every((l) => /^note +\S.*: no sbx hooks in /.test(l)), r.stdout);
  assert.not.equal(sbx(['hook', 'doctor', '--project', '--user']).status, 0);
});

test.run();
