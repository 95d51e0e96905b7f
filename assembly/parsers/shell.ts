// What a shell or timeout(1) says about the command it ran: fatal-signal messages ("Segmentation fault
// (core dumped)"), "command not found", and timeout's own notice.
import { Char } from "../util/chars";
import { Line } from "../util/line";
import { Facts, signalCrash } from "../model";
import { Parser } from "../parser";

const SHELL_SIGNALS: string[] = [
  "Segmentation fault", "SIGSEGV",
  "Aborted", "SIGABRT",
  "Floating point exception", "SIGFPE",
  "Bus error", "SIGBUS",
  "Illegal instruction", "SIGILL",
  "Killed", "SIGKILL",
  "Terminated", "SIGTERM",
  "Trace/breakpoint trap", "SIGTRAP",
  "Bad system call", "SIGSYS",
];

export class ShellParser extends Parser {
  claim(l: Line, f: Facts): bool {
    // bash: "bash: line 1: 12345 Segmentation fault      (core dumped) ./a.out", or just "Segmentation fault (core dumped)".
    // One indexOfByte finds bash's "NAME: line N: PID " prefix; otherwise the message must start the line.
    let first = l.at(0);
    let at = first == Char.SPACE || first == Char.TAB ? l.skipSpaces(0) : 0;
    let prefixed = false;
    let colon = l.indexOfByte(Char.COLON);
    if (colon > 0 && l.matchAt(" line ", colon + 1)) {
      let q = bashJobPrefix(l, colon + 7);
      if (q > 0) { at = q; prefixed = true; }
    }
    let k = signalAt(l, at);
    if (k >= 0) {
      let end = at + SHELL_SIGNALS[k].length;
      // bash pads the message to a column and may run it into the command ("Floating point exception./prog").
      if (prefixed || this.restOk(l, end)) {
        if (f.crash === null) {
          f.setCrash(signalCrash(SHELL_SIGNALS[k + 1], l.trimmed(0)));
        }
        return true;
      }
    }
    // "bash: foo: command not found", "sh: 1: foo: not found", "env: 'foo': No such file or directory"
    if (l.at(l.len - 1) == 0x64 && // 'd'
        (l.endsWith(": command not found") || (l.startsWith("sh: ") && l.endsWith(": not found")))) {
      if (f.setupFailure === null) f.setupFailure = l.trimmed(0);
      return true;
    }
    if (first == 0x74 && l.startsWith("timeout: ")) { // 't'
      // "timeout: sending signal TERM to command 'sleep'" (--verbose) is the timeout itself;
      // "timeout: the monitored command dumped core" is the command crashing under it, not a timeout.
      if (l.matchAt("sending signal ", 9)) { f.timeoutSeen = true; return true; }
      if (l.matchAt("the monitored command dumped core", 9)) return true;
    }
    return false;
  }

  /** After a message that starts the line: nothing, "(core dumped)", or padding then the command. */
  private restOk(l: Line, p: i32): bool {
    if (p >= l.len) return true;
    let c = l.at(p);
    return c == Char.SPACE || c == Char.TAB;
  }
}

/** After "NAME: line " at p: "N: PID " (bash) or "N: " then the message; returns the message's position or -1. */
function bashJobPrefix(l: Line, p: i32): i32 {
  if (l.readInt(p) < 0) return -1;
  let q = l.end;
  if (l.at(q) != Char.COLON) return -1;
  q = l.skipSpaces(q + 1);
  if (l.readInt(q) >= 0) q = l.skipSpaces(l.end);
  return q;
}

/** Index into SHELL_SIGNALS of the message at p, or -1. The first byte rejects most lines. */
function signalAt(l: Line, p: i32): i32 {
  let c = l.at(p);
  if (c != 0x53 && c != 0x41 && c != 0x46 && c != 0x42 && c != 0x49 && c != 0x4B && c != 0x54) return -1; // S A F B I K T
  for (let i = 0; i < SHELL_SIGNALS.length; i += 2) {
    if (l.matchAt(SHELL_SIGNALS[i], p)) return i;
  }
  return -1;
}
