// The real Claude Code client for the integration suites: installed from npm at a pinned version into
// node_modules/.cache (once; later runs reuse it), driven headless against the scripted model.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const root = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
export const cli = join(root, 'dist', 'cli.js');
export const CLAUDE_VERSION = '2.1.332';

/** { bin } or { skip: reason }. SBX_CLAUDE_BIN points at an installed client instead. */
export function ensureClaude() {
  if (process.env.SBX_CLAUDE_BIN) return { bin: process.env.SBX_CLAUDE_BIN };
  const dir = join(root, 'node_modules', '.cache', 'sbx-integrations', `claude-code-${CLAUDE_VERSION}`);
  const bin = join(dir, 'node_modules', '.bin', 'claude');
  if (!existsSync(bin)) {
    mkdirSync(dir, { recursive: true });
    const r = spawnSync('npm', ['install', '--prefix', dir, '--no-audit', '--no-fund', '--no-save', '--loglevel=error', `@anthropic-ai/claude-code@${CLAUDE_VERSION}`], { encoding: 'utf8', timeout: 300_000 });
    if (r.status !== 0 || !existsSync(bin)) return { skip: `cannot install @anthropic-ai/claude-code@${CLAUDE_VERSION} from npm: ${(r.stderr || r.error?.message || `exit ${r.status}`).trim().split('\n').pop()}` };
  }
  const v = spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: 60_000 });
  if (v.status !== 0 || !v.stdout.includes(CLAUDE_VERSION)) return { skip: `${bin} --version did not report ${CLAUDE_VERSION}: ${(v.stdout + v.stderr).trim().slice(0, 200)}` };
  return { bin };
}

/** A fresh project dir holding copies of test/integrations/projects/NAMES, and an empty HOME beside it. */
export function scratchProject(...names) {
  const base = mkdtempSync(join(tmpdir(), 'sbx-integ-'));
  const proj = join(base, 'proj');
  for (const n of names) cpSync(join(root, 'test', 'integrations', 'projects', n), join(proj, n), { recursive: true });
  mkdirSync(join(base, 'home'), { recursive: true });
  return { base, proj, home: join(base, 'home') };
}

/** `claude -p PROMPT --output-format json ...args` in cwd against the scripted model at url. */
export function runClaude(bin, { cwd, home, url, args = [], timeoutMs = 240_000 }) {
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    LANG: 'C.UTF-8',
    ANTHROPIC_BASE_URL: url,
    ANTHROPIC_API_KEY: 'sk-ant-scripted-dummy',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
  };
  return new Promise((ok) => {
    // stdin closed: -p must not wait for piped input. Spawned asynchronously: the scripted model answers
    // from this same process.
    const p = spawn(bin, ['-p', 'Do the scripted steps.', '--output-format', 'json', ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = ''; let stderr = '';
    p.stdout.on('data', (d) => { stdout += d; });
    p.stderr.on('data', (d) => { stderr += d; });
    const t = setTimeout(() => p.kill('SIGKILL'), timeoutMs);
    p.on('close', (status, signal) => {
      clearTimeout(t);
      let json = null;
      try { json = JSON.parse(stdout); } catch { /* reported by the caller */ }
      ok({ status, signal, stdout, stderr, json });
    });
  });
}
