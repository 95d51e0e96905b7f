// Infrastructure frames (assembly/infra-frames.ts) are never a crash's first user frame: over every real
// fixture with a crash, the frame the verdict points at is not abort/raise/gsignal, an assertion or CHECK
// helper, a logging or debugger hook, the libFuzzer driver, googletest internals, the vDSO or a symbolizer
// placeholder, and not in libc. And each infrastructure frame a fixture's stack does hold is marked non-user.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createEngine } from '../../dist/engine.js';
import { listCases } from '../../fixtures/lib/cases.js';

const engine = await createEngine();
const INFRA = [
  /^(gsignal|raise|abort|exit|__run_exit_handlers|__pthread_kill_implementation)$/,
  /^__assert_fail/, /^g_assertion_message/, /^google::/, /^logging::/, /^base::debug::/, /^fuzzer::/,
  /^testing::internal::/, /^__rustc::/, /^(panic|\?\?|\(unknown\))$/,
];
const isInfra = (fn) => fn !== null && INFRA.some((r) => r.test(fn));

const crashes = listCases(undefined, { blind: true }).map((c) => ({
  c, v: engine.verdict(c.log, { exit: c.run.exit ?? null, signal: c.run.signal ?? null, timedOut: Boolean(c.run.timed_out) }).verdict,
})).filter(({ v }) => v.crash);

test('no first user frame is an infrastructure frame', () => {
  assert.ok(crashes.length > 100, `only ${crashes.length} crash fixtures`);
  for (const { c, v } of crashes) {
    const u = v.crash.first_user_frame;
    if (!u) continue;
    assert.not.ok(isInfra(u.function), `${c.id}: first user frame ${u.function}`);
    assert.not.ok(/(^|\/)libc\.so|\[vdso\]|linux-gate/.test(u.module ?? ''), `${c.id}: first user frame in ${u.module}`);
  }
});

test('infrastructure frames on the fixtures\' stacks are marked non-user', () => {
  let seen = 0;
  for (const { c, v } of crashes) {
    for (const f of [...v.crash.frames, ...v.crash.alloc_frames, ...v.crash.free_frames]) {
      if (!isInfra(f.function)) continue;
      seen++;
      assert.is(f.user, false, `${c.id}: ${f.function} marked user`);
    }
  }
  // abort/raise, __assert_fail*, google::LogMessage*, fuzzer::*, exit, __rustc::* all occur in fixtures/wild.
  assert.ok(seen >= 40, `only ${seen} infrastructure frames seen`);
});

test.run();
