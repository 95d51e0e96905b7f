// Files a command writes beside what it prints (`--sarif FILE`, `--envelope FILE`): one error for a path
// that cannot be written, naming the flag to fix.
import { promises as fsp } from 'node:fs'; // fs.promises loads on first use: a run that needs none of it never pays for node:fs/promises
import { SbxError } from '../contract/index.js';

export async function writeOutFile(flag: string, what: string, path: string, text: string): Promise<void> {
  await fsp.writeFile(path, text).catch((err: NodeJS.ErrnoException) => {
    throw new SbxError(`E_${err.code ?? 'IO'}`, `cannot write the ${what} ${path}: ${err.message}; give a writable path to --${flag}`);
  });
}
