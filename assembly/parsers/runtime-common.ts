// Helpers shared by the runtime parsers (Python, Rust, Go, Node): when a printed report is fatal, and
// frame-list plumbing.
import { Facts, Frame, Crash, MAX_FRAMES } from "../model";

/**
 * A traceback or panic report kills the program only when the program did not then exit 0: a process
 * that exits 0 after printing one logged it (logging.exception, a joined thread's panic) and carried on.
 */
export function reportIsFatal(f: Facts): bool {
  return f.exit.fatal();
}

/** Keeps the first crash of the log (Facts.setCrash), unless the report was not fatal. */
export function commitCrash(f: Facts, c: Crash): void {
  if (reportIsFatal(f)) f.setCrash(c);
}

/** Appends a frame while the stack is under MAX_FRAMES (a runaway recursion prints thousands). */
export function pushFrame(frames: Array<Frame>, fr: Frame): void {
  if (frames.length < MAX_FRAMES) frames.push(fr);
}

/** Numbers the frames 0.. in their current order. */
export function renumber(frames: Array<Frame>): void {
  for (let i = 0; i < frames.length; i++) frames[i].index = i;
}
