// Issue 8's smaller misses, from real runs: a failed name lookup says the sandbox has no network (and
// how to allow it), a sanitizer run says its leak check was off, and the envelope's total_ms counts
// sbx's own work beside the command's wall_ms.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { workDir, sbxRun } from './_helpers.js';
import { needs } from '../_tools.js';

const pyTest = needs('test/e2e/notes: a failed name lookup in Python', ['python3'], test);

pyTest('a name lookup that fails in the sandbox: a note naming --net', () => {
  const dir = workDir({});
  const r = sbxRun(dir, ['sh', '-c', 'getent hosts example.org || python3 -c "import socket; socket.getaddrinfo(\'example.org\', 80)"'], { json: false });
  assert.match(r.stdout, /^note: a host name did not resolve: .*pass --net/m, r.stdout);
  assert.match(r.stderr, 'pass --net');
  const ok = sbxRun(dir, ['echo', 'no lookups here'], { json: false });
  assert.not.match(ok.stdout + ok.stderr, '--net');
});

test('a silent timeout without --net names the missing network (npm install waits minutes before it says anything: issue 29 item 14)', () => {
  const dir = workDir({});
  const r = sbxRun(dir, ['sleep', '5'], { json: false, flags: ['--timeout', '1'] });
  assert.match(r.stdout, /^note: the run timed out with next to no output, and the sandbox has no network .*pass --net/m, r.stdout);
  const loud = sbxRun(dir, ['sh', '-c', 'for i in 1 2 3 4 5; do echo line $i; done; sleep 5'], { json: false, flags: ['--timeout', '1'] });
  assert.not.match(loud.stdout, 'no network', loud.stdout);
  const net = sbxRun(dir, ['sleep', '5'], { json: false, flags: ['--timeout', '1', '--net'] });
  assert.not.match(net.stdout, 'no network', net.stdout);
});

test('a shell that cannot find its command exits with the shell\'s 127, as the header says (issue 29 item 15)', () => {
  const r = sbxRun(workDir({}), ['sh', '-c', 'mkae test'], { json: false });
  assert.match(r.stdout, /^sbx: setup-failed · exit 127 /m, r.stdout);
  assert.is(r.code, 127, r.stdout);
  assert.is(sbxRun(workDir({}), ['no-such-command-x'], { json: false }).code, 127, 'not found by sbx itself: 127 too');
});

test('an ASan build that passes: a note that LeakSanitizer was off, not with --allow-ptrace', () => {
  const dir = workDir({ 'leak.c': '#include <stdlib.h>\nvoid *keep;\nint main(void) { keep = malloc(10); keep = 0; return 0; }\n' });
  const cmd = ['sh', '-c', 'gcc -fsanitize=address -g leak.c -o leak && ./leak'];
  const r = sbxRun(dir, cmd, { json: false });
  assert.match(r.stdout, /^note: LeakSanitizer was off .*--allow-ptrace/m, r.stdout);
  const p = sbxRun(dir, cmd, { json: false, flags: ['--allow-ptrace'] });
  assert.not.match(p.stdout, 'LeakSanitizer was off', p.stdout);
  assert.match(p.stdout, /leak/i, 'with ptrace allowed the leak is reported');
});

test('total_ms counts sbx\'s own work: never less than the command\'s wall_ms', () => {
  const r = sbxRun(workDir({ 'a.txt': 'x\n' }), ['true']);
  const o = r.env.outcome;
  assert.type(o.total_ms, 'number');
  assert.ok(o.total_ms >= o.wall_ms, JSON.stringify(o));
});

test.run();
