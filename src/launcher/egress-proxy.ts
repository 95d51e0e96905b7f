// The egress proxy of --allow-host: runs on the host, outside the sandbox, listening on a unix socket
// the sandbox's forwarder (native/forward.c) carries its loopback connections to. It speaks HTTP
// CONNECT (HTTPS, git, anything tunnelled), plain HTTP with an absolute URL and SOCKS5 CONNECT (told
// apart by the first byte, 5; no authentication, no BIND or UDP), admits a connection
// only when the host name matches the allowlist (allow-host.ts), resolves the name itself (the
// sandbox has no DNS: nothing leaks through lookups), connects to the address it resolved (no second
// lookup for a rebinding name to change), and logs every decision.
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, createServer as createNetServer, isIP, Socket } from 'node:net';
import { lookup } from 'node:dns/promises';
import { spawn as spawnChild } from 'node:child_process';
import { chmodSync, readFileSync } from 'node:fs';
import type { Duplex } from 'node:stream';
import { isPublicAddress, matchHost, normalHost, type HostPattern } from './allow-host.js';

export interface Decision {
  host: string;
  port: number;
  decision: 'allowed' | 'refused';
  /** Why it was refused; for an allowed one, null. */
  reason: string | null;
  /** The address connected to (allowed), or null. */
  address: string | null;
  /** CONNECT (a tunnel), HTTP (one plain request) or SOCKS5 (its CONNECT). */
  via: 'CONNECT' | 'HTTP' | 'SOCKS5';
}

export interface EgressProxy {
  /** The decisions so far, in order (at most MAX_DECISIONS; `dropped` counts the rest). */
  readonly decisions: Decision[];
  readonly dropped: number;
  /** Tunnels whose download was handed to the splicer. */
  readonly spliced: number;
  /** Stops listening and cuts every open connection. */
  close(): Promise<void>;
}

export interface ProxyOptions {
  /** Resolves a name to its addresses (default: the SBX_PROXY_HOSTS file if set, else the host's resolver). */
  resolve?: (host: string) => Promise<string[]>;
  /** Called with each decision as it is made. */
  onDecision?: (d: Decision) => void;
  /**
   * sbx-launch: a tunnel's download past its first HANDOFF_BYTES is carried by `sbx-launch --splice`
   * (native/splice.c: in the kernel, no copies through Node). Default none: the proxy carries it all.
   */
  splicer?: string | null;
}

/** Bytes of a tunnel's download the proxy carries itself before it hands the rest to the splicer. */
export const HANDOFF_BYTES = 1 << 20;

const MAX_DECISIONS = 1000;
const READ_BYTES = 1 << 20;
/** Request headers that are the proxy hop's, not the origin's. */
const HOP = new Set(['proxy-authorization', 'proxy-connection', 'connection', 'keep-alive', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

/**
 * The resolver: SBX_PROXY_HOSTS names a hosts(5)-style file (`ADDRESS NAME...`) that is then the only
 * source of names (tests map `pkg.test` to 127.0.0.1 with it, and nothing is asked of DNS); without
 * it, the host's own resolver (getaddrinfo: /etc/hosts, then DNS).
 */
export function defaultResolver(env: Record<string, string | undefined> = process.env): (host: string) => Promise<string[]> {
  const file = env.SBX_PROXY_HOSTS;
  if (file) {
    const map = new Map<string, string[]>();
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      const [addr, ...names] = line.replace(/#.*/, '').trim().split(/\s+/);
      if (!addr || isIP(addr) === 0) continue;
      for (const n of names) map.set(normalHost(n), [...(map.get(normalHost(n)) ?? []), addr]);
    }
    return async (host) => map.get(normalHost(host)) ?? [];
  }
  return async (host) => {
    try {
      return (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
    } catch {
      return [];
    }
  };
}

/** Starts the proxy on the unix socket `path` (its directory should be private to the caller). */
export async function startEgressProxy(path: string, patterns: readonly HostPattern[], opts: ProxyOptions = {}): Promise<EgressProxy> {
  const resolveName = opts.resolve ?? defaultResolver();
  const decisions: Decision[] = [];
  let dropped = 0;
  const open = new Set<Duplex>();
  const splicer = opts.splicer ?? null;
  const splicers = new Set<{ kill(): boolean }>();
  let spliced = 0;
  const track = (s: Duplex): void => {
    open.add(s);
    s.once('close', () => open.delete(s));
  };
  const log = (d: Decision): Decision => {
    if (decisions.length < MAX_DECISIONS) decisions.push(d);
    else dropped++;
    opts.onDecision?.(d);
    return d;
  };

  /** The admission: the address to connect to, or why not. */
  const admit = async (rawHost: string, port: number, via: Decision['via']): Promise<Decision> => {
    const host = normalHost(rawHost);
    const refuse = (reason: string): Decision => log({ host, port, decision: 'refused', reason, address: null, via });
    if (!host || !(port >= 1 && port <= 65535)) return refuse('not a host and port');
    const pattern = matchHost(patterns, host, port);
    if (isIP(host)) {
      if (!pattern) return refuse('an IP address not named in --allow-host');
      return log({ host, port, decision: 'allowed', reason: null, address: host, via });
    }
    if (!pattern) return refuse('not in --allow-host');
    const addrs = await resolveName(host);
    if (addrs.length === 0) return refuse('the name did not resolve (on the host)');
    const usable = pattern.wildcard ? addrs.filter(isPublicAddress) : addrs;
    if (usable.length === 0) return refuse(`resolves to ${addrs[0]}, not a public address: only a pattern naming the host exactly (not ${pattern.text}) allows that`);
    const address = usable.find((a) => isIP(a) === 4) ?? usable[0]!;
    return log({ host, port, decision: 'allowed', reason: null, address, via });
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void plain(req, res);
  });
  server.on('connection', (s: Socket) => track(s));
  server.on('connect', (req: IncomingMessage, client: Duplex, head: Buffer) => {
    void tunnel(req, client, head);
  });
  server.on('clientError', (_e, s: Duplex) => {
    s.destroy();
  });

  async function tunnel(req: IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    track(client);
    client.on('error', () => client.destroy());
    const target = splitHostPort(req.url ?? '');
    const d = target
      ? await admit(target.host, target.port, 'CONNECT')
      : log({ host: String(req.url).slice(0, 200), port: 0, decision: 'refused', reason: 'not a host and port', address: null, via: 'CONNECT' });
    if (d.decision !== 'allowed') {
      client.end(`HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\nsbx: refused ${d.host}:${d.port}: ${d.reason}\n`);
      return;
    }
    carry(
      client,
      d,
      head,
      () => client.write('HTTP/1.1 200 Connection Established\r\n\r\n'),
      () => client.end('HTTP/1.1 502 Bad Gateway\r\nConnection: close\r\n\r\n'),
    );
  }

  /**
   * An admitted tunnel: connects to the address admitted, says so (`ok`, or `fail` when the connection
   * cannot be made), then carries bytes both ways until either side ends.
   */
  function carry(client: Duplex, d: Decision, head: Buffer, ok: () => void, fail: () => void): void {
    // Downloads are read in reads of up to 1 MiB (onread), not libuv's 64 KiB: a third fewer
    // context switches per byte on a busy machine. Each read is copied out (the buffer is reused).
    let carried = 0;
    let handing = false;
    const up = connect({
      host: d.address!,
      port: d.port,
      onread: {
        buffer: Buffer.allocUnsafe(READ_BYTES),
        callback: (n, buf) => {
          carried += n;
          if (!client.write(Buffer.from(buf.subarray(0, n)))) {
            up.pause();
            client.once('drain', () => {
              if (!handing) up.resume();
            });
          }
          if (splicer && carried >= HANDOFF_BYTES && !handing && client instanceof Socket) {
            handing = true;
            handOff(up, client, onEnd);
          }
          return true;
        },
      },
    });
    track(up);
    up.setNoDelay(true);
    const onEnd = (): void => {
      client.end();
    };
    up.once('end', onEnd);
    up.once('connect', () => {
      ok();
      if (head.length) up.write(head);
      client.pipe(up);
    });

    up.on('error', () => {
      if (up.connecting) fail();
      else client.destroy();
    });
    client.on('close', () => up.destroy());
    up.on('close', () => client.destroy());
  }

  /**
   * The download of a tunnel past HANDOFF_BYTES: the proxy stops reading the origin (up: its reads are
   * onread, so pause() stops them at once), waits until what it read is written to the sandbox's side,
   * then starts the splicer with both sockets (fds 3 and 4: libuv leaves those non-blocking, unlike
   * 0-2, whose flags the proxy's own copies share). From then on the proxy neither reads `up` nor
   * writes `client`; the upload direction stays its own. The splicer passes the origin's EOF on.
   */
  function handOff(up: Socket, client: Socket, onEnd: () => void): void {
    up.pause();
    up.off('end', onEnd);
    const start = (): void => {
      if (client.destroyed || up.destroyed) return;
      let child: ReturnType<typeof spawnChild>;
      try {
        child = spawnChild(splicer!, ['--splice'], { stdio: ['ignore', 'ignore', 'ignore', up, client] });
      } catch {
        up.on('end', onEnd);
        up.resume();
        return; // no splicer: the proxy carries on
      }
      // Node stops reading a socket it hands to a child: the upload direction is still ours.
      client.resume();
      splicers.add(child);
      spliced++;
      child.on('error', () => {
        splicers.delete(child);
        client.destroy();
      });
      // A splicer that failed leaves the download cut: end the tunnel rather than leave it hanging.
      child.on('exit', (code) => {
        splicers.delete(child);
        if (code !== 0) {
          client.destroy();
          up.destroy();
        }
      });
    };
    if (client.writableLength === 0) start();
    else client.once('drain', start);
  }

  /** SOCKS5 (RFC 1928), CONNECT only, no authentication: the same admission as an HTTP CONNECT. */
  function socks(client: Socket): void {
    let buf = Buffer.alloc(0);
    let greeted = false;
    const reply = (rep: number): Buffer => Buffer.from([5, rep, 0, 1, 0, 0, 0, 0, 0, 0]);
    const onData = (chunk: Buffer): void => {
      buf = Buffer.concat([buf, chunk]);
      if (buf.length > 600) {
        client.destroy();
        return;
      }
      if (!greeted) {
        if (buf.length < 2 || buf.length < 2 + buf[1]!) return;
        const methods = buf.subarray(2, 2 + buf[1]!);
        buf = buf.subarray(2 + buf[1]!);
        if (!methods.includes(0)) {
          client.end(Buffer.from([5, 0xff]));
          return;
        }
        client.write(Buffer.from([5, 0]));
        greeted = true;
      }
      const req = socksRequest(buf);
      if (req === null) return; // more to come
      client.off('data', onData);
      client.pause();
      if ('error' in req) {
        client.end(reply(req.error));
        return;
      }
      const rest = buf.subarray(req.length);
      void admit(req.host, req.port, 'SOCKS5').then((d) => {
        // 2: not allowed by the ruleset; 4: host unreachable.
        if (d.decision !== 'allowed') {
          client.end(reply(2));
          return;
        }
        client.resume();
        carry(
          client,
          d,
          rest,
          () => client.write(reply(0)),
          () => client.end(reply(4)),
        );
      });
    };
    client.on('data', onData);
  }

  async function plain(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      res.writeHead(400, { 'Content-Type': 'text/plain', Connection: 'close' }).end('sbx: this is a proxy: send an absolute http:// URL or CONNECT\n');
      return;
    }
    if (url.protocol !== 'http:') {
      res.writeHead(400, { 'Content-Type': 'text/plain', Connection: 'close' }).end(`sbx: ${url.protocol} through the proxy goes by CONNECT\n`);
      return;
    }
    const port = url.port ? Number(url.port) : 80;
    const d = await admit(url.hostname, port, 'HTTP');
    if (d.decision !== 'allowed') {
      res.writeHead(403, { 'Content-Type': 'text/plain', Connection: 'close' }).end(`sbx: refused ${d.host}:${d.port}: ${d.reason}\n`);
      return;
    }
    const headers: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined && !HOP.has(k)) headers[k] = v;
    const up = httpRequest({ host: d.address!, port, method: req.method, path: `${url.pathname}${url.search}`, headers, setHost: false, agent: false });
    up.on('response', (r) => {
      const out: Record<string, string | string[]> = {};
      for (const [k, v] of Object.entries(r.headers)) if (v !== undefined && !HOP.has(k)) out[k] = v;
      res.writeHead(r.statusCode ?? 502, out);
      r.pipe(res);
    });
    up.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'Content-Type': 'text/plain', Connection: 'close' }).end(`sbx: ${d.host}:${port}: no connection\n`);
      else res.destroy();
    });
    req.pipe(up);
  }

  // One socket for both: a SOCKS5 client's first byte is 5, an HTTP request's a letter.
  const front = createNetServer((s: Socket) => {
    track(s);
    s.on('error', () => s.destroy());
    s.once('data', (first: Buffer) => {
      s.pause();
      if (first[0] === 5) socks(s);
      else server.emit('connection', s);
      // Read again by the handler now listening: the HTTP parser, or socks().
      s.unshift(first);
      s.resume();
    });
  });
  await new Promise<void>((ok, fail) => {
    front.once('error', fail);
    front.listen(path, () => {
      front.off('error', fail);
      ok();
    });
  });
  // The sandbox user is not the caller (a mapped id): the socket is open to it, its directory is not.
  chmodSync(path, 0o666);
  return {
    decisions,
    get dropped() {
      return dropped;
    },
    get spliced() {
      return spliced;
    },
    close: () =>
      new Promise<void>((ok) => {
        front.close(() => ok());
        for (const s of open) s.destroy();
        for (const c of splicers) c.kill();
      }),
  };
}

/**
 * A SOCKS5 request at the start of `b`: the host (a name, or an address as text) and port, with the
 * bytes it took; null while incomplete; an error reply code (7: command not supported, 8: address type
 * not supported) for one sbx does not take. @internal (the host proxy's own; tests import it)
 */
export function socksRequest(b: Buffer): { host: string; port: number; length: number } | { error: number } | null {
  if (b.length < 5) return null;
  if (b[0] !== 5) return { error: 1 };
  if (b[1] !== 1) return { error: 7 }; // CONNECT only: no BIND, no UDP ASSOCIATE
  const atyp = b[3];
  let host: string;
  let at: number;
  if (atyp === 3) {
    at = 5 + b[4]!;
    if (b.length < at + 2) return null;
    host = b.subarray(5, at).toString('latin1');
  } else if (atyp === 1) {
    at = 8;
    if (b.length < at + 2) return null;
    host = [...b.subarray(4, 8)].join('.');
  } else if (atyp === 4) {
    at = 20;
    if (b.length < at + 2) return null;
    const h = b.subarray(4, 20).toString('hex');
    host = (h.match(/.{4}/g) ?? []).join(':');
  } else return { error: 8 };
  return { host, port: b.readUInt16BE(at), length: at + 2 };
}

/** `host:port` or `[v6]:port` of a CONNECT; null when malformed. */
function splitHostPort(s: string): { host: string; port: number } | null {
  const m = /^\[([0-9a-fA-F:.]+)\]:([0-9]{1,5})$/.exec(s) ?? /^([^:\[\]\s/]+):([0-9]{1,5})$/.exec(s);
  if (!m) return null;
  return { host: m[1]!, port: Number(m[2]) };
}
