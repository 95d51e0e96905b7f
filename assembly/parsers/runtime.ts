// The parsers for tracebacks, panics and uncaught exceptions (Python, Rust, Go, Node), in the order they are offered a line.
import { Parser } from "../parser";

export function runtimeParsers(): Parser[] {
  return [];
}
