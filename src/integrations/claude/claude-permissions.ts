// Claude Code's own Bash permission rules, honoured before a rewrite. The pre-hook answers "allow" for
// what it rewrites, and Claude's rules would no longer see the original command; so a command that a
// `deny` or `ask` rule names is not rewritten at all, and Claude applies that rule to it as usual.
// Rules are read from the settings files Claude reads (managed, user, project, project-local), in the
// forms Claude documents for Bash: `Bash` (every command), `Bash(npm run test:*)` (a prefix), and
// `Bash(git push *)` / `Bash(make)` (a pattern where * matches anything).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import { splitCommands } from '../hook/rules.js';

const Settings = v.looseObject({
  permissions: v.optional(v.looseObject({ deny: v.optional(v.array(v.string())), ask: v.optional(v.array(v.string())) })),
});

export function settingsFiles(projectDir: string, home: string): string[] {
  return [
    '/etc/claude-code/managed-settings.json',
    join(home, '.claude', 'settings.json'),
    join(projectDir, '.claude', 'settings.json'),
    join(projectDir, '.claude', 'settings.local.json'),
  ];
}

/** The Bash deny/ask rules of those files (a missing or unreadable file has none). */
export function bashRules(files: string[]): string[] {
  const out: string[] = [];
  for (const f of files) {
    let json: unknown;
    try { json = JSON.parse(readFileSync(f, 'utf8')); } catch { continue; }
    const r = v.safeParse(Settings, json);
    if (!r.success) continue;
    for (const rule of [...(r.output.permissions?.deny ?? []), ...(r.output.permissions?.ask ?? [])]) {
      if (rule === 'Bash' || rule.startsWith('Bash(')) out.push(rule);
    }
  }
  return out;
}

/** The first rule that names the line or one of its commands, or null. */
export function matchingRule(line: string, rules: string[]): string | null {
  const commands = [line.trim(), ...splitCommands(line).map((w) => w.join(' '))];
  for (const rule of rules) {
    if (rule === 'Bash' || rule === 'Bash()' || rule === 'Bash(*)') return rule;
    const body = rule.slice(5, -1);
    const re = body.endsWith(':*') ? new RegExp(`^${escape(body.slice(0, -2))}(\\s|$)`) : new RegExp(`^${body.split('*').map(escape).join('.*')}$`);
    if (commands.some((c) => re.test(c))) return rule;
  }
  return null;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
