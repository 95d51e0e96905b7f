// The feedback conditions: what the run tool shows the model of one run. Every arm runs the same
// command in sbx and gets the same raw bytes; only this view differs. Each arm's run tool describes
// its own output format, so no arm is handicapped by not knowing what it is reading.
import type { Engine, RunResult } from '../host/index.js';
import { compress } from './compress.js';
import { claudeBash, codexExec, geminiShell } from './client-truncation.js';
import { signalNumber } from '../contract/index.js';
import { corruptKind, corruptLine, faultOf, type Fault } from './corrupt.js';

export const BASE_CONDITIONS = ['raw', 'truncate30k', 'truncate10k', 'truncate40k', 'regex', 'structured', 'structured_delta', 'no_feedback', 'corrupt_line', 'corrupt_kind'] as const;
export type BaseCondition = (typeof BASE_CONDITIONS)[number];
/** What `--conditions all` runs: every base arm, and raw with only the last 2 tool results verbatim. */
export const ALL_CONDITIONS = [...BASE_CONDITIONS, 'raw+mask2'] as const;

export interface Condition {
  name: string;
  base: BaseCondition;
  mask: number | null;
}

export function parseCondition(name: string): Condition | null {
  const m = /^([a-z0-9_]+)(?:\+mask(\d+))?$/.exec(name);
  if (!m || !(BASE_CONDITIONS as readonly string[]).includes(m[1]!)) return null;
  const mask = m[2] === undefined ? null : Number(m[2]);
  if (mask !== null && mask < 1) return null;
  return { name, base: m[1] as BaseCondition, mask };
}

const DESCRIBE: Record<BaseCondition, string> = {
  raw: 'Output: the exit code, then the complete combined stdout and stderr of the command, unmodified.',
  truncate30k:
    'Output: the exit code, then the combined stdout and stderr as Claude Code shows it: up to 30000 bytes whole; past that, the size, a preview of the first 2 KB and the path of a file holding the whole output, which read_file reads.',
  truncate10k:
    'Output: the exit code, then the combined stdout and stderr as Codex shows it: up to 10000 tokens (a token per 4 bytes) whole; past that, the first and last 20000 bytes with a marker saying how many tokens were cut between them.',
  truncate40k:
    'Output: the exit code, then the combined stdout and stderr as Gemini CLI shows it: up to 40000 characters whole (with its exit code and process group); past that, the first 8000 and last 32000 characters, the number cut between them and the path of a file holding the whole output, which read_file reads.',
  regex:
    'Output: the exit code, then the combined stdout and stderr compressed line by line: blank lines, runtime-library stack frames and shadow-memory dumps are dropped, and runs of lines that differ only in numbers are collapsed into one line with a count.',
  structured:
    'Output: a typed verdict of the run instead of its raw output: the status (pass, build-failed, tests-failed, crash, ...), compiler errors with file:line, the crash kind with its first frame in your code, failing tests with file:line, and a hint.',
  structured_delta:
    'Output: a typed verdict of the run instead of its raw output (status, compiler errors with file:line, crash kind and first frame in your code, failing tests, a hint), and a delta: what changed since the previous run (fixed, new, same crash, moved, no-op edit).',
  no_feedback: 'Output: only the exit code of the command (0 means it succeeded); nothing it printed is shown.',
  corrupt_line:
    'Output: a typed verdict of the run instead of its raw output: the status (pass, build-failed, tests-failed, crash, ...), compiler errors with file:line, the crash kind with its first frame in your code, failing tests with file:line, and a hint.',
  corrupt_kind:
    'Output: a typed verdict of the run instead of its raw output: the status (pass, build-failed, tests-failed, crash, ...), compiler errors with file:line, the crash kind with its first frame in your code, failing tests with file:line, and a hint.',
};

export function runToolDescription(c: Condition, cmd: readonly string[]): string {
  const mask = c.mask ? ` Only the last ${c.mask} tool results stay in the conversation verbatim; earlier ones are replaced by a note.` : '';
  return `Run the task's fixed command (${cmd.join(' ')}) in a hermetic sandbox on the current files. Takes no arguments. ${DESCRIBE[c.base]}${mask}`;
}

export interface RunView {
  raw: Uint8Array;
  env: RunResult;
  /** Where truncate30k and truncate40k say the whole output is saved (a path read_file serves), e.g. .tool-results/run-1.txt. */
  savedAs?: string;
  exit: number | null;
  signal: string | null;
  timedOut: boolean;
}

/** The command's process group inside sbx's pid namespace (init is 1, the command 2), as truncate40k shows it. */
const SANDBOX_PGID = 2;

/** Where the whole output of a run is said to be saved, by default (the episode names each run's). */
export const TOOL_RESULTS = '.tool-results/run.txt';

export interface Shown {
  text: string;
  corruptApplied: boolean | null;
}

/** The text the model sees for one run under condition c. fault/decoy: for the corrupt arms. */
export function show(c: Condition, engine: Engine, run: RunView, decoy: { file: string; line: number } | null): Shown {
  const rawText = new TextDecoder().decode(run.raw);
  const head = `exit code: ${run.exit ?? (run.signal ? `killed by ${run.signal}` : 'none')}${run.timedOut ? ' (timed out)' : ''}\n`;
  switch (c.base) {
    case 'raw':
      return { text: head + rawText, corruptApplied: null };
    case 'truncate30k':
      return { text: head + claudeBash(rawText, run.savedAs ?? TOOL_RESULTS), corruptApplied: null };
    case 'truncate10k':
      return { text: head + codexExec(run.raw), corruptApplied: null };
    case 'truncate40k':
      return {
        text: head + geminiShell(rawText, run.savedAs ?? TOOL_RESULTS, { exit: run.exit, signal: run.signal ? signalNumber(run.signal) || null : null, pgid: SANDBOX_PGID }),
        corruptApplied: null,
      };
    case 'regex':
      return { text: head + compress(rawText), corruptApplied: null };
    case 'no_feedback':
      return { text: head, corruptApplied: null };
    case 'structured':
      return { text: tidy(engine.render({ ...run.env, delta: null })), corruptApplied: null };
    case 'structured_delta':
      return { text: tidy(engine.render(run.env)), corruptApplied: null };
    case 'corrupt_line':
    case 'corrupt_kind': {
      const opts = { exit: run.exit, signal: run.signal, timedOut: run.timedOut, log: run.env.log };
      const fault: Fault | null = faultOf(run.env.verdict);
      const bent = c.base === 'corrupt_line' ? corruptLine(rawText, fault, decoy) : corruptKind(rawText, run.env.verdict);
      if (bent === null) return { text: tidy(engine.render({ ...run.env, delta: null })), corruptApplied: null }; // nothing to corrupt (a pass, no line, no known kind)
      const env = engine.verdict(new TextEncoder().encode(bent.text), opts);
      env.outcome = run.env.outcome;
      const took = bent.check(env.verdict);
      return { text: tidy(engine.render({ ...env, delta: null })), corruptApplied: took };
    }
  }
}

/** The rendered verdict without what differs between identical runs (wall time, the host path of the log). */
export function tidy(text: string): string {
  return text.replace(/ · \d+ ms(?: \(\+\d+ ms sbx\))? · /, ' · ').replace(/^log: .*$/m, 'log: raw output kept on disk');
}
