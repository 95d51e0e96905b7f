// `sbx hook ACTION`: agent hooks. claude-pre / claude-post (Claude Code) and codex-pre / codex-post
// (Codex CLI) are what the client runs (payload on stdin, answer on stdout, always exit 0); install /
// uninstall edit the client's hook file.
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { defineCommand } from 'citty';
import { SbxError } from '../errors.js';

const ACTIONS = ['claude-pre', 'claude-post', 'codex-pre', 'codex-post', 'install', 'uninstall'] as const;

export default defineCommand({
  meta: { name: 'hook', description: 'Agent hooks: claude-pre, claude-post, codex-pre, codex-post (run by the client), install, uninstall' },
  args: {
    action: { type: 'positional', description: ACTIONS.join(' | '), required: true },
    claude: { type: 'boolean', description: 'install/uninstall: Claude Code (.claude/settings.json)' },
    codex: { type: 'boolean', description: 'install/uninstall: Codex CLI (.codex/hooks.json)' },
    project: { type: 'boolean', description: 'install/uninstall: in the project dir (the default)' },
    user: { type: 'boolean', description: 'install/uninstall: in ~/.claude or $CODEX_HOME (~/.codex)' },
    dir: { type: 'string', description: 'install/uninstall --project: the project dir (default: .)' },
  },
  async run({ args }) {
    const action = args.action as string;
    if (action === 'claude-pre' || action === 'claude-post' || action === 'codex-pre' || action === 'codex-post') {
      const { runHook } = await import('../hook/run-hook.js');
      await runHook(action);
      return { exitCode: 0 };
    }
    if (action !== 'install' && action !== 'uninstall') {
      throw new SbxError('E_USAGE', `unknown hook action ${JSON.stringify(action)}: use one of ${ACTIONS.join(', ')}`);
    }
    if (Boolean(args.claude) === Boolean(args.codex)) throw new SbxError('E_USAGE', `sbx hook ${action} needs the client: --claude (Claude Code) or --codex (Codex CLI)`);
    if (args.project && args.user) throw new SbxError('E_USAGE', 'give --project or --user, not both');
    const client = args.codex ? 'codex' : 'claude';
    const { install, uninstall, settingsPath } = await import('../hook/install.js');
    const path = settingsPath(client, args.user ? 'user' : 'project', resolve(args.dir ?? '.'), homedir());
    if (action === 'install') {
      const cli = realpathSync(process.argv[1] ?? '');
      const { backup } = install(client, path, { node: process.execPath, cli });
      const name = client === 'codex' ? 'Codex' : 'Claude Code';
      process.stdout.write(`sbx: ${name} hooks installed in ${path}${backup ? ` (previous file kept as ${backup})` : ''}\n`);
    } else {
      const { backup, removed } = uninstall(path);
      process.stdout.write(removed ? `sbx: ${removed} sbx hook(s) removed from ${path}${backup ? ` (previous file kept as ${backup})` : ''}\n` : `sbx: no sbx hooks in ${path}\n`);
    }
    return { exitCode: 0 };
  },
});
