// Real headless Chromium (Debian's package, driven by playwright-core) and a loopback file server for
// the browser suites. One launch per suite file: fixtures go through one page, not one browser each.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';
import { chromium } from 'playwright-core';

export const ROOT = new URL('../../', import.meta.url).pathname;
export const CHROMIUM = process.env.SBX_CHROMIUM ?? '/usr/bin/chromium';

export async function launch() {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: run scripts/ci-deps.sh as root (it installs Debian's chromium), or set SBX_CHROMIUM`);
  return chromium.launch({ executablePath: CHROMIUM, headless: true });
}

const TYPES = { '.js': 'text/javascript', '.html': 'text/html', '.css': 'text/css', '.json': 'application/json', '.xml': 'application/xml' };

/** Serves the files under ROOT whose path starts with one of `allow` (e.g. "/dist/"), on 127.0.0.1. */
export async function serve(allow) {
  const server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname));
    if (path === '/') { res.writeHead(200, { 'content-type': 'text/html' }); res.end('<!doctype html><title>sbx test</title>'); return; }
    if (!allow.some((a) => path.startsWith(a))) { res.writeHead(404); res.end(); return; }
    const file = join(ROOT, path);
    try {
      if (!(await stat(file)).isFile()) throw new Error('not a file');
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
      res.end(await readFile(file));
    } catch { res.writeHead(404); res.end(); }
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => server.close(r)) };
}
