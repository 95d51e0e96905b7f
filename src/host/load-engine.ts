// One engine instance per process, created on first use.
import { createEngine, type Engine } from '../engine/index.js';
import wasmBytes from '../../build/sbx.wasm';
import { utf8Text } from './utf8-text.js';

let engine: Promise<Engine> | null = null;
let provider: (() => Promise<Engine> | undefined) | null = null;

/**
 * For a process that runs several commands at once (the resident sbx, src/cli/resident/): fn gives the
 * engine of the command running now. An engine reads one log at a time, and a long log is read
 * across turns of the event loop, so commands running side by side each need their own.
 */
export function setEngineProvider(fn: (() => Promise<Engine> | undefined) | null): void {
  provider = fn;
}

export function loadEngine(): Promise<Engine> {
  const own = provider?.();
  if (own) return own;
  engine ??= createEngine({ decodeUtf8: utf8Text });
  return engine;
}

/**
 * Starts compiling the engine now, on V8's background threads (WebAssembly.compile), for a run that
 * needs it once its sandbox is up: started as a cold `sbx run` begins, the compile is done while this
 * thread checks the work dir, opens the state and plans the spec (~4 ms), before the launcher needs
 * the other CPU; loadEngineNow() then finds it made. A compile that fails is reported by whoever
 * awaits the engine, as before (never as an unhandled rejection of a run that failed earlier).
 */
export function startEngine(): void {
  if (provider || engine) return;
  engine = createEngine({ decodeUtf8: utf8Text });
  engine.catch(() => undefined);
}

/**
 * The same engine, compiled on this thread now if it is not yet (a cold `sbx run` does it while the
 * sandbox runs: new WebAssembly.Module takes ~1.2 ms here, where WebAssembly.compile's background
 * job held the verdict up 2-3 ms and took CPU from the launcher). A module that does not compile
 * rejects the promise, as loadEngine() would.
 */
export function loadEngineNow(): Promise<Engine> {
  const own = provider?.();
  if (own) return own;
  if (!engine) {
    try {
      engine = createEngine({ wasm: new WebAssembly.Module(wasmBytes), decodeUtf8: utf8Text });
    } catch (err) {
      engine = Promise.reject(err);
    }
  }
  return engine;
}
