// Shared by the launcher tests: temp dirs, the probe helper compiled with cc, and a run() that
// returns the outcome with the output as text. Imports the bundle: build first
// (npm run build:native && npx esbuild src/launcher/index.ts --bundle --platform=node --format=esm --outfile=dist/launcher.js).
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch } from '../../dist/launcher.js';

export const here = dirname(fileURLToPath(import.meta.url));
export const isRoot = process.getuid?.() === 0;

const made = [];
process.on('exit', () => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

/** A fresh host directory (mode 0755) for one test, removed when the test file is done. */
export function tempDir(prefix = 'sbx-test-') {
  const d = mkdtempSync(join(tmpdir(), prefix));
  chmodSync(d, 0o755);
  made.push(d);
  return d;
}

let probeDir = null;
/** Compiles test/launcher/probe.c once; the directory is bound read-only at /probe. */
export function probeBin() {
  if (probeDir) return probeDir;
  const dir = tempDir('sbx-probe-');
  const r = spawnSync('cc', ['-O1', '-o', join(dir, 'probe'), join(here, 'probe.c')], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`cc probe.c failed: ${r.error?.message ?? r.stderr}`);
  probeDir = dir;
  return dir;
}

/** Runs cmd in the sandbox; returns the result plus the combined output as a string. */
export async function run(cmd, opts = {}) {
  const work = opts.work ?? tempDir();
  const logPath = opts.logPath ?? join(tempDir('sbx-log-'), 'run.log');
  const roBind = [...(opts.roBind ?? [])];
  if (opts.probe) roBind.push({ src: probeBin(), dst: '/probe' });
  const r = await launch({ timeout: 30, ...opts, cmd, work, logPath, roBind });
  const out = Buffer.from(r.tail).toString('utf8');
  return { ...r, out, work, log: () => readFileSync(logPath, 'utf8') };
}

/** Runs `sh -c script`. */
export const sh = (script, opts) => run(['/bin/sh', '-c', script], opts);

export function mkdirp(p) {
  mkdirSync(p, { recursive: true });
  return p;
}
