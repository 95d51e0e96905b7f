// The launcher's report as sbx reads it back (src/launcher/status.ts): a real report, from the launcher
// run here, is taken; the same report with any field missing, mistyped or null where it may not be is
// refused with the protocol named, never half-read.
import { spawnSync } from 'node:child_process';
import { closeSync, constants, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildSpec, launcherPath, parseStatus, LAUNCHER_PROTO } from '../../dist/launcher.js';
import { tempDir } from './_helpers.js';

/** The report of one real run of sbx-launch (/bin/true, the default profile without seccomp). */
function realReport(cmd) {
  const work = tempDir('sbx-status-');
  const specFile = join(work, '..', `${work.split('/').pop()}.spec`);
  writeFileSync(specFile, `${buildSpec({ cmd, work, logPath: join(work, 'log'), seccomp: false }, work).argv.join('\0')}\0`);
  const log = openSync(join(work, 'log'), 'w');
  const status = openSync(work, 0o20000000 | constants.O_DIRECTORY | constants.O_RDWR, 0o600); // O_TMPFILE
  const spec = openSync(specFile, 'r');
  try {
    spawnSync(launcherPath(), ['--spec-fd', '5'], { stdio: ['ignore', log, log, status, 'ignore', spec], env: {} });
    return readFileSync(`/proc/self/fd/${status}`, 'utf8');
  } finally { for (const fd of [log, status, spec]) closeSync(fd); }
}

const text = realReport(['/bin/true']);
const report = JSON.parse(text);

test('a real report is read whole', () => {
  const r = parseStatus(text);
  assert.ok(r.ok, r.why);
  assert.is(r.status.proto, LAUNCHER_PROTO);
  assert.is(r.status.exit_code, 0);
  assert.ok(r.status.steps.length > 10 && r.status.steps.every((s) => typeof s.step === 'string'));
});

test('a command that cannot start still gives a report that is read (its exec errno, exit 127)', () => {
  const r = parseStatus(realReport(['/nonexistent/cmd']));
  assert.ok(r.ok, r.why);
  assert.is(r.status.exit_code, 127);
  assert.is(r.status.exec_errno, 2);
});

const edit = (f) => { const x = structuredClone(report); f(x); return JSON.stringify(x); };
for (const [what, bad] of [
  ['an empty file', ''],
  ['text that is not JSON', 'sbx-launch: cannot parse the spec'],
  ['a JSON array', '[1]'],
  ['the JSON null', 'null'],
  ['no proto', edit((x) => delete x.proto)],
  ['a proto that is text', edit((x) => { x.proto = '5'; })],
  ['exit_code as text', edit((x) => { x.exit_code = '0'; })],
  ['timed_out as a number', edit((x) => { x.timed_out = 0; })],
  ['rusage missing', edit((x) => delete x.rusage)],
  ['rusage.max_rss_kb null', edit((x) => { x.rusage.max_rss_kb = null; })],
  ['error neither null nor an object', edit((x) => { x.error = 'boom'; })],
  ['error without its errno', edit((x) => { x.error = { step: 'mount', strerror: 'x', detail: 'y' }; })],
  ['cgroup.path a number', edit((x) => { x.cgroup.path = 3; })],
  ['steps not an array', edit((x) => { x.steps = {}; })],
  ['a step that is not an object', edit((x) => { x.steps.push('x'); })],
  ['a step without ok', edit((x) => delete x.steps[2].ok)],
  ['a step whose time is not finite', JSON.stringify(report).replace(/"us":\d+/, '"us":1e999')],
]) {
  test(`a report with ${what} is refused`, () => {
    const r = parseStatus(bad);
    assert.is(r.ok, false);
    assert.match(r.why, /^(no status report|the status report is not JSON|unexpected status report \(protocol .+, expected \d+\))$/);
  });
}

test('fields the report may add later are kept, the rest read the same', () => {
  const r = parseStatus(edit((x) => { x.new_field = { a: 1 }; }));
  assert.ok(r.ok, r.why);
  assert.equal(r.status.steps, report.steps);
});

test.run();
