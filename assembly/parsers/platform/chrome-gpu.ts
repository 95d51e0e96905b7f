// Chromium's browser process logs the death of its GPU process: `[pid:tid:date:ERROR:gpu_process_host.cc(972)]
// GPU process exited unexpectedly: exit_code=-1073741819`. The browser survives (it restarts the GPU process),
// but the child crashed: a crash of tool `chrome`, kind `gpu-process-exited`, message the exit it names. A
// crash report of the GPU process itself, when the log has one, comes first and is the crash.
import { Char } from "../../util/chars";
import { Line } from "../../util/line";
import { Crash, Facts } from "../../model";
import { Parser } from "../../parser";
import { ByteSet } from "../../util/byte-set";

const MARK = "] GPU process exited unexpectedly";

/** Stateless: its line begins with `[`. */
const STARTS = new ByteSet().chars("[");

@final
export class ChromeGpuParser extends Parser {
  atRest(): bool { return true; }
  starts(): ByteSet | null { return STARTS; }

  claim(l: Line, f: Facts): bool {
    if (l.at(0) != Char.LBRACKET) return false;
    let k = l.indexOf(MARK);
    if (k < 0 || l.lastIndexOf(":ERROR:", k) < 0) return false;
    if (f.crash !== null) { f.crashCount++; return true; }
    let c = new Crash();
    c.tool = "chrome";
    c.kind = "gpu-process-exited";
    let colon = l.indexOf(": ", k + MARK.length);
    c.message = colon > 0 ? l.trimmed(colon + 2) : "GPU process exited unexpectedly";
    c.summary = l.trimmed(k + 2);
    f.setCrash(c);
    return true;
  }
}
