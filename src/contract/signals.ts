// Signal names <-> numbers (Linux: x86_64 and arm64 agree), the one table of the TypeScript side: flags
// such as `--signal SIGSEGV`, the engine's ABI, the launcher's outcome. The engine (AssemblyScript) has
// its own copy in assembly/signals.ts; test/contract/signals.test.js keeps the two equal.
const NAMES = [
  '',
  'SIGHUP',
  'SIGINT',
  'SIGQUIT',
  'SIGILL',
  'SIGTRAP',
  'SIGABRT',
  'SIGBUS',
  'SIGFPE',
  'SIGKILL',
  'SIGUSR1',
  'SIGSEGV',
  'SIGUSR2',
  'SIGPIPE',
  'SIGALRM',
  'SIGTERM',
  'SIGSTKFLT',
  'SIGCHLD',
  'SIGCONT',
  'SIGSTOP',
  'SIGTSTP',
  'SIGTTIN',
  'SIGTTOU',
  'SIGURG',
  'SIGXCPU',
  'SIGXFSZ',
  'SIGVTALRM',
  'SIGPROF',
  'SIGWINCH',
  'SIGIO',
  'SIGPWR',
  'SIGSYS',
];

const ALIASES: Record<string, string> = { SIGIOT: 'SIGABRT', SIGPOLL: 'SIGIO', SIGCLD: 'SIGCHLD' };

/** 11, "11", "SEGV", "SIGSEGV", "sigsegv" → 11; anything else → -1. null/undefined → 0 (no signal). */
export function signalNumber(sig: string | number | null | undefined): number {
  if (sig === null || sig === undefined || sig === '') return 0;
  if (typeof sig === 'number') return Number.isInteger(sig) && sig > 0 && sig < 65 ? sig : -1;
  if (/^\d+$/.test(sig)) return signalNumber(Number(sig));
  const up = sig.toUpperCase();
  const name = up.startsWith('SIG') ? up : `SIG${up}`;
  if (/^SIG\d+$/.test(name)) return signalNumber(Number(name.slice(3))); // SIG34, as signalName() writes it
  const i = NAMES.indexOf(ALIASES[name] ?? name);
  return i > 0 ? i : -1;
}

export function signalName(n: number): string | null {
  return n > 0 && n < NAMES.length ? NAMES[n]! : n > 0 ? `SIG${n}` : null;
}

/** The exit code of a process killed by sig, as shells report it: 128 + N. */
export function exitForSignal(sig: string | number): number {
  return 128 + Math.max(signalNumber(sig), 0);
}
