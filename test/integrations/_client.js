// The real Claude Code client for the integration suites: installed from npm at a pinned version into
// node_modules/.cache (once; later runs reuse it), driven headless against the scripted model.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export const root = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
export const cli = join(root, 'dist', 'cli.js');
/** What hooks name and rewrite commands to: the bin beside cli.js (no ES module loader at every start). */
export const bin = join(root, 'dist', 'cli.cjs');
export const CLAUDE_VERSION = '2.1.332';

export const CODEX_VERSION = '0.171.0';
export const GEMINI_VERSION = '0.61.0';

/** { bin } or { skip: reason }. SBX_GEMINI_BIN points at an installed client instead. */
export function ensureGemini() {
  return ensureClient('@google/gemini-cli', GEMINI_VERSION, 'gemini', process.env.SBX_GEMINI_BIN);
}

/** { bin } or { skip: reason }. SBX_CLAUDE_BIN points at an installed client instead. */
export function ensureClaude() {
  return ensureClient('@anthropic-ai/claude-code', CLAUDE_VERSION, 'claude', process.env.SBX_CLAUDE_BIN);
}

/** { bin } or { skip: reason }. SBX_CODEX_BIN points at an installed client instead. */
export function ensureCodex() {
  return ensureClient('@openai/codex', CODEX_VERSION, 'codex', process.env.SBX_CODEX_BIN);
}

function ensureClient(pkg, version, name, override) {
  if (override) return { bin: override };
  const dir = join(root, 'node_modules', '.cache', 'sbx-integrations', `${pkg.split('/')[1]}-${version}`);
  const bin = join(dir, 'node_modules', '.bin', name);
  if (!existsSync(bin)) {
    // Installed beside, then renamed into place: two suites installing at once (npm test runs two files at
    // a time) never run a client the other is still writing; the second rename finds the first's and gives way.
    mkdirSync(dirname(dir), { recursive: true });
    const tmp = mkdtempSync(`${dir}.installing-`);
    const r = spawnSync('npm', ['install', '--prefix', tmp, '--no-audit', '--no-fund', '--no-save', '--loglevel=error', `${pkg}@${version}`], { encoding: 'utf8', timeout: 300_000 });
    if (r.status === 0) {
      if (existsSync(dir) && !existsSync(bin)) rmSync(dir, { recursive: true, force: true }); // an older install cut short
      try { renameSync(tmp, dir); } catch { /* another suite's install is in place */ }
    }
    rmSync(tmp, { recursive: true, force: true });
    if (r.status !== 0 || !existsSync(bin)) return { skip: `cannot install ${pkg}@${version} from npm: ${(r.stderr || r.error?.message || `exit ${r.status}`).trim().split('\n').pop()}` };
  }
  const v = spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: 60_000 });
  if (v.status !== 0 || !v.stdout.includes(version)) return { skip: `${bin} --version did not report ${version}: ${(v.stdout + v.stderr).trim().slice(0, 200)}` };
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

/**
 * `codex exec` in cwd against the scripted Responses API at url: a provider in $CODEX_HOME/config.toml,
 * stdin closed, hooks run without the trust review (--dangerously-bypass-hook-trust), Codex's own
 * sandbox off (sbx is the sandbox under test; Codex's bubblewrap would nest).
 */
export function runCodex(bin, { cwd, codexHome, url, args = [], toml = '', timeoutMs = 240_000, env: extra = {} }) {
  writeFileSync(join(codexHome, 'config.toml'), [
    'model = "gpt-5.5"', 'model_provider = "scripted"', '', '[model_providers.scripted]', 'name = "scripted"',
    `base_url = "${url}"`, 'wire_api = "responses"', 'env_key = "SCRIPTED_API_KEY"', '', toml,
  ].join('\n'));
  const env = { PATH: process.env.PATH, HOME: join(codexHome, '..'), CODEX_HOME: codexHome, LANG: 'C.UTF-8', SCRIPTED_API_KEY: 'scripted-dummy', ...extra };
  return spawnJson(bin, ['exec', '--skip-git-repo-check', '--json', '--dangerously-bypass-hook-trust', '--dangerously-bypass-approvals-and-sandbox', ...args, 'Do the scripted steps.'], { cwd, env, timeoutMs, jsonl: true });
}

/**
 * `gemini -p` in cwd against the scripted Gemini API at url: API-key auth (set in the user settings,
 * ~/.gemini/settings.json under home, which the caller may have merged hooks or MCP servers into), the
 * folder-trust prompt skipped, tool calls approved (--yolo: the shell tool is not offered otherwise).
 */
export function runGemini(bin, { cwd, home, url, args = [], timeoutMs = 240_000, env: extra = {} }) {
  const env = { PATH: process.env.PATH, HOME: home, LANG: 'C.UTF-8', GOOGLE_GEMINI_BASE_URL: url, GEMINI_API_KEY: 'scripted-dummy', NO_COLOR: '1', ...extra };
  return spawnJson(bin, ['-p', 'Do the scripted steps.', '--output-format', 'json', '--skip-trust', '--yolo', ...args], { cwd, env, timeoutMs });
}

/** Gemini CLI's user settings with API-key auth, merged into whatever is there. */
export function geminiSettings(home, extra = {}) {
  const dir = join(home, '.gemini');
  mkdirSync(dir, { recursive: true });
  const f = join(dir, 'settings.json');
  const cur = existsSync(f) ? JSON.parse(readFileSync(f, 'utf8')) : {};
  writeFileSync(f, JSON.stringify({ ...cur, security: { auth: { selectedType: 'gemini-api-key' } }, ...extra }, null, 2));
}

/** `claude -p PROMPT --output-format json ...args` in cwd against the scripted model at url. */
export function runClaude(bin, { cwd, home, url, args = [], timeoutMs = 240_000, env: extra = {} }) {
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    LANG: 'C.UTF-8',
    ANTHROPIC_BASE_URL: url,
    ANTHROPIC_API_KEY: 'sk-ant-scripted-dummy',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    ...extra,
  };
  return spawnJson(bin, ['-p', 'Do the scripted steps.', '--output-format', 'json', ...args], { cwd, env, timeoutMs });
}

function spawnJson(bin, argv, { cwd, env, timeoutMs, jsonl = false }) {
  return new Promise((ok) => {
    // stdin closed: the client must not wait for piped input. Spawned asynchronously: the scripted model
    // answers from this same process.
    const p = spawn(bin, argv, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = ''; let stderr = '';
    p.stdout.on('data', (d) => { stdout += d; });
    p.stderr.on('data', (d) => { stderr += d; });
    const t = setTimeout(() => p.kill('SIGKILL'), timeoutMs);
    p.on('close', (status, signal) => {
      clearTimeout(t);
      let json = null;
      try { json = jsonl ? stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l)) : JSON.parse(stdout); } catch { /* reported by the caller */ }
      ok({ status, signal, stdout, stderr, json });
    });
  });
}
