// npm run bench:stream — a run's verdict against the size of its output: `sbx run -- cat LOG` (run(), in
// process, the CLI's path without the rendering) on a mixed log built by repeating every real fixture log
// (written to a temp dir, never committed), at several sizes.
//   ready:      ms from the launcher's exit (phase `launched`) to the verdict in hand (phase `verdict`)
//   after exit: ms from the launcher's exit to the verdict recorded (phase `written`: the state, the delta)
//   MB/s:       the log's size over the run's whole time (total_ms: set-up, the command, the verdict)
//   engine:     the Wasm memory of the engine after the run (its peak: memory only grows)
//   per 100 MiB: the engine alone (a stream fed 1 MiB chunks) on the biggest size, the time of each
//                100 MiB, to see whether later ones cost more
// Usage: node bench/stream.js [--sizes 200,1024] [--runs 3] [--max-log BYTES] [--paced] [--exit N] [--content NAME] [--as USER]   (sizes in MiB)
// --content NAME: one runner's repeated failure block (fixtures/lib/blocks.js, e.g. runners/tap: the names
// `node bench/engine.js --blocks-only` lists) instead of the mixed log: content the engine reads slowly.
// The log is cat-ed whole, as fast as the pipe takes it; --max-log defaults to twice the largest size,
// so the log is kept whole (the cap's own path is test/e2e/log-cap's and stream-verdict's).
process.env.SBX_PHASES = '1';
(await import('./as-user.js')).runAsUser(import.meta.url);
const { mkdtempSync, openSync, writeSync, closeSync, rmSync } = await import('node:fs');
const { tmpdir } = await import('node:os');
const { join } = await import('node:path');
const { performance } = await import('node:perf_hooks');
const { run, createEngine, takePhases } = await import('../dist/index.js');
const { listCases } = await import('../fixtures/lib/cases.js');

const arg = (name, dflt) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? process.argv[i + 1] : dflt; };
const sizes = arg('sizes', '200,1024').split(',').map(Number);
const runs = Number(arg('runs', '3'));
const MiB = 1 << 20;
const maxLog = Number(arg('max-log', String(2 * Math.max(...sizes) * MiB)));
// --paced: the log in 8 MiB parts, each cat-ed after a 20 ms sleep (a command that writes as it works,
// not as fast as the pipe takes it).
const paced = process.argv.includes('--paced');
const PART = 8 * MiB;
// --exit N: how the command exits (default 1, as a run whose log holds compiler errors and a sanitizer
// report does). With 0, a log holding a traceback reads differently than it was read while the command ran
// (a traceback is fatal unless the command exited 0): the verdict then reads the log back, as before.
const exitCode = Number(arg('exit', '1'));
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };

const content = arg('content', null);
const mixed = content === null ? Buffer.concat(listCases().map((c) => c.log)) : (await import('../fixtures/lib/blocks.js')).failureBlocks(listCases()).find((b) => b.name === content)?.block;
if (!mixed) throw new Error(`--content ${content}: no such block (see node bench/engine.js --blocks-only)`);
const dir = mkdtempSync(join(tmpdir(), 'sbx-bench-stream-'));
const engine = await createEngine();
try {
  for (const mib of sizes) {
    const work = join(dir, `w${mib}`);
    const { mkdirSync } = await import('node:fs');
    mkdirSync(work);
    const size = mib * MiB;
    const file = paced ? 'part.log' : 'big.log';
    const fd = openSync(join(work, file), 'w');
    for (let at = 0, want = paced ? PART : size; at < want;) { const n = Math.min(mixed.length, want - at); writeSync(fd, mixed, 0, n); at += n; }
    closeSync(fd);
    const cmd = paced ? ['sh', '-c', `for i in $(seq ${size / PART}); do sleep 0.02; cat part.log; done; exit ${exitCode}`] : ['sh', '-c', `cat big.log; exit ${exitCode}`];
    const after = []; const ready = []; const rate = []; const walls = [];
    for (let k = 0; k < runs; k++) {
      takePhases();
      const env = await run({ cmd, work, maxLog, engine });
      const marks = Object.fromEntries(takePhases().trim().replace(/^phases: /, '').split(' ').map((m) => m.split('=')).map(([n, t]) => [n, Number(t)]));
      if (env.outcome.output_bytes !== size) throw new Error(`cat gave ${env.outcome.output_bytes} bytes, not ${size}`);
      after.push(marks.written - marks.launched);
      ready.push(marks.verdict - marks.launched);
      if (process.env.BENCH_PHASES) console.log(Object.entries(marks).map(([n, t]) => `${n}=${(t - marks.launched).toFixed(0)}`).join(' '));
      rate.push(size / MiB / (env.outcome.total_ms / 1000));
      walls.push(env.outcome.wall_ms);
    }
    console.log(`${String(mib).padStart(5)} MiB: ready median ${median(ready).toFixed(0)} ms (${ready.map((x) => x.toFixed(0)).join(' ')}), after exit median ${median(after).toFixed(0)} ms (${after.map((x) => x.toFixed(0)).join(' ')}), end-to-end median ${median(rate).toFixed(0)} MB/s (${rate.map((x) => x.toFixed(0)).join(' ')}), command wall median ${median(walls)} ms, engine memory ${(engine.memoryBytes() / MiB).toFixed(1)} MB`);
    rmSync(work, { recursive: true, force: true });
  }
  // The engine alone, per 100 MiB of the biggest size.
  const total = Math.max(...sizes) * MiB;
  const s = engine.stream({ exit: 0 });
  const per = []; let t = performance.now(); let fed = 0; let off = 0;
  while (fed < total) {
    const part = mixed.subarray(off, off + MiB);
    s.push(part); fed += part.length; off += part.length;
    if (off >= mixed.length) off = 0;
    if (fed >= (per.length + 1) * 100 * MiB) { const now = performance.now(); per.push(now - t); t = now; }
  }
  s.end();
  console.log(`engine alone, ms per 100 MiB: ${per.map((x) => x.toFixed(0)).join(' ')}; engine memory ${(engine.memoryBytes() / MiB).toFixed(1)} MB`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
