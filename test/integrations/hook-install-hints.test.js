// What install says besides "installed": what each client still needs, or it goes on without sbx silently.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sbx } from './_hook-helpers.js';

const tmp = mkdtempSync(join(tmpdir(), 'sbx-hook-hints-'));
const t = suite('hook install: hints');

t('--codex says how to trust the hooks (Codex skips untrusted hooks silently)', () => {
  const r = sbx('hook', 'install', '--codex', '--dir', tmp);
  assert.is(r.status, 0, r.stderr);
  assert.match(r.stdout, /Codex skips hooks it has not been told to trust, silently: run codex, open \/hooks and trust/);
});

t('--claude says claude -p needs --allowedTools mcp__sbx__run for the MCP tool', () => {
  const r = sbx('hook', 'install', '--claude', '--dir', tmp);
  assert.is(r.status, 0, r.stderr);
  assert.match(r.stdout, /--allowedTools mcp__sbx__run/);
});

t.after(() => rmSync(tmp, { recursive: true, force: true }));
t.run();
