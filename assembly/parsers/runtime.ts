// The parsers for tracebacks, panics and uncaught exceptions (Python, Rust, Go, Node), in the order they are offered a line.
// Each starts only on its runtime's own opening line (`Traceback (most recent call last):`, `thread '..'
// panicked at`, `panic: ` / `fatal error: ` with a goroutine stack, Go's `WARNING: DATA RACE`, Node's `file:line` + caret), so the
// order between them matters little; Node's header-less candidate (`TypeError: ...` followed by `at`
// lines) goes last because Python's exception lines look the same.
import { Parser } from "../parser";
import { PythonParser } from "./python";
import { RustPanicParser } from "./rust-panic";
import { GoPanicParser } from "./go-panic";
import { GoRaceParser } from "./go-race";
import { NodeErrorParser } from "./node-error";

export function runtimeParsers(): Parser[] {
  return [new PythonParser(), new RustPanicParser(), new GoPanicParser(), new GoRaceParser(), new NodeErrorParser()];
}
