// Turns a failed setup step into one line: what happened, why, and what to do about it.
import { accessSync, closeSync, constants as fsConstants, existsSync, openSync, readFileSync, readSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, posix } from 'node:path';
import { constants } from 'node:os';
import { SYSTEM_PATHS, type WorkAlias } from './spec.js';
import { realOr } from './trusted-path.js';
import type { Status } from './status.js';
import type { SetupError } from './types.js';

// Built on the first failed step, not with the module: a run that sets up fine never needs it.
let errnoName: Map<number, string> | null = null;
export const errnoString = (n: number): string => (errnoName ??= new Map(Object.entries(constants.errno).map(([k, v]) => [v, k]))).get(n) ?? `errno ${n}`;

/** Where the caller's own PATH finds cmd, when that is outside the sandbox's system dirs. */
function onHostPath(cmd: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(':')) {
    if (!dir.startsWith('/') || /^\/(usr|bin|sbin|lib)(\/|$)/.test(dir)) continue;
    const p = join(dir, cmd);
    try {
      accessSync(p, fsConstants.X_OK);
      return p;
    } catch {
      // not here
    }
  }
  return null;
}

function sysctl(path: string): string | null {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return null;
  }
}

/** Why user namespaces are unavailable here, and the fix, from the host's knobs. */
export function userNamespaceHint(): string {
  if (sysctl('/proc/sys/kernel/apparmor_restrict_unprivileged_userns') === '1')
    return 'AppArmor restricts unprivileged user namespaces (Ubuntu 23.10+); fix: `sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0`, or an AppArmor profile that grants `userns` to build/sbx-launch';
  if (sysctl('/proc/sys/kernel/unprivileged_userns_clone') === '0') return 'the kernel disallows unprivileged user namespaces; fix: `sudo sysctl -w kernel.unprivileged_userns_clone=1`';
  if (sysctl('/proc/sys/user/max_user_namespaces') === '0') return 'user.max_user_namespaces is 0; fix: `sudo sysctl -w user.max_user_namespaces=15000`';
  if (existsSync('/.dockerenv') || existsSync('/run/.containerenv'))
    return "the container's seccomp profile blocks namespaces; fix: run it with `--security-opt seccomp=unconfined` (or `--privileged`)";
  return 'user namespaces are not available to this user; fix: enable them (sysctl user.max_user_namespaces, kernel.unprivileged_userns_clone) or run where they are';
}

/** A path inside the host directories the sandbox shows (spec.ts's SYSTEM_PATHS). */
const SYSTEM_DIRS = new RegExp(`^(${SYSTEM_PATHS.join('|')})(/|$)`);

/**
 * The host file behind a sandbox path: /work/... is the work dir, and so is the work dir's host path where the
 * sandbox shows it too (alias); system dirs are the host's own; else null.
 */
function hostFile(sandboxPath: string, work: string | undefined, alias: string | null): string | null {
  const p = posix.normalize(sandboxPath);
  let host: string | null = null;
  if (work && (p === '/work' || p.startsWith('/work/'))) host = join(work, p.slice('/work'.length));
  else if (work && alias !== null && (p === alias || p.startsWith(`${alias}/`))) host = join(work, p.slice(alias.length));
  else if (SYSTEM_DIRS.test(p)) host = p;
  if (host === null) return null;
  try {
    // A symlink may lead out of what the sandbox shows (e.g. /usr/bin/x -> /home/...): then it is missing there.
    const real = realpathSync.native(host);
    const inside = (work !== undefined && (real === realpathSync.native(work) || real.startsWith(`${realpathSync.native(work)}/`))) || SYSTEM_DIRS.test(real);
    return inside && statSync(real).isFile() ? real : null;
  } catch {
    return null;
  }
}

/** The file execve found for cmd0 (by its path, or on the sandbox's PATH), as a host path, or null. */
function commandFile(cmd0: string, env: Record<string, string>, work: string | undefined, alias: string | null): string | null {
  if (cmd0.includes('/')) return hostFile(posix.isAbsolute(cmd0) ? cmd0 : posix.join('/work', cmd0), work, alias);
  for (const dir of (env.PATH ?? '').split(':')) {
    const f = dir.startsWith('/') ? hostFile(posix.join(dir, cmd0), work, alias) : null;
    if (f) return f;
  }
  return null;
}

/** The interpreter a script's #! line names, or null when the file does not start with #!. */
function shebang(file: string): string | null {
  try {
    const fd = openSync(file, 'r');
    const buf = Buffer.alloc(256);
    const n = readSync(fd, buf, 0, buf.length, 0);
    closeSync(fd);
    const head = buf.subarray(0, n).toString('latin1');
    if (!head.startsWith('#!')) return null;
    return head.slice(2).split('\n')[0]!.trim().split(/[ \t]/)[0] || '(empty)';
  } catch {
    return null;
  }
}

/**
 * execve's ENOENT for a file that exists: the interpreter it names is missing (a script's #! line, or an
 * ELF program's loader). Bash calls this "bad interpreter" and exits 126, as sbx does.
 */
function missingInterpreter(cmd0: string, env: Record<string, string>, work: string | undefined, alias: WorkAlias | null): SetupError | null {
  const file = commandFile(cmd0, env, work, alias?.path ?? null);
  if (file === null) return null;
  const interp = shebang(file);
  const host = work === undefined ? null : realOr(work);
  // A venv made on the host names the work dir's host path, which the sandbox shows unless it could not (alias.reason).
  const atHost = interp !== null && host !== null && alias?.path == null && (interp === host || interp.startsWith(`${host}/`));
  const message = atHost
    ? `cannot execute ${cmd0} in the sandbox: its #! line names ${interp}, under the work dir's host path, which the sandbox shows only as /work here (${alias?.reason ?? 'not shown'}); fix: run it through its interpreter at /work${interp.slice(host.length)} (e.g. /work${interp.slice(host.length)} ${cmd0})`
    : interp
      ? `cannot execute ${cmd0} in the sandbox: its #! line names the interpreter ${interp}, which does not exist there; fix: correct the #! line (e.g. #!/bin/sh or #!/usr/bin/env python3), or run it as INTERPRETER ${cmd0}`
      : `cannot execute ${cmd0} in the sandbox: the file exists but the program loader it needs (its ELF interpreter) does not; fix: build it for this system, or --ro-bind the loader's directory`;
  return { code: 'E_CMD_NOT_EXECUTABLE', message };
}

const PROC_HINT =
  "the kernel refuses a fresh /proc when the host's /proc has over-mounted paths, as in Docker and Podman containers; fix: run the container with `--security-opt systempaths=unconfined` (or `--privileged`)";

/** work: the host work dir (mounted at /work), used to look at the command's file when execve fails. */
export function diagnose(status: Status, cmd0: string, env: Record<string, string>, work?: string, alias: WorkAlias | null = null): SetupError | null {
  const e = status.error;
  if (e) {
    const err = e.errno ? `${errnoString(e.errno)}: ${e.strerror}` : e.strerror || 'failed';
    const what = `sandbox setup failed at ${e.step} (${e.detail}: ${err})`;
    if (e.step === 'userns' || ((e.step === 'mntns' || e.step === 'root') && e.errno === constants.errno.EPERM))
      return { code: 'E_NO_USERNS', message: `cannot create the sandbox's user namespace (${e.detail}: ${err}): ${userNamespaceHint()}` };
    if (e.step === 'proc') return { code: 'E_NO_PROC', message: `cannot mount /proc in the sandbox (${err}): ${PROC_HINT}` };
    if (e.step === 'bind' && e.errno === constants.errno.ENOENT)
      return { code: 'E_BIND_MISSING', message: `${what}: the path does not exist on the host; fix: create it or drop the --bind/--ro-bind` };
    if (e.step === 'chdir') return { code: 'E_WORK_MISSING', message: `${what}: the working directory is missing in the sandbox; fix: pass an existing --work directory` };
    return { code: 'E_SETUP', message: `${what}; fix: run \`sbx selftest\` to see which isolation step this machine refuses` };
  }
  if (status.exec_errno !== 0) {
    const name = errnoString(status.exec_errno);
    if (status.exec_errno === constants.errno.ENOENT) {
      const interp = missingInterpreter(cmd0, env, work, alias);
      if (interp) return interp;
      if (cmd0.includes('/'))
        return {
          code: 'E_CMD_NOT_FOUND',
          message: `command not found in the sandbox: ${cmd0} does not exist there; fix: use a path under /work or /usr, or --ro-bind its directory`,
        };
      const host = onHostPath(cmd0);
      if (host) {
        // e.g. ~/.cargo/bin/cargo: bind the installation, put its bin dir on PATH.
        const bin = dirname(host);
        const install = basename(bin) === 'bin' ? dirname(bin) : bin;
        const dst = `/tools/${basename(install).replace(/^\./, '')}`;
        const dstBin = install === bin ? dst : `${dst}/bin`;
        return {
          code: 'E_CMD_NOT_FOUND',
          message: `command not found in the sandbox: ${cmd0} is ${host} on the host, which the sandbox does not show; fix: --ro-bind ${install}:${dst} --env PATH=${dstBin}:${env.PATH ?? '/usr/bin:/bin'} (and its home variables, e.g. CARGO_HOME, if it needs them)`,
        };
      }
      return {
        code: 'E_CMD_NOT_FOUND',
        message: `command not found in the sandbox: ${cmd0} is not on PATH (${env.PATH ?? 'unset'}); fix: install it under /usr, call it by a path under /work, or --ro-bind its directory and set PATH with --env`,
      };
    }
    if (status.exec_errno === constants.errno.EACCES)
      return {
        code: 'E_CMD_NOT_EXECUTABLE',
        message: `cannot execute ${cmd0} in the sandbox (${name}): it is not executable (no x permission, or a directory); fix: chmod +x it, or name its interpreter first (e.g. sh ${cmd0})`,
      };
    if (status.exec_errno === constants.errno.ENOEXEC)
      return {
        code: 'E_CMD_NOT_EXECUTABLE',
        message: `cannot execute ${cmd0} in the sandbox (${name}): it is neither a program for this machine nor a script with a #! line; fix: add a #! line (e.g. #!/bin/sh) or name its interpreter first (e.g. sh ${cmd0})`,
      };
    return { code: 'E_EXEC', message: `execve ${cmd0} failed in the sandbox (${name}); fix: check the command and its interpreter` };
  }
  return null;
}
