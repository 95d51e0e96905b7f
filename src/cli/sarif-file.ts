// `--sarif FILE` for `sbx verdict` and `sbx run`: the verdict as SARIF 2.1.0, written to FILE.
import { writeFile } from 'node:fs/promises';
import { SbxError } from '../contract/errors.js';
import type { RunResult } from '../contract/schema.js';
import { toSarif } from '../host/sarif.js';
import pkg from '../../package.json' with { type: 'json' };

export const SARIF_ARG = { type: 'string', description: 'also write the verdict as SARIF 2.1.0 to this file (for code scanning and IDEs)' } as const;

export async function writeSarif(path: string, env: RunResult): Promise<void> {
  const text = `${JSON.stringify(toSarif(env, pkg.version), null, 2)}\n`;
  await writeFile(path, text).catch((err: NodeJS.ErrnoException) => {
    throw new SbxError(`E_${err.code ?? 'IO'}`, `cannot write the SARIF file ${path}: ${err.message}; give a writable path to --sarif`);
  });
}
