// The library API of sbx (Node). The browser-safe engine alone is `sbx/engine`.
import { contract } from '../contract/schema.js';

export { createEngine, envelope } from '../engine/engine.js';
export type { Engine, EngineOptions, VerdictOptions, VerdictStream, RunResult, Verdict } from '../engine/engine.js';
export { SbxError } from '../contract/errors.js';
export { verdictOfFile } from './log-source.js';
/** The run-result contract's schemas (valibot), to check an envelope with v.parse / v.safeParse. */
export const RunResultSchema = contract().RunResult;
export const VerdictSchema = contract().Verdict;
export { run, runReport, mirrorExit } from './run.js';
export { toSarif } from './sarif.js';
export type { RunOptions, RunReport } from './run.js';
export type { StopSignal } from '../launcher/index.js';
export { verdictReport } from './verdict.js';
export type { VerdictRequest, VerdictReport } from './verdict.js';
export { takePhases } from './phases.js';
