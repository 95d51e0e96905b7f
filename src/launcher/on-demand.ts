// Node modules that a cold `sbx run` does not need, loaded on first use instead of with the bundle:
// node:child_process, node:crypto and node:stream each cost a cold start milliseconds
// (bench/startup.js). Used by the launcher and by the host's state code.
// The CommonJS bundle of the CLI (SBX_CJS, set by scripts/build-host.js) has `require` itself;
// the ES modules make one with node:module's createRequire. Loading node:module costs a cold start
// ~1 ms (it loads Node's source-map support), so the CLI never imports it.
import { createRequire } from 'node:module';

declare const SBX_CJS: boolean;
let load: NodeJS.Require | null = null;
const required = <T>(name: string): T => (load ??= typeof SBX_CJS !== 'undefined' && SBX_CJS ? require : createRequire(import.meta.url))(name) as T;

export const childProcess = (): typeof import('node:child_process') => required('node:child_process');
export const nodeCrypto = (): typeof import('node:crypto') => required('node:crypto');
export const nodeStream = (): typeof import('node:stream') => required('node:stream');
export const nodeNet = (): typeof import('node:net') => required('node:net');
/** node:os itself (not a copy of its exports): the resident sbx makes homedir() per request (src/cli/resident/context.ts). */
export const nodeOs = (): typeof import('node:os') => required('node:os');
