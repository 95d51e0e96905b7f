// One layer per folder, imports in one direction (issue 12):
//   contract <- engine, launcher <- host <- harness, integrations <- cli; viewer -> engine
// contract and engine run in a browser too: no node: imports there.
// One entrance per layer (issue 34): another layer is reached through its index.ts only.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const SRC = new URL('../../src/', import.meta.url).pathname;
const ALLOWED = {
  contract: ['contract'],
  engine: ['engine', 'contract'],
  launcher: ['launcher', 'contract'],
  host: ['host', 'launcher', 'engine', 'contract'],
  cli: ['cli', 'host', 'launcher', 'engine', 'contract', 'harness', 'integrations'],
  integrations: ['integrations', 'host', 'launcher', 'engine', 'contract'],
  harness: ['harness', 'host', 'engine', 'contract', 'launcher'],
  viewer: ['viewer', 'engine', 'contract'],
};
const BROWSER = new Set(['contract', 'engine', 'viewer']);

function files(dir) {
  const out = [];
  for (const n of readdirSync(dir)) {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) out.push(...files(p));
    else if (/\.tsx?$/.test(n)) out.push(p);
  }
  return out;
}
const layerOf = (p) => relative(SRC, p).split('/')[0];

test('every folder of src/ is a known layer', () => {
  for (const d of readdirSync(SRC)) if (statSync(join(SRC, d)).isDirectory()) assert.ok(d in ALLOWED, `src/${d} is not in the layer table`);
});

test('imports go one way only; browser layers use no Node API', () => {
  const bad = [];
  for (const f of files(SRC)) {
    const from = layerOf(f);
    const text = readFileSync(f, 'utf8');
    for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)) {
      const spec = m[1] ?? m[2];
      if (spec.startsWith('.')) {
        const target = resolve(dirname(f), spec);
        if (!target.startsWith(SRC)) continue; // package.json, build/sbx.wasm
        const to = layerOf(target);
        if (!ALLOWED[from]?.includes(to)) bad.push(`${relative(SRC, f)} -> ${spec} (${from} may not import ${to})`);
        else if (to !== from && relative(SRC, target).replace(/\.[jt]s$/, '') !== `${to}/index`) bad.push(`${relative(SRC, f)} -> ${spec} (reaches past ${to}'s entrance, src/${to}/index.ts)`);
      } else if (BROWSER.has(from) && (spec.startsWith('node:') || ['fs', 'path', 'os', 'child_process'].includes(spec))) {
        bad.push(`${relative(SRC, f)} imports ${spec}: ${from} runs in a browser`);
      }
    }
  }
  assert.equal(bad, []);
});

test('every layer below the CLI has its entrance', () => {
  for (const d of readdirSync(SRC)) {
    if (statSync(join(SRC, d)).isDirectory() && d !== 'viewer' && d !== 'cli') assert.ok(statSync(join(SRC, d, 'index.ts')).isFile(), `src/${d}/index.ts is missing`);
  }
});

test.run();
