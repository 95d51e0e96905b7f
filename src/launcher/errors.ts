// The one error class of sbx, with a code. Its message says what happened, why, and what to do; only the
// CLI's main turns it into an exit code. It lives here, at the bottom of the dependency order
// (host -> launcher), and has no Node imports, so the browser engine uses it too.
export class SbxError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = 'SbxError';
    this.code = code;
  }
}
