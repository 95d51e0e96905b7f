// Issue 29: no line that matters may vanish. A line a parser holds back while it waits for what follows
// (rustc's bare `error: ...` waiting for its `-->` location) goes to the tail when nothing confirms it,
// in the order it came.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createEngine } from '../../dist/engine.js';

const engine = await createEngine();
const verdict = (text, exit = 1) => engine.verdict(new TextEncoder().encode(text), { exit }).verdict;

test('a bare `error:` with backticks and no location goes back to the tail, in order', () => {
  const v = verdict('starting\nerror: cannot open `settings.toml`\nusing the defaults\n');
  assert.equal(v.tail, ['starting', 'error: cannot open `settings.toml`', 'using the defaults']);
});

test('the same line as the last of the log is not lost either', () => {
  const v = verdict('error: cannot open `settings.toml`\n');
  assert.equal(v.tail, ['error: cannot open `settings.toml`']);
});

test('confirmed by its `-->` location it is rustc\'s diagnostic, not the tail', () => {
  const v = verdict('error: cannot find value `x` in this scope\n --> src/main.rs:2:5\n  |\n');
  assert.equal(v.diagnostics.length, 1);
  assert.equal(v.diagnostics[0].file, 'src/main.rs');
  assert.equal(v.tail, []);
});

test.run();
