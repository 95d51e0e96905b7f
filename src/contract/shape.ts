// JSON that sbx wrote itself and reads back on every run (the launcher's report, the state files),
// checked with valibot: the first place where it is not as the schema says, as `path: the value there`
// (`steps[3].us: "x"`, `state.tree: missing`), for the caller's note. What others hand sbx (envelopes
// given to the library, MCP input) is checked with the schemas of contract/schema.ts.
import * as v from 'valibot';

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/** An object with these fields, not an array (valibot's object takes one). */
export const jsonObject = <E extends v.ObjectEntries>(entries: E) => v.pipe(v.custom<Record<string, unknown>>(isObject), v.object(entries));

/** A number JSON can hold (JSON.parse reads 1e999 as Infinity). */
export const finite = () => v.pipe(v.number(), v.finite());

/** The first place where x does not have the schema's shape (`path: what is there`), or null when it does. */
export function shapeProblem(x: unknown, schema: v.GenericSchema): string | null {
  if (!isObject(x)) return 'not a JSON object';
  const checked = v.safeParse(schema, x, { abortEarly: true });
  if (checked.success) return null;
  const issue = checked.issues[0];
  const path = (issue.path ?? []).map((p, i) => (typeof p.key === 'number' ? `[${p.key}]` : `${i > 0 ? '.' : ''}${String(p.key)}`)).join('');
  return `${path}: ${JSON.stringify(issue.input) ?? 'missing'}`;
}
