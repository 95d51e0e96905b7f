// Determinism through `sbx run`: a program that prints the addresses of a stack, a heap and a libc object
// (and its own code) prints the same bytes run after run under the default profile, and different ones with
// --aslr. Built inside the sandbox, as a user would.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { workDir, sbxRun, logText } from './_helpers.js';

const ADDR_C = `#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
static int in_data = 1;
int main(void) {
    int on_stack = 0;
    void *small = malloc(32), *big = malloc(1 << 20);
    printf("stack %p\\nheap %p\\nmmap %p\\nlibc-stdout %p\\nlibc-errno %p\\ncode %p\\ndata %p\\n",
           (void *)&on_stack, small, big, (void *)stdout, (void *)&errno, (void *)&main, (void *)&in_data);
    return 0;
}
`;

test('stack, heap, mmap, libc and code addresses: identical twice in a row, different with --aslr', () => {
  const dir = workDir({ 'addr.c': ADDR_C });
  const b = sbxRun(dir, ['gcc', '-O0', '-fPIE', '-pie', '-o', 'addr', 'addr.c']);
  assert.is(b.code, 0, b.why());
  const out = (flags = []) => {
    const r = sbxRun(dir, ['./addr'], { flags });
    assert.is(r.code, 0, r.why());
    const text = logText(r.env);
    assert.match(text, /^stack 0x[0-9a-f]+\nheap 0x[0-9a-f]+\nmmap 0x/, text);
    return text;
  };
  const a1 = out(); const a2 = out(); const a3 = out();
  assert.is(a2, a1);
  assert.is(a3, a1);
  const r1 = out(['--aslr']); const r2 = out(['--aslr']);
  assert.is.not(r1, a1, 'ASLR on moves something');
  assert.is.not(r2, r1, 'two ASLR runs differ');
  const line = (t, k) => t.split('\n').find((l) => l.startsWith(`${k} `));
  for (const k of ['stack', 'libc-stdout']) assert.is.not(line(r1, k), line(r2, k), `${k} moves with --aslr`);
});

test('the environment the command sees is the same every run (no host variables, fixed time zone, locale, hostname, uid)', () => {
  const dir = workDir();
  const cmd = ['sh', '-c', 'env | sort; hostname; id -u; date -d @0 +%Z; umask; pwd'];
  const t1 = logText(sbxRun(dir, cmd).env);
  const t2 = logText(sbxRun(dir, cmd).env);
  assert.is(t2, t1);
  // HOME is the project's own directory outside the work tree (issue 31 §2), no longer /work.
  assert.match(t1, /^HOME=\/home\/sbx$/m);
  assert.match(t1, /^TZ=UTC$/m);
  assert.match(t1, /^LC_ALL=C\.UTF-8$/m);
  assert.match(t1, /^sbx$/m);
  assert.match(t1, /^1000$/m);
  assert.match(t1, /^\/work$/m);
  assert.not.match(t1, /^(SSH_|SUDO_|npm_|NODE_)/m);
});

test.run();
