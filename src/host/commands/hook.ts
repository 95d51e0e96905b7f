// `sbx hook ACTION`: agent hooks. claude-pre / claude-post are what Claude Code runs (payload on stdin,
// answer on stdout, always exit 0); install / uninstall edit its settings file.
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { defineCommand } from 'citty';
import { SbxError } from '../errors.js';

const ACTIONS = ['claude-pre', 'claude-post', 'install', 'uninstall'] as const;

export default defineCommand({
  meta: { name: 'hook', description: 'Agent hooks: claude-pre, claude-post (run by Claude Code), install, uninstall' },
  args: {
    action: { type: 'positional', description: ACTIONS.join(' | '), required: true },
    claude: { type: 'boolean', description: 'install/uninstall: the Claude Code hooks (the only client so far)' },
    project: { type: 'boolean', description: 'install/uninstall: in <dir>/.claude/settings.json (the default)' },
    user: { type: 'boolean', description: 'install/uninstall: in ~/.claude/settings.json' },
    dir: { type: 'string', description: 'install/uninstall --project: the project dir (default: .)' },
  },
  async run({ args }) {
    const action = args.action as string;
    if (action === 'claude-pre' || action === 'claude-post') {
      const { runHook } = await import('../hook/run-hook.js');
      await runHook(action);
      return { exitCode: 0 };
    }
    if (action !== 'install' && action !== 'uninstall') {
      throw new SbxError('E_USAGE', `unknown hook action ${JSON.stringify(action)}: use one of ${ACTIONS.join(', ')}`);
    }
    if (!args.claude) throw new SbxError('E_USAGE', `sbx hook ${action} needs the client: --claude (Claude Code)`);
    if (args.project && args.user) throw new SbxError('E_USAGE', 'give --project or --user, not both');
    const { install, uninstall, settingsPath } = await import('../hook/install.js');
    const path = settingsPath(args.user ? 'user' : 'project', resolve(args.dir ?? '.'), homedir());
    if (action === 'install') {
      const cli = realpathSync(process.argv[1] ?? '');
      const { backup } = install(path, { node: process.execPath, cli });
      process.stdout.write(`sbx: Claude Code hooks installed in ${path}${backup ? ` (previous file kept as ${backup})` : ''}\n`);
    } else {
      const { backup, removed } = uninstall(path);
      process.stdout.write(removed ? `sbx: ${removed} sbx hook(s) removed from ${path}${backup ? ` (previous file kept as ${backup})` : ''}\n` : `sbx: no sbx hooks in ${path}\n`);
    }
    return { exitCode: 0 };
  },
});
