// What last.json and last/<key>.json hold, read back: a run's envelope with its state beside it.
// Checked with valibot (contract/shape.ts): the state field by field, as sbx reads it; the verdict by
// its headers only, for only the engine reads it (its delta takes any JSON, bench/fuzz.js). A file
// that is not one (cut, foreign, edited) is set aside by the caller, never trusted.
import * as v from 'valibot';
import { STATUSES, type Verdict, finite, jsonObject, shapeProblem } from '../../contract/index.js';

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
  /**
   * The tests the next run of the command is compared with, when not this run's own (delta-rule.ts
   * carriedAfter): those of the last run that reached them when this one did not; this run's plus the failures
   * it did not run (mocha --bail stopped first). Absent: none carried.
   */
  tests_base?: Verdict['tests'];
}

/** The state's fields; optional: absent in state written by an older sbx, read as null. */
const text = v.nullable(v.string());
const count = v.optional(v.nullable(finite()));
const STATE_FIELDS = {
  id: v.string(),
  tree: text,
  tree_end: v.optional(text),
  edits: count,
  cmd: v.optional(text),
  vkey: v.optional(text),
  same_cmd: count,
  same_all: count,
  unpruned: count,
  unpruned_bytes: count,
  // Read by the engine alone (as the verdict is): an object or null.
  tests_base: v.optional(v.nullable(jsonObject({}))),
} satisfies Record<keyof RunState, v.GenericSchema>;
const SHAPE = jsonObject({
  schema: v.string(),
  verdict: jsonObject({ schema: v.string(), status: v.string() }),
  state: jsonObject(STATE_FIELDS),
});

export interface StateFile {
  verdict: Verdict;
  state: RunState;
}

const STATUS = new Set<string>(STATUSES);

/** What the schema has checked, typed: the headers still to be compared, the state's fields. */
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
