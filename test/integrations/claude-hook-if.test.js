// Issue 31 §1, with the real Claude Code (pinned): `sbx hook install --claude --filter` in a project gives the
// pre-hook `if` rules (src/integrations/hook/claude-if.ts), so a call the hook would leave alone starts no
// hook process, while every line it would rewrite still reaches it. Seen from the client: the sbx the
// hook names is taken away after install, so a call that reaches the hook is blocked by its guard ("sbx
// hook: … missing") and one that does not runs as written. Before the rules every call was blocked.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startScriptedModel, toolResults } from './_scripted-model.js';
import { ensureClaude, root, runClaude, scratchProject } from './_client.js';

const client = ensureClaude();
const test = suite('claude-code hook if');

// Left alone by the pre-hook (no build, test or run command), so no hook may run for them.
const ALONE = ['ls c', 'echo left alone', 'cat notes.txt | wc -l', 'git --version || true'];
// Rewritten by the pre-hook (each names a sandbox-table command: compound, wrapped, assigned, by path,
// quoted, a local program, a line the client cannot take apart): each must reach it.
const HOOKED = ['make -v', 'cd c && gcc --version', 'ls; cmake --version', 'time make -v', 'FOO=1 make -v', 'nice -n 5 python3 -V', '/usr/bin/make -v', 'ma"ke" -v', './c/m', 'c/m', '{ pytest --version; }', 'ls | tail -1 && cargo test'];

if (client.skip) {
  console.log(`SKIPPED claude-code hook if: ${client.skip}`);
} else {
  let s;
  let results;
  let settings;
  test.before(async () => {
    s = scratchProject();
    mkdirSync(join(s.proj, 'c'), { recursive: true });
    writeFileSync(join(s.proj, 'c', 'm.c'), 'int main(void) { return 0; }\n');
    writeFileSync(join(s.proj, 'notes.txt'), 'a\nb\n');
    // A copy of this sbx, taken away after install without touching the checkout the other tests use.
    const sbxDir = join(s.base, 'sbx');
    for (const d of ['dist', 'build']) cpSync(join(root, d), join(sbxDir, d), { recursive: true });
    cpSync(join(root, 'package.json'), join(sbxDir, 'package.json'));
    const r = spawnSync(process.execPath, [join(sbxDir, 'dist', 'cli.cjs'), 'hook', 'install', '--claude', '--filter', '--dir', s.proj], { encoding: 'utf8', env: { ...process.env, HOME: s.home, SBX_RESIDENT: '0' } });
    assert.is(r.status, 0, r.stderr);
    settings = JSON.parse(readFileSync(join(s.proj, '.claude', 'settings.json'), 'utf8'));
    rmSync(join(sbxDir, 'dist', 'cli.cjs'));
    const lines = [...ALONE, ...HOOKED];
    const m = await startScriptedModel([...lines.map((command) => ({ tool: 'Bash', input: { command, description: 'step' } })), { text: 'Done.' }]);
    const got = await runClaude(client.bin, { cwd: s.proj, home: s.home, url: m.url, args: ['--allowedTools', 'Bash'] });
    results = toolResults(m.mainRequests().at(-1)?.body);
    await m.close();
    assert.is(got.status, 0, got.stderr);
    assert.is(results.length, lines.length, JSON.stringify(results));
  });
  test.after(() => { if (s) rmSync(s.base, { recursive: true, force: true }); });

  test('the pre-hook is installed with `if` rules, one command', () => {
    const entries = settings.hooks.PreToolUse.flatMap((g) => g.hooks);
    assert.ok(entries.length > 1, JSON.stringify(entries));
    assert.ok(entries.every((h) => /^Bash\(\*.+\*\)$/.test(h.if)), JSON.stringify(entries));
    assert.is(new Set(entries.map((h) => h.command)).size, 1);
  });

  test('a call the hook leaves alone starts no hook: it runs', () => {
    ALONE.forEach((line, i) => assert.not.match(results[i].content, /sbx hook:/, `${line}: ${results[i].content}`));
    assert.match(results[0].content, /m\.c/);
    assert.match(results[1].content, /left alone/);
  });

  test('every line the hook would rewrite still reaches it', () => {
    HOOKED.forEach((line, i) => assert.match(results[ALONE.length + i].content, /sbx hook: .* is missing or not executable/, `${line}: ${results[ALONE.length + i].content}`));
  });
}

test.run();
