// The edit readouts are line-exact (issue 33 §2): write_file replaces the whole file, and the lines an edit
// changes are those a minimal line diff changes, not the span from the first to the last changed line.
// Checked on the diff itself (whole-file rewrites, CRLF, added imports, later edits after an insertion)
// and end to end: an episode whose first edit adds an #include at line 1 and edits the decoy line 20.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createEngine } from '../../dist/index.js';
import { changedLines, loadTasks, parseCondition, runEpisode } from '../../dist/harness.js';

const [c] = loadTasks(undefined, ['c-heap-overflow']);
const buggy = readFileSync(join(c.dir, 'src/names.c'), 'utf8');
const fixed = readFileSync(join(c.dir, 'solution/names.c'), 'utf8');
const L = buggy.split('\n');
const withLines = (text, edits) => { const l = text.split('\n'); for (const [n, s] of Object.entries(edits)) l[n - 1] = s; return l.join('\n'); };

test('an added #include at the top and an edit at line 20: lines 1 and 20, not 1–20', () => {
  const after = `#include <stdio.h>\n${withLines(buggy, { 20: '    if (strlen(list[i]) >= min) count++;' })}`;
  assert.equal(changedLines(buggy, after), [1, 20]);
});

test('a whole-file rewrite that changes one line is that line; identical content is no line', () => {
  assert.equal(changedLines(buggy, fixed), [8]);
  assert.equal(changedLines(buggy, buggy), []);
  assert.equal(changedLines(buggy, buggy.replace(/\n$/, '')), [], 'a missing final newline is no edit');
});

test('CRLF: a rewrite with \\r\\n line ends that changes one line is that line (either direction)', () => {
  assert.equal(changedLines(buggy, fixed.replace(/\n/g, '\r\n')), [8]);
  assert.equal(changedLines(buggy.replace(/\n/g, '\r\n'), fixed), [8]);
});

test('insertions count at the line they follow; deletions at the lines removed; moved blocks stay local', () => {
  assert.equal(changedLines('a\nb\nc\n', 'a\nb\nX\nc\n'), [2]);
  assert.equal(changedLines('a\nb\nc\n', 'X\na\nb\nc\n'), [1]);
  assert.equal(changedLines('a\nb\nc\nd\n', 'a\nd\n'), [2, 3]);
  assert.equal(changedLines('', 'x\n'), [1]);
  // The second function (lines 16-23) moved above the first: its own lines and where it went, not 5-23.
  assert.equal(changedLines(L.join('\n'), [...L.slice(0, 4), ...L.slice(15, 23), ...L.slice(4, 15), ...L.slice(23)].join('\n')), [4, 16, 17, 18, 19, 20, 21, 22, 23]);
});

/** A backend that plays the given tool calls, one a turn, then done. */
const playing = (calls) => {
  let n = 0;
  return { name: 'scripted:test', async complete() { const [name, input] = calls[n++] ?? ['done', {}]; return { content: [{ type: 'tool_use', id: `t${n}`, name, input }], usage: { input: 1, output: 1, cache_read: 0, cache_write: 0 }, model: 'test' }; } };
};
const engine = await createEngine();
const opts = { budget: 12, maxApiCalls: 30, runBeforeEdit: false, maxTokens: 1000 };

test('episode: a first edit that adds an #include and edits the decoy is a decoy touch, not an edit hit; a later fix is edit_hit_any', async () => {
  const first = `#include <stdio.h>\n${withLines(buggy, { 20: '    if (strlen(list[i]) > min) count += 1;' })}`;
  // The second write is the reference fix with the same include: in the file as first found, that is line 8 only.
  const second = `#include <stdio.h>\n${withLines(fixed, { 20: '    if (strlen(list[i]) > min) count += 1;' })}`.replace(/\n/g, '\r\n');
  const rec = await runEpisode(c, parseCondition('raw'), playing([['write_file', { path: 'names.c', content: first }], ['write_file', { path: 'names.c', content: second }], ['run', {}]]), 1, engine, opts);
  assert.equal(rec.first_edit, { file: 'names.c', lines: [1, 20] });
  assert.is(c.decoy.line, 20);
  assert.is(rec.edit_hit, false);
  assert.is(rec.decoy_touched, true);
  assert.equal(rec.edits[1], { file: 'names.c', lines: [8] }, 'the second edit in the numbering of the file as first found');
  assert.is(rec.edit_hit_any, true);
});

test('episode: edits that never come near the fix leave edit_hit and edit_hit_any false', async () => {
  const far = withLines(buggy, { 1: '#include <stdlib.h> /* mem */', 22: '  return count; /* n */' });
  const rec = await runEpisode(c, parseCondition('raw'), playing([['write_file', { path: 'names.c', content: far }], ['write_file', { path: 'notes.txt', content: 'x\n' }]]), 1, engine, opts);
  assert.equal(rec.first_edit.lines, [1, 22]);
  assert.is(rec.edit_hit, false);
  assert.is(rec.edit_hit_any, false);
  assert.is(rec.decoy_touched, false);
  assert.equal(rec.tampered, [{ path: 'notes.txt', how: 'created', when: 'episode' }]);
});

test.run();
