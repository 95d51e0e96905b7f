// Ctrl-C (or SIGTERM, SIGHUP) during `sbx run`: stop the sandbox, still record the run, say so. A second
// signal while that happens exits at once. The exit code is 128+N, as when a signal kills a process.
import { exitForSignal } from '../contract/index.js';
import type { StopSignal } from '../launcher/index.js';
import { writeErr } from './closed-pipe.js';
import { redirect } from './io-redirect.js';

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export interface Interrupt {
  signal: StopSignal;
  /** The signal that interrupted the run ("SIGINT"), or null. */
  readonly by: string | null;
  /** Stops listening (the default behaviour comes back). */
  done(): void;
}

/** what: what is stopped (`sbx host` stops the command, on the host). */
export function onInterrupt(what = 'the sandbox'): Interrupt {
  let by: string | null = null;
  // A plain StopSignal, not an AbortController: run() only needs to be told once, and a cold `sbx run`
  // then does not load Node's EventTarget (~1 ms here: new AbortController() and its first listener).
  const listeners = new Set<() => void>();
  const signal: StopSignal = {
    get aborted() {
      return by !== null;
    },
    get reason() {
      return by ?? undefined;
    },
    addEventListener(_type, listener) {
      listeners.add(listener);
    },
    removeEventListener(_type, listener) {
      listeners.delete(listener);
    },
  };
  const to = redirect();
  const handler = (sig: NodeJS.Signals): void => {
    // For the resident sbx's caller, a second signal ends the client at once (native/client.c): the
    // run here goes on being stopped and recorded.
    if (by !== null && to) return;
    if (by !== null) process.exit(exitForSignal(sig));
    by = sig;
    writeErr(`sbx: ${sig === 'SIGINT' ? 'interrupted' : `got ${sig}`}: stopping ${what} and recording the run (again to quit at once)\n`);
    const told = [...listeners];
    listeners.clear(); // each is told once, as with { once: true }
    for (const l of told) l();
  };
  if (to) {
    const off = to.onSignal(handler);
    return {
      signal,
      get by() {
        return by;
      },
      done: off,
    };
  }
  for (const s of SIGNALS) process.on(s, handler);
  return {
    signal,
    get by() {
      return by;
    },
    done: () => {
      for (const s of SIGNALS) process.off(s, handler);
    },
  };
}
