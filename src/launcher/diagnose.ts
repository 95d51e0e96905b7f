// Turns a failed setup step into one line: what happened, why, and what to do about it.
import { accessSync, constants as fsConstants, existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { constants } from 'node:os';
import type { Status } from './status.js';
import type { SetupError } from './types.js';

const errnoName = new Map<number, string>(Object.entries(constants.errno).map(([k, n]) => [n, k]));
export const errnoString = (n: number): string => errnoName.get(n) ?? `errno ${n}`;

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
  if (sysctl('/proc/sys/kernel/unprivileged_userns_clone') === '0')
    return 'the kernel disallows unprivileged user namespaces; fix: `sudo sysctl -w kernel.unprivileged_userns_clone=1`';
  if (sysctl('/proc/sys/user/max_user_namespaces') === '0')
    return 'user.max_user_namespaces is 0; fix: `sudo sysctl -w user.max_user_namespaces=15000`';
  if (existsSync('/.dockerenv') || existsSync('/run/.containerenv'))
    return "the container's seccomp profile blocks namespaces; fix: run it with `--security-opt seccomp=unconfined` (or `--privileged`)";
  return 'user namespaces are not available to this user; fix: enable them (sysctl user.max_user_namespaces, kernel.unprivileged_userns_clone) or run where they are';
}

const PROC_HINT =
  "the kernel refuses a fresh /proc when the host's /proc has over-mounted paths, as in Docker and Podman containers; fix: run the container with `--security-opt systempaths=unconfined` (or `--privileged`)";

export function diagnose(status: Status, cmd0: string, env: Record<string, string>): SetupError | null {
  const e = status.error;
  if (e) {
    const err = e.errno ? `${errnoString(e.errno)}: ${e.strerror}` : e.strerror || 'failed';
    const what = `sandbox setup failed at ${e.step} (${e.detail}: ${err})`;
    if (e.step === 'userns' || ((e.step === 'mntns' || e.step === 'root') && e.errno === constants.errno.EPERM))
      return { code: 'E_NO_USERNS', message: `cannot create the sandbox's user namespace (${e.detail}: ${err}): ${userNamespaceHint()}` };
    if (e.step === 'proc') return { code: 'E_NO_PROC', message: `cannot mount /proc in the sandbox (${err}): ${PROC_HINT}` };
    if (e.step === 'bind' && e.errno === constants.errno.ENOENT)
      return { code: 'E_BIND_MISSING', message: `${what}: the path does not exist on the host; fix: create it or drop the --bind/--ro-bind` };
    if (e.step === 'chdir')
      return { code: 'E_WORK_MISSING', message: `${what}: the working directory is missing in the sandbox; fix: pass an existing --work directory` };
    return { code: 'E_SETUP', message: `${what}; fix: run \`sbx selftest\` to see which isolation step this machine refuses` };
  }
  if (status.exec_errno !== 0) {
    const name = errnoString(status.exec_errno);
    if (status.exec_errno === constants.errno.ENOENT) {
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
    if (status.exec_errno === constants.errno.EACCES || status.exec_errno === constants.errno.ENOEXEC)
      return {
        code: 'E_CMD_NOT_EXECUTABLE',
        message: `cannot execute ${cmd0} in the sandbox (${name}): it is not an executable file (or its interpreter is missing); fix: chmod +x it or name its interpreter first`,
      };
    return { code: 'E_EXEC', message: `execve ${cmd0} failed in the sandbox (${name}); fix: check the command and its interpreter` };
  }
  return null;
}
