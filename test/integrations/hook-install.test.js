// sbx hook install / uninstall for each client: merging, idempotence, backups, refusals.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bin, cli } from './_client.js';
import { NODE_FORM, guarded, sbx } from './_hook-helpers.js';


const tmp = mkdtempSync(join(tmpdir(), 'sbx-hook-'));

// ── install / uninstall ───────────────────────────────────────────────────────────────────────────
const inst = suite('hook install');

inst('merges into existing settings, idempotent, uninstall removes only its own entries', () => {
  const dir = join(tmp, 'inst');
  mkdirSync(join(dir, '.claude'), { recursive: true });
  const mine = {
    permissions: { deny: ['Bash(rm -rf:*)'] },
    hooks: { PreToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', command: 'my-linter' }] }], Stop: [{ hooks: [{ type: 'command', command: 'notify' }] }] },
  };
  const path = join(dir, '.claude', 'settings.json');
  writeFileSync(path, JSON.stringify(mine));
  assert.is(sbx('hook', 'install', '--claude', '--dir', dir).status, 0);
  assert.is(sbx('hook', 'install', '--claude', '--project', '--dir', dir).status, 0);
  const s = JSON.parse(readFileSync(path, 'utf8'));
  assert.equal(s.permissions, mine.permissions);
  assert.equal(s.hooks.Stop, mine.hooks.Stop);
  assert.is(s.hooks.PreToolUse.length, 2, 'installed twice, present once');
  assert.equal(s.hooks.PreToolUse[0], mine.hooks.PreToolUse[0]);
  assert.equal(s.hooks.PreToolUse[1], { matcher: 'Bash', hooks: [{ type: 'command', command: s.hooks.PreToolUse[1].hooks[0].command, timeout: 60 }] });
  assert.is(guarded(s.hooks.PreToolUse[1].hooks[0].command), `${process.execPath} ${bin} hook claude-pre`);
  assert.equal(Object.keys(s.hooks), ['PreToolUse', 'Stop'], 'the pre-hook alone: one hook process per call');
  assert.ok(readdirSync(join(dir, '.claude')).includes('settings.json.sbx.bak'));
  assert.is(sbx('hook', 'uninstall', '--claude', '--dir', dir).status, 0);
  assert.equal(JSON.parse(readFileSync(path, 'utf8')), mine);
});

// Claude Code's `if` rules for the built-in sandbox table: one substring per first word, none holding
// another (`*make*` covers cmake and gmake, `*ava*` java), and `*/*` for ./prog, build/test and /usr/bin/make.
const CLAUDE_IFS = ['/', 'cc', 'go', 'c++', 'g++', 'npm', 'npx', 'php', 'tox', 'tsc', 'ava', 'bats', 'jest', 'make', 'node', 'ruby', 'yarn', 'bazel', 'clang', 'ctest', 'meson', 'mocha', 'ninja', 'prove', 'rspec', 'rake', 'rustc', 'turbo', 'pytest', 'python', 'vitest', 'py.test', 'valgrind'].map((w) => `Bash(*${w}*)`);
const preIfs = (dir) => JSON.parse(readFileSync(join(dir, '.claude', 'settings.json'), 'utf8')).hooks.PreToolUse.flatMap((g) => g.hooks).map((h) => h.if ?? null);

inst('install --claude --filter: `if` rules that follow the project\'s sandbox table; none where it cannot be covered or is not known', () => {
  const dir = join(tmp, 'ifs');
  mkdirSync(dir, { recursive: true });
  // Without --filter: one entry, run for every call.
  assert.is(sbx('hook', 'install', '--claude', '--dir', dir).status, 0);
  assert.equal(preIfs(dir), [null]);
  writeFileSync(join(dir, 'sbx.config.json'), JSON.stringify({ hook: { sandbox: ['mytool check', 'cmake2'] } }));
  let r = sbx('hook', 'install', '--claude', '--filter', '--dir', dir);
  assert.is(r.status, 0, r.stderr);
  // One entry per rule, each the same command.
  const cmds = JSON.parse(readFileSync(join(dir, '.claude', 'settings.json'), 'utf8')).hooks.PreToolUse.flatMap((g) => g.hooks).map((h) => h.command);
  assert.is(new Set(cmds).size, 1);
  assert.match(r.stdout, /runs only for a line naming a command of the sandbox table \(34 `if` rules\): after editing/);
  assert.equal(preIfs(dir), [...CLAUDE_IFS, 'Bash(*mytool*)'].sort((a, b) => a.length - b.length || (a < b ? -1 : 1)));
  // A first word that no substring rule can stand for: the hook runs for every call, as without rules.
  writeFileSync(join(dir, 'sbx.config.json'), JSON.stringify({ hook: { sandbox: ['* --selftest'] } }));
  r = sbx('hook', 'install', '--claude', '--filter', '--dir', dir);
  assert.is(r.status, 0, r.stderr);
  assert.match(r.stdout, /--filter: no `if` rules .*: the pre-hook runs for every call/);
  assert.equal(preIfs(dir), [null]);
  // "rewrite": false (the pre-hook rewrites nothing) and SBX_CONFIG (a table the hook may not see): no rules.
  writeFileSync(join(dir, 'sbx.config.json'), JSON.stringify({ hook: { rewrite: false } }));
  assert.is(sbx('hook', 'install', '--claude', '--filter', '--dir', dir).status, 0);
  assert.equal(preIfs(dir), [null]);
  rmSync(join(dir, 'sbx.config.json'));
  writeFileSync(join(tmp, 'other.json'), '{}');
  assert.is(spawnSync(process.execPath, [cli, 'hook', 'install', '--claude', '--filter', '--dir', dir], { encoding: 'utf8', env: { ...process.env, ...NODE_FORM, SBX_CONFIG: join(tmp, 'other.json') } }).status, 0);
  assert.equal(preIfs(dir), [null]);
  // The user's settings serve every project, each with its own table; the other clients have no `if`.
  for (const bad of [['--claude', '--user'], ['--codex'], ['--gemini']]) {
    r = sbx('hook', 'install', ...bad, '--filter', '--dir', dir);
    assert.is(r.status, 2, r.stderr);
    assert.match(r.stderr, /--filter goes with sbx hook install --claude in a project/);
  }
});

// Through the bin (dist/cli.cjs: what `npm link` and `npm install -g` put on PATH) the hooks name cli.cjs:
// installing twice still leaves one entry per event, and uninstall removes them.
for (const [client, file] of [['--claude', '.claude/settings.json'], ['--codex', '.codex/hooks.json'], ['--gemini', '.gemini/settings.json']]) {
  inst(`${client} through dist/cli.cjs: installed twice, present once; uninstall removes it`, () => {
    const dir = join(tmp, `bin${client}`);
    mkdirSync(dir, { recursive: true });
    const run = (...a) => spawnSync(process.execPath, [bin, 'hook', ...a, client, '--dir', dir], { encoding: 'utf8', env: { ...process.env, ...NODE_FORM } });
    assert.is(run('install').status, 0);
    assert.is(run('install').status, 0);
    const s = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    for (const [event, entries] of Object.entries(s.hooks)) {
      assert.is(entries.length, 1, `${event}: one entry after two installs`);
      assert.match(guarded(entries[0].hooks[0].command) ?? '', / \S+cli\.cjs hook (claude|codex|gemini)-(pre|post)$/);
    }
    const u = run('uninstall');
    assert.is(u.status, 0);
    assert.match(u.stdout, /removed/);
    assert.not.ok(existsSync(join(dir, file)), 'install created the file: uninstall leaves none');
  });
}

inst('a settings file that is not JSON is left alone: one-line error, exit 2', () => {
  const dir = join(tmp, 'broken');
  mkdirSync(join(dir, '.claude'), { recursive: true });
  writeFileSync(join(dir, '.claude', 'settings.json'), '{ "hooks": ');
  const r = sbx('hook', 'install', '--claude', '--dir', dir);
  assert.is(r.status, 2);
  assert.match(r.stderr, /^sbx: \S+settings\.json is not JSON \(.*\): fix it by hand first; nothing was changed\n$/);
  assert.is(readFileSync(join(dir, '.claude', 'settings.json'), 'utf8'), '{ "hooks": ');
});

inst('--codex: .codex/hooks.json with PreToolUse (and PostToolUse with --post), $CODEX_HOME for --user', () => {
  const dir = join(tmp, 'cxinst');
  mkdirSync(dir, { recursive: true });
  assert.is(sbx('hook', 'install', '--codex', '--dir', dir).status, 0);
  const h = JSON.parse(readFileSync(join(dir, '.codex', 'hooks.json'), 'utf8'));
  assert.equal(Object.keys(h), ['hooks']);
  assert.equal(Object.keys(h.hooks), ['PreToolUse']);
  assert.is(guarded(h.hooks.PreToolUse[0].hooks[0].command), `${process.execPath} ${bin} hook codex-pre`);
  const home = join(tmp, 'codexhome');
  const r = spawnSync(process.execPath, [cli, 'hook', 'install', '--codex', '--user', '--post'], { encoding: 'utf8', env: { ...process.env, CODEX_HOME: home } });
  assert.is(r.status, 0, r.stderr);
  assert.match(readFileSync(join(home, 'hooks.json'), 'utf8'), /hook codex-post/);
});

// One hook process per call by default; --post adds the post-hooks ("rewrite": false needs them), and an
// install without it takes out the post-hooks an earlier install (or an older sbx) added.
const EVENTS = {
  '--claude': ['.claude/settings.json', ['PreToolUse'], ['PostToolUse', 'PostToolUseFailure']],
  '--codex': ['.codex/hooks.json', ['PreToolUse'], ['PostToolUse']],
  '--gemini': ['.gemini/settings.json', ['BeforeTool'], ['AfterTool']],
};
for (const [flag, [file, pre, post]] of Object.entries(EVENTS)) {
  inst(`${flag}: the pre-hook alone by default, --post adds ${post.join(', ')}, installing again without it takes them out`, () => {
    const dir = join(tmp, `post${flag}`);
    mkdirSync(dir, { recursive: true });
    const path = join(dir, file);
    const r = sbx('hook', 'install', flag, '--dir', dir);
    assert.is(r.status, 0, r.stderr);
    assert.match(r.stdout, /pre-hook installed/);
    assert.match(r.stdout, /one hook process per call/);
    const one = readFileSync(path, 'utf8');
    assert.equal(Object.keys(JSON.parse(one).hooks), pre);
    assert.is(sbx('hook', 'install', flag, '--post', '--dir', dir).status, 0);
    const both = JSON.parse(readFileSync(path, 'utf8'));
    assert.equal(Object.keys(both.hooks), [...pre, ...post]);
    for (const e of post) assert.match(both.hooks[e][0].hooks[0].command, /-post$/);
    assert.is(sbx('hook', 'install', flag, '--dir', dir).status, 0);
    assert.is(readFileSync(path, 'utf8'), one, 'the one-hook file again, byte for byte');
    assert.is(sbx('hook', 'uninstall', flag, '--dir', dir).status, 0);
    assert.not.ok(existsSync(path));
  });

  inst(`${flag}: "rewrite": false without --post: install warns that nothing will distil`, () => {
    const dir = join(tmp, `norewrite${flag}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'sbx.config.json'), '{"hook": {"rewrite": false}}');
    const r = sbx('hook', 'install', flag, '--dir', dir);
    assert.is(r.status, 0, r.stderr);
    assert.match(r.stdout, /warning: "rewrite": false .* install again with --post/);
    const p = sbx('hook', 'install', flag, '--post', '--dir', dir);
    assert.match(p.stdout, /"rewrite": false: every command stays on the host; the post-hooks replace/);
  });
}

inst('--gemini: .gemini/settings.json, BeforeTool/AfterTool on run_shell_command, timeout in ms', () => {
  const dir = join(tmp, 'gminst');
  mkdirSync(join(dir, '.gemini'), { recursive: true });
  writeFileSync(join(dir, '.gemini', 'settings.json'), JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } } }));
  assert.is(sbx('hook', 'install', '--gemini', '--dir', dir).status, 0);
  const h = JSON.parse(readFileSync(join(dir, '.gemini', 'settings.json'), 'utf8'));
  assert.equal(h.security, { auth: { selectedType: 'gemini-api-key' } });
  assert.equal(h.hooks.BeforeTool, [{ matcher: 'run_shell_command', hooks: [{ type: 'command', command: h.hooks.BeforeTool[0].hooks[0].command, timeout: 60000 }] }]);
  assert.is(guarded(h.hooks.BeforeTool[0].hooks[0].command), `${process.execPath} ${bin} hook gemini-pre`);
  assert.equal(Object.keys(h.hooks), ['BeforeTool']);
});

inst('install refuses a project that contains this sbx (sbx run would refuse every hooked command)', () => {
  const r = sbx('hook', 'install', '--claude', '--dir', join(cli, '..', '..'));
  assert.is(r.status, 77);
  assert.match(r.stderr, /^sbx: this sbx \(\S+cli\.cjs\) is inside the project \S+: sbx run refuses to start from there/);
});

inst('usage errors', () => {
  assert.is(sbx('hook', 'install').status, 2);
  assert.is(sbx('hook', 'install', '--claude', '--codex').status, 2);
  assert.is(sbx('hook', 'install', '--claude', '--user', '--project').status, 2);
  assert.is(sbx('hook', 'uninstall', '--claude', '--post').status, 2);
  const r = sbx('hook', 'frobnicate');
  assert.is(r.status, 2);
  assert.match(r.stderr, /unknown hook action "frobnicate"/);
});

inst.after(() => rmSync(tmp, { recursive: true, force: true }));
inst.run();
