// The dispatcher's first-byte filter (assembly/parsers/set.ts) must never change a verdict: a parser at rest
// is skipped only on lines whose first byte its declared set (starts()) says cannot start anything for it.
// Every fixture log, the repeated failure blocks, and fixture logs cut at line boundaries and joined in
// pairs (so that each parser meets lines in any state) go through the engine with the filter on and off:
// verdict JSON and rendered text must be the same. A set declared too small fails here.
import { test } from 'uvu';
import { createEngine } from '../../dist/engine.js';
import { listCases } from '../../fixtures/lib/cases.js';
import { failureBlocks } from '../../fixtures/lib/blocks.js';

const on = await createEngine();
const off = await createEngine({ dispatchFilter: false });
const cases = listCases();

const same = (name, bytes, opts) => {
  const a = on.verdict(bytes, opts);
  const b = off.verdict(bytes, opts);
  const [ja, jb] = [JSON.stringify(a), JSON.stringify(b)];
  if (ja !== jb) {
    let i = 0;
    while (ja[i] === jb[i]) i++;
    throw new Error(`${name}: the verdict differs with the filter on at ${i}:\n  on  ${ja.slice(Math.max(0, i - 60), i + 120)}\n  off ${jb.slice(Math.max(0, i - 60), i + 120)}`);
  }
  if (on.render(a) !== off.render(b)) throw new Error(`${name}: the rendered text differs with the filter on`);
};

test('every fixture log: the same verdict with the filter on and off', () => {
  for (const c of cases) same(c.id, c.log, { exit: c.run.exit ?? null, signal: c.run.signal ?? null, timedOut: Boolean(c.run.timed_out) });
});

test('every repeated failure block (three copies): the same verdict', () => {
  for (const b of failureBlocks(cases)) same(b.name, Buffer.concat([b.block, b.block, b.block]), { exit: 1 });
});

test('fixture logs cut at line boundaries and joined in pairs: the same verdict', () => {
  let s = 20261206;
  const rnd = (n) => { s = (Math.imul(s, 1103515245) + 12345) >>> 0; return (s >>> 8) % n; };
  const starts = (b) => { const o = [0]; for (let i = 0; i < b.length; i++) if (b[i] === 10) o.push(i + 1); return o; };
  for (let k = 0; k < 2 * cases.length; k++) {
    const a = cases[k % cases.length].log; const b = cases[rnd(cases.length)].log;
    const sa = starts(a); const sb = starts(b);
    const cut = Buffer.concat([a.subarray(sa[rnd(sa.length)]), b.subarray(0, sb[rnd(sb.length)])]);
    same(`pair ${k}`, cut, { exit: 1 });
  }
});

test('a parser another one feeds (go -json feeds go test\'s text parser) is offered the lines after', () => {
  // Two lines of a real `go test -json` log (its `=== RUN` output makes the text parser see go test), then a
  // real plain go test log from its `    names_test.go:7: ...` line on: a line whose first byte is not in the
  // text parser's set, which it must still be offered (ParserSet refreshes its live bit after go -json's offer).
  const log = (id) => cases.find((c) => c.id.endsWith(id)).log.toString();
  const json = log('runners/go-fail-json').split('\n').slice(0, 2).join('\n');
  const text = log('runners/go-multi-pkg').split('\n').slice(1).join('\n');
  same('go -json then go text', Buffer.from(`${json}\n${text}`), { exit: 1 });
});

test.run();
