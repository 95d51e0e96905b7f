// The engine's contract: it imports nothing but env.abort, gives the same bytes for the same input however
// the input is chunked, never traps on garbage, and always returns a schema-valid envelope.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import * as v from 'valibot';
import { createEngine } from '../../dist/engine.js';
import { RunResultSchema } from '../../dist/index.js';
import { listCases, ROOT } from '../../fixtures/lib/cases.js';

const engine = await createEngine();
const cases = listCases();

// A small deterministic PRNG (xorshift32): the fuzz inputs are the same on every run.
function rng(seed) {
  let s = seed >>> 0 || 1;
  return () => { s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0; return s / 4294967296; };
}

test('the Wasm module imports only env.abort', () => {
  const mod = new WebAssembly.Module(readFileSync(`${ROOT}build/sbx.wasm`));
  assert.equal(WebAssembly.Module.imports(mod), [{ module: 'env', name: 'abort', kind: 'function' }]);
});

test('sbx-exec/engine is browser-safe: one self-contained module, no Node APIs, no imports', async () => {
  const src = readFileSync(`${ROOT}dist/engine.js`, 'utf8');
  assert.not.match(src, /^\s*import\s/m);
  assert.not.match(src, /\brequire\(|node:|\bprocess\.|\bBuffer\.|__dirname|import\.meta/);
  const byName = await import('sbx-exec/engine');
  assert.type(byName.createEngine, 'function');
  const host = await import('sbx-exec');
  assert.type(host.run, 'function');
  assert.type(host.createEngine, 'function');
});

test('fixtures exist in every family', () => {
  const fams = new Set(cases.map((c) => c.id.split('/')[0]));
  for (const f of ['cfamily', 'langs', 'runners']) assert.ok(fams.has(f), `no fixtures in ${f}`);
  assert.ok(cases.length > 150, `only ${cases.length} fixtures`);
});

test('same input gives identical bytes twice (verdict and rendering)', () => {
  for (const c of cases) {
    const opts = { exit: c.run.exit ?? null, signal: c.run.signal ?? null };
    const a = engine.verdict(c.log, opts); const b = engine.verdict(c.log, opts);
    assert.is(JSON.stringify(a), JSON.stringify(b), c.id);
    assert.is(engine.render(a), engine.render(b), c.id);
  }
});

test('every crash in the fixtures carries a one-line hint', () => {
  for (const c of cases) {
    const vd = engine.verdict(c.log, { exit: c.run.exit ?? null, signal: c.run.signal ?? null }).verdict;
    if (!vd.crash) continue;
    assert.type(vd.crash.hint, 'string', `${c.id}: ${vd.crash.tool} ${vd.crash.kind}`);
    assert.not.match(vd.crash.hint, /\n/);
  }
});

test('chunking does not change the verdict', () => {
  const r = rng(7);
  for (const c of cases) {
    const opts = { exit: c.run.exit ?? null, signal: c.run.signal ?? null };
    const whole = JSON.stringify(engine.verdict(c.log, opts));
    const s = engine.stream(opts);
    for (let off = 0; off < c.log.length;) {
      const n = 1 + Math.floor(r() * 200);
      s.push(c.log.subarray(off, off + n));
      off += n;
    }
    assert.is(JSON.stringify(s.end()), whole, c.id);
  }
});

test('every fixture\'s verdict, and its delta against the previous fixture\'s and against none, keep the contract', () => {
  // The engine does not check its own output against the schema on the hot path: this does, per fixture.
  let prev = null;
  for (const c of cases) {
    const env = engine.verdict(c.log, { exit: c.run.exit ?? null, signal: c.run.signal ?? null, log: 'log.txt' });
    const ok = v.safeParse(RunResultSchema, env);
    assert.ok(ok.success, `${c.id}: ${ok.success ? '' : ok.issues.map((i) => i.message).join('; ')}`);
    for (const [against, opts] of [[null, {}], [prev, { treeChanged: true, sameRuns: 1 }], [env.verdict, { treeChanged: false, sameRuns: 3 }]]) {
      const d = engine.delta(against, env.verdict, opts);
      const okd = v.safeParse(RunResultSchema, { ...env, delta: d });
      assert.ok(okd.success, `${c.id} delta: ${okd.success ? '' : okd.issues.map((i) => i.message).join('; ')}`);
    }
    prev = env.verdict;
  }
});

test('fuzz: mutated fixtures and random bytes never trap and stay schema-valid', () => {
  const r = rng(42);
  let runs = 0;
  for (const c of cases) {
    for (let k = 0; k < 3; k++) {
      const buf = Buffer.from(c.log);
      const muts = 1 + Math.floor(r() * 40);
      for (let m = 0; m < muts && buf.length; m++) {
        const i = Math.floor(r() * buf.length);
        const op = r();
        if (op < 0.4) buf[i] = Math.floor(r() * 256);
        else if (op < 0.7) buf[i] = [0x0a, 0x3a, 0x23, 0x20, 0x28, 0x29, 0x5b, 0x1b][Math.floor(r() * 8)];
        else buf.copyWithin(i, Math.floor(r() * buf.length), Math.floor(r() * buf.length));
      }
      const cut = buf.subarray(0, Math.floor(r() * (buf.length + 1)));
      const env = engine.verdict(cut, { exit: Math.floor(r() * 256) - 1, signal: r() < 0.2 ? 'SIGSEGV' : null });
      const ok = v.safeParse(RunResultSchema, env);
      assert.ok(ok.success, `${c.id} mutation ${k}`);
      engine.render(env);
      runs++;
    }
  }
  for (let k = 0; k < 200; k++) {
    const n = Math.floor(r() * 5000);
    const buf = new Uint8Array(n);
    for (let i = 0; i < n; i++) buf[i] = Math.floor(r() * 256);
    const env = engine.verdict(buf, {});
    assert.ok(v.safeParse(RunResultSchema, env).success);
    engine.render(env);
    runs++;
  }
  assert.ok(runs > 400);
});

test('CRLF line ends give the same facts as LF', () => {
  for (const c of cases.slice(0, 60)) {
    const crlf = Buffer.from(c.log.toString('latin1').replace(/\n/g, '\r\n'), 'latin1');
    const opts = { exit: c.run.exit ?? null, signal: c.run.signal ?? null };
    const a = engine.verdict(c.log, opts).verdict; const b = engine.verdict(crlf, opts).verdict;
    assert.equal({ ...b, raw_bytes: 0 }, { ...a, raw_bytes: 0 }, c.id);
  }
});

test('invalid UTF-8 and NUL bytes become U+FFFD, never raw bytes', () => {
  const env = engine.verdict(new Uint8Array([0x61, 0xff, 0xfe, 0x00, 0x62, 0xc3, 0x0a, 0xe2, 0x82]), { exit: 1 });
  assert.equal(env.verdict.tail, ['a\uFFFD\uFFFD\uFFFDb\uFFFD', '\uFFFD\uFFFD']);
  assert.is(env.verdict.binary, true);
  assert.is(env.verdict.status, 'runtime-error');
});

test('terminal redraws: a bare CR and "cursor to column 1" replace the line, colour codes vanish', () => {
  const bytes = Buffer.from('50%\r100% done\n\x1b[1G   step\x1b[K\x1b[77G1/4\x1b[2G\x1b[1G \x1b[31;1mok step\x1b[0m\nplain\x1b[Gnew\n', 'latin1');
  assert.equal(engine.verdict(bytes, { exit: 0 }).verdict.tail, ['100% done', ' ok step', 'new']);
});

test('status comes from the exit when the log says nothing', () => {
  assert.is(engine.verdict(new Uint8Array(0), { exit: 0 }).verdict.status, 'pass');
  assert.is(engine.verdict(new Uint8Array(0), { exit: 3 }).verdict.status, 'runtime-error');
  assert.is(engine.verdict(new Uint8Array(0), { timedOut: true, signal: 'SIGKILL' }).verdict.status, 'timeout');
  const sig = engine.verdict(new Uint8Array(0), { signal: 11 }).verdict;
  assert.is(sig.status, 'crash');
  assert.is(sig.crash.kind, 'SIGSEGV');
});

test('a line longer than the line buffer is cut, not kept whole', () => {
  const big = Buffer.alloc(200000, 0x61);
  const env = engine.verdict(Buffer.concat([big, Buffer.from('\nend\n')]), { exit: 1 });
  assert.is(env.verdict.lines, 2);
  assert.ok(env.verdict.tail[0].length < 1000);
});

test.run();

// render() checks an envelope it did not make against the contract; its own (and what sbx sets on
// them: outcome, delta) it renders as they are, with no schema built or run on a cold run's path.
test('render refuses what is not an envelope, and renders its own and their copies', () => {
  const own = engine.verdict(Buffer.from('main.c:1:5: error: expected ; before }\n'), { exit: 1 });
  own.delta = engine.delta(null, own.verdict, { sameRuns: 1 });
  own.outcome = { exit_code: 1 };
  const text = engine.render(own);
  assert.match(text, /build-failed/);
  // A copy made elsewhere (JSON round trip, spread) is checked, and renders the same when valid.
  assert.is(engine.render(JSON.parse(JSON.stringify(own))), text);
  assert.is(engine.render({ ...own }), text);
  for (const [what, bad] of [
    ['an empty object', {}],
    ['an array', []],
    ['a foreign schema', { ...own, schema: 'sbx.run-result/2' }],
    ['a verdict without its status', { ...own, verdict: { ...own.verdict, status: undefined } }],
    ['a count that is not a number', { ...own, verdict: { ...own.verdict, counts: { ...own.verdict.counts, errors: 'x' } } }],
  ]) {
    try {
      engine.render(bad);
      assert.unreachable(`${what} was rendered`);
    } catch (err) {
      assert.is(err.code, 'E_ENVELOPE', what);
      assert.match(err.message, /^cannot render: not a sbx\.run-result\/1 envelope \(.+\)$/, what);
    }
  }
});
