// The parsers, in the order they are offered each line: a parser earlier in the list wins a line.
// Each family lives in its own file and returns its parsers in its own order.
import { Parser } from "../parser";
import { nativeCrashParsers } from "./native-crash";
import { diagnosticParsers } from "./diagnostics";
import { runnerParsers } from "./runners";
import { runtimeParsers } from "./runtime";
import { ShellParser } from "./shell";

export function makeParsers(): Parser[] {
  let ps = new Array<Parser>(0);
  append(ps, nativeCrashParsers());  // 1. sanitizer reports, then UBSan runtime errors
  append(ps, diagnosticParsers());   // 2. compiler, linker and build-tool diagnostics
  append(ps, runnerParsers());       // 3. test runners
  append(ps, runtimeParsers());      // 4. tracebacks, panics, uncaught exceptions
  ps.push(new ShellParser());        // 5. shell and signal messages
  return ps;
}

function append(to: Parser[], from: Parser[]): void {
  for (let i = 0; i < from.length; i++) to.push(from[i]);
}
