// The raw log is what `2>&1` on a terminal shows: the command's stdout and stderr in the order the
// kernel received their writes, every line whole (issue 29 item 11). Real runs through the CLI,
// each repeated: a relay that reads two pipes gets the order wrong in most runs, not in all.
import { readFileSync, statSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { sbxRun, workDir } from './_helpers.js';

const REPEAT = 20;
const logOf = (r) => readFileSync(r.env.log, 'latin1');

test(`stdout and stderr alternating in one process: the log is in order, ${REPEAT} runs of ${REPEAT}`, () => {
  const dir = workDir();
  const seen = [];
  for (let i = 0; i < REPEAT; i++) {
    const r = sbxRun(dir, ['sh', '-c', 'echo out1; echo err1 >&2; echo out2; echo err2 >&2; echo out3']);
    assert.is(r.code, 0, r.why());
    seen.push(logOf(r));
  }
  const wrong = seen.filter((l) => l !== 'out1\nerr1\nout2\nerr2\nout3\n');
  assert.equal(wrong, [], `${wrong.length} of ${REPEAT} logs out of order, e.g. ${JSON.stringify(wrong[0])}`);
});

test(`a shell's error message and the next line: whole lines, in order, ${REPEAT} runs of ${REPEAT}`, () => {
  // dash writes "sh: 1: " and the rest of its message in two writes; "after" must not land between them.
  const dir = workDir();
  const seen = [];
  for (let i = 0; i < REPEAT; i++) {
    const r = sbxRun(dir, ['sh', '-c', 'echo x > /etc/nope; echo after']);
    assert.is(r.code, 0, r.why());
    seen.push(logOf(r));
  }
  const wrong = seen.filter((l) => !/^sh: 1: cannot create \/etc\/nope: [A-Za-z -]+\nafter\n$/.test(l));
  assert.equal(wrong, [], `${wrong.length} of ${REPEAT} logs spliced or out of order, e.g. ${JSON.stringify(wrong[0])}`);
});

test('two processes taking turns (one on stdout, one on stderr): the log follows their turns exactly', () => {
  // A handshake through two FIFOs fixes the true order: ping i is written before pong i, pong i before ping i+1.
  const n = 300;
  const script = [
    'cd /tmp && mkfifo a b',
    `(i=1; while [ $i -le ${n} ]; do read x < a; echo "pong $i" >&2; echo > b; i=$((i+1)); done) &`,
    `i=1; while [ $i -le ${n} ]; do echo "ping $i"; echo > a; read x < b; i=$((i+1)); done; wait`,
  ].join('\n');
  const want = Array.from({ length: n }, (_, i) => `ping ${i + 1}\npong ${i + 1}\n`).join('');
  const dir = workDir();
  for (let i = 0; i < 3; i++) {
    const r = sbxRun(dir, ['sh', '-c', script]);
    assert.is(r.code, 0, r.why());
    const log = logOf(r);
    if (log !== want) {
      const a = log.split('\n'); const b = want.split('\n');
      const at = a.findIndex((l, k) => l !== b[k]);
      assert.unreachable(`run ${i + 1}: the log leaves the turns at line ${at + 1}: ${JSON.stringify(a.slice(Math.max(0, at - 1), at + 3))}`);
    }
  }
});

test('two processes writing whole lines at once: every line whole, each process\'s lines in its order', () => {
  const n = 5000;
  const dots = '.'.repeat(32); const commas = ','.repeat(46);
  const dir = workDir();
  const r = sbxRun(dir, ['sh', '-c',
    `(i=1; while [ $i -le ${n} ]; do echo "out $i ${dots}"; i=$((i+1)); done) & ` +
    `(i=1; while [ $i -le ${n} ]; do echo "err $i ${commas}" >&2; i=$((i+1)); done); wait`]);
  assert.is(r.code, 0, r.why());
  const lines = logOf(r).split('\n');
  assert.is(lines.pop(), '', 'the log ends with a newline');
  const bad = lines.filter((l) => !/^out \d+ \.{32}$/.test(l) && !/^err \d+ ,{46}$/.test(l));
  assert.equal(bad, [], 'no spliced lines');
  for (const tag of ['out', 'err']) {
    const mine = lines.filter((l) => l.startsWith(`${tag} `)).map((l) => Number(l.split(' ')[1]));
    assert.equal(mine, Array.from({ length: n }, (_, i) => i + 1), `${tag}: every line once, in order`);
  }
});

test('stdout and stderr are one pipe inside: 2>&1 as the kernel orders it; /dev/stderr still opens', () => {
  const r = sbxRun(workDir(), ['sh', '-c', 'readlink /proc/self/fd/1 /proc/self/fd/2; echo via-dev-stderr > /dev/stderr; echo via-dev-stdout > /dev/stdout']);
  assert.is(r.code, 0, r.why());
  const [one, two, ...rest] = logOf(r).split('\n');
  assert.match(one, /^pipe:\[\d+\]$/);
  assert.is(two, one, 'fd 1 and fd 2 are the same pipe');
  assert.equal(rest, ['via-dev-stderr', 'via-dev-stdout', '']);
});

test('a large concurrent stdout+stderr writer finishes; every byte is in the log and counted', () => {
  // 8 MiB on each stream at once, into the one pipe: the relay drains it, neither writer waits on the other.
  const MiB = 1 << 20;
  const r = sbxRun(workDir(), ['sh', '-c', `head -c ${8 * MiB} /dev/zero | tr "\\0" o & head -c ${8 * MiB} /dev/zero | tr "\\0" e >&2; wait`], { flags: ['--timeout', '60'] });
  assert.is(r.code, 0, r.why());
  const o = r.env.outcome;
  assert.is(statSync(r.env.log).size, 16 * MiB);
  const log = readFileSync(r.env.log, 'latin1');
  assert.is(log.replace(/e/g, '').length, 8 * MiB);
  assert.is(o.output_bytes, 16 * MiB);
  assert.is(o.stdout_bytes + o.stderr_bytes, o.output_bytes);
});

test('the same writer under --max-log: the capped log keeps its start and end, the count adds up', () => {
  const MiB = 1 << 20;
  const r = sbxRun(workDir(), ['sh', '-c', `head -c ${4 * MiB} /dev/zero | tr "\\0" o & head -c ${4 * MiB} /dev/zero | tr "\\0" e >&2; wait; echo; echo the-end >&2`], { flags: ['--max-log', '1M'] });
  assert.is(r.code, 0, r.why());
  const o = r.env.outcome;
  const log = readFileSync(r.env.log, 'latin1');
  assert.is(log.length, MiB);
  const m = /\n\[sbx: (\d+) bytes of output dropped here: the log keeps its start and its end \(--max-log 1048576\)\]\n/.exec(log);
  assert.ok(m, 'the marker line');
  assert.ok(log.endsWith('\nthe-end\n'));
  assert.is(o.output_bytes, 8 * MiB + 9);
  assert.is(o.output_bytes - o.log_dropped_bytes + m[0].length, MiB);
});

test.run();
