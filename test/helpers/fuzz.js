// Generated inputs for the verdict engine, shared by `npm run bench:fuzz` (a million) and
// test/engine/fuzz.test.js (ten thousand): fast-check arbitraries (random bytes, lines shaped like
// the tools' own) and mutations of every fixture log (byte flips, truncation, splices of two logs,
// CRLF, a 1 MB line, ANSI sequences, NUL bytes, deep repetition) and repeated failure blocks of every
// tool and runner (fixtures/lib/blocks.js: a suite's whole failing output again and again). Each input goes through the engine
// twice, the second time streamed in random chunks: no trap, a schema-valid envelope, bounded output
// and memory, the same bytes both times.
import fc from 'fast-check';
import * as v from 'valibot';
import { join } from 'node:path';

/**
 * What a run of generated inputs works with, from the repository at root: a fresh engine (dist/), the
 * fixture logs the mutations start from, and the contract's schema the envelopes are checked against.
 */
export async function fuzzContext(root) {
  const { listCases } = await import(join(root, 'fixtures', 'lib', 'cases.js'));
  const { failureBlocks } = await import(join(root, 'fixtures', 'lib', 'blocks.js'));
  const { createEngine } = await import(join(root, 'dist', 'engine.js'));
  const { RunResultSchema } = await import(join(root, 'dist', 'index.js'));
  const cases = listCases();
  const blocks = failureBlocks(cases).map((b) => new Uint8Array(b.block));
  return { engine: await createEngine(), logs: cases.map((c) => new Uint8Array(c.log)), blocks, RunResultSchema };
}

/** Bounds every envelope and the engine's memory must stay within, whatever the input. */
export const MAX_ENVELOPE_BYTES = 1 << 20;
export const MAX_RENDER_BYTES = 1 << 20;
export const MAX_MEMORY_BYTES = 64 << 20;

const enc = new TextEncoder();
const ANSI = ['\x1b[31m', '\x1b[0m', '\x1b[1;33m', '\x1b[2K\r', '\x1b[1G', '\x1b[G', '\x1b]8;;file:///work/a.c\x07', '\x1b]8;;\x1b\\', '\x1b[?25l', '\x1b[', '\x1b', '\x1b[38;5;196m', '\r'];
// Line shapes the parsers look for, with holes the arbitrary fills.
const SHAPES = [
  (a, n) => `${a}.c:${n}:${n % 80}: error: ${a}`,
  (a, n) => `${a}.rs:${n}:1: warning: ${a}`,
  (a, n) => `error[E0${n % 1000}]: ${a}\n  --> src/${a}.rs:${n}:5`,
  (a, n) => `==${n}==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x${n.toString(16)} at pc 0x1 bp 0x2 sp 0x3`,
  (a, n) => `    #${n % 40} 0x${n.toString(16)} in ${a} /work/${a}.c:${n}:3`,
  (a, n) => `SUMMARY: AddressSanitizer: ${a} /work/${a}.c:${n} in main`,
  (a, n) => `thread 'main' panicked at src/${a}.rs:${n}:9:\n${a}`,
  (a, n) => `panic: ${a}\n\ngoroutine ${n} [running]:\nmain.main()\n\t/work/${a}.go:${n} +0x1d`,
  (a) => `Traceback (most recent call last):\n  File "/work/${a}.py", line 3, in <module>\nValueError: ${a}`,
  (a, n) => `--- FAIL: Test${a} (0.0${n % 10}s)\n    ${a}_test.go:${n}: ${a}`,
  (a, n) => `FAILED tests/test_${a}.py::test_${a} - AssertionError: ${a}\n=== ${n} failed, 1 passed in 0.1s ===`,
  (a, n) => `[  FAILED  ] ${a}.${a} (${n} ms)`,
  (a, n) => `not ok ${n} - ${a}`,
  (a, n) => `test ${a} ... FAILED\ntest result: FAILED. 0 passed; ${n} failed`,
  (a, n) => `  ● ${a} › ${a}\n\n    expect(received).toBe(expected)\n      at Object.<anonymous> (${a}.test.js:${n}:5)`,
  (a) => `make: *** [Makefile:1: ${a}] Error 2`,
  (a, n) => `/usr/bin/ld: ${a}.o: in function \`main':\n${a}.c:(.text+0x${n.toString(16)}): undefined reference to \`${a}'`,
  (a, n) => `Segmentation fault (core dumped) ${a} ${n}`,
];

/** Applies one mutation (a plain object from the arbitrary) to bytes; every index is taken modulo. */
export function mutate(bytes, m, logs) {
  const len = bytes.length;
  const at = len ? m.at % (len + 1) : 0;
  const cat = (...parts) => {
    const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
    let o = 0;
    for (const p of parts) { out.set(p, o); o += p.length; }
    return out;
  };
  switch (m.k) {
    case 'flip': {
      if (!len) return bytes;
      const out = bytes.slice();
      for (let i = 0; i < m.n; i++) out[(m.at + i * 7919) % len] ^= 1 << ((m.bit + i) % 8);
      return out;
    }
    case 'truncate': return bytes.subarray(0, at);
    case 'drop-head': return bytes.subarray(at);
    case 'splice': {
      const o = logs[m.other % logs.length];
      const from = o.length ? m.from % o.length : 0;
      return cat(bytes.subarray(0, at), o.subarray(from, from + m.len), bytes.subarray(at));
    }
    case 'crlf': {
      let lf = 0;
      for (let i = 0; i < len; i++) if (bytes[i] === 0x0a) lf++;
      const out = new Uint8Array(len + lf);
      for (let i = 0, o = 0; i < len; i++) { if (bytes[i] === 0x0a) out[o++] = 0x0d; out[o++] = bytes[i]; }
      return out;
    }
    case 'cr-only': return bytes.map((b) => (b === 0x0a ? 0x0d : b));
    case 'long-line': {
      const line = new Uint8Array(m.size).fill(m.fill);
      return cat(bytes.subarray(0, at), line, bytes.subarray(at));
    }
    case 'ansi': return cat(bytes.subarray(0, at), enc.encode(ANSI[m.seq % ANSI.length]), bytes.subarray(at));
    case 'nul': return cat(bytes.subarray(0, at), new Uint8Array(m.n), bytes.subarray(at));
    case 'repeat': {
      const piece = bytes.subarray(at, at + m.len);
      const times = Math.min(m.times, Math.floor((64 << 10) / Math.max(1, piece.length)));
      const rep = new Uint8Array(piece.length * times);
      for (let i = 0; i < times; i++) rep.set(piece, i * piece.length);
      return cat(bytes.subarray(0, at), rep, bytes.subarray(at));
    }
    case 'invalid-utf8': return cat(bytes.subarray(0, at), Uint8Array.from([0xc3, 0x28, 0xff, 0xfe, 0xe2, 0x82, 0xf0, 0x9f, 0x98]), bytes.subarray(at));
    default: return bytes;
  }
}

/** A block repeated whole to about `size` bytes (at least twice), its last copy cut at `cut`. */
export function repeatBlock(block, size, cut) {
  const times = Math.max(2, Math.ceil(size / Math.max(1, block.length)));
  const out = new Uint8Array(block.length * (times - 1) + (block.length ? cut % (block.length + 1) : 0));
  for (let o = 0; o < out.length; o += block.length) out.set(block.subarray(0, Math.min(block.length, out.length - o)), o);
  return out;
}

/** Up to this many bytes of a repeated failure block per input (~10 ms through the engine). */
const MAX_BLOCKS_INPUT = 256 << 10;

/**
 * fast-check arbitrary of { bytes, opts, chunks } over the given fixture logs and (when given) the repeated
 * failure blocks of fixtures/lib/blocks.js.
 */
export function inputArbitrary(logs, blocks = []) {
  const idx = fc.nat({ max: logs.length - 1 });
  const at = fc.nat();
  const mutation = fc.oneof(
    { weight: 6, arbitrary: fc.record({ k: fc.constant('flip'), at, bit: fc.nat({ max: 7 }), n: fc.integer({ min: 1, max: 64 }) }) },
    { weight: 3, arbitrary: fc.record({ k: fc.constant('truncate'), at }) },
    { weight: 2, arbitrary: fc.record({ k: fc.constant('drop-head'), at }) },
    { weight: 3, arbitrary: fc.record({ k: fc.constant('splice'), at, other: fc.nat(), from: fc.nat(), len: fc.nat({ max: 8192 }) }) },
    { weight: 2, arbitrary: fc.constant({ k: 'crlf' }) },
    { weight: 1, arbitrary: fc.constant({ k: 'cr-only' }) },
    { weight: 3, arbitrary: fc.record({ k: fc.constant('ansi'), at, seq: fc.nat() }) },
    { weight: 2, arbitrary: fc.record({ k: fc.constant('nul'), at, n: fc.integer({ min: 1, max: 64 }) }) },
    { weight: 2, arbitrary: fc.record({ k: fc.constant('repeat'), at, len: fc.integer({ min: 1, max: 400 }), times: fc.integer({ min: 2, max: 5000 }) }) },
    { weight: 1, arbitrary: fc.record({ k: fc.constant('invalid-utf8'), at }) },
  );
  const mutated = fc.record({ base: idx, muts: fc.array(mutation, { minLength: 1, maxLength: 4 }) })
    .map(({ base, muts }) => muts.reduce((b, m) => mutate(b, m, logs), logs[base]));
  // A 1 MB line costs ~20 ms through the engine: one input in ~180, so a million stay within minutes.
  const longLine = fc.record({ base: idx, m: fc.record({ k: fc.constant('long-line'), at, size: fc.constantFrom(1 << 20, (1 << 20) + 13, 70_000), fill: fc.constantFrom(0x41, 0x20, 0x3a, 0x1b, 0x00) }) })
    .map(({ base, m }) => mutate(logs[base], m, logs));
  const word = fc.string({ unit: 'grapheme-ascii', maxLength: 24 });
  const shaped = fc.array(fc.oneof(
    { weight: 3, arbitrary: fc.tuple(fc.nat({ max: SHAPES.length - 1 }), word, fc.nat({ max: 100_000 })).map(([i, a, n]) => SHAPES[i](a, n)) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 80 }) },
    { weight: 1, arbitrary: fc.constantFrom(...ANSI) },
  ), { maxLength: 60 }).map((lines) => enc.encode(lines.join('\n')));
  const random = fc.uint8Array({ maxLength: 4096 });
  const kinds = [{ weight: 120, arbitrary: mutated }, { weight: 40, arbitrary: shaped }, { weight: 20, arbitrary: random }, { weight: 1, arbitrary: longLine }];
  // A failure block repeated (a suite re-run in a loop), sometimes mutated as the fixture logs are.
  if (blocks.length > 0) {
    const repeated = fc.record({ b: fc.nat({ max: blocks.length - 1 }), size: fc.integer({ min: 1, max: MAX_BLOCKS_INPUT }), cut: fc.nat(), muts: fc.array(mutation, { maxLength: 2 }) })
      .map(({ b, size, cut, muts }) => muts.reduce((x, m) => mutate(x, m, logs), repeatBlock(blocks[b], size, cut)));
    kinds.push({ weight: 2, arbitrary: repeated });
  }
  const bytes = fc.oneof(...kinds);
  const opts = fc.record({
    exit: fc.option(fc.integer({ min: 0, max: 255 }), { nil: undefined }),
    signal: fc.option(fc.constantFrom('SIGSEGV', 'SIGABRT', 'SIGKILL', 'SIGTERM', 'SIGBUS', 6, 11), { nil: null }),
    timedOut: fc.boolean(),
  });
  const chunks = fc.array(fc.integer({ min: 1, max: 70_000 }), { minLength: 1, maxLength: 6 });
  // The rendering and the delta are checked on one input in 8 (they cost more than the verdict).
  return fc.record({ bytes, opts, chunks, full: fc.nat({ max: 7 }).map((n) => n === 0) });
}

/**
 * One input through the engine: a verdict, then the same input streamed in the given chunk sizes,
 * and (input.full) a render and a delta against the previous verdict. Returns null when all holds, else what broke.
 */
export function checkInput(engine, RunResultSchema, input, prev) {
  const { bytes, opts, chunks } = input;
  let a; let b; let text; let d;
  // Wasm memory never shrinks: an input breaks the bound when it is the one that grew memory past it.
  const memBefore = engine.memoryBytes();
  try {
    a = engine.verdict(bytes, opts);
  } catch (err) {
    return { kind: 'trap', why: err.message };
  }
  const ja = JSON.stringify(a);
  const r = v.safeParse(RunResultSchema, a);
  if (!r.success) return { kind: 'schema', why: r.issues.map((i) => i.message).join('; ') };
  if (ja.length > MAX_ENVELOPE_BYTES) return { kind: 'bound', why: `envelope of ${ja.length} bytes` };
  try {
    const s = engine.stream(opts);
    let off = 0;
    for (let i = 0; off < bytes.length; i++) {
      const n = chunks[i % chunks.length];
      s.push(bytes.subarray(off, off + n));
      off += n;
    }
    b = s.end();
    if (input.full) {
      text = engine.render(a);
      d = engine.delta(prev, a.verdict, { treeChanged: true, sameRuns: 1 });
    }
  } catch (err) {
    return { kind: 'trap', why: err.message };
  }
  if (JSON.stringify(b) !== ja) return { kind: 'differs', why: 'the streamed verdict differs from the whole one' };
  if (input.full && text.length > MAX_RENDER_BYTES) return { kind: 'bound', why: `rendering of ${text.length} chars` };
  if (engine.memoryBytes() > MAX_MEMORY_BYTES && engine.memoryBytes() > memBefore) return { kind: 'bound', why: `engine memory ${memBefore} -> ${engine.memoryBytes()} bytes` };
  if (input.full) {
    // The engine does not check its delta against the contract itself (src/engine/engine.ts): here it is.
    const rd = v.safeParse(RunResultSchema, { ...a, delta: d });
    if (!rd.success) return { kind: 'schema', why: `delta: ${rd.issues.map((i) => i.message).join('; ')}` };
  }
  return { kind: null, envelopeBytes: ja.length, verdict: a.verdict };
}
