// The package as a consumer installs it: `npm pack`ed (no build scripts run), unpacked into a consumer's
// node_modules, its dependencies linked from ours (no registry). A strict TypeScript project type-checks
// against the shipped .d.ts files (not our sources), in Node and browser flavours, and the bins and
// exports resolve at run time. Needs the build (dist/, dist/types/).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const ROOT = new URL('../../', import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');
const tmp = mkdtempSync(join(tmpdir(), 'sbx-consumer-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));

const sh = (cmd, args, cwd) => spawnSync(cmd, args, { cwd, encoding: 'utf8', maxBuffer: 64 << 20 });

// Pack once; unpack into consumer/node_modules/<name>; link the runtime dependencies and @types/node.
const packed = sh('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', tmp], ROOT);
const info = packed.status === 0 ? JSON.parse(packed.stdout)[0] : null;
const consumer = join(tmp, 'consumer');
const installed = join(consumer, 'node_modules', pkg.name);
if (info) {
  mkdirSync(installed, { recursive: true });
  sh('tar', ['-xzf', join(tmp, info.filename), '-C', installed, '--strip-components=1'], tmp);
  for (const dep of [...Object.keys(pkg.dependencies), '@types/node']) {
    const to = join(consumer, 'node_modules', dep);
    mkdirSync(dirname(to), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules', dep), to);
  }
}

// Flags a careful consumer turns on, beyond strict; skipLibCheck off so that our .d.ts files are checked.
const strict = {
  strict: true, noUncheckedIndexedAccess: true, exactOptionalPropertyTypes: true, noImplicitOverride: true,
  noPropertyAccessFromIndexSignature: true, noImplicitReturns: true, verbatimModuleSyntax: true,
  skipLibCheck: false, noEmit: true, target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext',
};

const projects = [
  {
    name: 'a Node project (sbx-exec and sbx-exec/engine)',
    options: { types: ['node'] },
    code: `import { run, createEngine, SbxError, type RunResult, type RunOptions } from '${pkg.name}';
import { createEngine as browserEngine, type Verdict } from '${pkg.name}/engine';
const opts: RunOptions = { cmd: ['make', 'test'], work: '.', timeout: 60, memoryMb: 512 };
export async function go(): Promise<string> {
  const env: RunResult = await run(opts);
  const engine = await createEngine();
  const v: Verdict = env.verdict;
  const e2 = await browserEngine();
  const d = e2.delta(null, v, { treeChanged: true });
  if (env.verdict.status === 'setup-failed') throw new SbxError('E_X', 'x');
  return engine.render(env) + d.summary + String(v.exit.code ?? '');
}
`,
  },
  {
    // Without @types/node the public types still resolve: only standard ones (AbortSignal from the DOM lib).
    name: 'a Node project without @types/node (sbx-exec, lib es2022 + dom)',
    options: { types: [], lib: ['es2022', 'dom'] },
    code: `import { run, verdictReport, type RunResult, type VerdictRequest } from '${pkg.name}';
export async function go(log: AsyncIterable<Uint8Array>): Promise<string> {
  const env: RunResult = await run({ cmd: ['make'], work: '.' });
  const req: VerdictRequest = { log, exit: 1 };
  const r = await verdictReport(req);
  return env.verdict.status + r.env.verdict.status;
}
`,
  },
  {
    name: 'a browser project (sbx-exec/engine only, no Node types)',
    options: { types: [], lib: ['es2022', 'dom'] },
    code: `import { createEngine, type RunResult } from '${pkg.name}/engine';
export async function verdictOf(bytes: Uint8Array): Promise<RunResult> {
  const engine = await createEngine();
  const s = engine.stream({ exit: 1 });
  s.push(bytes);
  return s.end();
}
`,
  },
];

test('npm pack ships the built types and both bins', () => {
  assert.is(packed.status, 0, packed.stderr);
  const files = info.files.map((f) => f.path);
  for (const f of ['dist/cli.js', 'dist/index.js', 'dist/engine.js', 'dist/types/host/index.d.ts', 'dist/types/engine/engine.d.ts', 'build/sbx.wasm'])
    assert.ok(files.includes(f), `${f} is not in the package`);
  assert.is(pkg.exports['.'].types, './dist/types/host/index.d.ts');
  assert.is(pkg.exports['./engine'].types, './dist/types/engine/engine.d.ts');
  assert.equal(Object.keys(pkg.exports['.'])[0], 'types', 'types first in the exports map');
  assert.equal(Object.keys(pkg.bin).sort(), ['sbx', 'sbx-exec']);
});

for (const p of projects) {
  test(`a strict TypeScript consumer type-checks against the packed package: ${p.name}`, () => {
    const dir = join(consumer, p.name.replace(/\W+/g, '-'));
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), '{ "type": "module", "private": true }\n');
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { ...strict, ...p.options }, files: ['main.ts'] }));
    writeFileSync(join(dir, 'main.ts'), p.code);
    const r = sh(process.execPath, [TSC, '-p', dir], dir);
    assert.is(r.status, 0, r.stdout + r.stderr);
  });
}

test('the packed package runs: both bins, and its exports resolve by name', () => {
  for (const bin of Object.values(pkg.bin)) {
    const r = sh(process.execPath, [join(installed, bin), '--version'], consumer);
    assert.is(r.stdout, `${pkg.version}\n`, r.stderr);
  }
  const js = `const h = await import('${pkg.name}'); const e = await import('${pkg.name}/engine');
const engine = await e.createEngine(); const env = engine.verdict(new TextEncoder().encode('ok\\n'), { exit: 0 });
console.log(typeof h.run, env.verdict.status);`;
  const r = sh(process.execPath, ['--input-type=module', '-e', js], consumer);
  assert.is(r.stdout, 'function pass\n', r.stderr);
});

test.run();
