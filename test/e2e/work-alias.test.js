// The work dir at its host path (issue 29 family): a project set up on the host names its host path (a
// venv's `#!/home/u/proj/.venv/bin/python3`, a CMake build dir's Makefiles), so the sandbox shows the work
// dir there too, the same tree as /work (cwd stays /work). Real tools, set up on the host as a user would,
// then run through sbx; the verdict names their paths work-relative, the same at any host path. Where the
// alias cannot be made (the host path under a read-only system dir, or over another mount) the applied
// record says why and the run goes on with /work alone.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, realpathSync, rmSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, isRoot, logText, sbxRun, skipNote, workDir, write } from './_helpers.js';
import { needs } from '../_tools.js';

const sh = (cmd, args, cwd) => {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} (in ${cwd}) failed: ${r.stdout}${r.stderr}`);
};

const CMAKE = {
  'CMakeLists.txt': 'cmake_minimum_required(VERSION 3.10)\nproject(p C)\nadd_executable(x src/x.c)\n',
  'src/x.c': 'int main(void) {\n  return 0;\n}\n',
};
/** A CMake project configured on the host (`cmake -S . -B build`), then its source broken at src/x.c:2. */
function cmakeProject(dir) {
  write(dir, CMAKE);
  sh('cmake', ['-S', '.', '-B', 'build'], dir);
  write(dir, { 'src/x.c': 'int main(void) {\n  return nope;\n}\n' });
  return dir;
}

// Each row: a project set up on the host with a real tool, the command sbx runs, and what its verdict must say.
const ROWS = [
  {
    name: "a venv's script, whose #! names the host path (pip --version)",
    tools: ['venv'],
    setup: (dir) => sh('/usr/bin/python3', ['-m', 'venv', '.venv'], dir),
    cmd: () => ['.venv/bin/pip', '--version'],
    check: (r) => {
      assert.is(r.verdict.status, 'pass', r.why());
      assert.match(logText(r.env), /^pip \d/m, r.why());
      assert.not.match(r.stderr, 'note:', r.why());
    },
  },
  {
    name: "a venv's script named by its host path (as an activated venv's PATH finds it)",
    tools: ['venv'],
    setup: (dir) => sh('/usr/bin/python3', ['-m', 'venv', '.venv'], dir),
    cmd: (dir) => [`${realpathSync(dir)}/.venv/bin/pip`, '--version'],
    check: (r) => {
      assert.is(r.verdict.status, 'pass', r.why());
      assert.not.match(r.stderr, 'note:', r.why());
      assert.match(r.verdict.tail.join('\n'), /^pip \S+ from \/work\/\.venv\//m, `the verdict reads the host path as /work\n${r.why()}`);
    },
  },
  {
    name: 'a CMake build dir configured on the host: cmake --build builds, and the planted error reads src/x.c:2',
    tools: ['cmake'],
    setup: cmakeProject,
    cmd: () => ['cmake', '--build', 'build'],
    check: (r, dir) => {
      assert.is(r.verdict.status, 'build-failed', r.why());
      const errors = r.verdict.diagnostics.filter((d) => d.severity === 'error');
      assert.equal(
        errors.map((d) => `${d.file}:${d.line}`),
        ['src/x.c:2'],
        r.why(),
      );
      assert.ok(logText(r.env).includes(`${realpathSync(dir)}/src/x.c:2:`), `the raw log keeps the tool's own words (the host path)\n${r.why()}`);
      assert.not.ok(JSON.stringify(r.verdict).includes(realpathSync(dir)), `the verdict names no host path\n${r.why()}`);
      // `sbx verdict` on the log the run recorded (WORK/.sbx/logs/...) reads it as the run did.
      const again = spawnSync(process.execPath, [CLI, 'verdict', '--raw', r.env.log, '--exit', '2', '--json'], { cwd: '/', encoding: 'utf8' });
      assert.equal(JSON.parse(again.stdout).verdict, r.verdict, again.stderr);
    },
  },
];

for (const row of ROWS) {
  needs(row.name, row.tools, test)(row.name, () => {
    const dir = workDir({}, 'sbx-alias-');
    row.setup(dir);
    const r = sbxRun(dir, row.cmd(dir));
    assert.equal(r.env.outcome.applied.work_alias, { path: realpathSync(dir), reason: null }, r.why());
    row.check(r, dir);
  });
}

needs('determinism across host paths', ['cmake'], test)('the same project at two host paths: the same verdict, and the same text but for the time and the log', () => {
  const a = cmakeProject(workDir({}, 'sbx-alias-'));
  const b = cmakeProject(join(workDir({}, 'sbx-alias-longer-name-'), 'deeper', 'proj'));
  const [ra, rb] = [a, b].map((d) => sbxRun(d, ['cmake', '--build', 'build']));
  // The raw logs differ (each keeps the tools' own words, host paths of two lengths); the verdicts do not.
  assert.is.not(logText(ra.env), logText(rb.env));
  assert.is(JSON.stringify(ra.verdict), JSON.stringify(rb.verdict), `${ra.why()}\n${rb.why()}`);
  const text = (d) => {
    const r = sbxRun(d, ['cmake', '--build', 'build'], { json: false });
    return r.stdout.replace(/^sbx: .*$/m, '').replace(/^log: .*$/m, '');
  };
  assert.is(text(a), text(b));
});

test('applied.work_alias holds inside: the same directory as /work, cwd /work, its hidden and protected paths hidden and protected there too', () => {
  const dir = workDir({ '.git/config': '[core]\n', 'f.txt': 'x\n' }, 'sbx-alias-');
  const host = realpathSync(dir);
  sbxRun(dir, ['true']); // a state dir exists, so .sbx is hidden as in every later run
  const probe = [
    `test "$(stat -c %d:%i /work)" = "$(stat -c %d:%i ${host})"`,
    'test "$(pwd)" = /work',
    `echo made > ${host}/made.txt && test "$(cat /work/made.txt)" = made`,
    `! ls -A ${host}/.sbx | grep -q .`,
    `! touch ${host}/.git/config 2>/dev/null`,
    `! touch /work/.git/config 2>/dev/null`,
  ];
  const r = sbxRun(dir, ['sh', '-c', probe.map((p, i) => `if ${p}; then echo ok${i}; else echo FAIL${i}; fi`).join('\n')]);
  assert.equal(r.env.outcome.applied.work_alias, { path: host, reason: null }, r.why());
  assert.equal(logText(r.env).trim().split('\n'), probe.map((_, i) => `ok${i}`), `${probe.join('\n')}\n${r.why()}`);
  assert.ok(existsSync(join(dir, 'made.txt')));
});

// Where the alias is not made: the reason in the applied record, and the run goes on with /work alone.
const SKIPS = [
  {
    name: 'the host path would cover another mount (a --ro-bind inside it)',
    make: () => workDir({}, 'sbx-alias-'),
    flags: (dir) => ['--ro-bind', `${workDir({ 'inner.txt': 'i\n' })}:${realpathSync(dir)}/inner`],
    reason: (host) => `would cover the sandbox's mount at ${host}/inner`,
    // (A bind under /tmp is covered by the sandbox's own /tmp tmpfs, mounted after it: not this test's concern.)
    inside: (host) => `test ! -e ${host}/f.txt && test -e /work/f.txt`,
  },
  {
    name: 'the host path is under /opt, a system dir the sandbox shows read-only',
    root: true,
    make: () => {
      mkdirSync('/opt', { recursive: true });
      const d = mkdtempSync('/opt/sbx-alias-');
      process.on('exit', () => rmSync(d, { recursive: true, force: true }));
      return d;
    },
    flags: () => [],
    reason: (host) => `is under /opt, a system dir`,
    inside: (host) => `! touch ${host}/new.txt 2>/dev/null && touch /work/new.txt`,
  },
];

for (const row of SKIPS) {
  test(`no alias where ${row.name}: the applied record says why`, () => {
    if (row.root && !isRoot) return skipNote(row.name, 'needs root to make a directory under /opt');
    const dir = row.make();
    writeFileSync(join(dir, 'f.txt'), 'x\n');
    const host = realpathSync(dir);
    const r = sbxRun(dir, ['sh', '-c', `if ${row.inside(host)}; then echo held; fi`], { flags: row.flags(dir) });
    const alias = r.env.outcome.applied.work_alias;
    assert.is(alias.path, null, r.why());
    assert.ok(alias.reason?.includes(row.reason(host)), `reason: ${alias.reason}\n${r.why()}`);
    assert.is(r.verdict.status, 'pass', r.why());
    assert.is(logText(r.env).trim(), 'held', r.why());
  });
}

test('no alias: a script whose #! names the host path fails set-up with the reason and the /work path to run it by', () => {
  const dir = workDir({}, 'sbx-alias-');
  const host = realpathSync(dir);
  mkdirSync(join(dir, '.venv/bin'), { recursive: true });
  symlinkSync('/usr/bin/python3', join(dir, '.venv/bin/python3'));
  writeFileSync(join(dir, '.venv/bin/tool'), `#!${host}/.venv/bin/python3\nprint('ran')\n`, { mode: 0o755 });
  const r = sbxRun(dir, ['.venv/bin/tool'], { flags: ['--ro-bind', `${workDir()}:${host}/inner`] });
  assert.is(r.verdict.status, 'setup-failed', r.why());
  assert.match(r.verdict.setup_error, `names ${host}/.venv/bin/python3, under the work dir's host path`, r.why());
  assert.match(r.verdict.setup_error, `would cover the sandbox's mount at ${host}/inner`, r.why());
  assert.match(r.verdict.setup_error, 'fix: run it through its interpreter at /work/.venv/bin/python3', r.why());
});

// A set-up error names the command as the caller gave it, at the work dir's host path: with the alias it reads
// as /work, as the log's paths do, so the same project at two host paths gives the same verdict; and a file
// there is found as the work dir's (a script whose #! interpreter is missing is not "does not exist").
test('set-up errors through the alias: the same setup_error at two host paths, the command at /work, the missing interpreter named', () => {
  const made = [workDir({}, 'sbx-alias-'), join(workDir({}, 'sbx-alias-longer-name-'), 'deeper', 'proj')].map((d) => {
    const host = (mkdirSync(join(d, 'bin'), { recursive: true }), realpathSync(d));
    // A venv made on the host, then removed: its scripts' #! still names the host path.
    writeFileSync(join(d, 'bin/tool'), `#!${host}/.venv/bin/python3\nprint('ran')\n`, { mode: 0o755 });
    return { d, host };
  });
  const errs = (cmd) =>
    made.map(({ d, host }) => {
      const r = sbxRun(d, [cmd(host)]);
      assert.equal(r.env.outcome.applied.work_alias, { path: host, reason: null }, r.why());
      assert.is(r.verdict.status, 'setup-failed', r.why());
      assert.not.ok(r.verdict.setup_error.includes(host), `no host path in setup_error\n${r.why()}`);
      return r.verdict.setup_error;
    });
  const [toolA, toolB] = errs((host) => `${host}/bin/tool`);
  assert.is(toolA, toolB);
  assert.match(toolA, 'cannot execute /work/bin/tool in the sandbox: its #! line names the interpreter /work/.venv/bin/python3, which does not exist there');
  const [nopeA, nopeB] = errs((host) => `${host}/nope`);
  assert.is(nopeA, nopeB);
  assert.match(nopeA, 'command not found in the sandbox: /work/nope does not exist there');
});

test.run();
