// Random names for runs and temp files, read from /dev/urandom: the bytes node:crypto's randomBytes
// (and so nanoid) would give, without loading node:crypto on a cold `sbx run` (docs/architecture.md).
// Read ahead, POOL bytes at a time: a run asks for two names (its id, its state file's temp name), and
// a process that runs many (the resident sbx) paid an open, a read and a close for each (6 system calls
// a run); now one read in POOL / 6 calls. The bytes are used once each, never handed out twice.
import { closeSync, openSync, readSync } from 'node:fs';

const POOL = 256;
const pool = Buffer.alloc(POOL);
let at = POOL;

function fill(): void {
  const fd = openSync('/dev/urandom', 'r');
  try {
    for (let got = 0; got < POOL;) got += readSync(fd, pool, got, POOL - got, null);
  } finally {
    closeSync(fd);
  }
  at = 0;
}

/** n characters from A-Z a-z 0-9 _ - (nanoid's alphabet): base64url of random bytes. */
export function randomId(n: number): string {
  const len = Math.ceil((n * 3) / 4);
  if (len > POOL) throw new RangeError(`randomId: at most ${Math.floor((POOL * 4) / 3)} characters`);
  if (at + len > POOL) fill();
  const id = pool.toString('base64url', at, at + len).slice(0, n);
  at += len;
  return id;
}
