// The users' own permission rules that the pre-hooks honour (src/integrations/*/…-rules/policy/permissions),
// table-driven over rule files in each client's real format and place, bundled on the fly; then through
// the real CLI (`sbx hook codex-pre` / `gemini-pre`): a line a rule names gets no answer (not rewritten).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { root } from './_client.js';
import { CODEX_PAYLOADS, GEMINI_PAYLOADS, hook, payload } from './_hook-helpers.js';

const { build } = await import('esbuild');
const entry = ['claude/claude-permissions.ts', 'codex/codex-rules.ts', 'codex/starlark.ts', 'gemini/gemini-policy.ts']
  .map((f) => `export * from ${JSON.stringify(join(root, 'src', 'integrations', f))};`).join('\n');
const bundled = await build({ stdin: { contents: entry, resolveDir: root, loader: 'ts' }, bundle: true, platform: 'node', format: 'esm', write: false, logLevel: 'silent' });
const m = await import(`data:text/javascript;base64,${Buffer.from(bundled.outputFiles[0].text).toString('base64')}`);

const tmp = mkdtempSync(join(tmpdir(), 'sbx-perms-'));
const put = (path, text) => { mkdirSync(dirname(path), { recursive: true }); writeFileSync(path, text); return path; };
/** A fresh tree for one case: home, etc, a git project. */
let n = 0;
const tree = () => {
  const base = join(tmp, String(n++));
  const t = { base, home: join(base, 'home'), etc: join(base, 'etc'), proj: join(base, 'proj') };
  mkdirSync(join(t.proj, '.git'), { recursive: true });
  mkdirSync(t.home, { recursive: true });
  return t;
};
const REWRITE = (line) => `'/usr/bin/node' '/opt/sbx/dist/cli.js' run --work /p --timeout 600 -- bash -c '${line}'`;
const decision = (r) => r?.decision ?? null;

// ── Codex: .rules files ───────────────────────────────────────────────────────────────────────────
const codex = suite('codex rules');

// The docs' example (developers.openai.com/codex/rules) and the other shapes Codex documents.
const USER_RULES = `# Prompt before running commands with the prefix \`gh pr view\` outside the sandbox.
prefix_rule(
    # The prefix to match.
    pattern = ["gh", "pr", "view"],
    decision = "prompt",
    justification = "Viewing PRs is allowed with approval",
    match = [
        "gh pr view 7888",
        "gh pr view --repo openai/codex",
    ],
    not_match = [
        # Does not match because the \`pattern\` must be an exact prefix.
        "gh pr --repo openai/codex view 7888",
    ],
)
prefix_rule(pattern = ["make"], decision = "forbidden", justification = "Use \`ninja\` instead.")
prefix_rule(pattern = ["cargo", ["test", "bench"]], decision = "prompt")
prefix_rule(pattern = ["pytest"])
prefix_rule(pattern = ["npm", "test"], decision = 'forbidden')
prefix_rule(["ctest"], "forbidden")
host_executable(name = "git", paths = ["/usr/bin/git"])
`;
const CODEX_ROWS = [
  ['make test', 'deny'],
  ['cd asan && make -s run', 'deny'],
  ['/usr/bin/make check', 'deny'],
  ['cd build; ctest --output-on-failure', 'deny'],
  ['gmake', null],
  ['cargo test --release', 'ask'],
  ['cargo build', null],
  ['gh pr view 7888', 'ask'],
  ['gh pr --repo openai/codex view 7888', null],
  ['pytest -q', null],
  ['npm test', 'deny'],
  ['npm run test', null],
  ['echo make', null],
];
codex('a user rules file in the docs\' format: forbidden and prompt rules refuse, allow rules do not', () => {
  const t = tree();
  put(join(t.home, '.codex', 'rules', 'default.rules'), USER_RULES);
  const notes = [];
  const rules = m.loadCodexRules({ codexHome: join(t.home, '.codex'), cwd: t.proj, etc: t.etc }, notes);
  assert.equal(notes, []);
  for (const [line, want] of CODEX_ROWS) assert.is(decision(m.codexRefusal(line, null, rules)), want, line);
  const r = m.codexRefusal('make', null, rules);
  assert.is(r.rule, 'prefix_rule(pattern = ["make"], decision = "forbidden")');
  assert.match(r.source, /default\.rules:16$/);
});

codex('statements the reader cannot evaluate are skipped with a note; the rest of the file still counts', () => {
  const { rules, notes } = m.parseRules(`load("//x.star", "y")
RULES = ["make"]
prefix_rule(pattern = RULES, decision = "forbidden")
prefix_rule(pattern = ["cmake"], decision = "forbidden")
for x in ["a"]:
    prefix_rule(pattern = [x])
prefix_rule(pattern = [f"ctest"], decision = "forbidden")
prefix_rule(pattern = ["ninja"], decision = "nope")
prefix_rule(pattern = [], decision = "forbidden")
prefix_rule(pattern = ["meson"], decision = "prompt") ; prefix_rule(pattern = ["bazel"])
prefix_rule(pattern = ["tox"], decision = "forbidden"
prefix_rule(pattern = ["valgrind"], decision = "forbidden", colour = "red")
prefix_rule(pattern = ["gcc"], decision = "forbidden")
`, 'f.rules');
  assert.equal(rules.map((r) => [r.pattern.flat().join(' '), r.decision]), [['cmake', 'forbidden'], ['meson', 'prompt'], ['bazel', 'allow'], ['gcc', 'forbidden']]);
  assert.equal(notes.map((x) => x.split(':').slice(0, 2).join(':')), ['f.rules:2', 'f.rules:3', 'f.rules:5', 'f.rules:7', 'f.rules:8', 'f.rules:9', 'f.rules:11', 'f.rules:12']);
  assert.match(notes[4], /decision must be "allow", "prompt" or "forbidden"/);
  assert.match(notes[6], /cannot read this statement \(expected ",", found "p"\)/);
  assert.match(notes[7], /no argument colour/);
});

codex('project rules count only in a trusted project ([projects] in $CODEX_HOME/config.toml), from the git root down', () => {
  const t = tree();
  put(join(t.proj, '.codex', 'rules', 'p.rules'), 'prefix_rule(pattern = ["pytest"], decision = "forbidden")\n');
  put(join(t.proj, 'sub', '.codex', 'rules', 's.rules'), 'prefix_rule(pattern = ["tox"], decision = "prompt")\n');
  mkdirSync(join(t.proj, 'sub', 'deeper'), { recursive: true });
  const load = (cwd) => m.loadCodexRules({ codexHome: join(t.home, '.codex'), cwd, etc: t.etc }, []);
  assert.is(m.codexRefusal('pytest', null, load(t.proj)), null, 'untrusted: no entry');
  put(join(t.home, '.codex', 'config.toml'), `model = "x"\n[projects."${t.proj}"]\ntrust_level = "untrusted"\n`);
  assert.is(m.codexRefusal('pytest', null, load(t.proj)), null, 'untrusted');
  put(join(t.home, '.codex', 'config.toml'), `model = "x"\n[projects."${t.proj}"]\ntrust_level = "trusted"\n`);
  assert.is(decision(m.codexRefusal('pytest', null, load(t.proj))), 'deny');
  const deep = load(join(t.proj, 'sub', 'deeper'));
  assert.is(decision(m.codexRefusal('pytest -q', null, deep)), 'deny', 'the root layer, from a subdirectory');
  assert.is(decision(m.codexRefusal('tox', null, deep)), 'ask', 'a layer between root and cwd');
  assert.is(m.codexRefusal('tox', null, load(t.proj)), null, 'a layer below the cwd does not count');
});

codex('system rules and requirements.toml prefix_rules; a rule on the rewrite itself', () => {
  const t = tree();
  put(join(t.etc, 'rules', 'team.rules'), 'prefix_rule(pattern = ["bazel", "test"], decision = "prompt")\n');
  put(join(t.etc, 'requirements.toml'), `[rules]\nprefix_rules = [\n  { pattern = [{ token = "go" }, { any_of = ["test", "vet"] }], decision = "forbidden", justification = "CI only" },\n]\n`);
  put(join(t.home, '.codex', 'rules', 'node.rules'), 'prefix_rule(pattern = ["node"], decision = "forbidden")\n');
  const rules = m.loadCodexRules({ codexHome: join(t.home, '.codex'), cwd: t.proj, etc: t.etc }, []);
  assert.is(decision(m.codexRefusal('bazel test //...', null, rules)), 'ask');
  assert.is(decision(m.codexRefusal('go vet ./...', null, rules)), 'deny');
  assert.is(m.codexRefusal('go build', null, rules), null);
  assert.is(m.codexRefusal('make', null, rules), null);
  assert.is(decision(m.codexRefusal('make', REWRITE('make'), rules)), 'deny', '/usr/bin/node is `node` to Codex');
});

codex('unreadable files: a note each, never a throw', () => {
  const t = tree();
  put(join(t.etc, 'requirements.toml'), '[rules\nprefix_rules = 3\n');
  put(join(t.home, '.codex', 'config.toml'), 'projects = [');
  const bad = put(join(t.home, '.codex', 'rules', 'locked.rules'), 'prefix_rule(pattern = ["make"], decision = "forbidden")\n');
  const notes = [];
  if (process.getuid?.() !== 0) chmodSync(bad, 0);
  else mkdirSync(join(t.home, '.codex', 'rules', 'dir.rules')); // root reads any file: a directory named like one is skipped instead
  const rules = m.loadCodexRules({ codexHome: join(t.home, '.codex'), cwd: t.proj, etc: t.etc }, notes);
  assert.ok(notes.some((x) => /requirements\.toml is not TOML/.test(x)), notes.join('\n'));
  assert.ok(notes.some((x) => /config\.toml is not TOML/.test(x)), notes.join('\n'));
  if (process.getuid?.() !== 0) assert.ok(notes.some((x) => /cannot read .*locked\.rules \(EACCES\)/.test(x)), notes.join('\n'));
  else assert.is(decision(m.codexRefusal('make', null, rules)), 'deny');
});

// ── Gemini CLI: policy TOML and settings ──────────────────────────────────────────────────────────
const gemini = suite('gemini policy');

const USER_POLICY = `[[rule]]
toolName = "run_shell_command"
commandPrefix = "make"
decision = "deny"
priority = 100
denyMessage = "Use the CI."

[[rule]]
toolName = "run_shell_command"
commandPrefix = ["cargo test", "cargo bench"]
decision = "ask_user"
priority = 100

[[rule]]
toolName = "run_shell_command"
commandRegex = "npm (test|run test)"
decision = "deny"
priority = 50

[[rule]]
toolName = "run_shell_command"
commandPrefix = "make docs"
decision = "allow"
priority = 200

[[rule]]
toolName = ["run_shell_command", "write_file"]
argsPattern = '"dir_path":"vendor'
decision = "deny"
priority = 10

[[rule]]
toolName = "run_shell_command"
subagent = "codebase_investigator"
decision = "deny"
priority = 999

[[rule]]
toolName = "run_shell_command"
mcpName = "my-server"
decision = "deny"
priority = 999

[[rule]]
toolName = "run_shell_command"
commandPrefix = "pytest"
decision = "deny"
priority = 100
modes = ["plan"]
interactive = true
toolAnnotations = { readOnlyHint = true }
`;
const GEMINI_ROWS = [
  [{ command: 'make test' }, 'deny'],
  [{ command: 'cd asan && make -s run', description: 'Build and run' }, 'deny'],
  [{ command: 'make', dir_path: 'asan' }, 'deny'],
  [{ command: 'make docs' }, null],
  [{ command: 'makefoo' }, null],
  [{ command: 'cargo test -q' }, 'ask'],
  [{ command: 'cargo build' }, null],
  [{ command: 'npm test' }, 'deny'],
  [{ command: 'npm run test' }, 'deny'],
  [{ command: 'pytest', dir_path: 'vendor/lib' }, 'deny'],
  [{ command: 'pytest' }, null],
];
const places = (t, extra = {}) => ({ ...m.geminiPlaces(t.proj, { GEMINI_CLI_HOME: t.home, GEMINI_CLI_SYSTEM_SETTINGS_PATH: join(t.etc, 'settings.json') }), systemPolicies: join(t.etc, 'policies'), ...extra });

gemini('a user policy file in the docs\' format: the highest-priority matching rule of the call or of a command decides', () => {
  const t = tree();
  put(join(t.home, '.gemini', 'policies', 'mine.toml'), USER_POLICY);
  const notes = [];
  const rules = m.loadGeminiPolicy(places(t), notes);
  assert.equal(notes, []);
  for (const [input, want] of GEMINI_ROWS) assert.is(decision(m.geminiRefusal(input, null, rules)), want, JSON.stringify(input));
  assert.match(m.geminiRefusal({ command: 'make' }, null, rules).source, /mine\.toml$/);
});

gemini('admin policies outrank the user\'s, and count only from a dir that root owns and only root can write', () => {
  const t = tree();
  put(join(t.home, '.gemini', 'policies', 'mine.toml'), USER_POLICY);
  const admin = join(t.etc, 'policies');
  put(join(admin, 'admin.toml'), '[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "make"\ndecision = "allow"\npriority = 0\n');
  chmodSync(admin, 0o755);
  const asRoot = process.getuid?.() === 0;
  assert.is(decision(m.geminiRefusal({ command: 'make' }, null, m.loadGeminiPolicy(places(t), []))), asRoot ? null : 'deny');
  chmodSync(admin, 0o775);
  assert.is(decision(m.geminiRefusal({ command: 'make' }, null, m.loadGeminiPolicy(places(t), []))), 'deny', 'group-writable: ignored');
});

gemini('settings lists: exclude, allowed (and its narrowing), core, confirmationRequired; policyPaths; a rule on the rewrite', () => {
  const t = tree();
  const settings = (user, workspace = {}) => {
    put(join(t.home, '.gemini', 'settings.json'), `// comments are allowed\n${JSON.stringify(user)}`);
    put(join(t.proj, '.gemini', 'settings.json'), JSON.stringify(workspace));
    return m.loadGeminiPolicy(places(t), []);
  };
  const d = (rules, command, rewrite = null) => decision(m.geminiRefusal({ command }, rewrite, rules));
  assert.is(d(settings({ tools: { exclude: ['run_shell_command(make)'] } }), 'make'), null, 'an argument-narrowed exclude denies nothing in 0.61');
  assert.is(d(settings({ tools: { exclude: ['write_file'] } }, { tools: { exclude: ['run_shell_command'] } }), 'make'), 'deny', 'excludes are the union');
  const allowed = settings({ tools: { allowed: ['run_shell_command(make)'] } });
  assert.is(d(allowed, 'make -s run'), null);
  assert.is(d(allowed, 'cd asan && make -s run'), 'deny', 'allowed narrows the shell tool to its prefixes');
  assert.is(d(allowed, 'make -s run', REWRITE('make -s run')), 'deny', 'and the rewrite is not one of them');
  assert.is(d(settings({ tools: { core: ['run_shell_command'] } }), 'make'), null);
  assert.is(d(settings({ tools: { core: ['read_file'] } }), 'make'), 'deny');
  assert.is(d(settings({ tools: { confirmationRequired: ['run_shell_command'] } }), 'make'), 'ask');
  assert.is(d(settings({ tools: { allowed: ['run_shell_command(cd)'] } }, { tools: { allowed: ['run_shell_command'] } }), 'make'), null, 'the workspace list replaces the user\'s');
  put(join(t.home, 'custom.toml'), '[[rule]]\ntoolName = "*"\ndecision = "ask_user"\npriority = 1\n');
  put(join(t.home, '.gemini', 'policies', 'mine.toml'), USER_POLICY);
  assert.is(d(settings({ policyPaths: ['~/custom.toml'] }), 'make'), 'ask', 'policyPaths replaces ~/.gemini/policies');
});

gemini('not read: workspace policies (disabled in 0.61), broken files (a note each), unsafe patterns', () => {
  const t = tree();
  put(join(t.proj, '.gemini', 'policies', 'ws.toml'), '[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "make"\ndecision = "deny"\npriority = 999\n');
  put(join(t.home, '.gemini', 'policies', 'a-broken.toml'), '[[rule]\ntoolName = ');
  put(join(t.home, '.gemini', 'policies', 'b-schema.toml'), '[[rule]]\ntoolName = "run_shell_command"\ndecision = "deny"\n');
  put(join(t.home, '.gemini', 'policies', 'c-redos.toml'), '[[rule]]\ntoolName = "run_shell_command"\ncommandRegex = "(a+)+"\ndecision = "deny"\npriority = 5\n');
  put(join(t.home, '.gemini', 'policies', 'd-good.toml'), '[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "cmake"\ndecision = "deny"\npriority = 5\n');
  put(join(t.home, '.gemini', 'settings.json'), '{"tools": ');
  const notes = [];
  const rules = m.loadGeminiPolicy(places(t), notes);
  assert.is(m.geminiRefusal({ command: 'make' }, null, rules), null);
  assert.is(decision(m.geminiRefusal({ command: 'cmake ..' }, null, rules)), 'deny');
  assert.equal(notes.map((x) => /(\S+\.(?:toml|json))/.exec(x)?.[1].split('/').pop()), ['settings.json', 'a-broken.toml', 'b-schema.toml', 'c-redos.toml']);
});

gemini('stableStringify as Gemini CLI\'s: sorted keys, undefined dropped, top-level pairs between NULs', () => {
  assert.is(m.stableStringify({ dir_path: undefined, command: 'make', z: [1, { b: 2, a: 'x' }] }), '{\0"command":"make"\0,\0"z":[1,{"a":"x","b":2}]\0}');
});

// ── Claude Code (the shared matcher) ──────────────────────────────────────────────────────────────
const claude = suite('claude rules');
claude('Bash(prefix:*), Bash(pat*tern) and Bash, against the line and each command', () => {
  const t = tree();
  put(join(t.proj, '.claude', 'settings.json'), JSON.stringify({ permissions: { deny: ['Bash(make:*)', 'Read(./secret)'], ask: ['Bash(npm run test*)'] } }));
  put(join(t.proj, '.claude', 'settings.local.json'), '{"permissions": {"deny": "Bash"}}');
  const notes = [];
  const rules = m.bashRules(m.settingsFiles(t.proj, t.home), notes);
  assert.match(notes.join('\n'), /settings\.local\.json: permissions is not/);
  for (const [line, want] of [['cd asan && make -s run', 'deny'], ['makefoo', null], ['npm run test:unit', 'ask'], ['npm test', null]]) {
    assert.is(decision(m.claudeRefusal(line, rules)), want, line);
  }
  assert.is(decision(m.claudeRefusal('ls', [{ rule: 'Bash', decision: 'deny', source: 'x' }])), 'deny');
});

// ── through the CLI ───────────────────────────────────────────────────────────────────────────────
const cliSuite = suite('pre-hooks honour the rules (real CLI)');
cliSuite('codex-pre: a forbidden command gets no answer, others are still rewritten; a bad rules file is a note', () => {
  const t = tree();
  put(join(t.home, '.codex', 'rules', 'default.rules'), 'prefix_rule(pattern = ["make"], decision = "forbidden")\nnot starlark at all\n');
  const p = payload('pre-crash.json', t.proj, CODEX_PAYLOADS);
  const env = { CODEX_HOME: join(t.home, '.codex') };
  const denied = hook('codex-pre', p, { env });
  assert.is(denied.status, 0);
  assert.is(denied.answer, null, 'cd asan && make -s run: left to Codex');
  assert.match(denied.stderr, /^sbx hook: \S+default\.rules:2: cannot read this statement/);
  const other = hook('codex-pre', { ...p, tool_input: { command: 'python3 -m pytest -q' } }, { env });
  assert.match(other.answer?.hookSpecificOutput.updatedInput.command ?? '', / run --work /);
});

cliSuite('gemini-pre: a denied command gets no answer, others are still rewritten', () => {
  const t = tree();
  put(join(t.home, '.gemini', 'policies', 'mine.toml'), USER_POLICY);
  const p = payload('before-crash.json', t.proj, GEMINI_PAYLOADS);
  const env = { GEMINI_CLI_HOME: t.home };
  const denied = hook('gemini-pre', p, { env });
  assert.is(denied.status, 0);
  assert.is(denied.answer, null, 'make -s run: left to Gemini CLI');
  assert.is(denied.stderr, '');
  const other = hook('gemini-pre', { ...p, tool_input: { command: 'python3 -m pytest -q' } }, { env });
  assert.match(other.answer?.hookSpecificOutput.tool_input.command ?? '', / run --work /);
});
cliSuite.after(() => rmSync(tmp, { recursive: true, force: true }));

codex.run();
gemini.run();
claude.run();
cliSuite.run();
