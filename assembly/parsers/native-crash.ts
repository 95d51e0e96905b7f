// The parsers for sanitizer reports (ASan, LSan, TSan, MSan, HWASan) and UBSan runtime errors, in the order they are offered a line.
import { Parser } from "../parser";
import { SanitizerParser } from "./sanitizer";
import { UbsanParser } from "./ubsan";
import { AssertParser } from "./assert";

export function nativeCrashParsers(): Parser[] {
  return [new SanitizerParser(), new UbsanParser(), new AssertParser()];
}
