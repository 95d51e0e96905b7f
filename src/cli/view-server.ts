// The loopback server behind `sbx view`: the viewer's static files and, when given, one log file at
// /log. It binds 127.0.0.1 only, answers only requests addressed to that host and port (a page elsewhere
// cannot reach it through a rebound DNS name), serves GET/HEAD only, and nothing else of the disk.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createReadStream, existsSync, readdirSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { SbxError } from '../contract/errors.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
};
const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; connect-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'none'; base-uri 'none'; frame-ancestors 'none'";

export interface ViewServer { url: string; close(): Promise<void> }

/** dir: the built viewer (dist/viewer); log: a file to serve at /log, or null. */
export async function serveViewer(dir: string, log: string | null, port = 0): Promise<ViewServer> {
  const files = new Map<string, string>();
  for (const name of readdirSync(dir)) if (TYPES[extname(name)]) files.set(`/${name}`, join(dir, name));
  files.set('/', join(dir, 'index.html'));
  let hosts: Set<string> = new Set();

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const base = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', 'content-security-policy': CSP, 'cross-origin-resource-policy': 'same-origin' };
    if (!hosts.has(req.headers.host ?? '')) { res.writeHead(403, base); res.end('wrong host\n'); return; }
    if (req.method !== 'GET' && req.method !== 'HEAD') { res.writeHead(405, { ...base, allow: 'GET, HEAD' }); res.end(); return; }
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const file = path === '/log' && log ? log : files.get(path);
    if (!file) { res.writeHead(404, base); res.end('not found\n'); return; }
    let size: number;
    try { size = statSync(file).size; } catch { res.writeHead(404, base); res.end('not found\n'); return; }
    res.writeHead(200, { ...base, 'content-type': TYPES[extname(file)] && file !== log ? TYPES[extname(file)]! : 'application/octet-stream', 'content-length': String(size) });
    if (req.method === 'HEAD') { res.end(); return; }
    createReadStream(file).on('error', () => res.destroy()).pipe(res);
  };

  if (!existsSync(join(dir, 'index.html'))) throw new SbxError('E_NO_VIEWER', `the viewer is not built (no ${join(dir, 'index.html')}): run npm run build in the sbx checkout`);
  const server = createServer(handle);
  await new Promise<void>((ok, bad) => {
    server.once('error', (err: NodeJS.ErrnoException) => bad(new SbxError(`E_${err.code ?? 'LISTEN'}`, `cannot listen on 127.0.0.1:${port}: ${err.message}; give another --port, or none for a free one`)));
    server.listen(port, '127.0.0.1', () => ok());
  });
  const addr = server.address();
  const bound = typeof addr === 'object' && addr ? addr.port : port;
  hosts = new Set([`127.0.0.1:${bound}`, `localhost:${bound}`]);
  return {
    url: `http://127.0.0.1:${bound}/`,
    close: () => new Promise<void>((ok) => { server.closeAllConnections(); server.close(() => ok()); }),
  };
}
