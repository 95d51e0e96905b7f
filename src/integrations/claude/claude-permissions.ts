// Claude Code's own Bash permission rules, honoured before a rewrite (hook/permissions.ts says why).
// Rules are read from the settings files Claude reads (managed, user, project, project-local), in the
// forms Claude documents for Bash: `Bash` (every command), `Bash(npm run test:*)` (a prefix), and
// `Bash(git push *)` / `Bash(make)` (a pattern where * matches anything), each matched against the whole
// line and each of its simple commands.
import { join } from 'node:path';
import * as v from 'valibot';
import { escapeRegExp, readJsonFile, refusal, type Notes, type Refusal } from '../hook/permissions.js';

const Settings = v.looseObject({
  permissions: v.optional(v.looseObject({ deny: v.optional(v.array(v.string())), ask: v.optional(v.array(v.string())) })),
});

/** A Bash deny/ask rule and the settings file it came from. */
export interface ClaudeRule {
  rule: string;
  decision: 'deny' | 'ask';
  source: string;
}

export function settingsFiles(projectDir: string, home: string): string[] {
  return ['/etc/claude-code/managed-settings.json', join(home, '.claude', 'settings.json'), join(projectDir, '.claude', 'settings.json'), join(projectDir, '.claude', 'settings.local.json')];
}

/** The Bash deny/ask rules of those files (a missing file has none; an unreadable one, a note). */
export function bashRules(files: string[], notes: Notes = []): ClaudeRule[] {
  const out: ClaudeRule[] = [];
  for (const source of files) {
    const json = readJsonFile(source, notes);
    if (json === null) continue;
    const r = v.safeParse(Settings, json);
    if (!r.success) {
      notes.push(`${source}: permissions is not {deny: [...], ask: [...]}; its rules are not honoured`);
      continue;
    }
    for (const decision of ['deny', 'ask'] as const) {
      for (const rule of r.output.permissions?.[decision] ?? []) if (rule === 'Bash' || rule.startsWith('Bash(')) out.push({ rule, decision, source });
    }
  }
  return out;
}

/** The first rule that names the line or one of its commands, or null. */
export function claudeRefusal(line: string, rules: ClaudeRule[]): Refusal | null {
  const compiled = rules.map((r) => ({ r, re: ruleRegExp(r.rule) }));
  return refusal(line, null, (part) => {
    const hit = compiled.find((c) => c.re.test(part.text));
    return hit ? { decision: hit.r.decision, rule: hit.r.rule, source: hit.r.source } : null;
  });
}

function ruleRegExp(rule: string): RegExp {
  if (rule === 'Bash' || rule === 'Bash()' || rule === 'Bash(*)') return /^/;
  const body = rule.slice(5, -1);
  return body.endsWith(':*') ? new RegExp(`^${escapeRegExp(body.slice(0, -2))}(\\s|$)`) : new RegExp(`^${body.split('*').map(escapeRegExp).join('.*')}$`);
}
