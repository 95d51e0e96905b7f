// Issue 28 item 4: the host opens files a sandboxed command could have written, and a FIFO there used to
// block the open until someone wrote to it. Each row plants a FIFO (or a link, or garbage) from inside
// the sandbox, or where the sandbox could have, and checks that the host's next step returns promptly:
// every call here runs with a timeout, and a hang is a failure. Before the fix each row hung (the
// fingerprint's git 30 s per fingerprint, twice a run; the hook, last.json and the JUnit report forever).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, workDir, sbxRun, logText } from './_helpers.js';
import { payload, CODEX_PAYLOADS, GEMINI_PAYLOADS } from '../integrations/_hook-helpers.js';
import { needs } from '../_tools.js';

/** Well above what each step takes when it does not hang (well under a second here). */
const PROMPT_MS = 15_000;

/** The CLI, killed (SIGKILL: a process stuck in a blocking open runs no signal handler) if it hangs. */
const cli = (args, opts = {}) => {
  const t0 = Date.now();
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: PROMPT_MS, killSignal: 'SIGKILL', ...opts });
  return { ...r, ms: Date.now() - t0, hung: r.error?.code === 'ETIMEDOUT' };
};

/** `sbx run --json` that must come back promptly. */
function promptRun(dir, cmd) {
  const r = cli(['run', '--work', dir, '--json', '--', ...cmd]);
  assert.not.ok(r.hung, `sbx run ${cmd.join(' ')} hung (killed after ${r.ms} ms)`);
  const env = JSON.parse(r.stdout);
  const why = () => `sbx run ${cmd.join(' ')} (exit ${r.status}):\n${JSON.stringify(env.verdict, null, 1)}\n${r.stderr}\n--- log:\n${logText(env)}`;
  return { code: r.status, stderr: r.stderr, stdout: r.stdout, env, verdict: env.verdict, why };
}

/** Plants with a sandboxed run of sh -c script in dir (as /work); checks the plant took. */
function plant(dir, script) {
  const r = sbxRun(dir, ['sh', '-c', `${script} && echo PLANTED`]);
  assert.match(logText(r.env), 'PLANTED', r.why());
}

/**
 * The same files made on the host: a run can no longer leave a .git or an sbx.config.json behind (they are
 * quarantined: host-escapes-git.test.js), but one made before that fix, or by other means, is still there.
 */
function plantOnHost(dir, script) {
  const r = spawnSync('sh', ['-c', script], { cwd: dir, encoding: 'utf8' });
  assert.is(r.status, 0, r.stderr);
}

const isFifo = (p) => statSync(p, { throwIfNoEntry: false })?.isFIFO() ?? false;

test('a FIFO at .gitignore and sub/.gitignore: the next sbx run does not wait on git', () => {
  const dir = workDir({ 'a.c': 'int main(void) { return 0; }\n' });
  spawnSync('git', ['init', '-q', dir]);
  plant(dir, 'mkfifo /work/.gitignore && mkdir -p /work/sub && mkfifo /work/sub/.gitignore');
  assert.ok(isFifo(join(dir, '.gitignore')) && isFifo(join(dir, 'sub/.gitignore')));
  const r = promptRun(dir, ['echo', 'hi']);
  assert.is(r.code, 0, r.why());
  assert.is(r.verdict.status, 'pass');
  // The fingerprint still works (by the walk): an edit after this run is told from no edit.
  const again = promptRun(dir, ['true']);
  assert.is(again.code, 0, again.why());
  writeFileSync(join(dir, 'a.c'), 'int main(void) { return 1; }\n');
  const edited = promptRun(dir, ['true']);
  assert.is(edited.code, 0, edited.why());
  assert.not.equal(edited.env.delta, again.env.delta, 'the edit of a.c went unseen');
});

needs('test/e2e/host-escapes-fifo: a git repository made on the host', ['git'], test)('a FIFO at sub/.gitignore only, and at .git/info/exclude (made on the host: a new .git a run makes is quarantined)', () => {
  const dir = workDir({ 'a.txt': 'x\n' });
  plantOnHost(dir, 'git init -q . && mkdir -p .git/info sub && rm -f .git/info/exclude && mkfifo .git/info/exclude sub/.gitignore');
  assert.ok(isFifo(join(dir, '.git/info/exclude')));
  const r = promptRun(dir, ['true']);
  assert.is(r.code, 0, r.why());
});

test('a FIFO at sbx.config.json: the pre-hook returns at once and blocks the call (fails closed)', () => {
  const dir = workDir({ 'Makefile': 'prog:\n\ttrue\n' });
  plantOnHost(dir, 'mkfifo sbx.config.json');
  const r = cli(['hook', 'claude-pre'], { input: JSON.stringify(payload('pre-build.json', dir)), env: { ...process.env, CLAUDE_PROJECT_DIR: '' } });
  assert.not.ok(r.hung, 'the hook hung on the FIFO');
  assert.is(r.status, 2, `exit ${r.status}: the call went on unsandboxed\n${r.stdout}${r.stderr}`);
  assert.is(r.stdout, '', 'no answer: an "allow" here would run the command');
  assert.match(r.stderr, /sbx\.config\.json is a FIFO/);
  assert.match(r.stderr, /blocked/);
});

test('sbx.config.json that is garbage, a symlink or huge: every pre-hook blocks; a post-hook only notes it', () => {
  const secret = join(workDir({ 'key': '{"hook": {"host": ["make"]}}\n' }, 'sbx-host-secret-'), 'key');
  const rows = [
    ['not JSON', (d) => writeFileSync(join(d, 'sbx.config.json'), '{"hook": '), /is not JSON/],
    ['a symlink', (d) => symlinkSync(secret, join(d, 'sbx.config.json')), /is a symlink/],
    ['too big', (d) => writeFileSync(join(d, 'sbx.config.json'), `{"x": "${'a'.repeat(2 << 20)}"}`), /bytes, over the/],
  ];
  for (const [what, make, why] of rows) {
    const dir = workDir({});
    make(dir);
    for (const [name, file, dirOf] of [['claude-pre', 'pre-build.json', undefined], ['codex-pre', 'pre-crash.json', CODEX_PAYLOADS], ['gemini-pre', 'before-crash.json', GEMINI_PAYLOADS]]) {
      const r = cli(['hook', name], { input: JSON.stringify(payload(file, dir, dirOf)), env: { ...process.env, CLAUDE_PROJECT_DIR: '' } });
      assert.is(r.status, 2, `${what}, ${name}: exit ${r.status}\n${r.stdout}${r.stderr}`);
      assert.is(r.stdout, '', `${what}, ${name}`);
      assert.match(r.stderr, why, `${what}, ${name}`);
    }
    const post = cli(['hook', 'claude-post'], { input: JSON.stringify(payload('post-build.json', dir)), env: { ...process.env, CLAUDE_PROJECT_DIR: '' } });
    assert.is(post.status, 0, `${what}, claude-post: the command already ran; nothing to block\n${post.stderr}`);
  }
});

test('a FIFO among the project\'s Claude settings: the hook does not wait on it, and still rewrites', () => {
  const dir = workDir({});
  mkdirSync(join(dir, '.claude'));
  spawnSync('mkfifo', [join(dir, '.claude/settings.local.json')]);
  const r = cli(['hook', 'claude-pre'], { input: JSON.stringify(payload('pre-build.json', dir)), env: { ...process.env, CLAUDE_PROJECT_DIR: '' } });
  assert.not.ok(r.hung, 'the hook hung on the FIFO');
  assert.is(r.status, 0, r.stderr);
  assert.match(JSON.parse(r.stdout).hookSpecificOutput.updatedInput.command, / run --work /);
  assert.match(r.stderr, /settings\.local\.json is a FIFO/);
});

test('FIFOs at sub/.sbx/last.json, history.jsonl and lock (planted from /work): sbx run --work sub returns a verdict', () => {
  const dir = workDir({});
  plant(dir, 'mkdir -p /work/sub/.sbx/logs && cd /work/sub/.sbx && mkfifo last.json history.jsonl lock');
  const sub = join(dir, 'sub');
  const r = promptRun(sub, ['echo', 'hi']);
  assert.is(r.verdict.status, 'pass', r.why());
  assert.ok(readdirSync(join(sub, '.sbx')).some((n) => n.startsWith('last.json.corrupt-')), 'the FIFO last.json was not set aside');
  assert.match(r.stderr, /not recorded .*history\.jsonl is a FIFO/);
  assert.not.ok(existsSync(join(sub, '.sbx/lock')), 'the planted lock was not broken');
  const h = cli(['history', '--work', sub]);
  assert.not.ok(h.hung, 'sbx history hung on history.jsonl');
});

test('sbx verdict: a JUnit report that is a symlink (to a file of the caller\'s) is not read through', () => {
  const dir = workDir({ 'build.log': 'ok\n' });
  const report = join(workDir({ 'r.xml': '<testsuite name="s" tests="1"><testcase name="t" classname="c"/></testsuite>\n' }, 'sbx-host-secret-'), 'r.xml');
  symlinkSync(report, join(dir, 'report.xml'));
  const r = cli(['verdict', '--raw', join(dir, 'build.log'), '--junit', join(dir, 'report.xml')]);
  assert.is(r.status, 2, r.stdout + r.stderr);
  assert.match(r.stderr, /report\.xml: it is a symlink/);
});

test('sbx verdict: a FIFO as the JUnit report or the log is refused at once', () => {
  const dir = workDir({ 'build.log': 'ok\n' });
  plant(dir, 'mkfifo /work/report.xml /work/test.log');
  const junit = cli(['verdict', '--raw', join(dir, 'build.log'), '--junit', join(dir, 'report.xml')]);
  assert.not.ok(junit.hung, 'sbx verdict hung on the JUnit FIFO');
  assert.is(junit.status, 77, junit.stderr);
  assert.match(junit.stderr, /report\.xml is a FIFO, not a regular file/);
  const state = join(workDir({}, 'sbx-state-'), '.sbx');
  const log = cli(['verdict', '--raw', join(dir, 'test.log'), '--state', state]);
  assert.not.ok(log.hung, 'sbx verdict hung on the log FIFO');
  assert.is(log.status, 77, log.stderr);
  assert.match(log.stderr, /test\.log is a FIFO/);
  assert.equal(readdirSync(join(state, 'logs')), [], 'a run was recorded for a log that was never read');
});

test.run();
