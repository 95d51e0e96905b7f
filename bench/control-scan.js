// What keeping the host's control files safe costs a run (issue 28): the walk for .git, .claude,
// sbx.config.json, ... before the sandbox starts and again after it, against the tree's fingerprint
// and the sandbox itself, on real-size trees (plain and git; a node_modules-like tree of many small
// directories). Medians of interleaved run()s of /bin/true, from SBX_PHASES marks.
//
//   node bench/control-scan.js [--files 1000,10000,100000] [--runs 15]
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

process.env.SBX_PHASES = '1';
const root = new URL('..', import.meta.url).pathname;
const { run, takePhases } = await import(join(root, 'dist', 'index.js'));

const arg = (name, dflt) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? process.argv[i + 1] : dflt; };
const sizes = arg('files', '1000,10000,100000').split(',').map(Number);
const runs = Number(arg('runs', '15'));

/** n files, 20 to a directory, 3 levels, with a nested repo and a .claude every 5 000 files. */
function tree(n, git) {
  const d = mkdtempSync(join(tmpdir(), `sbx-bench-control-${n}-`));
  for (let i = 0; i < n; i++) {
    const dir = join(d, `p${Math.floor(i / 2000)}`, `m${Math.floor(i / 200) % 10}`, `d${Math.floor(i / 20) % 10}`);
    if (i % 20 === 0) mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `f${i}.js`), 'x');
    if (i % 5000 === 0) { mkdirSync(join(dir, '.claude'), { recursive: true }); writeFileSync(join(dir, '.claude', 'settings.json'), '{}'); }
  }
  if (git) {
    spawnSync('git', ['init', '-q', '.'], { cwd: d });
    spawnSync('git', ['add', '-A'], { cwd: d });
    spawnSync('git', ['-c', 'user.name=b', '-c', 'user.email=b@example.com', 'commit', '-qm', 'b'], { cwd: d });
  }
  return d;
}

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length ? s[Math.floor((s.length - 1) / 2)] : NaN; };
const gap = (marks, a, b) => marks[b] - marks[a];

// Since issue 32 the fingerprint and the control walk are one pass (src/host/tree-scan.ts): 'tree'
// is that pass, before the run (with the protect list) and after it.
console.log('files  kind   runs     tree(pre)     tree(post)  sandbox   run total   tree share');
for (const n of sizes) {
  for (const git of [false, true]) {
    const work = tree(n, git);
    const rows = { pre: [], post: [], sandbox: [], total: [] };
    await run({ cmd: ['/bin/true'], work }); takePhases(); // first run: state dir made
    for (let i = 0; i < runs; i++) {
      await run({ cmd: ['/bin/true'], work });
      const m = Object.fromEntries(takePhases().replace(/^phases: /, '').trim().split(' ').map((kv) => { const [k, v] = kv.split('='); return [k, Number(v)]; }));
      rows.pre.push(gap(m, 'state-open', 'control'));
      rows.post.push(gap(m, 'launched', 'control-end'));
      rows.sandbox.push(gap(m, 'control', 'launched'));
      rows.total.push(m[Object.keys(m).pop()] - m.run);
    }
    const med = Object.fromEntries(Object.entries(rows).map(([k, v]) => [k, median(v)]));
    const share = (med.pre + med.post) / med.total;
    console.log(`${String(n).padStart(6)} ${git ? 'git  ' : 'plain'} ${String(runs).padStart(5)} ${med.pre.toFixed(2).padStart(11)}ms ${med.post.toFixed(2).padStart(12)}ms ${med.sandbox.toFixed(2).padStart(7)}ms ${med.total.toFixed(2).padStart(9)}ms ${(share * 100).toFixed(1).padStart(10)}%`);
    rmSync(work, { recursive: true, force: true });
  }
}
