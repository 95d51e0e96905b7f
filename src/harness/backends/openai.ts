// OpenAI-compatible chat completions through the openai package, at any base URL (vLLM, llama.cpp's
// server, hosted APIs): tools as functions, tool results as role "tool" messages, seed passed through.
import { SbxError } from '../../contract/errors.js';
import type { Backend, Block, ModelReply, ModelRequest } from '../types.js';
import { netError, type NetOptions } from './anthropic.js';

export async function openaiBackend(model: string, o: NetOptions): Promise<Backend> {
  const baseURL = o.baseURL || process.env.OPENAI_BASE_URL || undefined;
  const apiKey = o.apiKey || process.env.OPENAI_API_KEY || (baseURL ? 'none' : undefined);
  if (!apiKey) throw new SbxError('E_NO_KEY', `no OpenAI API key for ${model}: set OPENAI_API_KEY, or pass --base-url for a local server (vLLM, llama.cpp)`);
  const { default: OpenAI } = await import('openai');
  const client = new OpenAI({ apiKey, maxRetries: 2, ...(baseURL ? { baseURL } : {}) });
  return {
    name: `openai:${model}`,
    async complete(req: ModelRequest): Promise<ModelReply> {
      const messages: unknown[] = [{ role: 'system', content: req.system }];
      for (const m of req.messages) {
        if (m.role === 'assistant') {
          const text = m.content.filter((b) => b.type === 'text').map((b) => (b as { text: string }).text).join('\n');
          const calls = m.content.flatMap((b) => (b.type === 'tool_use' ? [{ id: b.id, type: 'function', function: { name: b.name, arguments: JSON.stringify(b.input) } }] : []));
          messages.push({ role: 'assistant', content: text || (calls.length ? null : ''), ...(calls.length ? { tool_calls: calls } : {}) });
        } else {
          for (const b of m.content) {
            if (b.type === 'tool_result') messages.push({ role: 'tool', tool_call_id: b.tool_use_id, content: b.content });
            else if (b.type === 'text') messages.push({ role: 'user', content: b.text });
          }
        }
      }
      const tools = req.tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.input_schema } }));
      let r;
      try {
        r = await client.chat.completions.create({
          model, messages: messages as never, tools: tools as never, max_tokens: req.maxTokens, seed: req.seed,
          ...(o.temperature !== undefined ? { temperature: o.temperature } : {}),
        });
      } catch (err) { throw netError('OpenAI-compatible API', baseURL ?? 'api.openai.com', err); }
      const msg = r.choices[0]?.message;
      const content: Block[] = [];
      if (msg?.content) content.push({ type: 'text', text: msg.content });
      for (const c of msg?.tool_calls ?? []) {
        if (c.type !== 'function') continue;
        let input: Record<string, unknown> = {};
        try { input = JSON.parse(c.function.arguments || '{}') as Record<string, unknown>; } catch { input = { _unparsed: c.function.arguments }; }
        content.push({ type: 'tool_use', id: c.id, name: c.function.name, input });
      }
      const u = r.usage;
      const cached = u?.prompt_tokens_details?.cached_tokens ?? 0;
      return { content, model: r.model, usage: { input: (u?.prompt_tokens ?? 0) - cached, output: u?.completion_tokens ?? 0, cache_read: cached, cache_write: 0 } };
    },
  };
}
