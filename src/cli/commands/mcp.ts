// `sbx mcp`: serve the sbx tools (run, verdict, history, show) over MCP on stdio, until stdin closes.
import { defineCommand } from 'citty';
import { mcpServer } from '../../integrations/index.js';
import pkg from '../../../package.json' with { type: 'json' };

export default defineCommand({
  meta: { name: 'mcp', description: 'Serve run, verdict, history and show as MCP tools on stdio' },
  args: {
    'as-sbx-run': {
      type: 'boolean',
      description:
        "run does what sbx run --work W --timeout N -- bash -c CMD does: the project's agent config not mounted read-only (.git/config and .git/hooks still are), sbx run's notes under the verdict (for a caller that ran sbx run per command, e.g. the mini-SWE-agent environment)",
    },
    'hook-only': {
      type: 'boolean',
      description: "list no tools: the server of Claude Code's pre-hook as an MCP call (sbx hook install --claude --mcp-hook), which calls the unlisted claude_pre",
    },
  },
  async run({ args }) {
    const { serve } = await mcpServer();
    await serve(pkg.version, { asSbxRun: Boolean(args['as-sbx-run']), hookOnly: Boolean(args['hook-only']) });
    return { exitCode: 0 };
  },
});
