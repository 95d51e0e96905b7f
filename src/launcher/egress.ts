// --allow-host around one launch: the proxy started on a socket in a private directory before the
// sandbox, stopped after it, and its decisions as the outcome's applied.network.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllowHost } from './allow-host.js';
import type { EgressProxy } from './egress-proxy.js';
import type { NetworkApplied } from './types.js';

export interface Egress {
  /** The proxy's socket on the host (bound into the sandbox). */
  socket: string;
  proxy: EgressProxy;
  /** What the run's outcome says of the network; then stops the proxy and removes its directory. */
  finish(): Promise<NetworkApplied>;
}

/** `splicer`: sbx-launch, which carries a tunnel's download past the first bytes (--splice); null: the proxy carries all. */
export async function openEgress(allowHosts: readonly string[], splicer: string | null = null): Promise<Egress> {
  const patterns = allowHosts.map(parseAllowHost);
  // mkdtemp makes it 0700: no other user of the host reaches the socket through it.
  const dir = mkdtempSync(join(tmpdir(), 'sbx-net-'));
  const socket = join(dir, 'proxy.sock');
  let proxy: EgressProxy;
  // Loaded only here: node:http, node:net and node:dns cost every other run's start-up milliseconds.
  try {
    const { startEgressProxy } = await import('./egress-proxy.js');
    proxy = await startEgressProxy(socket, patterns, { splicer });
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    socket,
    proxy,
    async finish() {
      await proxy.close();
      rmSync(dir, { recursive: true, force: true });
      return {
        allowed: patterns.map((p) => p.text),
        connections: proxy.decisions.map(({ host, port, decision, reason }) => ({ host, port, decision, reason })),
        unlisted: proxy.dropped,
      };
    },
  };
}
