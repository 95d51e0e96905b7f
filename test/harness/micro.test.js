// The micro-experiments' commands: localization over every task's real buggy run (what the verdict names
// vs the fix locus), and a short startup run (JSON + SVG each).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { needs } from '../_tools.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'sbx-micro-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
const exp = (...args) => spawnSync(process.execPath, [join(ROOT, 'dist/experiment.js'), ...args], { encoding: 'utf8', maxBuffer: 16 << 20 });

// The tasks' toolchains, in the sandbox: g++ (the C++ task), python3, rustc (Debian's, on the sandbox's PATH).
const allTasks = needs('test/harness/micro: every task', ['g++', 'python3', 'rustc'], test);

allTasks('micro localization: per task, the verdict\'s line and the raw output\'s first line against the fix', () => {
  const r = exp('micro', 'localization', '--out', dir);
  assert.is(r.status, 0, r.stderr);
  const d = JSON.parse(readFileSync(join(dir, 'localization.json'), 'utf8'));
  assert.is(d.summary.tasks, 32);
  const by = Object.fromEntries(d.results.map((x) => [x.task, x]));
  // Facts of these tasks' real output: the compile error and the haystack's read are at the fix; the
  // double free is reported where the second free happens, 7 lines below the missing NULL; the CLI
  // bug surfaces 6 lines below the argparse line that causes it.
  assert.equal([by['c-compile-error'].verdict_names, by['c-compile-error'].verdict_hit], ['shapes.c:14', true]);
  assert.equal([by['c-haystack'].verdict_names, by['c-haystack'].verdict_hit], ['handlers.c:137', true]);
  assert.equal([by['c-double-free'].verdict_names, by['c-double-free'].distance_verdict], ['buffer.c:37', 7]);
  assert.equal([by['py-cli'].verdict_names, by['py-cli'].verdict_hit], ['resize.py:15', false]);
  // The heap overflow's crash line misses the allocation by 4, but the verdict also names the allocation site.
  assert.equal([by['c-heap-overflow'].verdict_hit, by['c-heap-overflow'].verdict_any_hit], [false, true]);
  assert.ok(readFileSync(join(dir, 'localization.svg'), 'utf8').startsWith('<svg'));
});

test('micro startup: medians per variant, sbx and a plain spawn at least', () => {
  const r = exp('micro', 'startup', '--runs', '3', '--out', dir);
  assert.is(r.status, 0, r.stderr);
  const d = JSON.parse(readFileSync(join(dir, 'startup.json'), 'utf8'));
  const names = d.results.map((x) => x.variant);
  assert.ok(names.includes('spawn /bin/true') && names.some((n) => n.startsWith('sbx run()')), names.join(', '));
  for (const x of d.results) assert.ok(x.median_ms > 0 && x.runs === 3);
  assert.ok(readFileSync(join(dir, 'startup.svg'), 'utf8').startsWith('<svg'));
  const bad = exp('micro', 'warp');
  assert.is(bad.status, 2);
  assert.match(bad.stderr, /micro needs one of startup, determinism, localization/);
});

test.run();
