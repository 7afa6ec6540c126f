import { EgressRefused } from '../../domain/guard/egress.js';
import type { ClientDocumentRead, ClientMetadataDocuments } from '../../ports/client-metadata-documents.js';
import type { Egress } from '../../ports/egress.js';

export interface FetchedClientDocumentsOptions {
  /** The one egress guard (development's also reaches this machine, as completion webhooks do). */
  readonly egress: Egress;
  /** The whole read, name lookup to last byte (default 5 s). */
  readonly timeoutMs?: number;
  /** The largest document read (default 5 KiB, the draft's suggestion); a bigger one is refused. */
  readonly maxBytes?: number;
  /** The longest a document is kept, whatever its `Cache-Control: max-age` says (default 1 hour). */
  readonly maxCacheSeconds?: number;
  /** How many documents are kept at once; the oldest goes first (default 500). */
  readonly maxEntries?: number;
  readonly now?: () => number;
}

interface Kept {
  readonly document: unknown;
  readonly until: number;
}

/**
 * Client ID Metadata Documents read over HTTPS through the egress guard: no redirect is followed
 * (the draft's rule; a redirect to a private address is thus never even asked about), only a 200
 * counts, the body is cut off past `maxBytes` and the read past `timeoutMs`. A document is kept as
 * long as its `Cache-Control: max-age` says, capped; `no-store` or `no-cache` (or no max-age)
 * reads it every time. Concurrent reads of one URL share one request.
 */
export class FetchedClientDocuments implements ClientMetadataDocuments {
  private readonly egress: Egress;
  private readonly timeoutMs: number;
  private readonly maxBytes: number;
  private readonly maxCacheSeconds: number;
  private readonly maxEntries: number;
  private readonly now: () => number;
  private readonly kept = new Map<string, Kept>();
  private readonly reading = new Map<string, Promise<ClientDocumentRead>>();

  constructor(options: FetchedClientDocumentsOptions) {
    this.egress = options.egress;
    this.timeoutMs = options.timeoutMs ?? 5_000;
    this.maxBytes = options.maxBytes ?? 5 * 1024;
    this.maxCacheSeconds = options.maxCacheSeconds ?? 3_600;
    this.maxEntries = options.maxEntries ?? 500;
    this.now = options.now ?? Date.now;
  }

  read(url: string): Promise<ClientDocumentRead> {
    const kept = this.kept.get(url);
    if (kept && kept.until > this.now()) return Promise.resolve({ ok: true, document: kept.document });
    this.kept.delete(url);
    const under = this.reading.get(url);
    if (under) return under;
    const read = this.fetchDocument(url).finally(() => this.reading.delete(url));
    this.reading.set(url, read);
    return read;
  }

  private async fetchDocument(url: string): Promise<ClientDocumentRead> {
    const signal = AbortSignal.timeout(this.timeoutMs);
    let response: Response;
    try {
      response = await this.egress.fetch(url, { redirect: 'manual', signal, headers: { accept: 'application/json' } });
    } catch (error) {
      return { ok: false, problem: this.unreachable(error, signal) };
    }
    if (response.status !== 200) {
      await response.body?.cancel();
      const redirect = response.status >= 300 && response.status < 400;
      return { ok: false, problem: redirect ? 'redirects; the door does not follow redirects' : `answered ${response.status}, not 200` };
    }
    let text: string;
    try {
      const body = await this.bodyOf(response, signal);
      if (body === null) return { ok: false, problem: `is larger than ${this.maxBytes} bytes` };
      text = body;
    } catch (error) {
      return { ok: false, problem: this.unreachable(error, signal) };
    }
    let document: unknown;
    try {
      document = JSON.parse(text);
    } catch {
      return { ok: false, problem: 'is not JSON' };
    }
    this.keep(url, document, response.headers.get('cache-control'));
    return { ok: true, document };
  }

  /** The body as text, or null when it is larger than maxBytes (read no further than that). */
  private async bodyOf(response: Response, signal: AbortSignal): Promise<string | null> {
    const declared = Number(response.headers.get('content-length') ?? NaN);
    if (declared > this.maxBytes) {
      await response.body?.cancel();
      return null;
    }
    if (!response.body) return '';
    const reader = response.body.getReader();
    // A body that trickles in is cut off at the deadline like one that never starts.
    const cutOff = () => void reader.cancel().catch(() => undefined);
    signal.addEventListener('abort', cutOff, { once: true });
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read().finally(() => signal.throwIfAborted());
      if (done) break;
      size += value.byteLength;
      if (size > this.maxBytes) {
        await reader.cancel();
        return null;
      }
      chunks.push(value);
    }
    signal.removeEventListener('abort', cutOff);
    return Buffer.concat(chunks).toString('utf8');
  }

  private unreachable(error: unknown, signal: AbortSignal): string {
    if (signal.aborted) return `did not arrive within ${this.timeoutMs / 1000} s`;
    if (error instanceof EgressRefused) return `cannot be fetched: ${error.message}`;
    if (error instanceof Error && error.name === 'UnresolvedHost') return `cannot be fetched: ${error.message}`;
    const code = error instanceof Error && (error.cause as { code?: unknown } | undefined)?.code;
    return typeof code === 'string' ? `could not be reached (${code})` : 'could not be reached';
  }

  private keep(url: string, document: unknown, cacheControl: string | null): void {
    const directives = (cacheControl ?? '')
      .toLowerCase()
      .split(',')
      .map((part) => part.trim());
    if (directives.includes('no-store') || directives.includes('no-cache')) return;
    const maxAge = Number(/^max-age=(\d+)$/.exec(directives.find((part) => part.startsWith('max-age=')) ?? '')?.[1] ?? 0);
    const seconds = Math.min(maxAge, this.maxCacheSeconds);
    if (seconds <= 0) return;
    if (this.kept.size >= this.maxEntries) this.kept.delete(this.kept.keys().next().value!);
    this.kept.set(url, { document, until: this.now() + seconds * 1000 });
  }
}
