// What a run's profile kept from the command that the verdict alone would not say: a name lookup that
// failed because the sandbox has no network, and a sanitizer run whose leak check was off because
// LeakSanitizer needs ptrace. Lines for stderr and the verdict's footer, next to unappliedLimits.
import { closeSync, openSync, fstatSync } from 'node:fs';
import { readTail, type NetworkApplied } from '../launcher/index.js';
import type { RunResult } from '../engine/index.js';
import { quarantineNotes, type Quarantined } from './control-files.js';

const TAIL = 256 * 1024;
/** How resolvers say a host name did not resolve (glibc, curl, Node, Go, Python, pip, cargo, npm). */
const DNS_FAILED =
  /Temporary failure in name resolution|Could not resolve host|getaddrinfo (?:ENOTFOUND|EAI_AGAIN)|Name or service not known|no such host|Failed to establish a new connection: \[Errno -3\]|failed to lookup address information|Could not resolve hostname|EAI_AGAIN/;
/** A timed-out run that printed at most this many lines was silent. */
const SILENT_LINES = 2;
const SANITIZED = /-fsanitize=(?:[a-z,]*\b)?(?:address|leak)\b/;

export interface RunProfile {
  cmd: readonly string[];
  net: boolean;
  seccomp: boolean;
  allowPtrace: boolean;
  allowHosts?: readonly string[];
}

/** Refused connections named one a line, at most this many. */
const MAX_REFUSED_NOTES = 8;

export function runNotes(env: RunResult, p: RunProfile): string[] {
  // A command the sandbox resolves to another tool than the caller's shell (src/host/toolchains.ts):
  // said even when it was not found at all (setup-failed), where it matters most.
  const tools = (env.outcome as { tool_notes?: unknown } | null)?.tool_notes;
  const toolNotes = Array.isArray(tools) ? tools.filter((n): n is string => typeof n === 'string') : [];
  if (env.verdict.status === 'setup-failed' || !env.log) return toolNotes;
  const q = (env.outcome as { quarantined?: Quarantined[] } | null)?.quarantined;
  const notes: string[] = [...toolNotes, ...(Array.isArray(q) ? quarantineNotes(q) : [])];
  if ((env.outcome as { state_vanished?: boolean } | null)?.state_vanished) {
    notes.push(
      'the state dir (.sbx) was gone when this run started, though sbx had made it before: deleted by hand or by another command; the delta has nothing to compare with, so this reads as a first run',
    );
  }
  const network = (env.outcome as { applied?: { network?: NetworkApplied } } | null)?.applied?.network;
  if (network) notes.push(...refusedNotes(network));
  const tail = logTail(env.log);
  if (p.allowHosts?.length) {
    if (DNS_FAILED.test(tail))
      notes.push('a host name did not resolve: the sandbox resolves no names itself; with --allow-host only a client that goes through the proxy (HTTPS_PROXY, set inside) reaches the allowed hosts');
  } else if (!p.net && DNS_FAILED.test(tail)) {
    notes.push('a host name did not resolve: the sandbox has no network but loopback; pass --net if the command needs it (it opens egress)');
  } else if (!p.net && env.verdict.status === 'timeout' && tail.trim().split('\n').filter(Boolean).length <= SILENT_LINES) {
    // npm, pip and cargo retry a failed download for minutes before they say anything.
    notes.push(
      'the run timed out with next to no output, and the sandbox has no network but loopback: a command waiting on a download (npm install, pip install, cargo fetch, go mod download) looks like this; pass --net if it needs the network (it opens egress)',
    );
  }
  if (p.seccomp && !p.allowPtrace && env.verdict.status === 'pass' && (SANITIZED.test(p.cmd.join(' ')) || SANITIZED.test(tail))) {
    notes.push('LeakSanitizer was off (it stops the world with ptrace, which the sandbox denies): a leak would not fail this run; pass --allow-ptrace to check for leaks');
  }
  return notes;
}

/** One line per refused host:port (`network: refused x.example:443 — not in --allow-host`), in order. */
export function refusedNotes(network: NetworkApplied): string[] {
  const seen = new Map<string, string>();
  for (const c of network.connections) {
    const key = `${c.host.includes(':') ? `[${c.host}]` : c.host}:${c.port}`;
    if (c.decision === 'refused' && !seen.has(key)) seen.set(key, c.reason ?? 'refused');
  }
  const lines = [...seen].slice(0, MAX_REFUSED_NOTES).map(([k, why]) => `network: refused ${k} — ${why}`);
  const more = seen.size - lines.length + (network.unlisted > 0 ? 1 : 0);
  if (more > 0)
    lines.push(
      `network: ${seen.size > lines.length ? `${seen.size - lines.length} more host(s) refused` : 'more connections'}${network.unlisted > 0 ? `, ${network.unlisted} connection(s) past the first 1000 not listed` : ''}; see outcome.applied.network`,
    );
  return lines;
}

function logTail(path: string): string {
  let fd: number | null = null;
  try {
    fd = openSync(path, 'r');
    return Buffer.from(readTail(fd, fstatSync(fd).size, TAIL)).toString('utf8');
  } catch {
    return '';
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/** The rendered verdict with notes as footer lines (`note: ...`), as sbx run prints it. */
export function withNotes(text: string, notes: readonly string[]): string {
  return notes.length ? `${text}${text.endsWith('\n') ? '' : '\n'}${notes.map((n) => `note: ${n}\n`).join('')}` : text;
}
