// The parsers for test runners (pytest, unittest, cargo test, go test, gtest, ctest, jest, vitest, node:test, TAP, check scripts,
// a JUnit XML report printed into the log), in the order they are offered a line.
// Order matters where formats nest: ctest first (ctest --output-on-failure shows a gtest binary's output as
// that ctest test's output), go -json before go text, jest before the check-script lines (`FAIL ./x.test.js`),
// and the generic check-script shapes last.
import { Parser } from "../parser";
import { CtestParser } from "./runners/ctest";
import { PytestParser } from "./runners/pytest";
import { UnittestParser } from "./runners/unittest";
import { CargoTestParser } from "./runners/cargo-test";
import { GoTestParser } from "./runners/go-test";
import { GoTestJsonParser } from "./runners/go-test-json";
import { GtestParser } from "./runners/gtest";
import { JestParser } from "./runners/jest";
import { NodeTestParser } from "./runners/node-test";
import { TapParser } from "./runners/tap";
import { CheckScriptParser } from "./runners/check-script";
import { JunitLogParser } from "./runners/junit-log";

export function runnerParsers(): Parser[] {
  let go = new GoTestParser();
  let ps = new Array<Parser>(0);
  ps.push(new JunitLogParser());
  ps.push(new CtestParser());
  ps.push(new PytestParser());
  ps.push(new UnittestParser());
  ps.push(new CargoTestParser());
  ps.push(new GoTestJsonParser(go));
  ps.push(go);
  ps.push(new GtestParser());
  ps.push(new JestParser(false));
  ps.push(new JestParser(true));
  ps.push(new NodeTestParser());
  ps.push(new TapParser());
  ps.push(new CheckScriptParser());
  return ps;
}
