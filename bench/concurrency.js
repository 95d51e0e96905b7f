#!/usr/bin/env node
// Concurrency: runs/s of 1, 2, 4 and 8 concurrent runs of /bin/true, `sbx run` (the CLI, one process
// per run) and run() (the library, N at once in one process), against bwrap with the same namespaces
// and binds; on one work dir (all runs share it and its state) and on eight (one each); in an empty
// work dir and in a 10 000-file repo. Each cell: N workers loop until --secs seconds have passed; the
// median of --reps cells is printed with its ratio to bwrap's. Also counts history lines against runs
// (a lost record is a failed goal). The kinds take turns within each rep (the first one rotates), so a
// change of the machine's load falls on all of them alike; the load average is printed before and after.
// Under each row, the CPU time a run cost (ms, medians): the bench's reaped children, and for a client
// kind + its resident sbx + that one's launcher server with what it reaped; less at the load's mercy
// than runs/s, it says where the time goes.
//
//   npm run bench:concurrency [-- --secs 3 --reps 3 --levels 1,2,4,8 --no-repo --no-cli --kinds bwrap,sbx-client]
//                             [--also DIR]... [--prefill N] [--as USER] [--no-perf]
//
// --also DIR adds the native client of another install (a copy of dist/ and build/ from before a
// change, with its own resident sbx) to the same interleaved cells. --prefill N makes N runs in each
// work dir first (run(), 8 at once), so that the cells measure a state dir past its first prunes (200
// logs kept) as an agent's project is, not a new one.
//
// Last, with `perf` on the machine (--no-perf: not), the CPU a run with every process counted, bwrap's
// sandbox too (the rows' CPU figures leave it out: see ticks() below), runs one at a time in an empty dir.
//
// --as USER (as root): the whole bench runs as that ordinary user (bwrap and sbx alike), as sbx is used.
//
// The resident sbx is stopped after the bench only if this bench started it: `sbx daemon --stop` by hand.
// Goal (issue 32): at 8 concurrent runs, sbx reaches >= 0.8x bwrap's runs/s on one work dir and on eight.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runAsUser } from './as-user.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
runAsUser(import.meta.url);
const opt = (name, def) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? process.argv[i + 1] : def; };
const SECS = Number(opt('secs', 3));
const REPS = Number(opt('reps', 3));
const LEVELS = String(opt('levels', '1,2,4,8')).split(',').map(Number);
const WITH_REPO = !process.argv.includes('--no-repo');
const WITH_CLI = !process.argv.includes('--no-cli');
const KINDS = opt('kinds', null)?.split(',');
const PREFILL = Number(opt('prefill', 0));
const WITH_PERF = !process.argv.includes('--no-perf');
const PERF_RUNS = 200;
const CLI = join(root, 'dist', 'cli.js');
const CLIENT = join(root, 'build', 'sbx-client');
const { run } = await import(join(root, 'dist', 'index.js'));

const which = (c) => { const r = spawnSync('sh', ['-c', `command -v ${c}`], { encoding: 'utf8' }); return r.status === 0 ? r.stdout.trim() : null; };
const bwrap = which('bwrap');
if (!bwrap) console.log('bench: no bwrap (apt-get install -y bubblewrap): sbx figures only');

function spawnDone(argv) {
  return new Promise((done, fail) => {
    const child = spawn(argv[0], argv.slice(1), { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => { err += d; });
    child.once('error', fail);
    child.once('close', (code) => (code === 0 ? done() : fail(new Error(`${argv.slice(0, 3).join(' ')} exited ${code}: ${err.slice(0, 300)}`))));
  });
}

function bwrapArgv(work) {
  const a = [bwrap, '--unshare-user', '--unshare-pid', '--unshare-net', '--unshare-uts', '--unshare-ipc', '--unshare-cgroup'];
  a.push('--uid', '1000', '--gid', '1000', '--hostname', 'sbx');
  for (const p of ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/etc', '/opt']) {
    try {
      const st = lstatSync(p);
      if (st.isSymbolicLink()) a.push('--symlink', readlinkSync(p), p);
      else if (st.isDirectory()) a.push('--ro-bind', p, p);
    } catch { /* absent */ }
  }
  a.push('--bind', work, '/work', '--tmpfs', '/tmp', '--dev', '/dev', '--proc', '/proc', '--ro-bind', '/sys', '/sys');
  a.push('--remount-ro', '/', '--chdir', '/work', '--clearenv', '--setenv', 'PATH', '/usr/bin:/bin', '--setenv', 'HOME', '/work');
  a.push('--new-session', '--die-with-parent', '/bin/true');
  return a;
}

const allKinds = {
  bwrap: (work) => spawnDone(bwrapArgv(work)),
  'sbx run (CLI)': (work) => spawnDone([process.execPath, CLI, 'run', '--work', work, '--', '/bin/true']),
  // The native client of the resident sbx (issue 31): what the hooks' rewrites run.
  ...(existsSync(CLIENT) ? { 'sbx-client run': (work) => spawnDone([CLIENT, 'run', '--work', work, '--', '/bin/true']) } : {}),
  ...Object.fromEntries(process.argv.flatMap((a, i) => (a === '--also' ? [process.argv[i + 1]] : []))
    .map((d) => [`sbx-client(${d}) run`, (work) => spawnDone([join(d, 'build', 'sbx-client'), 'run', '--work', work, '--', '/bin/true'])])),
  'run() (library)': async (work) => {
    const env = await run({ cmd: ['/bin/true'], work });
    if (env.verdict.status !== 'pass') throw new Error(`run(): ${env.verdict.status}`);
  },
};
// --kinds picks by the name's first word (bwrap, sbx, sbx-client, run()).
const kinds = Object.fromEntries(Object.entries(allKinds).filter(([k]) => !KINDS || KINDS.includes(k.split(/[ (]/)[0]) || KINDS.includes(k)));

// CPU time a run costs, which the machine's load changes far less than runs/s: clock ticks of this
// bench's reaped children (bwrap and its sandbox, a client) and, for a client kind, of its resident sbx
// (the Node process) and that one's launcher server with the launchers, inits and commands it reaped.
// Kernel threads' work (a network namespace's teardown) is nobody's here. Nor is most of bwrap's: its
// outer process exits without waiting for the sandbox's pid 1 (bwrap 0.8: no wait4 for it), so that
// one (the mounts, pivot_root, the command) is reaped by the system's init and the bwrap figure is the
// outer process alone (perf stat -e task-clock, which follows every descendant: ~2.5x it).
const TICK_MS = 1000 / Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim() || 100);
function ticks(pid, reaped) {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return Number(f[11]) + Number(f[12]) + (reaped ? Number(f[13]) + Number(f[14]) : 0);
  } catch { return 0; }
}
/** The resident sbx of the install at dir ('.' for this one) and its launcher server: [daemon, server] pids. */
function residentPids(dir) {
  const st = spawnSync(process.execPath, [join(dir, 'dist', 'cli.js'), 'daemon', '--status'], { encoding: 'utf8' }).stdout;
  const pid = Number(/pid (\d+)/.exec(st)?.[1] ?? 0);
  if (!pid) return [];
  const server = readdirSync('/proc').filter((p) => /^\d+$/.test(p)).find((p) => {
    try { return readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1].split(' ')[1] === String(pid) && readFileSync(`/proc/${p}/cmdline`, 'latin1').includes('--serve'); } catch { return false; }
  });
  return server ? [pid, Number(server)] : [pid];
}
const installOf = (name) => (name.startsWith('sbx-client(') ? name.slice('sbx-client('.length, name.lastIndexOf(')')) : name.startsWith('sbx-client') ? root : null);

/** runs/s of n workers looping fn(work of worker i) for SECS seconds, and CPU ms a run (by process). */
async function cell(fn, n, works, install) {
  const pids = install ? residentPids(install) : [];
  const before = [ticks('self', true) - ticks('self', false), ...pids.map((p, i) => ticks(p, i === 1))];
  const end = performance.now() + SECS * 1000;
  let count = 0;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: n }, async (_, i) => {
    while (performance.now() < end) { await fn(works[i % works.length]); count++; }
  }));
  const rate = count / ((performance.now() - t0) / 1000);
  const after = [ticks('self', true) - ticks('self', false), ...pids.map((p, i) => ticks(p, i === 1))];
  const cpu = after.map((t, i) => ((t - before[i]) * TICK_MS) / Math.max(count, 1));
  return { rate, count, cpu };
}

function makeRepo(dir) {
  // 10 000 files in 100 directories, a git repo as a project is.
  for (let d = 0; d < 100; d++) {
    mkdirSync(join(dir, `d${d}`));
    for (let f = 0; f < 100; f++) writeFileSync(join(dir, `d${d}`, `f${f}.txt`), `file ${d}/${f}\n`);
  }
  spawnSync('git', ['init', '-q', dir]);
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const made = [];
function works(count, repo) {
  return Array.from({ length: count }, () => {
    const d = mkdtempSync(join(tmpdir(), 'sbx-bench-conc-'));
    made.push(d);
    if (repo) makeRepo(d);
    return d;
  });
}

const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
console.log(`load average before: ${load()} (${spawnSync('nproc', { encoding: 'utf8' }).stdout.trim()} cores); ${SECS} s cells, median of ${REPS}, kinds interleaved`);
const results = [];
for (const repo of WITH_REPO ? [false, true] : [false]) {
  for (const dirs of ['one', 'eight']) {
    const ws = works(dirs === 'one' ? 1 : 8, repo);
    for (const w of ws) {
      let left = PREFILL;
      await Promise.all(Array.from({ length: 8 }, async () => { while (left-- > 0) await run({ cmd: ['/bin/true'], work: w }); }));
    }
    for (const n of LEVELS) {
      const row = { tree: repo ? '10 000 files' : 'empty', dirs, n };
      const names = Object.keys(kinds).filter((k) => !(k === 'bwrap' && !bwrap) && !(k.startsWith('sbx') && !WITH_CLI));
      const rates = Object.fromEntries(names.map((k) => [k, []]));
      const cpus = Object.fromEntries(names.map((k) => [k, []]));
      for (let r = 0; r < REPS; r++) {
        for (let i = 0; i < names.length; i++) {
          const name = names[(i + r) % names.length];
          const c = await cell(kinds[name], n, ws, installOf(name));
          rates[name].push(c.rate);
          cpus[name].push(c.cpu);
        }
      }
      for (const k of names) row[k] = median(rates[k]);
      // Each rep's ratio to bwrap's rate in the same rep (taken minutes apart, medians of rates drift with
      // the machine's load; the kinds of one rep ran within seconds of each other).
      row.paired = Object.fromEntries(names.filter((k) => k !== 'bwrap' && rates.bwrap).map((k) => [k, median(rates[k].map((x, r) => x / rates.bwrap[r]))]));
      results.push(row);
      const cols = Object.keys(kinds).filter((k) => row[k] !== undefined).map((k) => `${k} ${row[k].toFixed(1)}/s${k !== 'bwrap' && row.bwrap ? ` (${(row[k] / row.bwrap).toFixed(2)}x, paired ${row.paired[k].toFixed(2)}x)` : ''}`);
      console.log(`${row.tree.padEnd(13)} ${dirs.padEnd(6)} work dir(s), ${String(n).padStart(2)} at once: ${cols.join(', ')}`);
      // Each part's median over the reps: the bench's children (bwrap, or the client) + the resident sbx + its launchers.
      const cpuText = names.map((k) => {
        // (Reps whose resident sbx was not up yet as the cell began, the first one's, count its client alone: left out.)
        const most = Math.max(...cpus[k].map((c) => c.length));
        const full = cpus[k].filter((c) => c.length === most);
        const parts = full[0].map((_, j) => median(full.map((c) => c[j])));
        return `${k} ${parts.map((x) => x.toFixed(1)).join('+')}${parts.length > 1 ? `=${parts.reduce((a, b) => a + b, 0).toFixed(1)}` : ''}`;
      });
      console.log(`  CPU ms a run (children${names.some((k) => installOf(k)) ? ' + resident sbx + its launchers' : ''}): ${cpuText.join(', ')}`);
    }
    // Every run recorded: history lines == runs made (the CLI's and run()'s) in the dirs of this block.
    let lines = 0; let bad = 0;
    for (const w of ws) {
      try {
        for (const l of readFileSync(join(w, '.sbx', 'history.jsonl'), 'utf8').split('\n').filter(Boolean)) { try { JSON.parse(l); lines++; } catch { bad++; } }
      } catch { /* no runs */ }
    }
    console.log(`  history: ${lines} valid lines, ${bad} cut`);
  }
}
if (bwrap) {
  const at8 = results.filter((r) => r.n === 8);
  for (const r of at8) for (const k of Object.keys(kinds)) {
    if (k === 'bwrap' || r[k] === undefined) continue;
    const x = r.paired[k];
    console.log(`goal: ${k}, 8 at once, ${r.dirs} work dir(s), ${r.tree}: ${x.toFixed(2)}x bwrap, the median of the reps' ratios (>= 0.80x ${x >= 0.8 ? 'met' : 'NOT met'}; ratio of medians ${(r[k] / r.bwrap).toFixed(2)}x)`);
  }
}
if (WITH_PERF && which('perf')) await wholeCpu(works(1, false)[0]);
console.log(`load average after: ${load()}`);
for (const d of made) rmSync(d, { recursive: true, force: true });

// CPU a run with every process counted, which the rows above cannot do for bwrap (its sandbox's pid 1 is
// reaped by the system's init): `perf stat` follows each descendant of a shell loop of PERF_RUNS runs, one
// at a time, and for a client kind also the resident sbx and its launcher server (perf stat -p, which
// follows what they fork); the same loop of plain /bin/true is taken off, so what is left is what the
// sandbox adds to the command. Kernel threads' work (a network namespace's teardown) is still nobody's.
async function wholeCpu(work) {
  const taskMs = (file) => Number(readFileSync(file, 'utf8').split('\n').find((l) => l.includes('task-clock'))?.split(',')[0] ?? NaN);
  const loop = (argv) => `i=0; while [ $i -lt ${PERF_RUNS} ]; do ${argv.map((a) => `'${a}'`).join(' ')} >/dev/null 2>&1 || exit 1; i=$((i+1)); done`;
  const out = join(work, '..', `sbx-bench-perf-${process.pid}`);
  const stat = (argv) => {
    const r = spawnSync('perf', ['stat', '-x,', '-e', 'task-clock', '-o', out, '--', 'sh', '-c', loop(argv)], { stdio: 'ignore' });
    return r.status === 0 ? taskMs(out) : NaN;
  };
  const base = stat(['/bin/true']);
  const parts = [];
  if (bwrap && kinds.bwrap) parts.push(`bwrap ${((stat(bwrapArgv(work).map(String)) - base) / PERF_RUNS).toFixed(2)}`);
  for (const name of Object.keys(kinds).filter((k) => installOf(k))) {
    const install = installOf(name);
    const client = name.startsWith('sbx-client(') ? join(install, 'build', 'sbx-client') : CLIENT;
    const argv = [client, 'run', '--work', work, '--', '/bin/true'];
    spawnSync(argv[0], argv.slice(1), { stdio: 'ignore' }); // the resident up, this work dir known
    const pids = residentPids(install);
    const side = spawn('perf', ['stat', '-x,', '-e', 'task-clock', '-o', `${out}.p`, '-p', pids.join(',')], { stdio: 'ignore' });
    spawnSync('sleep', ['0.3']); // perf attached
    const own = stat(argv);
    const ended = new Promise((done) => side.once('exit', done));
    side.kill('SIGINT');
    await ended; // perf writes its count as it exits
    const resident = taskMs(`${out}.p`);
    parts.push(`${name} ${((own - base) / PERF_RUNS).toFixed(2)}+${(resident / PERF_RUNS).toFixed(2)}=${((own - base + resident) / PERF_RUNS).toFixed(2)}`);
  }
  rmSync(out, { force: true });
  rmSync(`${out}.p`, { force: true });
  console.log(`CPU ms a run beyond /bin/true itself, every process counted (perf stat, ${PERF_RUNS} runs one at a time; a client kind: the client + its resident sbx and launchers): ${parts.join(', ')}`);
}
