// `sbx view LOG` serves its log on 127.0.0.1, where every local user can connect: every request must carry
// the random token of the URL it prints (as Jupyter's does), or it gets 403 and not a byte of the log, the
// page or its scripts. With the token, the page, its assets (named with the token) and the log are served.
// No browser here (test/browser/viewer.test.js drives the page in Chromium through the same URL).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { chmodSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, workDir } from './_helpers.js';

const SECRET = 'sbx-view-secret-7f3a9c';
const dir = workDir({ 'private.log': `make: building\nsrc/a.c:1:1: error: ${SECRET}\n` });
const LOG = join(dir, 'private.log');
chmodSync(LOG, 0o600);

/** Starts `sbx view args...` and resolves to { url, proc } once it printed its URL. */
function view(args) {
  const proc = spawn(process.execPath, [CLI, 'view', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((ok, bad) => {
    let out = '';
    proc.stdout.on('data', (d) => { out += d; if (out.includes('\n')) ok({ url: new URL(out.split('\n')[0]), proc }); });
    proc.on('exit', (code) => bad(new Error(`sbx view exited ${code} before printing a URL`)));
    setTimeout(() => bad(new Error('sbx view printed no URL in 10 s')), 10_000);
  });
}

/** One request to the server as any local process can make it: { status, headers, body }. */
function get(url, path, { method = 'GET', headers = {} } = {}) {
  return new Promise((ok, bad) => {
    request({ host: '127.0.0.1', port: url.port, path, method, headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => ok({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    }).on('error', bad).end();
  });
}

const { url, proc } = await view([LOG, '--exit', '1']);
const token = url.searchParams.get('token');

test('the printed URL carries a url-safe token of at least 128 random bits, and the page parameters', async () => {
  assert.ok(token, url.href);
  assert.match(token, /^[A-Za-z0-9_-]+$/);
  assert.ok(Buffer.from(token, 'base64url').length >= 16, token);
  assert.is(url.searchParams.get('log'), '/log');
  assert.is(url.searchParams.get('exit'), '1');
  const other = await view([]);
  try {
    assert.is.not(other.url.searchParams.get('token'), token, 'each server has its own token');
  } finally { other.proc.kill('SIGINT'); }
});

test('without the token, or with a wrong one: 403 and no byte of the log, the page or its scripts', async () => {
  const wrong = [
    '',
    '?token=',
    `?token=${token.slice(0, -1)}`,
    `?token=${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`,
    `?token=${token}x`,
    `?Token=${token}`,
    `?tok=${token}`,
    `?log=/log&token=${encodeURIComponent(token.toLowerCase() === token ? token.toUpperCase() : token.toLowerCase())}`,
  ];
  for (const path of ['/log', '/', '/index.html', '/main.js', '/worker.js', '/style.css', '/nothing']) {
    for (const q of wrong) {
      for (const method of ['GET', 'HEAD']) {
        const r = await get(url, `${path}${q}`, { method });
        assert.is(r.status, 403, `${method} ${path}${q}`);
        assert.not.ok(r.body.includes(SECRET), `${method} ${path}${q}: ${r.body}`);
        assert.ok(r.body.length < 100, `${method} ${path}${q}: ${r.body.length} bytes`);
      }
    }
  }
  // A cookie is no way in either (the page passes the token in its URLs, never in a cookie).
  const r = await get(url, '/log', { headers: { cookie: `token=${token}` } });
  assert.is(r.status, 403);
  assert.not.ok(r.body.includes(SECRET));
});

test('with the token: the log, the page and the assets it names (each named with the token)', async () => {
  const log = await get(url, `/log?token=${token}`);
  assert.is(log.status, 200);
  assert.is(log.body, readFileSync(LOG, 'utf8'));
  assert.ok(log.headers['content-security-policy']);
  assert.is(log.headers['referrer-policy'], 'no-referrer');
  const page = await get(url, `${url.pathname}${url.search}`);
  assert.is(page.status, 200);
  assert.match(page.headers['content-type'], /^text\/html/);
  const assets = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
  assert.ok(assets.length >= 2, page.body);
  for (const a of assets) {
    assert.ok(new URL(a, url).searchParams.get('token') === token, `${a} lacks the token`);
    const r = await get(url, `/${a}`);
    assert.is(r.status, 200, a);
  }
  assert.is((await get(url, `/worker.js?token=${token}`)).status, 200);
  assert.is((await get(url, `/log?token=${token}`, { method: 'HEAD' })).status, 200);
});

test('the token does not lift the other checks: another Host, another method, another file', async () => {
  const r = await get(url, `/log?token=${token}`, { headers: { host: 'attacker.example:80' } });
  assert.is(r.status, 403, 'a rebound DNS name is refused');
  assert.not.ok(r.body.includes(SECRET));
  assert.is((await get(url, `/log?token=${token}`, { method: 'POST' })).status, 405);
  assert.is((await get(url, `/../package.json?token=${token}`)).status, 404);
  assert.is((await get(url, `/%2e%2e/package.json?token=${token}`)).status, 404);
});

test.after(() => { proc.kill('SIGINT'); });
test.run();
