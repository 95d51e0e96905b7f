// The last bytes of an open file, read with pread: launch() takes its log's tail (and its report) back
// this way once the launcher has exited, and run notes look at a log's tail for what the verdict omits.
import { readSync } from 'node:fs';

/** The last `limit` bytes of the file open as fd, which holds `size` bytes. */
export function readTail(fd: number, size: number, limit: number): Uint8Array {
  const n = Math.min(size, limit);
  const buf = Buffer.allocUnsafe(n);
  let got = 0;
  while (got < n) {
    const r = readSync(fd, buf, got, n - got, size - n + got);
    if (r === 0) break;
    got += r;
  }
  return new Uint8Array(buf.buffer, buf.byteOffset, got);
}
