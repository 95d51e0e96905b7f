// The log's reader sets the pace (--pace FILE, native/pace.c): FILE says how far the log may be written;
// past that the command's output is not drained and the command waits in write(); all ones in the file,
// or a limit that does not move for 2 s, lets it go on. Nothing is lost either way.
// sbx-test: alone (a wait is timed against a bound; scripts/test.js runs it with no other file beside it)
import { closeSync, constants, existsSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { sh, tempDir } from './_helpers.js';

const MiB = 1 << 20;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/** Writes the pace file's 8 bytes in place, as a reader does: the limit, little-endian (-1: all ones). */
function at(file, n) {
  const b = Buffer.alloc(8);
  if (n < 0) b.fill(0xff); else b.writeBigUInt64LE(BigInt(n));
  const fd = openSync(file, constants.O_WRONLY | constants.O_CREAT, 0o600);
  try { writeSync(fd, b, 0, 8, 0); } finally { closeSync(fd); }
}
// 32 MiB, then a file in the work dir saying the command got past its output.
const SCRIPT = 'head -c 33554432 /dev/zero; echo > past';
const cap = 256 * MiB;

test('a log at its limit holds the command in its writes; all ones lets it go, with all of its output', async () => {
  const work = tempDir();
  const pace = join(tempDir('sbx-pace-'), 'run.pace');
  at(pace, 8 * MiB);
  const running = sh(SCRIPT, { work, pace, maxLog: cap });
  await sleep(1000); // unheld, 32 MiB take ~50 ms
  assert.not.ok(existsSync(join(work, 'past')), 'the command went past its output with the log limited to 8 MiB');
  at(pace, -1);
  const r = await running;
  assert.is(r.outcome.exit_code, 0);
  assert.is(r.outcome.output_bytes, 32 * MiB, 'every byte relayed');
  assert.ok(existsSync(join(work, 'past')));
});

test('a limit that moves is followed to the end: the command finishes as the limit passes its output', async () => {
  const work = tempDir();
  const pace = join(tempDir('sbx-pace-'), 'run.pace');
  at(pace, 4 * MiB);
  const running = sh(SCRIPT, { work, pace, maxLog: cap });
  let done = false;
  void running.then(() => (done = true));
  // The limit in 4 MiB steps, 200 ms apart: the command never gets more than a pipe's worth past it.
  for (let limit = 4 * MiB; limit <= 40 * MiB && !done; limit += 4 * MiB) {
    await sleep(200);
    if (limit < 31 * MiB) assert.not.ok(existsSync(join(work, 'past')), `past its output with the limit at ${limit / MiB} MiB of 32`);
    at(pace, limit + 4 * MiB);
  }
  const r = await running;
  assert.is(r.outcome.output_bytes, 32 * MiB);
});

test('a limit that stops moving is dropped after 2 s: the run ends on its own', async () => {
  const work = tempDir();
  const pace = join(tempDir('sbx-pace-'), 'run.pace');
  at(pace, 1 * MiB);
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

// A ring (--max-log) is followed byte by byte by its reader: the launcher says how far it is written.
const FINISHING = 1n << 62n;
const FLAGS = 0xfn << 60n;

test('a ring at its cap waits for its reader\'s file, 2 s at most: no byte is wrapped past a reader about to come', async () => {
  const work = tempDir();
  const pace = join(tempDir('sbx-pace-'), 'absent.pace');
  const r = await sh(SCRIPT, { work, pace, maxLog: 4 * MiB });
  assert.is(r.outcome.output_bytes, 32 * MiB);
  assert.ok(r.outcome.log_dropped_bytes > 0);
  assert.ok(r.outcome.wall_ms >= 1900, `the ring wrapped after ${r.outcome.wall_ms} ms with no reader's file`);
});

test('a ring too small to follow (--max-log 256K) never waits for a reader', async () => {
  const work = tempDir();
  const pace = join(tempDir('sbx-pace-'), 'absent.pace');
  const r = await sh(SCRIPT, { work, pace, maxLog: 256 * 1024 });
  assert.is(r.outcome.output_bytes, 32 * MiB);
  assert.ok(r.outcome.wall_ms < 1900, `waited ${r.outcome.wall_ms} ms with a ring no reader follows`);
});

test('the progress word: how far the ring is written, at offset 8 of the file, and that it is put in order at the end', async () => {
  const work = tempDir();
  const pace = join(tempDir('sbx-pace-'), 'run.pace');
  at(pace, 2 ** 40); // far ahead: nothing waits
  const r = await sh(SCRIPT, { work, pace, maxLog: 4 * MiB });
  assert.is(r.outcome.output_bytes, 32 * MiB);
  assert.ok(r.outcome.wall_ms < 1900, `waited ${r.outcome.wall_ms} ms with a limit far ahead`);
  const file = readFileSync(pace);
  assert.is(file.length, 16);
  const word = file.readBigUInt64LE(8);
  assert.is(word & FLAGS, FINISHING, 'ordered at the end, no write failed, a ring one reader follows');
  assert.is(Number(word & ~FLAGS), 32 * MiB);
});

test.run();
