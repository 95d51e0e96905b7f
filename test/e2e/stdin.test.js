// What the command reads on stdin. A `< file` redirect reaches it, read from the file's start (`sbx run -- patch
// -p1 < fix.patch` applies the patch: before, the command read /dev/null and passed with nothing applied). A pipe or
// a terminal does not (a caller may hold a pipe open for ever; a terminal's input a sandboxed process could push
// to the host's shell): the command reads /dev/null and does not wait. The native client hands a `< file` call to
// Node, which has the descriptor; the resident sbx has none of its client's.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, ROOT, workDir, logText } from './_helpers.js';

const PATCH = ['--- a/a.py', '+++ b/a.py', '@@ -1,2 +1,2 @@', ' def f():', '-    return 1', '+    return 11', ''].join('\n');

/** `sbx run --json --work dir -- cmd` with stdin as given (an fd, 'pipe' with input, or 'ignore'). */
function runWith(dir, cmd, stdin, { input, bin = [process.execPath, CLI], env } = {}) {
  const [file, ...pre] = bin;
  const r = spawnSync(file, [...pre, 'run', '--work', dir, '--json', '--', ...cmd], {
    stdio: [stdin, 'pipe', 'pipe'], input, encoding: 'utf8', timeout: 60_000, env: env ?? process.env,
  });
  let out;
  try { out = JSON.parse(r.stdout); } catch { throw new Error(`not JSON (exit ${r.status}): ${r.stdout}\n${r.stderr}`); }
  return out;
}

test('a regular file on stdin reaches the command: patch -p1 < fix.patch applies it', () => {
  const dir = workDir({ 'a.py': 'def f():\n    return 1\n', 'fix.patch': PATCH });
  const fd = openSync(join(dir, 'fix.patch'), 'r');
  try {
    const env = runWith(dir, ['patch', '-p1'], fd);
    assert.is(env.verdict.status, 'pass', logText(env));
    assert.match(logText(env), /patching file a\.py/);
  } finally {
    closeSync(fd);
  }
  assert.is(readFileSync(join(dir, 'a.py'), 'utf8'), 'def f():\n    return 11\n');
});

test('a pipe on stdin does not: the command reads /dev/null and ends', () => {
  const dir = workDir({});
  const env = runWith(dir, ['sh', '-c', 'cat; echo "read: $(wc -c < /dev/stdin 2>/dev/null || echo none)"'], 'pipe', { input: 'piped bytes\n' });
  assert.is(env.verdict.status, 'pass', logText(env));
  assert.not.match(logText(env), /piped bytes/);
});

test('the native client runs a `< file` call through Node: the file reaches the command', () => {
  const client = join(ROOT, 'build', 'sbx-client');
  assert.ok(existsSync(client), 'build/sbx-client is built (npm run build:native)');
  const dir = workDir({ 'in.txt': 'from a file\n' });
  const fd = openSync(join(dir, 'in.txt'), 'r');
  try {
    // SBX_RESIDENT=require: a call the resident sbx took would need it running; this one never asks it.
    const env = runWith(dir, ['cat'], fd, { bin: [client], env: { ...process.env, SBX_RESIDENT: 'require' } });
    assert.match(logText(env), /^from a file$/m);
  } finally {
    closeSync(fd);
  }
});

test.run();
