// `sbx ... | head`: when the reader goes away, stop quietly instead of dying on an EPIPE stack trace.
// The run is already recorded by the time anything is printed; the exit code stays the command's.
//
// Output goes through writeOut() and writeErr(): a synchronous write to fd 1 or 2, so that a cold `sbx run` never
// builds process.stdout/stderr (a stream over a pipe loads net and stream and costs milliseconds of
// start-up; measured by `npm run bench:startup`). Code that does use the streams (the MCP server, the
// viewer) gets them with the EPIPE handler attached on first use.
import { writeSync } from 'node:fs';
import { redirect } from './io-redirect.js';

const closed = [false, false, false];
let streamsMade = false;

function writeFd(fd: 1 | 2, text: string | Buffer): void {
  const to = redirect();
  if (to) return to.write(fd, typeof text === 'string' ? Buffer.from(text) : text);
  if (closed[fd]) return;
  const buf = typeof text === 'string' ? Buffer.from(text) : text;
  let off = 0;
  while (off < buf.length) {
    try {
      off += writeSync(fd, buf, off);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EPIPE') {
        closed[fd] = true;
        return;
      }
      if (code !== 'EAGAIN') throw err;
      // A non-blocking pipe that is full: the stream waits for the reader; it takes the rest in order.
      (fd === 1 ? process.stdout : process.stderr).write(buf.subarray(off));
      return;
    }
  }
}

/** Writes text to standard output, dropping it once the reader has gone away. */
export const writeOut = (text: string): void => writeFd(1, text);
/** Writes text to standard error, likewise. */
export const writeErr = (text: string): void => writeFd(2, text);
/** Writes bytes (a command's own output) to standard output (1) or error (2), likewise. */
export const writeBytes = (fd: 1 | 2, bytes: Buffer): void => writeFd(fd, bytes);

export function ignoreClosedPipes(): void {
  for (const name of ['stdout', 'stderr'] as const) {
    const desc = Object.getOwnPropertyDescriptor(process, name);
    if (!desc?.get || !desc.configurable) {
      attach(process[name]);
      continue;
    }
    const get = desc.get;
    Object.defineProperty(process, name, {
      configurable: true,
      enumerable: desc.enumerable ?? true,
      get() {
        streamsMade = true;
        const stream = get.call(process) as NodeJS.WriteStream;
        Object.defineProperty(process, name, { configurable: true, enumerable: desc.enumerable ?? true, value: stream, writable: false });
        attach(stream);
        return stream;
      },
    });
  }
}

/**
 * True once process.stdout or process.stderr exists (after ignoreClosedPipes()): a stream may still
 * hold output it has not written, which the process must stay alive for.
 */
export const outputStreamsMade = (): boolean => streamsMade;

function attach(stream: NodeJS.WriteStream): void {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e;
    // Later writes go nowhere (a destroyed stream drops them); nothing else to do.
  });
}
