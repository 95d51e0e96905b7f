// The parsers, in the order they are offered each line. A parser earlier in the list wins a line.
import { Parser } from "../parser";
import { ShellParser } from "./shell";

export function makeParsers(): Parser[] {
  let ps = new Array<Parser>(0);
  // 1. sanitizer reports  2. UBSan runtime errors  3. compiler/linker diagnostics  4. test runners
  // 5. tracebacks, panics, uncaught exceptions  6. shell and signal messages
  ps.push(new ShellParser());
  return ps;
}
