// The runs that make dist/cli-*.cjs.cache (scripts/build-host.js): V8 caches what a run compiled, so
// each must go as far as the command a cold start most often is. cli-run's is `sbx run -- /bin/true`
// in a work dir that is not its HOME (sbx refuses that with E_WORK_HOME, and a cache made from the
// refusal left launch, the verdict and the record to compile on every cold run), with a toolchain root
// of that HOME on PATH, so that the plan binding one (src/host/toolchains.ts) is compiled too.
// cli-main's is a Claude Code PreToolUse hook call (one per Bash call of an agent). Each run has a
// temporary HOME of its own (caches and state stay in it); test/e2e/code-cache-runs.test.js checks they
// do what they are for.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** [{ name, argv, input, env, home }] for the bin dist/cli.cjs; the caller removes each home. */
export function codeCacheRuns(env = process.env) {
  return [
    ['cli-run', (w) => ['run', '--work', w, '--', '/bin/true'], null],
    ['cli-main', () => ['hook', 'claude-pre'], (w) => JSON.stringify({ session_id: 'build', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'make test' }, cwd: w, permission_mode: 'default' })],
  ].map(([name, argv, input]) => {
    const home = mkdtempSync(join(tmpdir(), 'sbx-code-cache-'));
    const work = join(home, 'work');
    const tool = join(home, '.pyenv', 'bin');
    mkdirSync(work);
    // A work dir as a project's is, not an empty one (whose fingerprint takes a shortcut): a few files
    // in nested dirs, so that the tree's walk and fingerprint are compiled into the cache too.
    for (const dir of ['src', 'src/lib', 'tests']) {
      mkdirSync(join(work, dir), { recursive: true });
      for (let i = 0; i < 4; i++) writeFileSync(join(work, dir, `f${i}.c`), `int f${i}(void) { return ${i}; }\n`);
    }
    writeFileSync(join(work, 'Makefile'), 'all:\n\ttrue\n');
    mkdirSync(tool, { recursive: true });
    const e = { ...env, HOME: home, XDG_CACHE_HOME: join(home, '.cache'), XDG_STATE_HOME: join(home, '.state'), PATH: `${tool}:${env.PATH ?? '/usr/bin:/bin'}` };
    for (const k of ['SBX_HOMES', 'SBX_PHASES', 'SBX_BUILD_CODE_CACHE', 'PYENV_ROOT', 'VIRTUAL_ENV', 'CONDA_PREFIX']) delete e[k];
    return { name, argv: argv(work), input: input?.(work) ?? '', env: e, home };
  });
}
