// An AddressSanitizer build made and run inside the sandbox (gcc -fsanitize=address -g): the crash verdict
// (kind, access, first user frame, allocation site), then the same crash again after edits that cannot
// affect it: the delta says crash same / no-op edit, and the rendered verdict says "delta: no change".
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES, workDir, copyFixture, sbxRun, write } from './_helpers.js';

const build = ['sh', '-c', 'gcc -g -O0 -fsanitize=address -fno-omit-frame-pointer main.c -o prog && ./prog'];
const frame = (f) => f && [f.function, f.file, f.line];

test('heap-buffer-overflow: crash, kind, WRITE of 1, first user frame main.c:10, allocated at main.c:8, exit 1; then the same crash twice', () => {
  const dir = copyFixture('pairs/asan-crash-same-noop/before', workDir({ 'NOTES.md': 'first\n' }));
  const r = sbxRun(dir, build);
  assert.is(r.code, 1, r.why());
  const v = r.verdict;
  assert.is(v.status, 'crash', r.why());
  assert.is(v.crash.tool, 'asan');
  assert.is(v.crash.kind, 'heap-buffer-overflow');
  assert.is(v.crash.access, 'WRITE');
  assert.is(v.crash.size, 1);
  assert.equal(frame(v.crash.first_user_frame), ['dup_name', 'main.c', 10]);
  assert.equal(v.crash.frames.filter((f) => f.user).map(frame), [['dup_name', 'main.c', 10], ['main', 'main.c', 20]]);
  assert.equal(frame(v.crash.alloc_frames.find((f) => f.user)), ['dup_name', 'main.c', 8]);
  assert.is(v.crash.identity, 'asan/heap-buffer-overflow/WRITE/dup_name@main.c');
  // No compiler diagnostics and no leak noise (LeakSanitizer is off under seccomp).
  assert.equal(v.diagnostics, []);
  assert.not.match(JSON.stringify(v), /LeakSanitizer/);
  assert.is(r.env.delta.first_run, true);

  // Only an unrelated file changed: the same crash, a no-op edit.
  write(dir, { 'NOTES.md': 'second\n' });
  const r2 = sbxRun(dir, build);
  assert.is(r2.code, 1, r2.why());
  assert.is(r2.verdict.status, 'crash');
  const d = r2.env.delta;
  assert.is(d.first_run, false);
  assert.equal(d.status, { before: 'crash', after: 'crash' });
  assert.is(d.crash, 'same');
  assert.is(d.no_op_edit, true);
  assert.ok(d.tree_changed, 'the work tree changed');
  assert.is(d.repeat.same_verdict_runs, 2);

  // The rendered verdict of a third run (a comment and a string in an unrelated function edited).
  copyFileSync(join(FIXTURES, 'pairs/asan-crash-same-noop/after/main.c'), join(dir, 'main.c'));
  const r3 = sbxRun(dir, build, { json: false });
  assert.is(r3.code, 1, r3.stdout + r3.stderr);
  assert.match(r3.stdout, /^sbx: crash · exit 1/m);
  assert.match(r3.stdout, /^delta: no change\b/m);
  assert.match(r3.stdout, /heap-buffer-overflow/);
  assert.match(r3.stdout, /at dup_name main\.c:10/);
  assert.match(r3.stdout, /^log: \//m);
});

test('a different ASan crash after an edit (heap-use-after-free): the delta says crash new, not a no-op', () => {
  const dir = copyFixture('pairs/asan-crash-same-noop/before', workDir());
  assert.is(sbxRun(dir, build).verdict.status, 'crash');
  // A different bug: a use-after-free in main.
  write(dir, { 'main.c': '#include <stdlib.h>\n#include <stdio.h>\nint main(void) {\n    char *p = malloc(8);\n    free(p);\n    return p[1];\n}\n' });
  const r = sbxRun(dir, build);
  assert.is(r.verdict.status, 'crash', r.why());
  assert.is(r.verdict.crash.kind, 'heap-use-after-free');
  assert.equal(frame(r.verdict.crash.first_user_frame), ['main', 'main.c', 6]);
  assert.equal(frame(r.verdict.crash.free_frames.find((f) => f.user)), ['main', 'main.c', 5]);
  assert.is(r.env.delta.crash, 'new');
  assert.is(r.env.delta.no_op_edit, false);
});

test.run();
