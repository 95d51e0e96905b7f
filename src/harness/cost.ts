// Cache-aware cost of an episode from the dated price table (prices.json).
import prices from './prices.json' with { type: 'json' };
import type { Usage } from './types.js';

type Price = { input: number; output: number; cache_read: number; cache_write: number };
const table = prices.models as Record<string, Price>;
const keys = Object.keys(table).sort((a, b) => b.length - a.length);

export const PRICE_DATE = prices.date;

/** USD, or null when the model is not in the table (a local model served under its own name counts 0 only when listed). */
export function costUsd(model: string, u: Usage, backend: string): number | null {
  if (backend.startsWith('ollama:')) return 0;
  const k = keys.find((p) => model.startsWith(p));
  if (!k) return null;
  const p = table[k]!;
  return (u.input * p.input + u.output * p.output + u.cache_read * p.cache_read + u.cache_write * p.cache_write) / 1e6;
}
