// What last.json and last/<key>.json hold, read back: a run's envelope with its state beside it.
// Checked by a shape table (contract/shape.ts), not a valibot schema: this is on every cold `sbx run`'s
// path. The state is checked field by field, as sbx reads it; the verdict by its headers only, for
// only the engine reads it (its delta takes any JSON, bench/fuzz.js). A file that is not one (cut,
// foreign, edited) is set aside by the caller, never trusted.
import { STATUSES, type Verdict, shapeProblem, type ShapeTable } from '../../contract/index.js';

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

/** The state's fields; `?`: absent in state written by an older sbx, read as null. */
const STATE_FIELDS: Readonly<Record<keyof RunState, string>> = {
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
const SHAPE: ShapeTable = {
  schema: 'string',
  verdict: 'object',
  'verdict.schema': 'string',
  'verdict.status': 'string',
  state: 'object',
  ...Object.fromEntries(Object.entries(STATE_FIELDS).map(([k, t]) => [`state.${k}`, t])),
};

export interface StateFile {
  verdict: Verdict;
  state: RunState;
}

const STATUS = new Set<string>(STATUSES);

/** What the shape table has checked, typed: the headers still to be compared, the state's fields. */
interface Checked {
  schema: string;
  verdict: { schema: string; status: string };
  state: Record<string, unknown>;
}

/** The file's text as a state file, or why it is not one (one phrase, for the caller's note). */
export function readStateFile(text: string): StateFile | { problem: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return { problem: `not valid JSON (${(err as Error).message})` };
  }
  const shape = shapeProblem(json, SHAPE);
  if (shape) return { problem: `not a sbx state file (${shape})` };
  const x = json as Checked;
  const header =
    x.schema !== 'sbx.run-result/1'
      ? `schema: ${JSON.stringify(x.schema)}, not "sbx.run-result/1"`
      : x.verdict.schema !== 'sbx.verdict/1'
        ? `verdict.schema: ${JSON.stringify(x.verdict.schema)}, not "sbx.verdict/1"`
        : !STATUS.has(x.verdict.status)
          ? `verdict.status: ${JSON.stringify(x.verdict.status)}`
          : null;
  if (header) return { problem: `not a sbx state file (${header})` };
  const state = Object.fromEntries(Object.keys(STATE_FIELDS).map((k) => [k, x.state[k] ?? null])) as unknown as RunState;
  return { verdict: x.verdict as unknown as Verdict, state };
}
