// The same Wasm engine (dist/engine.js, the package's `sbx-exec/engine` export) in real Chromium and in
// Node must give byte-identical verdict JSON and rendered text on every fixture, blind ones included,
// whole and streamed in odd-sized chunks, and the same delta on every before/after pair.
import { test as uvuTest } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createEngine } from '../../dist/engine.js';
import { listCases } from '../../fixtures/lib/cases.js';
import { ROOT, launch, serve } from './_chromium.js';
import { needs } from '../_tools.js';

const test = needs('test/browser/engine (the engine in Chromium)', ['chromium'], uvuTest);

const cases = listCases(join(ROOT, 'fixtures'), { blind: true }).map((c) => {
  const report = join(c.dir, 'report.xml');
  return {
    id: c.id,
    log: `/${relative(ROOT, join(c.dir, 'log.txt'))}`,
    report: existsSync(report) ? `/${relative(ROOT, report)}` : null,
    opts: { exit: c.run.exit ?? null, signal: c.run.signal ?? null, timedOut: Boolean(c.run.timed_out), log: c.id },
  };
});
const PAIRS = join(ROOT, 'fixtures/pairs');
const pairs = readdirSync(PAIRS).filter((n) => existsSync(join(PAIRS, n, 'before/log.txt'))).sort().map((n) => ({
  id: n,
  sides: ['before', 'after'].map((s) => ({ log: `/fixtures/pairs/${n}/${s}/log.txt`, opts: JSON.parse(readFileSync(join(PAIRS, n, s, 'run.json'), 'utf8')) })),
}));

// Runs in both hosts: the function's source is what Chromium evaluates.
async function runAll(createEngine, read, cases, pairs) {
  const e = await createEngine();
  const out = {};
  for (const c of cases) {
    const bytes = await read(c.log);
    // A report that is not JUnit XML is refused (E_JUNIT_INVALID) in both hosts, with the same words.
    const merge = async (env) => {
      if (!c.report) return env;
      try { return e.mergeJunit(env, await read(c.report)); } catch (err) { return { refused: `${err.code}: ${err.message}` }; }
    };
    const env = await merge(e.verdict(bytes, c.opts));
    const s = e.stream(c.opts);
    for (let off = 0; off < bytes.length; off += 4099) s.push(bytes.subarray(off, off + 4099));
    const streamed = await merge(s.end());
    out[c.id] = { json: JSON.stringify(env), text: env.refused ?? e.render(env), streamed: JSON.stringify(streamed) };
  }
  for (const p of pairs) {
    const v = [];
    for (const s of p.sides) v.push(e.verdict(await read(s.log), { exit: s.opts.exit ?? null, signal: s.opts.signal ?? null, timedOut: Boolean(s.opts.timed_out) }).verdict);
    const delta = e.delta(v[0], v[1], { treeChanged: true, sameRuns: 2 });
    const env = { schema: 'sbx.run-result/1', outcome: null, verdict: v[1], delta, log: null };
    out[`pair ${p.id}`] = { json: JSON.stringify(delta), text: e.render(env) };
  }
  return out;
}

const inNode = await runAll(createEngine, async (p) => readFileSync(join(ROOT, p)), cases, pairs);

let inChromium; let ua;
if (!test.skipping) {
  const browser = await launch();
  const server = await serve(['/dist/', '/fixtures/']);
  try {
    const page = await browser.newPage();
    await page.goto(server.url);
    inChromium = await page.evaluate(async ({ src, cases, pairs }) => {
      const { createEngine } = await import('/dist/engine.js');
      const read = async (p) => new Uint8Array(await (await fetch(p)).arrayBuffer());
      const run = (0, eval)(`(${src})`);
      return run(createEngine, read, cases, pairs);
    }, { src: runAll.toString(), cases, pairs });
    // What a browser would refuse: the engine module names no Node built-in and runs as plain ESM.
    ua = await page.evaluate(() => navigator.userAgent);
  } finally {
    await browser.close();
    await server.close();
  }
}
test('the engine ran in Chromium, not Node', () => { assert.match(ua, /HeadlessChrome|Chromium|Chrome/); });

test('every fixture and pair went through both hosts', () => {
  assert.ok(cases.length > 100, `only ${cases.length} fixtures`);
  assert.equal(Object.keys(inChromium).sort(), Object.keys(inNode).sort());
});

for (const id of Object.keys(inNode)) {
  test(`Chromium = Node: ${id}`, () => {
    const n = inNode[id]; const c = inChromium[id];
    assert.ok(c, 'missing in Chromium');
    assert.is(c.json, n.json, 'verdict JSON differs');
    assert.is(c.text, n.text, 'rendered text differs');
    if (n.streamed !== undefined) {
      assert.is(n.streamed, n.json, 'streamed in chunks differs from whole (Node)');
      assert.is(c.streamed, n.json, 'streamed in chunks differs from whole (Chromium)');
    }
  });
}

test.run();
