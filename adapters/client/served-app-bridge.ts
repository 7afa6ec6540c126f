import { PorterWireError, callWire } from './wire-call.js';
import type { PorterClientOptions } from './wire-url.js';

/** The `porter` field of every message of the app bridge, both ways. */
export const APP_BRIDGE_PROTOCOL = 'porter-app-bridge';

/** The colour scheme and accent a served page should follow. */
export interface ServedAppTheme {
  readonly scheme: 'light' | 'dark';
  /** A CSS hex colour, e.g. `#4f46e5`. */
  readonly accent?: string;
}

export interface ServedAppBridgeOptions extends PorterClientOptions {
  /** The served app whose page the frame shows. */
  readonly appId: string;
  /** The frame showing `{wire}/apps/<appId>/view/`; only its window is answered. */
  readonly frame: HTMLIFrameElement;
  /** The scheme and accent to tell the page (asked on each hello); the page's own media query otherwise. */
  readonly theme?: () => ServedAppTheme;
  /** Called after the page changed something (a record written, an action run), e.g. to refresh a badge. */
  readonly onChange?: (change: { readonly op: string; readonly result: unknown }) => void;
  /**
   * Called when the page says how tall its content is, clamped to `SERVED_APP_HEIGHT` (the page is
   * untrusted: it may say anything), so the frame can fit it.
   */
  readonly onSize?: (height: number) => void;
}

/** The heights, in CSS pixels, a served page may ask its frame for. */
export const SERVED_APP_HEIGHT = { min: 120, max: 4000 } as const;

const SEGMENT = /^[A-Za-z0-9_-]{1,128}$/;
const NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

/**
 * Connects a served app's page to the wire, as the person who opened it. The page runs sandboxed
 * in an opaque origin, with no cookies and nothing of the host, so it cannot call the wire itself;
 * it asks its frame over `postMessage` instead, and this answers. Requests (`{porter, v: 1, id, op}`):
 *
 * - `hello` → `{theme}`;
 * - `records.list {collection}`, `records.put {collection, recordId?, data}`, `records.delete
 *   {collection, recordId}` → the wire's answer for the app's own records;
 * - `action {action, input}` → a tool action of the app's document, through the guard (`ran` or `parked`);
 * - `fn {name, input}` → the app's own function on its server.
 *
 * Every request becomes a call under `{wire}/apps/<appId>/` only, with each name checked as one
 * path segment, so the page can do no more than the app's tree could: read and write its own
 * records and run its own actions. The page may also say how tall its content is (`{porter, v: 1,
 * op: 'size', height}`, no answer), passed to `onSize` clamped. Answers are `{porter, v: 1, id, ok: true, result}` or
 * `{…, ok: false, error: {code, message}}`, posted to that window alone. `theme` updates may be
 * pushed with the returned `sendTheme`. Returns a function that disconnects.
 */
export function connectServedApp(options: ServedAppBridgeOptions): { disconnect(): void; sendTheme(theme: ServedAppTheme): void } {
  const base = `${options.wire.replace(/\/+$/, '')}/apps/${encodeURIComponent(options.appId)}`;
  const post = (message: object) => options.frame.contentWindow?.postMessage({ porter: APP_BRIDGE_PROTOCOL, v: 1, ...message }, '*');

  const perform = async (request: Record<string, unknown>): Promise<unknown> => {
    const segment = (key: string, rule: RegExp) => {
      const value = request[key];
      if (typeof value !== 'string' || !rule.test(value)) throw new PorterWireError(400, 'validation', `${key} must be a name`);
      return encodeURIComponent(value);
    };
    switch (request.op) {
      case 'hello':
        return { theme: options.theme?.() ?? null };
      case 'records.list':
        return callWire(options, 'GET', `${base}/records/${segment('collection', SEGMENT)}?limit=100`);
      case 'records.put': {
        const record = request.recordId === undefined ? '' : `/${segment('recordId', SEGMENT)}`;
        return callWire(options, 'PUT', `${base}/records/${segment('collection', SEGMENT)}${record}`, { data: request.data ?? {} });
      }
      case 'records.delete':
        return callWire(options, 'DELETE', `${base}/records/${segment('collection', SEGMENT)}/${segment('recordId', SEGMENT)}`);
      case 'action':
        return callWire(options, 'POST', `${base}/actions/${segment('action', NAME)}`, { input: request.input ?? {} });
      case 'fn':
        return callWire(options, 'POST', `${base}/fn/${segment('name', NAME)}`, request.input ?? null);
      default:
        throw new PorterWireError(400, 'validation', `Unknown request: ${String(request.op)}`);
    }
  };

  const onMessage = (event: MessageEvent) => {
    // Only the frame's own window, and only while it shows a sandboxed (opaque-origin) page.
    if (event.source !== options.frame.contentWindow || event.origin !== 'null') return;
    const request = event.data as Record<string, unknown> | null;
    if (!request || request.porter !== APP_BRIDGE_PROTOCOL) return;
    // A notice, not a request: nothing is answered.
    if (request.op === 'size') {
      const height = request.height;
      if (typeof height === 'number' && Number.isFinite(height))
        options.onSize?.(Math.round(Math.min(SERVED_APP_HEIGHT.max, Math.max(SERVED_APP_HEIGHT.min, height))));
      return;
    }
    if (typeof request.id !== 'number' || typeof request.op !== 'string') return;
    const id = request.id;
    perform(request).then(
      (result) => {
        post({ id, ok: true, result: result ?? null });
        if (request.op !== 'hello' && request.op !== 'records.list') options.onChange?.({ op: request.op as string, result });
      },
      (error: unknown) =>
        post({
          id,
          ok: false,
          error:
            error instanceof PorterWireError
              ? { code: error.code, message: error.message }
              : { code: 'offline', message: 'Porter could not be reached. Try again.' },
        }),
    );
  };
  window.addEventListener('message', onMessage);
  return {
    disconnect: () => window.removeEventListener('message', onMessage),
    sendTheme: (theme) => post({ op: 'theme', theme }),
  };
}
