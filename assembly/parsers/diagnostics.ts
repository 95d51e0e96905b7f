// The parsers for compiler and linker diagnostics (gcc, clang, ld, make, rustc, cargo, tsc, go build/vet), in the order they are offered a line.
import { Parser } from "../parser";

export function diagnosticParsers(): Parser[] {
  return [];
}
