#!/usr/bin/env node
// Two builds of the verdict engine on the same inputs, every output compared byte for byte: for a change
// that must not change any verdict (the dispatcher's filter, a faster scanner). Inputs: every fixture log,
// every repeated failure block (fixtures/lib/blocks.js), generated inputs (test/helpers/fuzz.js), and
// fixture logs cut at random line boundaries and joined in random pairs (a parser met in any state).
// Outputs: the verdict JSON, the rendered text, the delta against the previous input's verdict.
//
//   node bench/engine-compare.js OLD/engine.js [NEW/engine.js] [--fuzz N] [--pairs N] [--seed S]
//   node bench/engine-compare.js --self [NEW/engine.js]   the same build, its dispatcher's filter off vs on
//
// NEW defaults to this tree's dist/engine.js. Exits 1 on the first difference, printing the input; with --all,
// prints every differing input and exits 1 with their count: for a change
// meant to alter some verdicts, to see that it alters only those. --ignore KEY (repeatable) drops an object
// key of that name from both outputs' JSON before they are compared (a field a change adds on purpose).
import { resolve, join, dirname } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { listCases } from '../fixtures/lib/cases.js';
import { failureBlocks } from '../fixtures/lib/blocks.js';
import { inputArbitrary, repeatBlock } from '../test/helpers/fuzz.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const num = (name, dflt) => { const i = argv.indexOf(`--${name}`); return i >= 0 ? Number(argv[i + 1]) : dflt; };
const self = argv.includes('--self');
const all = argv.includes('--all');
const ignored = new Set(argv.flatMap((a, i) => (a === '--ignore' && argv[i + 1] ? [argv[i + 1]] : [])));
const strip = (json) => (ignored.size ? JSON.stringify(JSON.parse(json), (k, v) => (ignored.has(k) ? undefined : v)) : json);
const paths = argv.filter((a, i) => !a.startsWith('--') && !(i > 0 && argv[i - 1].startsWith('--') && !['--self', '--all'].includes(argv[i - 1])));
const newPath = resolve(self ? paths[0] ?? join(root, 'dist/engine.js') : paths[1] ?? join(root, 'dist/engine.js'));
if (!self && !paths[0]) { console.error('engine-compare: give the old build\'s engine.js (or --self)'); process.exit(2); }
const load = async (p, o) => (await import(pathToFileURL(p).href)).createEngine(o);
const oldE = self ? await load(newPath, { dispatchFilter: false }) : await load(resolve(paths[0]));
const newE = await load(newPath);

const seed = num('seed', 32);
let s = seed >>> 0;
const rnd = (n) => { s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x9e3779b9) >>> 0; s = (s ^ (s >>> 12)) >>> 0; return s % n; };

const cases = listCases();
const logs = cases.map((c) => new Uint8Array(c.log));
const blocks = failureBlocks(cases);
const inputs = [];
for (const c of cases) inputs.push({ name: `fixture ${c.id}`, bytes: new Uint8Array(c.log), opts: { exit: c.run.exit ?? null, signal: c.run.signal ?? null, timedOut: Boolean(c.run.timed_out) } });
for (const b of blocks) inputs.push({ name: `block ${b.name}`, bytes: repeatBlock(new Uint8Array(b.block), 256 << 10, rnd(1 << 30)), opts: { exit: 1 } });
// Line starts of a log, for cuts at line boundaries.
const starts = (b) => { const o = [0]; for (let i = 0; i < b.length; i++) if (b[i] === 10) o.push(i + 1); return o; };
const piece = (b) => { const st = starts(b); const x = st[rnd(st.length)]; const y = st[rnd(st.length)]; return b.subarray(Math.min(x, y), Math.max(x, y) || b.length); };
const PAIRS = num('pairs', 4 * cases.length);
for (let k = 0; k < PAIRS; k++) {
  const i = k % logs.length; const j = rnd(logs.length);
  const a = piece(logs[i]); const b = rnd(4) === 0 ? logs[j] : piece(logs[j]);
  const bytes = new Uint8Array(a.length + b.length); bytes.set(a); bytes.set(b, a.length);
  inputs.push({ name: `pair ${k}: ${cases[i].id} cut + ${cases[j].id}`, bytes, opts: { exit: rnd(3) === 0 ? 0 : 1 } });
}
const FUZZ = num('fuzz', 3000);
const gen = fc.sample(inputArbitrary(logs, blocks.map((b) => new Uint8Array(b.block))), { numRuns: FUZZ, seed });
gen.forEach((g, k) => inputs.push({ name: `fuzz ${k} (seed ${seed})`, bytes: g.bytes, opts: g.opts }));

let prevOld = null; let prevNew = null; let bytes = 0; const differ = [];
const t0 = performance.now();
for (const inp of inputs) {
  const run = (e, prev) => {
    try {
      const env = e.verdict(inp.bytes, inp.opts);
      const v = strip(JSON.stringify(env));
      const text = e.render(env);
      const d = strip(JSON.stringify(e.delta(prev, env.verdict, { treeChanged: true, sameRuns: 1 })));
      return { env, out: [v, text, d] };
    } catch (err) { return { env: null, out: [`threw ${err.code}: ${err.message}`, '', ''] }; }
  };
  const o = run(oldE, prevOld); const n = run(newE, prevNew);
  const what = ['verdict JSON', 'rendered text', 'delta'];
  for (let k = 0; k < 3; k++) {
    if (o.out[k] !== n.out[k]) {
      differ.push(inp.name);
      let at = 0; while (o.out[k][at] === n.out[k][at]) at++;
      console.error(`engine-compare: ${inp.name}: the ${what[k]} differs at ${at}:\n  old ${JSON.stringify(o.out[k].slice(Math.max(0, at - 80), at + 160))}\n  new ${JSON.stringify(n.out[k].slice(Math.max(0, at - 80), at + 160))}`);
      if (!all) process.exit(1);
      break;
    }
  }
  prevOld = o.env?.verdict ?? null; prevNew = n.env?.verdict ?? null;
  bytes += inp.bytes.length;
}
if (differ.length > 0) { console.error(`engine-compare: ${differ.length} of ${inputs.length} inputs differ`); process.exit(1); }
console.log(`engine-compare: ${inputs.length} inputs (${cases.length} fixture logs, ${blocks.length} repeated blocks, ${PAIRS} cut pairs, ${FUZZ} generated; ${(bytes / 1048576).toFixed(1)} MB): verdict JSON, rendered text and delta identical${self ? ' (filter off vs on)' : ''} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
