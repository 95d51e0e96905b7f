// Every error code of sbx, with the exit code the CLI ends with when it is raised, and (for set-up
// failures of a run) the exit code that mirrors a command that never started. One table: the CLI,
// the verdict's header and the docs read it.
//
// Exit codes follow sysexits(3) where one fits: 2 bad input or usage, 69 a part of sbx is missing or
// this machine cannot sandbox, 70 a bug in sbx, 73 the state cannot be written, 75 try again,
// 77 refused for safety. A run whose command never started exits 125, 126 (found, not executable)
// or 127 (not found), as env(1) and container runtimes do.

interface CodeInfo {
  /** The CLI's exit code when the error is raised. */
  exit: number;
  /** When a run's set-up fails with it: the exit code that mirrors the command's. */
  setup?: number;
}

export const ERROR_CODES = {
  E_USAGE: { exit: 2 },
  E_BAD_OPTIONS: { exit: 2 },
  E_BAD_MOUNT: { exit: 2, setup: 125 },
  E_SIGNAL: { exit: 2 },
  E_SESSION: { exit: 2 },
  E_LOG_DIR: { exit: 2 },
  E_JUNIT_EMPTY: { exit: 2 },
  E_JUNIT_INVALID: { exit: 2 },
  E_NO_STATE: { exit: 2 },
  E_CONFIG: { exit: 2 },
  E_SETTINGS: { exit: 2 },
  E_NOT_SBX_LOG: { exit: 2 },
  E_NO_LOG: { exit: 2 },
  E_WORK_MISSING: { exit: 2, setup: 125 },
  E_WORK_ACCESS: { exit: 2, setup: 125 },
  E_BIND_MISSING: { exit: 2, setup: 125 },
  E_CMD_NOT_FOUND: { exit: 127, setup: 127 },
  E_CMD_NOT_EXECUTABLE: { exit: 126, setup: 126 },
  E_EXEC: { exit: 126, setup: 126 },
  E_STATE: { exit: 73 },
  // A write of sbx's own (the state, the log, the launcher's spec or report) found no space (ENOSPC, EDQUOT).
  E_DISK_FULL: { exit: 73, setup: 125 },
  E_STATE_SYMLINK: { exit: 77 },
  E_SYMLINK_PATH: { exit: 77, setup: 125 },
  E_WORK_HAS_SBX: { exit: 77 },
  E_UNSAFE_AS_ROOT: { exit: 77, setup: 125 },
  E_TOO_MANY_CONTROL: { exit: 77, setup: 125 },
  E_WORK_HOME: { exit: 77 },
  E_WORK_OUTSIDE: { exit: 77 },
  // A file sbx reads where the sandbox writes is a FIFO, device, socket or directory (src/launcher/safe-read.ts), or too big.
  E_NOT_REGULAR: { exit: 77 },
  E_FILE_TOO_BIG: { exit: 77 },
  E_LOCKED: { exit: 75 },
  E_BUSY: { exit: 75 },
  E_NO_LAUNCHER: { exit: 69, setup: 125 },
  E_LAUNCHER: { exit: 69, setup: 125 },
  E_LAUNCHER_VERSION: { exit: 69, setup: 125 },
  E_NO_SECCOMP_TABLE: { exit: 69, setup: 125 },
  E_NO_USERNS: { exit: 69, setup: 125 },
  E_NO_PROC: { exit: 69, setup: 125 },
  E_SETUP: { exit: 69, setup: 125 },
  E_NO_VIEWER: { exit: 69 },
  // The resident sbx (sbx daemon): no private directory for its socket.
  E_NO_RESIDENT_DIR: { exit: 69 },
  // The experiment harness (src/harness): input it cannot use, a model API that cannot be reached.
  E_NO_TASKS: { exit: 2 },
  E_BAD_TASK: { exit: 2 },
  E_NO_RESULTS: { exit: 2 },
  E_NO_RECORDING: { exit: 2 },
  E_BAD_RECORDING: { exit: 2 },
  E_REPLAY_DIVERGED: { exit: 2 },
  E_NO_KEY: { exit: 2 },
  E_MODEL_API: { exit: 69 },
  E_ENGINE: { exit: 70 },
  E_ENVELOPE: { exit: 70 },
  E_DELTA: { exit: 70 },
  E_INTERNAL: { exit: 70 },
} as const satisfies Record<string, CodeInfo>;

export type ErrorCode = keyof typeof ERROR_CODES;

/**
 * The CLI's exit code for an error code. Codes made from an errno while reading a file the user
 * named (E_ENOENT, E_EACCES, ...) are bad input: 2.
 */
export function exitFor(code: string): number {
  return (ERROR_CODES as Record<string, CodeInfo>)[code]?.exit ?? 2;
}

/** The exit code of a run whose command never started, for its set-up error code. */
export function setupExit(code: string): number {
  return (ERROR_CODES as Record<string, CodeInfo>)[code]?.setup ?? 125;
}
