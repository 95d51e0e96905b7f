// The state dirs this user's sbx has made, by path, one a line, in $XDG_STATE_HOME/sbx/state-dirs (else
// ~/.local/state/sbx/state-dirs), outside every work tree: so that a state dir that is gone when a run
// starts (deleted by hand, or by a run on a parent dir before sbx kept nested ones read-only) is said,
// rather than read as a first run in silence. Only a state dir's creation reads or writes it.
import { makeDirs, readRegularText } from '../../launcher/index.js';
import { appendFileSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

const MAX_BYTES = 8 << 20;

function registry(): string | null {
  const xdg = process.env.XDG_STATE_HOME;
  const base = xdg && isAbsolute(xdg) ? xdg : join(homedir(), '.local', 'state');
  return isAbsolute(base) ? join(base, 'sbx', 'state-dirs') : null;
}

/**
 * Called when dir was just made: whether sbx had made it before (so it vanished since), and notes it
 * as made. Never throws: without a registry nothing is known, and nothing is said.
 */
export function madeBefore(dir: string): boolean {
  const file = registry();
  if (!file) return false;
  let seen = false;
  try {
    seen = readRegularText(file, { maxBytes: MAX_BYTES }).split('\n').includes(dir);
  } catch {
    /* none yet, or unreadable */
  }
  if (!seen) {
    try {
      makeDirs(join(file, '..'), 0o700);
      appendFileSync(file, `${dir}\n`, { mode: 0o600, flag: 'a' });
    } catch {
      /* read-only home: nothing is known */
    }
  }
  return seen;
}
