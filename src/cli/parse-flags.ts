// Parsing of flag values shared by the commands; bad values are one-line SbxErrors.
import { SbxError } from '../contract/errors.js';
import { signalNumber } from '../contract/signals.js';

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
