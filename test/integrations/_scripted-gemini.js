// A scripted Gemini API (generateContent / streamGenerateContent) on 127.0.0.1, for Gemini CLI. Same
// contract as _scripted-model.js: a list of steps, the next one chosen by the number of functionResponse
// parts already in the conversation, every request kept. Side calls (JSON-mode requests such as the
// client's routing or next-speaker checks) get a minimal JSON answer.
import { createServer } from 'node:http';

export async function startScriptedGemini(script) {
  const requests = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c) => { raw += c; });
    req.on('end', () => {
      let body = null;
      try { body = raw ? JSON.parse(raw) : null; } catch { body = { unparsed: raw }; }
      const path = (req.url ?? '').split('?')[0];
      requests.push({ path: req.url ?? '', body, at: performance.now() }); // at: when it arrived (bench/agent-loop.js)
      if (path.endsWith(':countTokens')) return json(res, { totalTokens: 100 });
      const stream = path.endsWith(':streamGenerateContent');
      if (req.method !== 'POST' || !(stream || path.endsWith(':generateContent'))) {
        res.writeHead(404, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ error: { code: 404, message: 'scripted model: no such endpoint', status: 'NOT_FOUND' } }));
      }
      const main = isMain(body);
      const done = main ? functionResponses(body).length : 0;
      let parts;
      if (!main) {
        parts = [{ text: body?.generationConfig?.responseMimeType === 'application/json' ? JSON.stringify({ next_speaker: 'user', reasoning: 'scripted', model_choice: 'flash', complexity_reasoning: 'scripted', complexity_score: 1 }) : 'Scripted title' }];
      } else {
        const step = script[done] ?? { text: 'Done.' };
        parts = 'tool' in step ? [{ functionCall: { name: step.tool, args: typeof step.input === 'function' ? step.input(body) : step.input } }] : [{ text: step.text }];
      }
      const chunk = { candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }], usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 10, totalTokenCount: 20 }, modelVersion: 'scripted' };
      if (!stream) return json(res, chunk);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`data: ${JSON.stringify(chunk)}\r\n\r\n`);
      res.end();
    });
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  // Never what keeps the test process alive: a test that fails before close() must still end.
  server.unref();
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    mainRequests: () => requests.filter((r) => isMain(r.body)),
    close: () => new Promise((ok) => { server.closeAllConnections?.(); server.close(() => ok(undefined)); }),
  };
}

const isMain = (body) => Array.isArray(body?.tools) && body.tools.some((t) => Array.isArray(t.functionDeclarations) && t.functionDeclarations.length > 0);

/** The functionResponse parts the client sent back, in order: { name, response }. */
export function functionResponses(body) {
  const out = [];
  for (const c of body?.contents ?? []) for (const p of c.parts ?? []) if (p.functionResponse) out.push(p.functionResponse);
  return out;
}

function json(res, obj) {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(obj));
}
