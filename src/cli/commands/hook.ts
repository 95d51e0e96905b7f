// `sbx hook ACTION`: agent hooks. claude-pre / claude-post (Claude Code), codex-pre / codex-post
// (Codex CLI) and gemini-pre / gemini-post (Gemini CLI) are what the client runs (payload on stdin, answer on stdout, exit 0, or 2
// when a pre-hook fails closed and the call is blocked: run-hook.ts); install (the pre-hook; --post: the
// post-hooks too, for "rewrite": false; --filter: Claude Code's `if` rules; --gemini --mcp-only: no hooks, sbx's
// MCP server in place of Gemini CLI's shell tool; --claude --mcp-hook: the pre-hook as a call to sbx's MCP
// server, in .mcp.json) / uninstall edit the client's hook file.
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { defineCommand } from 'citty';
import { SbxError } from '../../contract/index.js';
import { writeErr, writeOut } from '../closed-pipe.js';
import { redirect } from '../io-redirect.js';
import { geminiTrustRules, hookConfig, hookDoctor, hookInstaller, hookRewrite, hookRunner } from '../../integrations/index.js';

const ACTIONS = ['claude-pre', 'claude-post', 'codex-pre', 'codex-post', 'gemini-pre', 'gemini-post', 'install', 'uninstall', 'doctor'] as const;
const HOOKS = new Set<string>(ACTIONS.slice(0, 6));

export default defineCommand({
  meta: { name: 'hook', description: 'Agent hooks: claude-pre|post, codex-pre|post, gemini-pre|post (run by the client), install, uninstall, doctor (are they live?)' },
  args: {
    action: { type: 'positional', description: ACTIONS.join(' | '), required: true },
    claude: { type: 'boolean', description: 'install/uninstall: Claude Code (.claude/settings.json)' },
    codex: { type: 'boolean', description: 'install/uninstall: Codex CLI (.codex/hooks.json)' },
    gemini: { type: 'boolean', description: 'install/uninstall: Gemini CLI (.gemini/settings.json)' },
    project: { type: 'boolean', description: 'install/uninstall: in the project dir (the default)' },
    user: { type: 'boolean', description: 'install/uninstall: in ~/.claude, $CODEX_HOME (~/.codex) or ~/.gemini' },
    dir: { type: 'string', description: 'install/uninstall/doctor --project: the project dir (default: .)' },
    post: {
      type: 'boolean',
      description: 'install: the post-hooks too, which distil a build\'s output after it ran on the host: needed only with "rewrite": false in sbx.config.json (one more hook process per call)',
    },
    filter: {
      type: 'boolean',
      description:
        "install --claude (project): Claude Code's `if` rules on the pre-hook, so a call naming no command of the sandbox table starts no hook; a line Claude cannot take apart (a `$?` in a compound line, a heredoc, `{ …; }`) then starts one hook per rule (about 30): docs/integrations.md",
    },
    'mcp-only': {
      type: 'boolean',
      description:
        "install --gemini: no hooks; sbx's MCP server (mcpServers.sbx) in place of Gemini CLI's shell tool (run_shell_command in tools.exclude): every command runs in the sandbox, each call cheaper than a hooked shell call: docs/integrations.md",
    },
    'mcp-hook': {
      type: 'boolean',
      description:
        "install --claude (project): the pre-hook as a call to sbx's MCP server (Claude Code's mcp_tool hook; the server in .mcp.json, started once per session) instead of a process per call; a call it leaves alone costs no fork: docs/integrations.md",
    },
    trust: {
      type: 'boolean',
      description:
        'install --gemini (project): also record the project as a trusted folder in ~/.gemini/trustedFolders.json, without which Gemini CLI ignores its .gemini/settings.json (headless too, even with --skip-trust)',
    },
  },
  async run({ args }) {
    const action = args.action as string;
    if (HOOKS.has(action)) {
      const { runHook } = await hookRunner();
      // In the resident sbx the payload is the client's stdin, sent over its socket.
      const stdin = redirect()?.stdin;
      return { exitCode: await runHook(action as Parameters<typeof runHook>[0], { out: writeOut, err: writeErr, ...(stdin ? { stdin } : {}) }) };
    }
    if (action === 'doctor') {
      if (args.project && args.user) throw new SbxError('E_USAGE', 'give --project or --user, not both');
      const { doctor, report } = await hookDoctor();
      const { residentClient, selfCli } = await hookRewrite();
      const cli = selfCli(process.argv[1] ?? '');
      const native = residentClient(cli);
      const home = homedir();
      const named = (['claude', 'codex', 'gemini'] as const).filter((c) => args[c]);
      const checks = doctor(
        {
          scope: args.user ? 'user' : 'project',
          project: realpathSync(resolve(args.dir ?? '.')),
          home,
          codexHome: process.env.CODEX_HOME || join(home, '.codex'),
          env: process.env,
          self: { node: process.execPath, cli, ...(native ? { client: native } : {}) },
        },
        named,
      );
      const { text, failed } = report(checks);
      writeOut(text);
      return { exitCode: failed ? 1 : 0 };
    }
    const mcpOnly = Boolean(args['mcp-only']);
    if (mcpOnly && (action !== 'install' || !args.gemini || args.claude || args.codex || args.post || args.filter))
      throw new SbxError(
        'E_USAGE',
        "--mcp-only goes with sbx hook install --gemini alone (no --claude, --codex, --post or --filter): it installs sbx's MCP server in place of Gemini CLI's shell tool, with no hooks",
      );
    const mcpHook = Boolean(args['mcp-hook']);
    if (mcpHook && !(action === 'install' && args.claude && !args.user && !args.codex && !args.gemini))
      throw new SbxError(
        'E_USAGE',
        "--mcp-hook goes with sbx hook install --claude in a project (the pre-hook calls sbx's MCP server, which it writes into the project's .mcp.json); sbx hook uninstall --claude takes both out",
      );
    if (args.trust && !(action === 'install' && args.gemini && !args.user))
      throw new SbxError('E_USAGE', '--trust goes with sbx hook install --gemini in a project (it records the project as a trusted folder for Gemini CLI)');
    if (args.filter && !(action === 'install' && args.claude && !args.user))
      throw new SbxError('E_USAGE', "--filter goes with sbx hook install --claude in a project (Claude Code's `if` rules, made from that project's sandbox table)");
    if (args.post && action !== 'install') throw new SbxError('E_USAGE', '--post goes with sbx hook install (it installs the post-hooks too, for "rewrite": false)');
    if (action !== 'install' && action !== 'uninstall') {
      throw new SbxError('E_USAGE', `unknown hook action ${JSON.stringify(action)}: use one of ${ACTIONS.join(', ')}`);
    }
    const clients = (['claude', 'codex', 'gemini'] as const).filter((c) => args[c]);
    if (clients.length !== 1) throw new SbxError('E_USAGE', `sbx hook ${action} needs one client: --claude (Claude Code), --codex (Codex CLI) or --gemini (Gemini CLI)`);
    if (args.project && args.user) throw new SbxError('E_USAGE', 'give --project or --user, not both');
    const client = clients[0]!;
    const { install, installServer, uninstall, uninstallServer, settingsPath } = await hookInstaller();
    const path = settingsPath(client, args.user ? 'user' : 'project', resolve(args.dir ?? '.'), homedir());
    // Claude Code's project .mcp.json: where --mcp-hook puts sbx's server (and any other install takes it out).
    const mcpJson = client === 'claude' && !args.user ? join(resolve(args.dir ?? '.'), '.mcp.json') : null;
    if (action === 'install') {
      const { residentClient, selfCli } = await hookRewrite();
      const cli = selfCli(process.argv[1] ?? '');
      // `sbx run` refuses to start from inside its work dir (sandboxed code could replace it): hooks that
      // named such a copy would fail every build command, so say it now.
      const project = realpathSync(resolve(args.dir ?? '.'));
      const rel = relative(project, cli);
      if (!args.user && !rel.startsWith('..') && !isAbsolute(rel)) {
        throw new SbxError(
          'E_WORK_HAS_SBX',
          `this sbx (${cli}) is inside the project ${project}: sbx run refuses to start from there, so every hooked command would fail; install sbx outside the project (npm install -g, or npm link from its checkout) and run install from that copy`,
        );
      }
      // The native client when built (each hook call then costs a few ms, not a Node start): docs/integrations.md.
      const native = residentClient(cli);
      const post = Boolean(args.post);
      const ifs = args.filter ? await claudeIfsFor(project) : null;
      if (args.filter && !ifs)
        writeOut(
          'sbx: --filter: no `if` rules (the sandbox table has a pattern no rule can stand for, "rewrite" is false, SBX_CONFIG names the table, or sbx.config.json cannot be read): the pre-hook runs for every call\n',
        );
      const self = { node: process.execPath, cli, ...(native ? { client: native } : {}) };
      // The server first: a .mcp.json install must refuse (a hand-written mcpServers.sbx) before the hook names it.
      const server = mcpJson && mcpHook ? installServer(mcpJson, self) : null;
      const { backup, hooksRemoved } = install(client, path, self, { post, ifs, mcpOnly, mcpHook });
      if (mcpJson && !mcpHook) uninstallServer(mcpJson);
      const name = { claude: 'Claude Code', codex: 'Codex', gemini: 'Gemini CLI' }[client];
      if (server) {
        writeOut(
          `sbx: Claude Code pre-hook installed in ${path}${backup ? ` (your file kept as ${backup})` : ''} as a call to sbx's MCP server, written into ${mcpJson}${server.backup ? ` (your file kept as ${server.backup})` : ''}: mcpServers.sbx (${process.execPath} ${cli} mcp --hook-only), started once per session; a call the hook leaves alone costs no process\n`,
        );
        writeOut(
          'sbx: Claude Code asks once whether to use the servers of a project\'s .mcp.json: approve sbx (claude -p uses them without asking). Until the server runs (not approved, sbx moved or removed), every Bash call is blocked with the reason (onFailure "block"), none runs on the host unsandboxed\n',
        );
        if (ifs)
          writeOut(
            `sbx: the pre-hook runs only for a line naming a command of the sandbox table (${ifs.length} \`if\` rules): after editing the "hook" tables in sbx.config.json, run this install again\n`,
          );
        writeOut(`${await rewriteNote(project, post, true)}\n`);
        return { exitCode: 0 };
      }
      if (mcpOnly) {
        writeOut(
          `sbx: Gemini CLI MCP route installed in ${path}${backup ? ` (your file kept as ${backup})` : ''}: mcpServers.sbx (${process.execPath} ${cli} mcp) and run_shell_command in tools.exclude, so every command the model runs goes through sbx's run tool, in the sandbox; no hooks${hooksRemoved ? ` (the ${hooksRemoved} sbx hook entr${hooksRemoved === 1 ? 'y' : 'ies'} there taken out)` : ''}\n`,
        );
        writeOut(
          'sbx: if this sbx is moved or removed, Gemini CLI cannot start the server: the model has no run tool and no shell tool (nothing runs on the host); run this install again from where sbx is, or sbx hook uninstall --gemini\n',
        );
        if (!args.user) writeOut(await geminiTrustNote(project, Boolean(args.trust), true));
        return { exitCode: 0 };
      }
      writeOut(`sbx: ${name} ${post ? 'pre- and post-hooks' : 'pre-hook'} installed in ${path}${backup ? ` (your file kept as ${backup})` : ''}\n`);
      if (ifs)
        writeOut(
          `sbx: the pre-hook runs only for a line naming a command of the sandbox table (${ifs.length} \`if\` rules): after editing the "hook" tables in sbx.config.json, run this install again\n`,
        );
      writeOut(`${await rewriteNote(project, post)}\n`);
      // What each client needs besides the file, or it goes on without sbx and says nothing (docs/integrations.md).
      const hint = {
        claude: 'sbx: for the MCP tools (claude mcp add sbx -- …), claude -p refuses mcp__sbx__run until it is allowed: pass --allowedTools mcp__sbx__run (or add it to permissions.allow)',
        codex: 'sbx: Codex skips hooks it has not been told to trust, silently: run codex, open /hooks and trust the sbx hooks (again after every install from another path or edit)',
        gemini: null,
      }[client];
      if (hint) writeOut(`${hint}\n`);
      if (client === 'gemini' && !args.user) writeOut(await geminiTrustNote(project, Boolean(args.trust)));
    } else {
      const { removed, route, how, backup } = uninstall(path);
      // sbx's server in .mcp.json (--mcp-hook) goes with the hook.
      const server = mcpJson ? uninstallServer(mcpJson) : { how: 'untouched' as const, backup: null };
      if (server.how !== 'untouched')
        writeOut(
          {
            restored: `sbx: sbx's MCP server removed: ${mcpJson} is your file from before install again, byte for byte\n`,
            deleted: `sbx: sbx's MCP server removed: ${mcpJson} deleted (install created it)\n`,
            edited: `sbx: sbx's MCP server removed from ${mcpJson} (edited since install, so only its entry was cut out${server.backup ? `; your file from before install is still ${server.backup}` : ''})\n`,
          }[server.how],
        );
      const gone = [removed || !route ? `${removed} sbx hook(s)` : '', route ? "sbx's MCP route (mcpServers.sbx, and run_shell_command in tools.exclude if install put it there)" : '']
        .filter(Boolean)
        .join(' and ');
      const what = {
        untouched: `sbx: no sbx hooks in ${path}`,
        restored: `sbx: ${gone} removed: ${path} is your file from before install again, byte for byte`,
        deleted: `sbx: ${gone} removed: ${path} deleted (install created it)`,
        edited: `sbx: ${gone} removed from ${path} (edited since install, so only sbx's entries were cut out${backup ? `; your file from before install is still ${backup}` : ''})`,
      }[how];
      writeOut(`${what}\n`);
    }
    return { exitCode: 0 };
  },
});

/**
 * Claude Code's `if` rules for the project's sandbox table as it is now (claude-if.ts), or null: no filter
 * (the pre-hook runs for every call) when the table is not the project's own file (SBX_CONFIG) or cannot
 * be read (the pre-hook then blocks every call, which it must see to do).
 */
async function claudeIfsFor(project: string): Promise<readonly string[] | null> {
  if (process.env.SBX_CONFIG) return null;
  const [{ loadHookConfig }, { claudeIfs }] = await Promise.all([hookConfig(), hookInstaller()]);
  try {
    const cfg = loadHookConfig(project);
    return cfg.rewrite ? claudeIfs(cfg.sandbox) : null;
  } catch {
    return null;
  }
}

/**
 * What the hooks installed will do with the project's "rewrite" setting: the pre-hook alone decides
 * everything, except with "rewrite": false, where only a post-hook distils (docs/integrations.md).
 */
async function rewriteNote(project: string, post: boolean, mcpHook = false): Promise<string> {
  const { loadHookConfig } = await hookConfig();
  let rewrite: boolean;
  try {
    rewrite = loadHookConfig(project).rewrite;
  } catch (err) {
    return `sbx: note: ${(err as Error).message}: until it is fixed, the pre-hook blocks every shell call`;
  }
  if (rewrite && post) return 'sbx: note: the post-hooks are needed only with "rewrite": false; each costs one more hook process per call (install without --post to drop them)';
  if (rewrite)
    return `sbx: ${mcpHook ? 'one call to the server' : 'one hook process'} per call: build/test lines run in the sandbox, a build line kept on the host (git pull && make) through \`sbx host\`, which prints its verdict when the output is long`;
  if (post) return 'sbx: "rewrite": false: every command stays on the host; the post-hooks replace a long build/test output with its verdict';
  return 'sbx: warning: "rewrite": false in this project keeps every command on the host, where only a post-hook can distil: with the pre-hook alone the model gets every raw output; install again with --post';
}

/**
 * Gemini CLI reads a project's settings only in a trusted folder (gemini-trust.ts): --trust records it;
 * else, when it is not trusted, what is missing and how to fix it.
 */
async function geminiTrustNote(project: string, trust: boolean, mcpOnly = false): Promise<string> {
  const { geminiTrust, trustFix, trustFolder } = await geminiTrustRules();
  const what = mcpOnly ? 'the MCP route' : 'the hooks';
  if (trust) {
    const file = trustFolder(project, homedir(), process.env);
    if (file) return `sbx: ${project} recorded as a trusted folder in ${file}: Gemini CLI loads its .gemini/settings.json (${what}) there, headless too\n`;
  }
  const t = geminiTrust(project, homedir(), process.env);
  if (t.trusted) return `sbx: Gemini CLI trusts ${project} (${t.why}): ${what} ${mcpOnly ? 'is' : 'are'} live there\n`;
  return `sbx: not live yet: Gemini CLI ignores ${project}/.gemini/settings.json, ${mcpOnly ? 'the MCP route' : 'hooks'} included, until the folder is trusted (${t.why}), without a word, also in a headless run with --skip-trust; fix: ${trustFix(project, mcpOnly)}\n`;
}
