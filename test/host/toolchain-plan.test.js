// The toolchain plan (src/host/toolchains.ts) is kept between runs of one process and used again only
// while everything it read is the same: a change in a PATH dir, a toolchain root, a script's first line
// or a variable it read makes a new plan, never a stale one.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { chmodSync, mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ROOT } from '../../fixtures/lib/cases.js';

const { build } = await import('esbuild');
const out = join(mkdtempSync(join(tmpdir(), 'sbx-plan-')), 'toolchains.mjs');
const bundled = await build({ entryPoints: [join(ROOT, 'src/host/toolchains.ts')], bundle: true, platform: 'node', format: 'esm', write: false, logLevel: 'silent' });
writeFileSync(out, bundled.outputFiles[0].text);
const { keptPlans, planToolchains } = await import(out);

function exe(path, text) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  chmodSync(path, 0o755);
}

/** Past the plan's 100 ms window for racy times: what was changed before is told by its times. */
const settle = () => sleep(150);

/** A caller home with a pyenv root (a shim on PATH) and a work dir; settled so that its plan is kept. */
async function setup() {
  const base = mkdtempSync(join(tmpdir(), 'sbx-plan-home-'));
  const home = join(base, 'home');
  const work = join(base, 'work');
  mkdirSync(work, { recursive: true });
  exe(join(home, '.pyenv/shims/python3'), '#!/bin/sh\necho user\n');
  exe(join(home, 'bin/tool'), '#!/bin/sh\necho tool\n');
  await settle();
  const env = { HOME: home, PATH: `${home}/.pyenv/shims:${home}/bin:/usr/bin:/bin` };
  return { base, home, work, env };
}

const plan = (s, cmd = ['python3'], env = s.env) => planToolchains({ cmd, work: s.work, sub: '', sandboxHome: '/home/sbx', env });
/** A process's first plan for an input is only made; the second is kept. */
const planTwice = (s, cmd = ['python3'], env = s.env) => (plan(s, cmd, env), plan(s, cmd, env));

test("a process's first plan for an input is not kept (a one-run CLI pays nothing for it), the second is", async () => {
  const s = await setup();
  const n = keptPlans();
  plan(s);
  assert.is(keptPlans(), n);
  plan(s);
  assert.is(keptPlans(), n + 1);
  rmSync(s.base, { recursive: true, force: true });
});

test('the same inputs give the same plan, kept (a copy: changing it changes no later plan)', async () => {
  const s = await setup();
  const n = keptPlans();
  const a = planTwice(s);
  assert.equal(
    a.toolchains.map((t) => t.name),
    ['pyenv'],
  );
  assert.is(keptPlans(), n + 1, 'kept');
  a.roBind.push({ src: '/x', dst: '/x' });
  a.env.PATH = 'changed';
  const b = plan(s);
  assert.equal(
    b.toolchains.map((t) => t.name),
    ['pyenv'],
  );
  assert.not.ok(b.roBind.some((m) => m.src === '/x'));
  assert.is.not(b.env.PATH, 'changed');
  rmSync(s.base, { recursive: true, force: true });
});

test('a toolchain root removed, or moved to another place by a symlink, makes a new plan', async () => {
  const s = await setup();
  const n = keptPlans();
  assert.equal(
    planTwice(s).toolchains.map((t) => t.name),
    ['pyenv'],
  );
  assert.is(keptPlans(), n + 1, 'kept');
  renameSync(join(s.home, '.pyenv'), join(s.home, 'pyenv-away'));
  assert.equal(plan(s).toolchains, [], 'the root is gone: nothing bound');
  symlinkSync(join(s.home, 'pyenv-away'), join(s.home, '.pyenv'));
  await settle();
  const p = plan(s);
  assert.equal(p.toolchains, [{ name: 'pyenv', root: join(s.home, 'pyenv-away') }], 'the root by its new real path');
  rmSync(s.base, { recursive: true, force: true });
});

test('a command that appears earlier on PATH, or changes its #! line, makes a new plan', async () => {
  const s = await setup();
  const n = keptPlans();
  assert.equal(planTwice(s, ['tool']).notes.length, 1, 'tool is not shown in the sandbox: a note');
  assert.is(keptPlans(), n + 1, 'kept');
  // A tool under the pyenv root (shown) ahead of ~/bin on PATH: now the sandbox runs the same one.
  exe(join(s.home, '.pyenv/shims/tool'), '#!/bin/sh\necho shim\n');
  await settle();
  assert.equal(plan(s, ['tool']).notes, [], 'the shim is found first: no note');
  // Its #! line now names an interpreter the sandbox does not show (same size, times set back).
  writeFileSync(join(s.home, '.pyenv/shims/tool'), `#!${s.home}/bin/toolx\n`);
  exe(join(s.home, 'bin/toolx'), '#!/bin/sh\n');
  await settle();
  assert.equal(plan(s, ['tool']).notes.length, 1, 'its interpreter is not shown: a note again');
  rmSync(s.base, { recursive: true, force: true });
});

test('a variable the plan read (PYENV_ROOT, PATH) changed makes a new plan', async () => {
  const s = await setup();
  assert.equal(
    plan(s).toolchains.map((t) => t.name),
    ['pyenv'],
  );
  assert.equal(plan(s, ['python3'], { ...s.env, PYENV_ROOT: join(s.home, 'nowhere') }).toolchains, []);
  assert.equal(planTwice(s, ['python3'], { ...s.env, PATH: '/usr/bin:/bin' }).toolchains, []);
  assert.equal(
    plan(s).toolchains.map((t) => t.name),
    ['pyenv'],
  );
  rmSync(s.base, { recursive: true, force: true });
});

test('a path changed within the last 100 ms is not trusted by its times: the plan is made again', async () => {
  const s = await setup();
  const shim = join(s.home, '.pyenv/shims/tool');
  exe(shim, `#!${s.home}/bin/toolx\n`); // fresh: its times are now
  exe(join(s.home, 'bin/toolx'), '#!/bin/sh\n');
  const n = keptPlans();
  const before = planTwice(s, ['tool']).notes.length;
  assert.is(keptPlans(), n, 'not kept');
  // Rewritten at once with the same size (times in the same clock tick could be the same): a new plan sees it.
  writeFileSync(shim, '#!/bin/sh\necho ok\n'.padEnd(`#!${s.home}/bin/toolx\n`.length, '#'));
  assert.equal(before, 1);
  assert.equal(plan(s, ['tool']).notes, []);
  rmSync(s.base, { recursive: true, force: true });
});

test('a link in the middle of a root, relative with .., retargeted to another dir makes a new plan', async () => {
  const s = await setup();
  // ~/.pyenv -> tc/../v1 (relative, through a .. after a directory), then -> tc/../v2: same names, another root.
  renameSync(join(s.home, '.pyenv'), join(s.home, 'v1'));
  mkdirSync(join(s.home, 'tc'));
  exe(join(s.home, 'v2/shims/python3'), '#!/bin/sh\necho v2\n');
  symlinkSync('tc/../v1', join(s.home, '.pyenv'));
  await settle();
  assert.equal(planTwice(s).toolchains, [{ name: 'pyenv', root: join(s.home, 'v1') }]);
  const n = keptPlans();
  assert.equal(plan(s).toolchains, [{ name: 'pyenv', root: join(s.home, 'v1') }], 'kept: the same plan');
  assert.is(keptPlans(), n);
  rmSync(join(s.home, '.pyenv'));
  symlinkSync('tc/../v2', join(s.home, '.pyenv'));
  await settle();
  assert.equal(plan(s).toolchains, [{ name: 'pyenv', root: join(s.home, 'v2') }], 'the root by its new real path');
  // A link to a link (absolute, then relative) is followed as realpath follows it.
  symlinkSync(join(s.home, 'v2'), join(s.home, 'hop'));
  rmSync(join(s.home, '.pyenv'));
  symlinkSync('hop', join(s.home, '.pyenv'));
  await settle();
  assert.equal(plan(s).toolchains, [{ name: 'pyenv', root: join(s.home, 'v2') }], 'the same real root through two links');
  rmSync(join(s.home, 'hop'));
  symlinkSync(join(s.home, 'v1'), join(s.home, 'hop'));
  await settle();
  assert.equal(plan(s).toolchains, [{ name: 'pyenv', root: join(s.home, 'v1') }], 'the second link retargeted: seen');
  // A command found outside the root (/bin/true): nothing read under the root tells the retarget, its real path does.
  const tru = ['true'];
  assert.equal(planTwice(s, tru).toolchains, [{ name: 'pyenv', root: join(s.home, 'v1') }]);
  rmSync(join(s.home, 'hop'));
  symlinkSync(join(s.home, 'v2'), join(s.home, 'hop'));
  await settle();
  assert.equal(plan(s, tru).toolchains, [{ name: 'pyenv', root: join(s.home, 'v2') }], 'retargeted under a command outside it: seen');
  rmSync(s.base, { recursive: true, force: true });
});

test('a venv config that appears, or a missing root that comes, between plans makes a new plan', async () => {
  const s = await setup();
  const n = keptPlans();
  assert.equal(planTwice(s).notes, [], 'no venv: no note');
  assert.is(keptPlans(), n + 1, 'kept');
  // .venv/pyvenv.cfg was missing when the plan was kept: now it names a python the sandbox does not show.
  mkdirSync(join(s.work, '.venv'));
  writeFileSync(join(s.work, '.venv/pyvenv.cfg'), `home = ${s.base}/elsewhere/bin\n`);
  await settle();
  assert.ok(
    plan(s).notes.some((t) => t.startsWith('the venv .venv runs the python in')),
    'the new venv is seen',
  );
  // ~/.nvm was missing (a root looked for, not there): made, with its bin dir on PATH, it is bound.
  const env = { ...s.env, PATH: `${s.home}/.nvm/versions/node/v1/bin:${s.env.PATH}` };
  assert.equal(
    planTwice(s, ['python3'], env).toolchains.map((t) => t.name),
    ['pyenv'],
  );
  exe(join(s.home, '.nvm/versions/node/v1/bin/node'), '#!/bin/sh\n');
  await settle();
  assert.equal(
    plan(s, ['python3'], env).toolchains.map((t) => t.name),
    ['pyenv', 'nvm'],
    'the new root is bound',
  );
  rmSync(s.base, { recursive: true, force: true });
});

test.run();
