// Reads a recorded log (a file or stdin) into an engine stream in bounded chunks, so a 1 GB log never
// sits in memory whole. Problems come back as SbxError with the cause and what to do.
import { promises as fsp } from 'node:fs'; // fs.promises loads on first use: a run that needs none of it never pays for node:fs/promises
import { SbxError } from '../contract/index.js';
import { openRegularAsync, type RegularHandle } from '../launcher/index.js';
import type { Engine, RunResult, VerdictOptions } from '../engine/index.js';

const CHUNK = 1 << 20;

/** Fails with a one-line SbxError unless path is a readable log file (not missing, not a directory). */
export async function checkLogFile(path: string): Promise<void> {
  const info = await fsp.stat(path).catch((err: unknown) => {
    throw fsError(err, path);
  });
  if (info.isDirectory()) throw new SbxError('E_LOG_DIR', `cannot read ${path}: it is a directory; give the log file itself`);
}

/**
 * The log at path, open for reading (checkLogFile's checks, then): a regular file, not a FIFO (whose open
 * would wait for a writer: a log or report a sandboxed command left in the work dir may be one), device or
 * symlink (which the sandbox could point at any file of the caller's).
 */
export async function openLogFile(path: string): Promise<RegularHandle> {
  await checkLogFile(path);
  return openRegularAsync(path).catch((err: unknown) => {
    throw fsError(err, path);
  });
}

export async function verdictOfFile(engine: Engine, path: string, opts: VerdictOptions): Promise<RunResult> {
  const fh = await openLogFile(path);
  try {
    return await verdictOfHandle(engine, fh, opts);
  } finally {
    await fh.close();
  }
}

/** What verdictOfHandle reads from: an open file (node:fs/promises' FileHandle), typed without @types/node. */
export interface ReadHandle {
  read(buf: Uint8Array, offset: number, length: number, position: null): Promise<{ bytesRead: number }>;
}

/** The verdict of what is left to read from an open file (the caller closes it). */
export async function verdictOfHandle(engine: Engine, fh: ReadHandle, opts: VerdictOptions): Promise<RunResult> {
  const s = engine.stream(opts);
  const buf = new Uint8Array(CHUNK);
  for (;;) {
    const { bytesRead } = await fh.read(buf, 0, CHUNK, null);
    if (bytesRead === 0) break;
    s.push(buf.subarray(0, bytesRead));
  }
  return s.end();
}

export async function verdictOfStdin(engine: Engine, opts: VerdictOptions, from: AsyncIterable<Uint8Array> = process.stdin): Promise<RunResult> {
  const s = engine.stream(opts);
  for await (const chunk of from) s.push(chunk);
  return s.end();
}

export function fsError(err: unknown, path: string): SbxError {
  if (err instanceof SbxError) return err;
  const code = (err as NodeJS.ErrnoException)?.code ?? 'EIO';
  const why: Record<string, string> = {
    ENOENT: 'no such file; check the path (relative paths start from the current directory)',
    EACCES: 'permission denied; check the file mode or run as its owner',
    EISDIR: 'it is a directory; give the log file itself',
    ELOOP: 'it is a symlink, which sbx does not follow there (a sandboxed command could have made it); give the file it points to',
  };
  return new SbxError(`E_${code}`, `cannot read ${path}: ${why[code] ?? (err as Error).message}`);
}
