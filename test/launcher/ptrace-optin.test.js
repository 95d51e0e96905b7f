// The --allow-ptrace opt-in: by default ptrace is denied and LeakSanitizer is off (it would die on
// the denied ptrace); with allowPtrace the policy leaves ptrace alone, leak checking is on, and the
// outcome records the opt-in. A real gcc ASan build inside the sandbox.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sh, tempDir } from './_helpers.js';
import { needs } from '../_tools.js';

const LEAK = '#include <stdlib.h>\n#include <string.h>\nint main(void) { char *p = malloc(32); strcpy(p, "leak"); p = 0; return 0; }\n';
const build = 'gcc -g -fsanitize=address leak.c -o leak && ./leak';

function project() {
  const work = tempDir();
  writeFileSync(join(work, 'leak.c'), LEAK);
  return work;
}

test('default profile: ptrace denied, leak checking off, opt-in not recorded', async () => {
  const r = await sh(`${build}; echo "exit=$?"`, { work: project() });
  assert.is(r.setupError, null);
  assert.match(r.out, /exit=0/);
  assert.not.match(r.out, /LeakSanitizer/);
  assert.is(r.outcome.applied.seccomp, true);
  assert.is(r.outcome.applied.ptrace_allowed, false);
});

test('allowPtrace: LeakSanitizer reports the leak, seccomp still on', async () => {
  const r = await sh(build, { work: project(), allowPtrace: true });
  assert.is(r.setupError, null);
  assert.match(r.out, /ERROR: LeakSanitizer: detected memory leaks/);
  assert.match(r.out, /Direct leak of 32 byte\(s\)/);
  assert.is(r.outcome.exit_code, 1);
  assert.is(r.outcome.applied.seccomp, true);
  assert.is(r.outcome.applied.ptrace_allowed, true);
});

needs('test/launcher/ptrace-optin: a syscall from Python', ['python3'], test)('allowPtrace keeps process_vm_writev and the rest of the denylist', async () => {
  const r = await sh('python3 -c "import ctypes,os; print(\'rc\', ctypes.CDLL(None, use_errno=True).syscall(311, os.getpid(), 0, 0, 0, 0, 0), ctypes.get_errno())"', { allowPtrace: true });
  assert.match(r.out, /rc -1 1\b/);
});

test.run();
