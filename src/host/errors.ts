// The one error class of the host. Its message says what happened, why, and what to do;
// only the CLI's main turns it into an exit code.
export class SbxError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = 'SbxError';
    this.code = code;
  }
}
