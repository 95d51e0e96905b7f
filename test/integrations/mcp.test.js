// `sbx mcp` through the official SDK's client over stdio, without an agent: the tool list, each tool's
// result shape, and the errors a model can cause. The real-client run is in claude-mcp.test.js.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { cli, root } from './_client.js';

const test = suite('sbx mcp');
const tmp = mkdtempSync(join(tmpdir(), 'sbx-mcp-'));
cpSync(join(root, 'test', 'integrations', 'projects', 'asan'), join(tmp, 'asan'), { recursive: true });
const client = new Client({ name: 'sbx-test', version: '1' });

test.before(async () => {
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [cli, 'mcp'], cwd: tmp, stderr: 'pipe' }));
});
test.after(async () => { await client.close(); rmSync(tmp, { recursive: true, force: true }); });

const text = (r) => r.content.map((c) => c.text).join('\n');

test('four tools, each with input and output schemas and alwaysLoad', async () => {
  const { tools } = await client.listTools();
  assert.equal(tools.map((t) => t.name), ['run', 'verdict', 'history', 'show']);
  for (const t of tools) {
    assert.is(t.inputSchema.type, 'object', t.name);
    assert.is(t.outputSchema.type, 'object', t.name);
    assert.equal(t._meta, { 'anthropic/alwaysLoad': true });
  }
  const run = tools[0];
  assert.equal(run.inputSchema.required, ['command']);
  assert.is(run.inputSchema.additionalProperties, false);
});

let crashLog;
test('run: a crash is a normal result, the verdict in structuredContent and in the text', async () => {
  const r = await client.callTool({ name: 'run', arguments: { command: 'make -s run', work: 'asan', timeout: 120 } });
  assert.not.ok(r.isError);
  const sc = r.structuredContent;
  assert.is(sc.status, 'crash');
  assert.is(sc.exit_code, 2);
  assert.is(sc.crash, 'asan heap-use-after-free at lookup main.c:24');
  assert.is(sc.delta, 'first run');
  assert.is(text(r), sc.verdict);
  assert.match(sc.verdict, /\nlog: \S+\.log\n$/);
  crashLog = sc.log;
  assert.ok(crashLog.startsWith(join(tmp, 'asan', '.sbx', 'logs')), crashLog);
  const again = await client.callTool({ name: 'run', arguments: { command: 'make -s run', work: 'asan' } });
  assert.match(again.structuredContent.delta, /^no change/);
});

test('show: crash frames, a raw slice, and only sbx logs', async () => {
  const crash = JSON.parse((await client.callTool({ name: 'show', arguments: { log: crashLog, what: 'crash' } })).structuredContent.text);
  assert.is(crash.first_user_frame.function, 'lookup');
  assert.is(crash.free_frames.find((f) => f.user).function, 'drop_record');
  const raw = await client.callTool({ name: 'show', arguments: { log: crashLog, what: 'raw', from: 330, to: 331 } });
  assert.match(text(raw), /^lines 330-331 of \d+\n {3}330 {2}progress: step 0330 of 0330[^\n]*\n {3}331 {2}=+$/);
  const other = await client.callTool({ name: 'show', arguments: { log: join(tmp, 'asan', 'main.c'), what: 'raw' } });
  assert.ok(other.isError);
  assert.match(text(other), /is not an sbx log/);
});

test('verdict: from a log file or from text; history lists the runs', async () => {
  const f = join(tmp, 'build.log');
  writeFileSync(f, "main.c:3:5: error: 'x' undeclared (first use in this function)\n");
  const a = await client.callTool({ name: 'verdict', arguments: { log: f, exit: 1 } });
  assert.is(a.structuredContent.status, 'build-failed');
  assert.is(a.structuredContent.errors, 1);
  const b = await client.callTool({ name: 'verdict', arguments: { text: 'FAILED test_x.py::test_a - assert 1 == 2\n', exit: 1 } });
  assert.not.ok(b.isError);
  const h = await client.callTool({ name: 'history', arguments: { work: 'asan' } });
  assert.is(h.structuredContent.runs.length, 2);
  assert.match(h.structuredContent.streaks[0], /^same crash \(asan\/heap-use-after-free\/READ\/lookup@main\.c\) 2 runs in a row/);
});

test('run: the agent\'s config in the project is read-only in the sandbox', async () => {
  mkdirSync(join(tmp, 'asan', '.claude'), { recursive: true });
  writeFileSync(join(tmp, 'asan', '.claude', 'settings.json'), '{}');
  const r = await client.callTool({ name: 'run', arguments: { command: 'echo x > .claude/settings.json || echo refused; echo y > made', work: 'asan' } });
  assert.match(r.structuredContent.verdict, /^(?: {2}\| )?refused$/m, 'in the verdict\'s tail, or as itself when the raw output is the shorter (brief.ts)');
  assert.is(readFileSync(join(tmp, 'asan', '.claude', 'settings.json'), 'utf8'), '{}');
  assert.is(readFileSync(join(tmp, 'asan', 'made'), 'utf8'), 'y\n');
});

test('sbx mcp --as-sbx-run: run is sbx run\'s (the agent\'s config and .git read-only as in every run: issue 28; sbx run\'s notes under the verdict)', async () => {
  const plain = new Client({ name: 'sbx-test', version: '1' });
  await plain.connect(new StdioClientTransport({ command: process.execPath, args: [cli, 'mcp', '--as-sbx-run'], cwd: tmp, stderr: 'pipe' }));
  try {
    mkdirSync(join(tmp, 'asan', '.git'), { recursive: true });
    writeFileSync(join(tmp, 'asan', '.git', 'config'), '');
    const command = 'echo x > .claude/settings.json || echo claude-refused; echo z > .git/index || echo index-refused; echo w > .git/config || echo config-refused; echo -fsanitize=address';
    const r = await plain.callTool({ name: 'run', arguments: { command, work: 'asan' } });
    // In this order; bash's error for .git/config (stderr) may come between, where the relay caught it.
    assert.match(r.structuredContent.verdict, /^(?: {2}\| )?claude-refused\n(?:.*\n)*?(?: {2}\| )?index-refused\n(?:.*\n)*?(?: {2}\| )?config-refused\n/m);
    assert.is(readFileSync(join(tmp, 'asan', '.git', 'config'), 'utf8'), '');
    const cliOut = spawnSync(process.execPath, [cli, 'run', '--work', join(tmp, 'asan'), '--', 'bash', '-c', command], { encoding: 'utf8' }).stdout;
    const footer = (t) => t.slice(t.indexOf('\nlog: ')).replace(/\S+\.log/, 'LOG');
    assert.match(r.structuredContent.verdict, /\nnote: LeakSanitizer was off/);
    assert.is(footer(r.structuredContent.verdict), footer(cliOut), 'the footer is sbx run\'s');
    assert.is(text(r), r.structuredContent.verdict);
  } finally {
    rmSync(join(tmp, 'asan', '.git'), { recursive: true, force: true });
    await plain.close();
  }
});

test('bad calls are tool errors that say what to do', async () => {
  const cases = [
    ['run', {}, /bad arguments for run: command: Invalid (key|type)/],
    ['run', { command: 'true', shell: 'zsh' }, /bad arguments for run: shell: Invalid key/],
    ['run', { command: 'true', work: 'no-such-dir' }, /does not exist or is not a directory/],
    ['verdict', {}, /give either log .* or text/],
    ['verdict', { log: join(tmp, 'nope.log') }, /cannot read .*nope\.log: no such file/],
    ['nope', {}, /unknown tool "nope"/],
  ];
  for (const [name, args, re] of cases) {
    const r = await client.callTool({ name, arguments: args });
    assert.ok(r.isError, `${name} ${JSON.stringify(args)}`);
    assert.match(text(r), re);
  }
});

test.run();
