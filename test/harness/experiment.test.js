// The experiment end to end in sbx through `npm run experiment`'s entry (dist/experiment.js) with the
// scripted backends: every task with the oracle, every arm with the policy that edits the line the
// feedback names; then analyze's tables, the figures, record/replay, and shards against one run.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { needs } from '../_tools.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const EXP = join(ROOT, 'dist/experiment.js');
const dir = mkdtempSync(join(tmpdir(), 'sbx-exp-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
const exp = (...args) => spawnSync(process.execPath, [EXP, ...args], { encoding: 'utf8', maxBuffer: 64 << 20, env: { ...process.env, JOB_COMPLETION_INDEX: '', JOB_COMPLETIONS: '' } });
const rows = (f) => readFileSync(f, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
const strip = ({ wall_ms, ...r }) => r;
const await_fs = await import('node:fs');

// The tasks' toolchains, in the sandbox: g++ (the C++ task), python3, rustc (Debian's, on the sandbox's PATH).
const allTasks = needs('test/harness/experiment: every task', ['g++', 'python3', 'rustc'], test);
const pyTasks = needs('test/harness/experiment: the Python tasks', ['python3'], test);

allTasks('oracle: every task succeeds in sbx, verified by an independent re-run and the protected hashes', () => {
  const out = join(dir, 'oracle.jsonl');
  const r = exp('--model', 'scripted:oracle', '--conditions', 'structured_delta', '--tasks', 'all', '--seeds', '1', '--workers', '2', '--out', out);
  assert.is(r.status, 0, r.stderr);
  const eps = rows(out);
  assert.is(eps.length, 32);
  for (const e of eps) {
    assert.ok(e.success, `${e.task}: ${e.rerun_status} ${e.statuses}`);
    assert.is(e.stop, 'done');
    assert.ok(e.protected_ok);
    assert.ok(e.edit_hit, e.task);
    assert.ok(e.ran_buggy_first);
    assert.is(e.statuses.at(-1), 'pass');
    assert.not.equal(e.statuses[0], 'pass');
    assert.ok(e.raw_bytes > 0 && e.shown_chars > 0 && e.tokens.input > 0);
    assert.is(e.cost_usd, 0);
  }
});

const named = join(dir, 'named.jsonl');
pyTasks('named-line over every arm: feedback that names the fault lets it succeed, no_feedback and the decoy do not', () => {
  const r = exp('--model', 'scripted:named-line', '--conditions', 'all', '--tasks', 'c-haystack,py-exception', '--seeds', '1', '--workers', '2', '--out', named);
  assert.is(r.status, 0, r.stderr);
  const eps = rows(named);
  assert.is(eps.length, 22);
  const get = (t, c) => eps.find((e) => e.task === t && e.condition === c);
  for (const t of ['c-haystack', 'py-exception']) {
    for (const c of ['raw', 'truncate30k', 'truncate10k', 'truncate40k', 'regex', 'structured', 'structured_delta', 'raw+mask2']) assert.ok(get(t, c).success, `${t} ${c}`);
    assert.not.ok(get(t, 'no_feedback').success, `${t} no_feedback`);
    assert.not.ok(get(t, 'no_feedback').edit_hit);
    const bent = get(t, 'corrupt_line');
    assert.not.ok(bent.success, `${t} corrupt_line`);
    assert.ok(bent.decoy_touched);
    assert.ok(bent.corrupt_applied);
    assert.equal(bent.first_edit.lines, [bent.decoy.line]);
  }
  // The run before any edit is the same run in every arm: identical raw bytes for the C task.
  assert.is(new Set(eps.filter((e) => e.task === 'c-haystack').map((e) => e.pre_raw_sha256)).size, 1);
  assert.is(new Set(eps.filter((e) => e.task === 'py-exception').map((e) => e.pre_raw_timing_masked_sha256)).size, 1);
  // The masked arm carried fewer input tokens than raw for the same choices.
  assert.ok(get('c-haystack', 'raw+mask2').tokens.input < get('c-haystack', 'raw').tokens.input);
  assert.ok(get('c-haystack', 'structured').shown_chars < get('c-haystack', 'raw').shown_chars);
});

pyTasks('analyze prints the tables; figures are SVG', () => {
  const r = exp('analyze', named);
  assert.is(r.status, 0, r.stderr);
  assert.match(r.stdout, /## scripted:named-line/);
  assert.match(r.stdout, /\| no_feedback \| 2 \| 0\/2 = 0 % \(0 %–66 %\) \|/);
  assert.match(r.stdout, /\| raw \| 2 \| 2\/2 = 100 % \(34 %–100 %\) \|/);
  assert.match(r.stdout, /### Paired against no_feedback/);
  assert.match(r.stdout, /### Per task/);
  assert.match(r.stdout, /\| c-haystack \| 1\/1 \|/);
  assert.match(r.stdout, /byte-identical across arms for \d of 2 tasks/);
  assert.match(r.stdout, /the decoy took in 4 of 4 episodes/);
  // Deterministic (the bootstrap is seeded); lines that are not episode records are skipped and counted.
  assert.is(exp('analyze', named).stdout, r.stdout);
  const mixed = join(dir, 'mixed.jsonl');
  await_fs.writeFileSync(mixed, `${readFileSync(named, 'utf8')}{"schema":"sbx.episode/1","key":"x"}\ntorn{`);
  const m = exp('analyze', mixed);
  assert.is(m.stdout, r.stdout);
  assert.match(m.stderr, /2 line\(s\) that are not episode records skipped/);
  const f = exp('figures', named, '--out', join(dir, 'figs'));
  assert.is(f.status, 0, f.stderr);
  for (const n of ['success', 'tokens', 'turns', 'shown-vs-raw', 'task-matrix', 'steering']) {
    const svg = readFileSync(join(dir, 'figs', `${n}.svg`), 'utf8');
    assert.ok(svg.startsWith('<svg'), n);
    assert.ok(svg.length > 2000, n);
  }
  assert.match(readFileSync(join(dir, 'figs/steering.svg'), 'utf8'), /fix locus/);
});

test('record, then replay: the same episode again without the model (loop-prone: budget, nudges)', () => {
  const rec = join(dir, 'rec'); const a = join(dir, 'a.jsonl'); const b = join(dir, 'b.jsonl');
  const args = ['--model', 'scripted:loop-prone', '--conditions', 'structured_delta', '--tasks', 'loop-py-rounding', '--budget', '6'];
  assert.is(exp(...args, '--out', a, '--record', rec).status, 0);
  assert.is(readdirSync(rec).length, 1);
  const r = exp(...args, '--out', b, '--replay', rec);
  assert.is(r.status, 0, r.stderr);
  const [x] = rows(a); const [y] = rows(b);
  // unittest prints its own duration: the raw bytes match once that is masked.
  const { pre_raw_sha256: _x, ...xx } = strip(x); const { pre_raw_sha256: _y, ...yy } = strip(y);
  assert.equal(yy, xx);
  assert.is(y.pre_raw_timing_masked_sha256, x.pre_raw_timing_masked_sha256);
  assert.is(x.stop, 'budget');
  assert.is(x.tool_calls, 6);
  assert.ok(x.nudges >= 1, 'prose-only replies are nudged');
  assert.is(x.api_turns, x.tool_calls + x.nudges);
  assert.not.ok(x.success);
  // A recording cut short: the replay says so in one line, and the episode is recorded as an error.
  const f = readdirSync(rec)[0];
  const lines = readFileSync(join(rec, f), 'utf8').trim().split('\n');
  const { writeFileSync } = await_fs;
  writeFileSync(join(rec, f), `${lines.slice(0, 2).join('\n')}\n`);
  const c = exp(...args, '--out', join(dir, 'c.jsonl'), '--replay', rec);
  assert.is(c.status, 1);
  assert.match(rows(join(dir, 'c.jsonl'))[0].error, /diverged from its recording/);
});

test('three shards run apart give exactly the episodes of one unsharded run; a second run resumes', () => {
  const common = ['--model', 'scripted:named-line', '--conditions', 'raw,structured,no_feedback', '--tasks', 'py-interval,py-cli', '--seeds', '1'];
  const whole = join(dir, 'whole.jsonl');
  assert.is(exp(...common, '--out', whole).status, 0);
  const parts = [0, 1, 2].map((i) => {
    const f = join(dir, `shard${i}.jsonl`);
    const r = i === 2
      ? spawnSync(process.execPath, [EXP, ...common, '--out', f], { encoding: 'utf8', env: { ...process.env, JOB_COMPLETION_INDEX: '2', JOB_COMPLETIONS: '3' } })
      : exp(...common, '--shard', `${i}/3`, '--out', f);
    assert.is(r.status, 0, r.stderr);
    return rows(f);
  });
  assert.equal(parts.map((p) => p.length), [2, 2, 2]);
  const byKey = (xs) => Object.fromEntries(xs.map((e) => [e.key, strip(e)]));
  const merged = byKey(parts.flat());
  const one = byKey(rows(whole));
  assert.equal(Object.keys(merged).sort(), Object.keys(one).sort());
  for (const k of Object.keys(one)) {
    const { pre_raw_sha256: _a, ...m } = merged[k]; const { pre_raw_sha256: _b, ...o } = one[k];
    assert.equal(m, o, k);
  }
  const again = exp(...common, '--out', whole);
  assert.is(again.status, 0);
  assert.match(again.stderr, /0 episodes run, 6 already recorded/);
  assert.is(rows(whole).length, 6);
  const bad = exp(...common, '--shard', '3/3', '--out', join(dir, 'x.jsonl'));
  assert.is(bad.status, 2);
  assert.match(bad.stderr, /bad shard "3\/3"/);
});

test('a bad flag, condition or model is one line and a usage exit', () => {
  for (const [args, re] of [[['--model', 'scripted:oracle', '--conditions', 'rawish'], /unknown condition "rawish"/], [['--model', 'nope:x'], /unknown backend "nope"/], [['--modle', 'x'], /Unknown option '--modle'/], [['--model', 'scripted:psychic', '--tasks', 'py-cli'], /unknown scripted policy "psychic"/]]) {
    const r = exp(...args, '--out', join(dir, 'bad.jsonl'));
    assert.ok(r.status !== 0, args.join(' '));
    assert.match(r.stderr, re);
    assert.is(r.stderr.trim().split('\n').length, 1, r.stderr);
  }
});

pyTasks('run-before-edit shows one harness run up front; the API-call cap stops an episode that keeps talking', () => {
  const base = ['--model', 'scripted:oracle', '--conditions', 'raw', '--tasks', 'py-interval'];
  const plain = join(dir, 'plain.jsonl'); const pre = join(dir, 'pre.jsonl');
  assert.is(exp(...base, '--out', plain).status, 0);
  assert.is(exp(...base, '--run-before-edit', '--out', pre).status, 0);
  const [p] = rows(plain); const [q] = rows(pre);
  assert.ok(p.success && q.success);
  assert.is(q.run_calls, p.run_calls + 1);
  assert.is(q.tool_calls, p.tool_calls);
  assert.is(q.options.runBeforeEdit, true);
  assert.is(q.pre_raw_timing_masked_sha256, p.pre_raw_timing_masked_sha256);
  const capped = join(dir, 'capped.jsonl');
  assert.is(exp('--model', 'scripted:loop-prone', '--conditions', 'raw', '--tasks', 'py-interval', '--max-api-calls', '5', '--out', capped).status, 0);
  const [c] = rows(capped);
  assert.is(c.stop, 'api-cap');
  assert.is(c.api_turns, 5);
  assert.is(c.api_turns, c.tool_calls + c.nudges);
});

pyTasks('a progress bar on a terminal (through script(1)), none when stderr is a pipe', () => {
  const args = ['--model', 'scripted:oracle', '--conditions', 'raw,no_feedback', '--tasks', 'py-interval'];
  const piped = exp(...args, '--out', join(dir, 'bar-piped.jsonl'));
  assert.is(piped.status, 0);
  assert.is(piped.stderr, `experiment: 2 episodes run, 0 already recorded, 0 ended in an error → ${join(dir, 'bar-piped.jsonl')}\n`);
  if (spawnSync('sh', ['-c', 'command -v script']).status !== 0) return;
  const cmd = [process.execPath, EXP, ...args, '--out', join(dir, 'bar.jsonl')].map((a) => `'${a}'`).join(' ');
  const tty = spawnSync('script', ['-qec', cmd, '/dev/null'], { encoding: 'utf8' });
  assert.is(tty.status, 0, tty.stdout);
  assert.match(tty.stdout, /episodes [█░]+ 2\/2/);
});

test.run();
