#!/usr/bin/env node
// What sbx changes inside a real agent, measured on the real Claude Code (pinned, as in
// test/integrations) against the scripted model:
//   1. bytes the model received per tool call on the same scripted session, raw (no hooks) vs through
//      sbx's hooks (ASan crash via make, a failing pytest run, a pass-through ls), in Claude Code, then in
//      Codex CLI and Gemini CLI (their tool output as the model got it: Codex's function_call_output,
//      Gemini's functionResponse.response as JSON);
//   2. median wall time of one hook call (node dist/cli.cjs hook ..., as installed hooks run it) over N runs: what each Bash call pays;
//   3. median of an MCP `run` call (long-lived `sbx mcp`, SDK client) vs a plain `sbx run` process, same
//      command, interleaved;
//   4. sbx's mini-SWE-agent environment on the same calls: bytes of the `output` SbxEnvironment.execute()
//      returns (transport mcp and cli) vs what the command prints when run plainly (bench/msa_bench.py's
//      baseline, written after LocalEnvironment: mini-SWE-agent itself is on PyPI only), and execute()'s
//      median through each transport vs that plain run.
//
//   5. inside the agent loop (bench/agent-loop.js): the gap between model requests per tool call in the
//      three clients, raw vs hooks through Node vs hooks through build/sbx-client and the resident sbx,
//      and one hook call / `sbx run -- true` spawn to exit through each.
//      BENCH_VARIANTS=raw,mcp: the same calls through sbx's MCP `run` tool in each client instead.
//
//   npm run bench:integrations [-- --runs 20] [-- --rounds 3] [-- --only mini-swe-agent|agent-loop]
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { startScriptedModel, toolResults } from '../test/integrations/_scripted-model.js';
import { startScriptedResponses, toolOutputs } from '../test/integrations/_scripted-responses.js';
import { functionResponses, startScriptedGemini } from '../test/integrations/_scripted-gemini.js';
import { bin, cli, ensureClaude, ensureCodex, ensureGemini, geminiSettings, root, runClaude, runCodex, runGemini, scratchProject } from '../test/integrations/_client.js';
import { mkdirSync } from 'node:fs';
import { agentLoop, hookCalls } from './agent-loop.js';

const arg = (name, def) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? Number(process.argv[i + 1]) : def; };
const RUNS = Math.max(5, arg('runs', 20));
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length % 2 ? s[(s.length - 1) >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };
const ms = (x) => `${x.toFixed(1)} ms`;

function timed(argv, input, cwd, env = {}) {
  return new Promise((ok, fail) => {
    const t = process.hrtime.bigint();
    const p = spawn(argv[0], argv.slice(1), { cwd, env: { ...process.env, ...env }, stdio: ['pipe', 'ignore', 'ignore'] });
    p.on('error', fail);
    p.on('close', () => ok(Number(process.hrtime.bigint() - t) / 1e6));
    p.stdin.end(input);
  });
}

const SCRIPT = [
  { tool: 'Bash', input: { command: 'cd asan && make -s run', description: 'Build and run the C program' } },
  { tool: 'Bash', input: { command: 'cd pytest && python3 -m pytest -q', description: 'Run the Python tests' } },
  { tool: 'Bash', input: { command: 'ls asan pytest', description: 'List the projects' } },
  { text: 'Done.' },
];

async function session(bin, withHooks) {
  const s = scratchProject('asan', 'pytest');
  if (withHooks) await timed([process.execPath, cli, 'hook', 'install', '--claude', '--dir', s.proj], '', s.proj);
  const m = await startScriptedModel(SCRIPT);
  const t = Date.now();
  // Raw: the client's own permission rules would stop make and pytest, so allow Bash (sbx's pre-hook
  // allows the commands it sandboxes on its own).
  const r = await runClaude(bin, { cwd: s.proj, home: s.home, url: m.url, args: withHooks ? [] : ['--allowedTools', 'Bash'] });
  const wall = Date.now() - t;
  const last = m.mainRequests().at(-1)?.body;
  if (process.env.SBX_INTEG_DUMP) writeFileSync(join(process.env.SBX_INTEG_DUMP, `bench-${withHooks ? 'sbx' : 'raw'}.json`), JSON.stringify(last, null, 1));
  await m.close();
  rmSync(s.base, { recursive: true, force: true });
  if (r.status !== 0) throw new Error(`claude exited ${r.status}: ${r.stderr.slice(0, 300)}`);
  return { wall, results: toolResults(last).map((x) => Buffer.byteLength(x.content)), request: Buffer.byteLength(JSON.stringify(last)) };
}

// ── sbx's mini-SWE-agent environment (run last; alone with --only mini-swe-agent) ──
async function miniSweAgent() {
  const py = spawnSync('python3', ['--version'], { encoding: 'utf8' });
  if (py.status !== 0) { console.log(`mini-SWE-agent environment: skipped (${py.error ? `python3 not found on PATH: ${py.error.message}` : `python3 --version exited ${py.status}`})\n`); return; }
  const dirs = [scratchProject('asan', 'pytest'), scratchProject('asan', 'pytest'), scratchProject('asan', 'pytest')];
  const calls = SCRIPT.filter((x) => x.tool).map((x) => x.input.command);
  const actions = ['true', ...calls];
  const input = {
    module_dir: join(root, 'src', 'integrations', 'mini-swe-agent'), sbx_command: [process.execPath, cli],
    raw_dir: dirs[0].proj, sbx_dir: dirs[1].proj, cli_dir: dirs[2].proj, calls, timed: actions, runs: RUNS,
  };
  const r = spawnSync('python3', [join(root, 'bench', 'msa_bench.py')], { input: JSON.stringify(input), encoding: 'utf8', maxBuffer: 64 << 20 });
  for (const d of dirs) rmSync(d.base, { recursive: true, force: true });
  if (r.status !== 0) throw new Error(`bench/msa_bench.py exited ${r.status}: ${r.stderr.slice(-500)}`);
  const out = JSON.parse(r.stdout);
  console.log(`## mini-SWE-agent environment (${py.stdout.trim()}): bytes of execute()'s output per action\n`);
  console.log('(raw: the command run plainly, as LocalEnvironment does: `subprocess.run(shell=True, stdout=PIPE, stderr=STDOUT)`, a baseline in bench/msa_bench.py; mcp: one resident `sbx mcp` server, cli: `sbx run` per action)\n');
  console.log('| action | raw | execute(), mcp | execute(), cli | ratio (mcp) |\n| --- | ---: | ---: | ---: | ---: |');
  for (const x of out.bytes) {
    if (x.raw_code !== x.mcp_code || x.mcp_code !== x.cli_code) console.log(`(\`${x.command}\`: exit ${x.raw_code} plainly, returncode ${x.mcp_code} from execute() via mcp, ${x.cli_code} via cli)`);
    console.log(`| \`${x.command}\` | ${x.raw} | ${x.mcp} | ${x.cli} | ${(x.mcp / x.raw).toFixed(3)} |`);
  }
  if (process.env.PYTHONDONTWRITEBYTECODE) console.log('\n(PYTHONDONTWRITEBYTECODE is set here and sbx does not pass it into the sandbox: pytest writes `__pycache__` only there, and `ls` lists it)');
  console.log(`\nPATH of the plain run: the sandbox's (${out.path}), so that both run the same programs; the rest of its environment is the host's`);
  console.log(`\n## mini-SWE-agent execute() vs a plain subprocess run (same Python process, median of ${RUNS}, interleaved)\n`);
  console.log('| action | plain run | execute(), mcp | added | ratio | execute(), cli | added | ratio | cli / mcp |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const [cmd, t] of Object.entries(out.ms)) {
    const p = median(t.plain); const m = median(t.mcp); const c = median(t.cli);
    console.log(`| \`${cmd}\` | ${ms(p)} | ${ms(m)} | ${ms(m - p)} | ${(m / p).toFixed(2)} | ${ms(c)} | ${ms(c - p)} | ${(c / p).toFixed(2)} | ${(c / m).toFixed(2)} |`);
  }
  console.log('');
}

async function residentSection() {
  await agentLoop({ runs: RUNS, rounds: Math.max(1, arg('rounds', 3)) });
  const t = await hookCalls(RUNS);
  console.log(`## one call, spawn to exit, through Node and through build/sbx-client (the resident sbx up; ${RUNS} interleaved runs)\n`);
  console.log('| call | median | min |\n| --- | ---: | ---: |');
  for (const [k, xs] of Object.entries(t)) console.log(`| ${k} | ${ms(median(xs))} | ${ms(Math.min(...xs))} |`);
  console.log('');
}

if (process.argv.includes('--only')) {
  const only = process.argv[process.argv.indexOf('--only') + 1];
  if (only !== 'mini-swe-agent' && only !== 'agent-loop') { console.log(`bench: --only takes mini-swe-agent or agent-loop, not ${only}`); process.exit(2); }
  await (only === 'agent-loop' ? residentSection() : miniSweAgent());
  process.exit(0);
}

const client = ensureClaude();
if (client.skip) { console.log(`bench: ${client.skip}`); process.exit(1); }

console.log(`# sbx inside Claude Code (${client.bin.includes('claude-code-') ? /claude-code-([\d.]+)/.exec(client.bin)[1] : 'SBX_CLAUDE_BIN'}), scripted model, ${RUNS} runs per latency figure\n`);
const raw = await session(client.bin, false);
const sbx = await session(client.bin, true);
console.log('## bytes the model received per tool call (tool_result content)\n');
console.log('| tool call | raw | through sbx | ratio |\n| --- | ---: | ---: | ---: |');
SCRIPT.filter((x) => x.tool).forEach((x, i) => {
  console.log(`| \`${x.input.command}\` | ${raw.results[i]} | ${sbx.results[i]} | ${(sbx.results[i] / raw.results[i]).toFixed(3)} |`);
});
console.log(`| whole last request (JSON) | ${raw.request} | ${sbx.request} | ${(sbx.request / raw.request).toFixed(3)} |`);
console.log(`\nsession wall time (one run each, noisy): raw ${raw.wall} ms, through sbx ${sbx.wall} ms\n`);

// ── the same calls through Codex CLI and Gemini CLI ──
const CALLS = SCRIPT.filter((x) => x.tool).map((x) => x.input.command);

async function codexSession(bin, withHooks) {
  const s = scratchProject('asan', 'pytest');
  const codexHome = join(s.home, '.codex');
  mkdirSync(codexHome, { recursive: true });
  if (withHooks) await timed([process.execPath, cli, 'hook', 'install', '--codex', '--user'], '', s.proj, { CODEX_HOME: codexHome });
  const m = await startScriptedResponses([...CALLS.map((cmd) => ({ tool: 'exec_command', input: { cmd } })), { text: 'Done.' }]);
  const r = await runCodex(bin, { cwd: s.proj, codexHome, url: m.url });
  const out = toolOutputs(m.mainRequests().at(-1)?.body).map((x) => Buffer.byteLength(x.content));
  await m.close();
  rmSync(s.base, { recursive: true, force: true });
  if (r.status !== 0) throw new Error(`codex exited ${r.status}: ${r.stderr.slice(-300)}`);
  return out;
}

async function geminiSession(bin, withHooks) {
  const s = scratchProject('asan', 'pytest');
  geminiSettings(s.home);
  if (withHooks) await timed([process.execPath, cli, 'hook', 'install', '--gemini', '--user'], '', s.proj, { HOME: s.home });
  const m = await startScriptedGemini([...CALLS.map((command) => ({ tool: 'run_shell_command', input: { command } })), { text: 'Done.' }]);
  const r = await runGemini(bin, { cwd: s.proj, home: s.home, url: m.url });
  const out = functionResponses(m.mainRequests().at(-1)?.body).map((x) => Buffer.byteLength(JSON.stringify(x.response)));
  await m.close();
  rmSync(s.base, { recursive: true, force: true });
  if (r.status !== 0) throw new Error(`gemini exited ${r.status}: ${r.stderr.slice(-300)}`);
  return out;
}

for (const [name, ensure, session] of [['Codex CLI', ensureCodex, codexSession], ['Gemini CLI', ensureGemini, geminiSession]]) {
  const c = ensure();
  if (c.skip) { console.log(`${name}: skipped (${c.skip})\n`); continue; }
  const a = await session(c.bin, false);
  const b = await session(c.bin, true);
  console.log(`## ${name}: bytes the model received per tool call\n\n| tool call | raw | through sbx | ratio |\n| --- | ---: | ---: | ---: |`);
  CALLS.forEach((cmd, i) => console.log(`| \`${cmd}\` | ${a[i]} | ${b[i]} | ${(b[i] / a[i]).toFixed(3)} |`));
  console.log('');
}

// ── one hook call ──
const payloads = join(root, 'test', 'integrations', 'payloads', 'claude-code-2.1.332');
const s = scratchProject('asan');
const fill = (f) => readFileSync(join(payloads, f), 'utf8').replaceAll('{{PROJECT}}', s.proj).replaceAll('{{HOME}}', s.home).replaceAll('{{NODE}}', process.execPath).replaceAll('{{CLI}}', bin);
// As installed hooks run it: `sbx hook install` names dist/cli.cjs.
const variants = {
  'claude-pre, rewritten (make)': [[process.execPath, bin, 'hook', 'claude-pre'], fill('pre-build.json')],
  'claude-pre, pass-through (ls)': [[process.execPath, bin, 'hook', 'claude-pre'], fill('pre-ls.json')],
  'claude-post, already a verdict': [[process.execPath, bin, 'hook', 'claude-post'], fill('post-build.json')],
  'baseline: node -e 0': [[process.execPath, '-e', '0'], ''],
  'baseline: sh -c "cat >/dev/null"': [['sh', '-c', 'cat >/dev/null'], fill('pre-build.json')],
};
const times = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
for (let i = 0; i < RUNS + 2; i++) {
  for (const [k, [argv, input]] of Object.entries(variants)) {
    const t = await timed(argv, input, s.proj);
    if (i >= 2) times[k].push(t); // two warm-up rounds
  }
}
console.log('## one hook call (spawn to exit, interleaved)\n');
console.log('| variant | median | min |\n| --- | ---: | ---: |');
for (const [k, xs] of Object.entries(times)) console.log(`| ${k} | ${ms(median(xs))} | ${ms(Math.min(...xs))} |`);

// ── MCP run vs sbx run ──
const mcp = new Client({ name: 'bench', version: '1' });
await mcp.connect(new StdioClientTransport({ command: process.execPath, args: [cli, 'mcp'], cwd: s.proj, stderr: 'ignore' }));
const plain = []; const viaMcp = [];
for (let i = 0; i < RUNS + 2; i++) {
  const a = await timed([process.execPath, cli, 'run', '--work', s.proj, '--', 'bash', '-c', 'true'], '', s.proj);
  const t = process.hrtime.bigint();
  await mcp.callTool({ name: 'run', arguments: { command: 'true' } });
  const b = Number(process.hrtime.bigint() - t) / 1e6;
  if (i >= 2) { plain.push(a); viaMcp.push(b); }
}
await mcp.close();
rmSync(s.base, { recursive: true, force: true });
console.log('\n## MCP `run` vs a plain `sbx run` process (command: true)\n');
console.log(`| variant | median | min |\n| --- | ---: | ---: |\n| sbx run (new process) | ${ms(median(plain))} | ${ms(Math.min(...plain))} |\n| MCP run (server already up) | ${ms(median(viaMcp))} | ${ms(Math.min(...viaMcp))} |`);
console.log(`\nMCP run minus sbx run, medians: ${ms(median(viaMcp) - median(plain))}`);
console.log('');

await residentSection();

await miniSweAgent();
