// Lines a tool relays from the program it runs, behind a prefix of its own: the program's line is what the
// parsers read. Centipede prints its target's log as `CRASH LOG: ==12==ERROR: AddressSanitizer: ...`.
import { Char } from "./util/chars";
import { Line } from "./util/line";

const CENTIPEDE = "CRASH LOG: ";

/** Points l past a relay prefix, when it has one (the line's number stays). */
export function unwrapRelay(l: Line): void {
  if (l.at(0) != Char.C) return;
  if (l.startsWith(CENTIPEDE)) l.set(l.ptr + CENTIPEDE.length, l.len - CENTIPEDE.length);
  else if (l.len == CENTIPEDE.length - 1 && l.startsWith("CRASH LOG:")) l.set(l.ptr + l.len, 0);
}
