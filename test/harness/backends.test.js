// Each network backend against a local server on 127.0.0.1 speaking that API's real wire format (the
// Anthropic Messages API, OpenAI chat completions, Ollama /api/chat). The server plays the oracle, so a
// whole episode runs in sbx over the wire; the test checks what the client sent (tools, tool results,
// prompt caching, seed) and what the harness made of the replies (success, tokens by kind, cost).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer } from 'node:http';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { limitParam } from '../../dist/harness.js';
import { needs } from '../_tools.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const EXP = join(ROOT, 'dist/experiment.js');
const dir = mkdtempSync(join(tmpdir(), 'sbx-wire-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
const solution = readFileSync(join(ROOT, 'bench/tasks/py-interval/solution/intervals.py'), 'utf8');

/** The oracle's move for the n-th assistant turn: run, write the solution, run, done. */
const move = (n) => [['run', {}], ['write_file', { path: 'intervals.py', content: solution }], ['run', {}], ['done', { summary: 'merge touching intervals' }]][Math.min(n, 3)];

const wire = {
  anthropic: {
    path: '/v1/messages',
    turns: (body) => body.messages.filter((m) => m.role === 'assistant').length,
    reply: (body, n) => {
      const [name, input] = move(n);
      return { id: `msg_${n}`, type: 'message', role: 'assistant', model: body.model, stop_reason: 'tool_use', stop_sequence: null,
        content: [{ type: 'text', text: `step ${n}` }, { type: 'tool_use', id: `toolu_${n}`, name, input }],
        usage: { input_tokens: 100, output_tokens: 20, cache_creation_input_tokens: 50, cache_read_input_tokens: 30 } };
    },
  },
  openai: {
    path: '/v1/chat/completions',
    turns: (body) => body.messages.filter((m) => m.role === 'assistant').length,
    reply: (body, n) => {
      const [name, input] = move(n);
      return { id: `chatcmpl-${n}`, object: 'chat.completion', created: 1700000000, model: body.model,
        choices: [{ index: 0, finish_reason: 'tool_calls', logprobs: null, message: { role: 'assistant', content: null, tool_calls: [{ id: `call_${n}`, type: 'function', function: { name, arguments: JSON.stringify(input) } }] } }],
        usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120, prompt_tokens_details: { cached_tokens: 40 } } };
    },
  },
  ollama: {
    path: '/api/chat',
    turns: (body) => body.messages.filter((m) => m.role === 'assistant').length,
    reply: (body, n) => {
      const [name, input] = move(n);
      return { model: body.model, created_at: '2025-01-01T00:00:00Z', message: { role: 'assistant', content: '', tool_calls: [{ function: { name, arguments: input } }] },
        done: true, done_reason: 'stop', total_duration: 1, load_duration: 1, prompt_eval_count: 100, prompt_eval_duration: 1, eval_count: 20, eval_duration: 1 };
    },
  },
};

// OpenAI's answer to max_tokens on a reasoning model (o1, o3, o4-mini, gpt-5), as its API sends it.
const REFUSED_MAX_TOKENS = { error: { message: "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.", type: 'invalid_request_error', param: 'max_tokens', code: 'unsupported_parameter' } };

function serve(kind, { reasoning = false } = {}) {
  const seen = [];
  const server = createServer((req, res) => {
    let data = '';
    req.on('data', (c) => { data += c; });
    req.on('end', () => {
      const body = JSON.parse(data || '{}');
      seen.push({ url: req.url, headers: req.headers, body });
      if (req.url !== wire[kind].path) { res.writeHead(404); res.end('{}'); return; }
      if (reasoning && 'max_tokens' in body) { res.writeHead(400, { 'content-type': 'application/json' }); res.end(JSON.stringify(REFUSED_MAX_TOKENS)); return; }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(wire[kind].reply(body, wire[kind].turns(body))));
    });
  });
  return new Promise((r) => server.listen(0, '127.0.0.1', () => r({ seen, url: `http://127.0.0.1:${server.address().port}`, close: () => server.close() })));
}

function exp(args, env = {}) {
  return new Promise((res) => {
    const p = spawn(process.execPath, [EXP, ...args], { env: { ...process.env, ANTHROPIC_API_KEY: '', OPENAI_API_KEY: '', OPENAI_BASE_URL: '', OLLAMA_HOST: '', ...env } });
    let out = ''; let err = '';
    p.stdout.on('data', (d) => { out += d; });
    p.stderr.on('data', (d) => { err += d; });
    p.on('close', (code) => res({ code, out, err }));
  });
}

const episode = async (kind, model, baseURL, env) => {
  const out = join(dir, `${kind}-${model}.jsonl`);
  const r = await exp(['--model', `${kind}:${model}`, '--conditions', 'raw', '--tasks', 'py-interval', '--seeds', '1', '--base-url', baseURL, '--out', out], env);
  assert.is(r.code, 0, r.err);
  return JSON.parse(readFileSync(out, 'utf8').trim());
};

const pyTask = needs('test/harness/backends: the Python task', ['python3'], test);

pyTask('Anthropic Messages API: tools, tool_result blocks, prompt caching, usage by kind, cost', async () => {
  const s = await serve('anthropic');
  try {
    const e = await episode('anthropic', 'claude-sonnet-4-20250514', s.url, { ANTHROPIC_API_KEY: 'sk-test' });
    assert.ok(e.success, JSON.stringify(e));
    assert.is(e.api_turns, 4);
    assert.equal(e.tokens, { input: 400, output: 80, cache_read: 120, cache_write: 200 });
    assert.ok(Math.abs(e.cost_usd - (400 * 3 + 80 * 15 + 120 * 0.3 + 200 * 3.75) / 1e6) < 1e-12);
    assert.is(s.seen.length, 4);
    const [first, second] = s.seen.map((x) => x.body);
    const h = s.seen[0].headers; // the key as the SDK sends it (x-api-key, or a bearer token in newer SDKs)
    assert.ok(h['x-api-key'] === 'sk-test' || h.authorization === 'Bearer sk-test', JSON.stringify(h));
    assert.ok(s.seen[0].headers['anthropic-version']);
    assert.is(first.model, 'claude-sonnet-4-20250514');
    assert.equal(first.system[0].cache_control, { type: 'ephemeral' });
    assert.equal(first.tools.map((t) => t.name), ['read_file', 'write_file', 'run', 'done']);
    assert.equal(first.tools.at(-1).cache_control, { type: 'ephemeral' });
    assert.match(first.tools[2].description, /complete combined stdout and stderr/);
    const results = second.messages.at(-1).content;
    assert.is(results[0].type, 'tool_result');
    assert.is(results[0].tool_use_id, 'toolu_0');
    assert.match(results[0].content, /^exit code: 1\n/);
    assert.equal(results.at(-1).cache_control, { type: 'ephemeral' });
  } finally { s.close(); }
});

pyTask('OpenAI-compatible chat completions at a local base URL: functions, role "tool" results, seed, cached tokens', async () => {
  const s = await serve('openai');
  try {
    const e = await episode('openai', 'qwen2.5-coder-7b', `${s.url}/v1`);
    assert.ok(e.success, JSON.stringify(e));
    assert.equal(e.tokens, { input: 240, output: 80, cache_read: 160, cache_write: 0 });
    assert.is(e.cost_usd, null, 'a local model has no list price');
    const second = s.seen[1].body;
    assert.is(second.messages[0].role, 'system');
    assert.is(second.seed, 0);
    assert.equal(second.tools[0].type, 'function');
    assert.is(second.tools[2].function.name, 'run');
    const asst = second.messages.find((m) => m.role === 'assistant');
    assert.is(asst.tool_calls[0].function.name, 'run');
    const tool = second.messages.find((m) => m.role === 'tool');
    assert.is(tool.tool_call_id, 'call_0');
    assert.match(tool.content, /^exit code: 1\n/);
    assert.is(second.max_tokens, 4096, 'a compatible server gets max_tokens');
    assert.not.ok('max_completion_tokens' in second);
  } finally { s.close(); }
});

pyTask('OpenAI reasoning models: max_tokens refused as OpenAI does, then max_completion_tokens for the rest of the episode', async () => {
  const s = await serve('openai', { reasoning: true });
  try {
    const e = await episode('openai', 'o4-mini', `${s.url}/v1`);
    assert.ok(e.success, JSON.stringify(e));
    assert.is(e.stop, 'done');
    const bodies = s.seen.map((x) => x.body);
    assert.is(bodies.length, 5, 'one refused request, then the four turns');
    assert.is(bodies[0].max_tokens, 4096);
    for (const b of bodies.slice(1)) { assert.is(b.max_completion_tokens, 4096); assert.not.ok('max_tokens' in b); }
  } finally { s.close(); }
  assert.is(limitParam(undefined), 'max_completion_tokens', 'api.openai.com: every model takes max_completion_tokens');
  assert.is(limitParam('https://api.openai.com/v1'), 'max_completion_tokens');
  assert.is(limitParam('http://gpu-box:8000/v1'), 'max_tokens');
});

pyTask('Ollama /api/chat with tools: non-streaming, tool results by tool name, eval counts as tokens', async () => {
  const s = await serve('ollama');
  try {
    const e = await episode('ollama', 'qwen2.5-coder', s.url);
    assert.ok(e.success, JSON.stringify(e));
    assert.equal(e.tokens, { input: 400, output: 80, cache_read: 0, cache_write: 0 });
    assert.is(e.cost_usd, 0);
    const second = s.seen[1].body;
    assert.is(second.stream, false);
    assert.is(second.options.seed, 0);
    assert.is(second.tools[2].function.name, 'run');
    const tool = second.messages.find((m) => m.role === 'tool');
    assert.is(tool.tool_name, 'run');
    assert.match(tool.content, /^exit code: 1\n/);
  } finally { s.close(); }
});

test('a missing key or an unreachable URL is one line, not a stack trace', async () => {
  const a = await exp(['--model', 'anthropic:claude-sonnet-4-20250514', '--tasks', 'py-interval', '--conditions', 'raw', '--out', join(dir, 'nokey.jsonl')]);
  assert.is(a.code, 1);
  assert.is(a.err.trim(), 'experiment: no Anthropic API key for claude-sonnet-4-20250514: set ANTHROPIC_API_KEY (or pass --api-key)');
  const o = await exp(['--model', 'openai:gpt-4.1', '--tasks', 'py-interval', '--conditions', 'raw', '--out', join(dir, 'nokey2.jsonl')]);
  assert.match(o.err.trim(), /^experiment: no OpenAI API key for gpt-4.1: set OPENAI_API_KEY/);
  const s = await serve('ollama'); const url = s.url; s.close();
  // The socket's reason (ECONNREFUSED), not the SDKs' wrapping "fetch failed" / "Connection error.".
  for (const [model, api, base] of [['ollama:qwen2.5-coder', 'Ollama', url], ['openai:gpt-4.1', 'OpenAI-compatible API', `${url}/v1`], ['anthropic:claude-sonnet-4-20250514', 'Anthropic', url]]) {
    const u = await exp(['--model', model, '--tasks', 'py-interval', '--conditions', 'raw', '--base-url', base, '--out', join(dir, `down-${api[0]}.jsonl`)], { ANTHROPIC_API_KEY: 'sk-test' });
    assert.is(u.code, 1);
    assert.is(u.err.trim().split('\n').length, 1, u.err);
    assert.is(u.err.trim(), `experiment: ${api} at ${base} failed (ECONNREFUSED): check that the server is up and the URL is right`);
  }
});

test.run();
