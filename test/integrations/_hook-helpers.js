// Helpers for the hook tests: the captured payloads with this machine's paths filled in, and a hook run
// through the real CLI (payload on stdin, answer parsed from stdout).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bin, cli, root } from './_client.js';

export const PAYLOADS = join(root, 'test', 'integrations', 'payloads', 'claude-code-2.1.332');
export const CODEX_PAYLOADS = join(root, 'test', 'integrations', 'payloads', 'codex-0.171.0');
export const GEMINI_PAYLOADS = join(root, 'test', 'integrations', 'payloads', 'gemini-cli-0.61.0');

/** A captured payload with this machine's paths filled in. */
export function payload(name, project, dir = PAYLOADS) {
  const text = readFileSync(join(dir, name), 'utf8')
    .replaceAll('{{PROJECT}}', project).replaceAll('{{HOME}}', join(project, '..', 'home'))
    .replaceAll('{{NODE}}', process.execPath).replaceAll('{{CLI}}', bin);
  return JSON.parse(text);
}

// An empty HOME: the hooks read the user's Claude settings (permission rules) from there.
const home = mkdtempSync(join(tmpdir(), 'sbx-hook-home-'));
process.on('exit', () => rmSync(home, { recursive: true, force: true }));

// SBX_RESIDENT=0: rewrites and installs name node and the CLI, as the captured payloads do, whether or not
// build/sbx-client was built (test/integrations/resident.test.js checks the client's form).
export const NODE_FORM = { SBX_RESIDENT: '0' };

export function hook(name, input, { cwd, env = {} } = {}) {
  const r = spawnSync(process.execPath, [cli, 'hook', name], { input: typeof input === 'string' ? input : JSON.stringify(input), encoding: 'utf8', cwd, env: { ...process.env, HOME: home, CLAUDE_PROJECT_DIR: '', ...NODE_FORM, ...env } });
  return { status: r.status, stderr: r.stderr, answer: r.stdout ? JSON.parse(r.stdout) : null };
}


export const sbx = (...args) => spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', env: { ...process.env, ...NODE_FORM } });

/**
 * What an installed hook command line runs once its guard passed (`[ -x … ] || { echo …; exit 2; }; exec
 * RUN`: src/integrations/hook/install.ts), or null when the line has no such guard.
 */
export function guarded(command) {
  const m = /^\[ -x \S+ \] && \[ -f \S+ \] \|\| \{ echo '[^']*(?:'\\''[^']*)*' >&2; exit [02]; \}; exec (.+)$/.exec(command);
  return m ? m[1] : null;
}
