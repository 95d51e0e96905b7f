// FNV-1a (32 bits) over a string's UTF-16 code units: how a verdict's tests.passed_set names a test that
// passed, eight lower-case hex digits each. Deterministic, no table.

export function nameHash(s: string): u32 {
  return hashOn(0x811c9dc5, s);
}

/**
 * The key a build's object names its source by: the object's stem and `.o` (`parse.o`, `parse.lo`, `parse.obj`:
 * `parse.o`), which is a source's stem and `.o` (parse.c, parse.cc, parse.cpp). As nameHash(stem + ".o").
 */
export function objectKey(stem: string): u32 {
  return hashOn(nameHash(stem), ".o");
}

function hashOn(h: u32, s: string): u32 {
  for (let i = 0, n = s.length; i < n; i++) { h ^= <u32>s.charCodeAt(i); h *= 16777619; }
  return h;
}

/**
 * A test's key in a passed list: its name, after its unit (go's package, cargo's crate, jest's and vitest's test
 * file) and a NUL when the log names one, so that a test of the same name in another unit is another test.
 * The key of a failure is that of its `package` (none: the name alone).
 */
export function testHash(unit: string, name: string): u32 {
  if (unit.length == 0) return nameHash(name);
  let h = hashOn(0x811c9dc5, unit);
  h ^= 0; h *= 16777619;
  return hashOn(h, name);
}

/** Passed tests a verdict keeps the hash of (Tests.passedSet): 8 bytes of JSON each. */
export const MAX_PASSED_SET = 4096;

/** hs with name's hash added, or null: hs was null (the list cannot be told whole), or past MAX_PASSED_SET. */
export function withName(hs: Array<u32> | null, name: string, unit: string = ""): Array<u32> | null {
  if (hs === null || hs.length >= MAX_PASSED_SET) return null;
  hs.push(testHash(unit, name));
  return hs;
}

/** A skipped list with name's hash added: started when null, left as it is past MAX_PASSED_SET (it need not be whole). */
export function withSkipped(hs: Array<u32> | null, name: string, unit: string = ""): Array<u32> {
  if (hs === null) hs = new Array<u32>(0);
  if (hs.length < MAX_PASSED_SET) hs.push(testHash(unit, name));
  return hs;
}

const HEX = "0123456789abcdef";

/** The hashes as one string of 8 hex digits each. */
export function hashesHex(hs: Array<u32>): string {
  let out = new Array<i32>(hs.length * 8);
  for (let i = 0; i < hs.length; i++) {
    let h = hs[i];
    for (let k = 0; k < 8; k++) out[i * 8 + k] = HEX.charCodeAt(<i32>((h >> (28 - 4 * k)) & 15));
  }
  return String.fromCharCodes(out);
}

/** hashesHex() read back; what is not 8 hex digits ends it. */
export function hexHashes(s: string): Array<u32> {
  let out = new Array<u32>(0);
  for (let i = 0; i + 8 <= s.length; i += 8) {
    let h: u32 = 0;
    for (let k = 0; k < 8; k++) {
      let c = s.charCodeAt(i + k);
      let d = c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : -1;
      if (d < 0) return out;
      h = (h << 4) | <u32>d;
    }
    out.push(h);
  }
  return out;
}
