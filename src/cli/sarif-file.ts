// `--sarif FILE` for `sbx verdict` and `sbx run`: the verdict as SARIF 2.1.0, written to FILE.
import type { RunResult } from '../contract/index.js';
import { toSarif } from '../host/index.js';
import { writeOutFile } from './out-file.js';
import pkg from '../../package.json' with { type: 'json' };

export const SARIF_ARG = { type: 'string', description: 'also write the verdict as SARIF 2.1.0 to this file (for code scanning and IDEs)' } as const;

export async function writeSarif(path: string, env: RunResult): Promise<void> {
  await writeOutFile('sarif', 'SARIF file', path, `${JSON.stringify(toSarif(env, pkg.version), null, 2)}\n`);
}
