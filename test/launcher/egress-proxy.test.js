// The --allow-host egress proxy (src/launcher/egress-proxy.ts) on the host, with servers on 127.0.0.1
// only: names are mapped by an SBX_PROXY_HOSTS-style resolver, never asked of DNS. Plain HTTP, a
// CONNECT tunnel, HTTPS through the tunnel with a test CA, a large download, a redirect to a refused
// host, a wildcard name that resolves to loopback (DNS rebinding), IP literals; every decision logged.
import { createServer } from 'node:http';
import { connect, createServer as netServer } from 'node:net';
import { createHash, randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as tls from 'node:tls';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { defaultResolver, isPublicAddress, launcherPath, matchHost, parseAllowHost, startEgressProxy } from '../../dist/launcher.js';
import { tempDir } from './_helpers.js';

const BIG = randomBytes(32 * 1024 * 1024);
const origin = createServer((req, res) => {
  if (req.url === '/big') { res.writeHead(200, { 'Content-Length': BIG.length }); res.end(BIG); return; }
  if (req.url === '/redirect') { res.writeHead(302, { Location: 'http://evil.example:80/' }); res.end(); return; }
  res.writeHead(200, { 'Content-Type': 'text/plain' });
  res.end(`hello ${req.method} ${req.url} host=${req.headers.host} proxy-auth=${req.headers['proxy-authorization'] ?? '-'}\n`);
});
await new Promise((ok) => origin.listen(0, '127.0.0.1', ok));
const PORT = origin.address().port;

const dir = tempDir('sbx-proxy-');
const hosts = join(dir, 'hosts');
writeFileSync(hosts, '127.0.0.1 pkg.test rebind.pkg.test\n127.0.0.2 other.test\n# 10.0.0.1 commented.test\n');
const resolve = defaultResolver({ SBX_PROXY_HOSTS: hosts });

let n = 0;
async function proxy(patterns) {
  const path = join(dir, `p${++n}.sock`);
  const p = await startEgressProxy(path, patterns.map(parseAllowHost), { resolve });
  return { ...p, path, decisions: p.decisions, close: p.close };
}

/** Sends raw bytes over the proxy's socket; resolves to everything read until the proxy closes. */
function raw(path, text, { after } = {}) {
  return new Promise((ok, fail) => {
    const s = connect(path);
    const chunks = [];
    s.on('data', (c) => {
      chunks.push(c);
      if (after && Buffer.concat(chunks).includes('\r\n\r\n')) { const f = after; after = null; f(s); }
    });
    s.on('end', () => ok(Buffer.concat(chunks)));
    s.on('error', fail);
    s.write(text);
  });
}

test('patterns: names, wildcards, ports and IP literals; bad ones refused with the syntax', () => {
  assert.equal(parseAllowHost('Registry.Example.com'), { text: 'Registry.Example.com', host: 'registry.example.com', wildcard: false, port: null });
  assert.equal(parseAllowHost('*.example.com:443'), { text: '*.example.com:443', host: 'example.com', wildcard: true, port: 443 });
  assert.equal(parseAllowHost('[::1]:8080').host, '::1');
  assert.equal(parseAllowHost('127.0.0.1:80').port, 80);
  for (const bad of ['', '*', '*.com', 'a b', 'x.example:0', 'x.example:99999', '*.10.0.0.1', 'exa_mple.com', '-x.example', 'x.*.example'])
    assert.throws(() => parseAllowHost(bad), /--allow-host/, bad);
  const ps = ['pkg.test', '*.example.com:443'].map(parseAllowHost);
  assert.is(matchHost(ps, 'PKG.test.', 1)?.text, 'pkg.test');
  assert.is(matchHost(ps, 'a.b.example.com', 443)?.text, '*.example.com:443');
  assert.is(matchHost(ps, 'example.com', 443), null, 'a wildcard does not cover its apex');
  assert.is(matchHost(ps, 'a.example.com', 80), null, 'the port of a pattern holds');
  assert.is(matchHost(ps, 'xpkg.test', 1), null);
  for (const a of ['127.0.0.1', '10.1.2.3', '172.20.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', '::ffff:127.0.0.1', 'fe80::1', 'fd00::1', '224.0.0.1', '64:ff9b::7f00:1'])
    assert.is(isPublicAddress(a), false, a);
  for (const a of ['1.1.1.1', '93.184.216.34', '2606:4700::1111']) assert.is(isPublicAddress(a), true, a);
});

test('plain HTTP: an allowed name is forwarded in origin form; the proxy hop headers are dropped', async () => {
  const p = await proxy(['pkg.test']);
  const out = (await raw(p.path, `GET http://pkg.test:${PORT}/a?b=1 HTTP/1.1\r\nHost: pkg.test:${PORT}\r\nProxy-Authorization: Basic eA==\r\nConnection: close\r\n\r\n`)).toString();
  assert.match(out, /^HTTP\/1\.1 200/);
  assert.match(out, `hello GET /a?b=1 host=pkg.test:${PORT} proxy-auth=-`);
  assert.equal(p.decisions, [{ host: 'pkg.test', port: PORT, decision: 'allowed', reason: null, address: '127.0.0.1', via: 'HTTP' }]);
  await p.close();
});

test('refused: a name not in the list (never resolved), an IP literal, a wildcard name resolving to loopback', async () => {
  const asked = [];
  const path = join(dir, 'r.sock');
  const p = await startEgressProxy(path, ['*.pkg.test'].map(parseAllowHost), { resolve: (h) => { asked.push(h); return resolve(h); } });
  const a = (await raw(path, `CONNECT evil.example:443 HTTP/1.1\r\nHost: evil.example:443\r\n\r\n`)).toString();
  assert.match(a, /^HTTP\/1\.1 403/);
  assert.match(a, 'refused evil.example:443: not in --allow-host');
  const b = (await raw(path, `GET http://127.0.0.1:${PORT}/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`)).toString();
  assert.match(b, /^HTTP\/1\.1 403/);
  assert.match(b, 'an IP address not named in --allow-host');
  const c = (await raw(path, `CONNECT rebind.pkg.test:${PORT} HTTP/1.1\r\n\r\n`)).toString();
  assert.match(c, /^HTTP\/1\.1 403/);
  assert.match(c, 'resolves to 127.0.0.1, not a public address');
  const d = (await raw(path, `CONNECT nowhere.pkg.test:${PORT} HTTP/1.1\r\n\r\n`)).toString();
  assert.match(d, 'the name did not resolve');
  assert.equal(asked, ['rebind.pkg.test', 'nowhere.pkg.test'], 'only admitted names are looked up');
  assert.equal(p.decisions.map((x) => `${x.decision} ${x.host}:${x.port}`), [
    'refused evil.example:443', `refused 127.0.0.1:${PORT}`, `refused rebind.pkg.test:${PORT}`, `refused nowhere.pkg.test:${PORT}`]);
  await p.close();
});

test('an IP literal named exactly is allowed; a name named exactly may resolve to loopback', async () => {
  const p = await proxy([`127.0.0.1:${PORT}`, 'rebind.pkg.test']);
  const a = (await raw(p.path, `GET http://127.0.0.1:${PORT}/ip HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`)).toString();
  assert.match(a, 'hello GET /ip');
  const b = (await raw(p.path, `GET http://rebind.pkg.test:${PORT}/n HTTP/1.1\r\nHost: rebind.pkg.test\r\nConnection: close\r\n\r\n`)).toString();
  assert.match(b, 'hello GET /n');
  await p.close();
});

test('a redirect passes through; following it to a refused host is refused', async () => {
  const p = await proxy(['pkg.test']);
  const a = (await raw(p.path, `GET http://pkg.test:${PORT}/redirect HTTP/1.1\r\nHost: pkg.test\r\nConnection: close\r\n\r\n`)).toString();
  assert.match(a, /^HTTP\/1\.1 302/);
  assert.match(a, /location: http:\/\/evil\.example:80\//i);
  const b = (await raw(p.path, `GET http://evil.example/ HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n`)).toString();
  assert.match(b, /^HTTP\/1\.1 403/);
  assert.equal(p.decisions.map((x) => x.decision), ['allowed', 'refused']);
  await p.close();
});

test('a CONNECT tunnel carries a 32 MiB download intact', async () => {
  const p = await proxy(['pkg.test']);
  const body = await raw(p.path, `CONNECT pkg.test:${PORT} HTTP/1.1\r\nHost: pkg.test:${PORT}\r\n\r\n`, {
    after: (s) => s.write(`GET /big HTTP/1.1\r\nHost: pkg.test\r\nConnection: close\r\n\r\n`),
  });
  const text = body.subarray(0, 200).toString('latin1');
  assert.match(text, /^HTTP\/1\.1 200 Connection Established\r\n\r\nHTTP\/1\.1 200 OK/);
  const start = body.indexOf('\r\n\r\n', body.indexOf('\r\n\r\n') + 4) + 4;
  const got = body.subarray(start);
  assert.is(got.length, BIG.length);
  assert.is(createHash('sha256').update(got).digest('hex'), createHash('sha256').update(BIG).digest('hex'));
  await p.close();
});

const openssl = spawnSync('openssl', ['version']).status === 0;
test('HTTPS through the tunnel with a test CA: the proxy sees only the name, the client verifies the origin', async () => {
  if (!openssl) { console.log('  (skipped: no openssl to make the test CA)'); return; }
  const key = join(dir, 'key.pem');
  const cert = join(dir, 'cert.pem');
  const r = spawnSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=pkg.test', '-addext', 'subjectAltName=DNS:pkg.test'], { encoding: 'utf8' });
  assert.is(r.status, 0, r.stderr);
  const srv = tls.createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (s) => s.end('secret-over-tls\n'));
  await new Promise((ok) => srv.listen(0, '127.0.0.1', ok));
  const tport = srv.address().port;
  const p = await proxy(['pkg.test']);
  const got = await new Promise((ok, fail) => {
    const s = connect(p.path);
    s.once('data', (c) => {
      if (!c.toString().startsWith('HTTP/1.1 200')) return fail(new Error(c.toString()));
      const t = tls.connect({ socket: s, servername: 'pkg.test', ca: readFileSync(cert) });
      let out = '';
      t.on('data', (d) => (out += d));
      t.on('end', () => ok(out));
      t.on('error', fail);
    });
    s.write(`CONNECT pkg.test:${tport} HTTP/1.1\r\n\r\n`);
  });
  assert.is(got, 'secret-over-tls\n');
  await p.close();
  srv.close();
});

test('close() cuts open tunnels', async () => {
  const hold = netServer(() => {});
  await new Promise((ok) => hold.listen(0, '127.0.0.1', ok));
  const p = await proxy(['pkg.test']);
  const ended = raw(p.path, `CONNECT pkg.test:${hold.address().port} HTTP/1.1\r\n\r\n`);
  await new Promise((ok) => setTimeout(ok, 100));
  await p.close();
  assert.match((await ended).toString(), /^HTTP\/1\.1 200/);
  hold.close();
});

/** A SOCKS5 client over the proxy's socket: greeting, CONNECT (a name, or the address bytes given), then `send`. */
function socks5(path, target, port, send = '') {
  return new Promise((ok, fail) => {
    const s = connect(path);
    const chunks = [];
    const addr = Buffer.isBuffer(target) ? target : Buffer.concat([Buffer.from([3, target.length]), Buffer.from(target)]);
    const p = Buffer.alloc(2); p.writeUInt16BE(port);
    s.on('data', (c) => chunks.push(c));
    s.on('end', () => ok(Buffer.concat(chunks)));
    s.on('error', fail);
    // Sent in pieces, as a client may: the proxy reads the greeting and the request as they come.
    s.write(Buffer.from([5, 1, 0]));
    setTimeout(() => s.write(Buffer.concat([Buffer.from([5, 1, 0]), addr, p, Buffer.from(send)])), 20);
  });
}

test('SOCKS5: CONNECT by name is admitted like an HTTP CONNECT; a name not listed, an IP literal, BIND are refused', async () => {
  const p = await proxy(['pkg.test']);
  const ok = await socks5(p.path, 'pkg.test', PORT, 'GET /socks HTTP/1.1\r\nHost: pkg.test\r\nConnection: close\r\n\r\n');
  assert.equal([...ok.subarray(0, 4)], [5, 0, 5, 0]); // no authentication; succeeded
  assert.match(ok.subarray(12).toString(), 'hello GET /socks host=pkg.test');
  const refused = await socks5(p.path, 'evil.example', 443);
  assert.equal([...refused], [5, 0, 5, 2, 0, 1, 0, 0, 0, 0, 0, 0]); // 2: not allowed by the ruleset
  const literal = await socks5(p.path, Buffer.from([1, 127, 0, 0, 1]), PORT);
  assert.is(literal[3], 2);
  const bind = await new Promise((done) => {
    const s = connect(p.path); const c = [];
    s.on('data', (d) => c.push(d)); s.on('end', () => done(Buffer.concat(c)));
    s.write(Buffer.from([5, 1, 0, 5, 2, 0, 3, 8, ...Buffer.from('pkg.test'), 0, 80]));
  });
  assert.is(bind[3], 7); // command not supported
  const noAuth = await new Promise((done) => {
    const s = connect(p.path); const c = [];
    s.on('data', (d) => c.push(d)); s.on('end', () => done(Buffer.concat(c)));
    s.write(Buffer.from([5, 1, 2])); // username/password only
  });
  assert.equal([...noAuth], [5, 0xff]);
  assert.equal(p.decisions.map((d) => `${d.via} ${d.decision} ${d.host}:${d.port}`), [
    `SOCKS5 allowed pkg.test:${PORT}`, 'SOCKS5 refused evil.example:443', `SOCKS5 refused 127.0.0.1:${PORT}`,
  ]);
  await p.close();
});

test('SOCKS5 carries a 32 MiB download intact, and plain HTTP on the same socket still works', async () => {
  const p = await proxy(['pkg.test']);
  const got = await socks5(p.path, 'pkg.test', PORT, 'GET /big HTTP/1.1\r\nHost: pkg.test\r\nConnection: close\r\n\r\n');
  const body = got.subarray(got.indexOf('\r\n\r\n') + 4);
  assert.is(body.length, BIG.length);
  assert.is(createHash('sha256').update(body).digest('hex'), createHash('sha256').update(BIG).digest('hex'));
  const plainHttp = await raw(p.path, `GET http://pkg.test:${PORT}/x HTTP/1.1\r\nHost: pkg.test\r\nConnection: close\r\n\r\n`);
  assert.match(plainHttp.toString(), 'hello GET /x');
  await p.close();
});

test('past its first MiB a tunnel\'s download is carried by the splicer (sbx-launch --splice): intact, the tunnel kept', async () => {
  const path = join(dir, `p${++n}.sock`);
  const p = await startEgressProxy(path, [parseAllowHost('pkg.test')], { resolve, splicer: launcherPath() });
  // Two requests on one tunnel: the second is sent (the proxy's direction) after the download was handed off.
  const got = await new Promise((ok, fail) => {
    const s = connect(path);
    const chunks = [];
    let sent = false;
    let got = 0;
    s.on('data', (c) => {
      chunks.push(c);
      got += c.length;
      if (!sent && got >= BIG.length) { sent = true; s.write('GET /second HTTP/1.1\r\nHost: pkg.test\r\nConnection: close\r\n\r\n'); }
    });
    s.on('end', () => ok(Buffer.concat(chunks)));
    s.on('error', fail);
    s.write(`CONNECT pkg.test:${PORT} HTTP/1.1\r\n\r\nGET /big HTTP/1.1\r\nHost: pkg.test\r\n\r\n`);
  });
  const text = got.toString('latin1');
  const start = text.indexOf('\r\n\r\n', text.indexOf('HTTP/1.1 200 OK')) + 4;
  const body = got.subarray(start, start + BIG.length);
  assert.is(createHash('sha256').update(body).digest('hex'), createHash('sha256').update(BIG).digest('hex'));
  assert.match(got.subarray(start + BIG.length).toString(), 'hello GET /second', `${got.length} ${JSON.stringify(got.subarray(start + BIG.length, start + BIG.length + 300).toString())}`);
  assert.is(p.spliced, 1);
  await p.close();
});

test.after(() => origin.close());
test.run();
