// A scripted Anthropic Messages API on 127.0.0.1 for driving a real client offline. It answers every
// POST /v1/messages with SSE (or JSON when the request is not streamed) and records each request body.
// The script is a list of steps; which step comes next is the number of tool_result blocks already in
// the conversation, so a retried request gets the same answer (deterministic, no server-side state).
// A request without tools (the client's own side calls: titles, summaries) gets a short text answer.
import { createServer } from 'node:http';

/**
 * A step's input may be a function of the request, to use what the client sent back (a log path).
 * @typedef {{ tool: string, input: Record<string, unknown> | ((body: any) => Record<string, unknown>) } | { text: string }} Step
 * @param {Step[]} script
 */
export async function startScriptedModel(script) {
  /** @type {{ path: string, body: any }[]} */
  const requests = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c) => { raw += c; });
    req.on('end', () => {
      let body = null;
      try { body = raw ? JSON.parse(raw) : null; } catch { body = { unparsed: raw }; }
      requests.push({ path: req.url ?? '', body, at: performance.now() }); // at: when it arrived (bench/agent-loop.js)
      const path = (req.url ?? '').split('?')[0];
      if (req.method !== 'POST' || !path.endsWith('/v1/messages')) {
        if (path.endsWith('/count_tokens')) return json(res, 200, { input_tokens: 100 });
        return json(res, 404, { type: 'error', error: { type: 'not_found_error', message: 'scripted model: no such endpoint' } });
      }
      const main = Array.isArray(body?.tools) && body.tools.length > 0;
      const done = main ? countToolResults(body.messages) : 0;
      const step = main ? (script[done] ?? { text: 'Done.' }) : { text: 'Scripted title' };
      const id = `toolu_scripted_${String(done).padStart(2, '0')}`;
      const input = 'tool' in step ? (typeof step.input === 'function' ? step.input(body) : step.input) : null;
      const content = 'tool' in step ? [{ type: 'tool_use', id, name: step.tool, input }] : [{ type: 'text', text: step.text }];
      const stop = 'tool' in step ? 'tool_use' : 'end_turn';
      const model = body?.model ?? 'claude-scripted';
      if (!body?.stream) {
        return json(res, 200, { id: `msg_${done}`, type: 'message', role: 'assistant', model, content, stop_reason: stop, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 10 } });
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const ev = (type, data) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
      ev('message_start', { message: { id: `msg_${done}`, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } } });
      content.forEach((block, index) => {
        if (block.type === 'text') {
          ev('content_block_start', { index, content_block: { type: 'text', text: '' } });
          ev('content_block_delta', { index, delta: { type: 'text_delta', text: block.text } });
        } else {
          ev('content_block_start', { index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } });
          ev('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } });
        }
        ev('content_block_stop', { index });
      });
      ev('message_delta', { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 10 } });
      ev('message_stop', {});
      res.end();
    });
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  // Never what keeps the test process alive: a test that fails before close() must still end.
  server.unref();
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    /** The main-loop requests (those that offered tools), in order. */
    mainRequests: () => requests.filter((r) => Array.isArray(r.body?.tools) && r.body.tools.length > 0),
    close: () => new Promise((ok) => { server.closeAllConnections?.(); server.close(() => ok(undefined)); }),
  };
}

function countToolResults(messages) {
  let n = 0;
  for (const m of messages ?? []) {
    if (m.role !== 'user' || !Array.isArray(m.content)) continue;
    for (const b of m.content) if (b?.type === 'tool_result') n++;
  }
  return n;
}

/** Every tool_result the client sent back, in order: { id, content (string), is_error }. */
export function toolResults(body) {
  const out = [];
  for (const m of body?.messages ?? []) {
    if (m.role !== 'user' || !Array.isArray(m.content)) continue;
    for (const b of m.content) {
      if (b?.type !== 'tool_result') continue;
      const text = typeof b.content === 'string' ? b.content : (b.content ?? []).map((c) => (c.type === 'text' ? c.text : JSON.stringify(c))).join('\n');
      out.push({ id: b.tool_use_id, content: text, is_error: Boolean(b.is_error) });
    }
  }
  return out;
}

function json(res, code, obj) {
  res.writeHead(code, { 'content-type': 'application/json' });
  res.end(JSON.stringify(obj));
}
