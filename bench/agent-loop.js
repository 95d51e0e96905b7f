// What sbx adds to each tool call inside the agent loop, measured with the real clients (Claude Code,
// Codex CLI, Gemini CLI) against the scripted model servers: the gap between one model request and the
// next is the client's work on the tool call (hooks, the command, its output). Three set-ups, sessions
// interleaved round by round: raw (no hooks), hooks through Node (`node dist/cli.cjs hook …`, rewrites to
// `node dist/cli.cjs run`: SBX_RESIDENT=0), hooks through the native client (build/sbx-client and the
// resident sbx, already running), and no-op hooks (`cat >/dev/null`: what running any hook costs the
// client itself, which no hook can go below): one pre-hook (what sbx installs: one hook process per call)
// and a pre+post pair (what it installed before, and installs with --post). Each session makes CALLS tool calls of `cd c && gcc -O0 -o m m.c && ./m`
// and as many of `ls c` (a call the hooks leave alone) and of `/bin/true`; a gap is labelled by the call that
// preceded it.
// Every gcc call must have printed "hello from m" to the model, or the session is an error.
// mcp: no hooks; sbx's MCP server set up in the client as docs/integrations.md says, and the model
// calls its `run` tool (mcp__sbx__run in Claude Code; `run` in Codex's mcp__sbx namespace, found once
// through its tool search at the start; mcp_sbx_run in Gemini CLI, set up by `sbx hook install --gemini --mcp-only`,
// its shell tool excluded) with the same command lines. Every
// session also calls `/bin/true` (a shell call in raw: what an MCP `run` of it is measured against).
// Also: an MCP `run` of /bin/true against a running `sbx mcp` through the SDK client (no agent client).
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { startScriptedModel } from '../test/integrations/_scripted-model.js';
import { startScriptedResponses } from '../test/integrations/_scripted-responses.js';
import { startScriptedGemini } from '../test/integrations/_scripted-gemini.js';
import { bin, cli, ensureClaude, ensureCodex, ensureGemini, geminiSettings, root, runClaude, runCodex, runGemini, scratchProject } from '../test/integrations/_client.js';

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length % 2 ? s[(s.length - 1) >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };
const ms = (x) => (Number.isNaN(x) ? '—' : `${x.toFixed(1)} ms`); // —: a set-up not run
// No `cd`: Claude Code keeps the shell's directory from one call to the next, so after a first
// `cd c && …` every later `cd c` failed at once and the raw baseline compiled nothing (each call is
// checked below to have printed the program's line).
const GCC = 'gcc -O0 -o c/m c/m.c && ./c/m';
const LS = 'ls c';
// BENCH_LINES=gcc,ls,judge adds a third call the hooks leave alone, one Claude Code cannot take apart
// for its hooks' `if` rules (a `$?` in a compound line), which starts every handler whatever its `if`.
const LINES = { gcc: [GCC, `\`${GCC}\``], ls: [LS, `\`${LS}\` (left alone)`], true: ['/bin/true', '`/bin/true`'], judge: ['ls c; echo done $?', '`ls c; echo done $?` (left alone, not judged by `if`)'] };
const ALL_VARIANTS = ['raw', 'noop1', 'ident', 'noop', 'node', 'client', 'clientif', 'client2', 'mcp', 'mcpnoop1', 'mcphook'];
// ident: a no-op pre-hook that answers what sbx's answers, a rewrite, but to the same line (for the gcc
// line; nothing for the others): what the client itself does with a rewritten call (Gemini CLI rebuilds
// the call, checks its policy again and tells the model the input was modified), which no hook avoids.
// clientif: `client` installed with --filter (Claude Code's `if` rules on the pre-hook:
// src/integrations/hook/claude-if.ts). Only Claude Code has such rules: for the others it is `client`.
// mcphook: sbx's pre-hook as a call to its MCP server (`install --claude --mcp-hook`: Claude Code's
// mcp_tool hook); mcpnoop1: the same entry given an empty tool input, which the server answers `{}` at
// once (what one mcp_tool hook costs the client). Only Claude Code has mcp_tool hooks.
const HEADS = { raw: 'raw', noop1: 'no-op pre', ident: 'no-op rewrite', noop: 'no-op pair', node: 'node', client: 'client', clientif: 'client --filter', client2: 'client2', mcp: 'MCP run', mcpnoop1: 'no-op MCP pre', mcphook: 'MCP pre-hook' };
/** Set-ups only Claude Code has: for the others clientif repeats client, the MCP hook columns stay blank. */
const CLAUDE_ONLY = new Set(['clientif', 'mcpnoop1', 'mcphook']);
// A narrower run while working on one lever: BENCH_CLIENTS=claude,codex and BENCH_VARIANTS=raw,client
// (the table then shows only those; the others' columns are blank). Not SBX_ names: the resident sbx
// refuses a call whose SBX_ variables differ from its own, and the clients' hooks do not pass them.
const pick = (env, all) => (process.env[env] ? all.filter((x) => process.env[env].split(',').includes(x)) : all);
const VARIANTS = pick('BENCH_VARIANTS', ALL_VARIANTS);
const KINDS = pick('BENCH_LINES', ['gcc', 'ls', 'true', 'judge']).filter((k) => process.env.BENCH_LINES || k !== 'judge');
/** How each client is given sbx's MCP server (docs/integrations.md), and what it names the run tool. */
const mcpServer = () => ({ command: process.execPath, args: [cli, 'mcp'] });

function project() {
  const s = scratchProject();
  mkdirSync(join(s.proj, 'c'), { recursive: true });
  writeFileSync(join(s.proj, 'c', 'm.c'), '#include <stdio.h>\nint main(void) { puts("hello from m"); return 0; }\n');
  return s;
}

function install(client, s, variant, extraEnv) {
  // Gemini CLI's MCP route is what `sbx hook install --gemini --mcp-only` writes (its shell tool excluded).
  if (variant === 'raw' || (variant === 'mcp' && client !== 'gemini')) return;
  const args = { claude: ['--claude', '--dir', s.proj], codex: ['--codex', '--user'], gemini: ['--gemini', '--user', ...(variant === 'mcp' ? ['--mcp-only'] : [])] }[client];
  // noop: the pre- and post-hooks (--post), noop1: the pre-hook alone, each then made a no-op; client2:
  // sbx's pre- and post-hooks through the client (--post: the two-hook install of before).
  const r = spawnSync(process.execPath, [bin, 'hook', 'install', ...args, ...(variant === 'noop' || variant === 'client2' ? ['--post'] : []), ...(variant === 'clientif' ? ['--filter'] : []), ...(variant === 'mcphook' || variant === 'mcpnoop1' ? ['--mcp-hook'] : [])], { cwd: s.proj, encoding: 'utf8', env: { ...process.env, ...extraEnv, ...(variant === 'node' ? { SBX_RESIDENT: '0' } : {}) } });
  if (r.status !== 0) throw new Error(`hook install: ${r.stderr}`);
  if (variant === 'mcpnoop1') {
    const file = join(s.proj, '.claude', 'settings.json');
    const settings = JSON.parse(readFileSync(file, 'utf8'));
    for (const m of settings.hooks.PreToolUse) for (const h of m.hooks) h.input.tool_input = '{}';
    writeFileSync(file, JSON.stringify(settings, null, 2));
    return;
  }
  if (variant !== 'noop' && variant !== 'noop1' && variant !== 'ident') return;
  const file = /installed in (\S+)/.exec(r.stdout)?.[1];
  if (!file) throw new Error(`hook install said: ${r.stdout}`);
  const settings = JSON.parse(readFileSync(file, 'utf8'));
  for (const list of Object.values(settings.hooks)) {
    for (const m of list) {
      // The same hooks, each replaced by one that reads its payload and answers nothing.
      for (const h of m.hooks) h.command = variant === 'ident' ? sameLine(client) : 'cat >/dev/null';
    }
  }
  writeFileSync(file, JSON.stringify(settings, null, 2));
}

/** A hook that answers the gcc line's call with a rewrite to the same line, in the client's shape, and nothing for the others. */
function sameLine(client) {
  const answer = {
    claude: { hookEventName: 'PreToolUse', permissionDecision: 'allow', permissionDecisionReason: 'bench', updatedInput: { command: GCC, description: 'step' } },
    codex: { hookEventName: 'PreToolUse', permissionDecision: 'allow', permissionDecisionReason: 'bench', updatedInput: { command: GCC } },
    gemini: { hookEventName: 'BeforeTool', tool_input: { command: GCC } },
  }[client];
  return `if grep -q 'gcc -O0'; then printf '%s\\n' '${JSON.stringify({ hookSpecificOutput: answer })}'; fi`;
}

/** Gaps (ms) after each call of each kind (gcc, ls, true, …) of one session. */
async function session(client, clientBin, variant, calls) {
  const s = project();
  const kinds = [];
  for (let i = 0; i < calls; i++) kinds.push(...KINDS);
  const env = variant === 'node' ? { SBX_RESIDENT: '0' } : {};
  const mcp = variant === 'mcp';
  // steps[k]: the model's k-th answer, the call whose gap is the one to request k+1; null kind: a step
  // that is no measured call (Codex's tool search for the MCP tools, once at the start).
  let steps; let m; let r;
  if (client === 'claude') {
    install(client, s, variant, {});
    steps = kinds.map((k) => [k, mcp ? { tool: 'mcp__sbx__run', input: { command: LINES[k][0] } } : { tool: 'Bash', input: { command: LINES[k][0], description: 'step' } }]);
    m = await startScriptedModel([...steps.map((x) => x[1]), { text: 'Done.' }]);
    // Every set-up with Bash allowed (raw needs it, or gcc is refused in -p mode): the same flags, so the
    // hooks are the only difference. Without it Claude Code runs its own permission check on each call
    // a hook leaves alone (`ls c`), with or without sbx; that was counted as sbx's before. mcp: the
    // server as `claude mcp add` would add it (here --mcp-config, which leaves ~/.claude.json alone),
    // and its run tool allowed as well (-p refuses an added MCP tool until allowed).
    let args = ['--allowedTools', 'Bash'];
    if (mcp) {
      const config = join(s.base, 'mcp.json');
      writeFileSync(config, JSON.stringify({ mcpServers: { sbx: { type: 'stdio', ...mcpServer() } } }));
      args = ['--mcp-config', config, '--strict-mcp-config', '--allowedTools', 'Bash,mcp__sbx__run'];
    }
    r = await runClaude(clientBin, { cwd: s.proj, home: s.home, url: m.url, env, args });
  } else if (client === 'codex') {
    const codexHome = join(s.home, '.codex');
    mkdirSync(codexHome, { recursive: true });
    install(client, s, variant, { CODEX_HOME: codexHome });
    steps = kinds.map((k) => [k, mcp ? { tool: 'run', namespace: 'mcp__sbx', input: { command: LINES[k][0] } } : { tool: 'exec_command', input: { cmd: LINES[k][0] } }]);
    // Codex 0.171 defers MCP tools behind its client-side tool search: found once, then called.
    if (mcp) steps.unshift([null, { search: 'run a build or test command in the sbx sandbox' }]);
    m = await startScriptedResponses([...steps.map((x) => x[1]), { text: 'Done.' }]);
    const toml = mcp ? `[mcp_servers.sbx]\ncommand = ${JSON.stringify(mcpServer().command)}\nargs = ${JSON.stringify(mcpServer().args)}\nrequired = true\n` : '';
    r = await runCodex(clientBin, { cwd: s.proj, codexHome, url: m.url, env, toml });
  } else {
    geminiSettings(s.home);
    install(client, s, variant, { HOME: s.home });
    steps = kinds.map((k) => [k, mcp ? { tool: 'mcp_sbx_run', input: { command: LINES[k][0] } } : { tool: 'run_shell_command', input: { command: LINES[k][0] } }]);
    m = await startScriptedGemini([...steps.map((x) => x[1]), { text: 'Done.' }]);
    r = await runGemini(clientBin, { cwd: s.proj, home: s.home, url: m.url, env });
  }
  const main = m.mainRequests();
  await m.close();
  // The program's line, in the shell's output or in the MCP run's verdict (a short output shown as itself).
  const ran = JSON.stringify(main.at(-1)?.body ?? '').split('hello from m').length - 1;
  rmSync(s.base, { recursive: true, force: true });
  if (r.status !== 0) throw new Error(`${client} (${variant}) exited ${r.status}: ${r.stderr.slice(-300)}`);
  if (ran < calls) throw new Error(`${client} (${variant}): ${ran} of ${calls} gcc calls printed the program's line`);
  if (main.length < steps.length + 1) throw new Error(`${client} (${variant}): ${main.length} model requests for ${steps.length} tool calls`);
  const gaps = Object.fromEntries(KINDS.map((k) => [k, []]));
  // Request k+1 follows the tool call answered to request k. The first gap of each kind is left out
  // (first use: the client's own warm-up, sbx's first run in a fresh project).
  const seen = new Set();
  for (let k = 0; k < steps.length; k++) {
    const kind = steps[k][0];
    if (kind === null || !seen.has(kind)) { seen.add(kind); continue; }
    gaps[kind].push(main[k + 1].at - main[k].at);
  }
  return gaps;
}

/** Starts the resident sbx of this install (the client starts it on its first call; this waits for it). */
async function warmResident() {
  const w = project();
  spawnSync(join(root, 'build', 'sbx-client'), ['run', '--', 'true'], { cwd: w.proj, stdio: 'ignore' });
  for (let i = 0; i < 100; i++) {
    const r = spawnSync(join(root, 'build', 'sbx-client'), ['run', '--', 'true'], { cwd: w.proj, stdio: 'ignore', env: { ...process.env, SBX_RESIDENT: 'require' } });
    if (r.status === 0) break;
    await new Promise((ok) => setTimeout(ok, 100));
  }
  rmSync(w.base, { recursive: true, force: true });
}

async function mcpTrue(runs) {
  const s = project();
  const mcp = new Client({ name: 'bench', version: '1' });
  await mcp.connect(new StdioClientTransport({ command: process.execPath, args: [cli, 'mcp'], cwd: s.proj, stderr: 'ignore' }));
  const t = [];
  for (let i = 0; i < runs + 3; i++) {
    const a = process.hrtime.bigint();
    await mcp.callTool({ name: 'run', arguments: { command: '/bin/true' } });
    if (i >= 3) t.push(Number(process.hrtime.bigint() - a) / 1e6);
  }
  await mcp.close();
  rmSync(s.base, { recursive: true, force: true });
  return t;
}

export async function agentLoop({ rounds = 3, calls = 6, runs = 20 } = {}) {
  const ids = pick('BENCH_CLIENTS', ['claude', 'codex', 'gemini']);
  const clients = [['claude', 'Claude Code', ensureClaude], ['codex', 'Codex CLI', ensureCodex], ['gemini', 'Gemini CLI', ensureGemini]].filter(([id]) => ids.includes(id)).map(([id, name, ensure]) => [id, name, ensure()]);
  await warmResident();
  console.log(`## inside the agent loop: the gap between model requests, per tool call (${rounds} rounds of interleaved sessions, ${calls} calls of each command per session, the first gap of each kind left out; medians)\n`);
  console.log('raw: no hooks; no-op pre: one pre-hook `cat >/dev/null` (what one hook costs the client: sbx installs one), no-op pair: a pre- and a post-hook so; node: sbx\'s hook and rewrites through `node dist/cli.cjs` (SBX_RESIDENT=0); client: through build/sbx-client and the resident sbx (one pre-hook); client --filter: client installed with --filter (Claude Code\'s `if` rules on the pre-hook; Codex and Gemini CLI have no such rules, so their column repeats client); client2: the same with the post-hooks too (--post: the install before one hook per call); MCP run: no hooks, every call made through sbx\'s MCP `run` tool instead (the raw column: the same line as a shell call); MCP pre-hook: sbx\'s pre-hook as a call to its MCP server (install --claude --mcp-hook, Claude Code only), no-op MCP pre: the same entry answered `{}` at once. Added: minus raw; sbx\'s share: client minus no-op pre (minus no-op rewrite for the gcc line, when run: what the client does with any rewrite left out)\n');
  const cols = VARIANTS.filter((v) => v !== 'raw');
  console.log(`| client | call | raw | ${cols.map((v) => HEADS[v]).join(' | ')} | ${cols.map((v) => `added, ${HEADS[v]}`).join(' | ')} | sbx's share (client − no-op pre; the gcc line: − no-op rewrite, when run) |`);
  console.log(`| --- | --- | ---: | ${cols.map(() => '---:').join(' | ')} | ${cols.map(() => '---:').join(' | ')} | ---: |`);
  const mcpLines = [];
  for (const [id, name, c] of clients) {
    if (c.skip) { console.log(`| ${name} | skipped: ${c.skip} |`); continue; }
    const gaps = Object.fromEntries(ALL_VARIANTS.map((v) => [v, Object.fromEntries(KINDS.map((k) => [k, []]))]));
    for (let r = 0; r < rounds; r++) {
      for (const v of VARIANTS) {
        if (CLAUDE_ONLY.has(v) && id !== 'claude') continue;
        const g = await session(id, c.bin, v, calls);
        for (const k of KINDS) gaps[v][k].push(...g[k]);
      }
    }
    for (const [call, label] of KINDS.map((k) => [k, LINES[k][1]])) {
      const med = (v) => (v === 'clientif' && id !== 'claude' ? median(gaps.client[call]) : median(gaps[v][call]));
      const raw = med('raw');
      const cell = (v, x) => (CLAUDE_ONLY.has(v) && v !== 'clientif' && id !== 'claude' ? '' : ms(x));
      console.log(`| ${name} | ${label} | ${ms(raw)} | ${cols.map((v) => cell(v, med(v))).join(' | ')} | ${cols.map((v) => cell(v, med(v) - raw)).join(' | ')} | ${ms(med('client') - med(call === 'gcc' && VARIANTS.includes('ident') ? 'ident' : 'noop1'))} |`);
    }
    if (VARIANTS.includes('mcp') && KINDS.includes('true')) {
      const [mcp, raw] = [median(gaps.mcp.true), median(gaps.raw.true)];
      mcpLines.push(`MCP \`run\` of /bin/true in ${name}: gap ${ms(mcp)}, raw shell call ${ms(raw)}, added ${ms(mcp - raw)}`);
    }
  }
  if (mcpLines.length) console.log(`\n${mcpLines.join('\n')}`);
  const t = await mcpTrue(runs);
  console.log(`\nMCP \`run\` of /bin/true (\`sbx mcp\` up, SDK client, ${runs} calls): median ${ms(median(t))}, min ${ms(Math.min(...t))}\n`);
}

/** A Claude Code PreToolUse payload for a Bash call. */
const payload = (command, cwd) => JSON.stringify({ session_id: 'bench', transcript_path: join(cwd, 't.jsonl'), cwd, permission_mode: 'default', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command, description: 'step' } });

/** One hook call and one `sbx run -- true`, spawn to exit (interleaved), through Node and through the client. */
export async function hookCalls(runs) {
  const timed = (argv, input, cwd, env) => new Promise((ok) => {
    const t = process.hrtime.bigint();
    const p = spawn(argv[0], argv.slice(1), { cwd, env: { ...process.env, ...env }, stdio: ['pipe', 'ignore', 'ignore'] });
    p.on('close', () => ok(Number(process.hrtime.bigint() - t) / 1e6));
    p.stdin.on('error', () => {});
    p.stdin.end(input);
  });
  const s = project();
  const client = join(root, 'build', 'sbx-client');
  const variants = {
    'claude-pre, rewritten (gcc), node': [[process.execPath, bin, 'hook', 'claude-pre'], payload(GCC, s.proj), { SBX_RESIDENT: '0' }],
    'claude-pre, rewritten (gcc), client': [[client, 'hook', 'claude-pre'], payload(GCC, s.proj), {}],
    'claude-pre, pass-through (ls), node': [[process.execPath, bin, 'hook', 'claude-pre'], payload(LS, s.proj), { SBX_RESIDENT: '0' }],
    'claude-pre, pass-through (ls), client': [[client, 'hook', 'claude-pre'], payload(LS, s.proj), {}],
    'sbx run -- true, node': [[process.execPath, bin, 'run', '--', 'true'], '', {}],
    'sbx run -- true, client': [[client, 'run', '--', 'true'], '', {}],
    'baseline: sh -c "cat >/dev/null"': [['sh', '-c', 'cat >/dev/null'], payload(LS, s.proj), {}],
  };
  const times = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
  for (let i = 0; i < runs + 2; i++) {
    for (const [k, [argv, input, env]] of Object.entries(variants)) {
      const t = await timed(argv, input, s.proj, env);
      if (i >= 2) times[k].push(t);
    }
  }
  rmSync(s.base, { recursive: true, force: true });
  return times;
}
