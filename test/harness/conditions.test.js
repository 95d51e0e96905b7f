// The arms' views of one run, on real logs: a real 38 KB ASan report (the C++ task, run here in sbx) and
// real tool output from fixtures/. Each arm's cut is checked against what it promises.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createEngine, run } from '../../dist/index.js';
import { runEpisode, scriptedBackend, analyze } from '../../dist/harness.js';
import { needs } from '../_tools.js';
import { loadTasks, materialize, parseCondition, show, claudeBash, codexExec, geminiShell, compress, corruptLine, corruptKind, faultOf, runToolDescription, ALL_CONDITIONS, wilson, mcnemarExact, pairedBootstrap } from '../../dist/harness.js';

const engine = await createEngine();
const [cpp] = loadTasks(undefined, ['cpp-vector-oob']);
const work = materialize(cpp);
// The C++ task needs g++ in the sandbox; the tests of its run count as skipped without it.
const cppTest = needs('test/harness/conditions: the C++ task', ['g++'], test);
const pyTest = needs('test/harness/conditions: the Python tasks', ['python3'], test);
const env = cppTest.skipping ? null : await run({ cmd: cpp.cmd, work, timeout: 120 });
const raw = env ? readFileSync(env.log) : Buffer.alloc(0);
const text = raw.toString('utf8');
const view = { raw, env, exit: env?.outcome.exit_code, signal: env?.outcome.signal ?? null, timedOut: false };
const shown = (c) => show(parseCondition(c), engine, view, cpp.decoy).text;

cppTest('the C++ task produces a ~36 KB raw report', () => {
  assert.ok(raw.length > 34_000 && raw.length < 42_000, String(raw.length));
  assert.is(env.verdict.status, 'crash');
});

cppTest('raw shows every byte; no_feedback only the exit code', () => {
  assert.is(shown('raw'), `exit code: 1\n${text}`);
  assert.is(shown('no_feedback'), 'exit code: 1\n');
});

cppTest('truncate30k is Claude Code\'s Bash result: the C++ task\'s report (past 30 000 bytes) saved whole, a 2 KB preview, the path read_file serves', () => {
  const s = claudeBash(text, '.tool-results/run-1.txt');
  assert.ok(Buffer.byteLength(text) > 30_000);
  assert.match(s, /^<persisted-output>\nOutput too large \(\d+\.\dKB\)\. Full output saved to: \.tool-results\/run-1\.txt\n\nPreview \(first 2KB\):\n/);
  assert.ok(s.length < 2_300, String(s.length));
  assert.is(claudeBash('short\n\n', 'x'), 'short');
  assert.match(shown('truncate30k'), /^exit code: \d+\n<persisted-output>/);
});

cppTest('truncate10k is Codex\'s exec result: up to 10 000 tokens whole, past that the first and last 20 000 bytes and the tokens cut', () => {
  const b = Buffer.from(text);
  const s = codexExec(b);
  const tokens = Math.ceil(b.length / 4);
  if (tokens <= 10_000) { assert.is(s, text); return; }
  assert.ok(s.startsWith(`Warning: truncated output (original token count: ${tokens})\nTotal output lines: `));
  assert.match(s, new RegExp(`…${tokens - 10_000} tokens truncated…`));
  assert.ok(s.endsWith(text.slice(-1000)));
});

cppTest('truncate40k is Gemini CLI\'s shell result: the failing run\'s exit code and process group in <untrusted_context>; past 40 000 characters its first 8 000 and last 32 000', () => {
  const s = shown('truncate40k');
  assert.match(s, /^exit code: (\d+)\n/);
  const code = /^exit code: (\d+)/.exec(s)[1];
  const whole = geminiShell(text, 'x', { exit: Number(code), signal: null, pgid: 2 });
  if (whole.startsWith('<untrusted_context>')) assert.ok(whole.endsWith(`\nExit Code: ${code}\nProcess Group PGID: 2\n</untrusted_context>`));
  else {
    assert.match(whole, /^Output too large\. Showing first 8,000 and last 32,000 characters\. For full output see: x\n<untrusted_context>\nOutput: /);
    assert.match(whole, /\n\n\.\.\. \[[\d,]+ characters omitted\] \.\.\.\n\n/);
    assert.ok(whole.endsWith(`\nExit Code: ${code}\nProcess Group PGID: 2\n</untrusted_context>`));
  }
  assert.is(geminiShell('\x1b[31m\n\n', 'x', { exit: 0, signal: null, pgid: 2 }), '<untrusted_context>\nOutput: (empty)\nProcess Group PGID: 2\n</untrusted_context>');
  assert.is(geminiShell('boom\n', 'x', { exit: null, signal: 11, pgid: 2 }), '<untrusted_context>\nOutput: boom\nSignal: 11\nProcess Group PGID: 2\n</untrusted_context>');
});

cppTest('regex: the 700 near-identical lines collapse into one with a count; the crash survives', () => {
  const s = compress(text);
  assert.ok(s.length < text.length / 5, `${s.length} of ${text.length}`);
  assert.match(s, /more similar lines\)/);
  assert.match(s, /ERROR: AddressSanitizer: heap-buffer-overflow/);
  assert.match(s, /ledger\.cpp:8/);
  assert.not.match(s, /Shadow byte legend/);
});

cppTest('structured: the verdict, no wall time, no host path', () => {
  const s = shown('structured');
  assert.match(s, /^sbx: crash · exit 1 · \d+ lines/);
  assert.match(s, /heap-buffer-overflow/);
  assert.match(s, /ledger\.cpp:8/);
  assert.not.match(s, / ms /);
  assert.not.ok(s.includes(work));
  assert.match(shown('structured_delta'), /delta: first run/);
});

cppTest('corrupt_line: the fault line moves to the decoy everywhere, the engine reads it so, the rest is the same', () => {
  const f = faultOf(env.verdict);
  assert.equal(f, { file: 'ledger.cpp', line: 8 });
  const bent = corruptLine(text, f, cpp.decoy);
  const v = engine.verdict(Buffer.from(bent.text), { exit: 1 }).verdict;
  assert.ok(bent.check(v));
  assert.equal(faultOf(v), { file: 'ledger.cpp', line: 17 });
  assert.is(v.crash.kind, env.verdict.crash.kind);
  const s = shown('corrupt_line');
  assert.match(s, /ledger\.cpp:17/);
  assert.not.match(s, /(?<![\w.-])ledger\.cpp:8\b/);
  assert.is(s.split('\n').length, shown('structured').split('\n').length);
});

cppTest('corrupt_line: a frame of another file whose name ends the same (test_ledger.cpp:8) keeps its line', () => {
  assert.match(text, /in main test_ledger\.cpp:8\b/);
  const bent = corruptLine(text, faultOf(env.verdict), cpp.decoy);
  assert.match(bent.text, /in main test_ledger\.cpp:8\b/);
  assert.not.match(bent.text, /test_ledger\.cpp:17/);
  assert.match(bent.text, /in Ledger::post\(int, long\) ledger\.cpp:17/);
  assert.not.match(shown('corrupt_line'), /test_ledger\.cpp:17/);
});

pyTest('corrupt_line: a failing assertion in a test file is not moved into the source file (nothing to corrupt)', async () => {
  for (const id of ['py-interval', 'loop-py-rounding']) {
    const [t] = loadTasks(undefined, [id]);
    const w = materialize(t);
    const e = await run({ cmd: t.cmd, work: w, timeout: 120 });
    const log = readFileSync(e.log, 'utf8');
    const f = faultOf(e.verdict);
    assert.ok(f.file.startsWith('test_'), `${id}: the verdict blames ${f.file}`);
    assert.is(corruptLine(log, f, t.decoy), null, id);
    const s = show(parseCondition('corrupt_line'), engine, { raw: Buffer.from(log), env: e, exit: e.outcome.exit_code, signal: null, timedOut: false }, t.decoy);
    assert.is(s.corruptApplied, null);
    assert.ok(s.text.includes(`${f.file}:${f.line}`), s.text);
    assert.not.match(s.text, new RegExp(`(?<![\\w.-])${t.decoy.file}:${t.decoy.line}\\b`), id);
  }
});

test('shown/raw counts characters over characters: the raw arm shows every character of the raw output plus its exit line', async () => {
  const [t] = loadTasks(undefined, ['c-compile-error']);
  const rec = await runEpisode(t, parseCondition('raw'), scriptedBackend('oracle', t), 1, engine, { budget: 12, maxApiCalls: 30, runBeforeEdit: false, maxTokens: 1000 });
  assert.ok(rec.success);
  assert.ok(rec.raw_bytes > rec.raw_chars, 'gcc quotes names in ‘’: more bytes than characters');
  assert.is(rec.shown_chars, rec.raw_chars + 'exit code: 1\n'.length + 'exit code: 0\n'.length);
  const table = analyze([rec], { bootstrap: 10, seed: 1 });
  const ratio = Number(table.split('\n').find((l) => l.startsWith('| raw |')).split(' | ')[11]);
  assert.ok(ratio > 1, `the raw arm shows more than the raw output, never less: ${ratio}`);
});

cppTest('corrupt_kind: the crash kind swapped for a plausible one, hint and identity follow, the line stays', () => {
  const bent = corruptKind(text, env.verdict);
  const v = engine.verdict(Buffer.from(bent.text), { exit: 1 }).verdict;
  assert.is(v.crash.kind, 'heap-use-after-free');
  assert.match(v.crash.hint, /freed/);
  assert.equal(faultOf(v), { file: 'ledger.cpp', line: 8 });
  assert.match(shown('corrupt_kind'), /heap-use-after-free/);
});

test('each arm describes its own output format in the run tool', () => {
  const ds = ALL_CONDITIONS.map((c) => runToolDescription(parseCondition(c), cpp.cmd));
  assert.match(ds[ALL_CONDITIONS.indexOf('no_feedback')], /only the exit code/);
  assert.match(ds[ALL_CONDITIONS.indexOf('truncate30k')], /as Claude Code shows it: up to 30000 bytes/);
  assert.match(ds[ALL_CONDITIONS.indexOf('raw+mask2')], /Only the last 2 tool results/);
  for (const d of ds) assert.ok(d.includes(cpp.cmd.join(' ')), 'the same command in every arm');
  assert.is(parseCondition('nope'), null);
  assert.is(parseCondition('raw+mask0'), null);
});

test('stats: Wilson, exact McNemar, seeded paired bootstrap', () => {
  const [lo, hi] = wilson(0, 3);
  assert.is(lo, 0);
  assert.ok(Math.abs(hi - 0.5615) < 1e-3, String(hi));
  const [l2, h2] = wilson(8, 10);
  assert.ok(Math.abs(l2 - 0.4902) < 1e-3 && Math.abs(h2 - 0.9433) < 1e-3, `${l2} ${h2}`);
  assert.ok(Math.abs(mcnemarExact(0, 5) - 0.0625) < 1e-12);
  assert.ok(Math.abs(mcnemarExact(1, 9) - 0.021484375) < 1e-12);
  assert.is(mcnemarExact(0, 0), 1);
  const a = pairedBootstrap([1, 2, 3, 4, 5], 1000, 7); const b = pairedBootstrap([1, 2, 3, 4, 5], 1000, 7);
  assert.equal(a, b);
  assert.is(a.mean, 3);
  assert.ok(a.lo < 3 && a.hi > 3 && a.lo >= 1 && a.hi <= 5);
});

test.run();
