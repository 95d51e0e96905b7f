// The exit code of a run whose command never started, as shells and env(1) have it: 127 when the
// command is not found, 126 when it is found but cannot be executed, 125 for any other set-up failure.
// The verdict's header and the CLI's exit code both use it, so they agree.

export function setupExit(code: string): number {
  if (code === 'E_CMD_NOT_FOUND') return 127;
  if (code === 'E_CMD_NOT_EXECUTABLE') return 126;
  return 125;
}
