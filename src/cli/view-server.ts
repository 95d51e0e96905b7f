// The loopback server behind `sbx view`: the viewer's static files and, when given, one log file at
// /log. It binds 127.0.0.1 only, answers only requests addressed to that host and port (a page elsewhere
// cannot reach it through a rebound DNS name), serves GET/HEAD only, and nothing else of the disk.
//
// Every request must carry the token of the printed URL (?token=, 192 random bits, as Jupyter does): any
// local user can connect to 127.0.0.1, and without it another user on the machine read a 0600 log through
// this port. The page passes the token on each of its own requests (the HTML served here names its script
// and style sheet with it, the script gives it to the worker and to the log's URL) rather than through a
// cookie: cookies are not kept apart by port, so the browser would hand one to any other local server on
// 127.0.0.1 it visits, and SameSite does not tell two ports of one host apart either.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createReadStream, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { extname, join } from 'node:path';
import { SbxError } from '../contract/index.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};
const CSP =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; connect-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'none'; base-uri 'none'; frame-ancestors 'none'";

/** url: the page's address with its token (`http://127.0.0.1:PORT/?token=...`); add query parameters to it. */
export interface ViewServer {
  url: string;
  close(): Promise<void>;
}

/** dir: the built viewer (dist/viewer); log: a file to serve at /log, or null. */
export async function serveViewer(dir: string, log: string | null, port = 0): Promise<ViewServer> {
  const files = new Map<string, string>();
  for (const name of readdirSync(dir)) if (TYPES[extname(name)]) files.set(`/${name}`, join(dir, name));
  const page = join(dir, 'index.html');
  files.set('/', page);
  let hosts: Set<string> = new Set();
  const token = randomBytes(24).toString('base64url');
  const expected = Buffer.from(token);

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const base = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', 'content-security-policy': CSP, 'cross-origin-resource-policy': 'same-origin', 'referrer-policy': 'no-referrer' };
    if (!hosts.has(req.headers.host ?? '')) {
      res.writeHead(403, base);
      res.end('wrong host\n');
      return;
    }
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (!tokenOk(url.searchParams.get('token'), expected)) {
      res.writeHead(403, base);
      res.end('no or wrong token: open the URL sbx view printed\n');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { ...base, allow: 'GET, HEAD' });
      res.end();
      return;
    }
    const path = url.pathname;
    const file = path === '/log' && log ? log : files.get(path);
    if (!file) {
      res.writeHead(404, base);
      res.end('not found\n');
      return;
    }
    if (file === page && file !== log) {
      let html: Buffer;
      try {
        html = withToken(readFileSync(file, 'utf8'), token);
      } catch {
        res.writeHead(404, base);
        res.end('not found\n');
        return;
      }
      res.writeHead(200, { ...base, 'content-type': TYPES['.html']!, 'content-length': String(html.length) });
      res.end(req.method === 'HEAD' ? undefined : html);
      return;
    }
    let size: number;
    try {
      size = statSync(file).size;
    } catch {
      res.writeHead(404, base);
      res.end('not found\n');
      return;
    }
    res.writeHead(200, { ...base, 'content-type': TYPES[extname(file)] && file !== log ? TYPES[extname(file)]! : 'application/octet-stream', 'content-length': String(size) });
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    createReadStream(file)
      .on('error', () => res.destroy())
      .pipe(res);
  };

  if (!existsSync(page)) throw new SbxError('E_NO_VIEWER', `the viewer is not built (no ${page}): run npm run build in the sbx checkout`);
  const server = createServer(handle);
  await new Promise<void>((ok, bad) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      bad(new SbxError(`E_${err.code ?? 'LISTEN'}`, `cannot listen on 127.0.0.1:${port}: ${err.message}; give another --port, or none for a free one`)),
    );
    server.listen(port, '127.0.0.1', () => ok());
  });
  const addr = server.address();
  const bound = typeof addr === 'object' && addr ? addr.port : port;
  hosts = new Set([`127.0.0.1:${bound}`, `localhost:${bound}`]);
  return {
    url: `http://127.0.0.1:${bound}/?token=${token}`,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

/** Constant-time: a wrong guess takes as long whatever its prefix (the length is no secret). */
function tokenOk(given: string | null, expected: Buffer): boolean {
  if (given === null) return false;
  const b = Buffer.from(given);
  return b.length === expected.length && timingSafeEqual(b, expected);
}

/** The page with the token on its script's and style sheet's URLs (relative names in index.html). */
function withToken(html: string, token: string): Buffer {
  return Buffer.from(html.replace(/\b(src|href)="([\w.-]+\.(?:js|css))"/g, (_, attr: string, name: string) => `${attr}="${name}?token=${token}"`));
}
