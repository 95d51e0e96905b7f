// The system tools some suites need beyond Node 20, cc and make (all a fresh machine is assumed to
// have), and how a suite or a test whose tool is missing reports itself skipped: one line
//   SKIP <what>: <tool> missing; install: apt-get install -y <packages>
// and each of its tests counted by uvu as skipped ("Skipped: N"), never as passed or failed.
// scripts/test.js sums the skips, lists these lines and exits non-zero on a skip when CI is set (CI
// installs every tool: scripts/ci-deps.sh). Tools run inside the sandbox are looked for where the sandbox
// looks (its PATH: the system's bin dirs), tools run by a test on the host on the host's PATH.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

const SANDBOX_PATH = ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'];

function which(name, dirs) {
  for (const d of dirs) {
    if (!d) continue;
    const p = join(d, name);
    try { accessSync(p, constants.X_OK); if (statSync(p).isFile()) return p; } catch { /* next */ }
  }
  return null;
}
const onHost = (name) => which(name, (process.env.PATH ?? '').split(':'));
const inSandbox = (name) => which(name, SANDBOX_PATH);

/** name → { pkg: the Debian package(s) that install it, found(): boolean }. */
export const TOOLS = {
  chromium: { pkg: 'chromium', found: () => existsSync(process.env.SBX_CHROMIUM ?? '/usr/bin/chromium') },
  wasm2c: { pkg: 'wabt', found: () => Boolean(onHost('wasm2c')) },
  python3: { pkg: 'python3', found: () => Boolean(inSandbox('python3') && onHost('python3')) },
  pytest: { pkg: 'python3-pytest', found: () => spawnSync('/usr/bin/python3', ['-c', 'import pytest']).status === 0 },
  'g++': { pkg: 'g++', found: () => Boolean(inSandbox('g++')) },
  rustc: { pkg: 'rustc', found: () => Boolean(inSandbox('rustc')) },
  // A rustup toolchain under ~/.cargo (test/e2e binds it into the sandbox) or Debian's cargo.
  cargo: { pkg: 'cargo', found: () => Boolean(inSandbox('cargo') || which('cargo', [join(process.env.CARGO_HOME ?? join(homedir(), '.cargo'), 'bin')])) },
  cmake: { pkg: 'cmake', found: () => Boolean(onHost('cmake') && inSandbox('cmake')) },
  venv: { pkg: 'python3-venv', found: () => spawnSync('/usr/bin/python3', ['-c', 'import ensurepip, venv']).status === 0 },
  git: { pkg: 'git', found: () => Boolean(onHost('git') && inSandbox('git')) },
  'clang-format': { pkg: 'clang-format', found: () => Boolean(onHost('clang-format')) },
  // A one-node Slurm cluster (test/harness/slurm): the daemons and the client commands.
  slurm: { pkg: 'slurm-wlm munge', found: () => ['slurmctld', 'slurmd', 'munged'].every((n) => which(n, ['/usr/sbin', '/usr/bin', '/sbin'])) && Boolean(onHost('sbatch')) },
};

const cache = new Map();
/** The names among tools that this machine lacks. */
export function missing(tools) {
  return tools.filter((t) => {
    if (!TOOLS[t]) throw new Error(`test/_tools.js: unknown tool ${t}`);
    if (!cache.has(t)) cache.set(t, TOOLS[t].found());
    return !cache.get(t);
  });
}

export const installCommand = (tools) => `apt-get install -y ${[...new Set(tools.map((t) => TOOLS[t].pkg))].join(' ')}`;

const printed = new Set();
/** Prints the SKIP line once per process. */
export function skipLine(what, reason) {
  const line = `SKIP ${what}: ${reason}`;
  if (!printed.has(line)) { printed.add(line); console.log(line); }
}

/**
 * The uvu test function to register tests with: `test` itself when the tools are all here; else, after
 * the SKIP line, a stand-in on which every test registered counts as skipped and hooks do nothing
 * (its .skipping is true: guard the suite's own top-level setup with it).
 */
export function needs(what, tools, test) {
  if (test.skipping) return test; // its suite is skipped already, with its own line
  const miss = missing(tools);
  if (!miss.length) return test;
  return skipping(test, what, `${miss.join(', ')} missing; install: ${installCommand(miss)}`);
}

/** The stand-in of needs() for any other reason a suite cannot run here (reason names the fix). */
export function skipping(test, what, reason) {
  skipLine(what, reason);
  const hook = Object.assign(() => {}, { each: () => {} });
  const t = () => test.skip();
  return Object.assign(t, { skip: test.skip, only: t, before: hook, after: hook, run: test.run, skipping: true });
}
