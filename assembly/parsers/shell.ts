// What a shell or timeout(1) says about the command it ran: fatal-signal messages ("Segmentation fault
// (core dumped)"), "command not found", and timeout's own notice.
import { Char } from "../util/chars";
import { Line } from "../util/line";
import { Facts, Crash } from "../model";
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

/** First letters of the SHELL_SIGNALS messages: a line starting with none of them is rejected at once. */
const enum Lead { A = 0x41, B = 0x42, F = 0x46, I = 0x49, K = 0x4B, S = 0x53, T = 0x54 }

const enum Letter { t = 0x74 }

export class ShellParser extends Parser {
  claim(l: Line, f: Facts): bool {
    let n = l.len;
    if (n < 6) return false;
    // Standalone ("Segmentation fault (core dumped)") or after bash's "bash: line 1: 4242 " prefix.
    let at = this.signalAt(l, 0, false);
    if (at < 0) {
      let k = l.indexOf(": line ");
      if (k >= 0) {
        let p = l.readInt(k + 7) >= 0 ? l.end : -1;
        if (p > 0 && l.at(p) == Char.COLON) {
          p = l.skipSpaces(p + 1);
          let pid = l.readInt(p);
          if (pid >= 0 && l.at(l.end) == Char.SPACE) at = this.signalAt(l, l.end + 1, true);
        }
      }
    }
    if (at >= 0) {
      let sig = SHELL_SIGNALS[at + 1];
      if (f.crash === null) {
        if (sig == "SIGKILL") {
          // SIGKILL cannot be caught, so no program reports its own: it was stopped from outside
          // (timeout -s KILL / -k, a harness's time limit). See Session.finish.
          f.timeoutSeen = true;
        } else {
          let c = new Crash();
          c.tool = "signal";
          c.kind = sig;
          c.summary = l.trimmed(0);
          f.setCrash(c);
        }
      }
      return true;
    }
    // "bash: foo: command not found", "sh: 1: foo: not found"
    if (l.endsWith(": command not found") || (l.startsWith("sh: ") && l.endsWith(": not found"))) {
      if (f.setupFailure === null) f.setupFailure = l.trimmed(0);
      return true;
    }
    if (l.at(0) == Letter.t && l.startsWith("timeout: ")) {
      // "timeout: sending signal TERM to command 'sleep'" (--verbose) is the timeout itself;
      // "timeout: the monitored command dumped core" is the command crashing under it, not a timeout.
      if (l.matchAt("sending signal ", 9)) { f.timeoutSeen = true; return true; }
      if (l.matchAt("the monitored command dumped core", 9)) return true;
    }
    return false;
  }

  /**
   * Index into SHELL_SIGNALS of the message at position p, or -1. After bash's prefix, the message is
   * padded to a column and followed by the command, with no space when the name fills the column
   * ("Floating point exception./prog"); standalone, it must be the whole line, "(core dumped)" or padding.
   */
  private signalAt(l: Line, p: i32, prefixed: bool): i32 {
    let c = l.at(p);
    if (c != Lead.S && c != Lead.A && c != Lead.F && c != Lead.B && c != Lead.I && c != Lead.K && c != Lead.T) return -1;
    for (let i = 0; i < SHELL_SIGNALS.length; i += 2) {
      let s = SHELL_SIGNALS[i];
      if (!l.matchAt(s, p)) continue;
      let e = p + s.length;
      if (prefixed) return i;
      let rest = l.skipSpaces(e);
      // the whole line, "(core dumped)", or column padding before the command ("Aborted     ./prog")
      if (rest >= l.len || l.matchAt("(core dumped)", rest) || rest - e >= 2) return i;
      return -1;
    }
    return -1;
  }
}
