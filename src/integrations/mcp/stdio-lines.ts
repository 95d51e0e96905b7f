// The MCP stdio transport of `sbx mcp`, with a bound on one message. The SDK's StdioServerTransport
// gathers stdin until a newline with no bound on a line, only one on its whole buffer (10 MiB), and past
// that it closes the transport: the server ended in silence, the request unanswered. Here a line longer
// than MAX_LINE is not kept: its bytes are only scanned for the request's id, and the answer is a
// JSON-RPC error with that id; the server goes on with the next line. A line that is not JSON gets the
// parse error JSON-RPC prescribes (the SDK's reported it to no one).
import type { Readable, Writable } from 'node:stream';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

/**
 * The longest request line read, in bytes: 8 MiB. A tool call is a command line, a path, or at most a log's
 * text handed to verdict; more than that is better sent as a file (verdict's log).
 */
export const MAX_LINE = 8 << 20;

const enum Byte {
  TAB = 0x09,
  LF = 0x0a,
  CR = 0x0d,
  SPACE = 0x20,
  QUOTE = 0x22,
  COMMA = 0x2c,
  COLON = 0x3a,
  LBRACKET = 0x5b,
  BACKSLASH = 0x5c,
  RBRACKET = 0x5d,
  LBRACE = 0x7b,
  RBRACE = 0x7d,
  D = 0x64,
  I = 0x69,
}

export class BoundedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private parts: Buffer[] = [];
  private size = 0;
  /** While an over-long line is passed over: its length so far and the scan for its id. */
  private over: { bytes: number; ids: IdScanner } | null = null;

  constructor(
    private readonly stdin: Readable = process.stdin,
    private readonly stdout: Writable = process.stdout,
    private readonly max = MAX_LINE,
  ) {}

  async start(): Promise<void> {
    this.stdin.on('data', this.ondata);
    this.stdin.on('error', this.onstdinerror);
  }

  async close(): Promise<void> {
    this.stdin.off('data', this.ondata);
    this.stdin.off('error', this.onstdinerror);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.parts = [];
    this.size = 0;
    this.over = null;
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((done) => {
      if (this.stdout.write(`${JSON.stringify(message)}\n`)) done();
      else this.stdout.once('drain', done);
    });
  }

  private readonly onstdinerror = (err: Error): void => {
    this.onerror?.(err);
  };

  private readonly ondata = (chunk: Buffer): void => {
    for (let at = 0; at < chunk.length;) {
      const nl = chunk.indexOf(Byte.LF, at);
      this.take(chunk.subarray(at, nl < 0 ? chunk.length : nl));
      if (nl < 0) break;
      this.endLine();
      at = nl + 1;
    }
  };

  private take(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.over === null && this.size + piece.length > this.max) {
      // Over the bound: what was kept is scanned and let go, and so is the rest of the line as it comes.
      this.over = { bytes: 0, ids: new IdScanner() };
      for (const p of this.parts) this.passOver(p);
      this.parts = [];
      this.size = 0;
    }
    if (this.over !== null) this.passOver(piece);
    else {
      this.parts.push(piece);
      this.size += piece.length;
    }
  }

  private passOver(piece: Buffer): void {
    this.over!.bytes += piece.length;
    this.over!.ids.scan(piece);
  }

  private endLine(): void {
    if (this.over !== null) {
      const { bytes, ids } = this.over;
      this.over = null;
      void this.reply(
        ids.id(),
        -32600,
        `request of ${bytes} bytes is over sbx mcp's limit of ${this.max} bytes (${this.max / (1 << 20)} MiB) on one message; it was not read: send less (to verdict, a log file's path rather than its text)`,
      );
      return;
    }
    let line = Buffer.concat(this.parts, this.size);
    this.parts = [];
    this.size = 0;
    if (line.length > 0 && line[line.length - 1] === Byte.CR) line = line.subarray(0, -1);
    const text = line.toString('utf8');
    if (text.trim() === '') return;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (err) {
      void this.reply(null, -32700, `parse error: the line is not JSON (${(err as Error).message})`);
      return;
    }
    const r = JSONRPCMessageSchema.safeParse(json);
    if (!r.success) {
      this.onerror?.(new Error(`not a JSON-RPC message: ${r.error.message}`));
      return;
    }
    this.onmessage?.(r.data);
  }

  private reply(id: string | number | null, code: number, message: string): Promise<void> {
    // id null: JSON-RPC's answer when the request's id could not be read (JSONRPCMessage has no such case).
    return this.send({ jsonrpc: '2.0', id, error: { code, message } } as unknown as JSONRPCMessage);
  }
}

const MAX_ID = 256;

/**
 * The top-level "id" of a JSON object read a piece at a time, without keeping the text: depth and string
 * state, and the raw bytes of the id's value (at most MAX_ID). The SDK's client writes id after params,
 * and params may hold an "id" of its own, so neither a prefix nor a search for `"id":` would do.
 * UTF-8 continuation bytes never equal an ASCII byte, so the scan is byte-wise.
 */
class IdScanner {
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** At depth 1: the next string is a key (after `{` or `,`). */
  private keyNext = false;
  /** The key being read, as raw bytes (only whether it is exactly `id` matters). */
  private key: number[] | null = null;
  /** The key just read was "id": waiting for its colon. */
  private idKey = false;
  /** The id's value as read so far, or null when not inside it. */
  private value: number[] | null = null;
  private found: string | number | null = null;

  scan(buf: Buffer): void {
    for (let i = 0; i < buf.length; i++) this.step(buf[i]!);
  }

  /** The id, when the line was an object with a string or number id at its top level. */
  id(): string | number | null {
    if (this.value !== null) this.closeValue(); // the line ended inside it (`..."id":7` cut short)
    return this.found;
  }

  private step(b: number): void {
    if (this.value !== null) {
      if (!this.inString && this.depth === 1 && (b === Byte.COMMA || b === Byte.RBRACE)) this.closeValue();
      else if (this.value.length <= MAX_ID) this.value.push(b);
    }
    if (this.inString) {
      if (this.escaped) this.escaped = false;
      else if (b === Byte.BACKSLASH) {
        this.escaped = true;
        if (this.key) this.key.push(-1);
      } else if (b === Byte.QUOTE) {
        this.inString = false;
        if (this.key) {
          this.idKey = this.key.length === 2 && this.key[0] === Byte.I && this.key[1] === Byte.D;
          this.key = null;
        }
      } else if (this.key && this.key.length < 3) this.key.push(b);
      return;
    }
    switch (b) {
      case Byte.QUOTE:
        this.inString = true;
        if (this.depth === 1 && this.keyNext) {
          this.key = [];
          this.keyNext = false;
        }
        break;
      case Byte.LBRACE:
      case Byte.LBRACKET:
        this.depth++;
        if (this.depth === 1) this.keyNext = b === Byte.LBRACE;
        break;
      case Byte.RBRACE:
      case Byte.RBRACKET:
        this.depth--;
        break;
      case Byte.COMMA:
        if (this.depth === 1) this.keyNext = true;
        break;
      case Byte.COLON:
        if (this.depth === 1 && this.idKey) {
          this.idKey = false;
          this.value = [];
        }
        break;
      case Byte.SPACE:
      case Byte.TAB:
      case Byte.LF:
      case Byte.CR:
        break;
      default:
        if (this.depth === 1) this.idKey = false;
    }
  }

  private closeValue(): void {
    const raw = this.value!;
    this.value = null;
    if (raw.length > MAX_ID) return;
    try {
      const v: unknown = JSON.parse(Buffer.from(raw).toString('utf8'));
      if (typeof v === 'string' || typeof v === 'number') this.found = v;
    } catch {
      /* not a value JSON-RPC allows as an id */
    }
  }
}
