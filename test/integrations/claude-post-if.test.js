// Claude Code's post-hook is installed with `if` rules (src/integrations/claude/claude-post-if.ts): the
// real client (pinned) must start it for no call it has nothing to do with (`ls`, a line the pre-hook
// rewrote into the sandbox) and still for a sandbox-table command that ran on the host; when several
// rules match one call, one hook answers (claim.ts). Sessions A and B run the installed hooks with every
// post handler's command swapped for one that logs its rule (the `if` rules as installed), session C the
// real hooks.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startScriptedModel, toolResults } from './_scripted-model.js';
import { cli, ensureClaude, runClaude, scratchProject } from './_client.js';
import { needs, skipping } from '../_tools.js';

const WHAT = 'test/integrations/claude-post-if (the real Claude Code)';
const tools = needs(WHAT, ['python3'], suite('claude-code post-hook if rules'));
const client = tools.skipping ? null : ensureClaude();
const test = client?.skip ? skipping(tools, WHAT, `${client.skip}; install: the suite installs it from the npm registry when it can reach it`) : tools;

{
  let s;
  let installed; // the settings as install wrote them
  const got = {};
  const settingsPath = () => join(s.proj, '.claude', 'settings.json');
  const log = () => join(s.base, 'post.log');
  const logged = () => (existsSync(log()) ? readFileSync(log(), 'utf8').split('\n').filter(Boolean) : []);
  // A host line (git: host table) printing ~27 KB, failing: the post-hook distils it.
  const big = `git --version >/dev/null; python3 -c "import sys
for i in range(400): print(f'host line {i:03d} ' + 'x' * 56)
sys.exit(3)" && make --version >/dev/null`;

  test.before(async () => {
    s = scratchProject();
    mkdirSync(join(s.proj, 'c'), { recursive: true });
    writeFileSync(join(s.proj, 'c', 'm.c'), '#include <stdio.h>\nint main(void) { puts("hello from m"); return 0; }\n');
    writeFileSync(join(s.proj, 'sbx.config.json'), JSON.stringify({ hook: { sandbox: ['frobnicate'] } }));
    const r = spawnSync(process.execPath, [cli, 'hook', 'install', '--claude', '--project', '--dir', s.proj], { encoding: 'utf8' });
    assert.is(r.status, 0, r.stderr);
    installed = readFileSync(settingsPath(), 'utf8');

    // A and B: each post handler logs "<event> <its if>" instead of running sbx; the pre-hook is sbx's.
    const observed = JSON.parse(installed);
    for (const event of ['PostToolUse', 'PostToolUseFailure']) {
      for (const m of observed.hooks[event]) for (const h of m.hooks) h.command = `cat >/dev/null; echo '${event} ${h.if ?? '(no if)'}' >> '${log()}'`;
    }
    writeFileSync(settingsPath(), JSON.stringify(observed, null, 2));
    const session = async (command) => {
      rmSync(log(), { force: true });
      const m = await startScriptedModel([{ tool: 'Bash', input: { command, description: 'step' } }, { text: 'Done.' }]);
      const res = await runClaude(client.bin, { cwd: s.proj, home: s.home, url: m.url, args: ['--allowedTools', 'Bash'] });
      const results = toolResults(m.mainRequests().at(-1)?.body);
      await m.close();
      return { status: res.status, stderr: res.stderr, results, log: logged() };
    };
    got.ls = await session('ls c');
    got.gcc = await session('gcc -O0 -o c/m c/m.c && ./c/m');
    got.host = await session('git --version >/dev/null; time python3 -c "print(1)"');
    got.own = await session('git --version >/dev/null; frobnicate --help');

    // C: the real hooks, a failing host line that two rules match (python3, make).
    writeFileSync(settingsPath(), installed);
    const c = await startScriptedModel([{ tool: 'Bash', input: { command: big, description: 'Print a long log and fail' } }, { text: 'Done.' }]);
    got.real = await runClaude(client.bin, { cwd: s.proj, home: s.home, url: c.url, args: ['--allowedTools', 'Bash'] });
    got.real.body = c.mainRequests().at(-1)?.body;
    await c.close();
  });

  test.after(() => { if (s && !process.env.SBX_INTEG_KEEP) rmSync(s.base, { recursive: true, force: true }); });

  test('install: the pre-hook has no `if`, every post handler has one, from the sandbox table and the project\'s own pattern', () => {
    const st = JSON.parse(installed);
    for (const m of st.hooks.PreToolUse) for (const h of m.hooks) assert.not.ok('if' in h, 'the pre-hook sees every call');
    for (const event of ['PostToolUse', 'PostToolUseFailure']) {
      const ifs = st.hooks[event].flatMap((m) => m.hooks.map((h) => h.if));
      assert.ok(ifs.every((x) => typeof x === 'string' && /^Bash\(.+\)$/.test(x)), JSON.stringify(ifs));
      for (const want of ['Bash(make *)', 'Bash(gcc *)', 'Bash(python3 *)', 'Bash(cargo *)', 'Bash(npm *)', 'Bash(./*)', 'Bash(time *)', 'Bash(frobnicate *)']) assert.ok(ifs.includes(want), `${event}: ${want} in ${JSON.stringify(ifs)}`);
      assert.is(new Set(ifs).size, ifs.length, 'one handler per rule');
    }
  });

  test('`ls`: Claude starts the pre-hook only, no post-hook', () => {
    assert.is(got.ls.status, 0, got.ls.stderr.slice(0, 300));
    assert.equal(got.ls.log, []);
    assert.is(got.ls.results[0].content, 'm.c');
  });

  test('a line the pre-hook rewrote (it runs in sbx, which prints the verdict): no post-hook', () => {
    assert.is(got.gcc.status, 0, got.gcc.stderr.slice(0, 300));
    assert.match(got.gcc.results[0].content, /^sbx: pass · exit 0[^\n]*\n(.*\n)*hello from m/);
    assert.equal(got.gcc.log, []);
  });

  test('a sandbox-table command that ran on the host (behind a wrapper) still gets the post-hook', () => {
    assert.is(got.host.status, 0, got.host.stderr.slice(0, 300));
    assert.ok(got.host.log.length >= 1, 'started');
    assert.ok(got.host.log.every((l) => l.startsWith('PostToolUse ')), got.host.log.join('\n'));
    assert.ok(got.host.log.includes('PostToolUse Bash(time *)'), got.host.log.join('\n'));
  });

  test('a pattern of the project\'s sbx.config.json starts the post-hook (a failing call: PostToolUseFailure)', () => {
    assert.is(got.own.status, 0, got.own.stderr.slice(0, 300));
    assert.ok(got.own.log.includes('PostToolUseFailure Bash(frobnicate *)'), got.own.log.join('\n'));
  });

  test('two rules match one call: the model gets the verdict once, one run is recorded', () => {
    assert.is(got.real.status, 0, got.real.stderr.slice(0, 300));
    const r = toolResults(got.real.body)[0];
    assert.ok(r.is_error);
    assert.match(r.content, /^Exit code 3\n/);
    const all = JSON.stringify(got.real.body.messages.at(-1));
    assert.is(all.split('sbx distilled the output above').length - 1, 1, all.slice(0, 2000));
    assert.match(all, /sbx: runtime-error · exit 3/);
    const dir = join(s.proj, '.sbx', 'logs');
    const logs = readdirSync(dir).filter((f) => f.endsWith('.log') && readFileSync(join(dir, f), 'utf8').includes('host line 399'));
    assert.is(logs.length, 1, logs.join(' '));
  });
}

test.run();
