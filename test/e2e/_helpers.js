// Shared by the end-to-end tests: `sbx run` through the real CLI (dist/cli.js, build first) on small real
// projects made in temp work dirs, as whichever user runs the tests (root in CI, an ordinary user through
// scripts/test-unprivileged.sh).
import { spawn, spawnSync } from 'node:child_process';
import { accessSync, chmodSync, constants, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { installCommand } from '../_tools.js';

export const ROOT = new URL('../../', import.meta.url).pathname;
export const CLI = join(ROOT, 'dist/cli.js');
export const FIXTURES = join(ROOT, 'fixtures');
export const isRoot = process.getuid?.() === 0;
export const who = isRoot ? 'root' : `uid ${process.getuid?.()}`;

const made = [];
process.on('exit', () => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

/** A fresh work dir (0755) removed when the test file is done; files: { 'rel/path': text }. */
export function workDir(files = {}, prefix = 'sbx-e2e-') {
  const d = mkdtempSync(join(tmpdir(), prefix));
  chmodSync(d, 0o755);
  made.push(d);
  write(d, files);
  return d;
}

export function write(dir, files) {
  for (const [rel, text] of Object.entries(files)) {
    const p = join(dir, rel);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, text);
  }
}

/** Copies a fixture's sources (not its recorded log.txt, run.json, expect.json) into dir. */
export function copyFixture(rel, dir) {
  const src = join(FIXTURES, rel);
  for (const n of readdirSync(src)) {
    if (['log.txt', 'run.json', 'expect.json'].includes(n)) continue;
    cpSync(join(src, n), join(dir, n), { recursive: true });
  }
  return dir;
}

/** `sbx run --work dir [flags] -- cmd...` through the CLI; parses --json output when asked. */
export function sbxRun(dir, cmd, { flags = [], json = true, timeout = 60_000 } = {}) {
  const args = [CLI, 'run', '--work', dir, ...(json ? ['--json'] : []), ...flags, '--', ...cmd];
  const t0 = Date.now();
  const r = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 64 << 20, timeout });
  const ms = Date.now() - t0;
  let env = null;
  if (json) {
    try { env = JSON.parse(r.stdout); } catch { throw new Error(`sbx run ${cmd.join(' ')}: not JSON (exit ${r.status}):\n${r.stdout}\n${r.stderr}`); }
  }
  const why = () => `sbx run ${cmd.join(' ')} (exit ${r.status}):\n${json ? JSON.stringify(env?.verdict, null, 1) : r.stdout}\n${r.stderr}\n--- log:\n${logText(env)}`;
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, env, verdict: env?.verdict, ms, why };
}

export function sbxRunAsync(dir, cmd, flags = []) {
  return new Promise((res) => {
    const p = spawn(process.execPath, [CLI, 'run', '--work', dir, '--json', ...flags, '--', ...cmd]);
    let out = ''; let err = '';
    p.stdout.on('data', (d) => { out += d; });
    p.stderr.on('data', (d) => { err += d; });
    p.on('close', (code) => res({ code, out, err }));
  });
}

export function logText(env) {
  try { return env?.log ? readFileSync(env.log, 'utf8') : ''; } catch { return ''; }
}

const readable = (p) => { try { accessSync(p, constants.R_OK | constants.X_OK); return true; } catch { return false; } };

/** The first executable found on the host's PATH (plus dirs), or null. */
export function which(name, extra = []) {
  for (const d of [...extra, ...(process.env.PATH ?? '').split(':')]) {
    if (!d) continue;
    const p = join(d, name);
    try { accessSync(p, constants.X_OK); if (statSync(p).isFile()) return p; } catch { /* next */ }
  }
  return null;
}

/**
 * How to run cargo inside the sandbox: { flags, why } or { skip: reason }. A rustup toolchain (e.g. root's
 * under ~/.rustup) is bound read-only at /rust with its bin dir put on PATH; a toolchain under /usr (Debian's
 * cargo) is visible as it is. CARGO_HOME points at the sandbox's /tmp: nothing is fetched (no dependencies).
 */
export function cargoSetup() {
  const home = process.env.CARGO_HOME ?? join(homedir(), '.cargo');
  const rustc = which('rustc', [join(home, 'bin')]);
  const flags = ['--env', 'CARGO_HOME=/tmp/cargo-home'];
  if (rustc) {
    const r = spawnSync(rustc, ['--print', 'sysroot'], { encoding: 'utf8' });
    const sysroot = r.status === 0 ? r.stdout.trim() : '';
    if (sysroot && !sysroot.startsWith('/usr') && readable(sysroot) && existsSync(join(sysroot, 'bin/cargo'))) {
      return { flags: [...flags, '--ro-bind', `${sysroot}:/rust`, '--env', 'PATH=/rust/bin:/usr/local/bin:/usr/bin:/bin'], why: `toolchain ${sysroot} bound at /rust` };
    }
  }
  if (existsSync('/usr/bin/cargo') && existsSync('/usr/bin/rustc')) return { flags, why: 'Debian cargo in /usr/bin' };
  return { skip: `cargo missing (none readable by ${who} under ~/.cargo or ~/.rustup, no /usr/bin/cargo); install: ${installCommand(['cargo'])}` };
}

/** How to run pytest inside the sandbox (the system's python3 with Debian's pytest), or { skip }. */
export function pytestSetup() {
  const r = spawnSync('/usr/bin/python3', ['-c', 'import pytest'], { encoding: 'utf8' });
  if (r.status === 0) return { cmd: ['/usr/bin/python3', '-m', 'pytest', '-p', 'no:cacheprovider'] };
  return { skip: `pytest missing (Debian's python3 with its pytest); install: ${installCommand(['pytest'])}` };
}

/**
 * Prints why a test does nothing on this host (not a missing package: e.g. it needs root), so it is never
 * silent. A test whose tool is missing is skipped instead (test/_tools.js: needs, skipping).
 */
export function skipNote(name, reason) {
  console.log(`  skip (${who}): ${name}: ${reason}`);
}

/** Host pids whose command line contains needle (used to prove the sandbox's processes are gone). */
export function hostPidsWith(needle) {
  const out = [];
  for (const n of readdirSync('/proc')) {
    if (!/^\d+$/.test(n)) continue;
    try {
      const cmdline = readFileSync(`/proc/${n}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (cmdline.includes(needle)) out.push(Number(n));
    } catch { /* gone */ }
  }
  return out;
}
