// A fresh engine's first verdict costs milliseconds (V8 compiles the Wasm functions and the JS around
// them on first call); later ones cost microseconds. run() warms a process's engine on a small log
// while the sandbox runs, when the main thread has nothing else to do. The engine is pure (bytes
// in, bytes out, state reset at every entry point), so this leaves nothing behind.
import type { Engine } from '../engine/engine.js';

const SAMPLE = new TextEncoder().encode('main.c:1:5: error: expected \';\' before \'}\' token\nmake: *** [Makefile:2: all] Error 1\n');
const warmed = new WeakSet<Engine>();

export function warmEngine(engine: Engine): void {
  if (warmed.has(engine)) return;
  warmed.add(engine);
  try {
    const env = engine.verdict(SAMPLE, { exit: 2 });
    env.delta = engine.delta(null, env.verdict, { sameRuns: 1 });
    engine.render(env); // the CLI renders every verdict: its first render compiles too
  } catch {
    // a warm-up that fails changes nothing: the real verdict reports its own errors
  }
}
