// sbx hook uninstall gives the user back their own file: the same bytes (indentation, key order, final
// newline), no file where there was none, and <file>.sbx.bak holds the user's file, never the hooked one.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sbx } from './_hook-helpers.js';

const tmp = mkdtempSync(join(tmpdir(), 'sbx-hook-bytes-'));
const t = suite('hook uninstall: byte for byte');

// A hand-written file: 4-space indent, `hooks` first, a user's own hook, no final newline.
const MINE = '{\n    "hooks": {\n        "PreToolUse": [ { "hooks": [ { "command": "my-linter", "type": "command" } ], "matcher": "Write" } ]\n    },\n    "permissions": {"deny": ["Bash(rm -rf:*)"]},\n    "env": {"A": "1"}\n}';

for (const [flag, file] of [['--claude', '.claude/settings.json'], ['--codex', '.codex/hooks.json'], ['--gemini', '.gemini/settings.json']]) {
  t(`${flag}: install twice then uninstall leaves the user's bytes; the backup is theirs, then gone`, () => {
    const dir = join(tmp, `own${flag}`);
    const path = join(dir, file);
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, MINE);
    assert.is(sbx('hook', 'install', flag, '--dir', dir).status, 0);
    assert.is(readFileSync(`${path}.sbx.bak`, 'utf8'), MINE);
    const hooked = readFileSync(path, 'utf8');
    assert.ok(hooked.startsWith('{\n    "hooks": {\n        "PreToolUse": ['), `install keeps the file's indentation and key order:\n${hooked}`);
    assert.ok(!hooked.endsWith('\n'), 'and its (missing) final newline');
    assert.is(sbx('hook', 'install', flag, '--dir', dir).status, 0);
    assert.is(readFileSync(`${path}.sbx.bak`, 'utf8'), MINE, 'a second install does not back up the hooked file');
    const u = sbx('hook', 'uninstall', flag, '--dir', dir);
    assert.is(u.status, 0, u.stderr);
    assert.match(u.stdout, /byte for byte/);
    assert.is(readFileSync(path, 'utf8'), MINE);
    assert.not.ok(existsSync(`${path}.sbx.bak`), 'the backup, now the same as the file, is dropped');
  });

  t(`${flag}: an old two-hook install (pre and post, as sbx wrote before --post) is uninstalled to the user's bytes, also after an install over it`, () => {
    for (const reinstall of [false, true]) {
      const dir = join(tmp, `old${flag}${reinstall}`);
      const path = join(dir, file);
      mkdirSync(join(path, '..'), { recursive: true });
      writeFileSync(path, MINE);
      // What an older sbx wrote: the user's file in its style, with a pre- and a post-hook entry per event
      // (unguarded commands, as installs before the fail-closed guard wrote them).
      const events = { '--claude': ['PreToolUse', 'PostToolUse', 'PostToolUseFailure'], '--codex': ['PreToolUse', 'PostToolUse'], '--gemini': ['BeforeTool', 'AfterTool'] }[flag];
      const client = flag.slice(2);
      const old = JSON.parse(MINE);
      for (const e of events) {
        const name = e === 'PreToolUse' || e === 'BeforeTool' ? 'pre' : 'post';
        (old.hooks[e] ??= []).push({ matcher: client === 'gemini' ? 'run_shell_command' : 'Bash', hooks: [{ type: 'command', command: `'/usr/bin/node' '/opt/sbx/dist/cli.js' hook ${client}-${name}`, timeout: 60 }] });
      }
      writeFileSync(`${path}.sbx.bak`, MINE);
      writeFileSync(path, JSON.stringify(old, null, 4));
      if (reinstall) {
        assert.is(sbx('hook', 'install', flag, '--dir', dir).status, 0);
        assert.not.match(readFileSync(path, 'utf8'), /-post/, 'an install without --post takes the old post-hooks out');
      }
      const u = sbx('hook', 'uninstall', flag, '--dir', dir);
      assert.is(u.status, 0, u.stderr);
      assert.match(u.stdout, /byte for byte/);
      assert.is(readFileSync(path, 'utf8'), MINE);
      assert.not.ok(existsSync(`${path}.sbx.bak`));
    }
  });

  t(`${flag}: no file before install, none after uninstall`, () => {
    const dir = join(tmp, `none${flag}`);
    mkdirSync(dir, { recursive: true });
    assert.is(sbx('hook', 'install', flag, '--dir', dir).status, 0);
    assert.ok(existsSync(join(dir, file)));
    assert.not.ok(existsSync(join(dir, `${file}.sbx.bak`)));
    const u = sbx('hook', 'uninstall', flag, '--dir', dir);
    assert.is(u.status, 0, u.stderr);
    assert.match(u.stdout, /deleted \(install created it\)/);
    assert.not.ok(existsSync(join(dir, file)), 'no {} file where there was none');
  });
}

t('a file edited since install: only sbx entries cut out, in its style; the backup still holds the pre-install file', () => {
  const dir = join(tmp, 'edited');
  const path = join(dir, '.claude', 'settings.json');
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, MINE);
  assert.is(sbx('hook', 'install', '--claude', '--dir', dir).status, 0);
  const s = JSON.parse(readFileSync(path, 'utf8'));
  s.model = 'opus';
  writeFileSync(path, `${JSON.stringify(s, null, 4)}`);
  const u = sbx('hook', 'uninstall', '--claude', '--dir', dir);
  assert.is(u.status, 0, u.stderr);
  assert.match(u.stdout, /edited since install/);
  const want = { ...JSON.parse(MINE), model: 'opus' };
  assert.is(readFileSync(path, 'utf8'), JSON.stringify(want, null, 4));
  assert.is(readFileSync(`${path}.sbx.bak`, 'utf8'), MINE, 'the backup is the user file, not the hooked one');
});

t('uninstall with no sbx hooks touches nothing (no backup written, bytes kept)', () => {
  const dir = join(tmp, 'nohooks');
  const path = join(dir, '.claude', 'settings.json');
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, MINE);
  const u = sbx('hook', 'uninstall', '--claude', '--dir', dir);
  assert.is(u.status, 0);
  assert.match(u.stdout, /no sbx hooks/);
  assert.is(readFileSync(path, 'utf8'), MINE);
  assert.not.ok(existsSync(`${path}.sbx.bak`));
});

t.after(() => rmSync(tmp, { recursive: true, force: true }));
t.run();
