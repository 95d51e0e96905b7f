// A hostile program's output cannot act on the agent's terminal or reorder what it reads through sbx: a
// program in the sandbox prints C1 controls (U+0085 NEL, U+009B CSI, U+009D OSC, ...), bidirectional
// controls (U+202E RLO, U+2066-U+2069, ...) and the line separators U+2028/U+2029 in a compiler
// diagnostic and in plain lines; `sbx run`'s rendered verdict (stdout and stderr), its --json envelope
// and the MCP show tool's raw slice carry U+FFFD in their place, as for control bytes. The log on disk
// keeps the program's bytes. And an error naming a path the sandbox planted (a symlink's target) says it
// with U+FFFD too.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { CLI, workDir, sbxRun } from './_helpers.js';

const C1 = Array.from({ length: 0x20 }, (_, i) => 0x80 + i);
const OTHERS = [0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069];
const HIDDEN_RE = /[\u0080-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/u;
const FFFD = '\uFFFD';

const line = (cps) => cps.map((cp) => `a${String.fromCodePoint(cp)}`).join('') + 'z';
const LINES = [
  `c1 ${line(C1)}`,
  `bidi ${line(OTHERS)}`,
  `esc \x1b[31mred\x1b[0m \x1b]0;title\x07 done`,
  `src/m${String.fromCodePoint(0x202E)}x.c:3:5: error: expected ${String.fromCodePoint(0x2028)} here`,
];
/** The program: printf with every byte as an octal escape, so only the program makes the code points. */
const octal = (s) => [...Buffer.from(s)].map((b) => `\\${b.toString(8).padStart(3, '0')}`).join('');
const SCRIPT = `#!/bin/sh\n${LINES.map((l) => `printf '${octal(`${l}\n`)}'`).join('\n')}\nexit 1\n`;

const clean = (what, s) => {
  assert.not.ok(HIDDEN_RE.test(s), `${what} holds ${JSON.stringify(s.match(HIDDEN_RE)?.[0])}:\n${s}`);
  assert.not.ok(s.includes('\x1b'), `${what} holds ESC`);
};

test('sbx run: the rendered verdict and the envelope replace each code point the program printed', () => {
  const dir = workDir({ 'out.sh': SCRIPT });
  const text = sbxRun(dir, ['sh', 'out.sh'], { json: false });
  clean('stdout', text.stdout);
  clean('stderr', text.stderr);
  assert.ok(text.stdout.includes(`src/m${FFFD}x.c:3:5: error: expected ${FFFD} here`), text.stdout);
  assert.ok(text.stdout.includes(`  | c1 ${`a${FFFD}`.repeat(C1.length)}z\n`), text.stdout);
  assert.ok(text.stdout.includes(`  | bidi ${`a${FFFD}`.repeat(OTHERS.length)}z\n`), text.stdout);

  const r = sbxRun(dir, ['sh', 'out.sh']);
  clean('--json stdout', r.stdout);
  assert.is(r.verdict.status, 'build-failed', r.why());
  assert.is(r.verdict.diagnostics[0].file, `src/m${FFFD}x.c`);
  assert.ok(r.verdict.tail.includes(`c1 ${`a${FFFD}`.repeat(C1.length)}z`), r.why());
  // The log keeps what the program printed: the code points were really there.
  const log = readFileSync(r.env.log, 'utf8');
  for (const l of LINES) assert.ok(log.includes(l), `the log lacks ${JSON.stringify(l)}`);
});

test('an error that names a path the sandbox could have planted shows it with U+FFFD', () => {
  const dir = workDir({});
  const real = join(dir, `real\u202Eexe.\u009b31m`);
  mkdirSync(real);
  symlinkSync(real, join(dir, 'link'));
  const r = spawnSync(process.execPath, [CLI, 'run', '--work', join(dir, 'link'), '--json', '--', 'true'], { encoding: 'utf8' });
  assert.is.not(r.status, 0);
  assert.match(r.stderr, /symlink/);
  clean('stderr', r.stderr);
  clean('stdout', r.stdout);
  assert.ok(r.stderr.includes(`real${FFFD}exe.${FFFD}31m`), r.stderr);
});

test('the MCP show tool: a raw slice of the log carries U+FFFD in their place', async () => {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  const dir = workDir({ 'out.sh': SCRIPT });
  const client = new Client({ name: 'sbx-test', version: '1' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp'], cwd: dir, stderr: 'pipe' }));
  try {
    const run = await client.callTool({ name: 'run', arguments: { command: 'sh out.sh' } });
    const verdict = run.content.map((c) => c.text).join('\n');
    clean('MCP run text', verdict);
    clean('MCP run structured', JSON.stringify(run.structuredContent));
    const raw = await client.callTool({ name: 'show', arguments: { log: run.structuredContent.log, what: 'raw' } });
    const slice = raw.structuredContent.text;
    clean('MCP show raw', slice);
    assert.ok(slice.includes(`c1 ${`a${FFFD}`.repeat(C1.length)}z`), slice);
    assert.ok(slice.includes(`esc ${FFFD}[31mred${FFFD}[0m`), slice);
  } finally { await client.close(); }
});

test.run();
