// Codex CLI's own command rules (its exec policy), honoured before a rewrite (hook/permissions.ts says
// why; with Codex 0.171 the policy judges the rewritten `node … sbx run …` line, so a rule on `make`
// no longer applies once rewritten). Where Codex 0.171 reads them (developers.openai.com/codex/rules,
// codex-rs/core/src/exec_policy.rs):
//   - every `*.rules` file in `rules/` beside each active config layer: /etc/codex/rules (system),
//     $CODEX_HOME/rules (user, default ~/.codex), and <dir>/.codex/rules for each dir from the project
//     root (the nearest ancestor with .git) down to the cwd, when the project is trusted
//     (`[projects."<path>"] trust_level = "trusted"` in $CODEX_HOME/config.toml);
//   - `[rules] prefix_rules` in /etc/codex/requirements.toml (admin-enforced; `pattern` of
//     `{token = "…"}` / `{any_of = […]}`, decision "prompt" or "forbidden").
// A rule matches a command whose first words are its pattern (each position one of its alternatives; an
// absolute program path also matches a rule on its basename); when several match, the strictest
// decision wins (forbidden > prompt > allow), so an allow rule never lifts a forbidden one.
import { existsSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import * as v from 'valibot';
import { filesIn, readRuleFile, refusal, type Notes, type Refusal } from '../hook/permissions.js';
import { parseRules, type PrefixRule } from './starlark.js';

export interface CodexPlaces {
  codexHome: string;
  cwd: string;
  etc?: string;
}

const Config = v.looseObject({ projects: v.optional(v.record(v.string(), v.looseObject({ trust_level: v.optional(v.string()) }))) });
const Token = v.union([v.strictObject({ token: v.pipe(v.string(), v.nonEmpty()) }), v.strictObject({ any_of: v.pipe(v.array(v.pipe(v.string(), v.nonEmpty())), v.nonEmpty()) })]);
const Requirements = v.looseObject({
  rules: v.optional(
    v.looseObject({
      prefix_rules: v.array(v.looseObject({ pattern: v.pipe(v.array(Token), v.nonEmpty()), decision: v.picklist(['prompt', 'forbidden']), justification: v.optional(v.string()) })),
    }),
  ),
});

/** The rules Codex would load for a session in places.cwd, with a note for whatever cannot be read. */
export function loadCodexRules(places: CodexPlaces, notes: Notes): PrefixRule[] {
  const etc = places.etc ?? '/etc/codex';
  const dirs = [join(etc, 'rules'), join(places.codexHome, 'rules')];
  if (projectTrusted(places, notes)) dirs.push(...projectDirs(places.cwd).map((d) => join(d, '.codex', 'rules')));
  const rules: PrefixRule[] = [];
  for (const dir of dirs) {
    for (const file of filesIn(dir, '.rules', notes)) {
      const text = readRuleFile(file, notes);
      if (text === null) continue;
      const r = parseRules(text, file);
      rules.push(...r.rules);
      notes.push(...r.notes);
    }
  }
  rules.push(...requirementsRules(join(etc, 'requirements.toml'), notes));
  return rules;
}

/** The rule that keeps the line (or its rewrite) from being rewritten, or null. */
export function codexRefusal(line: string, rewrite: string | null, rules: PrefixRule[]): Refusal | null {
  return refusal(line, rewrite, (part) => {
    if (!part.words) return null; // Codex judges the commands of a line, not the line
    let worst: PrefixRule | null = null;
    for (const r of rules) {
      if (r.decision !== 'allow' && matches(r, part.words) && (!worst || r.decision === 'forbidden')) worst = r;
    }
    return worst ? { decision: worst.decision === 'forbidden' ? 'deny' : 'ask', rule: ruleText(worst), source: worst.at } : null;
  });
}

function matches(rule: PrefixRule, words: string[]): boolean {
  if (rule.pattern.length > words.length) return false;
  return rule.pattern.every((alts, i) => {
    const w = words[i]!;
    // Codex resolves host executables: `/usr/bin/make` falls back to a rule on `make`.
    return alts.includes(w) || (i === 0 && w.startsWith('/') && alts.includes(basename(w)));
  });
}

const ruleText = (r: PrefixRule) => `prefix_rule(pattern = ${JSON.stringify(r.pattern.map((a) => (a.length === 1 ? a[0] : a)))}, decision = "${r.decision}")`;

/** From the project root (the nearest ancestor holding .git, else the cwd) down to the cwd. */
function projectDirs(cwd: string): string[] {
  const chain: string[] = [];
  for (let d = resolve(cwd); ; d = dirname(d)) {
    chain.unshift(d);
    if (existsSync(join(d, '.git'))) return chain;
    if (dirname(d) === d) return [resolve(cwd)];
  }
}

/** The nearest entry for cwd or one of its ancestors in [projects] of the user's config.toml decides. */
function projectTrusted(places: CodexPlaces, notes: Notes): boolean {
  const file = join(places.codexHome, 'config.toml');
  const text = readRuleFile(file, notes);
  if (text === null) return false;
  let json: unknown;
  try {
    json = parseToml(text);
  } catch (err) {
    notes.push(`${file} is not TOML (${(err as Error).message.split('\n')[0]}); project rules are not honoured`);
    return false;
  }
  const r = v.safeParse(Config, json);
  if (!r.success) return false;
  const projects = r.output.projects ?? {};
  for (let d = resolve(places.cwd); ; d = dirname(d)) {
    const level = projects[d]?.trust_level;
    if (level !== undefined) return level === 'trusted';
    if (dirname(d) === d) return false;
  }
}

function requirementsRules(file: string, notes: Notes): PrefixRule[] {
  const text = readRuleFile(file, notes);
  if (text === null) return [];
  let json: unknown;
  try {
    json = parseToml(text);
  } catch (err) {
    notes.push(`${file} is not TOML (${(err as Error).message.split('\n')[0]}); its rules are not honoured`);
    return [];
  }
  const r = v.safeParse(Requirements, json);
  if (!r.success) {
    notes.push(`${file}: rules.prefix_rules: ${v.getDotPath(r.issues[0]) ?? ''} ${r.issues[0].message}; its rules are not honoured`);
    return [];
  }
  return (r.output.rules?.prefix_rules ?? []).map((p, i) => ({
    pattern: p.pattern.map((t) => ('token' in t ? [t.token] : t.any_of)),
    decision: p.decision,
    at: `${file} rules.prefix_rules[${i}]`,
    ...(p.justification ? { justification: p.justification } : {}),
  }));
}
