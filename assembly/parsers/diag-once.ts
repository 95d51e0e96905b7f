// A diagnostic a tool prints again for one more build of the same source: ts-jest compiles a module once per
// test file that imports it and prints its errors in each file's `● Test suite failed to run`; `go test ./...`
// compiles a package once for its own tests and again for each other package's test binary that imports it
// (`# example.com/m [example.com/m/sub.test]`), printing its errors under each header. One edit fixes them
// all: an error is one error, whatever number of builds printed it.
import { Diagnostic } from "../model";

/** At most this many diagnostics' facts are remembered (the verdict keeps fewer). */
const MAX_ONCE = 4096;

/** The facts of the diagnostics read so far. */
export class DiagOnce {
  private seen: Set<string> = new Set<string>();

  /** True when d is equal in every fact to a diagnostic already read (and so is not one more); else remembers d. */
  repeated(d: Diagnostic): bool {
    let key = factsOf(d);
    let seen = this.seen;
    if (seen.has(key)) return true;
    if (seen.size < MAX_ONCE) seen.add(key);
    return false;
  }
}

/** The facts that make two diagnostics the same error. */
function factsOf(d: Diagnostic): string {
  let c = d.code;
  return d.fileOr + "\n" + d.line.toString() + "\n" + d.col.toString() + "\n" + d.severity + "\n" + (c !== null ? c : "") + "\n" + d.message;
}
