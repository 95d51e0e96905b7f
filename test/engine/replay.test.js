// Offline replay of recorded sessions: identical bytes twice, one envelope per step, deltas chained.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { readdirSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../../fixtures/lib/cases.js';

const CLI = join(ROOT, 'dist/cli.js');
const SESSIONS = join(ROOT, 'fixtures/sessions');
const sessions = existsSync(SESSIONS) ? readdirSync(SESSIONS).filter((n) => existsSync(join(SESSIONS, n, 'session.jsonl'))).sort() : [];
const sbx = (args) => spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });

test('there is a recorded session of at least 10 steps', () => {
  assert.ok(sessions.length >= 1);
});

for (const s of sessions) {
  test(`replay ${s}: identical bytes twice, text and JSON`, () => {
    const file = join('fixtures/sessions', s, 'session.jsonl');
    const a = sbx(['replay', file]); const b = sbx(['replay', file]);
    assert.is(a.status, 0, a.stderr);
    assert.is(a.stdout, b.stdout);
    const ja = sbx(['replay', file, '--json']); const jb = sbx(['replay', file, '--json']);
    assert.is(ja.stdout, jb.stdout);
    const envs = ja.stdout.trim().split('\n').map((l) => JSON.parse(l));
    assert.ok(envs.length >= 10, `${envs.length} steps`);
    assert.is(envs[0].delta.first_run, true);
    for (let i = 1; i < envs.length; i++) {
      assert.is(envs[i].delta.first_run, false);
      assert.is(envs[i].delta.status.before, envs[i - 1].verdict.status);
    }
    // The directory form replays the same logs in name order.
    const dir = sbx(['replay', join('fixtures/sessions', s)]);
    assert.is(dir.status, 0, dir.stderr);
  });
}

test('replay: an interrupted step is shown, and the next step is compared with the one before it (as sbx run records it)', () => {
  // Real logs of one program (fixtures/pairs/go-crash-message-changed): its crash, a run stopped by Ctrl-C
  // (the same program's log, stopped by the caller), then the crash after the edit.
  const pair = join(ROOT, 'fixtures/pairs/go-crash-message-changed');
  const dir = mkdtempSync(join(tmpdir(), 'sbx-replay-'));
  try {
    const file = join(dir, 'session.jsonl');
    writeFileSync(file, [
      { log: join(pair, 'before/log.txt'), exit: 2 },
      { log: join(pair, 'before/log.txt'), exit: null, signal: 'SIGINT', interrupted: true },
      { log: join(pair, 'after/log.txt'), exit: 2 },
    ].map((x) => JSON.stringify(x)).join('\n'));
    const r = sbx(['replay', file, '--json']);
    assert.is(r.status, 0, r.stderr);
    const [a, b, c] = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    assert.is(a.verdict.status, 'crash');
    assert.is(b.verdict.status, 'interrupted');
    assert.is(b.delta.status.before, 'crash');
    assert.is(c.delta.status.before, 'crash', c.delta.summary);
    assert.is(c.delta.crash, 'changed', c.delta.summary);
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test.run();
