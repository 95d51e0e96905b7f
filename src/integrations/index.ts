// The integrations layer's one entrance: the agent clients' hooks (Claude Code, Codex, Gemini CLI) and
// the MCP server. Each part is loaded on first use, so a cold `sbx hook claude-pre` loads the hook
// runner alone (not the installer, the doctor or the MCP SDK).
export const hookRunner = () => import('./hook/run-hook.js');
export const hookDoctor = () => import('./hook/doctor.js');
export const hookInstaller = () => import('./hook/install.js');
export const hookRewrite = () => import('./hook/rewrite.js');
export const hostRunner = () => import('./hook/host-run.js');
export const hookConfig = () => import('./hook/config.js');
export const mcpServer = () => import('./mcp/server.js');
export const geminiTrustRules = () => import('./gemini/gemini-trust.js');
export type { HookName, HookIO } from './hook/run-hook.js';
