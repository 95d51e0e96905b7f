// The host uses the one error class of sbx (defined with the launcher, which the host depends on).
export { SbxError } from '../launcher/errors.js';
