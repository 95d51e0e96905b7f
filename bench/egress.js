// bench:egress — the cost of --allow-host: a 100 MB download and the added latency per connection, through
// the whole path (client in the sandbox -> forwarder on its loopback -> unix socket -> the host's proxy ->
// origin) against the same client on the host going straight to the origin. Loopback only (127.0.0.1);
// the name pkg.test is mapped with SBX_PROXY_HOSTS. Goal (issue 35): throughput >= 0.8x of direct.
//   node bench/egress.js [--mb 100] [--n 200] [--rounds 3]
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch } from '../dist/launcher.js';

const arg = (name, def) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? Number(process.argv[i + 1]) : def; };
const MB = arg('mb', 100), N = arg('n', 200), ROUNDS = arg('rounds', 3);
const chunk = Buffer.alloc(1 << 20, 120);
const origin = createServer((req, res) => {
  if (req.url === '/big') {
    res.writeHead(200, { 'Content-Length': MB * chunk.length });
    let left = MB;
    const more = () => { while (left > 0) { left--; if (!res.write(chunk)) return res.once('drain', more); } res.end(); };
    more();
    return;
  }
  res.end('ok\n');
});
await new Promise((ok) => origin.listen(0, '127.0.0.1', ok));
const PORT = origin.address().port;

// The client: raw sockets, so that both sides do the same work. Through the proxy it opens a CONNECT
// tunnel first (what HTTPS clients do); direct, a TCP connection.
const client = `
import { connect } from 'node:net';
const [mode, host, port, n] = process.argv.slice(2);
const via = process.env.HTTPS_PROXY ? new URL(process.env.HTTPS_PROXY) : null;
function open() {
  return new Promise((ok, fail) => {
    if (!via) { const s = connect(Number(port), '127.0.0.1', () => ok(s)); s.on('error', fail); return; }
    const s = connect(Number(via.port), via.hostname);
    s.on('error', fail);
    s.write('CONNECT ' + host + ':' + port + ' HTTP/1.1\\r\\nHost: ' + host + ':' + port + '\\r\\n\\r\\n');
    let head = '';
    const on = (d) => { head += d.toString('latin1'); const i = head.indexOf('\\r\\n\\r\\n'); if (i >= 0) { s.off('data', on); if (!head.startsWith('HTTP/1.1 200')) fail(new Error(head)); else ok(s); } };
    s.on('data', on);
  });
}
async function get(path) {
  const s = await open();
  return new Promise((ok) => { let bytes = 0; s.on('data', (d) => (bytes += d.length)); s.on('end', () => ok(bytes)); s.write('GET ' + path + ' HTTP/1.1\\r\\nHost: ' + host + '\\r\\nConnection: close\\r\\n\\r\\n'); });
}
if (mode === 'big') { const t = process.hrtime.bigint(); const b = await get('/big'); const s = Number(process.hrtime.bigint() - t) / 1e9; console.log(JSON.stringify({ mbps: b / 1048576 / s, bytes: b })); }
else { const ts = []; for (let i = 0; i < Number(n); i++) { const t = process.hrtime.bigint(); await get('/small'); ts.push(Number(process.hrtime.bigint() - t) / 1e6); } ts.sort((a, b) => a - b); console.log(JSON.stringify({ median_ms: ts[ts.length >> 1], p90_ms: ts[Math.floor(ts.length * 0.9)] })); }
`;
const work = mkdtempSync(join(tmpdir(), 'sbx-bench-egress-'));
writeFileSync(join(work, 'client.mjs'), client);
writeFileSync(join(work, 'hosts'), '127.0.0.1 pkg.test\n');
process.env.SBX_PROXY_HOSTS = join(work, 'hosts');

async function inside(mode) {
  const logPath = join(work, `log-${mode}`);
  const r = await launch({ cmd: ['node', '/work/client.mjs', mode, 'pkg.test', String(PORT), String(N)], work, logPath, allowHosts: ['pkg.test'] });
  const out = readFileSync(logPath, 'utf8').trim().split('\n').pop();
  if (r.outcome.exit_code !== 0) throw new Error(`in the sandbox: ${readFileSync(logPath, 'utf8')}`);
  return JSON.parse(out);
}
// The host's client runs in a child process too (asynchronously: the origin is this process).
async function directAsync(mode) {
  const { spawn } = await import('node:child_process');
  return new Promise((ok, fail) => {
    const p = spawn(process.execPath, [join(work, 'client.mjs'), mode, 'pkg.test', String(PORT), String(N)], { env: { PATH: process.env.PATH } });
    let out = '';
    p.stdout.on('data', (d) => (out += d));
    p.on('close', (c) => (c === 0 ? ok(JSON.parse(out.trim())) : fail(new Error(`direct client exit ${c}`))));
  });
}

const rows = [];
for (let i = 0; i < ROUNDS; i++) {
  const d = await directAsync('big');
  const p = await inside('big');
  const dl = await directAsync('small');
  const pl = await inside('small');
  rows.push({ direct_mbps: d.mbps, proxied_mbps: p.mbps, ratio: p.mbps / d.mbps, direct_conn_ms: dl.median_ms, proxied_conn_ms: pl.median_ms, added_ms: pl.median_ms - dl.median_ms });
}
const med = (k) => rows.map((r) => r[k]).sort((a, b) => a - b)[rows.length >> 1];
const f = (x, d = 1) => x.toFixed(d);
for (const r of rows) console.log(`round: direct ${f(r.direct_mbps, 0)} MB/s, through --allow-host ${f(r.proxied_mbps, 0)} MB/s (${f(r.ratio, 2)}x); a connection ${f(r.direct_conn_ms, 3)} ms direct, ${f(r.proxied_conn_ms, 3)} ms proxied`);
console.log(`bench:egress ${MB} MB x ${ROUNDS} rounds, ${N} connections a round (medians): throughput ${f(med('direct_mbps'), 0)} MB/s direct, ${f(med('proxied_mbps'), 0)} MB/s through the proxy = ${f(med('ratio'), 2)}x (goal >= 0.8x); added latency per connection ${f(med('added_ms'), 3)} ms (${f(med('direct_conn_ms'), 3)} -> ${f(med('proxied_conn_ms'), 3)} ms median)`);
origin.close();
rmSync(work, { recursive: true, force: true });
