// A fresh engine's first verdict costs milliseconds (V8 compiles the Wasm functions and the JS around
// them on first call); later ones cost microseconds. run() warms a process's engine while the sandbox
// runs, once it has run a few milliseconds (src/host/run.ts), when the main thread has nothing else to do. The engine is pure (bytes in, bytes out, state
// reset at every entry point), so this leaves nothing behind.
//
// The warm-up goes in steps, each in its own turn of the event loop, and stops once the sandbox has
// exited: the main thread is then the real verdict's, which compiles only what it uses. What every
// run uses comes first (a run's end as run() makes it: the verdict of an empty log, its key, delta and
// text in one call), then a compiler error's parse and its delta against the first: a short command (a
// cold `sbx run -- /bin/true`) gets no warm-up, a long one finds the engine warm.
import type { Engine, RunResult } from '../engine/index.js';

const GCC = new TextEncoder().encode("main.c:1:5: error: expected ';' before '}' token\nmake: *** [Makefile:2: all] Error 1\n");
type Step = (engine: Engine, env: RunResult | null) => RunResult | null;
/** A run's end as sbx run gives it (the verdict, its key, delta and text in one call), after prev. */
const ended = (engine: Engine, log: Uint8Array, exit: number, prev: RunResult | null): RunResult => {
  const s = engine.stream({ exit });
  s.push(log);
  return s.end({ outcome: null, prev: prev?.verdict ?? null, prevKey: prev ? '' : null, prevRuns: 1 }).env;
};
const STEPS: Step[] = [(engine) => ended(engine, new Uint8Array(0), 0, null), (engine, env) => ended(engine, GCC, 2, env)];
/** Each engine's warm-up so far: the steps taken and the envelope the next one works on. */
const progress = new WeakMap<Engine, { taken: number; env: RunResult | null }>();

/** Warms `engine` a step per turn of the event loop, until it is warm or `stop()` says the main thread is needed. */
export function warmEngine(engine: Engine, stop: () => boolean = () => false): void {
  let p = progress.get(engine);
  if (!p) progress.set(engine, (p = { taken: 0, env: null }));
  const at = p;
  const step = (): void => {
    if (at.taken >= STEPS.length || stop()) return;
    try {
      at.env = STEPS[at.taken++]!(engine, at.env);
    } catch {
      at.taken = STEPS.length; // a warm-up that fails changes nothing: the real verdict reports its own errors
      return;
    }
    setImmediate(step);
  };
  step();
}
