// `sbx mcp`: placeholder until the MCP server lands.
import { defineCommand } from 'citty';
export default defineCommand({ meta: { name: 'mcp', description: 'MCP server on stdio' }, async run() { return { exitCode: 0 }; } });
