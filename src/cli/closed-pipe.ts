// `sbx ... | head`: when the reader goes away, stop quietly instead of dying on an EPIPE stack trace.
// The run is already recorded by the time anything is printed; the exit code stays the command's.

export function ignoreClosedPipes(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE') throw err;
      // Later writes go nowhere (a destroyed stream drops them); nothing else to do.
    });
  }
}
