// A scripted OpenAI Responses API (POST /v1/responses, SSE) on 127.0.0.1, for Codex CLI, which speaks
// only `wire_api = "responses"` to custom providers. Same contract as _scripted-model.js: a list of
// steps, the next one chosen by the number of tool outputs already in the request, every request kept.
import { createServer } from 'node:http';

export async function startScriptedResponses(script) {
  const requests = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c) => { raw += c; });
    req.on('end', () => {
      let body = null;
      try { body = raw ? JSON.parse(raw) : null; } catch { body = { unparsed: raw }; }
      requests.push({ path: req.url ?? '', body, at: performance.now() }); // at: when it arrived (bench/agent-loop.js)
      if (req.method !== 'POST' || !(req.url ?? '').split('?')[0].endsWith('/responses')) {
        res.writeHead(404, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ error: { message: 'scripted model: no such endpoint' } }));
      }
      const main = Array.isArray(body?.tools) && body.tools.length > 0;
      const done = main ? toolOutputs(body).length : 0;
      const step = main ? (script[done] ?? { text: 'Done.' }) : { text: 'Scripted title' };
      const id = `resp_${done}`;
      let item;
      if ('search' in step) {
        // Codex defers MCP tools behind its client-side tool_search: the model searches, Codex answers
        // with the matching tools in a tool_search_output item, and only then may the model call them.
        item = { type: 'tool_search_call', id: `ts_${done}`, call_id: `call_scripted_${String(done).padStart(2, '0')}`, execution: 'client', arguments: { query: step.search, limit: 8 }, status: 'completed' };
      } else if ('tool' in step) {
        const args = typeof step.input === 'function' ? step.input(body) : step.input;
        item = { type: 'function_call', id: `fc_${done}`, call_id: `call_scripted_${String(done).padStart(2, '0')}`, name: step.tool, ...(step.namespace ? { namespace: step.namespace } : {}), arguments: JSON.stringify(args), status: 'completed' };
      } else {
        item = { type: 'message', id: `msg_${done}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: step.text, annotations: [] }] };
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const ev = (type, data) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
      const response = { id, object: 'response', created_at: 0, status: 'in_progress', model: body?.model ?? 'scripted', output: [] };
      ev('response.created', { response });
      ev('response.output_item.added', { output_index: 0, item: { ...item, status: 'in_progress' } });
      if (item.type === 'message') ev('response.output_text.delta', { item_id: item.id, output_index: 0, content_index: 0, delta: step.text });
      ev('response.output_item.done', { output_index: 0, item });
      ev('response.completed', { response: { ...response, status: 'completed', output: [item], usage: { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 10, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 20 } } });
      res.end();
    });
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  // Never what keeps the test process alive: a test that fails before close() must still end.
  server.unref();
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    mainRequests: () => requests.filter((r) => Array.isArray(r.body?.tools) && r.body.tools.length > 0),
    close: () => new Promise((ok) => { server.closeAllConnections?.(); server.close(() => ok(undefined)); }),
  };
}

/** The tool outputs the client sent back, in order: { id, content }. */
export function toolOutputs(body) {
  return (body?.input ?? []).filter((i) => i?.type === 'function_call_output' || i?.type === 'custom_tool_call_output' || i?.type === 'tool_search_output')
    .map((i) => ({ id: i.call_id, content: typeof i.output === 'string' ? i.output : JSON.stringify(i.output) }));
}
