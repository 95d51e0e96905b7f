// The contract layer's one entrance: the error codes and class, signal names, the run-result schema
// (valibot, built on first use) and the check of JSON sbx wrote itself. Browser-safe: no Node API here.
export { SbxError } from './errors.js';
export { ERROR_CODES, exitFor, setupExit, type ErrorCode } from './error-codes.js';
export { exitForSignal, signalName, signalNumber } from './signals.js';
export { contract, issueText, STATUSES, type Crash, type Delta, type Frame, type RunResult, type Verdict } from './schema.js';
export { finite, jsonObject, shapeProblem } from './shape.js';
export { visible } from './visible.js';
