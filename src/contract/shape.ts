// The shape of JSON that sbx wrote itself and reads back on every run (the launcher's report, the
// state files), checked by a table of paths: one small function, where valibot's schemas cost a cold
// `sbx run` ~0.9 ms to build and run in a fresh process (SBX_PHASES, interleaved cold runs) against
// ~0.02 ms here. What others hand sbx (envelopes given to the library, MCP input) is checked with the
// valibot schemas of contract/schema.ts.
//
// A table maps a path to a type: `a.b` is a field of a field, `a[]` every element of an array, `a[].b`
// a field of each. Types: string, number (finite), boolean, object, array; `|null` also allows null,
// a trailing `?` allows the field to be absent. Fields under a null or absent parent are not checked.

export type ShapeTable = Readonly<Record<string, string>>;

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

function typeOk(x: unknown, type: string): boolean {
  if (x === undefined) return type.endsWith('?');
  const t = type.endsWith('?') ? type.slice(0, -1) : type;
  if (x === null) return t.endsWith('|null');
  switch (t.endsWith('|null') ? t.slice(0, -5) : t) {
    case 'string':
      return typeof x === 'string';
    case 'number':
      return typeof x === 'number' && Number.isFinite(x);
    case 'boolean':
      return typeof x === 'boolean';
    case 'object':
      return isObject(x);
    case 'array':
      return Array.isArray(x);
    default:
      throw new Error(`shape: unknown type ${type}`);
  }
}

/** The first place where x does not have the table's shape (`path: what is there`), or null when it does. */
export function shapeProblem(x: unknown, table: ShapeTable): string | null {
  if (!isObject(x)) return 'not a JSON object';
  for (const [path, type] of Object.entries(table)) {
    // Each path's values, with the concrete path each came from (steps[3].us).
    let at: Array<[unknown, string]> = [[x, '']];
    const parts = path.split('.');
    for (let i = 0; i < parts.length && at.length; i++) {
      const each = parts[i]!.endsWith('[]');
      const name = each ? parts[i]!.slice(0, -2) : parts[i]!;
      const next: Array<[unknown, string]> = [];
      for (const [v, where] of at) {
        if (!isObject(v)) continue; // under a null or absent parent: that parent's own entry says if it may be
        const field = v[name];
        const here = where ? `${where}.${name}` : name;
        if (i === parts.length - 1 && !each) {
          if (!typeOk(field, type)) return `${here}: ${JSON.stringify(field) ?? 'missing'}`;
        } else if (each) {
          if (Array.isArray(field)) field.forEach((e, k) => next.push([e, `${here}[${k}]`]));
        } else next.push([field, here]);
      }
      // `a[]` last: the type is each element's.
      if (i === parts.length - 1 && each) for (const [e, w] of next) if (!typeOk(e, type)) return `${w}: ${JSON.stringify(e) ?? 'missing'}`;
      at = next;
    }
  }
  return null;
}
