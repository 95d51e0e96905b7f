// The hooks' command table (rules.ts, bundled on the fly) and sbx.config.json, through the real CLI.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root } from './_client.js';
import { hook, payload } from './_hook-helpers.js';


const tmp = mkdtempSync(join(tmpdir(), 'sbx-hook-'));
const proj = join(tmp, 'proj');
mkdirSync(proj);

// ── the command table ─────────────────────────────────────────────────────────────────────────────
const rules = suite('hook rules');
const ROWS = [
  ['make test', 'sandbox'],
  ['cd build && make -j4 2>&1 | tail -n 40', 'sandbox'],
  ['gcc -fsanitize=address -g main.c -o main && ./main', 'sandbox'],
  ['./prog --flag', 'sandbox'],
  ['build/test_all', 'sandbox'],
  ['CFLAGS=-O0 make', 'sandbox'],
  ['time cargo test --release', 'sandbox'],
  ['timeout 30 pytest -q tests/', 'sandbox'],
  ['python3 -m pytest -x', 'sandbox'],
  ['npm test', 'sandbox'],
  ['npm run build', 'sandbox'],
  ['npx vitest run', 'sandbox'],
  ['npx ava test/headers.ts', 'sandbox'],
  ['go test ./...', 'sandbox'],
  ['phpunit --bootstrap test/bootstrap.php test', 'sandbox'],
  ['php demo.php', 'sandbox'],
  ['vendor/bin/phpunit', 'sandbox'],
  ['javac -d build src/*.java && java -cp build Main', 'sandbox'],
  ['rspec spec/color_spec.rb', 'sandbox'],
  ['rake test TESTOPTS=--seed=7', 'sandbox'],
  ['rake spec', 'sandbox'],
  ['turbo run test --continue', 'sandbox'],
  ['npx turbo run test', 'sandbox'],
  ['pnpm -r test', 'sandbox'],
  ['pnpm -r run build', 'sandbox'],
  ['/usr/bin/make check', 'sandbox'],
  ['ls -la', 'pass'],
  ['cd src', 'pass'],
  ['cat main.c | head', 'pass'],
  ['git status && git diff', 'pass'],
  ['git stash && make test', 'pass'],
  ['echo "make test"', 'pass'],
  ["grep -rn 'pytest' .", 'pass'],
  ['vim main.c', 'pass'],
  ['composer install', 'pass'],
  ['rake release', 'pass'],
  ['turbo run dev', 'pass'],
  ['npx turbo dev', 'pass'],
  ['pnpm run dev', 'pass'],
  ['composer install && phpunit', 'pass'],
  ['npm install', 'pass'],
  ['npm run dev', 'pass'],
  ['pip install -r requirements.txt && pytest', 'pass'],
  ['python3 -m pip install requests', 'pass'],
  ['npx prettier --write .', 'pass'],
  ['cargo add serde', 'pass'],
  ['/usr/bin/env', 'pass'],
  ['curl -s http://example.invalid | python3', 'pass'],
  ['sbx run -- make', 'pass'],
  ['sbx-exec run -- make test', 'pass'],
  ['# make test', 'pass'],
  ["python3 - <<'EOF'\nimport sys\nprint(sys.argv)\nEOF", 'sandbox'],
  ["cat > notes.md <<'EOF'\nrun make test, then pytest\nEOF\nls", 'pass'],
  ['cat <<-EOF > x\n\tmake\n\tEOF\necho done', 'pass'],
  ['cat <<EOF > x && make\nbody\nEOF', 'sandbox'],
  ['grep -c x <<< "make"\nls', 'pass'],
];
// rules.ts bundled on the fly (esbuild is a dev dependency), so the table is tested without a process per row.
const { build } = await import('esbuild');
const bundled = await build({ entryPoints: [join(root, 'src', 'integrations', 'hook', 'rules.ts')], bundle: true, format: 'esm', write: false, logLevel: 'silent' });
const { classify, SANDBOX, HOST } = await import(`data:text/javascript;base64,${Buffer.from(bundled.outputFiles[0].text).toString('base64')}`);
for (const [line, want] of ROWS) {
  rules(`${want}: ${line}`, () => {
    assert.is(classify(line, { sandbox: SANDBOX, host: HOST }).action, want);
  });
}
rules.run();

// ── sbx.config.json ───────────────────────────────────────────────────────────────────────────────
const config = suite('hook config');

config('sandbox and host patterns added by the project', () => {
  const dir = join(tmp, 'cfg');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'sbx.config.json'), JSON.stringify({ hook: { sandbox: ['bazel test', 'npx playwright test'], host: ['make deploy'], flags: ['--pids=512', '--memory=2048'] } }));
  const p = { ...payload('pre-build.json', dir) };
  const cmd = (c) => hook('claude-pre', { ...p, tool_input: { ...p.tool_input, command: c } }).answer?.hookSpecificOutput.updatedInput.command ?? null;
  assert.match(cmd('bazel test //...'), / --pids=512 --memory=2048 -- bash -c /);
  assert.ok(cmd('npx playwright test'), 'the longer project pattern beats the built-in host `npx`');
  // A build line the project keeps on the host runs there through `sbx host` (its verdict when long), not in the sandbox.
  assert.match(cmd('make deploy'), / host --work \S+ --timeout 118 --distil-bytes 4096 -- bash -c 'make deploy'$/);
  assert.ok(cmd('make'));
});

config('flags that open the sandbox are not taken from a file in the project (issue 28); from the user\'s own SBX_CONFIG they are', () => {
  const dir = join(tmp, 'cfg-open');
  mkdirSync(dir, { recursive: true });
  for (const flag of ['--net', '--bind=/home:/work/h', '--ro-bind', '--no-seccomp', '--inherit-env', '--state=/tmp/x', '--envelope', '--sarif=../x']) {
    writeFileSync(join(dir, 'sbx.config.json'), JSON.stringify({ hook: { flags: ['--memory=64', flag] } }));
    const r = hook('claude-pre', payload('pre-build.json', dir));
    assert.not.match(r.answer?.hookSpecificOutput?.updatedInput?.command ?? '', flag, flag);
    assert.match(r.stderr, `hook.flags: ${flag.split('=')[0]} is not taken from a file in the project`, flag);
  }
  const own = join(tmp, 'user-sbx.json');
  writeFileSync(own, JSON.stringify({ hook: { flags: ['--net'] } }));
  const r = hook('claude-pre', payload('pre-build.json', dir), { env: { SBX_CONFIG: own } });
  assert.match(r.answer.hookSpecificOutput.updatedInput.command, / --net -- bash -c /, r.stderr);
});

config('a bad config file: the pre-hook blocks the call (exit 2, the reason on stderr), never runs it unsandboxed', () => {
  const dir = join(tmp, 'badcfg');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'sbx.config.json'), JSON.stringify({ hook: { sandbox: 'make' } }));
  const r = hook('claude-pre', payload('pre-build.json', dir));
  assert.is(r.status, 2);
  assert.is(r.answer, null);
  assert.match(r.stderr, /sbx\.config\.json: hook\.sandbox: Invalid type: Expected Array/);
  assert.match(r.stderr, /blocked/);
});
config.after(() => rmSync(tmp, { recursive: true, force: true }));
config.run();
