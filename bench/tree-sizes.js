#!/usr/bin/env node
// What a run costs with the size of the work tree (issue 32): a cold `sbx run -- /bin/true` from the
// shell, in work dirs of 100 / 1 000 / 10 000 / 100 000 files, plain and git, and with a 50 000-file
// node_modules (untracked and not ignored in the git one: git lists it, the fingerprint drops it),
// against the same run in an empty dir. Interleaved rounds (each round runs every tree once, in a
// rotating order), medians, and each median's ratio to the empty dir's. Goal: 100 000 files <= 1.5x.
// The trees are made once per bench (files of 1 byte, 20 to a directory, three levels, a .claude
// every 5 000 files, as bench/control-scan.js makes them).
//
//   node bench/tree-sizes.js [--rounds 15] [--files 100,1000,10000,100000] [--cli dist/cli.cjs]...
//                            [--as USER] [--tree DIR]...
//
// --tree DIR adds a tree of the caller's, as it is (a real repository: its state dir is left in it).
//
// Give --cli more than once to compare builds in the same rounds (e.g. a copy of dist/ and build/
// from before a change: each dist/ uses the build/sbx-launch beside it). With --as USER (as root),
// the whole bench runs as that user, through runuser, in a directory it can write.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runAsUser } from './as-user.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const arg = (name, dflt) => { const i = args.indexOf(`--${name}`); return i >= 0 ? args[i + 1] : dflt; };
const all = (name) => args.flatMap((a, i) => (a === `--${name}` ? [args[i + 1]] : []));
runAsUser(import.meta.url);
const rounds = Number(arg('rounds', '15'));
const sizes = arg('files', '100,1000,10000,100000').split(',').map(Number);
const clis = (all('cli').length ? all('cli') : [join(root, 'dist', 'cli.cjs')]).map((p) => resolve(p));

const base = mkdtempSync(join(tmpdir(), 'sbx-bench-trees-'));
chmodSync(base, 0o755);
let made = 0;
function fill(d, n, prefix = '') {
  for (let i = 0; i < n; i++) {
    const dir = join(d, prefix, `p${Math.floor(i / 2000)}`, `m${Math.floor(i / 200) % 10}`, `d${Math.floor(i / 20) % 10}`);
    if (i % 20 === 0) mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `f${i}.js`), 'x');
    if (i % 5000 === 0 && !prefix) { mkdirSync(join(dir, '.claude'), { recursive: true }); writeFileSync(join(dir, '.claude', 'settings.json'), '{}'); }
  }
  made += n;
}
/** A node_modules of n files: packages of 10 files in lib/ and a package.json. */
function nodeModules(d, n) {
  for (let i = 0; i < n; i += 10) {
    const pkg = join(d, 'node_modules', `pkg${i / 10}`);
    mkdirSync(join(pkg, 'lib'), { recursive: true });
    writeFileSync(join(pkg, 'package.json'), '{}');
    for (let k = 1; k < 10; k++) writeFileSync(join(pkg, 'lib', `m${k}.js`), 'x');
  }
  made += n;
}
function git(d) {
  const run = (...a) => spawnSync('git', a, { cwd: d, stdio: 'ignore' });
  run('init', '-q', '.');
  run('add', '-A');
  run('-c', 'user.name=b', '-c', 'user.email=b@example.com', 'commit', '-qm', 'b');
}
function tree(name, make) {
  const d = join(base, name);
  mkdirSync(d);
  make(d);
  return { name, dir: d };
}

const t0 = Date.now();
const trees = [tree('empty', () => {})];
for (const n of sizes) {
  trees.push(tree(`plain ${n}`, (d) => fill(d, n)));
  trees.push(tree(`git ${n}`, (d) => { fill(d, n); git(d); }));
}
trees.push(tree('plain 1000 + node_modules 50000', (d) => { fill(d, 1000); nodeModules(d, 50_000); }));
// Committed first, the node_modules made after: untracked and not ignored, as in the issue.
trees.push(tree('git 1000 + untracked node_modules 50000', (d) => { fill(d, 1000); git(d); nodeModules(d, 50_000); }));
for (const d of all('tree')) trees.push({ name: resolve(d), dir: resolve(d) });
console.log(`bench: ${made} files made in ${((Date.now() - t0) / 1000).toFixed(1)} s under ${base}; uid ${process.getuid?.()}`);

function runOnce(cli, dir) {
  return new Promise((done, fail) => {
    const t = process.hrtime.bigint();
    const child = spawn(process.execPath, [cli, 'run', '--work', dir, '--', '/bin/true'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (b) => { err += b; });
    child.once('error', fail);
    child.once('close', (code) => (code === 0 ? done(Number(process.hrtime.bigint() - t) / 1e6) : fail(new Error(`${cli} in ${dir} exited ${code}: ${err.trim().split('\n')[0]}`))));
  });
}

const variants = clis.flatMap((cli) => trees.map((t) => ({ cli, tree: t, key: `${cli}\0${t.name}` })));
const times = new Map(variants.map((v) => [v.key, []]));
for (const v of variants) await runOnce(v.cli, v.tree.dir); // first runs: state dirs made
for (let i = 0; i < rounds; i++) {
  for (let j = 0; j < variants.length; j++) {
    const v = variants[(i + j) % variants.length];
    times.get(v.key).push(await runOnce(v.cli, v.tree.dir));
  }
}
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor((s.length - 1) / 2)]; };
for (const cli of clis) {
  console.log(`\n${cli}: cold sbx run -- /bin/true, ${rounds} interleaved rounds (ms)`);
  const empty = median(times.get(`${cli}\0empty`));
  const pad = Math.max(...trees.map((t) => t.name.length)) + 2;
  console.log(`${'tree'.padEnd(pad)}${'min'.padStart(9)}${'median'.padStart(9)}   ratio to empty dir`);
  for (const t of trees) {
    const xs = times.get(`${cli}\0${t.name}`);
    const m = median(xs);
    console.log(`${t.name.padEnd(pad)}${Math.min(...xs).toFixed(1).padStart(9)}${m.toFixed(1).padStart(9)}   ${(m / empty).toFixed(2)}x`);
  }
  for (const kind of ['plain', 'git']) {
    const big = times.get(`${cli}\0${kind} 100000`);
    if (big) {
      const r = median(big) / empty;
      console.log(`goal: ${kind} 100 000 files <= 1.5x the empty dir: ${r.toFixed(2)}x ${r <= 1.5 ? 'met' : 'NOT met'}`);
    }
  }
}
rmSync(base, { recursive: true, force: true });
