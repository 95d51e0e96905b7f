// The truncation arms against what the real clients sent the model (issue 33): each client drove one
// shell call per output shape (test/harness/fixtures/client-truncation/capture.js, Claude Code 2.1.332,
// Codex 0.171.0, Gemini CLI 0.61.0), and the arm must give the same text, byte for byte: truncate30k Claude Code's Bash
// result (its saved-output path aside: the harness names its own, which read_file serves), truncate10k
// Codex's exec output (its header of chunk id and wall time aside). Offline: the captures are committed.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { claudeBash, codexExec, geminiShell } from '../../dist/harness.js';
import { shape } from './fixtures/client-truncation/shapes.js';

const dir = new URL('./fixtures/client-truncation/', import.meta.url).pathname;
const SHAPES = ['10k', '31k', '40k', '200k', 'longline'];

for (const s of SHAPES) {
  test(`Claude Code, ${s}: truncate30k gives what the client sent`, () => {
    const sent = readFileSync(join(dir, `claude-${s}.txt`), 'utf8');
    const path = /Full output saved to: (.*)/.exec(sent)?.[1] ?? 'unused';
    assert.is(claudeBash(shape(s), path), sent);
  });
  test(`Codex, ${s}: truncate10k gives what the client sent (after its header)`, () => {
    const sent = readFileSync(join(dir, `codex-${s}.txt`), 'utf8');
    assert.is(codexExec(Buffer.from(shape(s))), sent.slice(sent.indexOf('Output:\n') + 'Output:\n'.length));
  });
  test(`Gemini CLI, ${s}: truncate40k gives what the client sent (its saved-output path and process group given)`, () => {
    const sent = readFileSync(join(dir, `gemini-${s}.txt`), 'utf8');
    const path = /For full output see: (.*)/.exec(sent)?.[1] ?? 'unused';
    const pgid = Number(/Process Group PGID: (\d+)/.exec(sent)[1]);
    assert.is(geminiShell(shape(s), path, { exit: 0, signal: null, pgid }), sent);
  });
}

test.run();
