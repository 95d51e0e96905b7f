// Ctrl-C (or SIGTERM, SIGHUP) during `sbx run`: stop the sandbox, still record the run, say so. A second
// signal while that happens exits at once. The exit code is 128+N, as when a signal kills a process.
import { exitForSignal } from '../contract/signals.js';
import { writeErr } from './closed-pipe.js';

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export interface Interrupt {
  signal: AbortSignal;
  /** The signal that interrupted the run ("SIGINT"), or null. */
  readonly by: string | null;
  /** Stops listening (the default behaviour comes back). */
  done(): void;
}

export function onInterrupt(): Interrupt {
  const ac = new AbortController();
  let by: string | null = null;
  const handler = (sig: NodeJS.Signals): void => {
    if (by !== null) process.exit(exitForSignal(sig));
    by = sig;
    writeErr(`sbx: ${sig === 'SIGINT' ? 'interrupted' : `got ${sig}`}: stopping the sandbox and recording the run (again to quit at once)\n`);
    ac.abort(sig);
  };
  for (const s of SIGNALS) process.on(s, handler);
  return {
    signal: ac.signal,
    get by() { return by; },
    done: () => { for (const s of SIGNALS) process.off(s, handler); },
  };
}
