// Determinism: addresses of stack, heap, libc and mmap objects are the same bytes run after run
// under the default profile (ASLR off), and vary with the --aslr opt-in.
import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { run, tempDir } from './_helpers.js';

const aslrOnHost = (() => {
  try {
    return readFileSync('/proc/sys/kernel/randomize_va_space', 'utf8').trim() !== '0';
  } catch {
    return true;
  }
})();

test('addresses are identical 10 runs in a row', async () => {
  const work = tempDir();
  const outs = [];
  for (let i = 0; i < 10; i++) {
    const r = await run(['/probe/probe', 'addrs'], { work, probe: true });
    assert.is(r.setupError, null);
    assert.is(r.outcome.applied.no_aslr, true);
    outs.push(r.out);
  }
  assert.match(outs[0], /^stack 0x[0-9a-f]+ heap 0x[0-9a-f]+ libc 0x[0-9a-f]+ mmap 0x[0-9a-f]+ main 0x[0-9a-f]+\n$/);
  assert.equal(new Set(outs).size, 1, outs.join(''));
});

test('a shell prints the same bytes 10 runs in a row', async () => {
  // Environment, pids, hostname, uid, time zone and the address of a shell variable's page.
  const script = 'env | sort; echo $$ $PPID; id; hostname; date -d @0; cat /proc/self/maps | grep -E "stack|heap" | cut -d" " -f1';
  const outs = new Set();
  for (let i = 0; i < 10; i++) outs.add((await run(['/bin/sh', '-c', script])).out);
  assert.is(outs.size, 1, [...outs].join('\n---\n'));
});

test('--aslr brings randomisation back', async () => {
  if (!aslrOnHost) {
    console.log('  (skipped: kernel.randomize_va_space is 0 on this host)');
    return;
  }
  const work = tempDir();
  const outs = new Set();
  for (let i = 0; i < 5; i++) {
    const r = await run(['/probe/probe', 'addrs'], { work, probe: true, aslr: true });
    assert.is(r.outcome.applied.no_aslr, false);
    outs.add(r.out);
  }
  assert.ok(outs.size > 1, 'addresses did not change with ASLR on');
});

test.run();
