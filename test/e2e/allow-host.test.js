// `sbx run --allow-host`: the sandbox keeps its own network (loopback only); named hosts are reached
// through the egress proxy on the host. Servers on 127.0.0.1 only; names mapped with SBX_PROXY_HOSTS
// (nothing is asked of DNS). Real clients inside: curl (HTTP, HTTPS through CONNECT with a test CA)
// and npm install from a local registry stand-in. Run as root and as an ordinary user.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import * as tls from 'node:tls';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { logText, which, workDir, write } from './_helpers.js';
import { sbxAsync } from './_sbx-async.js';

// The registry stand-in: one package, its packument and its tarball (made with tar here).
const pkgDir = workDir({ 'package/package.json': '{"name":"tiny-dep","version":"1.0.0","main":"index.js"}\n', 'package/index.js': 'module.exports = 42;\n' }, 'sbx-reg-');
const tgzPath = join(pkgDir, 'tiny-dep-1.0.0.tgz');
const tar = spawnSync('tar', ['-czf', tgzPath, '-C', pkgDir, 'package'], { encoding: 'utf8' });
if (tar.status !== 0) throw new Error(`tar: ${tar.stderr}`);
const tgz = readFileSync(tgzPath);
const hits = [];
const registry = createServer((req, res) => {
  hits.push(`${req.method} ${req.url}`);
  const base = `http://pkg.test:${PORT}`;
  if (req.url === '/tiny-dep') {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({
      name: 'tiny-dep', 'dist-tags': { latest: '1.0.0' },
      versions: { '1.0.0': { name: 'tiny-dep', version: '1.0.0', main: 'index.js', dist: {
        tarball: `${base}/tiny-dep/-/tiny-dep-1.0.0.tgz`,
        shasum: createHash('sha1').update(tgz).digest('hex'),
        integrity: `sha512-${createHash('sha512').update(tgz).digest('base64')}`,
      } } },
    }));
    return;
  }
  if (req.url === '/tiny-dep/-/tiny-dep-1.0.0.tgz') { res.writeHead(200, { 'Content-Type': 'application/octet-stream' }); res.end(tgz); return; }
  if (req.url === '/hello') { res.end('hello from pkg.test\n'); return; }
  res.writeHead(404).end('{}');
});
await new Promise((ok) => registry.listen(0, '127.0.0.1', ok));
const PORT = registry.address().port;

const etc = mkdtempSync(join(tmpdir(), 'sbx-hosts-'));
write(etc, { hosts: '127.0.0.1 pkg.test rebind.pkg.test tls.test\n' });
process.on('exit', () => rmSync(etc, { recursive: true, force: true }));

/** sbx run, asynchronous (the servers above answer from this process): the text verdict and the envelope. */
const sbx = (dir, cmd, flags) => sbxAsync(dir, cmd, flags, { ...process.env, SBX_PROXY_HOSTS: join(etc, 'hosts') });

test('curl reaches an allowed name over plain HTTP; a refused host is a line of the verdict and of applied.network', async () => {
  const dir = workDir();
  const r = await sbx(dir, ['sh', '-c', `curl -sS http://pkg.test:${PORT}/hello && curl -sS -o /dev/null https://x.example/; echo curl=$?`], ['--allow-host', 'pkg.test']);
  assert.is(r.code, 0, r.why());
  const log = logText(r.env);
  assert.match(log, 'hello from pkg.test', r.why());
  assert.match(log, 'curl=56', r.why());
  assert.match(r.out, 'network: refused x.example:443 — not in --allow-host', r.why());
  const net = r.env.outcome.applied.network;
  assert.equal(net.allowed, ['pkg.test']);
  assert.equal(net.connections.map((c) => `${c.decision} ${c.host}:${c.port}`), [`allowed pkg.test:${PORT}`, 'refused x.example:443']);
  assert.is(r.env.outcome.applied.netns, true, 'the sandbox keeps its own network namespace');
});

test('a wildcard name that resolves to loopback is refused (DNS rebinding); inside, no name resolves', async () => {
  const dir = workDir();
  const r = await sbx(dir, ['sh', '-c', `curl -sS http://rebind.pkg.test:${PORT}/hello; echo curl=$?; curl -sS --noproxy '*' http://pkg.test:${PORT}/hello; echo direct=$?`], ['--allow-host', '*.pkg.test']);
  const log = logText(r.env);
  assert.match(log, /sbx: refused rebind\.pkg\.test:\d+: resolves to 127\.0\.0\.1, not a public address/, r.why());
  assert.match(log, 'direct=6', r.why()); // curl: could not resolve host: no DNS in the sandbox
  assert.match(r.out, /network: refused rebind\.pkg\.test:\d+ — resolves to 127\.0\.0\.1/, r.why());
});

test('npm install from a local registry stand-in through --allow-host pkg.test', async () => {
  if (!which('npm')) { console.log('  (skipped: no npm)'); return; }
  const dir = workDir({ 'package.json': '{"name":"app","version":"1.0.0","private":true,"dependencies":{"tiny-dep":"1.0.0"}}\n' });
  hits.length = 0;
  const r = await sbx(dir, ['npm', 'install', '--no-audit', '--no-fund', `--registry=http://pkg.test:${PORT}/`], ['--allow-host', 'pkg.test', '--env', 'npm_config_update_notifier=false', '--timeout', '120']);
  assert.is(r.code, 0, r.why());
  assert.ok(existsSync(join(dir, 'node_modules/tiny-dep/index.js')), r.why());
  assert.ok(hits.includes('GET /tiny-dep/-/tiny-dep-1.0.0.tgz'), hits.join(', '));
  assert.ok(r.env.outcome.applied.network.connections.every((c) => c.decision === 'allowed' && c.host === 'pkg.test'), JSON.stringify(r.env.outcome.applied.network));
});

const openssl = spawnSync('openssl', ['version']).status === 0;
test('HTTPS through the CONNECT tunnel: curl inside verifies the origin with a test CA', async () => {
  if (!openssl) { console.log('  (skipped: no openssl)'); return; }
  const d = workDir({}, 'sbx-ca-');
  const r0 = spawnSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(d, 'key.pem'), '-out', join(d, 'ca.pem'), '-days', '1', '-subj', '/CN=tls.test', '-addext', 'subjectAltName=DNS:tls.test'], { encoding: 'utf8' });
  assert.is(r0.status, 0, r0.stderr);
  const srv = tls.createServer({ key: readFileSync(join(d, 'key.pem')), cert: readFileSync(join(d, 'ca.pem')) }, (s) => {
    s.once('data', () => s.end('HTTP/1.1 200 OK\r\nContent-Length: 10\r\nConnection: close\r\n\r\nover tls!\n'));
  });
  await new Promise((ok) => srv.listen(0, '127.0.0.1', ok));
  const dir = workDir({ 'ca.pem': readFileSync(join(d, 'ca.pem'), 'utf8') });
  const r = await sbx(dir, ['curl', '-sS', '--cacert', 'ca.pem', `https://tls.test:${srv.address().port}/`], ['--allow-host', 'tls.test']);
  srv.close();
  assert.is(r.code, 0, r.why());
  assert.match(logText(r.env), 'over tls!', r.why());
});

test('bad patterns and --net with --allow-host are usage errors', async () => {
  const dir = workDir();
  const a = await sbx(dir, ['true'], ['--allow-host', '*.com']);
  assert.is(a.code, 2, a.why());
  assert.match(a.err, '--allow-host "*.com": a wildcard over a whole top-level domain');
  const b = await sbx(dir, ['true'], ['--allow-host', 'pkg.test', '--net']);
  assert.is(b.code, 2, b.why());
  assert.match(b.err, '--allow-host and --net do not go together');
});

test.after(() => registry.close());
test.run();
