// The frames between native/client.c and the resident sbx, both ways: a 4-byte little-endian length,
// a type byte, the payload (the length counts the type byte).
//   client: 'H' header (NUL-terminated fields: PROTO, key, cwd, umask in octal, groups "egid,g1,...",
//           /proc/self/cgroup, argc, argv..., environ...), 'I' stdin bytes, 'E' end of stdin, 'S' a signal's name
//   server: 'A' accepted, 'F' declined (the reason; "restart..." when the client should start a new
//           server), 'O' stdout bytes, 'R' stderr bytes, 'X' the exit code
// PROTO changes with any change of these; native/client.c has the same string.
export const PROTO = 'sbx-client/2';
export const MAX_FRAME = 16 << 20;

export function frame(type: string, payload: Buffer | string = ''): Buffer {
  const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
  const out = Buffer.allocUnsafe(5 + body.length);
  out.writeUInt32LE(body.length + 1, 0);
  out[4] = type.charCodeAt(0);
  body.copy(out, 5);
  return out;
}

export interface Frame {
  type: string;
  payload: Buffer;
}

/** Frames out of a byte stream; `bad` is set (and nothing more is returned) on a frame over MAX_FRAME. */
export class FrameReader {
  private buf: Buffer = Buffer.alloc(0);
  bad = false;

  push(chunk: Buffer): Frame[] {
    if (this.bad) return [];
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    const out: Frame[] = [];
    while (this.buf.length >= 5) {
      const len = this.buf.readUInt32LE(0);
      if (len === 0 || len > MAX_FRAME) {
        this.bad = true;
        return out;
      }
      if (this.buf.length < 4 + len) break;
      out.push({ type: String.fromCharCode(this.buf[4]!), payload: this.buf.subarray(5, 4 + len) });
      this.buf = this.buf.subarray(4 + len);
    }
    return out;
  }
}
