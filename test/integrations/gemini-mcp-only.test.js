// Gemini CLI (the real client, pinned) set up with `sbx hook install --gemini --mcp-only --trust` in a
// project: no hooks (Gemini CLI spawns every hook from its Node process for every shell call), sbx's MCP
// server in place of its shell tool. Driven headless against the scripted Gemini API: the model is
// offered sbx's run and not run_shell_command, a failing gcc build through run gives it sbx's verdict, and
// with the sbx it names gone, Gemini CLI starts without the server: neither tool is there, nothing runs
// on the host. Uninstall gives back the user's bytes.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { functionResponses, startScriptedGemini } from './_scripted-gemini.js';
import { cli, ensureGemini, geminiSettings, root, runGemini, scratchProject } from './_client.js';
import { skipping } from '../_tools.js';

const WHAT = 'test/integrations/gemini-mcp-only (the real Gemini CLI)';
const client = ensureGemini();
const test = client.skip ? skipping(suite('gemini-cli: install --mcp-only'), WHAT, `${client.skip}; install: the suite installs it from the npm registry when it can reach it`) : suite('gemini-cli: install --mcp-only');

// The user's project settings: 4-space indent, no final newline.
const MINE = '{\n    "general": {\n        "vimMode": false\n    }\n}';
const RUN = 'mcp_sbx_run';

{
  let s; let proj; let file; const got = {};
  const sbx = (cliPath, ...args) => {
    const env = { ...process.env, HOME: s.home, SBX_RESIDENT: '0' };
    for (const k of ['GEMINI_CLI_TRUST_WORKSPACE', 'GEMINI_CLI_TRUSTED_FOLDERS_PATH', 'GEMINI_CLI_HOME', 'GEMINI_RESTRICTED_MODE']) delete env[k];
    return spawnSync(process.execPath, [cliPath, ...args], { encoding: 'utf8', env });
  };
  const session = async () => {
    const m = await startScriptedGemini([
      { tool: RUN, input: { command: 'gcc -Wall -c bad.c -o bad.o' } },
      { tool: 'run_shell_command', input: { command: 'echo ran > on-host.txt; hostname' } },
      { text: 'Done.' },
    ]);
    const run = await runGemini(client.bin, { cwd: proj, home: s.home, url: m.url });
    const first = m.mainRequests()[0]?.body;
    const offered = (first?.tools ?? []).flatMap((t) => (t.functionDeclarations ?? []).map((f) => f.name));
    const results = functionResponses(m.mainRequests().at(-1)?.body);
    await m.close();
    return { run, offered, results };
  };

  test.before(async () => {
    s = scratchProject('asan');
    proj = realpathSync(s.proj);
    file = join(proj, '.gemini', 'settings.json');
    geminiSettings(s.home); // the user's settings: API-key auth only
    writeFileSync(join(proj, 'bad.c'), '#include <stdio.h>\nint main(void) {\n  printf("%d\\n", undefined_name);\n  return 0;\n}\n');
    mkdirSync(join(proj, '.gemini'));
    writeFileSync(file, MINE);
    got.install = sbx(cli, 'hook', 'install', '--gemini', '--mcp-only', '--trust', '--dir', proj);
    got.doctor = sbx(cli, 'hook', 'doctor', '--gemini', '--dir', proj);
    got.live = await session();
    // Another copy of sbx installs over it, then goes: the server Gemini CLI is told to start is missing.
    const copy = join(s.base, 'sbx-moved');
    for (const d of ['dist', 'build']) cpSync(join(root, d), join(copy, d), { recursive: true });
    symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'));
    got.reinstall = sbx(join(copy, 'dist', 'cli.cjs'), 'hook', 'install', '--gemini', '--mcp-only', '--dir', proj);
    rmSync(join(copy, 'dist'), { recursive: true });
    got.doctorGone = sbx(cli, 'hook', 'doctor', '--gemini', '--dir', proj);
    got.gone = await session();
    got.uninstall = sbx(cli, 'hook', 'uninstall', '--gemini', '--dir', proj);
    got.after = readFileSync(file, 'utf8');
  });
  test.after(() => { if (s && !process.env.SBX_INTEG_KEEP) rmSync(s.base, { recursive: true, force: true }); });

  test('install: the MCP route, no hooks, the folder trusted; doctor: live', () => {
    assert.is(got.install.status, 0, got.install.stderr);
    assert.match(got.install.stdout, /Gemini CLI MCP route installed in \S+\/\.gemini\/settings\.json \(your file kept as /);
    assert.match(got.install.stdout, /recorded as a trusted folder/);
    assert.is(got.doctor.status, 0, got.doctor.stdout);
    assert.match(got.doctor.stdout, /^ok {6}Gemini CLI: MCP route live: /m);
  });

  test("Gemini's first model request offers sbx's run and not its shell tool", () => {
    assert.is(got.live.run.status, 0, got.live.run.stderr.slice(-800));
    assert.ok(got.live.offered.includes(RUN), got.live.offered.join(' '));
    assert.not.ok(got.live.offered.includes('run_shell_command'), got.live.offered.join(' '));
  });

  test("the failing gcc build through run: the model gets sbx's verdict", () => {
    const text = JSON.stringify(got.live.results[0]?.response ?? null);
    assert.is(got.live.results[0]?.name, RUN);
    assert.match(text, /sbx: build-failed · exit 1/);
    assert.match(text, /bad\.c:3:\d+: error: .undefined_name. undeclared/);
    assert.match(text, /\.sbx\/logs\/[^"\\]+\.log/);
  });

  test('a shell call the model makes anyway is refused: nothing runs on the host', () => {
    assert.is(got.live.results[1]?.name, 'run_shell_command');
    assert.match(JSON.stringify(got.live.results[1].response), /Tool \\"run_shell_command\\" not found/);
    assert.not.ok((() => { try { return readFileSync(join(proj, 'on-host.txt')); } catch { return null; } })());
  });

  test('sbx moved or removed: doctor says so; Gemini CLI starts without the server, offers neither tool, runs nothing on the host', () => {
    assert.is(got.reinstall.status, 0, got.reinstall.stderr);
    assert.is(got.doctorGone.status, 1, got.doctorGone.stdout);
    assert.match(got.doctorGone.stdout, /^missing Gemini CLI: MCP server "sbx" in \S+ runs \S+sbx-moved\/dist\/cli\.cjs, which is missing or not executable: Gemini CLI cannot start it/m);
    const { run, offered, results } = got.gone;
    assert.is(run.status, 0, run.stderr.slice(-800));
    assert.match(run.stderr, /MCP issues detected/, 'all Gemini CLI says, on stderr');
    assert.not.ok(offered.includes(RUN), offered.join(' '));
    assert.not.ok(offered.includes('run_shell_command'), offered.join(' '));
    assert.match(JSON.stringify(results[0]?.response), /Tool \\"mcp_sbx_run\\" not found/);
    assert.match(JSON.stringify(results[1]?.response), /Tool \\"run_shell_command\\" not found/);
    assert.not.ok((() => { try { return readFileSync(join(proj, 'on-host.txt')); } catch { return null; } })());
  });

  test("uninstall: the user's bytes again", () => {
    assert.is(got.uninstall.status, 0, got.uninstall.stderr);
    assert.match(got.uninstall.stdout, /byte for byte/);
    assert.is(got.after, MINE);
  });
}

test.run();
