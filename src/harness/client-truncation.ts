// What the real clients send the model of a large command output, for the arms that stand for them
// (test/harness/fixtures/client-truncation: each client's capture of the same five output shapes).
//
// Claude Code 2.1.332's Bash tool (truncate30k): up to 30 000 bytes, the output with its trailing
// whitespace trimmed; past that, the whole output is saved to a file and the model gets its path, its size
// (bytes / 1024, one decimal) and a preview: the first 2 000 characters, cut at the last newline when that
// falls past character 1 000.
//
// Codex 0.171.0's exec_command (truncate10k): tokens counted as bytes / 4 rounded up, 10 000 at most;
// past that, a warning with the token count and the number of lines, the first and last 20 000 bytes (at
// character boundaries) and `…N tokens truncated…` between them, N the tokens over the limit. (Codex's
// header lines before the body, its chunk id and wall time, vary per call and are left to the caller.)
//
// Gemini CLI 0.61.0's run_shell_command (truncate40k): the output with ANSI escapes removed and trimmed
// at both ends (`(empty)` when nothing is left), as `Output: …` with `Exit Code: N` when not 0,
// `Signal: N` (the number) when killed and `Process Group PGID: P`, wrapped in <untrusted_context>; past
// 40 000 characters (UTF-16 units) of that, the whole is saved to a file and the model gets its path, the
// first 8 000 and the last 32 000 characters and `... [N characters omitted] ...` between them.

const CLAUDE_INLINE_BYTES = 30_000;
const CLAUDE_PREVIEW_CHARS = 2_000;
const CODEX_TOKENS = 10_000;
const GEMINI_CHARS = 40_000;
const GEMINI_HEAD = Math.floor(GEMINI_CHARS * 0.2);
const CODEX_SIDE_BYTES = 20_000;

/** Claude Code's Bash tool result for output text; savedAs: where the full output can be read. */
export function claudeBash(text: string, savedAs: string): string {
  const bytes = Buffer.byteLength(text);
  if (bytes <= CLAUDE_INLINE_BYTES) return text.trimEnd();
  let preview = text.slice(0, CLAUDE_PREVIEW_CHARS);
  const nl = preview.lastIndexOf('\n');
  if (nl > CLAUDE_PREVIEW_CHARS / 2) preview = preview.slice(0, nl);
  return `<persisted-output>\nOutput too large (${(bytes / 1024).toFixed(1)}KB). Full output saved to: ${savedAs}\n\nPreview (first 2KB):\n${preview}\n...\n</persisted-output>`;
}

/** Codex's exec_command output body for output bytes (its Output: part). */
export function codexExec(raw: Uint8Array): string {
  const text = new TextDecoder().decode(raw);
  const tokens = Math.ceil(raw.length / 4);
  if (tokens <= CODEX_TOKENS) return text;
  const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  const head = new TextDecoder().decode(raw.subarray(0, boundary(raw, CODEX_SIDE_BYTES)));
  const tail = new TextDecoder().decode(raw.subarray(boundaryFromEnd(raw, CODEX_SIDE_BYTES)));
  return `Warning: truncated output (original token count: ${tokens})\nTotal output lines: ${lines}\n\n${head}…${tokens - CODEX_TOKENS} tokens truncated…${tail}`;
}

export interface GeminiExit {
  exit: number | null;
  /** The signal's number, as Gemini CLI shows it (it maps Node's name through os.constants.signals). */
  signal: number | null;
  /** The command's process group (the real client shows its pid; the harness gives a fixed one). */
  pgid: number;
}

/** Gemini CLI's run_shell_command result for output text; savedAs: where the full output can be read. */
export function geminiShell(text: string, savedAs: string, r: GeminiExit): string {
  const out = text.replace(ANSI, '').trim();
  const parts = [`Output: ${out || '(empty)'}`];
  if (r.exit !== null && r.exit !== 0) parts.push(`Exit Code: ${r.exit}`);
  if (r.signal) parts.push(`Signal: ${r.signal}`);
  parts.push(`Process Group PGID: ${r.pgid}`);
  const content = `<untrusted_context>\n${parts.join('\n').replaceAll('</untrusted_context>', '&lt;/untrusted_context&gt;')}\n</untrusted_context>`;
  if (content.length <= GEMINI_CHARS) return content;
  const tail = GEMINI_CHARS - GEMINI_HEAD;
  const n = (x: number): string => x.toLocaleString('en-US');
  return `Output too large. Showing first ${n(GEMINI_HEAD)} and last ${n(tail)} characters. For full output see: ${savedAs}\n${content.slice(0, GEMINI_HEAD)}\n\n... [${n(content.length - GEMINI_CHARS)} characters omitted] ...\n\n${content.slice(-tail)}`;
}

// ANSI escape sequences, as the strip-ansi package Gemini CLI uses matches them (ansi-regex 6).
const ANSI =
  /[\u001B\u009B][[\]()#;?]*(?:(?:(?:(?:;[-a-zA-Z\d/#&.:=?%@~_]+)*|[a-zA-Z\d]+(?:;[-a-zA-Z\d/#&.:=?%@~_]*)*)?(?:\u0007|\u001B\u005C|\u009C))|(?:(?:\d{1,4}(?:;\d{0,4})*)?[\dA-PR-TZcf-nq-uy=><~]))/g;

/** The largest n ≤ max that does not split a UTF-8 character of b. */
function boundary(b: Uint8Array, max: number): number {
  let n = Math.min(max, b.length);
  while (n > 0 && n < b.length && (b[n]! & 0xc0) === 0x80) n--;
  return n;
}

/** The smallest start ≥ length - max that does not split a UTF-8 character of b. */
function boundaryFromEnd(b: Uint8Array, max: number): number {
  let s = Math.max(0, b.length - max);
  while (s < b.length && (b[s]! & 0xc0) === 0x80) s++;
  return s;
}
