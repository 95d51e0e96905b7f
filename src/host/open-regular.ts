// Opening a file a sandbox could have made, for reading on the host: only a regular file, never through a
// symlink, never blocking on a FIFO (the MCP tools' logs).
import { constants, promises as fsp } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { SbxError } from '../contract/errors.js';
import { fsError } from './log-source.js';

/**
 * path opened for reading only if it is a regular file and not a symlink: O_NOFOLLOW (a link fails
 * with ELOOP), O_NONBLOCK (opening a FIFO nobody writes would wait for ever), then fstat on the open
 * file, so what is checked is what is read. For files a sandbox could have made (the MCP tools);
 * else E_NOT_REGULAR, missing() when there is no such file, or the usual one-line error (naming `shown`).
 */
export async function openRegular(path: string, shown = path, missing?: () => SbxError): Promise<FileHandle> {
  const fh = await fsp.open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch((err: unknown) => {
    const code = (err as NodeJS.ErrnoException)?.code;
    if (code === 'ELOOP') throw notRegular(shown, 'a symlink');
    if (code === 'ENOENT' && missing) throw missing();
    throw fsError(err, shown);
  });
  const st = await fh.stat().catch(async (err: unknown) => { await fh.close(); throw fsError(err, shown); });
  if (st.isFile()) return fh;
  await fh.close();
  throw notRegular(shown, st.isDirectory() ? 'a directory' : st.isFIFO() ? 'a FIFO' : st.isSocket() ? 'a socket' : 'a device');
}

function notRegular(shown: string, what: string): SbxError {
  return new SbxError('E_NOT_REGULAR', `cannot read ${shown}: it is ${what}, not a regular file; refused (sandboxed code could have made it): give a log file itself`);
}
