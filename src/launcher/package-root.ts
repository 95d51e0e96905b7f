// The directory of the sbx-exec package this code belongs to (the one holding its package.json), found
// once from this module's own location. The launcher binary (build/), the fixed /etc files
// (native/etc) and the refusal of a work dir that contains sbx all start from it.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | null | undefined;

// Set by scripts/build-host.js in the CLI's CommonJS bundles, which know their own path (__filename):
// no file URL made and read back on a cold start (src/launcher/on-demand.ts declares it too).
declare const SBX_CJS: boolean;

export function packageRoot(): string | null {
  if (root !== undefined) return root;
  // This code runs from dist/*.js, dist/chunks/*.js, dist/cli-main.cjs, dist/cli-run.cjs or src/<layer>/*.ts.
  let dir = dirname(typeof SBX_CJS !== 'undefined' && SBX_CJS ? __filename : fileURLToPath(import.meta.url));
  for (let i = 0; i < 4; i++, dir = dirname(dir)) if (existsSync(join(dir, 'package.json'))) return (root = dir);
  return (root = null);
}
