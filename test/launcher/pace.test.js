// The log's reader sets the pace (--pace FILE, native/pace.c): while the reader says it is more than 8 MiB
// behind what the launcher wrote, the command's output is not drained and the command waits in write();
// all ones in the file, or a reader that stops moving for 2 s, lets it go on. Nothing is lost either way.
import { closeSync, constants, existsSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { sh, tempDir } from './_helpers.js';

const MiB = 1 << 20;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/** Writes the pace file's 8 bytes in place, as a reader does: its offset, little-endian (-1: all ones). */
function at(file, n) {
  const b = Buffer.alloc(8);
  if (n < 0) b.fill(0xff); else b.writeBigUInt64LE(BigInt(n));
  const fd = openSync(file, constants.O_WRONLY | constants.O_CREAT, 0o600);
  try { writeSync(fd, b, 0, 8, 0); } finally { closeSync(fd); }
}
// 32 MiB, then a file in the work dir saying the command got past its output.
const SCRIPT = 'head -c 33554432 /dev/zero; echo > past';
const cap = 256 * MiB;

test('a reader that is behind holds the command in its writes; all ones lets it go, with all of its output', async () => {
  const work = tempDir();
  const pace = join(tempDir('sbx-pace-'), 'run.pace');
  at(pace, 0);
  const running = sh(SCRIPT, { work, pace, maxLog: cap });
  await sleep(1000); // unheld, 32 MiB take ~50 ms
  assert.not.ok(existsSync(join(work, 'past')), 'the command went past its output while its reader was 8 MiB behind');
  at(pace, -1);
  const r = await running;
  assert.is(r.outcome.exit_code, 0);
  assert.is(r.outcome.output_bytes, 32 * MiB, 'every byte relayed');
  assert.ok(existsSync(join(work, 'past')));
});

test('a reader that keeps up is followed to the end: the command finishes as the reader reads', async () => {
  const work = tempDir();
  const pace = join(tempDir('sbx-pace-'), 'run.pace');
  at(pace, 0);
  const running = sh(SCRIPT, { work, pace, maxLog: cap });
  let done = false;
  void running.then(() => (done = true));
  // Read in 4 MiB steps, 200 ms apart: the command may never be more than 8 MiB (+ a pipe's worth) ahead.
  for (let read = 0; read <= 32 * MiB && !done; read += 4 * MiB) {
    await sleep(200);
    if (read < 24 * MiB) assert.not.ok(existsSync(join(work, 'past')), `past its output with the reader at ${read / MiB} MiB of 32`);
    at(pace, read);
  }
  const r = await running;
  assert.is(r.outcome.output_bytes, 32 * MiB);
});

test('a reader that stops moving is dropped after 2 s: the run ends on its own', async () => {
  const work = tempDir();
  const pace = join(tempDir('sbx-pace-'), 'run.pace');
  at(pace, 0);
  const r = await sh(SCRIPT, { work, pace, maxLog: cap });
  assert.is(r.outcome.exit_code, 0);
  assert.is(r.outcome.output_bytes, 32 * MiB);
  assert.ok(r.outcome.wall_ms >= 1900, `held ${r.outcome.wall_ms} ms, not the 2 s a stalled reader is waited for`);
});

test('no pace file (yet): nothing waits', async () => {
  const work = tempDir();
  const pace = join(tempDir('sbx-pace-'), 'absent.pace');
  const r = await sh(SCRIPT, { work, pace, maxLog: cap });
  assert.is(r.outcome.output_bytes, 32 * MiB);
  assert.ok(r.outcome.wall_ms < 1900, `waited ${r.outcome.wall_ms} ms for a reader that is not there`);
});

test.run();
