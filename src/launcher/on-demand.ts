// Node modules that a cold `sbx run` does not need, loaded on first use instead of with the bundle:
// node:child_process, node:crypto and node:stream each cost a cold start milliseconds
// (bench/startup.js). Used by the launcher and by the host's state code.
import { createRequire } from 'node:module';

const load = createRequire(import.meta.url);

export const childProcess = (): typeof import('node:child_process') => load('node:child_process');
export const nodeCrypto = (): typeof import('node:crypto') => load('node:crypto');
export const nodeStream = (): typeof import('node:stream') => load('node:stream');
