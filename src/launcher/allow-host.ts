// --allow-host PATTERN: the names the egress proxy admits, and what counts as a private address.
//
// A pattern is `NAME`, `*.NAME` (any name under NAME, not NAME itself) or an IP literal, each with an
// optional `:PORT` (else any port). A name is admitted when a pattern matches it; it is then resolved
// by the proxy, and an address that is not public (loopback, private, link-local, ...) is refused
// unless the pattern that admitted it names the host exactly: a wildcard never reaches the host's own
// services, whatever the name resolves to (DNS rebinding). An IP literal is refused unless a pattern
// is that literal.
import type { BlockList } from 'node:net';
import { nodeNet } from './on-demand.js';

/** node:net on first use: every run parses its flags, few name a host, and loading it costs a cold start. */
const isIP = (s: string): number => nodeNet().isIP(s);
import { SbxError } from '../contract/index.js';

export interface HostPattern {
  /** As the user wrote it. */
  text: string;
  /** Lower-case name (without `*.`), or the IP literal (IPv6 without brackets). */
  host: string;
  wildcard: boolean;
  port: number | null;
}

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

function badPattern(s: string, why: string): SbxError {
  return new SbxError('E_USAGE', `--allow-host ${JSON.stringify(s)}: ${why}; write NAME, *.NAME or an IP address, each with an optional :PORT (e.g. registry.example.com, *.example.com:443)`);
}

export function parseAllowHost(s: string): HostPattern {
  if (typeof s !== 'string' || s.length === 0 || s.length > 300) throw badPattern(String(s), 'empty or too long');
  let rest = s.trim().toLowerCase();
  let port: number | null = null;
  let host: string;
  if (rest.startsWith('[')) {
    const end = rest.indexOf(']');
    if (end < 0) throw badPattern(s, 'an unclosed [');
    host = rest.slice(1, end);
    rest = rest.slice(end + 1);
    if (rest && !rest.startsWith(':')) throw badPattern(s, 'text after ]');
    if (isIP(host) !== 6) throw badPattern(s, 'not an IPv6 address in [ ]');
    if (rest) port = parsePort(s, rest.slice(1));
    return { text: s, host, wildcard: false, port };
  }
  if (isIP(rest) === 6) return { text: s, host: rest, wildcard: false, port: null };
  const colon = rest.lastIndexOf(':');
  if (colon >= 0) {
    port = parsePort(s, rest.slice(colon + 1));
    rest = rest.slice(0, colon);
  }
  const wildcard = rest.startsWith('*.');
  host = wildcard ? rest.slice(2) : rest;
  if (host.endsWith('.')) host = host.slice(0, -1);
  if (isIP(host) === 4) {
    if (wildcard) throw badPattern(s, 'a wildcard over an IP address');
    return { text: s, host, wildcard: false, port };
  }
  const labels = host.split('.');
  if (!labels.every((l) => LABEL.test(l))) throw badPattern(s, 'not a host name (letters, digits, - and . only; * only as a leading *.)');
  if (wildcard && labels.length < 2) throw badPattern(s, 'a wildcard over a whole top-level domain');
  return { text: s, host, wildcard, port };
}

function parsePort(s: string, p: string): number {
  const n = /^[0-9]{1,5}$/.test(p) ? Number(p) : NaN;
  if (!(n >= 1 && n <= 65535)) throw badPattern(s, `bad port ${JSON.stringify(p)}`);
  return n;
}

/** The host as a pattern compares it: lower case, no trailing dot, IPv6 without brackets. */
export function normalHost(h: string): string {
  let x = h.toLowerCase();
  if (x.startsWith('[') && x.endsWith(']')) x = x.slice(1, -1);
  if (x.endsWith('.')) x = x.slice(0, -1);
  return x;
}

/** The pattern that admits host:port, an exact one before a wildcard; null when none does. */
export function matchHost(patterns: readonly HostPattern[], host: string, port: number): HostPattern | null {
  const h = normalHost(host);
  const fits = (p: HostPattern): boolean => p.port === null || p.port === port;
  const exact = patterns.find((p) => !p.wildcard && p.host === h && fits(p));
  if (exact) return exact;
  if (isIP(h)) return null;
  return patterns.find((p) => p.wildcard && h.endsWith(`.${p.host}`) && fits(p)) ?? null;
}

let notPublic: BlockList | null = null;
function notPublicList(): BlockList {
  if (notPublic) return notPublic;
  const list = new (nodeNet().BlockList)();
  for (const [net, bits] of [
    ['0.0.0.0', 8],
    ['10.0.0.0', 8],
    ['100.64.0.0', 10],
    ['127.0.0.0', 8],
    ['169.254.0.0', 16],
    ['172.16.0.0', 12],
    ['192.0.0.0', 24],
    ['192.0.2.0', 24],
    ['192.88.99.0', 24],
    ['192.168.0.0', 16],
    ['198.18.0.0', 15],
    ['198.51.100.0', 24],
    ['203.0.113.0', 24],
    ['224.0.0.0', 4],
    ['240.0.0.0', 4],
  ] as const)
    list.addSubnet(net, bits, 'ipv4');
  for (const [net, bits] of [
    ['::', 128],
    ['::1', 128],
    ['100::', 64],
    ['2001:db8::', 32],
    ['fc00::', 7],
    ['fe80::', 10],
    ['fec0::', 10],
    ['ff00::', 8],
  ] as const)
    list.addSubnet(net, bits, 'ipv6');
  return (notPublic = list);
}

/** True for an address on the public internet; false for loopback, private, link-local, multicast, reserved ones. */
export function isPublicAddress(addr: string): boolean {
  const v = isIP(addr);
  if (v === 0) return false;
  // IPv4-mapped and NAT64 addresses are refused as a class: BlockList checks an IPv4 address against
  // IPv4-mapped rules as well, so they cannot be listed above without refusing every IPv4 address.
  if (v === 6 && /^(?:::ffff:|64:ff9b:)/i.test(addr)) return false;
  return !notPublicList().check(addr, v === 4 ? 'ipv4' : 'ipv6');
}
