// The launcher throws the host's one error class (so `instanceof SbxError` holds across sbx);
// it is re-exported here for code that imports only the launcher.
export { SbxError } from '../host/errors.js';
