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
  /** For repeatedBefore: each diagnostic's facts and the run that first printed them. */
  private runs: Map<string, i32> = new Map<string, i32>();

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
   * the caller, in log order); else remembers d with run, if first. The same diagnostic twice in one run is two
   * (a compiler prints one place once per run: only a log made by repeating lines has it twice).
   */
  repeatedBefore(d: Diagnostic, run: i32): bool {
    let key = factsOf(d);
    let runs = this.runs;
    if (runs.has(key)) return runs.get(key) < run;
    if (runs.size < MAX_ONCE) runs.set(key, run);
    return false;
  }
}

/** The facts that make two diagnostics the same error. */
function factsOf(d: Diagnostic): string {
  let c = d.code;
  return d.fileOr + "\n" + d.line.toString() + "\n" + d.col.toString() + "\n" + d.severity + "\n" + (c !== null ? c : "") + "\n" + d.message;
}
