// Text that did not come from sbx (a program's output, a path a sandbox could have planted) made safe to
// print on a terminal or hand to an agent: every control character but TAB, the C1 controls (U+009B is a
// one-character CSI), the bidirectional controls (text shown reordered, "Trojan Source") and the line and
// paragraph separators become U+FFFD. The engine's decoder replaces the same ones in everything it reads
// (assembly/util/utf8.ts); this is for the few host paths that show such text without the engine.

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE = /[\u0000-\u0008\u000a-\u001f\u0080-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;

export function visible(s: string): string {
  return s.replace(UNSAFE, '\uFFFD');
}
