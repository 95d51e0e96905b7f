// The resident sbx runs several clients' commands in one process at once. What the CLI reads of its
// process (cwd, environment, home dir, standard streams, signals, the engine) is made per request
// here: an AsyncLocalStorage holds the request a piece of code runs for, and process.cwd(),
// process.env and os.homedir() answer from it (path.resolve() asks process.cwd()). Code that runs
// for no request (the server's own) sees the process's real ones.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Engine } from '../../engine/index.js';
import { setRedirect, type Redirect } from '../io-redirect.js';
import { setEngineProvider } from '../../host/index.js';
import { nodeOs } from '../../launcher/index.js';

export interface Call {
  cwd: string;
  env: Record<string, string>;
  io: Redirect;
  /** This request's engine, taken from the pool on first use. */
  engine?: Promise<Engine>;
}

export const calls = new AsyncLocalStorage<Call>();

/** Installs the per-request views; engineFor gives a request its engine. Once per process. */
export function installCallViews(engineFor: (call: Call) => Promise<Engine>): void {
  const realCwd = process.cwd.bind(process);
  process.cwd = () => calls.getStore()?.cwd ?? realCwd();

  const base = process.env;
  const envOf = (): Record<string, string | undefined> => calls.getStore()?.env ?? base;
  process.env = new Proxy({} as NodeJS.ProcessEnv, {
    get: (_t, k) => (typeof k === 'string' ? envOf()[k] : undefined),
    set: (_t, k, v) => {
      if (typeof k === 'string') envOf()[k] = String(v);
      return true;
    },
    has: (_t, k) => typeof k === 'string' && Object.hasOwn(envOf(), k),
    deleteProperty: (_t, k) => {
      if (typeof k === 'string') delete envOf()[k];
      return true;
    },
    ownKeys: () => Object.keys(envOf()),
    getOwnPropertyDescriptor: (_t, k) => {
      const v = typeof k === 'string' ? envOf()[k] : undefined;
      return v === undefined ? undefined : { value: v, writable: true, enumerable: true, configurable: true };
    },
  });

  // Node's homedir() reads $HOME of the real environment (libuv), not process.env.
  const os = nodeOs();
  const realHome = os.homedir.bind(os);
  (os as { homedir: () => string }).homedir = () => calls.getStore()?.env.HOME || realHome();

  setRedirect(() => calls.getStore()?.io);
  setEngineProvider(() => {
    const call = calls.getStore();
    if (!call) return undefined;
    call.engine ??= engineFor(call);
    return call.engine;
  });
}
