// Reading a file the sandbox could have written, on the host: never through a symlink, never
// blocking on a FIFO or a device it left in its place, only a regular file, and only so much of it.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

const FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW;

/** Up to max bytes of path if it is a regular file (not a link, FIFO, socket or device), else null. */
export function readRegularFile(path: string, max: number): Buffer | null {
  let fd: number;
  try { fd = openSync(path, FLAGS); } catch { return null; }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return null;
    const buf = Buffer.alloc(Math.min(st.size, max));
    let n = 0;
    while (n < buf.length) {
      const r = readSync(fd, buf, n, buf.length - n, n);
      if (r === 0) break;
      n += r;
    }
    return buf.subarray(0, n);
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}
