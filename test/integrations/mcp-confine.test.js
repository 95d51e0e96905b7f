// What a model (or a prompt injection in the repository it reads) can make `sbx mcp` do with its arguments:
// every path stays in the dir the server was started in, by real path (a link in it that points out is
// out); show reads only regular files directly in a .sbx/logs, never through a link, never a FIFO; and a
// request line over the 8 MiB bound is answered with a JSON-RPC error, the server still serving after it.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, spawnSync } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { cli, root } from './_client.js';

// The transport alone, bundled from src/ before any suite runs.
const { build } = await import('esbuild');
const bundled = await build({ stdin: { contents: "export { BoundedStdioTransport } from './src/integrations/mcp/stdio-lines.ts';", resolveDir: root, loader: 'js' }, bundle: true, platform: 'node', target: 'node20', format: 'esm', write: false, logLevel: 'silent' });
const modFile = join(mkdtempSync(join(tmpdir(), 'sbx-lines-')), 'lines.mjs');
writeFileSync(modFile, bundled.outputFiles[0].text);
const { BoundedStdioTransport } = await import(modFile);

const test = suite('sbx mcp: confined');
const base = mkdtempSync(join(tmpdir(), 'sbx-mcp-confine-'));
const srv = join(base, 'srv');
const out = join(base, 'outside');
const SECRET = 'SECRET-LINE-never-shown';
mkdirSync(join(srv, 'proj'), { recursive: true });
mkdirSync(join(out, '.sbx', 'logs'), { recursive: true });
mkdirSync(join(base, 'home'));
writeFileSync(join(out, 'secret.log'), `${SECRET}\nmain.c:1:1: error: ${SECRET}\n`);
writeFileSync(join(out, '.sbx', 'logs', 'secret.log'), `${SECRET}\n`);
symlinkSync(out, join(srv, 'link'));
mkdirSync(join(srv, 'sub'));
symlinkSync(join(out, '.sbx'), join(srv, 'sub', '.sbx'));

const client = new Client({ name: 'sbx-test', version: '1' });
test.before(async () => {
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [cli, 'mcp'], cwd: srv, env: { ...process.env, HOME: join(base, 'home') }, stderr: 'pipe' }));
});
test.after(async () => { await client.close(); rmSync(base, { recursive: true, force: true }); });

const text = (r) => r.content.map((c) => c.text).join('\n');
/** A call that must be refused at once: isError, one line, the secret not in it. */
async function refusedCall(name, args, re) {
  const r = await client.callTool({ name, arguments: args }, undefined, { timeout: 15_000 });
  assert.ok(r.isError, `${name} ${JSON.stringify(args)} was carried out: ${text(r).slice(0, 300)}`);
  assert.match(text(r), re, `${name} ${JSON.stringify(args)}`);
  assert.is(text(r).split('\n').length, 1, text(r));
  assert.not.match(text(r), SECRET);
  return r;
}

test('run: a work dir outside the server\'s dir is refused and nothing runs', async () => {
  for (const work of [out, '..', '../outside', 'link', 'proj/../../outside', `${srv}/link/.`]) {
    await refusedCall('run', { command: 'echo pwned >> marker', work }, /^sbx: work dir .* is outside .*, the directory sbx mcp was started in; refused/);
  }
  assert.not.ok(existsSync(join(out, 'marker')), 'the command ran outside');
  assert.not.ok(existsSync(join(base, 'marker')), 'the command ran outside');
  assert.not.ok(existsSync(join(out, '.sbx', 'last.json')), 'a run was recorded outside');
});

test('run: the server\'s dir and below still run, by relative or absolute path', async () => {
  for (const work of ['proj', join(srv, 'proj'), undefined]) {
    const r = await client.callTool({ name: 'run', arguments: { command: 'echo ok >> marker', ...(work ? { work } : {}) } });
    assert.not.ok(r.isError, text(r));
    assert.is(r.structuredContent.status, 'pass');
  }
  assert.is(readFileSync(join(srv, 'proj', 'marker'), 'utf8'), 'ok\nok\n');
  assert.is(readFileSync(join(srv, 'marker'), 'utf8'), 'ok\n');
});

test('history and verdict: paths outside are refused, through a link too', async () => {
  await refusedCall('history', { work: out }, /work dir .* is outside/);
  await refusedCall('history', { work: 'link' }, /work dir link \(real path \S+outside\) is outside/);
  await refusedCall('verdict', { log: join(out, 'secret.log') }, /log .* is outside/);
  await refusedCall('verdict', { log: 'link/secret.log' }, /log link\/secret\.log \(real path \S+secret\.log\) is outside/);
  writeFileSync(join(srv, 'build.log'), 'main.c:3:5: error: x undeclared\n');
  const ok = await client.callTool({ name: 'verdict', arguments: { log: 'build.log', exit: 1 } });
  assert.is(ok.structuredContent.status, 'build-failed', text(ok));
});

test('show: a regular file in .sbx/logs reads; a symlink, a FIFO, a dir, `..` or a linked .sbx do not', async () => {
  const r = await client.callTool({ name: 'run', arguments: { command: 'echo shown-line', work: 'proj' } });
  const log = r.structuredContent.log;
  const logs = join(srv, 'proj', '.sbx', 'logs');
  assert.ok(log.startsWith(logs), log);
  const raw = await client.callTool({ name: 'show', arguments: { log, what: 'raw' } });
  assert.not.ok(raw.isError, text(raw));
  assert.match(text(raw), /shown-line/);

  symlinkSync(join(out, 'secret.log'), join(logs, 'evil.log'));
  await refusedCall('show', { log: join(logs, 'evil.log'), what: 'raw' }, /it is a symlink, not a regular file; refused/);
  await refusedCall('show', { log: join(logs, 'evil.log'), what: 'diagnostics' }, /it is a symlink/);
  assert.is(spawnSync('mkfifo', [join(logs, 'fifo.log')]).status, 0, 'mkfifo');
  await refusedCall('show', { log: join(logs, 'fifo.log'), what: 'raw' }, /it is a FIFO, not a regular file/);
  mkdirSync(join(logs, 'dir.log'));
  await refusedCall('show', { log: join(logs, 'dir.log'), what: 'raw' }, /it is a directory/);
  await refusedCall('show', { log: `${logs}/../logs/${basename(log)}`, what: 'raw' }, /is not an sbx log/);
  await refusedCall('show', { log: join(srv, 'sub', '.sbx', 'logs', 'secret.log'), what: 'raw' }, /is outside/);
  await refusedCall('show', { log: join(out, '.sbx', 'logs', 'secret.log'), what: 'raw' }, /is outside/);
  await refusedCall('show', { log: join(logs, 'gone.log'), what: 'raw' }, /does not exist/);
});

test('a server started in $HOME: run refuses the home dir itself (sbx run\'s rule)', async () => {
  const c = new Client({ name: 'sbx-test', version: '1' });
  await c.connect(new StdioClientTransport({ command: process.execPath, args: [cli, 'mcp'], cwd: join(base, 'home'), env: { ...process.env, HOME: join(base, 'home') }, stderr: 'pipe' }));
  try {
    const r = await c.callTool({ name: 'run', arguments: { command: 'echo pwned >> .bashrc' } });
    assert.ok(r.isError, text(r));
    assert.match(text(r), /is your home directory/);
    assert.not.ok(existsSync(join(base, 'home', '.bashrc')));
  } finally {
    await c.close();
  }
});

/** `sbx mcp` spoken to in raw lines: send(text) writes, answer(id) waits for the response with that id. */
function rawServer() {
  const p = spawn(process.execPath, [cli, 'mcp'], { cwd: srv, stdio: ['pipe', 'pipe', 'pipe'] });
  const answers = [];
  const waiting = [];
  let buf = '';
  let exited = null;
  p.stdout.on('data', (d) => {
    buf += d;
    for (let nl; (nl = buf.indexOf('\n')) >= 0; buf = buf.slice(nl + 1)) answers.push(JSON.parse(buf.slice(0, nl)));
    for (const w of waiting.splice(0)) w();
  });
  p.on('exit', (code, sig) => { exited = sig ?? code; for (const w of waiting.splice(0)) w(); });
  p.stdin.on('error', () => {}); // a server that died mid-write: the test says so below
  const answer = async (id, ms = 30_000) => {
    const until = Date.now() + ms;
    for (;;) {
      const a = answers.find((x) => x.id === id);
      if (a) return a;
      if (exited !== null) throw new Error(`the server exited (${exited}) without answering request ${JSON.stringify(id)}`);
      if (Date.now() > until) throw new Error(`no answer to request ${JSON.stringify(id)} in ${ms} ms`);
      await new Promise((ok) => { waiting.push(ok); setTimeout(ok, 200); });
    }
  };
  return { p, answers, answer, send: (t) => p.stdin.write(t), alive: () => exited === null };
}

test('a request line over 8 MiB: a JSON-RPC error with its id, and the next request is answered', async () => {
  const s = rawServer();
  try {
    s.send(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } })}\n`);
    await s.answer(1);
    s.send('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    // The SDK's client order: method, params, then jsonrpc and id; an "id" inside params first.
    const big = 'x'.repeat(12 << 20);
    s.send(`{"method":"tools/call","params":{"_meta":{"id":99},"name":"verdict","arguments":{"text":"${big}"}},"jsonrpc":"2.0","id":7}\n`);
    s.send('this is not json\n');
    s.send(`${JSON.stringify({ jsonrpc: '2.0', id: 'after', method: 'tools/list' })}\n`);
    const over = await s.answer(7);
    assert.is(over.error?.code, -32600, JSON.stringify(over).slice(0, 300));
    assert.match(over.error.message, /^request of 125\d{5} bytes is over sbx mcp's limit of 8388608 bytes \(8 MiB\)/);
    const next = await s.answer('after');
    assert.equal(next.result.tools.map((t) => t.name), ['run', 'verdict', 'history', 'show']);
    const parse = s.answers.find((a) => a.id === null);
    assert.is(parse?.error?.code, -32700, 'a line that is not JSON gets a parse error');
    // Just under the bound still reads: a 7 MiB log's text to verdict.
    const text7 = `${'progress line\n'.repeat((7 << 20) / 14)}main.c:3:5: error: x undeclared\n`;
    s.send(`${JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'verdict', arguments: { text: text7, exit: 1 } } })}\n`);
    const big7 = await s.answer(8, 60_000);
    assert.is(big7.result?.structuredContent?.status, 'build-failed', JSON.stringify(big7).slice(0, 300));
    assert.ok(s.alive(), 'the server exited');
  } finally {
    s.p.kill();
  }
});

test.run();

// The transport with a 64-byte bound: the id of an over-long line, read in 5-byte pieces, wherever it
// stands and whatever precedes it (an "id" in params, in a string); null when it is not a top-level one.
const lines = suite('sbx mcp: the id of an over-long line');
const pad = 'x'.repeat(80);
const rows = [
  [`{"jsonrpc":"2.0","id":7,"method":"m","params":{"t":"${pad}"}}`, 7],
  [`{"method":"m","params":{"id":99,"t":"${pad}"},"jsonrpc":"2.0","id":"a,b}\\"c"}`, 'a,b}"c'],
  [`{"params":{"t":"${pad}\\",\\"id\\":5"},"id":3}`, 3],
  [`{"t":"${pad}" , "id" : 12 }`, 12],
  [`{"id":{"x":1},"t":"${pad}"}`, null],
  [`[{"id":4},"${pad}"]`, null],
  [`{"t":"${pad}","id":5`, 5],
];
for (const [line, id] of rows) {
  lines(line.slice(0, 60), async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const t = new BoundedStdioTransport(stdin, stdout, 64);
    const got = [];
    t.onmessage = (m) => got.push(m);
    await t.start();
    const bytes = Buffer.from(`${line}\n{"jsonrpc":"2.0","id":"next","method":"ping"}\n`);
    for (let i = 0; i < bytes.length; i += 5) stdin.write(bytes.subarray(i, i + 5));
    await new Promise((ok) => setImmediate(ok));
    const answer = JSON.parse(String(stdout.read()).split('\n')[0]);
    assert.is(answer.id, id);
    assert.is(answer.error.code, -32600);
    assert.equal(got, [{ jsonrpc: '2.0', id: 'next', method: 'ping' }], 'the next line is read');
    await t.close();
  });
}
lines.after(() => rmSync(join(modFile, '..'), { recursive: true, force: true }));
lines.run();
