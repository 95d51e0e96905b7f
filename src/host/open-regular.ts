// Opening a file a sandbox could have made, for reading on the host (the MCP tools' logs): only a regular
// file, never through a symlink, never blocking on a FIFO (the launcher's safe-read), with the message the
// tools give.
import { SbxError } from '../contract/index.js';
import { openRegularAsync, type RegularHandle } from '../launcher/index.js';
import { fsError } from './log-source.js';

/** path opened for reading if it is a regular file and no symlink; else E_NOT_REGULAR, missing(), or the usual one-line error (naming `shown`). */
export async function openRegular(path: string, shown = path, missing?: () => SbxError): Promise<RegularHandle> {
  return openRegularAsync(path).catch((err: unknown) => {
    const code = (err as NodeJS.ErrnoException)?.code;
    if (code === 'ELOOP') throw notRegular(shown, 'a symlink');
    if (code === 'ENOENT' && missing) throw missing();
    if (err instanceof SbxError && err.code === 'E_NOT_REGULAR') throw notRegular(shown, /is (a \w+|not a regular file)/.exec(err.message)?.[1] ?? 'not a regular file');
    throw fsError(err, shown);
  });
}

function notRegular(shown: string, what: string): SbxError {
  return new SbxError('E_NOT_REGULAR', `cannot read ${shown}: it is ${what}, not a regular file; refused (sandboxed code could have made it): give a log file itself`);
}
