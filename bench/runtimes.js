// npm run bench:runtimes — the same Wasm engine in three hosts on the same >= 100 MB log, side by side in
// one run: Node, real headless Chromium (Debian's, via playwright-core), Python (wasm2c + ctypes).
// The log is every fixture log concatenated and repeated (real output, never invented); each host feeds
// it in 1 MiB chunks from memory, 1 warm-up + 5 timed runs, median MB/s; the ratio is to Node. Each
// host's verdict JSON for the big log is hashed: they must agree.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createEngine } from '../dist/engine.js';
import { listCases, ROOT } from '../fixtures/lib/cases.js';
import { launch } from '../test/browser/_chromium.js';

const RUNS = 5;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const sha = (s) => createHash('sha256').update(s).digest('hex').slice(0, 16);
const mixed = Buffer.concat(listCases().map((c) => c.log));
const reps = Math.ceil((100 * 1024 * 1024) / mixed.length);
const big = Buffer.concat(Array.from({ length: reps }, () => mixed));
const MB = big.length / 1048576;
const dir = mkdtempSync(join(tmpdir(), 'sbx-bench-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
const file = join(dir, 'big.log');
writeFileSync(file, big);

// The timed loop, the same source in Node and in Chromium.
async function timed(createEngine, bytes, runs) {
  const e = await createEngine();
  const once = () => { const s = e.stream({ exit: 1 }); for (let off = 0; off < bytes.length; off += 1 << 20) s.push(bytes.subarray(off, off + (1 << 20))); return s.end(); };
  const env = once();
  const ms = [];
  for (let i = 0; i < runs; i++) { const t = performance.now(); once(); ms.push(performance.now() - t); }
  return { ms, json: JSON.stringify(env) };
}

const node = await timed(createEngine, big, RUNS);

const browser = await launch();
let chromium;
try {
  const { createServer } = await import('node:http');
  const { readFileSync } = await import('node:fs');
  const server = createServer((req, res) => {
    if (req.url === '/engine.js') { res.writeHead(200, { 'content-type': 'text/javascript' }); res.end(readFileSync(join(ROOT, 'dist/engine.js'))); }
    else if (req.url === '/big.log') { res.writeHead(200); res.end(big); }
    else { res.writeHead(200, { 'content-type': 'text/html' }); res.end('<!doctype html><title>bench</title>'); }
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const page = await browser.newPage();
  await page.goto(`http://127.0.0.1:${server.address().port}/`);
  chromium = await page.evaluate(async ({ src, runs }) => {
    const { createEngine } = await import('/engine.js');
    const bytes = new Uint8Array(await (await fetch('/big.log')).arrayBuffer());
    return (0, eval)(`(${src})`)(createEngine, bytes, runs);
  }, { src: timed.toString(), runs: RUNS });
  server.close();
} finally {
  await browser.close();
}

const pyScript = `
import json, sys, time
from sbx_engine import Engine, to_json
data = open(sys.argv[1], 'rb').read()
e = Engine()
def once():
    e.begin(exit=1)
    for off in range(0, len(data), 1 << 20):
        e.push(data[off:off + (1 << 20)])
    return e.end()
env = once()
ms = []
for _ in range(int(sys.argv[2])):
    t = time.perf_counter(); once(); ms.append((time.perf_counter() - t) * 1000)
print(json.dumps({"ms": ms, "json": to_json(env)}))
`;
const env = { ...process.env, PYTHONPATH: join(ROOT, 'python'), SBX_ENGINE_CACHE: join(ROOT, 'build/py-engine') };
const py = spawnSync('python3', ['-c', pyScript, file, String(RUNS)], { env, encoding: 'utf8', maxBuffer: 64 << 20 });
const python = py.status === 0 ? JSON.parse(py.stdout) : null;

const rows = [['Node', node], ['Chromium', chromium], ['Python (wasm2c)', python]];
const nodeRate = MB / (median(node.ms) / 1000);
console.log(`engine throughput on one ${MB.toFixed(1)} MB log (every fixture log x ${reps}), 1 MiB chunks, median of ${RUNS}`);
console.log('host              median s   MB/s    ratio to Node   verdict sha256');
for (const [name, r] of rows) {
  if (!r) { console.log(`${name.padEnd(17)} did not run: ${py.stderr.trim().split('\n').pop()}`); continue; }
  const rate = MB / (median(r.ms) / 1000);
  console.log(`${name.padEnd(17)} ${(median(r.ms) / 1000).toFixed(3).padStart(8)}  ${rate.toFixed(1).padStart(6)}   ${(rate / nodeRate).toFixed(2).padStart(8)}        ${sha(r.json)}`);
}
const hashes = new Set(rows.filter(([, r]) => r).map(([, r]) => sha(r.json)));
console.log(hashes.size === 1 ? 'verdicts: identical in every host' : 'verdicts: DIFFER between hosts');
process.exitCode = hashes.size === 1 ? 0 : 1;
