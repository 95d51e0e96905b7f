// Where a command's standard streams and signals are, when it is not this process's own: the resident
// sbx (src/cli/resident/) runs the CLI's commands for many clients at once, each with its own output,
// input and Ctrl-C. A cold CLI never sets one, and pays one null check per write for it.
export interface Redirect {
  /** The command's stdout (1) or stderr (2). */
  write(fd: 1 | 2, bytes: Buffer): void;
  /** The command's stdin, read to its end (a hook's payload). */
  readonly stdin: AsyncIterable<Uint8Array>;
  /** Calls fn with the signal the command's caller got (SIGINT, SIGTERM, SIGHUP); returns the way to stop. */
  onSignal(fn: (sig: NodeJS.Signals) => void): () => void;
}

let current: (() => Redirect | undefined) | null = null;

/** The resident sbx's: fn tells which request's streams the code running now belongs to. */
export function setRedirect(fn: (() => Redirect | undefined) | null): void {
  current = fn;
}

/** The streams of the command running now, or undefined: this process's own. */
export const redirect = (): Redirect | undefined => current?.();
