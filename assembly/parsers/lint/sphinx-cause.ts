// What a Sphinx warning ending with `:` goes on to say on the lines after it, made part of the finding:
//
//   WARNING: autodoc: failed to import module 'mymod'; the following exception was raised:
//   cannot import name 'OrderedDictt' from 'collections' (/usr/lib/python3.11/collections/__init__.py)
//
//   WARNING: failed to reach any of the inventories with the following issues:
//   intersphinx inventory 'https://docs.python.org/3/objects.inv' not fetchable due to <class '…'>: …
//
// or a whole traceback (an import that raised anything but ImportError), whose last line is the exception and
// whose innermost frame in the user's code is where it was raised:
//
//   WARNING: autodoc: failed to import module 'mymod'; the following exception was raised:
//   Traceback (most recent call last):
//     File "/usr/lib/python3/dist-packages/sphinx/ext/autodoc/importer.py", line 58, in import_module
//     …
//     File "/work/mymod.py", line 3, in <module>
//       X = 1 / 0
//   ZeroDivisionError: division by zero
//
// The line after the warning (or the traceback's exception line) is added to its message; a warning that names no
// place gets the traceback's innermost user frame as its place. A progress line (`looking for now-outdated
// files...`), a blank line or another finding ends it unread.
import { Char } from "../../util/chars";
import { Line } from "../../util/line";
import { Diagnostic } from "../../model";
import { pyFrame } from "../runners/common";

const TRACEBACK = "Traceback (most recent call last):";

@final
export class SphinxCause {
  private d: Diagnostic | null = null;
  private trace: bool = false;
  /** The finding named no place: the traceback's innermost user frame is its place. */
  private place: bool = false;

  /** A finding just read: when its message ends with `:`, the lines after it say what it means. */
  after(d: Diagnostic): void {
    if (d.message.endsWith(":")) { this.d = d; this.trace = false; }
  }

  open(): bool { return this.d !== null; }

  /** True when l was the cause's (claimed); false ends it. */
  line(l: Line): bool {
    let d = this.d!;
    let c = l.at(0);
    if (this.trace) {
      if (c == Char.SPACE) {
        let fr = pyFrame(l);
        if (fr !== null && fr.user && this.place) { d.file = fr.file; d.line = fr.line; }
        return true;
      }
      this.d = null;
      if (l.isBlank()) return false;
      d.message += " " + l.trimmed(0);
      return true;
    }
    if (l.startsWith(TRACEBACK)) { this.trace = true; this.place = d.file === null; return true; }
    this.d = null;
    if (c == Char.SPACE || c == Char.TAB || l.isBlank() || l.indexOf("...") >= 0) return false;
    if (l.indexOf("WARNING: ") >= 0 || l.indexOf("ERROR: ") >= 0) return false;
    d.message += " " + l.trimmed(0);
    return true;
  }
}
