// The work dir's host path in a log, read as /work: the sandbox shows the work dir there too (spec.ts
// workAlias), so a tool run through it prints `/home/u/proj/src/x.c:3:1: error`. The verdict names it as
// it names /work's paths (work-relative), and the same run at two host paths gives the same verdict.
// A byte scan over the chunks as they come, a match cut between two chunks included.

const SLASH = 0x2f;
const WORK = new TextEncoder().encode('/work');

/** A byte that continues a path component: the host path must not be the head of a longer name. */
const inName = (b: number): boolean => (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a) || b === 0x2e || b === 0x2d || b === 0x5f || b >= 0x80;

export interface AliasRewriter {
  /** The bytes of chunk that are final now, the host path replaced; the rest is held for the next push. */
  push(chunk: Uint8Array): Uint8Array;
  /** What is held, at the end of the input. */
  end(): Uint8Array;
}

/** A rewriter of `host` (an absolute path, not / nor /work) to /work, or null when there is nothing to rewrite. */
export function aliasRewriter(host: string | null | undefined): AliasRewriter | null {
  if (!host || host === '/' || host === '/work' || !host.startsWith('/')) return null;
  const pat = new TextEncoder().encode(host.endsWith('/') ? host.slice(0, -1) : host);
  const n = pat.length;
  let held = new Uint8Array(0);
  let before = 0; // the byte before `held` (0: the start of the input)
  const at = (buf: Uint8Array, i: number): boolean => {
    for (let k = 0; k < n; k++) if (buf[i + k] !== pat[k]) return false;
    return true;
  };
  // Rewrites buf[0, upto) (matches there may look one byte past it); the rest is held.
  const scan = (buf: Uint8Array, upto: number, last: boolean): Uint8Array => {
    const parts: Uint8Array[] = [];
    let from = 0;
    for (let i = buf.indexOf(SLASH); i >= 0 && i < upto; i = buf.indexOf(SLASH, i + 1)) {
      if (i + n > buf.length || !at(buf, i)) continue;
      const prev = i > 0 ? buf[i - 1]! : before;
      const next = i + n < buf.length ? buf[i + n]! : last ? 0 : -1;
      if (next < 0) break; // cannot tell yet: held
      if (prev === SLASH || inName(prev) || inName(next)) continue;
      parts.push(buf.subarray(from, i), WORK);
      from = i + n;
      i = from - 1;
    }
    const keep = Math.max(from, Math.min(upto, buf.length));
    parts.push(buf.subarray(from, keep));
    before = keep > 0 ? buf[keep - 1]! : before;
    held = buf.slice(keep);
    if (parts.length === 1) return parts[0]!;
    const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
    let o = 0;
    for (const p of parts) {
      out.set(p, o);
      o += p.length;
    }
    return out;
  };
  return {
    push(chunk) {
      const buf = held.length ? concat(held, chunk) : chunk;
      // A match may start in the last n bytes and run past the chunk: those wait for the next one.
      return scan(buf, Math.max(0, buf.length - n), false);
    },
    end() {
      const out = scan(held, held.length, true);
      held = new Uint8Array(0);
      return out;
    },
  };
}

/** bytes, whole, with `host` read as /work (aliasRewriter's rule). */
export function throughAlias(host: string | null | undefined, bytes: Uint8Array): Uint8Array {
  const rw = aliasRewriter(host);
  if (!rw) return bytes;
  const head = rw.push(bytes);
  const rest = rw.end();
  return rest.length ? concat(head, rest) : head;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
