// Linux signal numbers and names (x86_64 and arm64 agree on these).
const NAMES: string[] = [
  "", "SIGHUP", "SIGINT", "SIGQUIT", "SIGILL", "SIGTRAP", "SIGABRT", "SIGBUS", "SIGFPE", "SIGKILL",
  "SIGUSR1", "SIGSEGV", "SIGUSR2", "SIGPIPE", "SIGALRM", "SIGTERM", "SIGSTKFLT", "SIGCHLD", "SIGCONT",
  "SIGSTOP", "SIGTSTP", "SIGTTIN", "SIGTTOU", "SIGURG", "SIGXCPU", "SIGXFSZ", "SIGVTALRM", "SIGPROF",
  "SIGWINCH", "SIGIO", "SIGPWR", "SIGSYS",
];

export function signalName(n: i32): string | null {
  if (n <= 0 || n >= NAMES.length) return n > 0 ? "SIG" + n.toString() : null;
  return NAMES[n];
}

export function signalNumber(name: string): i32 {
  for (let i = 1; i < NAMES.length; i++) if (NAMES[i] == name) return i;
  return 0;
}
