// Issue 31 §3: with the sbx that the hooks name gone (moved, removed, mid-rebuild), every client fails
// closed the same way. The installed command line, run as the clients run it (`sh -c LINE`, a captured
// payload on stdin), exits 2 from a pre-hook (Claude Code, Codex and Gemini CLI all block the call on 2 and
// show stderr) with one line naming what is missing and what to do; a post-hook says so and exits 0 (the call
// already ran). With sbx there it answers exactly what the bare `… hook X` answers. Before the guard the
// line was the bare command: a missing binary gave the shell's 127 (node without cli.cjs: 1), which all
// three take as a non-blocking error (Gemini CLI --yolo then ran the call on the host without a word).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root } from './_client.js';
import { CODEX_PAYLOADS, GEMINI_PAYLOADS, PAYLOADS, guarded, payload } from './_hook-helpers.js';

const test = suite('hook: sbx missing fails closed');
const base = mkdtempSync(join(tmpdir(), 'sbx-hook-missing-'));
const home = join(base, 'home');
mkdirSync(home);

// A copy of this sbx, so that it can be taken away without touching the checkout the other tests use.
const sbxDir = join(base, 'sbx');
for (const d of ['dist', 'build']) cpSync(join(root, d), join(sbxDir, d), { recursive: true });
cpSync(join(root, 'package.json'), join(sbxDir, 'package.json'));
const copyCli = join(sbxDir, 'dist', 'cli.cjs');
const hasClient = existsSync(join(sbxDir, 'build', 'sbx-client'));

const CLIENTS = [
  { name: 'claude', file: '.claude/settings.json', pre: ['PreToolUse', 'pre-build.json', PAYLOADS], post: ['PostToolUse', 'post-build.json', PAYLOADS] },
  { name: 'codex', file: '.codex/hooks.json', pre: ['PreToolUse', 'pre-crash.json', CODEX_PAYLOADS], post: ['PostToolUse', 'post-crash.json', CODEX_PAYLOADS] },
  { name: 'gemini', file: '.gemini/settings.json', pre: ['BeforeTool', 'before-crash.json', GEMINI_PAYLOADS], post: ['AfterTool', 'after-crash.json', GEMINI_PAYLOADS] },
];
// The node form (SBX_RESIDENT=0 at install) and, when built, the native client's form. The hooks run with
// SBX_RESIDENT=0 either way: build/sbx-client then execs node at once, and no resident sbx of the copy starts.
const FORMS = [{ form: 'node', env: { SBX_RESIDENT: '0' }, gone: 'dist/cli.cjs' }, ...(hasClient ? [{ form: 'client', env: {}, gone: 'build/sbx-client' }] : [])];

const env = { ...process.env, HOME: home, CLAUDE_PROJECT_DIR: '', SBX_RESIDENT: '0' };
const sh = (line, input, cwd) => spawnSync('sh', ['-c', line], { input, encoding: 'utf8', cwd, env });

for (const { form, env: installEnv, gone } of FORMS) {
  for (const c of CLIENTS) {
    test(`${c.name} (${form}): as before with sbx there; exit 2 and the fix from the pre-hook without it, exit 0 from the post-hook`, () => {
      const proj = join(base, `${c.name}-${form}`);
      cpSync(join(root, 'test', 'integrations', 'projects', 'asan'), join(proj, 'asan'), { recursive: true });
      const r = spawnSync(process.execPath, [copyCli, 'hook', 'install', `--${c.name}`, '--post', '--dir', proj], { encoding: 'utf8', env: { ...process.env, HOME: home, ...installEnv } });
      assert.is(r.status, 0, r.stderr);
      const settings = JSON.parse(readFileSync(join(proj, c.file), 'utf8'));
      for (const [kind, [event, file, dir]] of [['pre', c.pre], ['post', c.post]]) {
        const line = settings.hooks[event].at(-1).hooks[0].command;
        const bare = guarded(line);
        assert.ok(bare, line);
        const input = JSON.stringify(payload(file, proj, dir));
        // Present: exactly what the bare command answers.
        const want = sh(bare, input, proj);
        const got = sh(line, input, proj);
        assert.equal([got.status, got.stdout, got.stderr], [want.status, want.stdout, want.stderr], `${event} with sbx present`);
        if (kind === 'pre') assert.match(got.stdout, / run --work /, 'the pre-hook rewrote the build command');
        // Gone: the bare command is the shell's 127 (a non-blocking error to every client); the guarded line blocks.
        renameSync(join(sbxDir, gone), join(sbxDir, `${gone}.away`));
        try {
          // Without the guard: the shell's 127 (client form) or node's 1 (no cli.cjs), both non-blocking to every client.
          const was = sh(bare, input, proj).status;
          assert.ok(was !== 0 && was !== 2, `without the guard: exit ${was}`);
          const miss = sh(line, input, proj);
          assert.is(miss.status, kind === 'pre' ? 2 : 0, `${event}: ${miss.stderr}`);
          assert.is(miss.stdout, '');
          const lines = miss.stderr.split('\n').filter(Boolean);
          assert.is(lines.length, 1, miss.stderr);
          assert.match(lines[0], /^sbx hook: \S+ .*is missing or not executable/);
          assert.ok(lines[0].includes(form === 'client' ? join(sbxDir, 'build', 'sbx-client') : copyCli), lines[0]);
          assert.match(lines[0], kind === 'pre' ? /this call is blocked/ : /the call went on without sbx/);
          assert.ok(lines[0].includes(`sbx hook install --${c.name}`) && lines[0].includes(`sbx hook uninstall --${c.name}`), lines[0]);
        } finally {
          renameSync(join(sbxDir, `${gone}.away`), join(sbxDir, gone));
        }
      }
    });
  }
}

test('a binary there but not executable is missing too', () => {
  const proj = join(base, 'noexec');
  mkdirSync(proj);
  const r = spawnSync(process.execPath, [copyCli, 'hook', 'install', '--gemini', '--dir', proj], { encoding: 'utf8', env: { ...process.env, HOME: home } });
  assert.is(r.status, 0, r.stderr);
  const line = JSON.parse(readFileSync(join(proj, '.gemini', 'settings.json'), 'utf8')).hooks.BeforeTool[0].hooks[0].command;
  if (!hasClient) return;
  const exe = join(sbxDir, 'build', 'sbx-client');
  spawnSync('chmod', ['a-x', exe]);
  try {
    const miss = sh(line, JSON.stringify(payload('before-crash.json', proj, GEMINI_PAYLOADS)), proj);
    // `[ -x ]` wants an x bit for root as well.
    assert.is(miss.status, 2, miss.stderr);
    assert.match(miss.stderr, /not executable/);
  } finally { spawnSync('chmod', ['a+x', exe]); }
});

test.after(() => rmSync(base, { recursive: true, force: true }));
test.run();
