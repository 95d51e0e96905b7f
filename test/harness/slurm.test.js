// The experiment on a real Slurm cluster (issue 33): a one-node cluster (munged, slurmctld, slurmd from
// Debian's slurm-wlm) started in a temp dir; `sbatch --array=0-2` runs three shards, each `srun` step
// running the experiment (and its `sbx run`s) as the submitting user (sbxtest when the suite runs as root
// and that user exists); the union of the shards is the unsharded run, episode for episode. The shard
// comes from the array index alone (no --shard). Skipped, with the reason, where Slurm cannot start.
import { test as uvuTest } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { needs, skipping } from '../_tools.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const EXP = join(ROOT, 'dist/experiment.js');
const what = 'test/harness/slurm';
let test = needs(what, ['slurm', 'python3'], uvuTest);
if (!test.skipping && process.getuid() !== 0) test = skipping(uvuTest, what, 'slurmd must start as root to run jobs as their user; run this suite as root');

const sh = (cmd, args, opts = {}) => spawnSync(cmd, args, { encoding: 'utf8', timeout: 120_000, ...opts });
const rows = (f) => readFileSync(f, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
const freePort = () => new Promise((res) => { const s = createServer().listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => res(p)); }); });

const dir = test.skipping ? '' : mkdtempSync(join(tmpdir(), 'sbx-slurm-'));
const conf = join(dir, 'slurm.conf');
const env = { ...process.env, SLURM_CONF: conf, JOB_COMPLETION_INDEX: '', JOB_COMPLETIONS: '' };
const user = sh('id', ['-u', 'sbxtest']).status === 0 ? 'sbxtest' : 'root';
let started = false;

function stop() {
  for (const pid of ['slurmd.pid', 'slurmctld.pid', 'munge/munged.pid']) {
    try { process.kill(Number(readFileSync(join(dir, pid), 'utf8')), 'SIGTERM'); } catch { /* not running */ }
  }
}

test.before(async () => {
  for (const d of ['state', 'spool', 'log', 'munge', 'out']) mkdirSync(join(dir, d));
  writeFileSync(join(dir, 'munge/munge.key'), randomBytes(1024), { mode: 0o400 });
  chmodSync(dir, 0o755); chmodSync(join(dir, 'out'), 0o777);
  const sock = join(dir, 'munge/munge.sock');
  const m = sh('munged', [`--key-file=${join(dir, 'munge/munge.key')}`, `--socket=${sock}`, `--pid-file=${join(dir, 'munge/munged.pid')}`,
    `--log-file=${join(dir, 'munge/munged.log')}`, `--seed-file=${join(dir, 'munge/seed')}`, '-f']);
  assert.is(m.status, 0, `munged: ${m.stderr}`);
  const host = sh('hostname', ['-s']).stdout.trim();
  const [ctl, slurmd] = [await freePort(), await freePort()];
  writeFileSync(conf, [
    'ClusterName=sbxtest', `SlurmctldHost=${host}`, `SlurmctldPort=${ctl}`, `SlurmdPort=${slurmd}`,
    'AuthType=auth/munge', `AuthInfo=socket=${sock}`, 'CredType=cred/munge', 'SlurmUser=root', 'SlurmdUser=root',
    `StateSaveLocation=${dir}/state`, `SlurmdSpoolDir=${dir}/spool`, `SlurmctldPidFile=${dir}/slurmctld.pid`, `SlurmdPidFile=${dir}/slurmd.pid`,
    `SlurmctldLogFile=${dir}/log/slurmctld.log`, `SlurmdLogFile=${dir}/log/slurmd.log`,
    // No cgroups: the plugins that need none (a container's or CI's cgroup tree may not be ours).
    'ProctrackType=proctrack/linuxproc', 'TaskPlugin=task/none', 'JobAcctGatherType=jobacct_gather/none', 'AccountingStorageType=accounting_storage/none',
    'SelectType=select/cons_tres', 'SelectTypeParameters=CR_Core', 'MpiDefault=none', 'SwitchType=switch/none', 'ReturnToService=2',
    `NodeName=${host} CPUs=2 State=UNKNOWN`, `PartitionName=test Nodes=${host} Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES`, '',
  ].join('\n'));
  assert.is(sh('slurmctld', ['-f', conf], { env }).status, 0, 'slurmctld did not start');
  assert.is(sh('slurmd', ['-f', conf], { env }).status, 0, 'slurmd did not start');
  started = true;
  for (let i = 0; i < 100; i++) {
    if (/\bidle\b/.test(sh('sinfo', ['-h', '-o', '%T'], { env }).stdout)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`the Slurm node never came up: ${sh('tail', ['-n', '5', join(dir, 'log/slurmctld.log'), join(dir, 'log/slurmd.log')]).stdout}`);
});

test.after(async () => {
  if (started) stop();
  await new Promise((r) => setTimeout(r, 500)); // the daemons' last writes (munged's socket, its seed)
  if (dir && !process.env.SBX_KEEP) rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
});

test('sbatch --array=0-2: three shards, each an srun step as the submitting user, are one unsharded run', () => {
  const common = ['--model', 'scripted:named-line', '--conditions', 'raw,structured,no_feedback', '--tasks', 'py-interval,py-cli', '--seeds', '1'];
  const out = join(dir, 'out');
  const q = (a) => `'${a.replace(/'/g, `'\\''`)}'`;
  const script = join(dir, 'shards.sh');
  writeFileSync(script, [
    '#!/bin/sh',
    '#SBATCH --array=0-2',
    `#SBATCH --output=${out}/slurm-%a.txt`,
    'set -e',
    // The shard is the array index (no --shard); HOME: the user's own sbx caches stay in the job's dir.
    `export HOME=${out}/home-$SLURM_ARRAY_TASK_ID`,
    `srun ${q(process.execPath)} ${q(EXP)} ${common.map(q).join(' ')} --out ${out}/shard-$SLURM_ARRAY_TASK_ID.jsonl`,
    `id -un > ${out}/user-$SLURM_ARRAY_TASK_ID`,
    '',
  ].join('\n'), { mode: 0o755 });
  const submit = user === 'root' ? sh('sbatch', ['--wait', script], { env, cwd: out })
    : sh('su', [user, '-s', '/bin/sh', '-c', `cd ${q(out)} && SLURM_CONF=${q(conf)} sbatch --wait ${q(script)}`], { env, timeout: 600_000 });
  const logs = [0, 1, 2].map((i) => (existsSync(join(out, `slurm-${i}.txt`)) ? readFileSync(join(out, `slurm-${i}.txt`), 'utf8') : '(no output)')).join('\n');
  assert.is(submit.status, 0, `sbatch: ${submit.stderr}\n${logs}`);
  const parts = [0, 1, 2].map((i) => rows(join(out, `shard-${i}.jsonl`)));
  assert.equal(parts.map((p) => p.length), [2, 2, 2], logs);
  for (const i of [0, 1, 2]) assert.is(readFileSync(join(out, `user-${i}`), 'utf8').trim(), user);

  const whole = join(dir, 'whole.jsonl');
  const r = sh(process.execPath, [EXP, ...common, '--out', whole], { env, timeout: 600_000 });
  assert.is(r.status, 0, r.stderr);
  const strip = ({ wall_ms: _w, pre_raw_sha256: _p, ...e }) => e;
  const byKey = (xs) => Object.fromEntries(xs.map((e) => [e.key, strip(e)]));
  const merged = byKey(parts.flat()), one = byKey(rows(whole));
  assert.equal(Object.keys(merged).sort(), Object.keys(one).sort());
  for (const k of Object.keys(one)) assert.equal(merged[k], one[k], k);
});

test.run();
