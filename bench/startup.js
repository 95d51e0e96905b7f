#!/usr/bin/env node
// Startup cost of the sandbox, side by side in one process: warm-ups, then >= 30 interleaved
// rounds of every variant (so drift and noise hit all of them alike), min/median/p90 and each
// median's ratio to bubblewrap's. Goals: the public run() (launch, verdict, and its state: lock,
// fingerprints, last.json, last/<key>.json, history, delta, log pruning) <= 0.8x bwrap; launch() +
// verdict alone beside it. The in-process rounds are warm runs (a run() after others in the same
// process, as the hook and MCP server do); a fresh process's first run() is measured after them, and
// so is the CLI from the shell against `node -e 0` (goal <= 1.3x) with its breakdown.
//
//   npm run bench:startup [-- --runs 50 --warmup 5] [--as USER] [--no-trees] [--no-big] [--big-mib 200]
//
// Then, unless --no-big, a 200 MiB output (every fixture log repeated: compilers, test runners,
// sanitizer reports): `cat` of it in the sandbox, the output kept in a file, bwrap against `sbx run`
// (the CLI), the resident sbx's native client and run(), interleaved rounds, medians, ratios to bwrap,
// and how long the CLI took from the command's exit to its verdict printed (SBX_PHASES).
// Then, unless --no-trees, the cost with the size of the work tree: bench/tree-sizes.js (100, 1 000,
// 10 000 and 100 000 files, plain and git, a 50 000-file node_modules), each tree's median over the
// empty dir's.
//
// Run as root, sbx does more than bwrap to keep root's files closed (the sandbox user maps to nobody:
// every bind is cloned and id-mapped); `--as USER` runs the whole bench as that ordinary user (how
// agents run), through runuser.
//
// Needs dist/launcher.js and build/sbx-launch (npm run build:native && npm run build:host).
// bubblewrap is installed from Debian/Ubuntu with apt-get when missing and we are root.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, lstatSync, mkdtempSync, openSync, readFileSync, readlinkSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runAsUser } from './as-user.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, def) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : def;
};
runAsUser(import.meta.url, ensureBwrap); // installing bwrap needs root: before the switch
console.log(`bench: running as uid ${process.getuid?.()}${process.getuid?.() === 0 ? ' (root: sbx id-maps every bind; --as USER measures an ordinary user)' : ''}`);
const RUNS = Math.max(30, arg('runs', 40));
const WARMUP = arg('warmup', 5);

function which(cmd) {
  const r = spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

function ensureBwrap() {
  if (which('bwrap')) return which('bwrap');
  if (process.getuid?.() === 0 && which('apt-get')) {
    console.log('bench: installing bubblewrap (apt-get install -y bubblewrap)');
    spawnSync('apt-get', ['install', '-y', 'bubblewrap'], { stdio: 'ignore', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  }
  return which('bwrap');
}

/** Spawns argv with piped stdio (as a harness would) and resolves when it has fully closed. */
function run(argv) {
  return new Promise((done, fail) => {
    const child = spawn(argv[0], argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.resume();
    child.stderr.resume();
    child.once('error', fail);
    child.once('close', (code) => (code === 0 ? done() : fail(new Error(`${argv[0]} exited ${code}`))));
  });
}

const launcherJs = join(root, 'dist', 'launcher.js');
if (!existsSync(launcherJs) || !existsSync(join(root, 'build', 'sbx-launch'))) {
  console.error('bench: build first: npm run build:native && npm run build:host');
  process.exit(1);
}
const { launch } = await import(launcherJs);
const { run: runApi } = await import(join(root, 'dist', 'index.js'));
let engine = null;
const engineJs = join(root, 'dist', 'engine.js');
if (existsSync(engineJs)) {
  try {
    const mod = await import(engineJs);
    engine = await mod.createEngine();
  } catch (e) {
    console.log(`bench: dist/engine.js did not load (${e.message}); measuring launch() alone`);
  }
} else console.log('bench: dist/engine.js not built; "sbx full" measures launch() alone, without the verdict');

const work = mkdtempSync(join(tmpdir(), 'sbx-bench-'));
// The state lives under the work dir, as by default: .sbx/ with logs, last.json, history.
const runWork = mkdtempSync(join(tmpdir(), 'sbx-bench-run-'));
const logPath = join(work, '.sbx-bench.log');
const TRUE = '/bin/true';

async function sbx(extra) {
  const r = await launch({ cmd: [TRUE], work, logPath, ...extra });
  if (r.setupError) throw new Error(r.setupError.message);
  if (engine) engine.verdict(r.tail, { exit: r.outcome.exit_code, signal: r.outcome.signal });
}

// bubblewrap with the same namespaces, binds and environment handling as sbx's default profile.
function bwrapArgv(bwrap, into = work, cmd = [TRUE]) {
  const a = [bwrap, '--unshare-user', '--unshare-pid', '--unshare-net', '--unshare-uts', '--unshare-ipc', '--unshare-cgroup'];
  a.push('--uid', '1000', '--gid', '1000', '--hostname', 'sbx');
  for (const p of ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/etc', '/opt']) {
    try {
      const st = lstatSync(p);
      if (st.isSymbolicLink()) a.push('--symlink', readlinkSync(p), p);
      else if (st.isDirectory()) a.push('--ro-bind', p, p);
    } catch {}
  }
  a.push('--bind', into, '/work', '--tmpfs', '/tmp', '--dev', '/dev', '--proc', '/proc', '--ro-bind', '/sys', '/sys');
  a.push('--remount-ro', '/', '--chdir', '/work', '--clearenv', '--setenv', 'PATH', '/usr/bin:/bin', '--setenv', 'HOME', '/work');
  a.push('--new-session', '--die-with-parent', ...cmd);
  return a;
}

/** fn with every launch spawned from this process itself, as a one-run process (the CLI) does. */
async function direct(fn) {
  process.env.SBX_SPAWN = 'direct';
  try { return await fn(); } finally { delete process.env.SBX_SPAWN; }
}

const bwrap = ensureBwrap();
// After two launches in a process, sbx forks its launchers from a resident server (sbx-launch
// --serve, src/launcher/resident.ts) rather than from Node: the warm variants use it, the
// "direct" ones spawn each launcher from this process.
const variants = [
  { name: 'spawn /bin/true', fn: () => run([TRUE]) },
  { name: 'sbx run() with state', fn: () => runApi({ cmd: [TRUE], work: runWork }), key: 'run' },
  { name: `sbx launch()${engine ? ' + verdict' : ''}`, fn: () => sbx({}), key: 'full' },
  { name: 'sbx run(), direct spawn', fn: () => direct(() => runApi({ cmd: [TRUE], work: runWork })) },
  { name: `sbx launch()${engine ? ' + verdict' : ''}, direct`, fn: () => direct(() => sbx({})) },
];
// Root may not turn the filter off (issue 28): the variant would only time the refusal.
if (process.getuid?.() !== 0) variants.push({ name: 'sbx -seccomp -loopback', fn: () => sbx({ seccomp: false, loopback: false }) });
if (bwrap) {
  const argv = bwrapArgv(bwrap);
  variants.push({ name: 'bwrap (same ns + binds)', fn: () => run(argv), key: 'bwrap' });
} else console.log('bench: bubblewrap not available; ratios are omitted');
if (which('unshare')) variants.push({ name: 'unshare -Urpfn --mount-proc', fn: () => run(['unshare', '-Urpfn', '--mount-proc', TRUE]) });

const times = new Map(variants.map((v) => [v.name, []]));
for (let i = 0; i < WARMUP; i++) for (const v of variants) await v.fn();
for (let i = 0; i < RUNS; i++) {
  // rotate the order each round so that no variant always runs right after another
  for (let j = 0; j < variants.length; j++) {
    const v = variants[(i + j) % variants.length];
    const t = process.hrtime.bigint();
    await v.fn();
    times.get(v.name).push(Number(process.hrtime.bigint() - t) / 1e6);
  }
}

const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p) => s[Math.min(s.length - 1, Math.floor(p * (s.length - 1) + 0.5))];
  // A 95% interval for the median that assumes no distribution: the order statistics n/2 -+ 0.98 sqrt(n).
  const h = 0.98 * Math.sqrt(s.length);
  const lo = s[Math.max(0, Math.floor(s.length / 2 - h) - 1)];
  const hi = s[Math.min(s.length - 1, Math.ceil(s.length / 2 + 1 + h) - 1)];
  return { min: s[0], median: q(0.5), p90: q(0.9), lo, hi };
};
const results = variants.map((v) => ({ ...v, ...stats(times.get(v.name)) }));
const base = results.find((r) => r.key === 'bwrap');
const pad = Math.max(...results.map((r) => r.name.length)) + 2;
console.log(`\nstartup, ${RUNS} interleaved runs each after ${WARMUP} warm-ups (ms)`);
console.log(`${'variant'.padEnd(pad)}${'min'.padStart(8)}${'median'.padStart(8)}${'p90'.padStart(8)}   ratio to bwrap`);
for (const r of results) {
  const ratio = base ? `${(r.median / base.median).toFixed(2)}x` : '-';
  console.log(`${r.name.padEnd(pad)}${r.min.toFixed(2).padStart(8)}${r.median.toFixed(2).padStart(8)}${r.p90.toFixed(2).padStart(8)}   ${ratio}`);
}
const full = results.find((r) => r.key === 'full');
const api = results.find((r) => r.key === 'run');
if (base && full && api) {
  console.log('');
  for (const [r, what] of [[api, 'run() with state'], [full, 'launch() + verdict']]) {
    const ratio = r.median / base.median;
    console.log(`goal: ${what} <= 0.80x bwrap median: ${ratio.toFixed(2)}x ${ratio <= 0.8 ? 'met' : 'NOT met'}`);
  }
}

// A fresh process: importing the library, its first run() (engine compile, state dir opened) and its
// second (warm, as in the hook and MCP server).
const firstRun = join(root, 'bench', 'first-run.js');
const fresh = { 'import dist/index.js': [], 'first run()': [], 'second run() (warm)': [] };
for (let i = 0; i < Math.max(10, Math.floor(RUNS / 3)); i++) {
  const r = spawnSync(process.execPath, [firstRun, runWork], { encoding: 'utf8' });
  const m = /import ([\d.]+) first ([\d.]+) second ([\d.]+)/.exec(r.stdout);
  if (!m) { console.log(`bench: ${firstRun} failed: ${(r.stderr || r.stdout).trim().split('\n')[0]}`); break; }
  Object.values(fresh).forEach((xs, k) => xs.push(Number(m[k + 1])));
}
if (fresh['first run()'].length) {
  console.log(`\nin a fresh process, ${fresh['first run()'].length} processes (ms)`);
  for (const [name, xs] of Object.entries(fresh)) {
    const f = stats(xs);
    const ratio = base && name !== 'import dist/index.js' ? `   ${(f.median / base.median).toFixed(2)}x` : '';
    console.log(`${name.padEnd(pad)}${f.min.toFixed(2).padStart(8)}${f.median.toFixed(2).padStart(8)}${f.p90.toFixed(2).padStart(8)}${ratio}`);
  }
}

// From the shell: `sbx run -- /bin/true` against `node -e 0` (the floor of any Node CLI), with the
// breakdown: `sbx --version` is the floor plus loading the one-file bundle; run() in a fresh process
// (above) is the rest without the bundle's load.
const cli = join(root, 'dist', 'cli.cjs');
// More rounds than in-process: here one round is ~0.5 s, and node -e 0 alone moves by tens of ms.
// 100: the goal sits near its line, and with 60 rounds the ratio of medians of one build moved
// 1.19-1.34x from one bench run to the next (the paired median 1.20-1.27x).
const shellRuns = Math.max(100, RUNS);
const shellWork = mkdtempSync(join(tmpdir(), 'sbx-bench-cli-'));
// The floor: Node and one launcher spawned with a fixed spec (no seccomp), nothing else; spawned as sbx
// spawns it, and through node:child_process.
const { buildSpec } = await import(launcherJs);
const floorSpec = join(shellWork, '..', `sbx-bench-floor-${process.pid}.spec`);
writeFileSync(floorSpec, `${buildSpec({ cmd: [TRUE], work: shellWork, logPath: join(shellWork, 'floor.log'), seccomp: false }, shellWork).argv.join('\0')}\0`);
const shell = [
  { name: 'node -e 0', argv: [process.execPath, '-e', '0'] },
  { name: 'floor: node + launcher', argv: [process.execPath, join(root, 'bench', 'floor-spawn.cjs'), join(root, 'build', 'sbx-launch'), floorSpec, join(shellWork, 'floor.log')] },
  { name: 'floor, by child_process', argv: [process.execPath, join(root, 'bench', 'floor-spawn.cjs'), '--child-process', join(root, 'build', 'sbx-launch'), floorSpec, join(shellWork, 'floor.log')] },
  { name: 'sbx --version', argv: [process.execPath, cli, '--version'] },
  { name: 'sbx run -- /bin/true', argv: [process.execPath, cli, 'run', '--work', shellWork, '--', TRUE], key: 'cli' },
];
if (!existsSync(cli)) console.log('\nsbx run -- /bin/true: not measured (dist/cli.cjs not built)');
else {
  const probe = spawnSync(process.execPath, [cli, 'run', '--work', shellWork, '--', TRUE], { encoding: 'utf8' });
  if (probe.status !== 0) console.log(`\nsbx run -- /bin/true: not measured (dist/cli.cjs run exited ${probe.status}: ${(probe.stderr || '').trim().split('\n')[0]})`);
  else {
    const st = new Map(shell.map((v) => [v.name, []]));
    // Each round's time over node -e 0's in the same round: the median of these "paired" ratios
    // holds still while the machine's speed drifts (node -e 0 itself moves 65-95 ms here).
    const paired = new Map(shell.map((v) => [v.name, []]));
    for (let i = 0; i < 3; i++) for (const v of shell) await run(v.argv);
    for (let i = 0; i < shellRuns; i++) {
      const round = new Map();
      for (let j = 0; j < shell.length; j++) {
        const v = shell[(i + j) % shell.length];
        const t = process.hrtime.bigint();
        await run(v.argv);
        round.set(v.name, Number(process.hrtime.bigint() - t) / 1e6);
        st.get(v.name).push(round.get(v.name));
      }
      for (const v of shell) paired.get(v.name).push(round.get(v.name) / round.get('node -e 0'));
    }
    const floor = stats(st.get('node -e 0'));
    console.log(`\nfrom the shell, ${shellRuns} interleaved runs each (ms)`);
    console.log(`${'variant'.padEnd(pad)}${'min'.padStart(8)}${'median'.padStart(8)}${'p90'.padStart(8)}   ratio to node -e 0 (of medians, paired)`);
    for (const v of shell) {
      const s2 = stats(st.get(v.name));
      console.log(`${v.name.padEnd(pad)}${s2.min.toFixed(2).padStart(8)}${s2.median.toFixed(2).padStart(8)}${s2.p90.toFixed(2).padStart(8)}   ${(s2.median / floor.median).toFixed(2)}x ${stats(paired.get(v.name)).median.toFixed(2)}x`);
    }
    const c = stats(st.get('sbx run -- /bin/true'));
    const ratio = c.median / floor.median;
    const p = stats(paired.get('sbx run -- /bin/true'));
    const pr = p.median;
    console.log(`\ngoal: cold sbx run <= 1.30x node -e 0 median: ${ratio.toFixed(2)}x, paired ${pr.toFixed(2)}x (95% interval of the paired median ${p.lo.toFixed(2)}-${p.hi.toFixed(2)}x) ${ratio <= 1.3 && pr <= 1.3 ? 'met' : 'NOT met'}`);
  }
}
// The breakdown of a cold `sbx run -- /bin/true`: SBX_PHASES=1 makes sbx mark each phase (ms since the
// process started) on stderr; the medians of the steps between marks, Node's own start-up first.
if (existsSync(cli)) {
  const steps = new Map();
  for (let i = 0; i < Math.max(10, Math.floor(shellRuns / 2)); i++) {
    const r = spawnSync(process.execPath, [cli, 'run', '--work', shellWork, '--', TRUE], { encoding: 'utf8', env: { ...process.env, SBX_PHASES: '1' } });
    const line = /^phases: (.*)$/m.exec(r.stderr ?? '');
    if (!line) { console.log('\nbreakdown: not measured (no phases line on stderr)'); steps.clear(); break; }
    let prev = 0;
    for (const [name, at] of line[1].split(' ').map((p) => p.split('='))) {
      const t = Number(at);
      if (!steps.has(name)) steps.set(name, []);
      steps.get(name).push(t - prev);
      prev = t;
    }
  }
  if (steps.size) {
    const label = { bundle: 'node start-up + bundle', command: 'run command loaded, flags', run: 'run(): checks', 'state-open': 'state dir opened', fingerprint: 'tree fingerprint', launched: 'sandbox (spec, spawn, command, report)', 'fingerprint-end': 'tree fingerprint again', engine: 'engine ready', verdict: 'verdict', locked: 'state lock', 'read-previous': 'previous runs read', counters: 'streak counters', delta: 'delta', written: 'state written', recorded: 'record done', printed: 'verdict rendered and printed', done: 'exit' };
    console.log('\nbreakdown of a cold sbx run -- /bin/true (SBX_PHASES=1), median ms per step');
    let sum = 0;
    for (const [name, xs] of steps) {
      const m = stats(xs).median;
      sum += m;
      console.log(`  ${(label[name] ?? name).padEnd(40)}${m.toFixed(2).padStart(8)}`);
    }
    console.log(`  ${'sum of medians'.padEnd(40)}${sum.toFixed(2).padStart(8)}`);
  }
}
// A 200 MiB output (issue 32: it took 4.7x bwrap's wall time, 1.79 s of it after the command ended).
if (!process.argv.includes('--no-big') && existsSync(cli)) {
  const mib = arg('big-mib', 200);
  const bigWork = mkdtempSync(join(tmpdir(), 'sbx-bench-big-'));
  const { listCases } = await import(join(root, 'fixtures', 'lib', 'cases.js'));
  const mixed = Buffer.concat(listCases().map((c) => c.log));
  const fd = openSync(join(bigWork, 'big.log'), 'w');
  for (let at = 0, want = mib << 20; at < want;) { const n = Math.min(mixed.length, want - at); writeSync(fd, mixed, 0, n); at += n; }
  closeSync(fd);
  const CAT = ['cat', 'big.log'];
  /** argv with its output kept in a file, as a harness keeps a log; resolves when it has exited. */
  const toFile = (argv, env = process.env) => new Promise((done, fail) => {
    const out = openSync(join(bigWork, 'out.log'), 'w');
    const child = spawn(argv[0], argv.slice(1), { stdio: ['ignore', out, out], env });
    closeSync(out);
    child.once('error', fail);
    child.once('close', (code) => (code === 0 ? done() : fail(new Error(`${argv.slice(0, 3).join(' ')} exited ${code}`))));
  });
  const client = join(root, 'build', 'sbx-client');
  const after = [];
  const big = [
    ...(bwrap ? [{ name: 'bwrap cat', fn: () => toFile(bwrapArgv(bwrap, bigWork, CAT)), key: 'bwrap' }] : []),
    { name: 'sbx run -- cat (CLI)', fn: () => toFile([process.execPath, cli, 'run', '--work', bigWork, '--', ...CAT], { ...process.env, SBX_PHASES: '1' }).then(() => {
      const m = /^phases: (.*)$/m.exec(readFileSync(join(bigWork, 'out.log'), 'utf8').slice(-2000));
      const at = Object.fromEntries((m?.[1] ?? '').split(' ').map((x) => x.split('=')).map(([n, t]) => [n, Number(t)]));
      if (at.launched && at.printed) after.push(at.printed - at.launched);
    }) },
    ...(existsSync(client) ? [{ name: 'sbx-client run -- cat', fn: () => toFile([client, 'run', '--work', bigWork, '--', ...CAT]) }] : []),
    { name: 'run() -- cat', fn: () => runApi({ cmd: CAT, work: bigWork }) },
  ];
  const rounds = Math.max(5, Math.floor(RUNS / 6));
  const bt = new Map(big.map((v) => [v.name, []]));
  const bp = new Map(big.map((v) => [v.name, []]));
  for (const v of big) await v.fn();
  after.length = 0;
  for (let i = 0; i < rounds; i++) {
    const round = new Map();
    for (let j = 0; j < big.length; j++) {
      const v = big[(i + j) % big.length];
      const t = process.hrtime.bigint();
      await v.fn();
      round.set(v.name, Number(process.hrtime.bigint() - t) / 1e6);
      bt.get(v.name).push(round.get(v.name));
    }
    if (bwrap) for (const v of big) bp.get(v.name).push(round.get(v.name) / round.get('bwrap cat'));
  }
  console.log(`\na ${mib} MiB output (cat of a mixed log; the raw log capped as by default), ${rounds} interleaved rounds (ms)`);
  console.log(`${'variant'.padEnd(pad)}${'min'.padStart(8)}${'median'.padStart(8)}${'p90'.padStart(8)}   ratio to bwrap (of medians, paired)`);
  for (const v of big) {
    const b = stats(bt.get(v.name));
    const ratio = bwrap ? `${(b.median / stats(bt.get('bwrap cat')).median).toFixed(2)}x ${stats(bp.get(v.name)).median.toFixed(2)}x` : '-';
    console.log(`${v.name.padEnd(pad)}${b.min.toFixed(2).padStart(8)}${b.median.toFixed(2).padStart(8)}${b.p90.toFixed(2).padStart(8)}   ${ratio}`);
  }
  if (after.length) console.log(`the CLI from the command's exit to its verdict printed (phases launched -> printed): median ${stats(after).median.toFixed(0)} ms`);
  rmSync(bigWork, { recursive: true, force: true });
}
if (!process.argv.includes('--no-trees') && existsSync(cli)) {
  console.log('');
  spawnSync(process.execPath, [join(root, 'bench', 'tree-sizes.js'), '--rounds', String(Math.max(7, Math.floor(RUNS / 4)))], { stdio: 'inherit' });
}
rmSync(shellWork, { recursive: true, force: true });
rmSync(floorSpec, { force: true });
rmSync(work, { recursive: true, force: true });
rmSync(runWork, { recursive: true, force: true });
