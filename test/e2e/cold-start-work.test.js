// What a cold `sbx run` need not do, each a first call that costs a fresh process 0.1-0.45 ms
// (docs/architecture.md "A cold verdict"). It needs no local time: it writes its history stamp in UTC
// (src/host/state/utc-stamp.ts) and never sets up the host's time zone, whose first use in a process
// (Date#toISOString did it) opens /etc/localtime and resolves its link; the history's stamp is still
// toISOString's text. It makes no file URL of its own path and reads none back: the CommonJS bundle knows
// its __filename (src/launcher/package-root.ts, scripts/build-host.js). It makes no TextDecoder: the
// engine's output is read through Buffer under Node (src/engine/engine.ts).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
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
  const line = JSON.parse(
    readFileSync(join(d, '.sbx', 'history.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .at(-1),
  );
  assert.match(line.time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  const t = Date.parse(line.time);
  assert.ok(t >= before - 1 && t <= Date.now(), `${line.time} is not the time of the run`);
  assert.is(new Date(t).toISOString(), line.time);
});

test('a cold sbx run makes no file URL (node:url pathToFileURL, fileURLToPath) nor TextDecoder', () => {
  const d = workDir();
  const dir = workDir();
  const counts = join(dir, 'counts.json');
  const preload = join(dir, 'count-url.cjs');
  writeFileSync(
    preload,
    `const url = require('node:url'); const n = {};
for (const k of ['pathToFileURL', 'fileURLToPath']) { const f = url[k]; url[k] = function (...a) { n[k] = (n[k] || 0) + 1; return f.apply(this, a); }; }
const TD = globalThis.TextDecoder; globalThis.TextDecoder = class extends TD { constructor(...a) { super(...a); n.TextDecoder = (n.TextDecoder || 0) + 1; } };
process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(counts)}, JSON.stringify(n)));`,
  );
  const r = spawnSync(process.execPath, ['-r', preload, CLI.replace(/\.js$/, '.cjs'), 'run', '--work', d, '--', 'true'], { encoding: 'utf8' });
  assert.is(r.status, 0, r.stderr);
  assert.equal(JSON.parse(readFileSync(counts, 'utf8')), {});
});

test("a cold sbx run loads no node:util parseArgs (src/cli/flags.ts reads the flags without citty's parser)", () => {
  const d = workDir();
  const dir = workDir();
  const list = join(dir, 'modules.json');
  const preload = join(dir, 'list-modules.cjs');
  writeFileSync(preload, `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(list)}, JSON.stringify(process.moduleLoadList)));`);
  const r = spawnSync(process.execPath, ['-r', preload, CLI.replace(/\.js$/, '.cjs'), 'run', '--work', d, '--json', '--timeout', '60', '--', 'true'], { encoding: 'utf8' });
  assert.is(r.status, 0, r.stderr);
  assert.equal(
    JSON.parse(readFileSync(list, 'utf8')).filter((m) => m.includes('parse_args')),
    [],
  );
});

test("the spec and the report are handed to the launcher in memory (/dev/shm), not on the state's disk", () => {
  if (spawnSync('sh', ['-c', 'command -v strace']).status !== 0) return;
  // Where /dev/shm is a tmpfs with room (else the state's logs/ is next, as before).
  if (!/^tmpfs$/m.test(spawnSync('stat', ['-f', '-c', '%T', '/dev/shm'], { encoding: 'utf8' }).stdout ?? '')) return;
  const d = workDir();
  const trace = join(workDir(), 'trace');
  const r = spawnSync('strace', ['-e', 'trace=openat', '-o', trace, process.execPath, CLI.replace(/\.js$/, '.cjs'), 'run', '--work', d, '--', 'true'], { encoding: 'utf8' });
  assert.is(r.status, 0, r.stderr);
  // On a disk their last close waits on the journal (ext4's orphan list, the report's reserved blocks).
  const nameless = readFileSync(trace, 'utf8')
    .split('\n')
    .filter((l) => /O_TMPFILE/.test(l))
    .map((l) => /^openat\(AT_FDCWD, "([^"]*)"/.exec(l)?.[1]);
  assert.equal(nameless, ['/dev/shm', '/dev/shm']);
});

test('a cold sbx run executes no regular expression before the launcher is spawned', () => {
  // Each regex a process runs is compiled at its first use and again when it tiers up (~40-70 us each):
  // the flags' camelCase, the command line's quoting, the toolchain plan's secret names, the id map and
  // cgroup files' white space are scanned by char code instead (src/launcher/words.ts).
  const d = workDir({ 'a.txt': 'x' });
  const dir = workDir();
  const out = join(dir, 'regex.json');
  const preload = join(dir, 'count-regex.cjs');
  writeFileSync(
    preload,
    `let spawned = false; const seen = [];
const exec = RegExp.prototype.exec;
RegExp.prototype.exec = function (s) { if (!spawned) seen.push(this.source); return exec.call(this, s); };
process.noDeprecation = true;
const P = process.binding('process_wrap').Process; const spawn = P.prototype.spawn;
P.prototype.spawn = function (...a) { spawned = true; return spawn.apply(this, a); };
process.noDeprecation = false;
process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify({ spawned, seen })));`,
  );
  // Twice: the first run makes the state; the second is a repeat, as most runs are.
  for (let i = 0; i < 2; i++) {
    const r = spawnSync(process.execPath, ['-r', preload, CLI.replace(/\.js$/, '.cjs'), 'run', '--work', d, '--no-json', '--', 'true'], { encoding: 'utf8' });
    assert.is(r.status, 0, r.stderr);
    const got = JSON.parse(readFileSync(out, 'utf8'));
    assert.ok(got.spawned, 'the launcher was not spawned through process_wrap');
    assert.equal(got.seen, [], 'regular expressions ran before the spawn');
  }
});

test.run();
