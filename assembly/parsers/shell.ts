// What a shell or timeout(1) says about the command it ran: fatal-signal messages ("Segmentation fault
// (core dumped)"), "command not found", and timeout's own notice.
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

export class ShellParser extends Parser {
  claim(l: Line, f: Facts): bool {
    // bash: "line 1: 12345 Segmentation fault      (core dumped) ./a.out", or just "Segmentation fault (core dumped)".
    // Fast reject: the message starts the line, or follows bash's ": line N:" prefix.
    let from = -1;
    let c = l.at(0);
    if (c == 0x53 || c == 0x41 || c == 0x46 || c == 0x42 || c == 0x49 || c == 0x4B || c == 0x54) from = 0;
    else {
      let k = l.indexOf(": line ");
      if (k >= 0) from = k + 7;
    }
    if (from >= 0) {
      for (let i = 0; i < SHELL_SIGNALS.length; i += 2) {
        let at = l.indexOf(SHELL_SIGNALS[i], from);
        if (at < 0) continue;
        if (!this.looksLikeShellReport(l, at, SHELL_SIGNALS[i].length)) continue;
        if (f.crash === null) {
          let cr = new Crash();
          cr.tool = "signal";
          cr.kind = SHELL_SIGNALS[i + 1];
          cr.summary = l.trimmed(0);
          f.setCrash(cr);
        }
        return true;
      }
    }
    // "bash: foo: command not found", "sh: 1: foo: not found", "env: 'foo': No such file or directory"
    if (l.endsWith(": command not found") || (l.startsWith("sh: ") && l.endsWith(": not found"))) {
      if (f.setupFailure === null) f.setupFailure = l.trimmed(0);
      return true;
    }
    if (l.startsWith("timeout: sending signal ") || l.startsWith("timeout: the monitored command")) {
      f.timeoutSeen = true;
      return true;
    }
    return false;
  }

  /** The message stands alone, or after bash's "line N: PID " prefix, followed by nothing or "(core dumped)" and the command. */
  private looksLikeShellReport(l: Line, at: i32, n: i32): bool {
    if (at > 0) {
      // bash prefixes: "bash: line 1: 4242 Aborted", "./run.sh: line 3:  77 Killed"
      let before = l.str(0, at).trimEnd();
      if (before.length == 0) return this.restOk(l, at + n);
      let k = before.length - 1;
      while (k >= 0 && before.charCodeAt(k) >= 0x30 && before.charCodeAt(k) <= 0x39) k--;
      if (k == before.length - 1) return false;
      let pre = before.substring(0, k + 1).trimEnd();
      if (!pre.endsWith(":") || !pre.includes("line ")) return false;
    }
    return this.restOk(l, at + n);
  }

  private restOk(l: Line, p: i32): bool {
    let rest = l.trimmed(p);
    return rest.length == 0 || rest.startsWith("(core dumped)") || rest.startsWith("\t") || l.at(p) == 0x20;
  }
}
