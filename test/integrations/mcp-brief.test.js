// `sbx mcp`: a short plain output comes back as itself under the verdict's status line, not as a longer
// verdict (src/host/brief.ts); anything with something to structure keeps the full verdict.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { cli } from './_client.js';

const test = suite('sbx mcp: brief output');
const tmp = mkdtempSync(join(tmpdir(), 'sbx-mcp-brief-'));
mkdirSync(join(tmp, 'p'));
const client = new Client({ name: 'sbx-test', version: '1' });
test.before(async () => {
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [cli, 'mcp'], cwd: tmp, stderr: 'pipe' }));
});
test.after(async () => { await client.close(); rmSync(tmp, { recursive: true, force: true }); });
const text = (r) => r.content.map((c) => c.text).join('\n');

test('run: an 8-byte echo comes back as its output under a one-line status', async () => {
  const r = await client.callTool({ name: 'run', arguments: { command: 'echo hello', work: 'p' } });
  assert.match(text(r), /^sbx: pass · exit 0 · [^\n]* · 1 line\nhello\n$/);
  assert.is(r.structuredContent.verdict, text(r));
  assert.is(r.structuredContent.status, 'pass');
  const again = await client.callTool({ name: 'run', arguments: { command: 'echo hello', work: 'p' } });
  assert.match(text(again), /^sbx: pass[^\n]*\nhello\n$/, 'a "no change" delta adds nothing to an output that is all there');
});

test('run: a plain 20-line output comes back whole, not as a verdict whose tail keeps its last 12', async () => {
  const r = await client.callTool({ name: 'run', arguments: { command: 'for i in $(seq 1 20); do echo "step $i of the report"; done', work: 'p' } });
  const t = text(r);
  assert.match(t, /^sbx: pass · exit 0 · [^\n]* · 20 lines\nstep 1 of the report\n/);
  assert.ok(t.includes('step 8 of the report\n') && t.endsWith('step 20 of the report\n'), t);
  assert.not.match(t, /\nlog: /);
});

test('run: a failing short command keeps its status and exit in the line', async () => {
  const r = await client.callTool({ name: 'run', arguments: { command: 'echo nope; exit 3', work: 'p' } });
  assert.match(text(r), /^sbx: runtime-error · exit 3 · [^\n]*\nnope\n$/);
  assert.is(r.structuredContent.exit_code, 3);
});

test('run: a diagnostic keeps the full verdict (with its log line)', async () => {
  const r = await client.callTool({ name: 'run', arguments: { command: 'echo "x.c:3:5: error: expected ;" >&2; exit 1', work: 'p' } });
  assert.match(text(r), /\nlog: \S+\.log\n$/);
});

test('verdict: short text in, short text out', async () => {
  const r = await client.callTool({ name: 'verdict', arguments: { text: 'ok\n', exit: 0 } });
  assert.match(text(r), /^sbx: pass[^\n]*\nok\n$/);
});

test.run();
