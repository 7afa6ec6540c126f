import { AppPageFailed } from '../../domain/apps/app-errors.js';
import { NotFound } from '../../domain/errors.js';
import type { Principal } from '../../domain/principal.js';
import type { UseCase } from '../../ports/use-case.js';
import type { PageAnswer } from '../../ports/use-cases/apps.js';
import type { AppBook } from './app-book.js';
import { askServedApp, orUnreachable } from './ask-served-app.js';
import type { ServedRollout } from './served-rollout.js';
import { defined } from '../../domain/defined.js';

/** The largest page or asset passed on through the wire. */
export const MAX_PAGE_BYTES = 8 * 1024 * 1024;
const MAX_REDIRECTS = 5;
const PAGE_TIMEOUT_MS = 30_000;
/** Only a same-app location is followed; this stands in for the app's own origin. */
const APP_ORIGIN = 'http://app.invalid';

type Input = { principal: Principal; appId: string; path: string; accept?: string; acceptLanguage?: string };

/**
 * `GET /apps/:id/view[/*]`: a page or asset of the served app, fetched from its own server in its
 * sandbox. Nothing of the person's request reaches the app but the path and what they accept (no
 * cookies, no authorization), and nothing of its answer comes back but the status, the content
 * type and the bytes. A redirect to another of the app's own paths is followed here; one that
 * leaves the app is refused, so the app cannot aim anyone's browser or the host's network elsewhere.
 * A server that went away is restored from its snapshot first (logged by ServedRollout).
 */
export class ViewServedApp implements UseCase<Input, PageAnswer> {
  constructor(
    private readonly book: AppBook,
    private readonly rollout: ServedRollout,
  ) {}

  async execute({ principal, appId, path, accept, acceptLanguage }: Input): Promise<PageAnswer> {
    const { app } = await this.book.visibleTo(principal, appId);
    const session = await this.rollout.runningOrRestored(app);
    const headers: Record<string, string> = defined({ accept: accept || undefined, 'accept-language': acceptLanguage || undefined });
    const signal = AbortSignal.timeout(PAGE_TIMEOUT_MS);
    let target = path;
    try {
      for (let hops = 0; ; hops++) {
        const response = await askServedApp(session, target, { method: 'GET', headers, signal });
        if (response.status >= 300 && response.status < 400) {
          await response.body?.cancel();
          const next = sameAppLocation(response.headers.get('location'), target);
          if (!next) throw new AppPageFailed(response.status, 'it redirects outside the app');
          if (hops >= MAX_REDIRECTS) throw new AppPageFailed(response.status, 'it redirects too many times');
          target = next;
          continue;
        }
        if (response.status === 404) {
          await response.body?.cancel();
          throw new NotFound('Page');
        }
        if (response.status < 200 || response.status >= 300) {
          await response.body?.cancel();
          throw new AppPageFailed(response.status, `the app answered ${response.status}`);
        }
        const body = await orUnreachable(readCapped(response, MAX_PAGE_BYTES), signal);
        return { status: response.status, contentType: response.headers.get('content-type') ?? 'application/octet-stream', body };
      }
    } catch (error) {
      if (signal.aborted) throw new AppPageFailed(504, `it did not answer within ${PAGE_TIMEOUT_MS / 1000} s`);
      throw await this.rollout.explained(session, error);
    }
  }
}

/** The path and query a redirect names, when it stays on the app's own server; null otherwise. */
function sameAppLocation(location: string | null, from: string): string | null {
  if (!location) return null;
  try {
    const url = new URL(location, `${APP_ORIGIN}${from}`);
    return url.origin === APP_ORIGIN ? `${url.pathname}${url.search}` : null;
  } catch {
    return null;
  }
}

/** The body, refusing past `max` bytes without reading the rest. */
async function readCapped(response: Response, max: number): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > max) {
    await response.body?.cancel();
    throw new AppPageFailed(response.status, `it is larger than ${max} bytes`);
  }
  if (!response.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      throw new AppPageFailed(response.status, `it is larger than ${max} bytes`);
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}
