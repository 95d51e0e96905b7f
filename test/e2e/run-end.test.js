// Issue 34 item 2: a run ends in one engine call (the verdict, its streak key, its delta against the previous
// run read ahead without the lock, its text); the record takes that delta only when no other run of the
// command was recorded in between, else makes it again against the true previous run. Real runs of sh, the
// real CLI for the run that comes in between.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../fixtures/lib/cases.js';
import { workDir, sbxRun } from './_helpers.js';

const { runReport, loadEngine } = await import(join(ROOT, 'dist/index.js'));

/** The engine sbx uses, counting conclude() calls; `between` runs as a run's verdict is ended. */
async function watched(between = () => {}) {
  const engine = await loadEngine();
  const seen = { conclude: 0, ends: 0 };
  return {
    seen,
    engine: {
      ...engine,
      conclude: (...a) => (seen.conclude++, engine.conclude(...a)),
      stream: (o) => {
        const s = engine.stream(o);
        // (the engine's warm-up ends its own verdicts with no outcome)
        return { ...s, end: (run) => (run?.outcome && (seen.ends++, between()), run ? s.end(run) : s.end()) };
      },
    },
  };
}

const history = (dir) => readFileSync(join(dir, '.sbx/history.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));

test('the common path: the delta and text come with the verdict, conclude() is not called', async () => {
  const dir = workDir({ 'run.sh': 'echo fail; exit 1\n' });
  const cmd = ['sh', 'run.sh'];
  const w = await watched();
  const a = await runReport({ cmd, work: dir, engine: w.engine });
  const b = await runReport({ cmd, work: dir, engine: w.engine });
  assert.is(w.seen.ends, 2, 'both runs ended with their delta in the verdict call');
  assert.is(w.seen.conclude, 0, 'no second engine call');
  assert.is(a.env.delta.first_run, true);
  assert.is(b.env.delta.first_run, false);
  assert.is(b.env.delta.repeat.same_verdict_runs, 2, b.env.delta.summary);
  assert.match(b.text, /2 runs in a row/);
  const h = history(dir);
  assert.is(h.length, 2);
  assert.is(h[1].key, h[0].key, 'one streak key for the same verdict');
});

test('another run recorded between the read-ahead and the lock: the delta is made again against it', async () => {
  const dir = workDir({ 'run.sh': 'echo fail; exit 1\n' });
  const cmd = ['sh', 'run.sh'];
  const first = await runReport({ cmd, work: dir });
  assert.is(first.env.delta.first_run, true);
  // As this run's verdict is ended (its baseline read: the first run), another sbx records a run of the same command.
  let other = null;
  const w = await watched(() => {
    other ??= sbxRun(dir, cmd);
  });
  const r = await runReport({ cmd, work: dir, engine: w.engine });
  assert.ok(other, 'the other run came in between');
  assert.is(other.env.delta.repeat.same_verdict_runs, 2, other.env.delta.summary);
  assert.is(w.seen.conclude, 1, 'the delta was made again under the lock');
  assert.is(r.env.delta.repeat.same_verdict_runs, 3, `against the true previous run: ${r.env.delta.summary}`);
  assert.match(r.text, /3 runs in a row/);
  assert.match(r.env.delta.summary, /3 runs in a row/);
  const h = history(dir);
  assert.is(h.length, 3, 'no history line lost');
  const last = JSON.parse(readFileSync(join(dir, '.sbx/last.json'), 'utf8'));
  assert.is(last.state.same_cmd, 3);
  assert.is(last.delta.summary, r.env.delta.summary);
});

test('one in between with another verdict: this run is compared with it, not with the run read ahead', async () => {
  // What the command prints is in the file `say`: a plain failure, a pass, a compiler error (three streak keys).
  const dir = workDir({ 'run.sh': 'case "$(cat say)" in fail) exit 1;; pass) echo ok;; *) echo "main.c:1:5: error: expected \';\' before \'}\' token"; exit 1;; esac\n' });
  const cmd = ['sh', 'run.sh'];
  const say = (w) => writeFileSync(join(dir, 'say'), w);
  say('fail');
  const first = await runReport({ cmd, work: dir });
  assert.is(first.env.verdict.status, 'runtime-error');
  say('error');
  let other = null;
  const w = await watched(() => {
    say('pass');
    other ??= sbxRun(dir, cmd);
  });
  const r = await runReport({ cmd, work: dir, engine: w.engine });
  assert.is(other?.verdict.status, 'pass');
  assert.is.not(r.env.verdict.status, 'pass');
  assert.is.not(r.env.verdict.status, 'runtime-error');
  assert.is(r.env.delta.repeat.same_verdict_runs, 1);
  assert.is(r.env.delta.status.before, 'pass', `compared with the run in between: ${r.env.delta.summary}`);
  assert.is(w.seen.conclude, 1);
  assert.is(history(dir).length, 3);
});

test.run();
