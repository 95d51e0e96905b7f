// Linux signal numbers and names (x86_64 and arm64 agree on these), and the words shells and make print
// for a child a signal killed ("Segmentation fault (core dumped)").
import { Char } from "./util/chars";
import { Line } from "./util/line";

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

/** strsignal()'s words (what bash, dash and make print) and the signal each names, in pairs. */
export const SIGNAL_WORDS: string[] = [
  "Segmentation fault", "SIGSEGV",
  "Aborted", "SIGABRT",
  "Floating point exception", "SIGFPE",
  "Bus error", "SIGBUS",
  "Illegal instruction", "SIGILL",
  "Killed", "SIGKILL",
  "Terminated", "SIGTERM",
  "Trace/breakpoint trap", "SIGTRAP",
  "Bad system call", "SIGSYS",
];

/** Index into SIGNAL_WORDS of the words at p, or -1. The first byte rejects most lines. */
export function signalWordsAt(l: Line, p: i32): i32 {
  let c = l.at(p);
  if (c != Char.S && c != Char.A && c != Char.F && c != Char.B && c != Char.I && c != Char.K && c != Char.T) return -1;
  for (let i = 0; i < SIGNAL_WORDS.length; i += 2) {
    if (l.matchAt(SIGNAL_WORDS[i], p)) return i;
  }
  return -1;
}
