#!/usr/bin/env node
// Soak: 10 000 sequential run()s of /bin/true in one process, then 8 writers at once on one state
// directory (8 processes, and 8 concurrent run()s in this one). Prints what leaks would show: open
// fds, zombie children, host mounts, sbx temp files in the temp dir and the state dir, RSS over the
// runs (first and last tenth), the size of logs/ against the pruning bound, and the history's count.
//
//   npm run bench:soak [-- --runs 10000 --writers 8 --each 40] [--default-heap]
//
// The soak runs in a node whose young generation is fixed at V8's own cap (two 16 MB semi-spaces,
// --min/--max-semi-space-size=16) and with --expose-gc. With V8's defaults the new space starts at
// 1 MB and doubles up to that cap while runs allocate, in steps a few thousand runs apart: RSS then
// grows by ~30 MB and stops, which an RSS check reads as a leak although the live heap after a GC
// stays flat (measured: heapTotal 14 -> 22 -> 39 MB over 6 000 runs, live heap 5.2 -> 5.6 MB; with
// the new space fixed, RSS 101 -> 102 MB). Fixed, growth of RSS is retention. --default-heap runs
// with V8's defaults, to see those steps.
// Needs dist/ and build/sbx-launch (npm run build).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, def) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : def;
};
const RUNS = arg('runs', 10_000);
const WRITERS = arg('writers', 8);
const EACH = arg('each', 40);
for (const [name, n] of [['runs', RUNS], ['writers', WRITERS], ['each', EACH]]) {
  if (!Number.isInteger(n) || n < 1) {
    console.error(`bench:soak: --${name} must be a whole number of at least 1 (got ${process.argv[process.argv.indexOf(`--${name}`) + 1]})`);
    process.exit(2);
  }
}
// RSS is sampled 100 times over the runs (every run when there are fewer), the live heap 10 times:
// the tenths below have samples for any --runs.
const RSS_EVERY = Math.max(1, Math.floor(RUNS / 100));
const LIVE_EVERY = Math.max(1, Math.floor(RUNS / 10));
const REPORT_EVERY = Math.max(1, Math.min(1000, LIVE_EVERY));

if (process.argv[2] === '--writer') {
  // One of the concurrent writers: EACH runs on the given work dir, then exit.
  const { run } = await import(join(root, 'dist', 'index.js'));
  for (let i = 0; i < Number(process.argv[4]); i++) {
    const env = await run({ cmd: ['/bin/sh', '-c', `echo writer ${process.pid} run ${i}`], work: process.argv[3] });
    if (env.verdict.status !== 'pass') { console.error(`run ${i}: ${env.verdict.status}`); process.exit(1); }
  }
  process.exit(0);
}

// The soak itself runs with the young generation fixed (see the header), unless --default-heap.
const HEAP_FLAGS = ['--min-semi-space-size=16', '--max-semi-space-size=16', '--expose-gc'];
const fixedHeap = HEAP_FLAGS.every((f) => process.execArgv.includes(f));
if (!fixedHeap && !process.argv.includes('--default-heap')) {
  const r = spawnSync(process.execPath, [...process.execArgv, ...HEAP_FLAGS, fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(r.status ?? 1);
}

const { run } = await import(join(root, 'dist', 'index.js'));
const { KEEP_LOGS } = { KEEP_LOGS: Number(process.env.SBX_KEEP_LOGS ?? 200) };
const fds = () => readdirSync('/proc/self/fd').length;
const mounts = () => readFileSync('/proc/self/mountinfo', 'utf8').split('\n').filter(Boolean).length;
const rssMb = () => process.memoryUsage().rss / 1048576;
function zombies() {
  let n = 0;
  for (const p of readdirSync('/proc')) {
    if (!/^\d+$/.test(p)) continue;
    try {
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (f[0] === 'Z' && Number(f[1]) === process.pid) n++;
    } catch { /* gone */ }
  }
  return n;
}
const children = () => {
  let n = 0;
  for (const p of readdirSync('/proc')) {
    if (!/^\d+$/.test(p)) continue;
    try {
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === process.pid) n++;
    } catch { /* gone */ }
  }
  return n;
};
const tmpFiles = () => readdirSync(tmpdir()).filter((n) => n.startsWith('sbx-seccomp-')).length;
const stateLitter = (dir) => readdirSync(dir).filter((n) => n.includes('.tmp-') || n.endsWith('.old') || n.startsWith('.probe-') || n === 'lock').length
  + readdirSync(join(dir, 'last')).filter((n) => n.includes('.tmp-') || n.endsWith('.old')).length;
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
// The k-th of n parts of xs, never empty while xs is not (a short series repeats its samples).
const part = (xs, k, n) => {
  const from = Math.min(xs.length - 1, Math.floor((k * xs.length) / n));
  return xs.slice(from, Math.max(from + 1, Math.floor(((k + 1) * xs.length) / n)));
};

const work = mkdtempSync(join(tmpdir(), 'sbx-soak-'));
const state = join(work, '.sbx');
// Warm: the engine, the seccomp fd, the state dir, and the resident spawner the second run starts
// (one child, its two pipes): what a process keeps for its life, not what grows with its runs.
for (let i = 0; i < 3; i++) await run({ cmd: ['/bin/true'], work });
await new Promise((r) => setTimeout(r, 100));
const before = { fds: fds(), mounts: mounts(), tmp: tmpFiles(), rss: rssMb() };
const times = [];
const rss = [];
const heap = [];
const live = [];
const t0 = performance.now();
for (let i = 0; i < RUNS; i++) {
  const t = performance.now();
  const env = await run({ cmd: ['/bin/true'], work });
  times.push(performance.now() - t);
  if (env.verdict.status !== 'pass') throw new Error(`run ${i}: ${env.verdict.status}`);
  if (i % RSS_EVERY === RSS_EVERY - 1) { rss.push(rssMb()); heap.push(process.memoryUsage().heapUsed / 1048576); }
  if (i % LIVE_EVERY === LIVE_EVERY - 1 && fixedHeap) { globalThis.gc(); live.push(process.memoryUsage().heapUsed / 1048576); }
  if (i % REPORT_EVERY === REPORT_EVERY - 1) process.stderr.write(`  ${i + 1} runs, median ${median(times.slice(-1000)).toFixed(2)} ms, rss ${rssMb().toFixed(1)} MB, fds ${fds()}\n`);
}
const secs = (performance.now() - t0) / 1000;
// The launcher reports, then reaps the sandbox's init off the critical path and exits: give the
// last one a moment to be reaped, so that only what stays counts.
const settle = () => new Promise((r) => setTimeout(r, 500));
await settle();
const rssFirst = median(part(rss, 0, 10));
const rssMid = median(part(rss, 4, 10));
const rssLast = median(part(rss, 9, 10));
const tenths = Array.from({ length: 10 }, (_, k) => median(part(rss, k, 10)).toFixed(0)).join(' ');
const heaps = Array.from({ length: 10 }, (_, k) => median(part(heap, k, 10)).toFixed(0)).join(' ');
const logs = readdirSync(join(state, 'logs')).length;
const history = readFileSync(join(state, 'history.jsonl'), 'utf8').trim().split('\n').length;
console.log(`\nsoak: ${RUNS} sequential run()s in ${secs.toFixed(1)} s (median ${median(times).toFixed(2)} ms; first ${Math.min(1000, RUNS)} ${median(times.slice(0, 1000)).toFixed(2)}, last ${Math.min(1000, RUNS)} ${median(times.slice(-1000)).toFixed(2)})`);
console.log(`  open fds          ${before.fds} -> ${fds()}`);
console.log(`  zombie children   ${zombies()} (children alive: ${children()}, the resident spawner)`);
console.log(`  host mounts       ${before.mounts} -> ${mounts()}`);
console.log(`  sbx temp files    ${before.tmp} -> ${tmpFiles()} in ${tmpdir()}; ${stateLitter(state)} temp/lock files in the state dir`);
console.log(`  RSS               ${before.rss.toFixed(1)} MB before; median ${rssFirst.toFixed(1)} MB over the first tenth, ${rssMid.toFixed(1)} over the fifth, ${rssLast.toFixed(1)} over the last`);
console.log(`  RSS by tenth      ${tenths} MB (V8 sizes its heap over the first thousands, then it must stay)`);
console.log(`  JS heap by tenth  ${heaps} MB used`);
if (live.length) console.log(`  live JS heap      ${live.map((x) => x.toFixed(1)).join(' ')} MB after a full GC, every ${LIVE_EVERY} runs`);
console.log(`  young generation  ${fixedHeap ? 'fixed at 2 x 16 MB (V8\'s cap; see the header)' : 'V8\'s default, grown on demand (--default-heap)'}`);
console.log(`  logs/             ${logs} logs (bound: KEEP_LOGS ${KEEP_LOGS} + PRUNE_EVERY - 1 = ${KEEP_LOGS + Math.max(1, Math.floor(KEEP_LOGS / 4)) - 1}); history ${history} lines`);

// 8 writers at once: processes, then concurrent run()s in this process, all on one state dir.
const shared = mkdtempSync(join(tmpdir(), 'sbx-soak-writers-'));
const tw = performance.now();
const codes = await Promise.all(Array.from({ length: WRITERS }, () => new Promise((done) => {
  const p = spawn(process.execPath, [fileURLToPath(import.meta.url), '--writer', shared, String(EACH)], { stdio: ['ignore', 'ignore', 'inherit'] });
  p.on('close', done);
})));
const inproc = await Promise.all(Array.from({ length: WRITERS }, async () => {
  let ok = 0;
  for (let i = 0; i < EACH; i++) if ((await run({ cmd: ['/bin/true'], work: shared })).verdict.status === 'pass') ok++;
  return ok;
}));
await settle();
const hist = readFileSync(join(shared, '.sbx', 'history.jsonl'), 'utf8').trim().split('\n');
let parsed = 0;
for (const l of hist) { try { JSON.parse(l); parsed++; } catch { /* counted below */ } }
const last = (() => { try { JSON.parse(readFileSync(join(shared, '.sbx', 'last.json'), 'utf8')); return 'valid'; } catch (e) { return `INVALID (${e.message})`; } })();
const want = WRITERS * EACH * 2;
console.log(`\nwriters: ${WRITERS} processes x ${EACH} runs, then ${WRITERS} concurrent run()s x ${EACH} in this process, one state dir, ${((performance.now() - tw) / 1000).toFixed(1)} s`);
console.log(`  processes exited  ${codes.filter((c) => c === 0).length} of ${WRITERS} with 0; in-process runs passed ${inproc.reduce((a, b) => a + b, 0)} of ${WRITERS * EACH}`);
console.log(`  history           ${hist.length} lines, ${parsed} valid JSON (want ${want}); last.json ${last}; ${stateLitter(join(shared, '.sbx'))} temp/lock files left`);
console.log(`  open fds          ${fds()}; zombie children ${zombies()}; host mounts ${mounts()}; sbx temp files ${tmpFiles()}`);
let link = null;
try { link = readlinkSync(join(shared, '.sbx', 'lock')); } catch { /* released */ }
const leaks = fds() - before.fds + zombies() + (mounts() - before.mounts) + (tmpFiles() - before.tmp) + stateLitter(state) + stateLitter(join(shared, '.sbx')) + (link ? 1 : 0);
// Flat: the second half adds at most 5% (+2 MB): growth that goes on is a leak, a plateau is not.
// The live heap (after a full GC, when --expose-gc) likewise: its second half adds at most 5% (+0.5 MB).
const liveFlat = live.length < 2 || live[live.length - 1] <= live[Math.floor(live.length / 2) - 1] * 1.05 + 0.5;
const flat = rssLast <= rssMid * 1.05 + 2 && liveFlat;
console.log(`\ngoal: no fd, zombie, mount or temp-file leak (${leaks === 0 ? 'met' : `NOT met: ${leaks}`}), RSS and live heap flat over the second half (${flat ? 'met' : 'NOT met'}), every write whole (${parsed === want && hist.length === want && last === 'valid' ? 'met' : 'NOT met'})`);
rmSync(work, { recursive: true, force: true });
rmSync(shared, { recursive: true, force: true });
