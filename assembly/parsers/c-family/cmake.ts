// CMake's own errors and warnings (configure and generate steps), read by the make parser (cmake runs
// before make, and again under it when a CMakeLists.txt changed):
//
//   CMake Error at CMakeLists.txt:11 (find_package):
//     By not providing "FindLibYAML.cmake" in CMAKE_MODULE_PATH this project has
//     asked CMake to find a package configuration file provided by "LibYAML", but
//     CMake did not find one.
//   <blank>
//     Could not find a package configuration file ...
//
// The head names the file and line (relative to the source directory, never to make's), then the command;
// the message is the indented block's first paragraph, joined. `CMake Error: The source directory "/x"
// does not exist.` carries its message on the head and no place; `CMake Error in CMakeLists.txt:` (the
// generate step) a file and no line. `CMake Warning (dev) at ...`, `CMake Deprecation Warning at ...`:
// warnings. The block ends at the first line that is neither blank nor indented.
import { Char, isDigit, isSpace } from "../../util/chars";
import { Line } from "../../util/line";
import { Diagnostic, Facts } from "../../model";
import { normPath } from "../../frames";

/** Lines of the first paragraph kept in the message. */
const MAX_MESSAGE_LINES = 8;

export class CMakeReport {
  private open: Diagnostic | null = null;
  /** The first paragraph is over (a blank line after text): later lines are claimed, not kept. */
  private paraDone: bool = false;
  private lines: i32 = 0;

  busy(): bool { return this.open !== null; }

  /** True when the line is CMake's (a head, or a line of the open block). */
  claim(l: Line, f: Facts): bool {
    let d = this.open;
    if (d !== null) {
      if (l.isBlank()) { if (d.message.length > 0) this.paraDone = true; return true; }
      if (isSpace(l.at(0))) {
        if (!this.paraDone && this.lines < MAX_MESSAGE_LINES) {
          let s = l.trimmed(0);
          d.message = d.message.length > 0 ? d.message + " " + s : s;
          this.lines++;
        }
        return true;
      }
      this.open = null;
    }
    if (l.at(0) != Char.C || !l.startsWith("CMake ")) return false;
    return this.head(l, f);
  }

  /** `CMake Error at FILE:LINE (command):`, `CMake Error in FILE:`, `CMake Error: message`, and the warnings. */
  private head(l: Line, f: Facts): bool {
    let p = 6;
    let sev = "error";
    if (l.matchAt("Error", p)) p += 5;
    else if (l.matchAt("Warning", p)) { sev = "warning"; p += 7; }
    else if (l.matchAt("Deprecation Warning", p)) { sev = "warning"; p += 19; }
    else return false;
    if (l.matchAt(" (dev)", p)) p += 6;
    let d = new Diagnostic();
    d.tool = "cmake";
    d.severity = sev;
    if (l.at(p) == Char.COLON && l.at(p + 1) == Char.SPACE) {
      // `CMake Error: The source directory "/x" does not exist.` (no place; more may follow, indented).
      d.message = l.trimmed(p + 2);
      f.addDiagnostic(d);
      return true;
    }
    let at = l.matchAt(" at ", p);
    if (!at && !l.matchAt(" in ", p)) return false;
    let a = p + 4;
    let e = l.len;
    while (e > a && l.at(e - 1) == Char.SPACE) e--;
    if (l.at(e - 1) != Char.COLON) return false;
    e--;
    // ` (find_package)`: the command.
    if (l.at(e - 1) == Char.RPAREN) {
      let o = l.lastIndexOf(" (", e);
      if (o <= a) return false;
      d.code = l.str(o + 2, e - 1);
      e = o;
    }
    // `FILE:LINE` (or, after `in`, `FILE`; a syntax error's head is `at FILE:LINE:` with no command).
    let i = e - 1;
    while (i > a && isDigit(l.at(i))) i--;
    if (i < e - 1 && l.at(i) == Char.COLON) { d.line = l.readInt(i + 1); e = i; }
    if (e <= a) return false;
    d.file = normPath(l.str(a, e));
    // One that was only counted (past MAX_DIAGNOSTICS) is not held on to: its block is claimed all the same.
    this.open = f.addDiagnostic(d) ? d : new Diagnostic();
    this.paraDone = false;
    this.lines = 0;
    return true;
  }
}
