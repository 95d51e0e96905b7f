// A backend from its spec: scripted:POLICY, anthropic:MODEL, openai:MODEL, ollama:MODEL.
import { SbxError } from '../../contract/index.js';
import type { Task } from '../tasks.js';
import type { Backend } from '../types.js';
import { POLICIES, scriptedBackend, type Policy } from './scripted.js';
import type { NetOptions } from './anthropic.js';

const KINDS = ['scripted', 'anthropic', 'openai', 'ollama'];

/**
 * The backend kind and model a --model spec names, or a usage error: checked for every model before
 * any task is set up, so a mistyped flag is one line at once, whatever the machine lacks.
 */
export function parseModel(spec: string): { kind: string; model: string } {
  const i = spec.indexOf(':');
  const kind = i > 0 ? spec.slice(0, i) : spec;
  const model = i > 0 ? spec.slice(i + 1) : '';
  if (!model) throw new SbxError('E_USAGE', `--model ${spec} names no model: use scripted:oracle, anthropic:MODEL, openai:MODEL or ollama:MODEL`);
  if (!KINDS.includes(kind)) throw new SbxError('E_USAGE', `unknown backend ${JSON.stringify(kind)} in --model ${spec}: use scripted:, anthropic:, openai: or ollama:`);
  if (kind === 'scripted' && !(POLICIES as readonly string[]).includes(model))
    throw new SbxError('E_USAGE', `unknown scripted policy ${JSON.stringify(model)}: use scripted:${POLICIES.join(', scripted:')}`);
  return { kind, model };
}

export async function createBackend(spec: string, task: Task, o: NetOptions): Promise<Backend> {
  const { kind, model } = parseModel(spec);
  switch (kind) {
    case 'scripted':
      return scriptedBackend(model as Policy, task);
    case 'anthropic':
      return (await import('./anthropic.js')).anthropicBackend(model, o);
    case 'openai':
      return (await import('./openai.js')).openaiBackend(model, o);
    default:
      return (await import('./ollama.js')).ollamaBackend(model, o);
  }
}
