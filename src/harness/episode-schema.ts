// An episode record read back from disk (a JSONL line of an earlier run, maybe another version's, maybe
// torn): checked before analysis counts it.
import * as v from 'valibot';

const n = v.number();
const Ref = v.object({ file: v.string(), line: n });

export const EpisodeSchema = v.looseObject({
  schema: v.literal('sbx.episode/1'),
  key: v.string(),
  task: v.string(),
  condition: v.string(),
  model: v.string(),
  seed: n,
  success: v.boolean(),
  stop: v.picklist(['done', 'budget', 'api-cap', 'error']),
  error: v.nullable(v.string()),
  api_turns: n,
  tool_calls: n,
  run_calls: n,
  nudges: n,
  tokens: v.object({ input: n, output: n, cache_read: n, cache_write: n }),
  cost_usd: v.nullable(n),
  price_date: v.string(),
  wall_ms: n,
  raw_bytes: n,
  raw_chars: v.optional(n),
  shown_chars: n,
  statuses: v.array(v.string()),
  first_edit: v.nullable(v.object({ file: v.string(), lines: v.array(n) })),
  edit_hit: v.boolean(),
  edit_hit_any: v.optional(v.boolean()),
  decoy_touched: v.boolean(),
  progress: n,
  ran_buggy_first: v.boolean(),
  pre_raw_sha256: v.nullable(v.string()),
  pre_raw_timing_masked_sha256: v.nullable(v.string()),
  fault: v.nullable(Ref),
  fix: v.object({ file: v.string(), lines: v.tuple([n, n]) }),
  decoy: v.nullable(Ref),
  corrupt_applied: v.nullable(v.boolean()),
  tampered: v.optional(v.array(v.object({ path: v.string(), how: v.string(), when: v.string() }))),
});
