// Anthropic Messages API through @anthropic-ai/sdk: a manual tool loop (the harness runs the tools),
// prompt caching on the system prompt, the tool list and the newest turn.
import { SbxError } from '../../contract/index.js';
import type { Backend, Block, ModelReply, ModelRequest } from '../types.js';

export interface NetOptions {
  apiKey?: string | undefined;
  baseURL?: string | undefined;
  temperature?: number | undefined;
}

export async function anthropicBackend(model: string, o: NetOptions): Promise<Backend> {
  const apiKey = o.apiKey || process.env.ANTHROPIC_API_KEY;
  const baseURL = o.baseURL || process.env.ANTHROPIC_BASE_URL || undefined;
  if (!apiKey) throw new SbxError('E_NO_KEY', `no Anthropic API key for ${model}: set ANTHROPIC_API_KEY (or pass --api-key)`);
  const { default: Anthropic } = await import('@anthropic-ai/sdk');
  const client = new Anthropic({ apiKey, maxRetries: 2, ...(baseURL ? { baseURL } : {}) });
  return {
    name: `anthropic:${model}`,
    async complete(req: ModelRequest): Promise<ModelReply> {
      const tools = req.tools.map((t, i) => ({ ...t, ...(i === req.tools.length - 1 ? { cache_control: { type: 'ephemeral' as const } } : {}) }));
      // The API refuses empty text blocks: drop them, and say "(empty reply)" for a turn left with nothing.
      const kept = req.messages.map((m) => {
        const c = m.content.filter((b) => b.type !== 'text' || b.text.trim() !== '');
        return { role: m.role, content: c.length ? c : [{ type: 'text' as const, text: '(empty reply)' }] };
      });
      const messages = kept.map((m, i) => ({
        role: m.role,
        content: m.content.map((b, j) => {
          const last = i === kept.length - 1 && j === m.content.length - 1;
          const cc = last ? { cache_control: { type: 'ephemeral' as const } } : {};
          if (b.type === 'tool_result') return { type: 'tool_result' as const, tool_use_id: b.tool_use_id, content: b.content, ...cc };
          if (b.type === 'tool_use') return { type: 'tool_use' as const, id: b.id, name: b.name, input: b.input };
          return { type: 'text' as const, text: b.text, ...cc };
        }),
      }));
      let r;
      try {
        r = await client.messages.create({
          model,
          max_tokens: req.maxTokens,
          system: [{ type: 'text', text: req.system, cache_control: { type: 'ephemeral' } }],
          tools: tools as never,
          messages: messages as never,
          ...(o.temperature !== undefined ? { temperature: o.temperature } : {}),
        });
      } catch (err) {
        throw netError('Anthropic', baseURL ?? 'api.anthropic.com', err);
      }
      const content: Block[] = [];
      for (const b of r.content) {
        if (b.type === 'text') content.push({ type: 'text', text: b.text });
        else if (b.type === 'tool_use') content.push({ type: 'tool_use', id: b.id, name: b.name, input: (b.input ?? {}) as Record<string, unknown> });
      }
      const u = r.usage;
      return { content, model: r.model, usage: { input: u.input_tokens, output: u.output_tokens, cache_read: u.cache_read_input_tokens ?? 0, cache_write: u.cache_creation_input_tokens ?? 0 } };
    },
  };
}

/**
 * Why a request never got an answer: the system's error code (ECONNREFUSED, ENOTFOUND, ...) wherever it
 * sits in the cause chain (the SDKs wrap fetch's "fetch failed", which wraps the socket's error), else
 * the innermost message.
 */
function reason(err: unknown): string {
  let msg = '';
  let c = err as { code?: unknown; message?: unknown; cause?: unknown } | undefined;
  for (let i = 0; c && i < 8; i++, c = c.cause as typeof c) {
    if (typeof c.code === 'string' && /^[A-Z][A-Z0-9_]+$/.test(c.code)) return c.code;
    if (typeof c.message === 'string' && c.message) msg = c.message;
  }
  return msg.split('\n')[0] || String(err);
}

/** A network failure as one line: which API, where, what happened. */
export function netError(api: string, where: string, err: unknown): SbxError {
  const e = err as { status?: number; message?: string; cause?: { code?: string; message?: string } };
  const what = e.status ? `HTTP ${e.status}: ${String(e.message ?? '').split('\n')[0]}` : reason(err);
  const fix = e.status === 401 || e.status === 403 ? 'check the API key' : e.status ? 'check the model name and the request limits' : 'check that the server is up and the URL is right';
  return new SbxError('E_MODEL_API', `${api} at ${where} failed (${what}): ${fix}`);
}
