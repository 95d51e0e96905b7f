// Inputs that once took the engine past its memory (bench/fuzz.js found them): real fixture logs with a
// piece repeated, as the fuzz's `repeat` mutation makes them. Array#join in AssemblyScript's std
// concatenated a part at a time (assembly/util/join.ts now joins in one allocation), and node --test's
// open suites piled up; a million fuzzed inputs then had 6 traps (out of memory) and 7 inputs past 64 MiB.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../fixtures/lib/cases.js';

const { createEngine } = await import(join(ROOT, 'dist/engine.js'));
const MIB = 1 << 20;

/**
 * The fixture's log with its lines `lines` (1-based, in order) put `times` times where they were: the
 * lines before the first of them, the copies, the lines after the last.
 */
function picked(fixture, lines, times) {
  const all = readFileSync(join(ROOT, 'fixtures', fixture, 'log.txt'), 'utf8').split('\n');
  const piece = lines.map((n) => all[n - 1]);
  return Buffer.from([...all.slice(0, lines[0] - 1), ...Array.from({ length: times }, () => piece).flat(), ...all.slice(lines.at(-1))].join('\n'));
}
/** The fixture's whole log, `times` times over. */
const timesOver = (fixture, times) => Buffer.concat(Array(times).fill(readFileSync(join(ROOT, 'fixtures', fixture, 'log.txt'))));
/** The failures of tap-prove-die's log read twice: as many as it is read 200 times. */
const dieTwice = (await createEngine()).verdict(timesOver('runners/tap-prove-die', 2), { exit: 1 }).verdict.tests.failures.length;
/** Lines from to to, not including to. */
const range = (from, to) => Array.from({ length: to - from }, (_, i) => from + i);

for (const [what, bytes, check] of [
  // `▶ slug` and its tests, never closed, 300 times: every failure's name joined every open suite.
  // A `▶` at an indent closes the suites open there: the failure is still `slug > joins ...`, not 300 slugs deep.
  ['node --test, a suite opened 300 times', picked('runners/node-test-describe-fail', range(1, 50), 300), (v) => v.tests.failures.some((f) => f.name === 'slug > joins words with dashes')],
  // One escaped line of a JUnit <failure> text 5 000 times: unescaping it joined 15 000 parts.
  ['a JUnit report in the log, an escaped line 5 000 times', picked('runners/junit-pytest-in-log', [5], 5000), (v) => v.tests.runner === 'junit' && v.tests.failed > 0],
  ['an escaped line 5 000 times in a JUnit report on stdout', picked('runners/junit-pytest-stdout', [5], 5000), (v) => v.tests !== null],
  // A failure's `Failed test`, `at` and `expected` lines 2 000 times, without its `got`: its message took every
  // `expected` it was given, a line each time (2 000 lines). It keeps its first line and the last expected.
  // (bench:fuzz, seed 1409, session 14) mypy's wrapped message, a continuation line that never closes with its code
  // 800 times: each was joined to all before it (128 MiB). It is read on to 2 048 characters.
  ['mypy pretty, a wrapped line 800 times', (() => {
    const all = readFileSync(join(ROOT, 'fixtures/runners/mypy-pretty-truncated/log.txt'), 'utf8').split('\n');
    const wrap = all[1].replace('[assignment]', '') + all[0].slice(all[0].indexOf('Incompatible'));
    return Buffer.from([all[0], ...Array(800).fill(wrap), ...all.slice(2)].join('\n'));
  })(), (v) => v.diagnostics.length >= 1 && v.diagnostics[0].message.length <= 4096],
  // (bench:fuzz, seed 1409) a Rust backtrace's ` at /rustc ` 4 000 times before clang's
  // `../../../../include/c++/12/bits/stl_algo.h:1916:13: note:`: the text before `:1916:13` was resolved as a path
  // once per ` at ` (the dots folded each time: 1 000 took 32 MiB, 4 000 trapped past 256 MiB). No path is longer than
  // PATH_MAX.
  ['a note placed after 4 000 ` at /rustc `', (() => {
    const rust = readFileSync(join(ROOT, 'fixtures/runners/cargo-bencher-panic-backtrace/log.txt'), 'utf8').split('\n').find((x) => x.includes(' at /rustc/'));
    const note = readFileSync(join(ROOT, 'fixtures/cfamily/cxx-template-stl-clangxx/log.txt'), 'utf8').split('\n')[59];
    const at = rust.slice(rust.indexOf(' at /rustc/'), rust.indexOf('/rustc/') + 6) + ' ';
    return Buffer.from(rust.slice(0, rust.indexOf(' at ')) + at.repeat(4000) + note.slice(note.indexOf('../../../../')) + '\n');
  })(), (v) => v !== null],
  // (bench:fuzz, seed 1412, session 15) meson's `Compiling C object test_count.p/tests_test_cou` + `st_cou` 3 000
  // times + `nt.c.o`: the object was kept under its name after each `_` (its source's path, `/` made `_`), a copy of
  // the line's rest each: 64 MiB from 17 KB. Only the names after its last 16 `_` now.
  ['meson, an object name with 3 000 `_`', (() => {
    const line = readFileSync(join(ROOT, 'fixtures/runners/meson-compile-error/log.txt'), 'utf8').split('\n')[18];
    const at = line.indexOf('_count.c.o');
    return Buffer.from(line.slice(0, at) + '_cou' + 'st_cou'.repeat(3000) + 'nt.c.o\n');
  })(), (v) => v !== null],
  // (bench:fuzz, seed 1413, session 15) `make[3]: Entering directory './_build/tes` + `ild/tes` 3 000 times: the
  // test's `../../tests/test_suite.c:12` was resolved under that directory (a trap past 256 MiB, from 24 KB; the
  // engine of the session's start too). No directory is longer than PATH_MAX: a longer one is none.
  ['an automake check under a directory of 3 000 parts', (() => {
    const all = readFileSync(join(ROOT, 'fixtures/runners/automake-check-verbose-placed/log.txt'), 'utf8').split('\n');
    all[15] = all[15].replace('/tests\'', '/tes' + 'ild/tes'.repeat(3000) + 'ts\'');
    return Buffer.from(all.join('\n'));
  })(), (v) => v.tests !== null && v.tests.failed > 0],
  // (bench:fuzz, seed 1416, session 16) the dot reporter's `✖ table() (…ms)` / `'1 subtest failed'` 3 000 times: each
  // parent adopted the group before it, and every name held every parent (32 MiB from 68 KB). No deeper than
  // node's `▶` suites are followed (32).
  ['node --test dot, a failing parent 3 000 times', picked('runners/node-test-nested-dot', [28, 29], 3000), (v) => v.tests.failures.some((f) => f.name.startsWith('table() > ') && f.name.split(' > ').length <= 33)],
  // (bench:fuzz, seed 1417, session 16) prove's subtest failures: 600 `reduces` (held for their parent, 512 at most),
  // then `6/9`, their parent, 600 times: a parent past the 512 was not held but still named every held one under
  // it, each time again (64 MiB from 133 KB). A parent past them names none.
  ['prove, 600 subtest failures then 600 parents', (() => {
    const all = readFileSync(join(ROOT, 'fixtures/runners/tap-prove-subtests/log.txt'), 'utf8').split('\n');
    const child = all.slice(27, 33); const parent = all.slice(34, 37);
    return Buffer.from([...all.slice(0, 27), ...Array(600).fill(child).flat(), ...Array(600).fill(parent).flat(), ...all.slice(37)].join('\n'));
  })(), (v) => v.tests !== null && v.tests.failures.every((f) => f.name.split(' > ').length <= 9)],
  ['prove, a failure named again 2 000 times without its got', picked('runners/tap-prove-fail', [2, 3, 5], 2000), (v) => v.tests.failures.some((f) => f.name === 'boiling point back' && f.message.split('\n').length <= 2)],
  // (bench/engine.js's runners/tap block, session 17: 0.83 of the engine before) prove's log read 200 times: a failure
  // named again in another test file is its own (session 17), but one placed in a module where a test file died (or
  // at the same place again) is the same one: as many failures as the log read twice has, not one more a read.
  ['prove, a log with a test file dying in a module 200 times', timesOver('runners/tap-prove-die', 200),
    (v) => v.tests.failures.length === dieTwice],
  ['prove, same-named failures of two files 200 times', timesOver('runners/tap-prove-same-name', 200),
    (v) => v.tests.failures.length === new Set(v.tests.failures.map((f) => `${f.name} ${f.file}:${f.line}`)).size],
]) {
  test(`${what}: a verdict, in bounded memory`, async () => {
    const engine = await createEngine();
    const env = engine.verdict(bytes, { exit: 1 });
    assert.ok(check(env.verdict), JSON.stringify(env.verdict.tests).slice(0, 300));
    assert.ok(engine.memoryBytes() <= 16 * MIB, `engine memory ${engine.memoryBytes() / MIB} MiB for ${bytes.length} bytes of input`);
    const s = engine.stream({ exit: 1 });
    for (let off = 0; off < bytes.length; off += 65_536) s.push(bytes.subarray(off, off + 65_536));
    assert.equal(s.end(), env);
  });
}

// RSpec's JSON report is one line; a line opening a JSON object is read whole up to 2 MiB (splitter.ts). The
// fixture's real report with its passing examples put again until the line is just under that (8 000 examples):
// read whole and streamed, within 48 MiB (34.5 measured); one past it is cut at 2 MiB and not read (4 MiB).
function rspecLine(bytes) {
  const r = JSON.parse(readFileSync(join(ROOT, 'fixtures/runners/rspec-json-long/log.txt'), 'utf8'));
  const passed = r.examples.filter((e) => e.status === 'passed');
  const extra = [];
  for (let k = 0; JSON.stringify({ ...r, examples: [...extra, ...r.examples] }).length < bytes; k++) {
    for (const e of passed.slice(0, 50)) extra.push({ ...e, id: `${e.id}-${k}`, full_description: `${e.full_description} (${k})` });
  }
  const examples = [...extra, ...r.examples];
  const n = examples.filter((e) => e.status === 'passed').length;
  const out = { ...r, examples, summary: { ...r.summary, example_count: examples.length } };
  return { bytes: Buffer.from(JSON.stringify(out)), passed: n };
}
for (const [size, read, most] of [[(2 << 20) - 200_000, true, 48], [(2 << 20) + 100_000, false, 8]]) {
  test(`RSpec's JSON report on one line of ${(size / MIB).toFixed(1)} MiB: ${read ? 'read' : 'not read'}, in bounded memory`, async () => {
    const { bytes, passed } = rspecLine(size);
    const engine = await createEngine();
    const s = engine.stream({ exit: 1 });
    for (let off = 0; off < bytes.length; off += 65_536) s.push(bytes.subarray(off, off + 65_536));
    const env = s.end();
    if (read) assert.equal([env.verdict.tests?.passed, env.verdict.tests?.failed], [passed, 2]);
    else assert.is(env.verdict.tests, null);
    assert.ok(engine.memoryBytes() <= most * MIB, `engine memory ${engine.memoryBytes() / MIB} MiB for a ${bytes.length}-byte line`);
    assert.equal(engine.verdict(bytes, { exit: 1 }), env);
  });
}

test.run();
