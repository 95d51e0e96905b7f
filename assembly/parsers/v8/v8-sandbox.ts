// V8's sandbox testing mode says when the crash it is about to report (or has just let a sanitizer report) is
// a sandbox violation: `## V8 sandbox violation detected!`. That is V8's finding about the crash, whichever
// way it is printed: the crash becomes tool `v8`, kind `sandbox-violation`, keeping the report's access,
// address and stack. Before any report it is a crash without a stack; the sanitizer report that follows
// lends it one (whatever its signal: a wild write is the violation itself).
import { Char } from "../../util/chars";
import { Line } from "../../util/line";
import { Crash, Facts } from "../../model";
import { Parser } from "../../parser";
import { ByteSet } from "../../util/byte-set";

const MARK = "## V8 sandbox violation detected!";

/** Stateless: `## V8 sandbox violation detected!` at column 0. */
const STARTS = new ByteSet().chars("#");

@final
export class V8SandboxParser extends Parser {
  atRest(): bool { return true; }
  starts(): ByteSet | null { return STARTS; }

  claim(l: Line, f: Facts): bool {
    if (l.at(0) != Char.HASH || !l.startsWith(MARK)) return false;
    let c = f.crash;
    if (c === null) {
      c = new Crash();
      c.stackless = true;
      f.setCrash(c);
    } else if (c.tool == "v8" && c.kind == SANDBOX) {
      return true;
    } else if (c.summary === null) {
      c.summary = c.message;
    }
    c.tool = "v8";
    c.kind = SANDBOX;
    c.message = "V8 sandbox violation detected";
    return true;
  }
}

export const SANDBOX = "sandbox-violation";
