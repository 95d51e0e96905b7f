#!/usr/bin/env node
// A million generated inputs through the verdict engine (test/helpers/fuzz.js: fast-check arbitraries
// and mutations of every fixture log), split over worker threads. Each input: a verdict, the same
// input streamed in random chunks, and on one in 8 a rendering and a delta. Prints how many trapped,
// came out schema-invalid, broke a bound or differed between the two passes (goal: 0 of each), with
// the largest envelope and engine memory seen and the throughput.
//
//   npm run bench:fuzz [-- --runs 1000000 --workers 2 --seed 1]
//
// Needs dist/ (npm run build). A failure prints its seed and fast-check path, so it reproduces.
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

if (isMainThread) {
  const arg = (name, def) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? Number(process.argv[i + 1]) : def;
  };
  const RUNS = arg('runs', 1_000_000);
  const WORKERS = Math.max(1, arg('workers', Math.min(2, availableParallelism())));
  const SEED = arg('seed', 1);
  const t0 = performance.now();
  const parts = await Promise.all(Array.from({ length: WORKERS }, (_, w) => new Promise((done, fail) => {
    const runs = Math.floor(RUNS / WORKERS) + (w < RUNS % WORKERS ? 1 : 0);
    const worker = new Worker(fileURLToPath(import.meta.url), { workerData: { runs, seed: SEED * 1000 + w } });
    worker.on('message', (m) => {
      if (m.progress) process.stderr.write(`  worker ${w}: ${m.progress} of ${runs}\n`);
      else done(m);
    });
    worker.on('error', fail);
  })));
  const secs = (performance.now() - t0) / 1000;
  const sum = (k) => parts.reduce((s, p) => s + p[k], 0);
  const kinds = {};
  for (const p of parts) for (const [k, n] of Object.entries(p.failures)) kinds[k] = (kinds[k] ?? 0) + n;
  const n = sum('runs');
  console.log(`\nfuzz: ${n} generated inputs (seed ${SEED}, ${WORKERS} workers) in ${secs.toFixed(1)} s, ${(n / secs).toFixed(0)} inputs/s, ${(sum('bytes') / 1e6).toFixed(0)} MB of input`);
  console.log(`  largest input ${Math.max(...parts.map((p) => p.maxInput))} bytes; largest envelope ${Math.max(...parts.map((p) => p.maxEnvelope))} bytes; engine memory at most ${(Math.max(...parts.map((p) => p.maxMemory)) / 1048576).toFixed(1)} MiB`);
  for (const k of ['trap', 'schema', 'bound', 'differs']) console.log(`  ${k.padEnd(8)} ${kinds[k] ?? 0}`);
  for (const p of parts) for (const e of p.examples) console.log(`  example: ${e}`);
  const bad = Object.values(kinds).reduce((a, b) => a + b, 0);
  console.log(bad === 0 ? 'goal: 0 traps, every envelope schema-valid and bounded, same bytes twice: met' : `goal NOT met: ${bad} failing inputs`);
  process.exit(bad === 0 ? 0 : 1);
} else {
  const fc = (await import('fast-check')).default;
  const { inputArbitrary, checkInput, fuzzContext } = await import(join(root, 'test', 'helpers', 'fuzz.js'));
  const { engine, logs, blocks, RunResultSchema } = await fuzzContext(root);
  const { runs, seed } = workerData;
  const out = { runs: 0, bytes: 0, maxInput: 0, maxEnvelope: 0, maxMemory: 0, failures: {}, examples: [] };
  let prev = null;
  const res = fc.check(fc.property(inputArbitrary(logs, blocks), (input) => {
    const r = checkInput(engine, RunResultSchema, input, prev);
    out.runs++;
    out.bytes += input.bytes.length;
    out.maxInput = Math.max(out.maxInput, input.bytes.length);
    out.maxMemory = Math.max(out.maxMemory, engine.memoryBytes());
    if (out.runs % 100_000 === 0) parentPort.postMessage({ progress: out.runs });
    if (r.kind) {
      out.failures[r.kind] = (out.failures[r.kind] ?? 0) + 1;
      if (out.examples.length < 5) out.examples.push(`${r.kind} (${r.why}) at run ${out.runs}, seed ${seed}`);
      return true; // counted, and the run goes on: the figure is how many fail, not the first
    }
    out.maxEnvelope = Math.max(out.maxEnvelope, r.envelopeBytes);
    prev = r.verdict;
    return true;
  }), { numRuns: runs, seed });
  if (res.failed) out.examples.push(`fast-check: ${res.errorInstance?.message ?? 'failed'}`);
  parentPort.postMessage(out);
}
