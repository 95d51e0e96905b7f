// Ollama's /api/chat with tools through the ollama package (host from --base-url or OLLAMA_HOST).
import type { Backend, Block, ModelReply, ModelRequest } from '../types.js';
import { netError, type NetOptions } from './anthropic.js';

export async function ollamaBackend(model: string, o: NetOptions): Promise<Backend> {
  const host = o.baseURL || process.env.OLLAMA_HOST || 'http://127.0.0.1:11434';
  const { Ollama } = await import('ollama');
  const client = new Ollama({ host });
  let n = 0;
  return {
    name: `ollama:${model}`,
    async complete(req: ModelRequest): Promise<ModelReply> {
      const names = new Map<string, string>();
      const messages: { role: string; content: string; tool_calls?: unknown[]; tool_name?: string }[] = [{ role: 'system', content: req.system }];
      for (const m of req.messages) {
        if (m.role === 'assistant') {
          const text = m.content
            .filter((b) => b.type === 'text')
            .map((b) => (b as { text: string }).text)
            .join('\n');
          const calls = m.content.flatMap((b) => (b.type === 'tool_use' ? [{ function: { name: b.name, arguments: b.input } }] : []));
          for (const b of m.content) if (b.type === 'tool_use') names.set(b.id, b.name);
          messages.push({ role: 'assistant', content: text, ...(calls.length ? { tool_calls: calls } : {}) });
        } else {
          for (const b of m.content) {
            if (b.type === 'tool_result') messages.push({ role: 'tool', content: b.content, tool_name: names.get(b.tool_use_id) ?? '' });
            else if (b.type === 'text') messages.push({ role: 'user', content: b.text });
          }
        }
      }
      const tools = req.tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.input_schema } }));
      let r;
      try {
        r = await client.chat({
          model,
          messages: messages as never,
          tools: tools as never,
          stream: false,
          options: { seed: req.seed, num_predict: req.maxTokens, ...(o.temperature !== undefined ? { temperature: o.temperature } : {}) },
        });
      } catch (err) {
        throw netError('Ollama', host, err);
      }
      const content: Block[] = [];
      if (r.message.content) content.push({ type: 'text', text: r.message.content });
      for (const c of r.message.tool_calls ?? []) content.push({ type: 'tool_use', id: `ollama_${++n}`, name: c.function.name, input: (c.function.arguments ?? {}) as Record<string, unknown> });
      return { content, model: r.model, usage: { input: r.prompt_eval_count ?? 0, output: r.eval_count ?? 0, cache_read: 0, cache_write: 0 } };
    },
  };
}
