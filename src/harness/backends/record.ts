// Record/replay of a model's outputs: a recording holds every reply of one episode, in order; replaying
// it drives the same episode again (the tools re-run in sbx, deterministically) without the model.
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import * as v from 'valibot';
import { SbxError } from '../../contract/index.js';
import type { Backend, ModelReply, ModelRequest } from '../types.js';

const ReplySchema = v.object({
  content: v.array(
    v.union([v.object({ type: v.literal('text'), text: v.string() }), v.object({ type: v.literal('tool_use'), id: v.string(), name: v.string(), input: v.record(v.string(), v.unknown()) })]),
  ),
  usage: v.object({ input: v.number(), output: v.number(), cache_read: v.number(), cache_write: v.number() }),
  model: v.string(),
});

export function recording(inner: Backend, file: string): Backend {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, '');
  return {
    name: inner.name,
    async complete(req: ModelRequest): Promise<ModelReply> {
      const r = await inner.complete(req);
      appendFileSync(file, `${JSON.stringify(r)}\n`);
      return r;
    },
  };
}

export function replaying(name: string, file: string): Backend {
  if (!existsSync(file)) throw new SbxError('E_NO_RECORDING', `no recording at ${file}: record the episode first (--record DIR) or point --replay at the directory that holds it`);
  const replies = readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l, i) => {
      const r = v.safeParse(ReplySchema, JSON.parse(l));
      if (!r.success) throw new SbxError('E_BAD_RECORDING', `${file} line ${i + 1} is not a recorded reply (${r.issues[0]?.message}): re-record the episode`);
      return r.output as ModelReply;
    });
  let i = 0;
  return {
    name,
    async complete(): Promise<ModelReply> {
      const r = replies[i++];
      if (!r) throw new SbxError('E_REPLAY_DIVERGED', `the episode asked for reply ${i} but ${file} holds ${replies.length}: the episode diverged from its recording`);
      return structuredClone(r);
    },
  };
}
