// The verdict read as the command writes its output (src/host/log-follow.ts) is the verdict of the log read
// back once the command is over (verdictOfFile), byte for byte: real fixture logs replayed by a command that
// writes them in chunks with pauses, with and without the log's cap, under several exits.
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { run, createEngine, verdictOfFile } from '../../dist/index.js';
import { listCases } from '../../fixtures/lib/cases.js';
import { workDir } from './_helpers.js';

const KiB = 1024;
const engine = await createEngine();
// Which streams were used whole: exitKnown()'s answers, in order.
const answers = [];
const plainStream = engine.stream.bind(engine);
engine.stream = (o) => {
  const s = plainStream(o);
  return { push: (c) => s.push(c), end: (run) => s.end(run), exitKnown: (k) => { const r = s.exitKnown(k); answers.push(r); return r; } };
};

const cases = listCases();
const pick = (re) => cases.filter((c) => re.test(c.id));
/** The logs of `group`, one after another, repeated (or cut) to `size` bytes. */
function logOf(group, size) {
  const one = Buffer.concat(group.map((c) => c.log));
  return Buffer.concat(Array.from({ length: Math.ceil(size / one.length) }, () => one)).subarray(0, size);
}

/** `sh` writing the log in `chunk`-byte pieces, 5 ms apart, then exiting `exit` (a number or `kill -SEGV $$`). */
async function replay(log, { chunk = 32 * KiB, exit = 1, maxLog } = {}) {
  const dir = workDir();
  writeFileSync(join(dir, 'log.in'), log);
  const n = Math.ceil(log.length / chunk);
  const end = typeof exit === 'number' ? `exit ${exit}` : exit;
  const script = `i=0; while [ $i -lt ${n} ]; do dd if=log.in bs=${chunk} skip=$i count=1 status=none; sleep 0.005; i=$((i+1)); done; ${end}`;
  const before = answers.length;
  const env = await run({ cmd: ['sh', '-c', script], work: dir, engine, ...(maxLog ? { maxLog } : {}) });
  const o = env.outcome;
  const back = await verdictOfFile(engine, env.log, { exit: o.exit_code, signal: o.signal, timedOut: o.timed_out, interrupted: false, setupError: null, log: env.log });
  return { env, back, streamed: answers.slice(before) };
}

const groups = [
  ['every fixture', cases],
  ['sanitizer reports', pick(/asan|ubsan|tsan|msan|sanitiz/)],
  ['python tracebacks and pytest', pick(/python|pytest/)],
  ['compilers (gcc, clang, rustc, tsc, go build)', pick(/gcc|clang|rustc|cargo-build|tsc|go-build|cfamily/)],
  ['test runners (cargo test, go test, jest, gtest, ctest)', pick(/cargo-test|go-test|jest|vitest|gtest|ctest|mocha/)],
  ['panics and node errors', pick(/panic|node/)],
].filter(([, g]) => g.length > 0);

for (const [name, group] of groups) {
  for (const exit of [1, 0]) {
    test(`${name}, ${group.length} logs, 600 KiB in 32 KiB chunks, exit ${exit}: the streamed verdict is the read-back one`, async () => {
      const { env, back, streamed } = await replay(logOf(group, 600 * KiB), { exit });
      assert.equal(env.verdict, back.verdict);
      assert.is(streamed.length, 1, 'a stream was fed while the command ran');
      // Exit 1 is how the stream is begun (fatal, no signal): what it read always stands.
      if (exit === 1) assert.is(streamed[0], true);
    });
  }
}

test('a command killed by SIGSEGV after a sanitizer report: the verdict is the read-back one', async () => {
  const { env, back } = await replay(logOf(pick(/asan|go-panic|python/), 300 * KiB), { exit: 'kill -SEGV $$' });
  assert.is(env.outcome.signal, 'SIGSEGV');
  assert.equal(env.verdict, back.verdict);
});

test('exit 139 (a shell\'s 128+SIGSEGV) after a panic: the verdict is the read-back one', async () => {
  const { env, back } = await replay(logOf(pick(/panic|traceback|node/), 300 * KiB), { exit: 139 });
  assert.equal(env.verdict, back.verdict);
});

test('the cap hit (--max-log 256K, 1 MiB of output): only the head is read while it runs, the marker and the end after', async () => {
  const { env, back, streamed } = await replay(logOf(cases, 1024 * KiB), { maxLog: 256 * KiB, exit: 2 });
  assert.ok(env.outcome.log_dropped_bytes > 0);
  assert.equal(env.verdict, back.verdict);
  assert.equal(streamed, [true]);
});

test('the cap hit with a ring it can follow (--max-log 1M, 6 MiB of output): the verdict reads every byte the command printed, the log keeps its start and end', async () => {
  const log = logOf(cases, 6 * 1024 * KiB);
  const { env, back, streamed } = await replay(log, { maxLog: 1024 * KiB, exit: 2, chunk: 256 * KiB });
  assert.ok(env.outcome.log_dropped_bytes > 0);
  assert.is(statSync(env.log).size, 1024 * KiB, 'the log is capped');
  // The engine followed the ring as it was written: the verdict is that of the whole output, not of what the log kept.
  const whole = engine.verdict(log, { exit: 2, log: env.log });
  assert.equal(env.verdict, whole.verdict);
  assert.is(env.verdict.raw_bytes, log.length);
  assert.is(back.verdict.raw_bytes, 1024 * KiB);
  assert.equal(streamed, [true]);
});

test('between the head and the cap (--max-log 256K, 200 KiB of output): the verdict is the read-back one', async () => {
  const { env, back, streamed } = await replay(logOf(cases, 200 * KiB), { maxLog: 256 * KiB, exit: 1 });
  assert.is(env.outcome.log_dropped_bytes, 0);
  assert.equal(env.verdict, back.verdict);
  assert.equal(streamed, [true]);
});

test('an output the launcher\'s tail holds whole (60 KiB) is read from there: no stream', async () => {
  const { env, back, streamed } = await replay(logOf(cases, 60 * KiB), { exit: 1 });
  assert.equal(env.verdict, back.verdict);
  assert.equal(streamed, []);
});

test.run();
