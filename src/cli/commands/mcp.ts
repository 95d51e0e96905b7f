// `sbx mcp`: serve the sbx tools (run, verdict, history, show) over MCP on stdio, until stdin closes.
import { defineCommand } from 'citty';
import pkg from '../../../package.json' with { type: 'json' };

export default defineCommand({
  meta: { name: 'mcp', description: 'Serve run, verdict, history and show as MCP tools on stdio' },
  async run() {
    const { serve } = await import('../../integrations/mcp/server.js');
    await serve(pkg.version);
    return { exitCode: 0 };
  },
});
