// The user's own permission rules, honoured before a rewrite, for every client. A pre-hook that rewrites
// a command into `sbx run … -- bash -c '<original>'` and allows it would take the command past the
// client's rules: they were written for the original, and no longer match the rewrite (Claude Code,
// Codex and Gemini CLI all judge the rewritten command, observed with each real client). So a command
// line that a deny or ask rule of the user names is not rewritten: the client applies its rule as usual.
// Each client reads its own rule files (claude/, codex/, gemini/); what they share is here: which parts
// of a line a rule is matched against, the refusal they report, and reading rule files without failing.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { SbxError } from '../../contract/index.js';
import { readRegularText } from '../../launcher/index.js';
import { splitCommands } from './rules.js';

/** A rule of the user's that keeps a line off the rewrite. */
export interface Refusal {
  decision: 'deny' | 'ask';
  /** The rule as the user wrote it (`Bash(make:*)`, `prefix_rule(["make"])`, `commandPrefix = "make"`). */
  rule: string;
  /** The file it came from. */
  source: string;
}

/** What a rule is matched against: the whole line (words: null), then each simple command. */
export interface Part {
  text: string;
  words: string[] | null;
}

/** The whole line, then each of its simple commands (quotes removed, words joined by one space). */
export function partsOf(line: string): Part[] {
  return [{ text: line.trim(), words: null }, ...splitCommands(line).map((words) => ({ text: words.join(' '), words }))];
}

/**
 * The first refusal for the original line, or for its rewrite: a rewrite that the user's rules would
 * refuse or ask about (a rule on `node`, an allow-list that does not name sbx) is not made either, so
 * the client judges the command the model wrote rather than failing every build.
 */
export function refusal(line: string, rewrite: string | null, judge: (p: Part) => Refusal | null): Refusal | null {
  for (const l of rewrite === null ? [line] : [line, rewrite]) {
    for (const p of partsOf(l)) {
      const r = judge(p);
      if (r) return r;
    }
  }
  return null;
}

/** Problems met while reading rule files: each becomes one `sbx hook: …` line on stderr. */
export type Notes = string[];

/**
 * A file's text; null when it does not exist, or (with a note) when it cannot be read. Project rule files
 * may have been written by a sandboxed command: never opened so as to block (a FIFO), nor read when huge.
 * Symlinks are followed: the user's own settings are often links into a dotfiles checkout.
 */
export function readRuleFile(path: string, notes: Notes): string | null {
  try {
    return readRegularText(path, { follow: true, maxBytes: MAX_RULE_FILE });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (err instanceof SbxError) notes.push(`${err.message.replace(/: sbx reads .*$/, '')}; its rules are not honoured`);
    else if (code !== 'ENOENT' && code !== 'ENOTDIR') notes.push(`cannot read ${path} (${code ?? (err as Error).message}); its rules are not honoured`);
    return null;
  }
}

const MAX_RULE_FILE = 16 << 20;

/** A file's JSON; null when it does not exist or (with a note) is not JSON. */
export function readJsonFile(path: string, notes: Notes): unknown {
  const text = readRuleFile(path, notes);
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    notes.push(`${path} is not JSON (${(err as Error).message}); its rules are not honoured`);
    return null;
  }
}

/** The files of dir whose names end with ext, sorted (none when dir does not exist). */
export function filesIn(dir: string, ext: string, notes: Notes): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isFile() && e.name.endsWith(ext))
      .map((e) => join(dir, e.name))
      .sort();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') notes.push(`cannot list ${dir} (${code ?? (err as Error).message}); its rules are not honoured`);
    return [];
  }
}

export const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
