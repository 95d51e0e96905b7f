#!/usr/bin/env node
// A fresh process's import of the library, its first run() and its second, in ms:
// `node bench/first-run.js WORKDIR` prints "import I first F second S". Used by bench/startup.js.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const work = process.argv[2];
const t0 = performance.now();
const { run } = await import(join(root, 'dist', 'index.js'));
const ti = performance.now();
await run({ cmd: ['/bin/true'], work });
const t1 = performance.now();
await run({ cmd: ['/bin/true'], work });
const t2 = performance.now();
console.log(`import ${(ti - t0).toFixed(3)} first ${(t1 - ti).toFixed(3)} second ${(t2 - t1).toFixed(3)}`);
