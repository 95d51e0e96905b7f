// A backend from its spec: scripted:POLICY, anthropic:MODEL, openai:MODEL, ollama:MODEL.
import { SbxError } from '../../contract/index.js';
import type { Task } from '../tasks.js';
import type { Backend } from '../types.js';
import { scriptedBackend } from './scripted.js';
import type { NetOptions } from './anthropic.js';

export async function createBackend(spec: string, task: Task, o: NetOptions): Promise<Backend> {
  const i = spec.indexOf(':');
  const kind = i > 0 ? spec.slice(0, i) : spec;
  const model = i > 0 ? spec.slice(i + 1) : '';
  if (!model) throw new SbxError('E_USAGE', `--model ${spec} names no model: use scripted:oracle, anthropic:MODEL, openai:MODEL or ollama:MODEL`);
  switch (kind) {
    case 'scripted':
      return scriptedBackend(model, task);
    case 'anthropic':
      return (await import('./anthropic.js')).anthropicBackend(model, o);
    case 'openai':
      return (await import('./openai.js')).openaiBackend(model, o);
    case 'ollama':
      return (await import('./ollama.js')).ollamaBackend(model, o);
    default:
      throw new SbxError('E_USAGE', `unknown backend ${JSON.stringify(kind)} in --model ${spec}: use scripted:, anthropic:, openai: or ollama:`);
  }
}
