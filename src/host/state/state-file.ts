// What last.json and last/<key>.json hold, read back: a run's envelope with its state beside it.
//
// Checked by a table, not a valibot schema: this is on every cold `sbx run`'s path, where building and
// running even a schema of these dozen fields cost ~0.9 ms (valibot's first run in a fresh process;
// SBX_PHASES, interleaved cold runs) against ~0.02 ms here. The state is checked field by field, as sbx
// reads it; the verdict by its headers only, for only the engine reads it (its delta takes any JSON,
// bench/fuzz.js). A file that is not one (cut, foreign, edited) is set aside by the caller, never trusted.
import { STATUSES, type Verdict } from '../../contract/schema.js';

/** What a run leaves for the next: its id, the work tree at its start and end, the edit count, its streaks. */
export interface RunState {
  id: string;
  tree: string | null;
  tree_end: string | null;
  /** How many times the user changed the tree between runs, as of this run (null: unknown). */
  edits: number | null;
  cmd: string | null;
  /** The verdict's streak key (verdictKey) and how many runs in a row had it: of this command, of all. */
  vkey: string | null;
  same_cmd: number | null;
  same_all: number | null;
  /** Runs recorded, and bytes of logs they added, since logs/ was last pruned. */
  unpruned: number | null;
  unpruned_bytes: number | null;
}

/** Each field's type; `?`: absent in state written by an older sbx, read as null. */
const FIELDS: Record<keyof RunState, 'string' | 'string|null' | 'string|null?' | 'number|null?'> = {
  id: 'string',
  tree: 'string|null',
  tree_end: 'string|null?',
  edits: 'number|null?',
  cmd: 'string|null?',
  vkey: 'string|null?',
  same_cmd: 'number|null?',
  same_all: 'number|null?',
  unpruned: 'number|null?',
  unpruned_bytes: 'number|null?',
};

export interface StateFile { verdict: Verdict; state: RunState }

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const STATUS = new Set<string>(STATUSES);

/** The file's text as a state file, or why it is not one (one phrase, for the caller's note). */
export function readStateFile(text: string): StateFile | { problem: string } {
  let json: unknown;
  try { json = JSON.parse(text); } catch (err) { return { problem: `not valid JSON (${(err as Error).message})` }; }
  if (!isObject(json)) return { problem: 'not a sbx state file (not a JSON object)' };
  if (json.schema !== 'sbx.run-result/1') return { problem: `not a sbx state file (schema is ${JSON.stringify(json.schema) ?? 'missing'}, not "sbx.run-result/1")` };
  const vd = json.verdict;
  if (!isObject(vd) || vd.schema !== 'sbx.verdict/1') return { problem: 'not a sbx state file (verdict: not a sbx.verdict/1)' };
  if (typeof vd.status !== 'string' || !STATUS.has(vd.status)) return { problem: `not a sbx state file (verdict.status: ${JSON.stringify(vd.status) ?? 'missing'})` };
  const st = json.state;
  if (!isObject(st)) return { problem: 'not a sbx state file (state: not an object)' };
  const state: Record<string, unknown> = {};
  for (const [name, type] of Object.entries(FIELDS)) {
    const x = st[name];
    const ok = x === undefined ? type.endsWith('?') : x === null ? type.includes('null') : typeof x === type.split('|')[0] && (typeof x !== 'number' || Number.isFinite(x));
    if (!ok) return { problem: `not a sbx state file (state.${name}: ${JSON.stringify(x) ?? 'missing'})` };
    state[name] = x ?? null;
  }
  return { verdict: vd as unknown as Verdict, state: state as unknown as RunState };
}
