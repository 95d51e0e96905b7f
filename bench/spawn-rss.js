#!/usr/bin/env node
// What a spawn costs a Node process by its size: libuv starts a child with fork() (clone without
// CLONE_VM), which copies the parent's page tables, so a large client (Gemini CLI's ~300 MB) pays more
// for every hook and shell call than a small one. Spawns /bin/true to exit, N times, from this process
// grown to each size in turn (Buffers and JS arrays, touched; it only grows, so run it twice); medians.
//   node bench/spawn-rss.js [--runs 40] [--rss 0,100,300,500]   (MB: grown until its RSS is at least that)
import { spawn } from 'node:child_process';

const arg = (name, def) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? process.argv[i + 1] : def; };
const RUNS = Number(arg('runs', 40));
const SIZES = arg('rss', '0,100,300,500').split(',').map(Number);
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length % 2 ? s[(s.length - 1) >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };
const once = () => new Promise((ok) => {
  const t = process.hrtime.bigint();
  spawn('/bin/true', [], { stdio: 'ignore' }).on('close', () => ok(Number(process.hrtime.bigint() - t) / 1e6));
});

const keep = [];
const rss = () => process.memoryUsage().rss / 2 ** 20;
console.log('| RSS | spawn /bin/true to exit, median | min |\n| ---: | ---: | ---: |');
for (const mb of [...SIZES].sort((a, b) => a - b)) {
  while (rss() < mb) { keep.push(Buffer.alloc(1 << 19, 1), new Array(65536).fill(keep.length)); }
  const xs = [];
  for (let i = 0; i < RUNS; i++) xs.push(await once());
  console.log(`| ${Math.round(rss())} MB | ${median(xs).toFixed(2)} ms | ${Math.min(...xs).toFixed(2)} ms |`);
}
