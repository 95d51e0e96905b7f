// The library API of sbx (Node). The browser-safe engine alone is `sbx/engine`.
export { createEngine, envelope } from './engine.js';
export type { Engine, EngineOptions, VerdictOptions, VerdictStream, RunResult, Verdict } from './engine.js';
export { SbxError } from './errors.js';
export { verdictOfFile } from './log-source.js';
export { RunResultSchema, VerdictSchema } from './schema.js';
export { run, runReport, mirrorExit } from './run.js';
export { toSarif } from './sarif.js';
export type { RunOptions, RunReport } from './run.js';
