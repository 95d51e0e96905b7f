// How the engine's time and memory grow with a log of large diagnostic output (issue 29 item 9, issue 32):
// real tool output repeated to 10, 20, 40 and 80 MB and streamed in 64 KiB chunks, as sbx run reads a pipe.
// The goal: time linear in the size (each doubling ×2), memory ≤ 64 MiB whatever the input.
//
//   node bench/scale-diag.js                         # this checkout's dist/engine.js
//   node bench/scale-diag.js --baseline OLD/dist/engine.js   # another build beside it
//   node bench/scale-diag.js --sizes 10,20 --runs 1
//
// The inputs: pieces of fixture logs (as test/engine/bounded-diag.test.js repeats them), and, when gcc and
// pytest are installed, logs made here by them: gcc -fdiagnostics-plain-output on a file of one warning
// repeated (a build loop prints it over and over) and of 5 000 distinct ones, and pytest on 2 000
// failing tests. Each log is repeated whole to the size.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const ROOT = new URL('../', import.meta.url).pathname;
const { values: args } = parseArgs({ options: { baseline: { type: 'string' }, sizes: { type: 'string', default: '10,20,40,80' }, runs: { type: 'string', default: '3' } } });
const SIZES = args.sizes.split(',').map(Number);
const RUNS = Number(args.runs);
const MIB = 1 << 20;

/** Lines `lines` (1-based) of a fixture's log, as one piece, with the lines before and after it. */
function fixturePiece(fixture, lines) {
  const all = readFileSync(join(ROOT, 'fixtures', fixture, 'log.txt'), 'utf8').split('\n');
  const join2 = (a) => (a.length ? `${a.join('\n')}\n` : '');
  return { head: join2(all.slice(0, lines[0] - 1)), piece: join2(lines.map((n) => all[n - 1])), tail: all.slice(lines.at(-1)).join('\n') };
}

/** Real logs made here by gcc and pytest (what is not installed is left out). */
function generated() {
  const dir = mkdtempSync(join(tmpdir(), 'sbx-scale-diag-'));
  const out = [];
  const run = (cmd, argv) => spawnSync(cmd, argv, { cwd: dir, encoding: 'utf8', env: { ...process.env, LC_ALL: 'C' }, maxBuffer: 256 * MIB });
  try {
    if (run('gcc', ['--version']).status === 0) {
      writeFileSync(join(dir, 'one.c'), 'static int helper(void) { return 1; }\n');
      const one = run('gcc', ['-Wall', '-fdiagnostics-plain-output', '-c', 'one.c', '-o', '/dev/null']).stderr;
      out.push(['gcc, one warning (a build loop)', { head: '', piece: one, tail: '' }]);
      writeFileSync(join(dir, 'many.c'), Array.from({ length: 5000 }, (_, i) => `static int helper${i}(void) { return ${i}; }\nint table${i}[1] = { 1, 2 };\n`).join(''));
      const many = run('gcc', ['-Wall', '-fdiagnostics-plain-output', '-c', 'many.c', '-o', '/dev/null']).stderr;
      out.push(['gcc, 10 000 distinct warnings', { head: '', piece: many, tail: '' }]);
    }
    if (run('python3', ['-m', 'pytest', '--version']).status === 0) {
      writeFileSync(join(dir, 'test_many.py'), 'import pytest\n\n@pytest.mark.parametrize("n", range(2000))\ndef test_digit(n):\n    assert n % 7 == 1\n');
      const r = run('python3', ['-m', 'pytest', '-p', 'no:cacheprovider', 'test_many.py']);
      out.push(['pytest, 2 000 failing tests', { head: '', piece: r.stdout, tail: '' }]);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return out;
}

const INPUTS = [
  ['gcc plain output, a warning line (fixture)', fixturePiece('cfamily/cc-plain-output-gcc', [4])],
  ['gcc, warning + source + caret (fixture)', fixturePiece('cfamily/cc-warnings-gcc', [2, 3, 4])],
  ['clang, a header line (fixture)', fixturePiece('blind/native-langs/cxx-thread-safety-clangxx', [1])],
  ['pytest, a failure block (fixture)', fixturePiece('runners/pytest-large-fail', [...Array(14).keys()].map((i) => 33 + i))],
  ['pytest, a summary line (fixture)', fixturePiece('runners/pytest-large-fail', [75])],
  ...generated(),
];

function build({ head, piece, tail }, mb) {
  const times = Math.max(1, Math.ceil((mb * 1e6 - head.length - tail.length) / Buffer.byteLength(piece)));
  return Buffer.from(head + piece.repeat(times) + tail);
}

async function measure(createEngine, bytes) {
  const times = [];
  let mem = 0;
  let err = null;
  for (let r = 0; r < RUNS; r++) {
    const e = await createEngine();
    const t0 = performance.now();
    try {
      const s = e.stream({ exit: 1 });
      for (let off = 0; off < bytes.length; off += 65_536) s.push(bytes.subarray(off, off + 65_536));
      s.end();
    } catch (x) { err = x.message.slice(0, 60); }
    times.push(performance.now() - t0);
    mem = Math.max(mem, e.memoryBytes());
    if (err) break;
  }
  times.sort((a, b) => a - b);
  return { ms: times[times.length >> 1], mem, err };
}

const builds = [['this', join(ROOT, 'dist/engine.js')], ...(args.baseline ? [['baseline', args.baseline]] : [])];
const engines = await Promise.all(builds.map(async ([name, path]) => [name, (await import(path)).createEngine]));
console.log(`median of ${RUNS}; time ratio = this size's time / the previous size's (linear: ${SIZES[1] / SIZES[0] || 2}x)`);
for (const [what, input] of INPUTS) {
  console.log(`\n${what}`);
  for (const [name, createEngine] of engines) {
    let prev = null;
    const cells = [];
    for (const mb of SIZES) {
      const r = await measure(createEngine, build(input, mb));
      const ratio = prev && !r.err ? ` (x${(r.ms / prev).toFixed(1)})` : '';
      cells.push(r.err ? `${mb} MB: FAILED ${r.err}` : `${mb} MB ${r.ms.toFixed(0)} ms${ratio} ${(r.mem / MIB).toFixed(0)} MiB`);
      prev = r.err ? null : r.ms;
      if (r.err) break;
    }
    console.log(`  ${name.padEnd(8)} ${cells.join(' | ')}`);
  }
}
