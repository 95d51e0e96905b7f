// The crash state (assembly/crash-state.ts, rules in assembly/state-rules.ts) on real fixtures, and the delta
// comparing crashes by it: the same first frame under another state is a crash that moved.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createEngine } from '../../dist/engine.js';
import { ROOT } from '../../fixtures/lib/cases.js';

const engine = await createEngine();
const verdictOf = (id) => {
  const d = join(ROOT, 'fixtures', id);
  const run = JSON.parse(readFileSync(join(d, 'run.json'), 'utf8'));
  return engine.verdict(readFileSync(join(d, 'log.txt')), { exit: run.exit ?? null, signal: run.signal ?? null }).verdict;
};

test('ASan: the top three frames by name, without libc start-up frames', () => {
  assert.equal(verdictOf('cfamily/asan-deep-chain-gcc').crash.state, ['store_field', 'parse_record', 'parse_all']);
});

test('ASan: an interceptor (strcpy), main and the libc start-up frames are not in the state (ClusterFuzz drops ^main)', () => {
  assert.equal(verdictOf('cfamily/asan-heap-overflow-write-clang').crash.state, []);
});

test('Go: a panic with its own message starts with it; frames of package main are dropped, as ClusterFuzz drops them', () => {
  assert.equal(verdictOf('langs/go-panic-custom').crash.state, ['config "port": missing key']);
  assert.equal(verdictOf('langs/go-panic-index').crash.state, []);
});

test('Rust under libFuzzer: the message, then the lent report\'s frames as printed (build hash kept, std and libFuzzer dropped)', () => {
  // ClusterFuzz keeps `raise` when its file is glibc's relative `signal/../sysdeps/posix/raise.c`: no rule names it.
  assert.equal(verdictOf('wild/rs-fuzz-target-panic').crash.state,
    ['index out of bounds: the len is 3 but the index is 9', 'raise', 'lib::parse_version::h90bb8ee011b9c7c1']);
});

test('delta: the same crash is same; the same first frame under another state moved', () => {
  const v = verdictOf('cfamily/asan-deep-chain-gcc');
  assert.is(engine.delta(v, structuredClone(v)).crash, 'same');
  const other = structuredClone(v);
  other.crash.state = ['store_field', 'parse_record', 'load_all'];
  assert.is(engine.delta(v, other).crash, 'moved');
  // a verdict from before the state existed is compared by its first user frame
  const old = structuredClone(v);
  delete old.crash.state;
  assert.is(engine.delta(old, other).crash, 'same');
});

test.run();
