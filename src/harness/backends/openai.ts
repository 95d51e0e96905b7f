// OpenAI-compatible chat completions through the openai package, at any base URL (vLLM, llama.cpp's
// server, hosted APIs): tools as functions, tool results as role "tool" messages, seed passed through.
import { SbxError } from '../../contract/index.js';
import type { Backend, Block, ModelReply, ModelRequest } from '../types.js';
import { netError, type NetOptions } from './anthropic.js';
import type { ChatCompletion } from 'openai/resources/chat/completions';

/**
 * The reply-length parameter: OpenAI's own API takes max_completion_tokens for every model and refuses
 * max_tokens for its reasoning models (o1, o3, o4-mini, gpt-5); compatible servers (vLLM, llama.cpp's
 * server) know max_tokens, so it stays theirs, until a server refuses it the way OpenAI does.
 */
export function limitParam(baseURL: string | undefined): 'max_tokens' | 'max_completion_tokens' {
  if (!baseURL) return 'max_completion_tokens';
  try {
    return new URL(baseURL).hostname === 'api.openai.com' ? 'max_completion_tokens' : 'max_tokens';
  } catch {
    return 'max_tokens';
  }
}

/** OpenAI's 400 for max_tokens on a reasoning model: param "max_tokens", "Use 'max_completion_tokens' instead." */
function refusesMaxTokens(err: unknown): boolean {
  const e = err as { status?: number; param?: string | null; message?: string };
  return e.status === 400 && (e.param === 'max_tokens' || /max_completion_tokens/.test(e.message ?? ''));
}

export async function openaiBackend(model: string, o: NetOptions): Promise<Backend> {
  const baseURL = o.baseURL || process.env.OPENAI_BASE_URL || undefined;
  const apiKey = o.apiKey || process.env.OPENAI_API_KEY || (baseURL ? 'none' : undefined);
  if (!apiKey) throw new SbxError('E_NO_KEY', `no OpenAI API key for ${model}: set OPENAI_API_KEY, or pass --base-url for a local server (vLLM, llama.cpp)`);
  const { default: OpenAI } = await import('openai');
  const client = new OpenAI({ apiKey, maxRetries: 2, ...(baseURL ? { baseURL } : {}) });
  let limit = limitParam(baseURL);
  return {
    name: `openai:${model}`,
    async complete(req: ModelRequest): Promise<ModelReply> {
      const messages: unknown[] = [{ role: 'system', content: req.system }];
      for (const m of req.messages) {
        if (m.role === 'assistant') {
          const text = m.content
            .filter((b) => b.type === 'text')
            .map((b) => (b as { text: string }).text)
            .join('\n');
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
      const create = (): Promise<ChatCompletion> =>
        client.chat.completions.create({
          model,
          messages: messages as never,
          tools: tools as never,
          [limit]: req.maxTokens,
          seed: req.seed,
          ...(o.temperature !== undefined ? { temperature: o.temperature } : {}),
        } as never);
      let r;
      try {
        try {
          r = await create();
        } catch (err) {
          if (limit !== 'max_tokens' || !refusesMaxTokens(err)) throw err;
          limit = 'max_completion_tokens'; // a reasoning model behind another URL: say it its way from now on
          r = await create();
        }
      } catch (err) {
        throw netError('OpenAI-compatible API', baseURL ?? 'api.openai.com', err);
      }
      const msg = r.choices[0]?.message;
      const content: Block[] = [];
      if (msg?.content) content.push({ type: 'text', text: msg.content });
      for (const c of msg?.tool_calls ?? []) {
        if (c.type !== 'function') continue;
        let input: Record<string, unknown> = {};
        try {
          input = JSON.parse(c.function.arguments || '{}') as Record<string, unknown>;
        } catch {
          input = { _unparsed: c.function.arguments };
        }
        content.push({ type: 'tool_use', id: c.id, name: c.function.name, input });
      }
      const u = r.usage;
      const cached = u?.prompt_tokens_details?.cached_tokens ?? 0;
      return { content, model: r.model, usage: { input: (u?.prompt_tokens ?? 0) - cached, output: u?.completion_tokens ?? 0, cache_read: cached, cache_write: 0 } };
    },
  };
}
