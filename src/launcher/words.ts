// Splitting on white space without a regular expression: V8 compiles a regex at its first use in a
// process and again when it tiers up (~40-70 us each), and a cold `sbx run` splits a few short kernel
// files once (/proc/self/uid_map, cgroup.controllers): a scan of char codes costs a few microseconds.

/** Whether c is a code unit that `\s` matches (WhiteSpace and LineTerminator, as String#trim). */
export function isSpace(c: number): boolean {
  if (c === 32 || (c >= 9 && c <= 13)) return true;
  if (c < 160) return false;
  return c === 160 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/** s.split(/\s+/): the same list, empty strings at either end included. */
export function splitSpace(s: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    if (!isSpace(s.charCodeAt(i))) continue;
    let j = i + 1;
    while (j < s.length && isSpace(s.charCodeAt(j))) j++;
    out.push(s.slice(start, i));
    start = j;
    i = j - 1;
  }
  out.push(s.slice(start));
  return out;
}
