// A file with no name, for what the host hands the launcher by descriptor (its spec, its report, a
// seccomp program): O_TMPFILE where the filesystem has it, else a 0600 file unlinked as it is made.
// Nothing is left behind when the process dies, and no other user ever sees the contents (the spec
// holds the command's environment, which may hold secrets). The fallback's name need not be
// unguessable: it is made with O_EXCL (never through a planted file) and unlinked at once.
import { constants, openSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';

/** __O_TMPFILE, the same on every Linux architecture Node runs on; with O_DIRECTORY it is O_TMPFILE. */
const O_TMPFILE = 0o20000000 | constants.O_DIRECTORY;

/** A read-write descriptor of a new, nameless file in `dir`. Throws (an fs error) when dir takes no files. */
export function anonymousFile(dir: string): number {
  try {
    return openSync(dir, O_TMPFILE | constants.O_RDWR, 0o600);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // No O_TMPFILE here (EOPNOTSUPP, EISDIR on an old kernel, EINVAL): a named one, unlinked at once.
    if (code === 'ENOENT' || code === 'EACCES' || code === 'EROFS' || code === 'ENOTDIR') throw err;
  }
  const path = join(dir, `.sbx-tmp-${process.pid}-${Math.random().toString(36).slice(2, 10)}`);
  const fd = openSync(path, constants.O_RDWR | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  unlinkSync(path);
  return fd;
}
