// libstdc++'s debug mode (`-D_GLIBCXX_DEBUG`): a checked container or iterator misused prints a block, then
// aborts:
//   /usr/include/c++/12/debug/vector:442:
//   In function:
//       std::debug::vector<_Tp, _Allocator>::reference std::debug::vector<_Tp,
//       _Allocator>::operator[](size_type) [with _Tp = int; ...]
//
//   Error: attempt to subscript container with out-of-bounds index 1, but
//   container only holds 1 elements.
//
//   Objects involved in the operation:
//       sequence "this" @ 0x7ffdb79a6610 {
//         type = std::debug::vector<int, std::allocator<int> >;
//       }
// The crash is tool `assert`, kind `check-failed`, the error's sentence (its wrapped lines joined) the message,
// the function at the header's place its frame. Read inside the assert parser (its lines hold a colon).
import { Char, isDigit } from "../../util/chars";
import { Line } from "../../util/line";
import { Crash, Facts, Frame } from "../../model";
import { setLocation, classify } from "../../frames";
import { bareName } from "./assert";

const IN_FUNCTION = "In function:";
const ERROR = "Error: ";
const OBJECTS = "Objects involved in the operation:";

/** The wrapped lines of a signature or an error's sentence kept: libstdc++ wraps either in a few lines. */
const MAX_WRAPPED = 16;

const enum At { NONE = 0, IN_FUNCTION = 1, SIGNATURE = 2, ERROR = 3, MESSAGE = 4, OBJECTS = 5, OBJECT_LINES = 6 }

@final
export class LibstdcxxDebugReport {
  private at: i32 = At.NONE;
  private place: string = "";
  private sig: Array<string> = [];
  private msg: Array<string> = [];

  busy(): bool { return this.at != At.NONE; }

  finish(f: Facts): void {
    if (this.at == At.MESSAGE) this.report(f);
    this.at = At.NONE;
  }

  claim(l: Line, f: Facts): bool {
    let at = this.at;
    if (at == At.NONE) return this.header(l);
    let blank = l.skipSpaces(0) >= l.len;
    if (at == At.IN_FUNCTION) {
      if (l.startsWith(IN_FUNCTION) && l.len == IN_FUNCTION.length) { this.at = At.SIGNATURE; return true; }
    } else if (at == At.SIGNATURE) {
      if (blank) { this.at = At.ERROR; return true; }
      if (l.at(0) == Char.SPACE) { if (this.sig.length < MAX_WRAPPED) this.sig.push(l.trimmed(0)); return true; }
    } else if (at == At.ERROR) {
      if (l.startsWith(ERROR)) { this.msg.push(l.trimmed(ERROR.length)); this.at = At.MESSAGE; return true; }
    } else if (at == At.MESSAGE) {
      if (!blank) { if (this.msg.length < MAX_WRAPPED) this.msg.push(l.trimmed(0)); return true; }
      this.report(f);
      this.at = At.OBJECTS;
      return true;
    } else if (at == At.OBJECTS) {
      if (l.startsWith(OBJECTS)) { this.at = At.OBJECT_LINES; return true; }
    } else if (!blank && l.at(0) == Char.SPACE) {
      return true;  // an object's lines
    }
    if (at == At.MESSAGE) this.report(f);
    this.at = At.NONE;
    return false;
  }

  /** `/usr/include/c++/12/debug/vector:442:` alone on its line: a report begins. */
  private header(l: Line): bool {
    let n = l.len;
    if (n < 8 || l.at(n - 1) != Char.COLON || !isDigit(l.at(n - 2))) return false;
    let c = n - 2;
    while (c > 0 && isDigit(l.at(c))) c--;
    if (l.at(c) != Char.COLON || l.indexOf("/c++/") < 0 || l.indexOf(": ") >= 0) return false;
    this.place = l.str(0, n - 1);
    this.sig.length = 0;
    this.msg.length = 0;
    this.at = At.IN_FUNCTION;
    return true;
  }

  private report(f: Facts): void {
    let fr = new Frame();
    if (!setLocation(fr, this.place)) fr = new Frame();
    if (this.sig.length > 0) fr.fn = bareName(joinWrapped(this.sig));
    classify(fr);
    let c = new Crash();
    c.tool = "assert";
    c.kind = "check-failed";
    c.message = joinWrapped(this.msg);
    c.summary = ERROR + c.message!;
    c.stackless = true;
    c.frames.push(fr);
    f.setCrash(c);
  }
}

/** Lines libstdc++ wrapped at a space (or inside a name: `vector<_Tp, ` / `_Allocator>`), joined back. */
function joinWrapped(parts: Array<string>): string {
  let out = new Array<string>();
  let prev = "";
  for (let i = 0, n = parts.length; i < n; i++) {
    let p = unchecked(parts[i]);
    if (i > 0 && !prev.endsWith(", ") && !prev.endsWith("<")) out.push(" ");
    out.push(p);
    prev = p;
  }
  return out.join("");
}
