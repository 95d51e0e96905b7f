// A bounded tail of a byte stream: keeps the last `limit` bytes without copying on every push.
export class Tail {
  private chunks: Uint8Array[] = [];
  private size = 0;

  constructor(private readonly limit: number) {}

  push(chunk: Uint8Array): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
    // Drop whole chunks from the front while the rest still covers the limit.
    while (this.chunks.length > 1 && this.size - (this.chunks[0]?.length ?? 0) >= this.limit) {
      this.size -= this.chunks.shift()?.length ?? 0;
    }
  }

  bytes(): Uint8Array {
    const all = Buffer.concat(this.chunks, this.size);
    const start = Math.max(0, all.length - this.limit);
    return new Uint8Array(all.buffer, all.byteOffset + start, all.length - start);
  }
}
