// npm run bench:engine — the verdict engine's latency, throughput and memory, side by side in one run.
// Inputs are built from the real fixture logs (concatenated and repeated), never invented.
//   latency:    a ~36 KB ASan log (asan fixtures concatenated), warm instance, median of 200 runs
//   throughput: a >= 100 MB mixed log (every fixture log, repeated), fed in 1 MiB chunks, median of 5
//   memory:     a 1 GB log streamed in 1 MiB chunks: the Wasm memory and the process RSS at their peak
//   blocks:     repeated failure blocks of every tool and runner (fixtures/lib/blocks.js), each fed to a
//               fresh instance at two sizes (--block-sizes 8,32 MiB): MB/s at the larger, how much more
//               than linear its time grew (time ratio / size ratio: 1.0 is linear), the Wasm memory
//   --blocks-only: only that; --block-filter RE: only the blocks whose name matches
//   --baseline ENGINE.js: also times another build of the engine (a saved dist/engine.js) on the same inputs,
//   runs interleaved, and prints the latency and throughput ratios (this tree / baseline); the blocks too
//   (with --blocks-only as well): each block's MB/s for both, the median of --block-runs (default 3) each
import { performance } from 'node:perf_hooks';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createEngine } from '../dist/engine.js';
import { listCases } from '../fixtures/lib/cases.js';
import { failureBlocks, feedRepeated } from '../fixtures/lib/blocks.js';

const argOf = (name, dflt) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? process.argv[i + 1] : dflt; };
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const engine = await createEngine();
const cases = listCases();
if (process.argv.includes('--blocks-only')) { await blocks(); process.exit(0); }

// Latency: ASan logs until ~36 KB.
const asan = cases.filter((c) => c.id.includes('/asan-'));
const parts = []; let size = 0;
for (let i = 0; size < 36 * 1024; i++) { const l = asan[i % asan.length].log; parts.push(l); size += l.length; }
const report = Buffer.concat(parts);
for (let i = 0; i < 50; i++) engine.verdict(report, { exit: 1 });
const lat = [];
for (let i = 0; i < 200; i++) { const t = performance.now(); engine.verdict(report, { exit: 1 }); lat.push(performance.now() - t); }
const latRender = [];
const env = engine.verdict(report, { exit: 1 });
for (let i = 0; i < 200; i++) { const t = performance.now(); engine.render(env); latRender.push(performance.now() - t); }

// Throughput: every fixture log, repeated to >= 100 MB.
const mixed = Buffer.concat(cases.map((c) => c.log));
const reps = Math.ceil((100 * 1024 * 1024) / mixed.length);
const CH = 1 << 20;
const big = Buffer.concat(Array.from({ length: reps }, () => mixed));
const thr = [];
for (let k = 0; k < 5; k++) {
  const t = performance.now();
  const s = engine.stream({ exit: 1 });
  for (let off = 0; off < big.length; off += CH) s.push(big.subarray(off, off + CH));
  s.end();
  thr.push(big.length / 1048576 / ((performance.now() - t) / 1000));
}

// Memory: 1 GB streamed, chunks cut from the mixed log so nothing big is held by the host.
const GB = 1024 * 1024 * 1024;
let peakWasm = 0; let peakRss = 0;
const rss0 = process.memoryUsage().rss;
const t1 = performance.now();
{
  const s = engine.stream({ exit: 1 });
  let fed = 0; let off = 0; let n = 0;
  while (fed < GB) {
    const part = mixed.subarray(off, off + CH);
    s.push(part);
    off += part.length; fed += part.length;
    if (off >= mixed.length) off = 0;
    if (++n % 64 === 0) { peakWasm = Math.max(peakWasm, engine.memoryBytes()); peakRss = Math.max(peakRss, process.memoryUsage().rss); }
  }
  s.end();
  peakWasm = Math.max(peakWasm, engine.memoryBytes());
}
const gbSecs = (performance.now() - t1) / 1000;

const mb = (b) => (b / 1048576).toFixed(1);
console.log(`latency   ${(report.length / 1024).toFixed(1)} KB ASan log: verdict median ${median(lat).toFixed(3)} ms (goal <= 0.3), render median ${median(latRender).toFixed(3)} ms`);
console.log(`throughput ${mb(big.length)} MB mixed log: median ${median(thr).toFixed(0)} MB/s (goal >= 200), runs ${thr.map((x) => x.toFixed(0)).join(' ')}`);
console.log(`memory    1 GB streamed in ${gbSecs.toFixed(1)} s: Wasm memory peak ${mb(peakWasm)} MB (goal <= 64), process RSS peak ${mb(peakRss)} MB (RSS before ${mb(rss0)} MB, which includes the throughput test's input)`);

const bi = process.argv.indexOf('--baseline');
if (bi > 0) {
  const other = await (await import(pathToFileURL(resolve(process.argv[bi + 1])).href)).createEngine();
  const lat2 = { now: [], base: [] }; const thr2 = { now: [], base: [] };
  for (const e of [engine, other]) for (let i = 0; i < 50; i++) e.verdict(report, { exit: 1 });
  for (let i = 0; i < 200; i++) {
    for (const [k, e] of [['now', engine], ['base', other]]) {
      const t = performance.now(); e.verdict(report, { exit: 1 }); lat2[k].push(performance.now() - t);
    }
  }
  for (let k = 0; k < 5; k++) {
    for (const [key, e] of [['now', engine], ['base', other]]) {
      const t = performance.now();
      const s = e.stream({ exit: 1 });
      for (let off = 0; off < big.length; off += CH) s.push(big.subarray(off, off + CH));
      s.end();
      thr2[key].push(big.length / 1048576 / ((performance.now() - t) / 1000));
    }
  }
  const [ln, lb, tn, tb] = [median(lat2.now), median(lat2.base), median(thr2.now), median(thr2.base)];
  console.log(`vs baseline: latency median ${ln.toFixed(3)} ms vs ${lb.toFixed(3)} ms (ratio ${(ln / lb).toFixed(2)}), ` +
    `throughput median ${tn.toFixed(0)} vs ${tb.toFixed(0)} MB/s (ratio ${(tn / tb).toFixed(2)})`);
}

await blocks();

/** Repeated failure blocks of every tool and runner: memory and linearity (see the header). */
async function blocks() {
  const [small, large] = argOf('block-sizes', '8,32').split(',').map(Number);
  const only = new RegExp(argOf('block-filter', '.'));
  const MiB = 1 << 20;
  const wasm = await WebAssembly.compile(await (await import('node:fs')).promises.readFile(new URL('../build/sbx.wasm', import.meta.url)));
  const rows = [];
  const bi = process.argv.indexOf('--baseline');
  const base = bi > 0 ? (await import(pathToFileURL(resolve(process.argv[bi + 1])).href)).createEngine : null;
  const runs = Number(argOf('block-runs', '3'));
  for (const { name, block } of failureBlocks(cases)) {
    if (!only.test(name)) continue;
    if (base) {
      // Interleaved, this tree then the baseline, at the larger size: medians and their ratio.
      const t = { now: [], base: [] };
      for (let k = 0; k < runs; k++) {
        for (const [key, make] of [['now', () => createEngine({ wasm })], ['base', () => base()]]) {
          const e = await make();
          const t0 = performance.now();
          const s = e.stream({ exit: 1 });
          feedRepeated(s, block, large * MiB);
          s.end();
          t[key].push((large * MiB) / 1e6 / ((performance.now() - t0) / 1000));
        }
      }
      const [n, b] = [median(t.now), median(t.base)];
      console.log(`  ${name.padEnd(26)} ${n.toFixed(0).padStart(5)} MB/s vs baseline ${b.toFixed(0).padStart(5)} MB/s  ratio ${(n / b).toFixed(2)}`);
      continue;
    }
    const ms = []; const mems = []; let mem = 0;
    for (const size of [small, large]) {
      const e = await createEngine({ wasm });
      const t = performance.now();
      const s = e.stream({ exit: 1 });
      feedRepeated(s, block, size * MiB);
      s.end();
      ms.push(performance.now() - t);
      mem = e.memoryBytes();
      mems.push(mem / MiB);
    }
    rows.push({ name, mbs: (large * MiB) / 1e6 / (ms[1] / 1000), growth: ms[1] / ms[0] / (large / small), mem: mem / MiB, memSmall: mems[0] });
  }
  if (base) return;
  const over = rows.filter((r) => r.mem > 64);
  const bent = rows.filter((r) => r.growth > 1.5);
  // Memory that grows with the input (2x or more from the smaller size, past 8 MB) reaches any bound on a
  // long enough log, whether or not these sizes show it.
  const grows = rows.filter((r) => r.mem >= 2 * r.memSmall && r.mem > 8);
  console.log(`blocks    ${rows.length} repeated failure blocks, ${small} and ${large} MiB each: Wasm memory at most ${Math.max(...rows.map((r) => r.mem)).toFixed(1)} MB (goal <= 64; over: ${over.map((r) => r.name).join(' ') || 'none'}), ` +
    `MB/s at ${large} MiB median ${median(rows.map((r) => r.mbs)).toFixed(0)} (slowest ${Math.min(...rows.map((r) => r.mbs)).toFixed(0)}), time growth past linear > 1.5x: ${bent.map((r) => r.name).join(' ') || 'none'}, memory growing with the input: ${grows.map((r) => `${r.name} (${r.memSmall.toFixed(1)} -> ${r.mem.toFixed(1)} MB)`).join(' ') || 'none'}`);
  for (const r of rows) console.log(`  ${r.name.padEnd(22)} ${r.mbs.toFixed(0).padStart(5)} MB/s  growth ${r.growth.toFixed(2)}  memory ${r.memSmall.toFixed(1)} -> ${r.mem.toFixed(1)} MB`);
}
