// Writes that never leave a half-written file: a temp file beside the target, fsync, then rename.
import { open, rename, rm } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';

export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  const tmp = `${path}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  const fh = await open(tmp, 'wx', 0o644);
  try {
    await fh.writeFile(data);
    await fh.sync();
  } catch (err) {
    await fh.close();
    await rm(tmp, { force: true });
    throw err;
  }
  await fh.close();
  await rename(tmp, path);
}
