// Real clients inside the sandbox through --allow-host (issue 35 §1): curl over SOCKS5 (ALL_PROXY, set
// inside), `pip download` from a local stand-in index over HTTP, git over HTTPS from a smart-HTTP server
// (git http-backend behind a tiny server, a test CA), `cargo fetch` from a local sparse registry. Servers on
// 127.0.0.1 only, named by SBX_PROXY_HOSTS; a test whose tool is missing says which package to install.
// Run as root and as an ordinary user.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import { createServer as createHttps } from 'node:https';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { which, workDir, write } from './_helpers.js';
import { sbxAsync } from './_sbx-async.js';

const etc = mkdtempSync(join(tmpdir(), 'sbx-clients-'));
write(etc, { hosts: '127.0.0.1 pkg.test git.test crates.test\n' });
process.on('exit', () => rmSync(etc, { recursive: true, force: true }));
const skip = (what, apt) => console.log(`  (skipped: no ${what}; apt-get install -y ${apt})`);

/** sbx run, asynchronous (the servers answer from this process): the text verdict and the envelope. */
const sbx = (dir, cmd, flags) => sbxAsync(dir, cmd, ['--timeout', '180', ...flags], { ...process.env, SBX_PROXY_HOSTS: join(etc, 'hosts') });
const connections = (r) => r.env.outcome.applied.network.connections.map((c) => `${c.decision} ${c.host}`);

// --- one plain HTTP server: /hello, a pip "simple" index with one wheel, a cargo sparse registry.
const files = new Map();
const python = ['/usr/bin/python3', 'python3'].find((p) => spawnSync(p, ['--version']).status === 0);
if (python) {
  // A real wheel, made with zipfile: tiny_pkg 1.0.0, pure Python.
  const made = spawnSync(python, ['-c', [
    'import sys, zipfile, hashlib, base64',
    'files = {"tiny_pkg/__init__.py": "VALUE = 42\\n", "tiny_pkg-1.0.0.dist-info/METADATA": "Metadata-Version: 2.1\\nName: tiny-pkg\\nVersion: 1.0.0\\n",',
    '  "tiny_pkg-1.0.0.dist-info/WHEEL": "Wheel-Version: 1.0\\nGenerator: sbx-test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n"}',
    'rec = "".join("%s,sha256=%s,%d\\n" % (n, base64.urlsafe_b64encode(hashlib.sha256(t.encode()).digest()).rstrip(b"=").decode(), len(t)) for n, t in files.items())',
    'files["tiny_pkg-1.0.0.dist-info/RECORD"] = rec + "tiny_pkg-1.0.0.dist-info/RECORD,,\\n"',
    'with zipfile.ZipFile(sys.argv[1], "w") as z:',
    '  for n, t in files.items(): z.writestr(n, t)',
  ].join('\n'), join(etc, 'tiny_pkg-1.0.0-py3-none-any.whl')], { encoding: 'utf8' });
  if (made.status !== 0) throw new Error(`making the wheel: ${made.stderr}`);
  const whl = readFileSync(join(etc, 'tiny_pkg-1.0.0-py3-none-any.whl'));
  files.set('/files/tiny_pkg-1.0.0-py3-none-any.whl', whl);
  const sha = createHash('sha256').update(whl).digest('hex');
  files.set('/simple/tiny-pkg/', Buffer.from(`<!DOCTYPE html><html><body><a href="/files/tiny_pkg-1.0.0-py3-none-any.whl#sha256=${sha}">tiny_pkg-1.0.0-py3-none-any.whl</a></body></html>\n`));
}
const hits = [];
const http = createServer((req, res) => {
  hits.push(`${req.method} ${req.url}`);
  if (req.url === '/hello') { res.end('hello from pkg.test\n'); return; }
  const body = files.get(req.url);
  if (body) { res.writeHead(200, { 'Content-Length': body.length, 'Content-Type': req.url.endsWith('/') ? 'text/html' : 'application/octet-stream' }); res.end(body); return; }
  res.writeHead(404).end('not here\n');
});
await new Promise((ok) => http.listen(0, '127.0.0.1', ok));
const PORT = http.address().port;

test('SOCKS5: curl inside through ALL_PROXY (socks5h: the proxy resolves the name), admitted like CONNECT', async () => {
  if (!which('curl')) { skip('curl', 'curl'); return; }
  const dir = workDir();
  const r = await sbx(dir, ['sh', '-c', `echo "$ALL_PROXY"; curl -sS --proxy "$ALL_PROXY" http://pkg.test:${PORT}/hello; curl -sS --proxy "$ALL_PROXY" http://other.test/; echo curl=$?`], ['--allow-host', 'pkg.test']);
  assert.is(r.code, 0, r.why());
  assert.match(r.log, 'socks5h://127.0.0.1:3128', r.why());
  assert.match(r.log, 'hello from pkg.test', r.why());
  assert.match(r.log, 'curl=97', r.why()); // curl: the SOCKS5 proxy refused the connection
  assert.equal(connections(r), ['allowed pkg.test', 'refused other.test']);
  assert.match(r.out, 'network: refused other.test:80 — not in --allow-host', r.why());
});

test('pip download from a local stand-in index over HTTP through --allow-host pkg.test', async () => {
  if (!python || spawnSync(python, ['-m', 'pip', '--version']).status !== 0) { skip('pip', 'python3-pip'); return; }
  const dir = workDir();
  hits.length = 0;
  const r = await sbx(dir, ['python3', '-m', 'pip', 'download', '--no-deps', '--disable-pip-version-check', '--no-cache-dir',
    '--index-url', `http://pkg.test:${PORT}/simple/`, '--trusted-host', 'pkg.test', '-d', '/work/dl', 'tiny-pkg==1.0.0'], ['--allow-host', 'pkg.test']);
  assert.is(r.code, 0, r.why());
  assert.ok(existsSync(join(dir, 'dl', 'tiny_pkg-1.0.0-py3-none-any.whl')), r.why());
  assert.ok(hits.includes('GET /files/tiny_pkg-1.0.0-py3-none-any.whl'), hits.join(', '));
  assert.ok(connections(r).every((c) => c === 'allowed pkg.test'), r.why());
});

const openssl = spawnSync('openssl', ['version']).status === 0;
test('git over HTTPS: clone and ls-remote from a smart-HTTP server (git http-backend) through the CONNECT tunnel', async () => {
  if (!which('git')) { skip('git', 'git'); return; }
  if (!openssl) { skip('openssl', 'openssl'); return; }
  // The repository served, made on the host.
  const root = workDir({}, 'sbx-gitsrv-');
  const src = join(root, 'src');
  const git = (args, cwd) => {
    const g = spawnSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com', GIT_CONFIG_NOSYSTEM: '1', HOME: root } });
    if (g.status !== 0) throw new Error(`git ${args.join(' ')}: ${g.stderr}`);
    return g.stdout;
  };
  git(['init', '-q', '-b', 'main', src], root);
  write(src, { 'README': 'served over smart HTTP\n' });
  git(['add', '.'], src);
  git(['commit', '-q', '-m', 'first'], src);
  git(['clone', '-q', '--bare', src, join(root, 'repo.git')], root);
  const head = git(['rev-parse', 'HEAD'], src).trim();
  const ca = spawnSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(root, 'key.pem'), '-out', join(root, 'ca.pem'), '-days', '1', '-subj', '/CN=git.test', '-addext', 'subjectAltName=DNS:git.test'], { encoding: 'utf8' });
  assert.is(ca.status, 0, ca.stderr);
  // git http-backend as a CGI behind an HTTPS server.
  const srv = createHttps({ key: readFileSync(join(root, 'key.pem')), cert: readFileSync(join(root, 'ca.pem')) }, (req, res) => {
    const u = new URL(req.url, 'https://git.test');
    const cgi = spawn('git', ['http-backend'], { env: {
      PATH: process.env.PATH, GIT_PROJECT_ROOT: root, GIT_HTTP_EXPORT_ALL: '1', PATH_INFO: u.pathname, QUERY_STRING: u.search.slice(1),
      REQUEST_METHOD: req.method, CONTENT_TYPE: req.headers['content-type'] ?? '', REMOTE_ADDR: '127.0.0.1',
      HTTP_CONTENT_ENCODING: req.headers['content-encoding'] ?? '', GIT_PROTOCOL: req.headers['git-protocol'] ?? '',
    } });
    req.pipe(cgi.stdin);
    let buf = Buffer.alloc(0);
    let started = false;
    cgi.stdout.on('data', (c) => {
      if (started) { res.write(c); return; }
      buf = Buffer.concat([buf, c]);
      const end = buf.indexOf('\r\n\r\n');
      if (end < 0) return;
      started = true;
      let status = 200;
      const headers = {};
      for (const line of buf.subarray(0, end).toString().split('\r\n')) {
        const i = line.indexOf(':');
        const k = line.slice(0, i).trim(); const v = line.slice(i + 1).trim();
        if (k.toLowerCase() === 'status') status = parseInt(v, 10); else headers[k] = v;
      }
      res.writeHead(status, headers);
      res.write(buf.subarray(end + 4));
    });
    cgi.stdout.on('end', () => res.end());
  });
  await new Promise((ok) => srv.listen(0, '127.0.0.1', ok));
  const url = `https://git.test:${srv.address().port}/repo.git`;
  const dir = workDir({ 'ca.pem': readFileSync(join(root, 'ca.pem'), 'utf8') });
  const r = await sbx(dir, ['sh', '-c', `git ls-remote ${url} && git clone -q ${url} /tmp/clone && cat /tmp/clone/README`], ['--allow-host', 'git.test', '--env', 'GIT_SSL_CAINFO=/work/ca.pem']);
  srv.close();
  assert.is(r.code, 0, r.why());
  assert.match(r.log, `${head}\tHEAD`, r.why());
  assert.match(r.log, 'served over smart HTTP', r.why());
  // (A clone into the work dir would be quarantined after the run: a new .git the host's git would obey.)
  assert.ok(connections(r).every((c) => c === 'allowed git.test'), r.why());
});

test('cargo fetch from a local sparse registry over HTTP through --allow-host crates.test', async () => {
  const cargo = which('cargo');
  if (!cargo) { skip('cargo', 'cargo'); return; }
  // Sparse registries (the only kind served over plain HTTP here) are stable since cargo 1.68.
  const minor = Number(/cargo 1\.(\d+)/.exec(spawnSync('cargo', ['--version'], { encoding: 'utf8' }).stdout ?? '')?.[1] ?? 0);
  if (minor < 68) { console.log(`  (skipped: cargo 1.${minor} has no sparse registries; a cargo >= 1.68: rustup, or apt-get install -y cargo from a newer release)`); return; }
  // One crate, `tinycrate` 1.0.0, as a .crate (a gzipped tar made with tar) and its sparse index line.
  const c = workDir({ 'tinycrate-1.0.0/Cargo.toml': '[package]\nname = "tinycrate"\nversion = "1.0.0"\nedition = "2021"\n', 'tinycrate-1.0.0/src/lib.rs': 'pub const VALUE: u32 = 42;\n' }, 'sbx-crate-');
  const tar = spawnSync('tar', ['-cf', '-', '-C', c, 'tinycrate-1.0.0'], { maxBuffer: 1 << 24 });
  assert.is(tar.status, 0);
  const crate = gzipSync(tar.stdout);
  const base = `http://crates.test:${PORT}`;
  files.set('/index/config.json', Buffer.from(JSON.stringify({ dl: `${base}/dl/{crate}/{version}/download` })));
  files.set('/index/ti/ny/tinycrate', Buffer.from(`${JSON.stringify({ name: 'tinycrate', vers: '1.0.0', deps: [], cksum: createHash('sha256').update(crate).digest('hex'), features: {}, yanked: false })}\n`));
  files.set('/dl/tinycrate/1.0.0/download', crate);
  const dir = workDir({
    'Cargo.toml': '[package]\nname = "app"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\ntinycrate = "1.0.0"\n',
    'src/lib.rs': '',
    '.cargo/config.toml': `[source.crates-io]\nreplace-with = "stand-in"\n\n[source.stand-in]\nregistry = "sparse+${base}/index/"\n`,
  });
  hits.length = 0;
  const r = await sbx(dir, ['cargo', 'fetch'], ['--allow-host', 'crates.test']);
  assert.is(r.code, 0, r.why());
  assert.ok(hits.includes('GET /dl/tinycrate/1.0.0/download'), hits.join(', '));
  assert.match(readFileSync(join(dir, 'Cargo.lock'), 'utf8'), 'name = "tinycrate"');
  assert.ok(connections(r).every((x) => x === 'allowed crates.test'), r.why());
});

test.after(() => http.close());
test.run();
