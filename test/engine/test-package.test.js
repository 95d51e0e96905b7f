// A failing test's unit (verdict tests.failures[].package): go test's package (its import path, from the
// package's `FAIL\tpkg` line), cargo test's crate (the test binary's name in its `Running` line). Two units'
// tests of the same name are two failures, each with its own message and place (real logs: fixtures/pairs).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createEngine } from '../../dist/engine.js';
import { ROOT } from '../../fixtures/lib/cases.js';

const engine = await createEngine();
const failures = (pair, state) => {
  const dir = join(ROOT, 'fixtures/pairs', pair, state);
  const run = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8'));
  return engine.verdict(readFileSync(join(dir, 'log.txt')), { exit: run.exit }).verdict.tests.failures.map((f) => [f.name, f.package ?? null, f.file, f.line]);
};

test('go test ./...: TestParse failing in two packages is two failures, each its package\'s (the file bare: the module root is not in the log)', () => {
  assert.equal(failures('go-same-test-two-packages', 'before'), [
    ['TestParse', 'example.com/shapes/geom', 'parse_test.go', 8],
    ['TestParse', 'example.com/shapes/units', 'parse_test.go', 8],
  ]);
});

test('cargo test in a workspace: tests::parses failing in two crates is two failures, each its crate\'s', () => {
  assert.equal(failures('cargo-same-test-two-crates', 'before'), [
    ['tests::parses', 'lexer', 'lexer/src/lib.rs', 12],
    ['tests::parses', 'parser', 'parser/src/lib.rs', 12],
  ]);
});

test('a log with no unit named: no package field', () => {
  const v = engine.verdict(new TextEncoder().encode('--- FAIL: TestX (0.00s)\n    x_test.go:3: boom\nFAIL\n'), { exit: 1 }).verdict;
  assert.equal(v.tests.failures.map((f) => [f.name, 'package' in f]), [['TestX', false]]);
});

test.run();
