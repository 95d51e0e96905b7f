// The exit code of a run whose command never started: one table with every error code
// (src/contract/error-codes.ts), so the verdict's header and the CLI's exit code agree.
export { setupExit } from '../contract/error-codes.js';
