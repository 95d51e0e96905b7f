// Parsing of flag values shared by the commands; bad values are one-line SbxErrors.
import { SbxError, signalNumber } from '../contract/index.js';

export function parseExit(s: string | undefined): number | null {
  if (s === undefined || s === '') return null;
  if (!/^-?\d+$/.test(s) || Number(s) < -2147483648 || Number(s) > 2147483647) {
    throw new SbxError('E_USAGE', `--exit ${s}: not an exit code; give an integer such as 0 or 2`);
  }
  return Number(s);
}

export function parseSignal(s: string | undefined): string | null {
  if (s === undefined || s === '') return null;
  if (signalNumber(s) < 0) throw new SbxError('E_USAGE', `--signal ${s}: unknown signal; give a name such as SIGSEGV or a number 1-64`);
  return s;
}

export function parsePositive(name: string, s: string | undefined): number | undefined {
  if (s === undefined || s === '') return undefined;
  const n = Number(s);
  if (!Number.isFinite(n) || n <= 0) throw new SbxError('E_USAGE', `--${name} ${s}: give a positive number`);
  return n;
}

const UNITS: Record<string, number> = { '': 1, K: 2 ** 10, M: 2 ** 20, G: 2 ** 30 };

/** A size in bytes: digits with an optional K, M or G (powers of 1024), at least `min` bytes. */
export function parseSize(name: string, s: string | undefined, min: number): number | undefined {
  if (s === undefined || s === '') return undefined;
  const m = /^(\d+)([KMG]?)$/i.exec(s);
  const n = m ? Number(m[1]) * UNITS[m[2]!.toUpperCase()]! : NaN;
  if (!Number.isSafeInteger(n)) throw new SbxError('E_USAGE', `--${name} ${s}: give a size in bytes, with an optional K, M or G suffix (e.g. 256M)`);
  if (n < min) throw new SbxError('E_USAGE', `--${name} ${s}: too small; give at least ${min / 1024}K`);
  return n;
}
