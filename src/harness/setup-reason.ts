// Why a task's command could not run in the sandbox, in words: a task whose toolchain the sandbox does not
// show (a rustup toolchain under ~/.cargo and ~/.rustup, on a machine without a system rustc) otherwise
// fails as a bare "setup-failed, exit 127" (issue 33).
import { accessSync, constants, realpathSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Verdict } from '../host/index.js';

const PACKAGE: Record<string, string> = {
  rustc: 'rustc',
  cargo: 'cargo',
  gcc: 'gcc',
  cc: 'gcc',
  'g++': 'g++',
  'c++': 'g++',
  clang: 'clang',
  python3: 'python3',
  make: 'make',
  go: 'golang-go',
  node: 'nodejs',
};
/** Where the sandbox shows the host's programs (spec.ts SYSTEM_PATHS). */
const SHOWN = /^\/(usr|bin|sbin|lib|lib32|lib64|libx32|etc|opt)(\/|$)/;

/** The program a shell could not find: "sh: 1: rustc: not found", "bash: rustc: command not found". */
export function missingProgram(setupError: string): string | null {
  const m = /(?:^|\n)[^\n]*?:\s(?:line \d+: |\d+: )?([^\s:]+): (?:command )?not found/.exec(setupError);
  return m?.[1] ?? null;
}

function onHost(name: string, path = process.env.PATH ?? ''): string | null {
  for (const dir of path.split(':')) {
    if (!dir.startsWith('/')) continue;
    try {
      accessSync(join(dir, name), constants.X_OK);
      return join(dir, name);
    } catch {
      /* not here */
    }
  }
  return null;
}

/** One line: what is missing and what to do; null when the verdict is not a setup failure. */
export function setupReason(v: Verdict, path?: string): string | null {
  if (v.status !== 'setup-failed') return null;
  const said = (v.setup_error ?? '').split('\n')[0]!.trim();
  const tool = missingProgram(v.setup_error ?? '');
  if (!tool) return `the command could not run in the sandbox (${said || `exit ${v.exit.code ?? 'none'}`})`;
  const pkg = PACKAGE[tool] ?? tool;
  const host = onHost(tool, path);
  if (!host) return `${tool} is not installed (${said}): install it (e.g. apt-get install ${pkg})`;
  if (SHOWN.test(host)) return `${tool} is ${host} on this host but the sandbox cannot run it (${said}): check that it and its libraries are under /usr`;
  let real = host;
  try {
    real = realpathSync(host);
  } catch {
    /* keep the path */
  }
  const rustup = basename(real) === 'rustup';
  return `${tool} is not in the sandbox (${said}): on this host it is ${host}${rustup ? ', a rustup proxy whose toolchain lives in a home directory' : ''}, which the sandbox does not show; fix: install a system ${tool} under /usr (e.g. apt-get install ${pkg})`;
}
