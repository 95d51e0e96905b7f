// Joins strings in one allocation. Array<string>#join in AssemblyScript's std concatenates a part at a
// time: n parts make n strings of growing length, O(n x total) bytes, which the minimal runtime keeps
// until the entry point returns. A JUnit text with thousands of entities made 64 MiB of them in one
// call, and a node --test log with 256 open suites 256 MiB, past the engine's memory (bench/fuzz.js).
export function join(parts: string[], sep: string = ""): string {
  let n = parts.length;
  if (n == 0) return "";
  if (n == 1) return unchecked(parts[0]);
  let sepBytes = <usize>sep.length << 1;
  let total = sepBytes * <usize>(n - 1);
  for (let i = 0; i < n; i++) total += <usize>unchecked(parts[i]).length << 1;
  let out = changetype<string>(__new(total, idof<string>()));
  let at = changetype<usize>(out);
  for (let i = 0; i < n; i++) {
    if (i > 0 && sepBytes > 0) { memory.copy(at, changetype<usize>(sep), sepBytes); at += sepBytes; }
    let p = unchecked(parts[i]);
    let bytes = <usize>p.length << 1;
    memory.copy(at, changetype<usize>(p), bytes);
    at += bytes;
  }
  return out;
}
