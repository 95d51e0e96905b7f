// The corrupt controls: the raw log rewritten so the engine reads a consistent, plausible verdict whose
// fault line (corrupt_line) or crash kind (corrupt_kind) is a decoy, everything else identical. The
// rewrite happens on the raw bytes, so every place the log names the fault moves together, and the
// engine derives the hint, identity and summary of the decoy itself.
import type { Verdict } from '../host/index.js';

export interface Fault {
  file: string;
  line: number;
}

const base = (p: string): string => p.slice(p.lastIndexOf('/') + 1);
const esc = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The line a verdict blames: the crash's first user frame, the first error, the first failing test. */
export function faultOf(v: Verdict): Fault | null {
  const f = v.crash?.first_user_frame;
  if (f?.file && f.line) return { file: base(f.file), line: f.line };
  const d = v.diagnostics.find((x) => x.severity === 'error' && x.file && x.line);
  if (d?.file && d.line) return { file: base(d.file), line: d.line };
  const t = v.tests?.failures.find((x) => x.file && x.line);
  if (t?.file && t.line) return { file: base(t.file), line: t.line };
  const g = v.error_groups.find((x) => x.file && x.line);
  if (g?.file && g.line) return { file: base(g.file), line: g.line };
  return null;
}

export interface Bent {
  text: string;
  check(v: Verdict): boolean;
}

/** Every mention of fault's file:line (gcc, sanitizers, rustc, Python tracebacks) moved to the decoy's. */
export function corruptLine(raw: string, fault: Fault | null, decoy: Fault | null): Bent | null {
  if (!fault || !decoy) return null;
  // The decoy is a line of a source file: a fault the log places elsewhere (a failing assertion in a
  // test file, as on the assertion-only Python tasks) is not moved into the source; nothing to corrupt.
  if (base(fault.file) !== base(decoy.file)) return null;
  const f = esc(fault.file);
  const n = fault.line;
  const to = base(decoy.file);
  // A left boundary: ledger.cpp:8 must not match inside test_ledger.cpp:8.
  const text = raw
    .replace(new RegExp(`(?<![\\w.-])((?:[\\w./-]*/)?)${f}:${n}(?!\\d)`, 'g'), `$1${to}:${decoy.line}`)
    .replace(new RegExp(`(?<![\\w.-])((?:[\\w./-]*/)?)${f}", line ${n}(?!\\d)`, 'g'), `$1${to}", line ${decoy.line}`);
  if (text === raw) return null;
  return {
    text,
    check: (v) => {
      const g = faultOf(v);
      return g !== null && g.file === to && g.line === decoy.line;
    },
  };
}

/** Decoy crash kinds: each maps to a kind of the same family that a reader would fix differently. */
const KIND_SWAPS: [RegExp, string, string][] = [
  [/heap-buffer-overflow/g, 'heap-use-after-free', 'heap-buffer-overflow'],
  [/heap-use-after-free/g, 'heap-buffer-overflow', 'heap-use-after-free'],
  [/stack-buffer-overflow/g, 'stack-use-after-scope', 'stack-buffer-overflow'],
  [/double-free/g, 'heap-use-after-free', 'double-free'],
  [/signed integer overflow/g, 'division by zero', 'signed-integer-overflow'],
  [/null pointer/g, 'misaligned address', 'null-pointer-use'],
  [/index out of bounds/g, 'attempt to subtract with overflow', 'index out of bounds'],
  [/attempt to subtract with overflow/g, 'index out of bounds', 'attempt to subtract with overflow'],
  [/\bKeyError\b/g, 'IndexError', 'KeyError'],
  [/\bTypeError\b/g, 'ValueError', 'TypeError'],
  [/\bAssertionError\b/g, 'ValueError', 'AssertionError'],
];

/** The first kind the verdict shows swapped for its decoy throughout the log; null when none applies. */
export function corruptKind(raw: string, v: Verdict): Bent | null {
  const kind = v.crash?.kind ?? v.tests?.failures[0]?.message ?? '';
  for (const [re, to, from] of KIND_SWAPS) {
    if (!kind.includes(from) && !(from === 'null-pointer-use' && kind === from) && !(from === 'signed-integer-overflow' && kind === from)) continue;
    re.lastIndex = 0;
    const text = raw.replace(re, to);
    if (text === raw) continue;
    return {
      text,
      check: (nv) => {
        const k = nv.crash?.kind ?? nv.tests?.failures[0]?.message ?? '';
        return k !== kind && !k.includes(from);
      },
    };
  }
  return null;
}
