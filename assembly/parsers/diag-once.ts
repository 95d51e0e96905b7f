// A diagnostic a tool prints again for one more build of the same source: ts-jest compiles a module once per
// test file that imports it and prints its errors in each file's `● Test suite failed to run`; `go test ./...`
// compiles a package once for its own tests and again for each other package's test binary that imports it
// (`# example.com/m [example.com/m/sub.test]`), printing its errors under each header; make compiles a C file
// once for a static library and again position-independent for the shared one (zlib, json-c). One edit fixes
// them all: an error is one error, whatever number of builds printed it.
import { Diagnostic } from "../model";

/** At most this many diagnostics' facts are remembered (the verdict keeps fewer). */
const MAX_ONCE = 4096;

/** The facts of the diagnostics read so far. */
export class DiagOnce {
  private seen: Set<string> = new Set<string>();
  /** For repeatedBefore: each diagnostic's facts and its index in runOf / shownOf. */
  private runs: Map<string, i32> = new Map<string, i32>();
  /** The run that first printed each diagnostic of runs. */
  private runOf: Array<i32> = [];
  /** Whether the compiler printed that first one's source lines under it (markShown). */
  private shownOf: Array<bool> = [];
  /** The index of the diagnostic repeatedBefore read last, -1 when it was not remembered. */
  private last: i32 = -1;

  /** True when d is equal in every fact to a diagnostic already read (and so is not one more); else remembers d. */
  repeated(d: Diagnostic): bool {
    let key = factsOf(d);
    let seen = this.seen;
    if (seen.has(key)) return true;
    if (seen.size < MAX_ONCE) seen.add(key);
    return false;
  }

  /**
   * True when d is equal in every fact to a diagnostic read in an earlier run of the tool (runs are numbered by
   * the caller, in log order), or in the same run after the compiler printed that one's source lines
   * (markShown); else remembers d with run, if first. Otherwise the same diagnostic twice in one run is two: a
   * compiler prints one place once per run, but for a macro that expands its argument more than once (Catch2's
   * REQUIRE: three times, doctest's CHECK), and then each copy comes with its source and caret lines, as the
   * first did. A header line alone again (a build loop's log, a plain-output repeat) stays one more. site, when
   * not empty, is one more fact: where the user's code asked for the diagnostic (a template's call site).
   */
  repeatedBefore(d: Diagnostic, run: i32, site: string = ""): bool {
    let key = factsOf(d);
    if (site.length > 0) key += "\n" + site;
    let runs = this.runs;
    this.last = -1;
    if (runs.has(key)) {
      let i = runs.get(key);
      return unchecked(this.runOf[i]) < run || unchecked(this.shownOf[i]);
    }
    if (runs.size < MAX_ONCE) {
      let i = this.runOf.length;
      runs.set(key, i);
      this.runOf.push(run);
      this.shownOf.push(false);
      this.last = i;
    }
    return false;
  }

  /** The compiler printed the source lines of the diagnostic repeatedBefore has just remembered. */
  markShown(): void {
    let i = this.last;
    if (i >= 0) unchecked(this.shownOf[i] = true);
  }
}

/** The facts that make two diagnostics the same error. */
function factsOf(d: Diagnostic): string {
  let c = d.code;
  return d.fileOr + "\n" + d.line.toString() + "\n" + d.col.toString() + "\n" + d.severity + "\n" + (c !== null ? c : "") + "\n" + d.message;
}
