// Reading a file the sandbox could have written (in the work dir, or a state dir it could plant), on the
// host. A plain open(2) of a FIFO blocks until someone opens its other end: a FIFO at sbx.config.json,
// .sbx/last.json or a JUnit report would hang the host's sbx, before any --timeout applies. So the open
// never blocks (O_NONBLOCK; a FIFO then opens at once), never follows a final symlink (O_NOFOLLOW: no
// planted link to a secret of the caller's, to /dev/zero or to another FIFO), and only a regular file is
// read (fstat of the opened descriptor, so nothing can be swapped in between a check and the open).
// O_NONBLOCK changes nothing for a regular file's reads.
import { closeSync, constants, fstatSync, openSync, readFileSync, readSync, promises as fsp, type Stats } from 'node:fs';
import { SbxError } from '../contract/index.js';

/**
 * An open regular file, as much of node:fs/promises' FileHandle as sbx uses: typed here so that the
 * package's types name no Node module (a consumer without @types/node type-checks against them).
 */
export interface RegularHandle {
  read(buf: Uint8Array, offset: number, length: number, position: number | null): Promise<{ bytesRead: number }>;
  readFile(): Promise<Uint8Array>;
  readFile(encoding: 'utf8'): Promise<string>;
  createReadStream(): AsyncIterable<Uint8Array>;
  close(): Promise<void>;
}

export interface SafeReadOptions {
  /** Follow a symlink at the last component (a path the user named, a dotfile of theirs). Default: no (ELOOP). */
  follow?: boolean;
  /** Refuse a larger file (E_FILE_TOO_BIG) rather than read it into memory. Default: no bound. */
  maxBytes?: number;
}

const flags = (follow: boolean | undefined): number => constants.O_RDONLY | constants.O_NONBLOCK | (follow ? 0 : constants.O_NOFOLLOW); // libuv adds O_CLOEXEC itself

/** What a non-regular file is, for the message. */
function kind(st: Pick<Stats, 'isFIFO' | 'isSocket' | 'isCharacterDevice' | 'isBlockDevice' | 'isDirectory'>): string {
  if (st.isFIFO()) return 'a FIFO';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  if (st.isDirectory()) return 'a directory';
  return 'not a regular file';
}

function check(path: string, st: Stats, opts: SafeReadOptions): void {
  if (!st.isFile()) {
    throw new SbxError('E_NOT_REGULAR', `${path} is ${kind(st)}, not a regular file: sbx reads only regular files there (a FIFO would hang it); remove it or replace it with a regular file`);
  }
  if (opts.maxBytes !== undefined && st.size > opts.maxBytes) {
    throw new SbxError('E_FILE_TOO_BIG', `${path} is ${st.size} bytes, over the ${opts.maxBytes} sbx reads there; remove it or make it smaller`);
  }
}

/**
 * A read-only descriptor of path, which is a regular file (else E_NOT_REGULAR, or E_FILE_TOO_BIG).
 * fs errors (ENOENT, EACCES, ELOOP for a symlink when not following) are thrown as they are.
 */
export function openRegular(path: string, opts: SafeReadOptions = {}): number {
  return openSized(path, opts).fd;
}

/** openRegular, with the size its fstat saw. */
function openSized(path: string, opts: SafeReadOptions): { fd: number; size: number } {
  const fd = openSync(path, flags(opts.follow));
  try {
    const st = fstatSync(fd);
    check(path, st, opts);
    return { fd, size: st.size };
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}

/**
 * What readFileSync(fd) reads of a regular file of this size (at most size bytes, fewer at an early end)
 * without the fstat it would make again: the state files are read so twice a run.
 */
function readSized(fd: number, size: number): Buffer {
  const buf = Buffer.allocUnsafe(size);
  let got = 0;
  for (let n = 1; got < size && n > 0; got += n) n = readSync(fd, buf, got, size - got, null);
  return got < size ? buf.subarray(0, got) : buf;
}

/** The bytes of the regular file at path (see openRegular for what is refused). */
export function readRegular(path: string, opts: SafeReadOptions = {}): Uint8Array & { toString(encoding: 'utf8'): string } {
  const { fd, size } = openSized(path, opts);
  try {
    // An empty size (a file of /proc) is read to its end.
    const bytes = size > 0 ? readSized(fd, size) : readFileSync(fd);
    if (opts.maxBytes !== undefined && bytes.length > opts.maxBytes) {
      throw new SbxError('E_FILE_TOO_BIG', `${path} grew past the ${opts.maxBytes} bytes sbx reads there while it was read; remove it or make it smaller`);
    }
    return bytes;
  } finally {
    closeSync(fd);
  }
}

/** The text (UTF-8) of the regular file at path. */
export function readRegularText(path: string, opts: SafeReadOptions = {}): string {
  return readRegular(path, opts).toString('utf8');
}

/** openRegular, promised: a file handle of a regular file. */
export async function openRegularAsync(path: string, opts: SafeReadOptions = {}): Promise<RegularHandle> {
  const fh = await fsp.open(path, flags(opts.follow));
  try {
    check(path, await fh.stat(), opts);
    return fh;
  } catch (err) {
    await fh.close();
    throw err;
  }
}

/** readRegularText, promised (off the main thread, for a file that may be large). */
export async function readRegularTextAsync(path: string, opts: SafeReadOptions = {}): Promise<string> {
  const fh = await openRegularAsync(path, opts);
  try {
    return await fh.readFile('utf8');
  } finally {
    await fh.close();
  }
}
