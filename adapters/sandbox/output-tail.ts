/** Keeps the last bytes a process printed, so a failed start can say why without unbounded memory. */
export class OutputTail {
  private chunks: Buffer[] = [];
  private size = 0;

  constructor(private readonly limit = 8 * 1024) {}

  push(chunk: Buffer | string): void {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    this.chunks.push(buffer);
    this.size += buffer.length;
    while (this.size - (this.chunks[0]?.length ?? 0) >= this.limit && this.chunks.length > 1) {
      this.size -= this.chunks.shift()!.length;
    }
  }

  text(): string {
    const all = Buffer.concat(this.chunks);
    return all
      .subarray(Math.max(0, all.length - this.limit))
      .toString('utf8')
      .trim();
  }
}
