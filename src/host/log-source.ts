// Reads a recorded log (a file or stdin) into an engine stream in bounded chunks, so a 1 GB log never
// sits in memory whole. Problems come back as SbxError with the cause and what to do.
import { constants, promises as fsp } from 'node:fs'; // fs.promises loads on first use: a run that needs none of it never pays for node:fs/promises
import type { FileHandle } from 'node:fs/promises';
import { SbxError } from '../contract/errors.js';
import type { Engine, RunResult, VerdictOptions } from '../engine/engine.js';

const CHUNK = 1 << 20;

/** Fails with a one-line SbxError unless path is a readable log file (not missing, not a directory). */
export async function checkLogFile(path: string): Promise<void> {
  const info = await fsp.stat(path).catch((err: unknown) => { throw fsError(err, path); });
  if (info.isDirectory()) throw new SbxError('E_LOG_DIR', `cannot read ${path}: it is a directory; give the log file itself`);
}

export async function verdictOfFile(engine: Engine, path: string, opts: VerdictOptions): Promise<RunResult> {
  await checkLogFile(path);
  const fh = await fsp.open(path, 'r').catch((err: unknown) => { throw fsError(err, path); });
  try {
    return await verdictOfHandle(engine, fh, opts);
  } finally {
    await fh.close();
  }
}

/** The verdict of what is left to read from an open file (the caller closes it). */
export async function verdictOfHandle(engine: Engine, fh: FileHandle, opts: VerdictOptions): Promise<RunResult> {
  const s = engine.stream(opts);
  const buf = new Uint8Array(CHUNK);
  for (;;) {
    const { bytesRead } = await fh.read(buf, 0, CHUNK, null);
    if (bytesRead === 0) break;
    s.push(buf.subarray(0, bytesRead));
  }
  return s.end();
}

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

export async function verdictOfStdin(engine: Engine, opts: VerdictOptions, from: AsyncIterable<Uint8Array> = process.stdin): Promise<RunResult> {
  const s = engine.stream(opts);
  for await (const chunk of from) s.push(chunk);
  return s.end();
}

export function fsError(err: unknown, path: string): SbxError {
  const code = (err as NodeJS.ErrnoException)?.code ?? 'EIO';
  const why: Record<string, string> = {
    ENOENT: 'no such file; check the path (relative paths start from the current directory)',
    EACCES: 'permission denied; check the file mode or run as its owner',
    EISDIR: 'it is a directory; give the log file itself',
  };
  return new SbxError(`E_${code}`, `cannot read ${path}: ${why[code] ?? (err as Error).message}`);
}
