// A cold `sbx run` needs no local time: it writes its history stamp in UTC (src/host/state/utc-stamp.ts)
// and never sets up the host's time zone, whose first use in a process (Date#toISOString did it) opens
// /etc/localtime and resolves its link (docs/architecture.md "A cold verdict"). The history's stamp is
// still toISOString's text.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, workDir } from './_helpers.js';

test('a cold sbx run opens no time zone file', () => {
  if (spawnSync('sh', ['-c', 'command -v strace']).status !== 0) return;
  const d = workDir({ 'a.txt': 'x' });
  const trace = join(workDir(), 'trace');
  // The CLI's own process only (no -f): the sandbox's command may read what it likes.
  const r = spawnSync('strace', ['-e', 'trace=open,openat,readlink', '-o', trace, process.execPath, CLI, 'run', '--work', d, '--', 'true'], { encoding: 'utf8' });
  assert.is(r.status, 0, r.stderr);
  const zone = readFileSync(trace, 'utf8')
    .split('\n')
    .filter((l) => /localtime|zoneinfo/.test(l));
  assert.equal(zone, [], 'the time zone was looked up');
});

test('the history stamp is an ISO 8601 UTC time of the run', () => {
  const d = workDir();
  const before = Date.now();
  const r = spawnSync(process.execPath, [CLI, 'run', '--work', d, '--', 'true'], { encoding: 'utf8' });
  assert.is(r.status, 0, r.stderr);
  const line = JSON.parse(readFileSync(join(d, '.sbx', 'history.jsonl'), 'utf8').trim().split('\n').at(-1));
  assert.match(line.time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  const t = Date.parse(line.time);
  assert.ok(t >= before - 1 && t <= Date.now(), `${line.time} is not the time of the run`);
  assert.is(new Date(t).toISOString(), line.time);
});

test.run();
