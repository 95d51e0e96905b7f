// "The same command", however it arrives: the line a run's delta is keyed by (store.ts commandKey). The MCP
// run tool runs `bash -c 'go test ./...'`, the hooks `bash -c '<original>'` (after `cd sub || exit 125` when
// the agent's shell was in a subdirectory), a person `sbx run -- go test ./...`: one command, one key.
//
// The rule: `sh -c SCRIPT` or `bash -c SCRIPT` (no more arguments) keys as SCRIPT, and a SCRIPT that is
// plain words (no expansion, redirection, pipe or glob) keys as those words given directly. A script of
// such commands joined by `&&` keys as each of them joined by ` && `; the hooks' `cd DIR || exit N` line
// before the command keys as `cd DIR && `, which is what it means. Anything else keys as the script's
// text. A line that is no such wrapper keys as itself, so keys of existing state do not move.
import { commandLine } from './command-line.js';

const SHELLS = new Set(['sh', 'bash', '/bin/sh', '/bin/bash', '/usr/bin/sh', '/usr/bin/bash']);
/** Characters that make a shell do more than split words, outside quotes. */
const SPECIAL = new Set([...'|&;<>()$`*?[]{}~#!']);
const NAME_ASSIGN = /^[A-Za-z_][A-Za-z0-9_]*=/;

type Token = { word: string } | { op: string };

/**
 * Words and list operators (`&&`, `||`, `;`, newline) of a shell line with quotes removed, or null when it
 * holds anything more (an expansion, a redirection, a pipe, a glob, a comment, an unclosed quote).
 */
export function shellTokens(line: string): Token[] | null {
  const out: Token[] = [];
  let word: string | null = null;
  const end = (): void => {
    if (word !== null) {
      out.push({ word });
      word = null;
    }
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === ' ' || c === '\t') {
      end();
      continue;
    }
    if (c === '\n' || c === ';') {
      end();
      out.push({ op: '\n' });
      continue;
    }
    if ((c === '&' || c === '|') && line[i + 1] === c) {
      end();
      out.push({ op: c + c });
      i++;
      continue;
    }
    if (c === "'") {
      const j = line.indexOf("'", i + 1);
      if (j < 0) return null;
      word = (word ?? '') + line.slice(i + 1, j);
      i = j;
      continue;
    }
    if (c === '"') {
      let s = '';
      let j = i + 1;
      for (; j < line.length && line[j] !== '"'; j++) {
        const d = line[j]!;
        if (d === '$' || d === '`') return null;
        if (d === '\\' && j + 1 < line.length && '"\\$`\n'.includes(line[j + 1]!)) {
          j++;
          if (line[j] !== '\n') s += line[j];
          continue;
        }
        s += d;
      }
      if (j >= line.length) return null;
      word = (word ?? '') + s;
      i = j;
      continue;
    }
    if (c === '\\') {
      if (i + 1 >= line.length) return null;
      i++;
      if (line[i] !== '\n') word = (word ?? '') + line[i];
      continue;
    }
    if (SPECIAL.has(c)) return null;
    word = (word ?? '') + c;
  }
  end();
  return out;
}

/** Splits tokens at operators: [words, op after them] pairs; the last op is ''. */
function commands(tokens: Token[]): { words: string[]; op: string }[] {
  const out: { words: string[]; op: string }[] = [{ words: [], op: '' }];
  for (const t of tokens) {
    if ('word' in t) out[out.length - 1]!.words.push(t.word);
    else {
      out[out.length - 1]!.op = t.op;
      out.push({ words: [], op: '' });
    }
  }
  // Trailing newlines and `;` end the script; they join nothing.
  while (out.length > 1 && out[out.length - 1]!.words.length === 0) {
    out.pop();
    out[out.length - 1]!.op = '';
  }
  return out;
}

/** A script's key, or null when it is more than plain commands joined by `&&`. */
function scriptKey(script: string): string | null {
  const tokens = shellTokens(script);
  if (tokens === null) return null;
  const cmds = commands(tokens);
  // The hooks' `cd DIR || exit N` line: the command after it runs in DIR, as after `cd DIR &&`.
  const first = cmds[0]!;
  if (
    cmds.length > 2 &&
    first.op === '||' &&
    first.words.length === 2 &&
    first.words[0] === 'cd' &&
    cmds[1]!.words.length === 2 &&
    cmds[1]!.words[0] === 'exit' &&
    /^\d+$/.test(cmds[1]!.words[1]!) &&
    cmds[1]!.op === '\n'
  ) {
    cmds.splice(0, 2, { words: first.words, op: '&&' });
  }
  const parts: string[] = [];
  for (const [i, c] of cmds.entries()) {
    if (c.words.length === 0 || NAME_ASSIGN.test(c.words[0]!)) return null;
    if (i < cmds.length - 1 && c.op !== '&&') return null;
    parts.push(commandLine(c.words));
  }
  return parts.join(' && ');
}

/** The line runs of `cmd` (a command line as commandLine() writes it) are keyed by. */
export function keyLine(cmd: string): string {
  const words = shellTokens(cmd);
  if (words === null || words.length !== 3 || !words.every((t) => 'word' in t)) return cmd;
  const [shell, flag, script] = words.map((t) => (t as { word: string }).word);
  if (!SHELLS.has(shell!) || flag !== '-c') return cmd;
  return scriptKey(script!) ?? script!.trim();
}
