// The library API of sbx (Node). The browser-safe engine alone is `sbx/engine`.
import { contract } from '../contract/index.js';

export { createEngine, envelope } from '../engine/index.js';
export type { Engine, EngineOptions, VerdictOptions, VerdictStream, RunResult, Verdict } from '../engine/index.js';
export { SbxError } from '../contract/index.js';
export { verdictOfFile } from './log-source.js';
/** The run-result contract's schemas (valibot), to check an envelope with v.parse / v.safeParse. */
export const RunResultSchema = /* @__PURE__ */ schemaOf('RunResult');
/** The verdict's schema (valibot). */
export const VerdictSchema = /* @__PURE__ */ schemaOf('Verdict');
// A call marked pure: a bundle that does not use the schemas (the CLI) builds none of them.
function schemaOf<K extends 'RunResult' | 'Verdict'>(k: K): ReturnType<typeof contract>[K] {
  return contract()[k];
}
export { run, runReport, mirrorExit } from './run.js';
export { toSarif } from './sarif.js';
export type { RunOptions, RunReport } from './run.js';
export type { StopSignal } from '../launcher/index.js';
export { verdictReport } from './verdict.js';
export type { VerdictRequest, VerdictReport } from './verdict.js';
export { takePhases } from './phases.js';

// The host layer's entrance for the layers above it (cli, integrations, harness). Not the library's
// API: marked @internal, so the published types leave them out (tsconfig.types.json stripInternal).
/** @internal */ export { loadEngine, setEngineProvider } from './load-engine.js';
/** @internal */ export { warmEngine } from './warm-engine.js';
/** @internal */ export { defaultWork } from './run.js';
/** @internal */ export { logNotes } from './log-notes.js';
/** @internal */ export { runNotes, withNotes } from './run-notes.js';
/** @internal */ export { phase } from './phases.js';
/** @internal */ export { openLogFile, verdictOfHandle } from './log-source.js';
/** @internal */ export { openRegular } from './open-regular.js';
/** @internal */ export { loadSession, replay } from './replay.js';
/** @internal */ export { brief, briefOrRendered } from './brief.js';
/** @internal */ export { shellQuote } from './command-line.js';
/** @internal */ export { StateDir } from './state/store.js';
/** @internal */ export { streaks, streakText } from './state/history.js';
/** @internal */ export { configHosts, PROJECT_CONFIG, readConfigJson } from './config-hosts.js';
/** @internal */ export { installHash, socketDir } from './private-dir.js';
