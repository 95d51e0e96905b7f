// Code points that act on a terminal or on how text reads (C1 controls, bidirectional controls, the line
// and paragraph separators) never reach the verdict or its rendering from a program's output: each is
// replaced by U+FFFD, as control bytes are. One row per code point, through each way text enters the
// engine: a tail line, a compiler diagnostic's file and message, a panic's message and file, a JUnit
// report's character reference, and an envelope handed to render() with the code point in its strings.
// A JUnit report's references to control characters (but TAB and LF) get U+FFFD as raw control bytes do.
// The ordinary non-ASCII text beside them (and the zero-width characters left alone) passes unchanged.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createEngine } from '../../dist/engine.js';

const engine = await createEngine();
const FFFD = '\uFFFD';

const REPLACED = [
  ...Array.from({ length: 0x20 }, (_, i) => 0x80 + i), // C1: U+0085 NEL, U+009B CSI, U+009D OSC, ...
  0x061C, 0x200E, 0x200F, // ALM, LRM, RLM
  0x2028, 0x2029, // line and paragraph separators
  0x202A, 0x202B, 0x202C, 0x202D, 0x202E, // LRE RLE PDF LRO RLO
  0x2066, 0x2067, 0x2068, 0x2069, // LRI RLI FSI PDI
];
// Neighbours of the replaced ranges, and what is left on purpose (zero-width joiners and BOM neither
// move the cursor nor reorder text): unchanged.
const KEPT = [0x7E, 0xA0, 0xE9, 0x061B, 0x061D, 0x200B, 0x200C, 0x200D, 0x2027, 0x202F, 0x2065, 0x206A, 0xFEFF, 0x4E2D, 0x1F600];

const hex = (cp) => `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
const HIDDEN_RE = /[\u0080-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/u;

/** Every way the code point can enter: [what, env]. */
function envsWith(ch) {
  const tail = engine.verdict(Buffer.from(`step one\nout a${ch}b\n`), { exit: 1 });
  const diag = engine.verdict(Buffer.from(`src/m${ch}x.c:3:5: error: expected ${ch} here\n`), { exit: 1 });
  const panic = engine.verdict(Buffer.from(`thread 'main' panicked at src/m${ch}.rs:2:5:\nboom ${ch} here\nnote: run with \`RUST_BACKTRACE=1\` environment variable to display a backtrace\n`), { exit: 101 });
  const ref = `&#x${ch.codePointAt(0).toString(16)};`;
  const xml = `<?xml version="1.0"?><testsuite name="s" tests="1" failures="1"><testcase classname="c" name="t${ref}n"><failure message="m${ref}m">body${ref}</failure></testcase></testsuite>`;
  const junit = engine.mergeJunit(engine.verdict(Buffer.from('x\n'), { exit: 1 }), Buffer.from(xml));
  // An envelope built by someone else (a state file, the library's caller) with the raw code point.
  const forged = structuredClone(tail);
  forged.verdict.tail = [`forged a${ch}b`];
  forged.verdict.setup_error = `setup ${ch} error`;
  return { tail, diag, panic, junit, forged };
}

for (const cp of REPLACED) {
  const ch = String.fromCodePoint(cp);
  test(`${hex(cp)} is replaced by U+FFFD in the verdict and the rendering`, () => {
    const e = envsWith(ch);
    for (const [what, env] of Object.entries(e)) {
      const text = engine.render(env);
      assert.not.ok(text.includes(ch), `${what}: rendered text holds ${hex(cp)}:\n${text}`);
      assert.not.ok(HIDDEN_RE.test(text), `${what}: rendered text holds a hidden code point`);
      if (what !== 'forged') assert.not.ok(JSON.stringify(env).includes(ch), `${what}: verdict holds ${hex(cp)}`);
    }
    assert.equal(e.tail.verdict.tail, ['step one', `out a${FFFD}b`]);
    assert.is(e.diag.verdict.diagnostics[0].file, `src/m${FFFD}x.c`);
    assert.is(e.diag.verdict.diagnostics[0].message, `expected ${FFFD} here`);
    assert.is(e.panic.verdict.crash.message, `boom ${FFFD} here`);
    assert.is(e.junit.verdict.tests.failures[0].name, `c.t${FFFD}n`);
    assert.ok(engine.render(e.tail).includes(`\n  | out a${FFFD}b\n`));
    assert.ok(engine.render(e.forged).includes(`\n  | forged a${FFFD}b\n`));
    assert.ok(engine.render(e.forged).includes(`setup: setup ${FFFD} error\n`));
  });
}

test('the code points left alone pass unchanged', () => {
  for (const cp of KEPT) {
    const ch = String.fromCodePoint(cp);
    const e = envsWith(ch);
    assert.equal(e.tail.verdict.tail, ['step one', `out a${ch}b`], hex(cp));
    assert.is(e.diag.verdict.diagnostics[0].message, `expected ${ch} here`, hex(cp));
    assert.is(e.junit.verdict.tests.failures[0].name, `c.t${ch}n`, hex(cp));
    assert.ok(engine.render(e.tail).includes(`\n  | out a${ch}b\n`), hex(cp));
    assert.ok(engine.render(e.forged).includes(`\n  | forged a${ch}b\n`), hex(cp));
  }
});

test('the UTF-8 bytes of each replaced code point give one U+FFFD, not one per byte', () => {
  for (const cp of REPLACED) {
    const env = engine.verdict(Buffer.concat([Buffer.from('a'), Buffer.from(String.fromCodePoint(cp)), Buffer.from('b\n')]), { exit: 1 });
    assert.equal(env.verdict.tail, [`a${FFFD}b`], hex(cp));
  }
});

test('a JUnit character reference to a control, past U+10FFFF or to a surrogate is U+FFFD, not an engine abort', () => {
  for (const ref of ['&#27;', '&#x1b;', '&#13;', '&#0;', '&#x7;', '&#x110000;', '&#1114112;', '&#x1FFFFFF;', '&#xD800;', '&#xDFFF;']) {
    const xml = `<?xml version="1.0"?><testsuite name="s" tests="1" failures="1"><testcase classname="c" name="t${ref}n"><failure message="m">x</failure></testcase></testsuite>`;
    const env = engine.mergeJunit(engine.verdict(Buffer.from('x\n'), { exit: 1 }), Buffer.from(xml));
    assert.is(env.verdict.tests.failures[0].name, `c.t${FFFD}n`, ref);
  }
});

test.run();
