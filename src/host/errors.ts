// The host uses the one error class of sbx (src/contract, the bottom of the dependency order).
export { SbxError } from '../contract/errors.js';
