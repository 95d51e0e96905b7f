// The one error class of sbx, with a code. Its message says what happened, why, and what to do; only the
// CLI's main turns it into an exit code (src/contract/error-codes.ts). It lives in src/contract, the
// bottom of the dependency order (host -> launcher -> contract, engine -> contract), and has no Node
// imports, so the browser engine uses it too.
export class SbxError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = 'SbxError';
    this.code = code;
  }
}
