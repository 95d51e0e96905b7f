// The engine layer's one entrance (the Wasm engine's API; browser-safe). The package's `sbx/engine`
// is built from engine.ts, the same API.
export { createEngine, envelope } from './engine.js';
export type { Delta, DeltaOptions, Engine, EngineOptions, RunResult, Verdict, VerdictOptions, VerdictStream, RunEnd, RunEnded } from './engine.js';
