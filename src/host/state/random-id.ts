// Random names for runs and temp files, read from /dev/urandom: the bytes node:crypto's randomBytes
// (and so nanoid) would give, without loading node:crypto on a cold `sbx run` (docs/architecture.md).
import { closeSync, openSync, readSync } from 'node:fs';

/** n characters from A-Z a-z 0-9 _ - (nanoid's alphabet): base64url of random bytes. */
export function randomId(n: number): string {
  const buf = Buffer.alloc(Math.ceil((n * 3) / 4));
  const fd = openSync('/dev/urandom', 'r');
  try {
    for (let got = 0; got < buf.length;) got += readSync(fd, buf, got, buf.length - got, null);
  } finally {
    closeSync(fd);
  }
  return buf.toString('base64url').slice(0, n);
}
