// One table of error codes (src/contract/error-codes.ts): every code the sources raise is in it, so
// each has its exit code; and the exit codes keep their meaning (sysexits(3), 125-127 for runs).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ERROR_CODES, exitFor, setupExit } from '../../dist/launcher.js';

const ROOT = new URL('../../', import.meta.url).pathname;

function sources(dir) {
  const out = [];
  for (const n of readdirSync(dir)) {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) out.push(...sources(p));
    else if (n.endsWith('.ts')) out.push(p);
  }
  return out;
}

test('every error code raised in src/ is in the table', () => {
  const missing = new Set();
  for (const f of sources(join(ROOT, 'src'))) {
    for (const m of readFileSync(f, 'utf8').matchAll(/['"`](E_[A-Z0-9_]+)['"`]/g)) if (!(m[1] in ERROR_CODES)) missing.add(`${m[1]} (${f.slice(ROOT.length)})`);
  }
  assert.equal([...missing], []);
});

const rows = [
  ['E_USAGE', 2], ['E_ENOENT', 2], ['E_JUNIT_INVALID', 2], ['E_STATE', 73], ['E_STATE_SYMLINK', 77], ['E_SYMLINK_PATH', 77],
  ['E_WORK_HAS_SBX', 77], ['E_LOCKED', 75], ['E_NO_LAUNCHER', 69], ['E_INTERNAL', 70],
];
for (const [code, exit] of rows) test(`${code} exits ${exit}`, () => assert.is(exitFor(code), exit));

test('a run that never started: 127 not found, 126 not executable, 125 otherwise', () => {
  assert.is(setupExit('E_CMD_NOT_FOUND'), 127);
  assert.is(setupExit('E_CMD_NOT_EXECUTABLE'), 126);
  for (const c of ['E_NO_USERNS', 'E_BIND_MISSING', 'E_SYMLINK_PATH', 'E_SETUP', 'E_SOMETHING_NEW']) assert.is(setupExit(c), 125, c);
});

test.run();
