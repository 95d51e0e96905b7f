// Micro-experiments, one command each, JSON + SVG:
//   startup       sbx (the library's run(): sandbox, verdict, state) vs bubblewrap vs unshare vs a plain
//                 spawn of /bin/true, interleaved rounds, medians and ratios to bubblewrap's.
//   determinism   four sanitizer tasks × {hermetic, ASLR on, ASLR + inherited env} × N runs: distinct raw
//                 outputs, crash identities and verdicts (also with addresses masked).
//   localization  every task's buggy run: the line the verdict names (first user frame / first error /
//                 first failing test) and the first source line the raw output mentions, vs the fix locus.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run, type RunResult } from '../host/index.js';
import { faultOf } from './corrupt.js';
import { namedLines } from './backends/scripted.js';
import { loadTasks, materialize, removeWork, sha256, type Task } from './tasks.js';
import { prepareTasks } from './setup.js';
import { svgOf } from './figures.js';
import { median } from './stats.js';

export const MICROS = ['startup', 'determinism', 'localization'] as const;
type Micro = (typeof MICROS)[number];

export async function micro(which: Micro, outDir: string, runs?: number): Promise<string[]> {
  mkdirSync(outDir, { recursive: true });
  const { data, spec } = which === 'startup' ? await startup(runs ?? 30) : which === 'determinism' ? await determinism(runs ?? 10) : await localization();
  const json = join(outDir, `${which}.json`);
  const svg = join(outDir, `${which}.svg`);
  writeFileSync(json, `${JSON.stringify(data, null, 2)}\n`);
  writeFileSync(svg, await svgOf(spec));
  return [json, svg];
}

const which = (cmd: string): string | null => {
  const r = spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
};

function spawnTrue(argv: string[]): Promise<void> {
  return new Promise((done, fail) => {
    const c = spawn(argv[0]!, argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] });
    c.stdout.resume();
    c.stderr.resume();
    c.once('error', fail);
    c.once('close', (code) => (code === 0 ? done() : fail(new Error(`${argv.join(' ')} exited ${code}`))));
  });
}

function bwrapArgv(bwrap: string, work: string): string[] {
  const a = [bwrap, '--unshare-user', '--unshare-pid', '--unshare-net', '--unshare-uts', '--unshare-ipc', '--unshare-cgroup', '--uid', '1000', '--gid', '1000', '--hostname', 'sbx'];
  for (const p of ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/etc']) {
    try {
      const st = lstatSync(p);
      if (st.isSymbolicLink()) a.push('--symlink', readlinkSync(p), p);
      else if (st.isDirectory()) a.push('--ro-bind', p, p);
    } catch {
      /* absent */
    }
  }
  a.push(
    '--bind',
    work,
    '/work',
    '--tmpfs',
    '/tmp',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--chdir',
    '/work',
    '--clearenv',
    '--setenv',
    'PATH',
    '/usr/bin:/bin',
    '--new-session',
    '--die-with-parent',
    '/bin/true',
  );
  return a;
}

async function startup(rounds: number): Promise<{ data: unknown; spec: Record<string, unknown> }> {
  const work = mkdtempSync(join(tmpdir(), 'sbx-micro-'));
  chmodSync(work, 0o755);
  const state = mkdtempSync(join(tmpdir(), 'sbx-micro-state-'));
  const variants: { name: string; fn: () => Promise<unknown> }[] = [
    { name: 'spawn /bin/true', fn: () => spawnTrue(['/bin/true']) },
    { name: 'sbx run() (sandbox + verdict + state)', fn: () => run({ cmd: ['/bin/true'], work, state }) },
  ];
  const bw = which('bwrap');
  if (bw) variants.push({ name: 'bubblewrap (same namespaces)', fn: () => spawnTrue(bwrapArgv(bw, work)) });
  if (which('unshare')) variants.push({ name: 'unshare -Urpfn --mount-proc', fn: () => spawnTrue(['unshare', '-Urpfn', '--mount-proc', '/bin/true']) });
  const times = new Map<string, number[]>(variants.map((v) => [v.name, []]));
  for (let i = 0; i < 3; i++) for (const v of variants) await v.fn();
  for (let i = 0; i < rounds; i++) {
    for (let j = 0; j < variants.length; j++) {
      const v = variants[(i + j) % variants.length]!;
      const t = process.hrtime.bigint();
      await v.fn();
      times.get(v.name)!.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
  }
  rmSync(work, { recursive: true, force: true });
  rmSync(state, { recursive: true, force: true });
  const bwMedian = bw ? median(times.get('bubblewrap (same namespaces)')!) : null;
  const rows = variants.map((v) => {
    const xs = times.get(v.name)!;
    const m = median(xs);
    return { variant: v.name, runs: xs.length, median_ms: m, min_ms: Math.min(...xs), ratio_to_bwrap: bwMedian ? m / bwMedian : null };
  });
  const data = { experiment: 'startup', rounds, bubblewrap: bw !== null, results: rows };
  const spec = {
    title: `Startup of /bin/true, median of ${rounds} interleaved rounds`,
    background: 'white',
    data: { values: rows },
    mark: 'bar',
    width: 380,
    encoding: { y: { field: 'variant', type: 'nominal', sort: '-x', title: null }, x: { field: 'median_ms', type: 'quantitative', title: 'median ms' } },
  };
  return { data, spec };
}

const SANITIZER_TASKS = ['c-heap-overflow', 'c-use-after-free', 'c-stack-strcpy', 'c-double-free'];

async function determinism(n: number): Promise<{ data: unknown; spec: Record<string, unknown> }> {
  const modes: { mode: string; opts: { aslr?: boolean; inheritEnv?: boolean } }[] = [
    { mode: 'hermetic', opts: {} },
    { mode: 'ASLR on', opts: { aslr: true } },
    { mode: 'ASLR + inherited env', opts: { aslr: true, inheritEnv: true } },
  ];
  const rows: Record<string, unknown>[] = [];
  for (const task of loadTasks(undefined, SANITIZER_TASKS)) {
    for (const m of modes) {
      const raws = new Set<string>();
      const ids = new Set<string>();
      const verdicts = new Set<string>();
      const masked = new Set<string>();
      for (let i = 0; i < n; i++) {
        const work = materialize(task);
        const env = await run({ cmd: task.cmd, work, state: join(work, '.sbx'), timeout: task.timeout, ...m.opts });
        raws.add(sha256(env.log ? readFileSync(env.log) : ''));
        ids.add(env.verdict.crash?.identity ?? env.verdict.status);
        verdicts.add(stableVerdict(env));
        masked.add(stableVerdict(env).replace(/0x[0-9a-f]+/gi, '0x?'));
        removeWork(work);
      }
      rows.push({ task: task.id, mode: m.mode, runs: n, distinct_raw: raws.size, distinct_identities: ids.size, distinct_verdicts: verdicts.size, distinct_verdicts_addresses_masked: masked.size });
    }
  }
  const spec = {
    title: `Distinct raw outputs in ${n} runs of each sanitizer task`,
    background: 'white',
    data: { values: rows },
    mark: 'bar',
    width: { step: 14 },
    encoding: {
      x: { field: 'mode', type: 'nominal', title: null, axis: { labelAngle: -30 } },
      xOffset: { field: 'task' },
      y: { field: 'distinct_raw', type: 'quantitative', title: 'distinct raw outputs' },
      color: { field: 'task', type: 'nominal' },
    },
  };
  return { data: { experiment: 'determinism', runs_per_cell: n, results: rows }, spec };
}

/** The verdict without what is allowed to differ between identical runs (wall time, the log's path). */
function stableVerdict(env: RunResult): string {
  const { tail: _t, ...v } = env.verdict as RunResult['verdict'] & { tail?: unknown };
  return JSON.stringify(v);
}

async function localization(): Promise<{ data: unknown; spec: Record<string, unknown> }> {
  const rows: Record<string, unknown>[] = [];
  const tasks = loadTasks();
  await prepareTasks(tasks);
  for (const task of tasks) {
    const work = materialize(task);
    const env = await run({ cmd: task.cmd, work, state: join(work, '.sbx'), timeout: task.timeout });
    const raw = env.log && existsSync(env.log) ? readFileSync(env.log, 'utf8') : '';
    removeWork(work);
    const verdictLine = faultOf(env.verdict);
    const firstRaw = firstMention(raw, task);
    const [lo, hi] = task.fix.lines;
    const near = (r: { file: string; line: number } | null): boolean => r !== null && r.file === task.fix.file && r.line >= lo - 3 && r.line <= hi + 3;
    const anyVerdict = namedLines(renderedRefs(env), task).some((r) => near(r));
    rows.push({
      task: task.id,
      status: env.verdict.status,
      fix: `${task.fix.file}:${lo}${hi !== lo ? `-${hi}` : ''}`,
      verdict_names: verdictLine ? `${verdictLine.file}:${verdictLine.line}` : null,
      verdict_hit: near(verdictLine),
      verdict_any_hit: anyVerdict,
      raw_first: firstRaw ? `${firstRaw.file}:${firstRaw.line}` : null,
      raw_first_hit: near(firstRaw),
      distance_verdict: verdictLine && verdictLine.file === task.fix.file ? verdictLine.line - lo : null,
      distance_raw: firstRaw && firstRaw.file === task.fix.file ? firstRaw.line - lo : null,
    });
  }
  const n = rows.length;
  const count = (k: string): number => rows.filter((r) => r[k]).length;
  const summary = { tasks: n, verdict_first_line_within_3: count('verdict_hit'), verdict_any_line_within_3: count('verdict_any_hit'), raw_first_line_within_3: count('raw_first_hit') };
  const long = rows
    .flatMap((r) => [
      { task: r.task, source: 'verdict: first user frame / error / failing test', distance: r.distance_verdict },
      { task: r.task, source: 'raw: first source line mentioned', distance: r.distance_raw },
    ])
    .filter((x) => x.distance !== null);
  const spec = {
    title: 'Named line minus fix line (within ±3 counts as a hit)',
    background: 'white',
    data: { values: long },
    width: 360,
    height: { step: 16 },
    layer: [
      { mark: { type: 'rect', opacity: 0.15, color: 'green' }, data: { values: [{ a: -3, b: 3 }] }, encoding: { x: { field: 'a', type: 'quantitative' }, x2: { field: 'b' } } },
      {
        mark: { type: 'point', filled: true, size: 70 },
        encoding: {
          y: { field: 'task', type: 'nominal', title: null },
          x: { field: 'distance', type: 'quantitative', title: 'lines from the fix' },
          color: { field: 'source', type: 'nominal', legend: { orient: 'bottom' } },
          shape: { field: 'source', type: 'nominal' },
        },
      },
    ],
  };
  return { data: { experiment: 'localization', summary, results: rows }, spec };
}

/** Every file:line the verdict's JSON mentions, in order (frames, allocation sites, errors, tests). */
function renderedRefs(env: RunResult): string {
  const refs: string[] = [];
  const walk = (x: unknown): void => {
    if (Array.isArray(x)) {
      x.forEach(walk);
      return;
    }
    if (x && typeof x === 'object') {
      const o = x as Record<string, unknown>;
      if (typeof o.file === 'string' && typeof o.line === 'number') refs.push(`${o.file}:${o.line}`);
      for (const v of Object.values(o)) walk(v);
    }
  };
  walk(env.verdict);
  return refs.join('\n');
}

function firstMention(raw: string, task: Task): { file: string; line: number } | null {
  return namedLines(raw, task)[0] ?? null;
}
