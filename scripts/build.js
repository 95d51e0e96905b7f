// `npm run build`, and npm's prepare (npm install in a clone, npm link, npm pack): builds each part
// (build:wasm, build:native, build:host, build:types) whose inputs changed since it was last built, and
// says so for the others: npm link in a built checkout takes seconds, not a full build. What a part was
// built from is a hash of its input files' paths and bytes, with package.json, package-lock.json, Node's
// version, the architecture and $CC, kept in build/.stamps/<part> once the part has built; a part whose
// outputs are missing builds whatever its stamp says. A fresh clone has no stamps: everything builds.
// `npm run build -- --force` (or SBX_BUILD_FORCE=1) builds every part.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const force = process.argv.includes('--force') || Boolean(process.env.SBX_BUILD_FORCE);
const COMMON = ['package.json', 'package-lock.json'];

// In order: build:host bundles build/sbx.wasm's bytes and runs the launcher; its inputs name the wasm.
const PARTS = [
  { name: 'wasm', inputs: ['assembly', 'asconfig.json', 'scripts/pack-data.js'], outputs: ['build/sbx.wasm', 'build/sbx-debug.wasm'] },
  { name: 'native', inputs: ['native', 'scripts/build-native.js'], outputs: process.platform === 'linux' ? ['build/sbx-launch'] : [] },
  { name: 'host', inputs: ['src', 'build/sbx.wasm', 'scripts/build-host.js', 'tsconfig.json'], outputs: ['dist/cli.cjs', 'dist/cli-run.cjs', 'dist/cli-main.cjs', 'dist/index.js', 'dist/engine.js', 'dist/launcher.js', 'dist/viewer/main.js', 'dist/viewer/index.html'] },
  { name: 'types', inputs: ['src', 'tsconfig.json', 'tsconfig.types.json'], outputs: ['dist/types/host/index.d.ts'] },
];

function addPath(h, rel) {
  const p = join(root, rel);
  if (!existsSync(p)) { h.update(`absent ${rel}\0`); return; }
  if (statSync(p).isDirectory()) {
    for (const n of readdirSync(p).sort()) addPath(h, join(rel, n));
    return;
  }
  h.update(`file ${rel}\0`);
  h.update(readFileSync(p));
  h.update('\0');
}

function key(part) {
  const h = createHash('sha256');
  h.update(`${process.version} ${process.platform} ${process.arch} CC=${process.env.CC ?? ''}\0`);
  for (const rel of [...COMMON, ...part.inputs]) addPath(h, rel);
  return h.digest('hex');
}

const stamps = join(root, 'build', '.stamps');
for (const part of PARTS) {
  const stamp = join(stamps, part.name);
  const k = key(part);
  const built = part.outputs.every((o) => existsSync(join(root, o)));
  const last = existsSync(stamp) ? readFileSync(stamp, 'utf8').trim() : null;
  if (!force && built && last === k) {
    console.log(`build: ${part.name} is up to date (its inputs are those of its last build)`);
    continue;
  }
  rmSync(stamp, { force: true });
  console.log(`build: ${part.name} (${force ? 'forced' : !built ? 'outputs missing' : last ? 'inputs changed' : 'no record of its last build'})`);
  const r = spawnSync('npm', ['run', '--silent', `build:${part.name}`], { cwd: root, stdio: 'inherit' });
  if (r.error || r.status !== 0) {
    console.error(`build: build:${part.name} failed${r.error ? `: ${r.error.message}` : ` (exit ${r.status})`}; its output above says why`);
    process.exit(r.status || 1);
  }
  mkdirSync(stamps, { recursive: true });
  // Keyed on the inputs as they were before the part built: a part that writes one of its own inputs
  // (none does today) builds again next time rather than never.
  writeFileSync(stamp, `${k}\n`);
}
