// The rewrite every client's pre-hook shares: a build/test/run command line becomes
// `node /abs/dist/cli.js run --work <project> --timeout N --brief -- bash -c '<original>'`, the original quoted
// whole so that `a && b` runs both in the sandbox; a build/test line kept on the host, `… host … -- bash -c
// '<original>'`. What in the project steers the host (.git, .claude,
// sbx.config.json, at any depth) every sbx run keeps read-only itself (src/host/control-files.ts).
import { accessSync, constants, existsSync, realpathSync } from 'node:fs';
import { dirname, join, relative, isAbsolute, resolve } from 'node:path';
import { classify, splitCommands } from './rules.js';
import type { HookConfig } from './config.js';
import { shellQuote } from '../../host/index.js';

/**
 * How to start this very sbx: `'node' '/abs/dist/cli.js'`, resolved when the hook runs, or its native
 * client (build/sbx-client, which hands the call to the resident sbx: src/cli/resident/) when built.
 */
export interface Self {
  node: string;
  cli: string;
  client?: string;
}

/**
 * The sbx this process runs as, by real path, for the commands hooks write: dist/cli.cjs when started as
 * dist/cli.js (an ES module that only imports cli.cjs, and costs every start Node's ES module loader).
 */
export function selfCli(argv1: string): string {
  let real = argv1;
  try {
    real = realpathSync(argv1);
  } catch {
    /* keep argv[1] */
  }
  const cjs = real.replace(/cli\.js$/, 'cli.cjs');
  return cjs !== real && existsSync(cjs) ? cjs : real;
}

/**
 * build/sbx-client of the install whose CLI is `cli`, when it was built (scripts/build-native.js) and
 * SBX_RESIDENT is not 0; else undefined, and hooks and rewrites name node and the CLI.
 */
export function residentClient(cli: string): string | undefined {
  if (process.env.SBX_RESIDENT === '0') return undefined;
  const client = join(dirname(dirname(cli)), 'build', 'sbx-client');
  try {
    accessSync(client, constants.X_OK);
    return client;
  } catch {
    return undefined;
  }
}

export function sbxPrefix(self: Self, sub: 'run' | 'host' = 'run'): string {
  return self.client ? `${shellQuote(self.client)} ${sub}` : nodePrefix(self, sub);
}

const nodePrefix = (self: Self, sub: 'run' | 'host'): string => `${shellQuote(self.node)} ${shellQuote(self.cli)} ${sub}`;

/** A command line that already starts sbx (rewritten by the pre-hook, or typed by the model). */
export function isSbxCommand(command: string, self: Self): boolean {
  const c = command.trimStart();
  const ours = (['run', 'host'] as const).some((sub) => c.startsWith(`${sbxPrefix(self, sub)} `) || c.startsWith(`${nodePrefix(self, sub)} `));
  return ours || /^(npx\s+)?sbx(-exec)?\s/.test(c);
}

/** The project dir the sandbox mounts at /work: Claude's project dir when cwd is inside it, else cwd. */
export function workDirOf(cwd: string, projectDir: string | undefined): { work: string; sub: string } {
  if (projectDir) {
    const rel = relative(resolve(projectDir), resolve(cwd));
    if (!rel.startsWith('..') && !isAbsolute(rel)) return { work: resolve(projectDir), sub: rel };
  }
  return { work: resolve(cwd), sub: '' };
}

/** A pre-hook's rewrite: the line in the sandbox, or (a build/test line that must stay on the host) through `sbx host`. */
export interface Rewrite {
  command: string;
  reason: string;
  where: 'sandbox' | 'host';
}

/**
 * What a pre-hook makes of a command line, shared by every client's: a line the tables (rules.ts) send to
 * the sandbox becomes `sbx run … -- bash -c LINE`; a build/test line kept on the host by a host-table
 * command on it becomes `sbx host … -- bash -c LINE` (it runs as written, on the host, and the model gets
 * its output when small, its verdict when not: host-run.ts), so no post-hook is needed; null: every other
 * line, and every line with `"rewrite": false`. `keepsCwd`: the client keeps the shell's directory between
 * calls (Claude Code), so a host line that changes it (`cd`, `pushd`, `popd`) is left as it is, not run
 * in a `bash -c` whose `cd` would be lost.
 */
export function rewriteLine(command: string, cwd: string, projectDir: string | undefined, cfg: HookConfig, self: Self, seconds: number, keepsCwd = false): Rewrite | null {
  if (!cfg.rewrite || isSbxCommand(command, self)) return null;
  const d = classify(command, cfg);
  const { work, sub } = workDirOf(cwd, projectDir);
  if (d.action !== 'sandbox') {
    const build = classify(command, { sandbox: cfg.sandbox, host: [] });
    if (build.action !== 'sandbox' || (keepsCwd && changesDir(command))) return null;
    const line = [sbxPrefix(self, 'host'), '--work', shellQuote(work), '--timeout', String(seconds), '--distil-bytes', String(cfg.distilBytes), '--', 'bash', '-c', shellQuote(command)].join(' ');
    return { command: line, reason: `sbx: ${d.reason}, so this \`${build.matched}\` line runs there, through sbx host (its log kept, its verdict given when the output is long)`, where: 'host' };
  }
  const script = sub ? `cd ${shellQuote(sub)} || exit 125\n${command}` : command;
  // --brief: an 8-byte output reaches the model as itself under the status line, not as a longer verdict.
  const line = [sbxPrefix(self), '--work', shellQuote(work), '--timeout', String(seconds), '--brief', ...cfg.flags.map(shellQuote), '--', 'bash', '-c', shellQuote(script)].join(' ');
  return { command: line, reason: `sbx: \`${d.matched}\` runs in the sbx sandbox (no network, only the project dir writable)`, where: 'sandbox' };
}

const CD = new Set(['cd', 'pushd', 'popd']);
const changesDir = (line: string): boolean => splitCommands(line).some((words) => CD.has(words[0] ?? ''));
