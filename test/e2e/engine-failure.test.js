// Issue 29 item 9: when the verdict engine fails on a run's log (a trap: a bug in sbx), the run still
// counts. Before, `sbx run` over 70 MB of one gcc warning printed "verdict engine failed: unreachable; this
// is a bug in sbx" and exited 70: nothing recorded, no log path. The engine no longer traps on that log
// (test/engine/bounded-diag.test.js), so a trap is stood in for here: the real engine, wrapped to fail
// once it has been given more than 1 MB, passed to runReport (RunOptions.engine). Real runs in the sandbox.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, ROOT, workDir } from './_helpers.js';

const { runReport, mirrorExit, createEngine, SbxError } = await import(join(ROOT, 'dist/index.js'));
const TRAP = 'verdict engine failed: unreachable; this is a bug in sbx, please report it with the log';

/** The real engine, failing as a trap does once it has been fed more than limit bytes in one verdict. */
async function trappingEngine(limit) {
  const e = await createEngine();
  const check = (n) => { if (n > limit) throw new SbxError('E_ENGINE', TRAP); };
  return {
    ...e,
    verdict(bytes, o) { check(bytes.length); return e.verdict(bytes, o); },
    stream(o) {
      const s = e.stream(o);
      let fed = 0;
      return { push(c) { fed += c.length; try { check(fed); } catch (err) { s.end(); throw err; } s.push(c); }, end: () => s.end() };
    },
  };
}

// 2 MB of a real gcc warning line (cfamily/cc-plain-output-gcc), then the command fails.
const WARN = "main.c:4:12: warning: 'helper' defined but not used [-Wunused-function]";
const cmd = ['sh', '-c', `yes "${WARN}" | head -n 30000; echo 'main.c:5:24: error: last words'; exit 1`];

test('the engine fails on the whole log: the run is recorded, its verdict read from the tail, the note names the log', async () => {
  const dir = workDir();
  const report = await runReport({ cmd, work: dir, engine: await trappingEngine(1 << 20) });
  const log = report.env.log;
  assert.ok(log && existsSync(log), `log path ${log}`);
  assert.ok(report.problem?.includes(TRAP), report.problem);
  assert.ok(report.problem.includes(`the whole log is ${log}`), report.problem);
  assert.match(report.problem, /reads the log's last 64 KiB alone/);
  assert.not.match(report.problem, /\n/);
  // The tail holds the last words; the command's exit is mirrored.
  assert.is(report.env.verdict.counts.errors, 1, JSON.stringify(report.env.verdict.counts));
  assert.is(mirrorExit(report.env, report.setupCode), 1);
  // Recorded: history lists it, with its log.
  const h = spawnSync(process.execPath, [CLI, 'history', '--work', dir, '--json'], { encoding: 'utf8' });
  assert.is(h.status, 0, h.stderr);
  const runs = h.stdout.trim().split('\n').map((l) => JSON.parse(l));
  assert.is(runs.length, 1, h.stdout);
  assert.ok(log.endsWith(runs[0].log), `${runs[0].log} vs ${log}`);
  // The next run of the same command has a delta against it.
  const again = await runReport({ cmd, work: dir, engine: await trappingEngine(1 << 20) });
  assert.is(again.env.delta.first_run, false, JSON.stringify(again.env.delta));
});

test('a short run whose whole log fails: the verdict of the exit alone, recorded, the log named', async () => {
  const dir = workDir();
  const report = await runReport({ cmd: ['sh', '-c', `echo "${WARN}"; exit 3`], work: dir, engine: await trappingEngine(10) });
  assert.ok(existsSync(report.env.log));
  assert.match(report.problem, /reads the exit status alone; the whole log is /);
  assert.ok(report.problem.endsWith(report.env.log), report.problem);
  assert.is(mirrorExit(report.env, report.setupCode), 3);
});

test('an engine that fails on everything: one E_ENGINE line naming the log, which is on disk', async () => {
  const dir = workDir();
  const err = await runReport({ cmd: ['sh', '-c', 'echo hi; exit 1'], work: dir, engine: await trappingEngine(-1) }).then(() => null, (e) => e);
  assert.ok(err instanceof SbxError, String(err));
  assert.is(err.code, 'E_ENGINE');
  assert.not.match(err.message, /\n/);
  const m = err.message.match(/its log is (\S+)$/);
  assert.ok(m && existsSync(m[1]), err.message);
});

test.run();
