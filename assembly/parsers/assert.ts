// A failed C assert(): glibc's `prog: main.c:6: checked_div: Assertion `b != 0' failed.` and musl's
// `Assertion failed: b != 0 (main.c: checked_div: 6)`. abort() follows, so this is a SIGABRT crash whose
// location is the assertion's; the shell's "Aborted" line or the exit signal then finds the crash in place.
import { Char } from "../util/chars";
import { Line } from "../util/line";
import { Facts, Frame, signalCrash } from "../model";
import { Parser } from "../parser";
import { setLocation, classify } from "../frames";

const GLIBC_TAIL = "' failed.";
const GLIBC_MARK = ": Assertion `";
const MUSL_HEAD = "Assertion failed: ";

@final
export class AssertParser extends Parser {
  claim(l: Line, f: Facts): bool {
    let fr: Frame | null = null;
    let msg: string;
    let last = l.at(l.len - 1);
    if (last != Char.DOT && last != Char.RPAREN) return false;
    if (last == Char.DOT && l.endsWith(GLIBC_TAIL)) {
      let at = l.indexOf(GLIBC_MARK);
      if (at < 0) return false;
      // "prog: main.c:6: checked_div" -> program, location, function (the function part may be absent).
      let head = l.str(0, at);
      let i = head.indexOf(": ");
      if (i < 0) return false;
      let rest = head.substring(i + 2);
      let j = rest.indexOf(": ");
      fr = new Frame();
      if (!setLocation(fr, j >= 0 ? rest.substring(0, j) : rest)) return false;
      if (j >= 0) fr.fn = rest.substring(j + 2);
      msg = l.trimmed(at + 2);
    } else if (l.startsWith(MUSL_HEAD) && l.endsWith(")")) {
      let open = l.lastIndexOf(" (");
      if (open < 0) return false;
      // "(main.c: checked_div: 6)"
      let inner = l.str(open + 2, l.len - 1);
      let a = inner.indexOf(": ");
      let b = inner.lastIndexOf(": ");
      if (a < 0 || b <= a) return false;
      fr = new Frame();
      if (!setLocation(fr, inner.substring(0, a) + ":" + inner.substring(b + 2))) return false;
      fr.fn = inner.substring(a + 2, b);
      msg = l.trimmed(0, open);
    } else {
      return false;
    }
    let frame = fr!;
    frame.index = 0;
    classify(frame);
    let c = signalCrash("SIGABRT", l.trimmed(0));
    c.message = msg;
    c.frames.push(frame);
    f.setCrash(c);
    return true;
  }
}
