// The navigable list beside the verdict: the crash's frames, then diagnostics (with their notes),
// then failing tests, each with a location to point at. Pure: verdict in, rows out.
import type { Verdict } from '../engine/index.js';

export interface Item {
  group: 'crash' | 'diagnostic' | 'test';
  /** One line for the list. */
  label: string;
  /** The full text for the detail box. */
  detail: string;
  file: string | null;
  line: number | null;
  col: number | null;
  user: boolean;
  severity: 'error' | 'warning' | 'note' | 'frame';
}

const at = (file: string | null, line: number | null, col?: number | null): string => (file ? `${file}${line ? `:${line}${col ? `:${col}` : ''}` : ''}` : '(no file)');

export function itemsOf(v: Verdict): Item[] {
  const out: Item[] = [];
  const c = v.crash;
  if (c) {
    const first = c.first_user_frame ? JSON.stringify(c.first_user_frame) : null;
    const head = `${c.tool} ${c.kind}${c.message ? `: ${c.message}` : ''}`;
    const frames = [...c.frames.map((f) => ({ f, part: 'stack' })), ...c.alloc_frames.map((f) => ({ f, part: 'allocated' })), ...c.free_frames.map((f) => ({ f, part: 'freed' }))];
    for (const { f, part } of frames) {
      const fn = f.function ?? '??';
      out.push({
        group: 'crash',
        severity: 'frame',
        user: f.user,
        file: f.file,
        line: f.line,
        col: f.col,
        label: `${part === 'stack' ? '' : `${part} `}#${f.index ?? '?'} ${fn} ${at(f.file, f.line, f.col)}${part === 'stack' && JSON.stringify(f) === first ? '  ← first user frame' : ''}`,
        detail: `${head}\n${part} frame #${f.index ?? '?'}: ${fn}\n${at(f.file, f.line, f.col)}${f.module ? `\nmodule ${f.module}` : ''}\n${f.user ? 'user code' : 'library / runtime code'}`,
      });
    }
  }
  for (const d of v.diagnostics) {
    out.push({
      group: 'diagnostic',
      severity: d.severity,
      user: true,
      file: d.file,
      line: d.line,
      col: d.col,
      label: `${d.severity} ${at(d.file, d.line, d.col)} ${d.message}`,
      detail: `${d.tool} ${d.severity}${d.code ? ` [${d.code}]` : ''}\n${at(d.file, d.line, d.col)}\n${d.message}${(d.notes ?? []).map((n) => `\n  note ${at(n.file, n.line, n.col)}: ${n.message}`).join('')}`,
    });
  }
  for (const t of v.tests?.failures ?? []) {
    out.push({
      group: 'test',
      severity: 'error',
      user: true,
      file: t.file,
      line: t.line,
      col: null,
      label: `failed ${t.name}${t.file ? ` ${at(t.file, t.line)}` : ''}`,
      detail: `${t.name}\n${at(t.file, t.line)}\n${t.message}${t.expected !== null ? `\nexpected: ${t.expected}` : ''}${t.actual !== null ? `\nactual: ${t.actual}` : ''}`,
    });
  }
  return out;
}
