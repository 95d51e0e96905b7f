// The parsers for compiler and linker diagnostics (gcc, clang, ld, make, rustc, cargo, tsc, go build/vet), in the order they are offered a line.
// make comes first (its `Makefile:5: warning:` would otherwise read as a compiler's header), then the
// linker (its unprefixed `main.c:8: undefined reference` lines), then the compilers. They share one
// DiagContext: make's directory stack, which compiler and linker paths are resolved against.
import { Parser } from "../parser";
import { DiagContext } from "./diag-context";
import { MakeParser } from "./make";
import { LinkerParser } from "./linker";
import { GccParser } from "./gcc";
import { RustParser } from "./rustc";
import { TscParser } from "./tsc";
import { GoParser } from "./go-build";

export function diagnosticParsers(): Parser[] {
  let ctx = new DiagContext();
  return [
    new MakeParser(ctx),
    new LinkerParser(ctx),
    new GccParser(ctx),
    new RustParser(ctx),
    new TscParser(ctx),
    new GoParser(ctx),
  ];
}
